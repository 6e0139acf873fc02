"""Load and check `cards.yaml`: the card database.

Every problem is reported at once with file:line:col: unknown keys, wrong
types, out-of-range stats, duplicate ids and codes, a card that breaks the
kind rules, a faction whose starter copies do not total the deck size.

The schemas (`*_SPEC`) check each key alone; the rules that look at several
keys are small functions in two tables, as the deck rules are: `CARD_RULES`
(one card, by kind: a unit needs a type, only Doctrines can be Terrain, ...)
and `DATABASE_RULES` (across cards: unique ids and codes, codes of their
faction), then `starter_deck_totals` once everything else is right.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..errors import DataError, Problem
from .gamedir import GameDir
from .art import ART_FITS, art_path_problem
from .model import KINDS, STATS, WHEN, WHOSE, BonusPart, Card, Faction, Rules
from .schema import Field, check_mapping, did_you_mean, in_range, one_of, type_name
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

# Rules that must agree with each other: (the smaller, the larger) — a maximum below its minimum
ORDERED_RULES = (("commanders_min", "commanders_max"), ("energy_start", "energy_max"), ("stat_min", "stat_max"),
                 ("printed_stat_min", "printed_stat_max"))


def _rules_agree(doc, rules: dict) -> list[Problem]:
    """The rules each valid alone, together: an Allied or Coalition deck's faction counts add up
    to `deck_size` (a deck is exactly that many cards: `allied: [30, 9]` made every Allied deck
    illegal), and no maximum is below its minimum (`energy_max: 2` under `energy_start: 6`)."""
    problems = []
    for shape, name in (("allied", "Allied"), ("coalition", "Coalition")):
        counts = rules[shape]
        if sum(counts) != rules["deck_size"]:
            problems.append(doc.problem(("rules", shape), f"'{shape}' adds up to {' + '.join(map(str, counts))} = {sum(counts)} cards, "
                                        f"but 'deck_size' is {rules['deck_size']}: no {name} deck could be legal", "value"))
    for low, high in ORDERED_RULES:
        if rules[high] < rules[low]:
            problems.append(doc.problem(("rules", high), f"'{high}' ({rules[high]}) is below '{low}' ({rules[low]})", "value"))
    return problems


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
    "art": Field(str, check=lambda v: art_path_problem(v)),
    "art_focus": Field(list, check=lambda v: _focus_check(v)),
    "art_fit": Field(str, check=one_of(*ART_FITS)),
    "revised": VERSION,
}

BONUS_SPEC = {
    "stat": Field(str, True, check=one_of(*STATS)),
    "amount": Field(int, True, check=lambda v: None if v != 0 and -12 <= v <= 12 else "must be a non-zero number from -12 to 12"),
    "whose": Field(str, False, "own", check=one_of(*WHOSE)),
    "when": Field(str, False, "always", check=one_of(*WHEN)),
}

UNIT_STATS = ("level", "atk", "def", "energy")


def _focus_check(v):
    if len(v) != 2 or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1 for x in v):
        return "must be [x, y], two numbers from 0 to 1 (0, 0 = the picture's top left; 0.5, 0.5 = its centre)"
    return None


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

    def where(self, card: Card, key: str) -> tuple[str, int, int]:
        """(file, line, col) of a card's `key` in cards.yaml (of the card itself without the key)."""
        if self.doc is None:
            return ("cards.yaml", 0, 0)
        for fi, faction in enumerate(self.doc.data.get("factions") or []):
            for ci, data in enumerate((faction or {}).get("cards") or []):
                if isinstance(data, dict) and data.get("id") == card.id:
                    path = ("factions", fi, "cards", ci)
                    line, col = self.doc.mark(path + (key,) if key in data else path)
                    return (self.doc.file, line, col)
        return (self.doc.file, 0, 0)

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
    before = len(problems)
    rules = check_mapping(doc, ("rules",), top["rules"], RULES_SPEC, problems, "rules") if top["rules"] is not None else None
    if rules is not None and len(problems) == before:
        problems.extend(_rules_agree(doc, rules))
    types = _id_list(doc, ("types",), top["types"] or [], problems, "type")
    traits = _id_list(doc, ("traits",), top["traits"] or [], problems, "trait")
    lo, hi = (rules or {}).get("printed_stat_min") or 1, (rules or {}).get("printed_stat_max") or 6
    read = CardsRead(doc, rules)
    for fi, fdata in enumerate(top["factions"] or []):
        _faction(read, ("factions", fi), fdata, types, traits, (lo, hi), problems)
    for rule in DATABASE_RULES:
        problems.extend(rule(read))
    if rules is not None and not any(p.severity == "error" for p in problems):
        problems.extend(starter_deck_totals(read))
    if problems:
        raise DataError(problems)
    cards = tuple(card for card, _ in read.cards)
    version = None if top["version"] is None else str(top["version"]).strip()
    return Game(gamedir, Rules(rules), read.factions, cards, tuple(types), tuple(traits), doc, version=version)


@dataclass
class CardsRead:
    """The factions and cards read so far, each card with its path in the file: what the rules
    across cards look at."""

    doc: Doc
    rules: dict | None
    factions: dict[str, Faction] = field(default_factory=dict)  # in file order
    cards: list[tuple[Card, tuple]] = field(default_factory=list)


def _faction(read: CardsRead, fpath: tuple, fdata, types, traits, stat_range, problems) -> None:
    """One faction and its cards, added to `read` (a duplicate faction is reported, its cards skipped)."""
    doc = read.doc
    f = check_mapping(doc, fpath, fdata, FACTION_SPEC, problems, "a faction")
    if f is None or f["id"] is None:
        return
    if f["id"] in read.factions:
        problems.append(doc.problem(fpath + ("id",), f"duplicate faction id '{f['id']}'", "duplicate"))
        return
    faction = Faction(f["id"], f["code"], f["colour"], f["accent"], f["emblem"], f["unlock_games"])
    read.factions[faction.id] = faction
    for ci, cdata in enumerate(f["cards"] or []):
        cpath = fpath + ("cards", ci)
        card = _card(doc, cpath, cdata, faction, types, traits, stat_range, problems)
        if card is not None:
            read.cards.append((card, cpath))


# ── the rules across cards: each yields its problems ─────────────────────
def _unique(what: str):
    """A rule: no two cards share an `id` (or a `code`); the second names the first's line."""

    def rule(read: CardsRead) -> Iterable[Problem]:
        seen: dict = {}
        for card, cpath in read.cards:
            value = getattr(card, what)
            if value is None:  # missing or malformed: reported where it is read, not as a duplicate
                continue
            if value in seen:
                first = read.doc.mark(seen[value])[0]
                yield read.doc.problem(cpath + (what,), f"duplicate card {what} '{value}' (first used on line {first})", "duplicate")
            else:
                seen[value] = cpath + (what,)

    return rule


def codes_of_their_faction(read: CardsRead) -> Iterable[Problem]:
    """A card's code starts with its faction's code: ROM-01 is Roman."""
    for card, cpath in read.cards:
        faction = read.factions[card.faction]
        if card.code and faction.code and not card.code.startswith(faction.code + "-"):
            yield read.doc.problem(cpath + ("code",), f"code '{card.code}' must start with the faction code {faction.code}-")


def starter_deck_totals(read: CardsRead) -> Iterable[Problem]:
    """Each faction's starter copies total the deck size (checked once everything else is right)."""
    size = read.rules["deck_size"]
    for fi, faction in enumerate(read.factions.values()):
        total = sum(card.copies for card, _ in read.cards if card.faction == faction.id)
        if total != size:
            yield read.doc.problem(
                ("factions", fi, "id"),
                f"faction '{faction.id}': starter copies total {total}, must be {size} "
                f"({'add' if total < size else 'remove'} {abs(size - total)})",
                "starter-deck",
            )


DATABASE_RULES: tuple[Callable[[CardsRead], Iterable[Problem]], ...] = (_unique("id"), _unique("code"), codes_of_their_faction)


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


# ── the rules of one card ─────────────────────────────────────────────────
@dataclass(frozen=True)
class CardEntry:
    """One card as written (`data`) and as checked key by key (`values`, defaults applied):
    what every card rule looks at."""

    doc: Doc
    path: tuple
    data: dict
    values: dict
    types: list[str]
    traits: list[str]
    stat_range: tuple[int, int]  # printed Level/ATK/DEF/Energy

    def __getitem__(self, key: str):
        return self.values[key]

    @property
    def name(self) -> str:
        return f"card '{self['id']}'"

    def problem(self, key: tuple, message: str, code: str = "data") -> Problem:
        return self.doc.problem(self.path + key, message, code)


def copies_in_range(card: CardEntry) -> Iterable[Problem]:
    if card["copies"] is not None and not 1 <= card["copies"] <= 3:
        yield card.problem(("copies",), f"'copies' must be between 1 and 3, not {card['copies']}", "value")


def unit_stats(card: CardEntry) -> Iterable[Problem]:
    """A unit has a Level, ATK, DEF and Energy, each in the printed range."""
    lo, hi = card.stat_range
    for stat in UNIT_STATS:
        value = card[stat]
        if value is None:
            if stat not in card.data:  # (a value of the wrong type was reported already)
                yield card.problem((), f"{card.name} is a unit and needs '{stat}'", "missing-key")
            elif card.data[stat] is None:  # `atk:` left blank (it printed "None" on the card)
                yield card.problem((stat,), f"'{stat}' must be {type_name(int)}, not nothing", "type")
        elif not lo <= value <= hi:
            yield card.problem((stat,), f"'{stat}' must be between {lo} and {hi}, not {value}", "range")


def unit_type(card: CardEntry) -> Iterable[Problem]:
    """A unit has a type, one of `types`."""
    if card["type"] is None:
        if "type" not in card.data:
            yield card.problem((), f"{card.name} is a unit and needs a 'type'", "missing-key")
        elif card.data["type"] is None:  # `type:` left blank (an internal error before)
            yield card.problem(("type",), f"'type' must be {type_name(str)}, not nothing; one of {', '.join(card.types)}", "type")
    elif card["type"] not in card.types:
        yield card.problem(("type",), f"unknown type '{card['type']}'{did_you_mean(card['type'], card.types)}", "unknown-ref")


def no_unit_bonus(card: CardEntry) -> Iterable[Problem]:
    if card["bonus"]:
        yield card.problem(("bonus",), f"{card.name}: only Doctrines and Tactics have a bonus")


def terrain_is_a_doctrine(card: CardEntry) -> Iterable[Problem]:
    if card["terrain"]:
        yield card.problem(("terrain",), f"{card.name}: only Doctrines can be Terrain")


def commander_type(card: CardEntry) -> Iterable[Problem]:
    if card["commander"] and card["type"] != "commander":
        yield card.problem(("commander",), f"{card.name}: a Commander must have type commander")


def no_unit_stats(card: CardEntry) -> Iterable[Problem]:
    """Doctrines and Tactics have no Level, ATK, DEF, Energy or type."""
    for stat in UNIT_STATS + ("type",):
        if card[stat] is not None:
            yield card.problem((stat,), f"{card.name}: a {card['kind']} has no '{stat}'")


def commander_is_a_unit(card: CardEntry) -> Iterable[Problem]:
    if card["commander"]:
        yield card.problem(("commander",), f"{card.name}: only units can be Commanders")


def known_traits(card: CardEntry) -> Iterable[Problem]:
    for i, trait in enumerate(card["traits"] or []):
        if trait not in card.traits:
            yield card.problem(("traits", i), f"unknown trait '{trait}'{did_you_mean(str(trait), card.traits)}", "unknown-ref")


@dataclass(frozen=True)
class CardRule:
    kinds: tuple[str, ...]  # the kinds of card it applies to
    check: Callable[[CardEntry], Iterable[Problem]]


# The rule table of one card, by kind.
CARD_RULES: tuple[CardRule, ...] = (
    CardRule(KINDS, copies_in_range),
    CardRule(("unit",), unit_stats),
    CardRule(("unit",), unit_type),
    CardRule(("unit",), no_unit_bonus),
    CardRule(("unit", "tactic"), terrain_is_a_doctrine),
    CardRule(("unit",), commander_type),
    CardRule(("doctrine", "tactic"), no_unit_stats),
    CardRule(("doctrine", "tactic"), commander_is_a_unit),
    CardRule(KINDS, known_traits),
)


def _card(doc, path, data, faction, types, traits, stat_range, problems) -> Card | None:
    """One card checked by its schema and the rule table; None when a rule was broken."""
    c = check_mapping(doc, path, data, CARD_SPEC, problems, "a card")
    if c is None or c["id"] is None or c["kind"] is None:
        return None
    entry = CardEntry(doc, path, data, c, types, traits, stat_range)
    before = len(problems)
    for rule in CARD_RULES:
        if c["kind"] in rule.kinds:
            problems.extend(rule.check(entry))
    bonus = _bonus(entry, problems)
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
        art=c["art"].replace("\\", "/") if c["art"] else None,
        art_focus=tuple(float(x) for x in c["art_focus"]) if c["art_focus"] else None,
        art_fit=c["art_fit"],
        revised=None if c["revised"] is None else str(c["revised"]).strip(),
    )


def _bonus(card: CardEntry, problems) -> list[BonusPart]:
    bonus = []
    for i, part in enumerate(card["bonus"] or []):
        b = check_mapping(card.doc, card.path + ("bonus", i), part, BONUS_SPEC, problems, "a bonus")
        if b is not None and None not in (b["stat"], b["amount"]):
            bonus.append(BonusPart(b["stat"], b["amount"], b["whose"] or "own", b["when"] or "always"))
    return bonus
