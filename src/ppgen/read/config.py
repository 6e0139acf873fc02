"""The game directory's configuration, `ppgen.yaml`: languages, fonts, build defaults.

Adding a language is adding `locales/<lang>.yaml` and naming its fonts here.
Every value is checked with a message naming the option and its line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import units
from ..errors import DataError, Problem
from .gamedir import GameDir
from .schema import Field, check_mapping, one_of
from .yamlio import Doc

FONT_ROLES = ("body", "bold", "title")
LINE_BREAKS = ("words", "cjk")
QUOTES = ("curly", "straight", "any")

def _texts(value):
    if not all(isinstance(v, str) and v.strip() for v in value):
        return "must be a list of names, e.g. [jp, japanese]"
    return None


LANGUAGE_SPEC = {
    "name": Field(str, True, check=lambda v: None if v.strip() else "must be the language's own name, e.g. 日本語, not blank",
                  help="the language's own name, e.g. 日本語"),
    "fonts": Field(dict, True, help="font chains per role: body, bold, title"),
    "line_break": Field(str, False, "words", check=one_of(*LINE_BREAKS)),
    "aliases": Field(list, False, [], check=_texts, help="other names people write for it (jp, japanese, 日语): --lang suggests the code"),
    "po_language": Field(str, False, None, help="the Language header of its PO files, a locale CAT tools know (zh_CN)"),
    "plural_forms": Field(str, False, None, help="the Plural-Forms header of its PO files"),
    "quotes": Field(str, False, "any", check=one_of(*QUOTES),
                    help="the quotation marks and apostrophe the language's style uses (checked by `ppgen i18n check`)"),
}


def _parsed_by(parse):
    """A schema check from one of the units' parsers, so ppgen.yaml and the command line agree."""

    def check(value):
        try:
            parse(value)
        except ValueError as exc:
            return f"is not valid: {exc}"
        return None

    return check


BUILD_SPEC = {
    "paper": Field(str, False, "a4", check=one_of(*units.PAPERS)),
    "card_size": Field(str, False, "poker", check=_parsed_by(units.parse_card_size)),
    # bleed and gutter: absent = the layout's default (0; a cutting machine's own, templates/cutters.yaml)
    "bleed": Field(float, False, None, check=_parsed_by(lambda v: units.check_length(v, "bleed", 0, units.MAX_BLEED))),
    "gutter": Field(float, False, None, check=_parsed_by(lambda v: units.check_length(v, "gutter", 0, units.MAX_GUTTER))),
    "duplex": Field(str, False, "long", check=one_of(*units.DUPLEX_EDGES)),
    "back_offset": Field(list, False, [0.0, 0.0], check=_parsed_by(units.parse_offset)),
    "layout": Field(str, False, "duplex", check=one_of(*units.LAYOUTS)),
    "printable_margin": Field(float, False, units.PRINTABLE_MARGIN, check=_parsed_by(
        lambda v: units.check_length(v, "printable_margin", 0, units.MAX_PRINTABLE_MARGIN)),
        help="mm along every paper edge where nothing is printed (home printers leave 4–6 mm)"),
    "back": Field(str, False, None, help="the card back: a variant of templates/card.yaml `backs:` (default: its first)"),
    "rulebook": Field(str, False, "pages", check=one_of(*units.RULEBOOK_FORMS)),
    "cutter": Field(str, False, None, help="print-and-cut: a machine of templates/cutters.yaml"),
    "cut_file": Field(list, False, ["svg"], check=_parsed_by(units.parse_cut_formats), help="print-and-cut: svg, dxf"),
    "corner_radius": Field(float, False, 3.0, check=_parsed_by(lambda v: units.check_length(v, "corner radius", 0, units.MAX_CORNER))),
    "parts": Field((str, list), False, None, help="the parts built by default, e.g. [rulebook, cards, boxes]"),
    "card_thickness": Field(float, False, 0.3, check=_parsed_by(lambda v: units.check_length(v, "card thickness", 0.05, 2))),
    "sleeves": Field(bool, False, None, help="true: mats and tuck boxes for sleeved cards; false: for bare cards (default: mats sleeved, boxes bare)"),
    "mat": Field(str, False, "standard", check=one_of(*units.MAT_SIZES), help="standard: the mat on the build's paper; large: one A3 / Tabloid sheet"),
    "out": Field(str, False, "out"),
    "art_max_dpi": Field(float, False, 600.0, check=lambda v: None if 150 <= v <= 2400 else f"must be between 150 and 2400 dpi, not {v:g}"),
}

TOP_SPEC = {
    "game": Field(str, False, "Untitled game"),
    "source_language": Field(str, False, "en"),
    "languages": Field(dict, False, {}),
    "build": Field(dict, False, {}),
}


@dataclass(frozen=True)
class LanguageConfig:
    code: str
    name: str
    fonts: dict[str, tuple[str, ...]]  # role -> font file names in fonts/, first = primary
    line_break: str = "words"
    aliases: tuple[str, ...] = ()  # other names people write for the language (not accepted as codes: suggested)
    po_language: str = ""  # PO files' Language header (default: the code)
    plural_forms: str | None = None  # PO files' Plural-Forms header
    quotes: str = "any"  # curly (’ “ ”), straight (' "), any: what the punctuation check expects

    @property
    def names(self) -> tuple[str, ...]:
        """Every way of naming the language: code, own name, PO language, aliases."""
        return (self.code, self.name, self.po_language or self.code, *self.aliases)


@dataclass
class Config:
    game: str = "Untitled game"
    source_language: str = "en"
    languages: dict[str, LanguageConfig] = field(default_factory=dict)
    build: dict = field(default_factory=dict)
    file: str = "ppgen.yaml"
    doc: object = field(default=None, repr=False, compare=False)  # yamlio.Doc: where each value stands, for messages

    def problem(self, path: tuple, message: str, code: str = "value") -> Problem:
        """A problem with the value at `path` of ppgen.yaml, at its line and column (the file's start
        when the value is a default, written nowhere)."""
        line, col = self.doc.mark(path) if self.doc is not None else (0, 0)
        return Problem(self.file, line, col, message, code)


def load_config(gamedir: GameDir) -> Config:
    """Read ppgen.yaml (defaults when absent)."""
    if not gamedir.is_file(gamedir.config):
        return Config(build={k: f.default for k, f in BUILD_SPEC.items()})
    doc = gamedir.yaml(gamedir.config)
    problems: list[Problem] = []
    top = check_mapping(doc, (), doc.data if doc.data is not None else {}, TOP_SPEC, problems, "ppgen.yaml")
    if top is None:
        raise DataError(problems)
    languages: dict[str, LanguageConfig] = {}
    for code, data in (top["languages"] or {}).items():
        language = _language(doc, code, data, problems)
        if language is not None:
            languages[code] = language
    _names_stand_for_one_language(doc, languages, problems)
    build = check_mapping(doc, ("build",), top["build"] or {}, BUILD_SPEC, problems, "build") or {}
    if problems:
        raise DataError(problems)
    return Config(top["game"], top["source_language"], languages, build, doc.file, doc)


def _names_stand_for_one_language(doc: Doc, languages: dict[str, LanguageConfig], problems: list[Problem]) -> None:
    """A language's code, own name and aliases name no other language: `jp` under both ja and ko
    made `--lang jp` suggest whichever came last."""
    from .names import normalise

    owner: dict[str, str] = {}
    for code, language in languages.items():
        for name in dict.fromkeys(normalise(n) for n in (code, language.name, *language.aliases)):
            other = owner.setdefault(name, code)
            if other != code:
                problems.append(doc.problem(("languages", code, "aliases") if name not in (normalise(code), normalise(language.name))
                                            else ("languages", code),
                                            f"'{name}' names language '{other}' already: a name stands for one language", "alias"))


def _language(doc: Doc, code: str, data, problems: list[Problem]) -> LanguageConfig | None:
    """One language: its name, font chains (title falls back to bold), line breaking and quotes."""
    path = ("languages", code)
    before = len(problems)
    lang = check_mapping(doc, path, data, LANGUAGE_SPEC, problems, f"language '{code}'")
    if lang is None or len(problems) > before or lang["fonts"] is None:  # (a value reported is left None)
        return None
    fonts = _font_chains(doc, path + ("fonts",), lang["fonts"], problems)
    _check_required_chains(doc, code, path + ("fonts",), fonts, problems)
    fonts.setdefault("title", fonts.get("bold", ()))
    return LanguageConfig(code, lang["name"], fonts, lang["line_break"] or "words", tuple(lang["aliases"] or ()),
                          lang["po_language"] or code, lang["plural_forms"], lang["quotes"] or "any")


def _font_chains(doc: Doc, path: tuple, data: dict, problems: list[Problem]) -> dict[str, tuple[str, ...]]:
    """The chains given: a known role, each a non-empty list of font file names."""
    fonts: dict[str, tuple[str, ...]] = {}
    for role, chain in data.items():
        if role not in FONT_ROLES:
            problems.append(doc.problem(path + (role,), f"unknown font role '{role}' (roles: {', '.join(FONT_ROLES)})", key=True))
        elif not isinstance(chain, list) or not chain or not all(isinstance(x, str) for x in chain):
            problems.append(doc.problem(path + (role,), "a font chain is a list of font file names in fonts/"))
        else:
            outside = [i for i, name in enumerate(chain) if Path(name).is_absolute() or ".." in Path(name).parts]
            for i in outside:  # (../cards.yaml, /etc/passwd: a font is a file of the game's fonts/ folder)
                problems.append(doc.problem(path + (role, i), f"'{chain[i]}' is not in fonts/: a font chain names font files "
                                            "of the game's fonts/ folder (e.g. NotoSans_400Regular.ttf)", "font"))
            if not outside:
                fonts[role] = tuple(chain)
    return fonts


def _check_required_chains(doc: Doc, code: str, path: tuple, fonts: dict, problems: list[Problem]) -> None:
    """Every language needs a body and a bold chain; none is reported on a line that has a
    problem already (a chain reported broken is not also missing)."""
    for role in ("body", "bold"):
        if role not in fonts and not any(p.line == doc.mark(path + (role,))[0] for p in problems):
            problems.append(doc.problem(path, f"language '{code}' needs a '{role}' font chain"))
