"""The rulebook's structure, `templates/rulebook.yaml`: its title texts, the sections in
order, each a list of blocks naming locale keys (paragraph, bullets, numbered), pictures
(figure), the table of contents, the card terms and the components table, the cards the
pictures show, the card reference and the back page. Every key must name a text of the
source locale, every card id a card of cards.yaml (file:line:col, with "did you mean").
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import DataError, Problem
from .schema import Field, check_mapping, did_you_mean

# ── the structure (templates/rulebook.yaml) ───────────────────────────────
TEXT_KINDS = ("paragraph", "bullets", "numbered")
BLOCK_KINDS = TEXT_KINDS + ("contents", "figure", "terms", "components")
FIGURES = ("anatomy", "table-setup", "walkthrough", "quick-reference")
COMPONENTS = ("rulebook", "mats", "score-sheet", "cards", "boxes")
# What a block's `when:` may ask of the build, and the values each fact takes.
FACTS = {
    "layout": ("duplex", "foldover", "fronts-only", "print-and-cut"),
    "duplex": ("long", "short"),
    "rulebook": ("pages", "booklet"),
    "mat_sheets": (1, 2),
    "sleeves": (True, False),
}
PICTURED = {"anatomy": ("unit", "other"), "example": ("boss", "archer", "soldier")}
NEEDS = {"anatomy": "anatomy", "walkthrough": "example"}  # a figure -> the cards it pictures (a top-level key)


STRUCTURE_SPEC = {
    "title": Field(str, True),
    "subtitle": Field(str, True),
    "tagline": Field(str, True),
    "intro": Field(str, True),
    "anatomy": Field(dict, False, None, help="the cards of the card anatomy picture: unit, other (a Doctrine or Tactic)"),
    "example": Field(dict, False, None, help="the cards of the combat example: boss, archer, soldier"),
    "sections": Field(list, True),
    "reference": Field(dict, True),
    "back_page": Field(dict, False, None, help="the last page, after the card reference: a section of its own"),
    "colophon": Field(str, True),
}


SECTION_SPEC = {
    "id": Field(str, True),
    "heading": Field(str, True),
    "blocks": Field(list, True),
    "panel": Field(bool, False, False, help="set the section's blocks on a shaded panel (worked examples)"),
}


BLOCK_SPEC = {
    "paragraph": Field(str),
    "bullets": Field(list),
    "numbered": Field(list),
    "contents": Field(int, check=lambda v: None if v in (1, 2) else "must be 1 (sections) or 2 (and factions)"),
    "figure": Field(str),
    "terms": Field(list),
    "components": Field(list),
    "when": Field(dict, False, None, help="set the block only for a build where these facts hold"),
}


REFERENCE_SPEC = {k: Field(str, True) for k in ("heading", "intro", "units", "doctrines_tactics", "doctrines_tactics_intro")}


@dataclass(frozen=True)
class Block:
    kind: str  # one of BLOCK_KINDS
    keys: tuple[str, ...] = ()  # locale keys (text kinds), term or component ids
    value: object = None  # contents: its depth; figure: its name
    when: tuple[tuple[str, object], ...] = ()  # (fact, value): set only when the build's facts match

    @property
    def locale_keys(self) -> tuple[str, ...]:
        """The locale keys of the texts this block prints (its own words, not the card data's)."""
        if self.kind in TEXT_KINDS:
            return self.keys
        if self.kind == "terms":
            return tuple(k for t in self.keys for k in term_keys(t))
        if self.kind == "components":
            return tuple(k for part in self.keys for k in all_component_keys(part))
        return ()

    def applies(self, facts) -> bool:
        return all(getattr(facts, fact) == value for fact, value in self.when)


@dataclass(frozen=True)
class Section:
    id: str
    heading: str  # locale key
    blocks: tuple[Block, ...]
    panel: bool = False

    @property
    def locale_keys(self) -> list[str]:
        """The heading's key, then every block's texts' keys, in order."""
        return [self.heading] + [k for b in self.blocks for k in b.locale_keys]


@dataclass(frozen=True)
class Structure:
    title: str
    subtitle: str
    tagline: str
    intro: str
    sections: tuple[Section, ...]
    reference: dict
    colophon: str
    anatomy: dict = field(default_factory=dict)  # role → card id
    example: dict = field(default_factory=dict)
    back_page: Section | None = None

    @property
    def all_sections(self) -> tuple[Section, ...]:
        return self.sections + ((self.back_page,) if self.back_page else ())

    def term_ids(self) -> list[str]:
        return [t for s in self.all_sections for b in s.blocks if b.kind == "terms" for t in b.keys]


def term_keys(term: str) -> tuple[str, str]:
    """The locale keys of a card term: its words (as cards print them) and its meaning."""
    return f"rules.term.{term}", f"rules.term.{term}.meaning"


def component_keys(part: str, references: bool = True) -> tuple[str, str, str]:
    """The locale keys of a components row: what it is, how many sheets, which paper; the card
    sheets' amount without quick-reference cards (a --faction build prints none) when not `references`."""
    alone = "-alone" if part == "cards" and not references else ""
    return f"rules.components.{part}", f"rules.components.{part}.amount{alone}", f"rules.components.{part}.paper"


def all_component_keys(part: str) -> tuple[str, ...]:
    """Every locale key a components row may print."""
    return tuple(dict.fromkeys(component_keys(part) + component_keys(part, references=False)))


def example_numbers(rules, boss, archer, soldier) -> dict[str, int]:
    """The combat example's numbers from its three cards and the rules (cards.yaml): the archer
    loses to the boss and wounds it, then the soldier beats the wounded boss; the attacker pays
    each attack's Energy from the energy of a first turn. The rulebook's example text, its
    walkthrough picture and their captions all take these ({boss_atk}, {archer_damage}, …)."""
    after = max(boss.atk - archer.atk, rules.stat_min)
    energy = rules.energy_start
    return {
        "boss_atk": boss.atk, "archer_atk": archer.atk, "soldier_atk": soldier.atk,
        "archer_damage": boss.atk - archer.atk, "boss_after": after, "soldier_damage": soldier.atk - after,
        "energy": energy, "archer_energy": archer.energy, "soldier_energy": soldier.energy,
        "energy_1": energy - archer.energy, "energy_2": energy - archer.energy - soldier.energy,
        "life_1": rules.starting_life - (boss.atk - archer.atk), "life_2": rules.starting_life - (soldier.atk - after),
    }


def example_story(numbers: dict[str, int]) -> str | None:
    """Why the cards cannot tell the example's story, or None when they can."""
    n = numbers
    if n["archer_atk"] >= n["boss_atk"]:
        return f"the archer ({n['archer_atk']} ATK) must be weaker than the boss ({n['boss_atk']} ATK)"
    if n["soldier_atk"] <= n["boss_after"]:
        return f"the soldier ({n['soldier_atk']} ATK) must beat the wounded boss ({n['boss_after']} ATK)"
    if n["energy_2"] < 0:
        return (f"the two attacks cost {n['archer_energy'] + n['soldier_energy']} energy, more than the "
                f"{n['energy']} of a first turn")
    return None


def load_structure(project) -> Structure:
    """Read templates/rulebook.yaml; every key must name an English text (DataError at file:line:col)."""
    doc = project.dir.yaml(project.dir.template("rulebook"))
    problems: list[Problem] = []
    english = project.locale(project.config.source_language)

    def key_at(path, value):
        if isinstance(value, str) and not english.has(value):
            problems.append(doc.problem(path, f"'{value}' is not a key of the source locale", "unknown-key"))
        elif not isinstance(value, str):
            problems.append(doc.problem(path, "must be a locale key such as rules.goal.1", "type"))
        return value

    top = check_mapping(doc, (), doc.data if doc.data is not None else {}, STRUCTURE_SPEC, problems, "rulebook.yaml")
    if top is None:
        raise DataError(problems)
    for k in ("title", "subtitle", "tagline", "intro", "colophon"):
        if top[k] is not None:
            key_at((k,), top[k])
    pictured = {name: _cards(project, doc, name, top[name], problems) if top[name] is not None else {} for name in PICTURED}
    if len(pictured["example"]) == len(PICTURED["example"]):
        cards = [project.game.card(pictured["example"][role]) for role in PICTURED["example"]]
        why = example_story(example_numbers(project.game.rules, *cards))
        if why:
            problems.append(doc.problem(("example",), f"these cards cannot tell the combat example: {why}", "value"))
    sections: list[Section] = []
    seen_ids: set[str] = set()

    def section_at(spath, sdata) -> Section | None:
        s = check_mapping(doc, spath, sdata, SECTION_SPEC, problems, "a section")
        if s is None or s["id"] is None:
            return None
        if s["id"] in seen_ids:
            problems.append(doc.problem(spath + ("id",), f"duplicate section id '{s['id']}'", "duplicate"))
        seen_ids.add(s["id"])
        key_at(spath + ("heading",), s["heading"])
        blocks = [b for bi, bdata in enumerate(s["blocks"] or [])
                  if (b := _block(doc, spath + ("blocks", bi), bdata, key_at, english, problems)) is not None]
        return Section(s["id"], s["heading"], tuple(blocks), bool(s["panel"]))

    for si, sdata in enumerate(top["sections"] or []):
        section = section_at(("sections", si), sdata)
        if section is not None:
            sections.append(section)
    back = section_at(("back_page",), top["back_page"]) if top["back_page"] is not None else None
    for si, section in enumerate(sections + ([back] if back else [])):
        for bi, block in enumerate(section.blocks):
            needed = NEEDS.get(block.value) if block.kind == "figure" else None
            if needed and top[needed] is None:
                at = ("back_page",) if section is back else ("sections", si)
                problems.append(doc.problem(at + ("blocks", bi, "figure"), f"the {block.value} picture needs `{needed}:` "
                                            f"(the cards it shows: {', '.join(PICTURED[needed])})", "missing"))
    ref = check_mapping(doc, ("reference",), top["reference"], REFERENCE_SPEC, problems, "reference") or {}
    for k, v in ref.items():
        if v is not None:
            key_at(("reference", k), v)
    if problems:
        raise DataError(problems)
    return Structure(top["title"], top["subtitle"], top["tagline"], top["intro"], tuple(sections), ref, top["colophon"],
                     pictured["anatomy"], pictured["example"], back)


def _block(doc, bpath, bdata, key_at, english, problems) -> Block | None:
    b = check_mapping(doc, bpath, bdata, BLOCK_SPEC, problems, "a block")
    if b is None:
        return None
    kinds = [k for k in BLOCK_KINDS if isinstance(bdata, dict) and k in bdata]
    if len(kinds) != 1:
        problems.append(doc.problem(bpath, f"a block is exactly one of {', '.join(BLOCK_KINDS)}", "value"))
        return None
    kind = kinds[0]
    when = _when(doc, bpath + ("when",), b["when"], problems)
    if kind == "contents":
        return Block(kind, (), b[kind], when)
    if kind == "figure":
        if b[kind] not in FIGURES:
            problems.append(doc.problem(bpath + (kind,), f"unknown figure '{b[kind]}'{did_you_mean(b[kind], FIGURES)} "
                                        f"(figures: {', '.join(FIGURES)})", "value"))
        return Block(kind, (), b[kind], when)
    keys = [b[kind]] if kind == "paragraph" else list(b[kind] or [])
    for ki, key in enumerate(keys):
        at = bpath + ((kind,) if kind == "paragraph" else (kind, ki))
        if kind == "terms":
            for k in term_keys(str(key)):
                if not english.has(k):
                    problems.append(doc.problem(at, f"card term '{key}' has no text '{k}' in the source locale", "unknown-key"))
        elif kind == "components":
            if key not in COMPONENTS:
                problems.append(doc.problem(at, f"unknown part '{key}'{did_you_mean(str(key), COMPONENTS)}", "value"))
            for k in all_component_keys(str(key)):
                if not english.has(k):
                    problems.append(doc.problem(at, f"part '{key}' has no text '{k}' in the source locale", "unknown-key"))
        else:
            key_at(at, key)
    return Block(kind, tuple(keys), None, when)


def _when(doc, path, data, problems) -> tuple[tuple[str, object], ...]:
    if not data:
        return ()
    out = []
    for fact, value in data.items():
        if fact not in FACTS:
            problems.append(doc.problem(path + (fact,), f"unknown fact '{fact}'{did_you_mean(str(fact), FACTS)} "
                                        f"(facts: {', '.join(FACTS)})", "value"))
        elif value not in FACTS[fact]:
            problems.append(doc.problem(path + (fact,), f"{fact} is one of {', '.join(str(v).lower() for v in FACTS[fact])}, "
                                        f"not {value!r}", "value"))
        else:
            out.append((fact, value))
    return tuple(out)


def _cards(project, doc, name: str, data, problems) -> dict:
    """`anatomy:` / `example:` — role → card id, each a card of cards.yaml of the kind its role needs."""
    out = {}
    roles = PICTURED[name]
    for role in roles:
        if not isinstance(data, dict) or role not in data:
            problems.append(doc.problem((name,), f"names no '{role}' card (it needs {', '.join(roles)})", "missing"))
            continue
        card_id = data[role]
        ids = [c.id for c in project.game.cards]
        if card_id not in ids:
            problems.append(doc.problem((name, role), f"unknown card '{card_id}'{did_you_mean(str(card_id), ids)}", "unknown-ref"))
            continue
        card = project.game.card(card_id)
        wants_unit = role != "other"
        if card.is_unit != wants_unit:
            what = "a unit" if wants_unit else "a Doctrine or Tactic"
            problems.append(doc.problem((name, role), f"'{card_id}' is not {what}", "value"))
            continue
        out[role] = card_id
    for role in (data or {}) if isinstance(data, dict) else ():
        if role not in roles:
            problems.append(doc.problem((name, role), f"unknown role '{role}'{did_you_mean(str(role), roles)}", "value"))
    return out
