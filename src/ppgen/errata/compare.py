"""What changed between two versions of a game, per language, by what a player holds.

    errata = compare(old, new, ("en", "ja"), since="HEAD~1")
    for lang in errata.languages:
        for card in lang.cards:          # changed, added and removed cards, in the game's order
            print(card.code, card.status, [(f.field, f.old, f.new) for f in card.fields])

A card has changed in a language when its printed face there differs: any input of
draw/face_inputs.py (a number, its words as printed, English fallback included, the
template that draws it, the fonts, the back), or when its starter copies differ. Rules
are compared by section of templates/rulebook.yaml, on the texts as printed (a rule
constant that fills a {placeholder} changes the section's text); the rule constants of
cards.yaml are listed too. A translation whose English changed since `old` and that was
not updated since (i18n's `stale`) is named: it prints the old rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from ..draw.card_front import printed_keys
from ..draw.face_inputs import back_inputs, fingerprint, front_inputs
from ..draw.rulebook import section_figure_keys
from ..i18n.states import stale_reason
from ..read.rulebook import load_structure
from ..typeset.text import plain
from ..write.report import BuildReport

# The fields of a card change, in the order a report lists them; `design` gathers every
# input that is not a number or a text (template, faction colours, fonts, art, the back).
FIELDS = ("name", "level", "atk", "def", "energy", "copies", "type", "bonus", "effect", "level-label", "small-print", "art", "design")
NEW_CARD_FIELDS = ("name", "level", "atk", "def", "energy", "copies", "type", "bonus", "effect")  # what a new card lists
STATUSES = ("changed", "added", "removed")


@dataclass(frozen=True)
class FieldChange:
    field: str  # one of FIELDS
    old: object  # None: the card had no such field (or did not exist)
    new: object
    path: str | None = None  # for design: the input that changed (template.atk.colour)
    fallback: bool = False  # the new text prints English: not translated yet

    def as_dict(self) -> dict:
        out = {"field": self.field, "old": self.old, "new": self.new}
        if self.path:
            out["path"] = self.path
        if self.fallback:
            out["fallback"] = True
        return out


@dataclass
class CardChange:
    id: str
    code: str
    status: str  # changed | added | removed
    name: str  # as printed now (a removed card: as it was)
    fields: list[FieldChange] = field(default_factory=list)
    face_changed: bool = False  # the printed face differs (False: only its copies did)
    printed: int = 0  # copies on the errata's card sheets

    def as_dict(self) -> dict:
        return {"id": self.id, "code": self.code, "status": self.status, "name": self.name,
                "face_changed": self.face_changed, "printed": self.printed,
                "fields": [f.as_dict() for f in self.fields]}


@dataclass(frozen=True)
class RuleText:
    key: str
    old: str | None  # None: new in this section
    new: str | None  # None: gone from it


@dataclass
class RuleChange:
    section: str  # the section id of templates/rulebook.yaml (intro, reference: the book's own texts)
    heading: str  # as printed now (a removed section: as it was)
    status: str  # changed | added | removed
    texts: list[RuleText] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"section": self.section, "heading": self.heading, "status": self.status,
                "texts": [{"key": t.key, "old": t.old, "new": t.new} for t in self.texts]}


@dataclass(frozen=True)
class ConstantChange:
    name: str  # as in cards.yaml `rules:` (unlock_<faction>: a faction's unlock_games)
    old: object
    new: object


@dataclass(frozen=True)
class StaleText:
    """A translation the English moved away from: printing it prints the old text."""

    key: str
    card: str | None = None  # the card id, for a key a card prints
    code: str | None = None
    section: str | None = None  # the rules section, for a rules text
    name: str = ""  # the card's name or the section's heading, as printed

    def as_dict(self) -> dict:
        return {k: v for k, v in (("key", self.key), ("card", self.card), ("code", self.code),
                                  ("section", self.section), ("name", self.name)) if v}


@dataclass
class LanguageErrata:
    lang: str
    cards: list[CardChange] = field(default_factory=list)
    rules: list[RuleChange] = field(default_factory=list)
    constants: list[ConstantChange] = field(default_factory=list)
    stale: list[StaleText] = field(default_factory=list)
    new_language: bool = False  # the other version has no such language: nothing to compare
    references: bool = False  # the quick-reference cards print differently: reprinted with the cards

    def of(self, status: str) -> list[CardChange]:
        return [c for c in self.cards if c.status == status]

    @property
    def printed(self) -> list[CardChange]:
        return [c for c in self.cards if c.printed]

    @property
    def empty(self) -> bool:
        return not (self.cards or self.rules or self.constants or self.stale or self.new_language)


@dataclass
class Errata:
    since: str  # the other version as the user named it
    versions: tuple[str | None, str | None]  # the game's `version:` then and now
    languages: list[LanguageErrata]
    report: BuildReport = field(default_factory=BuildReport)  # warnings for the designer (revised: not bumped)

    @property
    def nothing_changed(self) -> bool:
        return all(lang.empty for lang in self.languages)

    def language(self, lang: str) -> LanguageErrata:
        return next(e for e in self.languages if e.lang == lang)


# ── the comparison ─────────────────────────────────────────────────────────
def errata_since(project, ref: str, langs, copies: int | None = None) -> Errata:
    """What changed in `project` since `ref`: a git revision of its repository or another
    game directory (read/revision.py), in each of `langs`."""
    from ..project import open_project
    from ..read.revision import open_reference

    earlier = open_project(open_reference(project.dir, ref))
    return compare(earlier, project, langs, since=ref, copies=copies)


def compare(old, new, langs, since: str, copies: int | None = None) -> Errata:
    """Compare project `old` with project `new` in each of `langs`.

    copies: how many of each changed card the errata's sheets print (None: its starter
    copies; a card whose face is unchanged but whose copies rose: the extra copies only).
    """
    errata = Errata(since, (old.game.version, new.game.version), [])
    old_back, new_back = back_inputs(old), back_inputs(new)
    for lang in langs:
        if lang not in old.languages:
            errata.languages.append(LanguageErrata(lang, new_language=True))
            continue
        changes = _language(old, new, lang, (old_back, new_back), copies)
        errata.languages.append(changes)
        for stale in changes.stale:
            errata.report.warning("stale", f"the English changed since {since} and this translation was not updated: "
                                           "it still prints the old text", lang=lang, key=stale.key)
    _check_revised(old, new, errata)
    _check_renamed(old, new, errata)
    return errata


def _check_renamed(old, new, errata: Errata) -> None:
    """A card whose id changed and code stayed (numidian-cavalry → numidian-horse, both CAR-02) is
    another card to the errata, listed as removed and as new, its face reprinted: said, since
    it is most likely the same card (an id keys its texts in every locale: keep it)."""
    removed = {c.code: c.id for c in old.game.cards if not new.game.has_card(c.id)}
    for card in new.game.cards:
        if card.code in removed and not old.game.has_card(card.id):
            errata.report.warning("renamed", f"{card.code}: its id changed from '{removed[card.code]}' to '{card.id}', so the errata "
                                             "lists it as removed and as new; if it is the same card, keep its id (it keys the "
                                             "card's texts in every locale)", key=card.id)


def _language(old, new, lang: str, backs, copies) -> LanguageErrata:
    out = LanguageErrata(lang)
    for card in new.game.cards:
        if not old.game.has_card(card.id):
            inputs = {**front_inputs(new, card, lang), **backs[1]}
            change = CardChange(card.id, card.code, "added", new.card_name(card, lang), face_changed=True)
            change.fields = [FieldChange(name, None, value) for name, value in _fields(inputs, card.copies).items()
                             if name in NEW_CARD_FIELDS]
        else:
            change = _changed_card(old, new, old.game.card(card.id), card, lang, backs)
            if change is None:
                continue
        change.printed = _printed(change, old.game.card(card.id).copies if change.status == "changed" else 0, card.copies, copies)
        out.cards.append(change)
    for card in old.game.cards:
        if not new.game.has_card(card.id):
            out.cards.append(CardChange(card.id, card.code, "removed", old.card_name(card, lang)))
    out.rules = rule_changes(old, new, lang)
    out.constants = constant_changes(old, new)
    out.stale = stale_texts(old, new, lang)
    out.references = reference_card_inputs(old, lang) != reference_card_inputs(new, lang)
    return out


def reference_card_inputs(project, lang: str) -> tuple:
    """What the quick-reference cards print: their texts as printed (rule constants filled in:
    the hand limit) and the energy schedule."""
    from ..draw.mat import energy_schedule
    from ..draw.quick_reference import KEYS

    return tuple(rule_texts(project, lang, KEYS).items()), tuple(energy_schedule(project.game.rules))


def _changed_card(old, new, was, now, lang: str, backs) -> CardChange | None:
    before = {**front_inputs(old, was, lang), **backs[0]}
    after = {**front_inputs(new, now, lang), **backs[1]}
    face_changed = fingerprint(before) != fingerprint(after)
    if not face_changed and was.copies == now.copies:
        return None
    change = CardChange(now.id, now.code, "changed", new.card_name(now, lang), face_changed=face_changed)
    loc = new.locale(lang)
    for name, path, a, b in field_diff(before, after, was.copies, now.copies):
        fallback = name in ("name", "effect") and not loc.is_translated(f"card.{now.id}.{name}")
        change.fields.append(FieldChange(name, a, b, path, fallback and lang != new.config.source_language))
    return change


def _fields(inputs: dict, copies: int) -> dict:
    """A front's inputs as report fields: {field: value}, design inputs as {path: value}."""
    out: dict = {"copies": copies}
    design: dict = {}
    for key, value in inputs.items():
        group, _, name = key.partition(".")
        if group in ("number", "text") and name in FIELDS:
            out[name] = value
        elif key == "art.file":  # the picture, by file and content (a repainted file of the same name counts)
            out["art"] = f"{value} ({str(inputs.get('art.digest') or '')[:7]})"
        elif group != "text" and key != "art.digest":
            design[key] = value
    out["design"] = design
    return {name: out[name] for name in FIELDS if name in out}


def field_diff(before: dict, after: dict, old_copies: int, new_copies: int) -> list[tuple[str, str | None, object, object]]:
    """(field, design path or None, old, new) for every field that differs, in FIELDS order.
    Where the glossary keeps words together (font.phrases) follows from the words: it is a
    change of its own only when no text changed (the glossary was edited)."""
    a, b = _fields(before, old_copies), _fields(after, new_copies)
    texts_changed = any(a.get(name) != b.get(name) for name in FIELDS if f"text.{name}" in before or f"text.{name}" in after)
    out = []
    for name in FIELDS:
        if name == "design":
            da, db = a.get("design", {}), b.get("design", {})
            for path in list(db) + [p for p in da if p not in db]:
                if da.get(path) != db.get(path) and not (path == "font.phrases" and texts_changed):
                    out.append((name, path, da.get(path), db.get(path)))
        elif a.get(name) != b.get(name):
            out.append((name, None, a.get(name), b.get(name)))
    return out


def _printed(change: CardChange, old_copies: int, new_copies: int, copies: int | None) -> int:
    """Copies of a card on the errata's sheets: a new or reprinted card, its starter copies
    (or `copies`); an unchanged face, only the copies the deck gained; none when it lost some."""
    if change.face_changed:
        return new_copies if copies is None else copies
    gained = new_copies - old_copies
    if gained <= 0:
        return 0
    return gained if copies is None else min(copies, gained)


# ── rules ──────────────────────────────────────────────────────────────────
def rule_sections(project) -> dict[str, tuple[str, list[str]]]:
    """{section id: (heading key, the keys of its texts)} in the book's order: the title page
    (`intro`), every section of templates/rulebook.yaml, the card reference's own texts."""

    def sections():
        s = load_structure(project)
        out = {"intro": (s.subtitle, [s.title, s.subtitle, s.tagline, s.intro, s.colophon])}
        for section in s.all_sections:  # its texts, and its pictures' words (the quick reference's)
            out[section.id] = (section.heading, list(dict.fromkeys(section.locale_keys + section_figure_keys(section))))
        out["reference"] = (s.reference["heading"], list(s.reference.values()))
        return out

    return project.cached("errata:rule-sections", sections)


def rule_texts(project, lang: str, keys) -> dict[str, str]:
    """The texts of `keys` as the rulebook prints them: placeholders filled, markup dropped."""
    from ..draw.words import Words
    from ..errors import DataError
    from ..write.parts import rulebook_values

    words = Words(project, lang, None, rulebook_values(project, lang))
    locale = project.locale(lang)

    def printed(key: str) -> str:
        try:
            return plain(words(key))
        except DataError:  # a picture's words with values of its own (the walkthrough's {attacker}): as written
            return plain(locale.get(key))

    return {key: printed(key) for key in keys}



def rule_changes(old, new, lang: str) -> list[RuleChange]:
    before, after = rule_sections(old), rule_sections(new)
    out = []
    for sid in list(after) + [s for s in before if s not in after]:
        if sid not in before:
            heading, keys = after[sid]
            texts = rule_texts(new, lang, keys)
            out.append(RuleChange(sid, texts[heading], "added", [RuleText(k, None, t) for k, t in texts.items()]))
            continue
        if sid not in after:
            heading, keys = before[sid]
            texts = rule_texts(old, lang, keys)
            out.append(RuleChange(sid, texts[heading], "removed", [RuleText(k, t, None) for k, t in texts.items()]))
            continue
        a = rule_texts(old, lang, before[sid][1])
        b = rule_texts(new, lang, after[sid][1])
        texts = [RuleText(k, a.get(k), b.get(k)) for k in list(b) + [k for k in a if k not in b] if a.get(k) != b.get(k)]
        if texts:
            out.append(RuleChange(sid, b[after[sid][0]], "changed", texts))
    return out


def constant_changes(old, new) -> list[ConstantChange]:
    def constants(project) -> dict:
        values = dict(project.game.rules.values)
        values.update({f"unlock_{f.id}": f.unlock_games for f in project.game.factions.values()})
        return values

    a, b = constants(old), constants(new)
    return [ConstantChange(name, a.get(name), b.get(name)) for name in list(b) + [n for n in a if n not in b]
            if a.get(name) != b.get(name)]


# ── stale translations ─────────────────────────────────────────────────────
def stale_texts(old, new, lang: str) -> list[StaleText]:
    """Texts of `lang` whose English changed since `old` and that were not translated anew."""
    src = new.config.source_language
    if lang == src:
        return []
    english_then, english_now, loc = old.locale(src), new.locale(src), new.locale(lang)

    def stale(key: str) -> bool:
        was, now, entry = english_then.entries.get(key), english_now.entries.get(key), loc.entries.get(key)
        if was is None or now is None or entry is None or was.text == now.text or not loc.is_translated(key):
            return False  # new, gone, unchanged, or printed in English (a change of the face)
        return stale_reason(now.text, entry) is not None

    out = []
    for card in new.game.cards:
        for key in printed_keys(card):
            if stale(key):
                out.append(StaleText(key, card=card.id, code=card.code, name=new.card_name(card, lang)))
    sections = rule_sections(new)
    for sid, (heading, keys) in sections.items():
        for key in keys:
            if stale(key):
                out.append(StaleText(key, section=sid, name=plain(rule_texts(new, lang, [heading])[heading])))
    return out


# ── versions ───────────────────────────────────────────────────────────────
def _check_revised(old, new, errata: Errata) -> None:
    """A warning for each card whose face changed (in any language) and whose `revised:`
    stayed the same, when the game uses versions at all (a `version:`, or any `revised:`)."""
    uses_versions = new.game.version is not None or any(c.revised for p in (old, new) for c in p.game.cards)
    if not uses_versions:
        return
    seen = set()
    for lang in errata.languages:
        for change in lang.cards:
            if change.status != "changed" or not change.face_changed or change.id in seen:
                continue
            seen.add(change.id)
            was, now = old.game.card(change.id), new.game.card(change.id)
            if was.revised != now.revised:
                continue
            where = _card_where(new, now)
            hint = f"set revised: {new.game.version}" if new.game.version and new.game.version != now.revised else "bump its revised:"
            still = f"still {now.revised}" if now.revised else "it has none"
            errata.report.warning("revised", f"{now.code} changed since {errata.since}, but its revised: was not bumped ({still}): "
                                             f"{hint} ({where}) so that a reprint can be told from the old card", key=now.id)


def _card_where(project, card) -> str:
    """cards.yaml:LINE:COL of a card's entry."""
    game = project.game
    fi = list(game.factions).index(card.faction)
    ci = [c.id for c in game.cards_of(card.faction)].index(card.id)
    line, col = game.doc.mark(("factions", fi, "cards", ci)) if game.doc else (0, 0)
    return f"{game.doc.file if game.doc else 'cards.yaml'}:{line}:{col}"


# ── what changed inside a text ─────────────────────────────────────────────
_WORDS = re.compile(r"\w+|\s+|[^\w\s]")
_CJK = re.compile(r"[A-Za-z0-9]+|\s+|.", re.S)


def text_diff(old: str, new: str, line_break: str = "words") -> list[tuple[str, str]]:
    """The edit from `old` to `new` as (op, text) pieces: op is "=" (kept), "-" (removed)
    or "+" (added). Words languages are compared word by word, ja/zh character by
    character; a space between two changes belongs to the change."""
    split = (_CJK if line_break == "cjk" else _WORDS).findall
    a, b = split(plain(old)), split(plain(new))
    pieces: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.append(("=", "".join(a[i1:i2])))
        else:
            if i2 > i1:
                pieces.append(("-", "".join(a[i1:i2])))
            if j2 > j1:
                pieces.append(("+", "".join(b[j1:j2])))
    return _join_changes(pieces)


def _join_changes(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A space kept between two changes joins them ("[-a-]{+b+} [-c-]{+d+}" reads as
    "[-a c-]{+b d+}"); within a change, what was removed comes before what was added."""
    joined: list[tuple[str, str]] = []
    for i, (op, text) in enumerate(pieces):
        inside = 0 < i < len(pieces) - 1 and pieces[i - 1][0] != "=" and pieces[i + 1][0] != "="
        joined += [("-", text), ("+", text)] if op == "=" and not text.strip() and inside else [(op, text)]
    out: list[tuple[str, str]] = []
    run = {"-": "", "+": ""}
    for op, text in joined + [("=", "")]:
        if op != "=":
            run[op] += text
            continue
        out += [(side, run[side]) for side in "-+" if run[side]]
        run = {"-": "", "+": ""}
        if text:
            out.append(("=", text))
    return out


def marked(pieces: list[tuple[str, str]], side: str) -> str:
    """One side of a text_diff ("-": the old text, "+": the new) with its changes in **bold**."""
    out = []
    for op, text in pieces:
        if op == "=":
            out.append(text)
        elif op == side:
            core = text.strip()
            if core:
                lead, tail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
                out.append(f"{lead}**{core}**{tail}")
            else:
                out.append(text)
    return "".join(out)


def inline(pieces: list[tuple[str, str]]) -> str:
    """Both sides in one line, as wdiff writes it: kept [-removed-]{+added+}."""
    return "".join(text if op == "=" else f"[-{text}-]" if op == "-" else f"{{+{text}+}}" for op, text in pieces)
