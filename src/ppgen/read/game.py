"""Load and check `cards.yaml`: the card database.

Every problem is reported at once with file:line:col: unknown keys, wrong
types, out-of-range stats, duplicate ids and codes, a card that breaks the
kind rules, a faction whose starter copies do not total the deck size.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import DataError, Problem
from .gamedir import GameDir
from .model import KINDS, STATS, WHEN, WHOSE, BonusPart, Card, Faction, Rules
from .schema import Field, check_mapping, did_you_mean, in_range, one_of
from .yamlio import Doc

ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
COLOUR_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")
CODE_RE = re.compile(r"^[A-Z]{2,5}-\d{2,3}$")


def _id_check(v):
    return None if ID_RE.match(v) else "must be lowercase letters, digits and hyphens (e.g. hastati-line)"


def _colour_check(v):
    return None if COLOUR_RE.match(v) else 'must be a colour like "#9B1C1C" (quoted)'


def _ints(n: int, lo: int = 1, hi: int = 99):
    def check(v):
        if len(v) != n or not all(isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi for x in v):
            return f"must be a list of {n} whole numbers"
        return None

    return check


RULES_SPEC = {
    "starting_life": Field(int, True, check=in_range(1, 999)),
    "opening_hand": Field(int, True, check=in_range(0, 99)),
    "hand_limit": Field(int, True, check=in_range(1, 99)),
    "deck_size": Field(int, True, check=in_range(1, 999)),
    "max_copies": Field(int, True, check=in_range(1, 99)),
    "commanders_min": Field(int, True, check=in_range(0, 99)),
    "commanders_max": Field(int, True, check=in_range(0, 99)),
    "terrain_max": Field(int, True, check=in_range(0, 99)),
    "energy_start": Field(int, True, check=in_range(0, 99)),
    "energy_growth_turn": Field(int, True, check=in_range(1, 99)),
    "energy_max": Field(int, True, check=in_range(0, 99)),
    "stat_min": Field(int, True, check=in_range(0, 99)),
    "stat_max": Field(int, True, check=in_range(1, 99)),
    "printed_stat_min": Field(int, True, check=in_range(0, 99)),
    "printed_stat_max": Field(int, True, check=in_range(1, 99)),
    "allied": Field(list, True, check=_ints(2)),
    "coalition": Field(list, True, check=_ints(3)),
    "coalition_unlocked": Field(int, True, check=in_range(1, 99)),
}

def _version_check(v):
    return None if str(v).strip() and "\n" not in str(v) else "must be a short version name such as 2 or 1.1"


VERSION = Field((str, int), False, check=_version_check, help='a version: 2, or "1.1" (quoted: 1.10 is not the number 1.1)')

TOP_SPEC = {
    "version": VERSION,
    "rules": Field(dict, True),
    "types": Field(list, True),
    "traits": Field(list, False, default=[]),
    "factions": Field(list, True),
}

FACTION_SPEC = {
    "id": Field(str, True, check=_id_check),
    "code": Field(str, True, check=lambda v: None if re.match(r"^[A-Z]{2,5}$", v) else "must be 2–5 capital letters"),
    "colour": Field(str, True, check=_colour_check),
    "accent": Field(str, True, check=_colour_check),
    "emblem": Field(str, True, check=_id_check),
    "unlock_games": Field(int, True, check=in_range(0, 9999)),
    "cards": Field(list, True),
}

CARD_SPEC = {
    "id": Field(str, True, check=_id_check),
    "code": Field(str, True, check=lambda v: None if CODE_RE.match(v) else "must look like ROM-01"),
    "kind": Field(str, True, check=one_of(*KINDS)),
    "level": Field(int),
    "atk": Field(int),
    "def": Field(int),
    "energy": Field(int),
    "copies": Field(int, True),
    "type": Field(str),
    "traits": Field(list, default=[]),
    "commander": Field(bool, default=False),
    "terrain": Field(bool, default=False),
    "bonus": Field(list, default=[]),
    "revised": VERSION,
}

BONUS_SPEC = {
    "stat": Field(str, True, check=one_of(*STATS)),
    "amount": Field(int, True, check=lambda v: None if v != 0 and -12 <= v <= 12 else "must be a non-zero number from -12 to 12"),
    "whose": Field(str, False, "own", check=one_of(*WHOSE)),
    "when": Field(str, False, "always", check=one_of(*WHEN)),
}

UNIT_STATS = ("level", "atk", "def", "energy")


@dataclass
class Game:
    """The card database of one game directory."""

    dir: GameDir
    rules: Rules
    factions: dict[str, Faction]  # in file order
    cards: tuple[Card, ...]
    types: tuple[str, ...]
    traits: tuple[str, ...]
    doc: Doc | None = field(default=None, repr=False)
    version: str | None = None  # the game's version (cards.yaml `version:`), if it has one
    _by_id: dict[str, Card] = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self._by_id = {c.id: c for c in self.cards}

    def card(self, card_id: str) -> Card:
        return self._by_id[card_id]

    def has_card(self, card_id: str) -> bool:
        return card_id in self._by_id

    def cards_of(self, faction: str) -> list[Card]:
        return [c for c in self.cards if c.faction == faction]

    def starter_deck(self, faction: str) -> list[tuple[Card, int]]:
        """The faction's starter deck: every card of the faction with its `copies`."""
        return [(c, c.copies) for c in self.cards_of(faction)]


def load_game(gamedir: GameDir) -> Game:
    """Load `cards.yaml` from a game directory; raise DataError listing every problem."""
    doc = gamedir.yaml(gamedir.cards)
    problems: list[Problem] = []
    top = check_mapping(doc, (), doc.data, TOP_SPEC, problems, "cards.yaml")
    if top is None:
        raise DataError(problems)
    rules = check_mapping(doc, ("rules",), top["rules"], RULES_SPEC, problems, "rules") if top["rules"] is not None else None
    types = _id_list(doc, ("types",), top["types"] or [], problems, "type")
    traits = _id_list(doc, ("traits",), top["traits"] or [], problems, "trait")
    lo, hi = (rules or {}).get("printed_stat_min") or 1, (rules or {}).get("printed_stat_max") or 6
    factions: dict[str, Faction] = {}
    cards: list[Card] = []
    codes: dict[str, tuple] = {}
    ids: dict[str, tuple] = {}
    for fi, fdata in enumerate(top["factions"] or []):
        fpath = ("factions", fi)
        f = check_mapping(doc, fpath, fdata, FACTION_SPEC, problems, "a faction")
        if f is None or f["id"] is None:
            continue
        if f["id"] in factions:
            problems.append(doc.problem(fpath + ("id",), f"duplicate faction id '{f['id']}'", "duplicate"))
            continue
        faction = Faction(f["id"], f["code"], f["colour"], f["accent"], f["emblem"], f["unlock_games"])
        factions[faction.id] = faction
        for ci, cdata in enumerate(f["cards"] or []):
            cpath = fpath + ("cards", ci)
            card = _card(doc, cpath, cdata, faction, types, traits, (lo, hi), problems)
            if card is None:
                continue
            for seen, value, what in ((ids, card.id, "id"), (codes, card.code, "code")):
                if value in seen:
                    first = doc.mark(seen[value])[0]
                    problems.append(
                        doc.problem(cpath + (what,), f"duplicate card {what} '{value}' (first used on line {first})", "duplicate")
                    )
                else:
                    seen[value] = cpath + (what,)
            if card.code and faction.code and not card.code.startswith(faction.code + "-"):
                problems.append(doc.problem(cpath + ("code",), f"code '{card.code}' must start with the faction code {faction.code}-"))
            cards.append(card)
    if rules is not None and not any(p.severity == "error" for p in problems):
        _check_starter_decks(doc, factions, cards, rules, problems)
    if problems:
        raise DataError(problems)
    version = None if top["version"] is None else str(top["version"]).strip()
    return Game(gamedir, Rules(rules), factions, tuple(cards), tuple(types), tuple(traits), doc, version=version)


def _id_list(doc, path, items, problems, what) -> list[str]:
    out = []
    if not isinstance(items, list):
        problems.append(doc.problem(path, f"must be a list of {what} ids"))
        return out
    for i, item in enumerate(items):
        if not isinstance(item, str) or _id_check(item):
            problems.append(doc.problem(path + (i,), f"{what} ids must be lowercase words with hyphens, not {item!r}"))
        elif item in out:
            problems.append(doc.problem(path + (i,), f"duplicate {what} '{item}'", "duplicate"))
        else:
            out.append(item)
    return out


def _card(doc, path, data, faction, types, traits, stat_range, problems) -> Card | None:
    c = check_mapping(doc, path, data, CARD_SPEC, problems, "a card")
    if c is None or c["id"] is None or c["kind"] is None:
        return None
    lo, hi = stat_range
    before = len(problems)
    where = f"card '{c['id']}'"
    if c["copies"] is not None and not 1 <= c["copies"] <= 3:
        problems.append(doc.problem(path + ("copies",), f"'copies' must be between 1 and 3, not {c['copies']}", "value"))
    if c["kind"] == "unit":
        for stat in UNIT_STATS:
            value = c[stat]
            if value is None:
                if stat not in data:  # (a value of the wrong type was reported already)
                    problems.append(doc.problem(path, f"{where} is a unit and needs '{stat}'", "missing-key"))
            elif not lo <= value <= hi:
                problems.append(doc.problem(path + (stat,), f"'{stat}' must be between {lo} and {hi}, not {value}", "range"))
        if c["type"] is None:
            if "type" not in data:
                problems.append(doc.problem(path, f"{where} is a unit and needs a 'type'", "missing-key"))
        elif c["type"] not in types:
            problems.append(
                doc.problem(path + ("type",), f"unknown type '{c['type']}'{did_you_mean(c['type'], types)}", "unknown-ref")
            )
        if c["bonus"]:
            problems.append(doc.problem(path + ("bonus",), f"{where}: only Doctrines and Tactics have a bonus"))
        if c["terrain"]:
            problems.append(doc.problem(path + ("terrain",), f"{where}: only Doctrines can be Terrain"))
        if c["commander"] and c["type"] != "commander":
            problems.append(doc.problem(path + ("commander",), f"{where}: a Commander must have type commander"))
    else:
        for stat in UNIT_STATS + ("type",):
            if c[stat] is not None:
                problems.append(doc.problem(path + (stat,), f"{where}: a {c['kind']} has no '{stat}'"))
        if c["commander"]:
            problems.append(doc.problem(path + ("commander",), f"{where}: only units can be Commanders"))
        if c["terrain"] and c["kind"] != "doctrine":
            problems.append(doc.problem(path + ("terrain",), f"{where}: only Doctrines can be Terrain"))
    for i, trait in enumerate(c["traits"] or []):
        if trait not in traits:
            problems.append(
                doc.problem(path + ("traits", i), f"unknown trait '{trait}'{did_you_mean(str(trait), traits)}", "unknown-ref")
            )
    bonus = []
    for i, part in enumerate(c["bonus"] or []):
        b = check_mapping(doc, path + ("bonus", i), part, BONUS_SPEC, problems, "a bonus")
        if b is not None and None not in (b["stat"], b["amount"]):
            bonus.append(BonusPart(b["stat"], b["amount"], b["whose"] or "own", b["when"] or "always"))
    if len(problems) > before:
        return None
    return Card(
        id=c["id"],
        code=c["code"],
        faction=faction.id,
        kind=c["kind"],
        copies=c["copies"],
        level=c["level"],
        atk=c["atk"],
        def_=c["def"],
        energy=c["energy"],
        type=c["type"],
        traits=tuple(c["traits"] or ()),
        commander=bool(c["commander"]),
        terrain=bool(c["terrain"]),
        bonus=tuple(bonus),
        revised=None if c["revised"] is None else str(c["revised"]).strip(),
    )


def _check_starter_decks(doc, factions, cards, rules, problems) -> None:
    size = rules["deck_size"]
    for fi, faction in enumerate(factions.values()):
        total = sum(c.copies for c in cards if c.faction == faction.id)
        if total != size:
            problems.append(
                doc.problem(
                    ("factions", fi, "id"),
                    f"faction '{faction.id}': starter copies total {total}, must be {size} "
                    f"({'add' if total < size else 'remove'} {abs(size - total)})",
                    "starter-deck",
                )
            )
