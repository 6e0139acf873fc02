"""Card templates: geometry (mm), colours and text styles of card fronts, from `templates/card.yaml`.

A designer moves a box or changes a colour in the YAML; the drawing code
(`draw/card_front.py`) only reads it. The file has these sections:

- `design`: the card size (mm) the numbers are drawn for, and the safe margin.
  Other card sizes keep the safe margin (in mm) and scale what lies inside it,
  by width and height separately; font sizes by the smaller of the card's two
  factors, strokes and corners by the smallest factor of all (`scaled`), so an
  element inside the safe zone on the design card is inside it on every card.
- `palette`: named colours. Everywhere a colour is asked for, give "#rrggbb",
  a palette name, or one of the faction colours: faction, faction-dark,
  faction-light, accent, accent-dark, on-faction, on-accent (the last two are
  black or white text, whichever reads better on that colour); or a blend,
  "mix(parchment, faction, 0.1)" = parchment moved 10 % towards faction.
- `styles`: text styles: font role (body / bold / title from ppgen.yaml), size
  and the minimum it may shrink to, leading, alignment, colour.
- `layout`: the elements every card has (boxes in mm from the bottom-left
  corner of the trimmed card); `unit`, `doctrine`, `tactic`: what each kind
  changes or adds (any key of an element may be overridden). The `art` window
  also takes `fit` (cover | contain) and `bleed` (true: a full-art card, the
  picture fills the card into the bleed).
- `backs`: the card back's variants, each a set of colours (`ppgen build --back NAME`;
  the first is the default).

The safe zone is a rule every element obeys: nothing but the `background` may
come nearer the trim than `safe_margin` (default 3.2 mm, the 1/8 in print services
ask for), its box and half its stroke included (the frame draws its lines inside
its box). It is checked when the template
loads, and a breach is an error naming the element, the kind and the distance.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

from ..errors import DataError, Problem
from .schema import Field, check_mapping, did_you_mean, one_of
from .yamlio import Doc, load_yaml

KINDS = ("unit", "doctrine", "tactic")
FONT_ROLES = ("body", "bold", "title")
DERIVED_COLOURS = ("faction", "faction-dark", "faction-light", "accent", "accent-dark", "on-faction", "on-accent")
HEX_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")
MIX_RE = re.compile(r"^mix\(\s*([#\w-]+)\s*,\s*([#\w-]+)\s*,\s*(0(?:\.\d+)?|1(?:\.0+)?)\s*\)$")

# Every element the drawing code knows, and what it is.
ELEMENTS = {
    "background": "fills the whole card including the bleed",
    "watermark": "the faction emblem, faint, behind the effect text",
    "frame": "the rule line around the card's artwork",
    "header": "the panel behind the name",
    "name": "the card's name (text)",
    "level": "the Level badge (units)",
    "level_number": "the Level number (text)",
    "level_label": "the word 'Lv' in the Level badge (text)",
    "art": "the window behind the emblem",
    "emblem": "the faction emblem",
    "mark": "the medallion: ♚ on Commanders, the kind or Terrain sign on Doctrines and Tactics",
    "type_band": "the band behind the type line",
    "type_line": "type and traits (text)",
    "text_panel": "the panel behind the effect text",
    "effect": "the effect text",
    "atk": "the ATK badge (units)",
    "def": "the DEF badge (units)",
    "energy": "the Energy badge (units)",
    "bonus": "the bonus badge (Doctrines and Tactics with a bonus)",
    "code": "collector code, small print (text)",
    "lang": "language code, small print (text)",
}
SAFE_MARGIN = 3.2  # mm: print services want nothing but background within 1/8 in (3.175 mm) of the trim
TEXT_ELEMENTS = ("name", "level_number", "level_label", "type_line", "effect", "bonus", "code", "lang")


def _positive(v):
    return None if v > 0 else f"must be more than 0, not {v}"


def _not_negative(v):
    return None if v >= 0 else f"must not be negative, not {v}"


def _by_language(check):
    """Mark a value's check as one of a value that may be given per language (its keys, the
    languages of ppgen.yaml and `default`, are checked with the project: language_key_problems)."""
    check.per_language = True
    return check


def _per_language(ok: Callable[[float], bool], what: str):
    """A check for a number that may differ by language: 9.8, or {default: 9.8, zh: 6.5}."""

    @_by_language
    def check(v):
        values = v.values() if isinstance(v, dict) else [v]
        if isinstance(v, dict) and "default" not in v:
            return "needs a 'default' when given per language, e.g. {default: 9.8, zh: 6.5}"
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and ok(x) for x in values):
            return f"must be {what}, or a mapping of language codes to such numbers"
        return None

    return check


ALIGNS = ("left", "center", "right", "justify")


def language_key_problems(doc: Doc, specs: Iterable[dict], languages: dict) -> list[Problem]:
    """Every key of a value given per language in `doc` (a template whose fields are in `specs`)
    that names one of ppgen.yaml's `languages` (code → LanguageConfig) by another name or
    misspelt: `{default: left, jp: justify}` set Japanese text with the default, silently. (A
    language this game does not have, `fr`, is left alone: one template may serve several games.)"""
    from .names import normalise

    names = {key for spec in specs for key, f in spec.items() if getattr(f.check, "per_language", False)}
    called = {normalise(name): code for code, language in languages.items() for name in language.names}
    problems: list[Problem] = []

    def meant(key) -> str:
        code = called.get(normalise(str(key)))
        return f"; did you mean '{code}' ({languages[code].name})?" if code else did_you_mean(str(key), languages)

    def walk(path: tuple, value) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if path and path[-1] in names:
                    if key != "default" and key not in languages and meant(key):
                        problems.append(doc.problem(path + (key,), f"unknown language '{key}' in '{path[-1]}'{meant(key)}", "unknown-key", key=True))
                else:
                    walk(path + (key,), item)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(path + (i,), item)

    walk((), doc.data)
    return problems


@_by_language
def check_align(v) -> str | None:
    """An alignment, or one per language: left, or {default: left, ja: justify}."""
    values = v.values() if isinstance(v, dict) else [v]
    if isinstance(v, dict) and "default" not in v:
        return "needs a 'default' when given per language, e.g. {default: left, ja: justify}"
    bad = [x for x in values if x not in ALIGNS]
    if bad:
        return f"must be one of {', '.join(ALIGNS)} (or a mapping of language codes to them), not {bad[0]!r}"
    return None


DESIGN_SPEC = {
    "width": Field(float, True, check=_positive, help="card width in mm"),
    "height": Field(float, True, check=_positive, help="card height in mm"),
    "safe_margin": Field(float, False, SAFE_MARGIN, check=_not_negative, help="nothing but the background nearer the trim than this (mm)"),
}

STYLE_SPEC = {
    "font": Field(str, True, check=one_of(*FONT_ROLES)),
    "size": Field(float, True, check=_positive),
    "min_size": Field(float, False, check=_positive, help="shrink down to this size; absent = never shrink"),
    "single_line_min": Field(
        (float, dict), False, check=_per_language(lambda x: x > 0, "a type size in points (more than 0)"),
        help="prefer one line, shrinking down to this size, before wrapping; a number or per language",
    ),
    "leading": Field(float, False, 1.2, check=_positive),
    "align": Field((str, dict), False, "left", check=check_align,
                   help="left, center, right or justify (CJK: on the character grid); or per language {default: left, ja: justify}"),
    "balance": Field(bool, False, False, help="a text that takes two lines breaks where they are closest in width"),
    "valign": Field(str, False, "top", check=one_of("top", "middle", "bottom")),
    "colour": Field(str, False, "#000000"),
    "keyword_max": Field(
        (float, dict), False, 0.0, check=_per_language(lambda x: x >= 0, "a number of ems (0 or more)"),
        help="bold a leading 'Keyword:' clause up to this many ems wide (0 = never); "
        "a number, or per language {default: 9.8, zh: 6.5}",
    ),
}

ELEMENT_SPEC = {
    "x": Field(float, False),
    "y": Field(float, False),
    "w": Field(float, False, check=_not_negative),
    "h": Field(float, False, check=_not_negative),
    "fill": Field(str, False),
    "stroke": Field(str, False),
    "stroke_width": Field(float, False, 0.0, check=_not_negative),
    "radius": Field(float, False, 0.0, check=_not_negative),
    "colour": Field(str, False, help="the colour of what is drawn inside (emblem, icon)"),
    "style": Field(str, False, help="text style (for text and badges)"),
    "show": Field(bool, False, True),
    "fit": Field(str, False, check=one_of("cover", "contain"), help="art: cover (fill the window, crop) or contain (show it all)"),
    "bleed": Field(bool, False, help="art: the picture fills the whole card, into the bleed (a full-art card)"),
}
ART_ONLY = ("fit", "bleed")

FRAME_KINDS = ("unit", "commander", "doctrine", "terrain", "tactic")  # what a card is, at a glance
FRAME_STYLES = ("single", "double", "corners", "bevel", "band", "none")
TEXTURES = ("hatch", "rays", "grid", "chevrons", "contours", "none")
MOTIFS = ("shield", "bow", "horse", "helmet", "swords", "wheel", "elephant", "eye", "catapult", "amphora", "tiara",
          "crown", "scroll", "banner", "landscape", "emblem", "none")  # draw/illustrations.py draws each
CARD_MOTIFS = ("doctrine", "terrain", "tactic")  # illustration keys besides the unit types of cards.yaml

FRAME_SPEC = {
    "style": Field(str, False, "single", check=one_of(*FRAME_STYLES), help="single, double, corners, bevel, band or none"),
    "colour": Field(str, False, "accent", help="the frame's colour"),
    "width": Field(float, False, 0.3, check=_not_negative, help="line width (band: the band's width), mm"),
    "trim": Field(str, False, help="colour of the rules of the art window, header, Level badge and type band"),
    "background": Field(str, False, help="the card's colour behind everything, into the bleed (default: the background element's)"),
    "texture": Field(str, False, "hatch", check=one_of(*TEXTURES), help="the background's pattern"),
    "header": Field(str, False, help="the fill of the name panel (default: the header element's)"),
}

TOP_SPEC = {
    "design": Field(dict, True),
    "palette": Field(dict, False, {}),
    "styles": Field(dict, True),
    "layout": Field(dict, True),
    "unit": Field(dict, False, {}),
    "doctrine": Field(dict, False, {}),
    "tactic": Field(dict, False, {}),
    "backs": Field(dict, False, {}),
    "back": Field(dict, False, help="one back, as templates wrote it before `backs:` (read as the variant 'dark')"),
    "frames": Field(dict, False, {}),
    "illustrations": Field(dict, False, {}),
}

BACK_SPEC = {
    "fill": Field(str, False, "#2A1F17", help="the field, into the bleed"),
    "pattern": Field(str, False, help="the lattice over the whole field (default: 16 % of the way from fill to colour)"),
    "colour": Field(str, False, "#C9A45C", help="ornament colour"),
    "accent": Field(str, False, "#8C2F22", help="the medallion's field"),
}
DEFAULT_BACKS = {"dark": {"fill": "#2A1F17", "pattern": None, "colour": "#C9A45C", "accent": "#8C2F22"}}


@dataclass(frozen=True)
class TextStyle:
    font: str
    size: float
    min_size: float | None
    leading: float
    align: str
    valign: str
    colour: str
    keyword_max: float | dict = 0.0  # ems; or {default: ems, <lang>: ems}
    single_line_min: float | dict | None = None  # prefer one line down to this size, then wrap
    balance: bool = False  # two lines: break where they are closest in width

    def align_in(self, lang: str) -> str:
        """The alignment in `lang` (align may be given per language)."""
        return in_language(self.align, lang)

    def keyword_limit(self, lang: str) -> float:
        return per_language(self.keyword_max, lang) or 0.0

    def single_line_limit(self, lang: str) -> float | None:
        return per_language(self.single_line_min, lang)


def in_language(value, lang: str):
    """A template value that may differ by language: left, or {default: left, ja: justify}."""
    return value.get(lang, value["default"]) if isinstance(value, dict) else value


def per_language(value, lang: str) -> float | None:
    """A template number that may differ by language: 9.8, or {default: 9.8, zh: 6.5}."""
    value = in_language(value, lang)
    return None if value is None else float(value)


@dataclass(frozen=True)
class Element:
    name: str
    x: float = 0.0  # mm
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    radius: float = 0.0
    colour: str | None = None
    style: str | None = None
    show: bool = True
    fit: str = "cover"  # art only: cover | contain
    bleed: bool = False  # art only: fill the whole card into the bleed


@dataclass(frozen=True)
class Frame:
    """How one kind of card (FRAME_KINDS) is framed: drawn by draw/card_front.py."""

    style: str = "single"
    colour: str = "accent"
    width: float = 0.3  # mm
    trim: str | None = None
    background: str | None = None
    texture: str = "hatch"
    header: str | None = None


@dataclass(frozen=True)
class CardTemplate:
    file: str
    width: float  # mm
    height: float
    safe_margin: float
    palette: dict[str, str]
    styles: dict[str, TextStyle]
    kinds: dict[str, dict[str, Element]]  # kind -> element name -> element (shared layout merged in)
    backs: dict[str, dict[str, str | None]] = field(default_factory=lambda: dict(DEFAULT_BACKS))  # name -> fill, pattern, colour, accent
    marks: dict = field(default_factory=dict, repr=False, compare=False)  # (kind, element) -> (line, col)
    frames: dict[str, Frame] = field(default_factory=dict)  # frame kind -> Frame (absent: single, accent)
    illustrations: dict[str, str] = field(default_factory=dict)  # unit type / doctrine / terrain / tactic -> motif
    illustration_marks: dict = field(default_factory=dict, repr=False, compare=False)  # key -> (line, col)
    scalings: dict = field(default_factory=dict, init=False, repr=False, compare=False)  # (kind, width, height) -> `scaled`'s, made once (a replace() starts afresh)

    def frame(self, frame_kind: str) -> Frame:
        return self.frames.get(frame_kind, Frame())

    def motif(self, key: str) -> str:
        """The illustration of a unit type (or doctrine, terrain, tactic); the faction emblem by default."""
        return self.illustrations.get(key, "emblem")

    def elements(self, kind: str) -> dict[str, Element]:
        return self.kinds[kind]

    def back_name(self, name: str | None = None) -> str:
        """`name` when the template defines that back (None: its first, the default); a ValueError
        listing the backs, with a "did you mean", when it does not."""
        if name is None:
            return next(iter(self.backs))
        if name not in self.backs:
            raise ValueError(f"unknown card back '{name}'{did_you_mean(name, self.backs)} ({self.file} backs: {', '.join(self.backs)})")
        return name

    def back(self, name: str | None = None) -> dict[str, str | None]:
        """The colours of back variant `name` (None: the default)."""
        return self.backs[self.back_name(name)]

    def style(self, name: str) -> TextStyle:
        return self.styles[name]

    def where(self, kind: str, element: str) -> str:
        line, col = self.marks.get((kind, element), (0, 0))
        return f"{self.file}:{line}:{col}" if line else self.file


def load_card_template(project) -> CardTemplate:
    """The card template of a project, loaded and checked once (illustration keys against the game's unit types)."""
    def load():
        doc = project.dir.yaml(project.dir.template("card"))
        template = card_template(doc)
        # A template may name types this game does not have (one template, several games); a key
        # that looks like a misspelt type of this game is an error.
        known = tuple(project.game.types) + CARD_MOTIFS
        problems = [Problem(template.file, line, col, f"unknown unit type '{key}' in illustrations{did_you_mean(key, known)} "
                            f"(types of cards.yaml, and {', '.join(CARD_MOTIFS)})", "unknown-key")
                    for key, (line, col) in template.illustration_marks.items() if key not in known and did_you_mean(key, known)]
        problems += language_key_problems(doc, [STYLE_SPEC, ELEMENT_SPEC], project.config.languages)
        if problems:
            raise DataError(problems)
        return template

    return project.cached("template:card", load)


def read_card_template(path, root=None) -> CardTemplate:
    """Load and check a card template file; raise DataError with file:line:col for every problem."""
    return card_template(load_yaml(path, root))


def card_template(doc: Doc) -> CardTemplate:
    """A card template from its YAML document, checked."""
    problems: list[Problem] = []
    top = check_mapping(doc, (), doc.data if doc.data is not None else {}, TOP_SPEC, problems, "the card template")
    if top is None:
        raise DataError(problems)
    design = _design(doc, top.get("design"), problems)
    palette = _palette(doc, top.get("palette") or {}, problems)
    named = top.get("palette") if isinstance(top.get("palette"), dict) else {}
    colour_names = set(named) | set(DERIVED_COLOURS)  # a bad palette entry is reported once, not at every use
    styles = _styles(doc, top.get("styles") or {}, colour_names, problems) if isinstance(top.get("styles") or {}, dict) else {}
    style_names = set(top.get("styles") or {}) if isinstance(top.get("styles"), dict) else set()  # a bad style is reported once
    kinds, marks = _kinds(doc, top, colour_names, style_names, design, problems)
    backs = _backs(doc, top.get("backs"), palette, problems)
    if top.get("back") and not top.get("backs"):  # an earlier template's single back (`ppgen errata` compares with one)
        backs = {"dark": _back_colours(doc, ("back",), top["back"], palette, problems) or {}}
    frames = _frames(doc, top.get("frames") or {}, colour_names, problems)
    illustrations, illustration_marks = _illustrations(doc, top.get("illustrations") or {}, problems)
    if problems:
        raise DataError(problems)
    return CardTemplate(doc.file, design["width"], design["height"], design["safe_margin"], palette, styles, kinds, backs, marks,
                        frames, illustrations, illustration_marks)


def _design(doc: Doc, data, problems) -> dict | None:
    """The card size the template is drawn for; None when it is absent or wrong (reported:
    the boxes cannot be checked against it)."""
    if data is None:
        return None
    before = len(problems)
    design = check_mapping(doc, ("design",), data, DESIGN_SPEC, problems, "design")
    return design if len(problems) == before else None


def _kinds(doc: Doc, top: dict, colour_names, style_names, design, problems) -> tuple[dict[str, dict[str, Element]], dict]:
    """The elements of each kind (the shared `layout`, with what the kind's own section says merged
    over it), each checked by the element rules; and where each was written."""
    shared = _elements(doc, ("layout",), top.get("layout") or {}, colour_names, style_names, problems)
    kinds: dict[str, dict[str, Element]] = {}
    marks: dict = {}
    checks: dict[tuple, list[str]] = {}  # (path in the file, element) -> the kinds that have it
    for kind in KINDS:
        own = _elements(doc, (kind,), top.get(kind) or {}, colour_names, style_names, problems)
        kinds[kind] = {}
        for name in ELEMENTS:
            if name not in shared and name not in own:
                continue
            path = (kind, name) if name in own else ("layout", name)
            marks[(kind, name)] = doc.key_mark(path)
            values = {**shared.get(name, {}), **own.get(name, {})}
            element = Element(name, **{k: v for k, v in values.items() if v is not None})
            kinds[kind][name] = element
            checks.setdefault((path, element), []).append(kind)
    for (path, element), in_kinds in checks.items():  # an element several kinds share: checked (and reported) once
        problems.extend(_element_problems(doc, path, element, design, ", ".join(in_kinds)))
    return kinds, marks


def _backs(doc: Doc, data, palette: dict[str, str], problems) -> dict[str, dict]:
    """`backs:` → {variant: {fill, pattern, colour, accent}}, each colour "#rrggbb" (palette names
    resolved); the built-in dark back when the section is absent."""
    if not data:
        return dict(DEFAULT_BACKS)
    if not isinstance(data, dict):
        problems.append(doc.problem(("backs",), "'backs' must be a mapping of back names to colours, e.g. {dark: {fill: ...}}"))
        return {}
    out = {}
    for name, value in data.items():
        if not isinstance(name, str) or not re.match(r"^[a-z0-9][a-z0-9-]*$", name):
            problems.append(doc.problem(("backs", name), f"a back's name is lower-case letters, digits and '-' (it is typed as --back NAME), not {name!r}", key=True))
            continue
        back = _back_colours(doc, ("backs", name), value, palette, problems)
        if back is not None:
            out[name] = back
    return out


def _back_colours(doc: Doc, path: tuple, value, palette: dict[str, str], problems) -> dict | None:
    """One back's colours (at `path` in the file), palette names resolved to "#rrggbb"."""
    back = check_mapping(doc, path, value, BACK_SPEC, problems, f"back '{path[-1]}'")
    if back is None:
        return None
    for key, colour in list(back.items()):
        if colour is None or HEX_RE.match(colour):
            continue
        if colour in palette:
            back[key] = palette[colour]
        else:
            problems.append(doc.problem(path + (key,), f"the back's '{key}' must be \"#rrggbb\" or a palette name{did_you_mean(colour, palette)}", "value"))
    return back


def _frames(doc: Doc, data, colour_names, problems) -> dict[str, Frame]:
    out: dict[str, Frame] = {}
    if not isinstance(data, dict):
        problems.append(doc.problem(("frames",), "'frames' must be a mapping of card kinds to frames"))
        return out
    for kind, value in data.items():
        path = ("frames", kind)
        if kind not in FRAME_KINDS:
            problems.append(doc.problem(path, f"unknown card kind '{kind}'{did_you_mean(kind, FRAME_KINDS)} (kinds: {', '.join(FRAME_KINDS)})",
                                        "unknown-key", key=True))
            continue
        before = len(problems)
        f = check_mapping(doc, path, value, FRAME_SPEC, problems, f"frame '{kind}'")
        if f is None:
            continue
        for key in ("colour", "trim", "background", "header"):
            p = _colour_problem(doc, path + (key,), f.get(key), colour_names)
            if p:
                problems.append(p)
        if len(problems) == before:
            out[kind] = Frame(f["style"], f["colour"], float(f["width"]), f["trim"], f["background"], f["texture"], f["header"])
    return out


def _illustrations(doc: Doc, data, problems) -> tuple[dict[str, str], dict]:
    out: dict[str, str] = {}
    marks: dict = {}
    if not isinstance(data, dict):
        problems.append(doc.problem(("illustrations",), "'illustrations' must be a mapping of unit types (and doctrine, terrain, tactic) to motifs"))
        return out, marks
    for key, motif in data.items():
        path = ("illustrations", key)
        if not isinstance(motif, str) or motif not in MOTIFS:
            problems.append(doc.problem(path, f"unknown motif {motif!r}{did_you_mean(str(motif), MOTIFS)} (motifs: {', '.join(MOTIFS)})", "value"))
            continue
        out[key] = motif
        marks[key] = doc.key_mark(path)
    return out, marks


def _palette(doc: Doc, data, problems) -> dict[str, str]:
    out = {}
    if not isinstance(data, dict):
        problems.append(doc.problem(("palette",), "palette must be a mapping of names to colours"))
        return out
    for name, value in data.items():
        if name in DERIVED_COLOURS:
            problems.append(doc.problem(("palette", name), f"'{name}' is a faction colour and cannot be redefined", key=True))
        elif not isinstance(value, str) or not HEX_RE.match(value):
            problems.append(doc.problem(("palette", name), f"palette colour '{name}' must be like \"#9B1C1C\" (quoted), not {value!r}", "value"))
        else:
            out[name] = value
    return out


def _colour_problem(doc, path, value, colour_names) -> Problem | None:
    if value is None or HEX_RE.match(value) or value in colour_names:
        return None
    m = MIX_RE.match(value)
    if m:
        bad = [part for part in m.groups()[:2] if not (HEX_RE.match(part) or part in colour_names)]
        if not bad:
            return None
        value = bad[0]
    elif value.startswith("mix"):
        return doc.problem(path, f"'{value}' must be like mix(parchment, faction, 0.1): two colours and a fraction from 0 to 1", "value")
    return doc.problem(path, f"unknown colour '{value}': use \"#rrggbb\" or one of {', '.join(sorted(colour_names))}{did_you_mean(value, colour_names)}", "value")


def _styles(doc: Doc, data: dict, colour_names, problems) -> dict[str, TextStyle]:
    out = {}
    for name, value in data.items():
        path = ("styles", name)
        before = len(problems)
        s = check_mapping(doc, path, value, STYLE_SPEC, problems, f"style '{name}'")
        if s is None or len(problems) > before:
            continue
        p = _colour_problem(doc, path + ("colour",), s["colour"], colour_names)
        if p:
            problems.append(p)
            continue
        if s["min_size"] is not None and s["min_size"] > s["size"]:
            problems.append(doc.problem(path + ("min_size",), f"'min_size' ({s['min_size']}) must not be larger than 'size' ({s['size']})", "value"))
            continue
        out[name] = TextStyle(s["font"], float(s["size"]), s["min_size"], float(s["leading"]), s["align"], s["valign"], s["colour"],
                              s["keyword_max"] or 0.0, s["single_line_min"], bool(s["balance"]))
    return out


def _elements(doc: Doc, path: tuple, data, colour_names, styles, problems) -> dict[str, dict]:
    out: dict[str, dict] = {}
    if not isinstance(data, dict):
        problems.append(doc.problem(path, f"'{path[0]}' must be a mapping of element names to boxes"))
        return out
    for name, value in data.items():
        epath = path + (name,)
        if name not in ELEMENTS:
            problems.append(doc.problem(epath, f"unknown element '{name}'{did_you_mean(name, ELEMENTS)} (elements: {', '.join(ELEMENTS)})", "unknown-key", key=True))
            continue
        before = len(problems)
        e = check_mapping(doc, epath, value, ELEMENT_SPEC, problems, f"element '{name}'")
        if e is None:
            continue
        given = {k: v for k, v in e.items() if k in value}  # only what this section says; the rest merges from `layout`
        for key in ("fill", "stroke", "colour"):
            p = _colour_problem(doc, epath + (key,), given.get(key), colour_names)
            if p:
                problems.append(p)
        for key in ART_ONLY:
            if name != "art" and key in given:
                problems.append(doc.problem(epath + (key,), f"'{key}' is for the 'art' element only", "unknown-key", key=True))
        if given.get("style") is not None and given["style"] not in styles:
            problems.append(doc.problem(epath + ("style",), f"unknown style '{given['style']}'{did_you_mean(given['style'], styles)}", "value"))
        if len(problems) == before:
            out[name] = given
    return out


# ── the rules of one element, drawn on a card of the design size ─────────
def needs_style(e: Element, kind: str, design: dict) -> Iterable[tuple[str, str]]:
    if e.name in TEXT_ELEMENTS + ("atk", "def", "energy", "mark") and e.style is None:
        yield f"element '{e.name}' ({kind}) needs a 'style'", "missing-key"


def needs_size(e: Element, kind: str, design: dict) -> Iterable[tuple[str, str]]:
    if e.w <= 0 or e.h <= 0:
        yield f"element '{e.name}' ({kind}) needs a size: 'w' and 'h' in mm", "missing-key"


def inside_safe_zone(e: Element, kind: str, design: dict) -> Iterable[tuple[str, str]]:
    """Nothing but the background nearer the trim than the safe margin: the box and half its stroke."""
    if e.w <= 0 or e.h <= 0:
        return  # no box to place (needs_size says so)
    problem = safe_zone_breach(e, design["width"], design["height"], design["safe_margin"])
    if problem:
        yield f"element '{e.name}' ({kind}) {problem}", "safe-zone"


# The rule table of an element: each yields (message, code).
ELEMENT_RULES: tuple[Callable[[Element, str, dict], Iterable[tuple[str, str]]], ...] = (needs_style, needs_size, inside_safe_zone)


def _element_problems(doc: Doc, path, e: Element, design, kind: str) -> list[Problem]:
    """The element rules, for a shown element other than the background or full-bleed art (which
    fill the bleed), when the design size is known."""
    if design is None or not e.show or e.name == "background" or (e.name == "art" and e.bleed):
        return []  # (art with `bleed: true` fills the whole card, like the background)
    return [doc.problem(path, message, code) for rule in ELEMENT_RULES for message, code in rule(e, kind, design)]


LINES_INSIDE = ("frame",)  # elements that draw their lines inside their box (draw/frames.py)


def ink_box(e: Element) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in mm: what an element may paint: its box, and half its stroke, which is
    centred on the box's edge (but the frame's lines lie inside its box)."""
    half = e.stroke_width / 2 if e.stroke and e.stroke_width > 0 and e.name not in LINES_INSIDE else 0.0
    return (e.x - half, e.y - half, e.x + e.w + half, e.y + e.h + half)


def safe_zone_breach(e: Element, width: float, height: float, margin: float) -> str:
    """"" when `e` keeps `margin` mm from every edge of a width × height card; else what is wrong."""
    x0, y0, x1, y1 = ink_box(e)
    nearest = min(x0, y0, width - x1, height - y1)
    if nearest >= margin - 1e-6:
        return ""
    stroke = f" (its {e.stroke_width:g} mm line included)" if x0 < e.x else ""
    return (f"at x {fmt(x0)}–{fmt(x1)}, y {fmt(y0)}–{fmt(y1)} mm{stroke} comes {fmt(nearest)} mm from the trim: "
            f"it leaves the safe zone, {margin:g} mm inside the {width:g} × {height:g} mm card "
            f"(only the background may reach the edge)")


def fmt(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def scaled(template: CardTemplate, kind: str, width_mm: float, height_mm: float) -> tuple[dict[str, Element], float]:
    """The elements of `kind` for a card of another size, and the font scale factor.

    The safe margin stays the same in mm: what lies inside it is stretched from
    the design card's safe area onto this card's (by x and y separately). Fonts
    scale by the smaller of the card's two factors, so text keeps its size
    relative to the card; strokes and corners by the smallest factor of all, so
    a line that keeps the safe margin on the design card keeps it on every card.
    """
    key = (kind, width_mm, height_mm)
    if key not in template.scalings:  # every card of a kind and size: the same elements
        template.scalings[key] = _scaled(template, kind, width_mm, height_mm)
    elements, s = template.scalings[key]
    return dict(elements), s


def _scaled(template: CardTemplate, kind: str, width_mm: float, height_mm: float) -> tuple[dict[str, Element], float]:
    m = template.safe_margin
    kx = (width_mm - 2 * m) / (template.width - 2 * m)
    ky = (height_mm - 2 * m) / (template.height - 2 * m)
    s = min(width_mm / template.width, height_mm / template.height)
    lines = min(s, kx, ky)
    out = {}
    for name, e in template.kinds[kind].items():
        out[name] = replace(e, x=m + (e.x - m) * kx, y=m + (e.y - m) * ky, w=e.w * kx, h=e.h * ky,
                            stroke_width=e.stroke_width * lines, radius=e.radius * lines)
    return out, s
