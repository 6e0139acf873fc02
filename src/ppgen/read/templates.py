"""Card templates: geometry (mm), colours and text styles of card fronts, from `templates/card.yaml`.

A designer moves a box or changes a colour in the YAML; the drawing code
(`draw/card_front.py`) only reads it. The file has these sections:

- `design`: the card size (mm) the numbers are drawn for, and the safe margin.
  Other card sizes scale every box by width and height separately, and every
  font size, stroke and corner radius by the smaller of the two factors.
- `palette`: named colours. Everywhere a colour is asked for, give "#rrggbb",
  a palette name, or one of the faction colours: faction, faction-dark,
  faction-light, accent, accent-dark, on-faction, on-accent (the last two are
  black or white text, whichever reads better on that colour); or a blend,
  "mix(parchment, faction, 0.1)" = parchment moved 10 % towards faction.
- `styles`: text styles: font role (body / bold / title from ppgen.yaml), size
  and the minimum it may shrink to, leading, alignment, colour.
- `layout`: the elements every card has (boxes in mm from the bottom-left
  corner of the trimmed card); `unit`, `doctrine`, `tactic`: what each kind
  changes or adds (any key of an element may be overridden).

Every element except `background` must lie inside the safe zone.
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
TEXT_ELEMENTS = ("name", "level_number", "level_label", "type_line", "effect", "bonus", "code", "lang")


def _positive(v):
    return None if v > 0 else f"must be more than 0, not {v}"


def _not_negative(v):
    return None if v >= 0 else f"must not be negative, not {v}"


def _per_language(ok: Callable[[float], bool], what: str):
    """A check for a number that may differ by language: 9.8, or {default: 9.8, zh: 6.5}."""

    def check(v):
        values = v.values() if isinstance(v, dict) else [v]
        if isinstance(v, dict) and "default" not in v:
            return "needs a 'default' when given per language, e.g. {default: 9.8, zh: 6.5}"
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and ok(x) for x in values):
            return f"must be {what}, or a mapping of language codes to such numbers"
        return None

    return check


DESIGN_SPEC = {
    "width": Field(float, True, check=_positive, help="card width in mm"),
    "height": Field(float, True, check=_positive, help="card height in mm"),
    "safe_margin": Field(float, False, 3.0, check=_not_negative, help="artwork stays this far inside the trim"),
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
    "align": Field(str, False, "left", check=one_of("left", "center", "right")),
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
}

TOP_SPEC = {
    "design": Field(dict, True),
    "palette": Field(dict, False, {}),
    "styles": Field(dict, True),
    "layout": Field(dict, True),
    "unit": Field(dict, False, {}),
    "doctrine": Field(dict, False, {}),
    "tactic": Field(dict, False, {}),
    "back": Field(dict, False, {}),
}

BACK_SPEC = {
    "fill": Field(str, False, "#2A1F17", help="background colour, into the bleed"),
    "colour": Field(str, False, "#C9A45C", help="ornament colour"),
    "accent": Field(str, False, "#8C2F22", help="the medallion's field"),
}


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

    def keyword_limit(self, lang: str) -> float:
        return per_language(self.keyword_max, lang) or 0.0

    def single_line_limit(self, lang: str) -> float | None:
        return per_language(self.single_line_min, lang)


def per_language(value, lang: str) -> float | None:
    """A template number that may differ by language: 9.8, or {default: 9.8, zh: 6.5}."""
    if isinstance(value, dict):
        value = value.get(lang, value["default"])
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


@dataclass(frozen=True)
class CardTemplate:
    file: str
    width: float  # mm
    height: float
    safe_margin: float
    palette: dict[str, str]
    styles: dict[str, TextStyle]
    kinds: dict[str, dict[str, Element]]  # kind -> element name -> element (shared layout merged in)
    back: dict[str, str] = field(default_factory=dict)  # fill, colour, accent: "#rrggbb"
    marks: dict = field(default_factory=dict, repr=False, compare=False)  # (kind, element) -> (line, col)

    def elements(self, kind: str) -> dict[str, Element]:
        return self.kinds[kind]

    def style(self, name: str) -> TextStyle:
        return self.styles[name]

    def where(self, kind: str, element: str) -> str:
        line, col = self.marks.get((kind, element), (0, 0))
        return f"{self.file}:{line}:{col}" if line else self.file


def load_card_template(project) -> CardTemplate:
    """The card template of a project, loaded and checked once."""
    return project.cached("template:card", lambda: read_card_template(project.dir.template("card"), project.dir.root))


def read_card_template(path, root=None) -> CardTemplate:
    """Load and check a card template file; raise DataError with file:line:col for every problem."""
    doc = load_yaml(path, root)
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
    back = _back(doc, top.get("back") or {}, palette, problems)
    if problems:
        raise DataError(problems)
    return CardTemplate(doc.file, design["width"], design["height"], design["safe_margin"], palette, styles, kinds, back, marks)


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
            problems.extend(_element_problems(doc, path, element, design, kind))
    return kinds, marks


def _back(doc: Doc, data, palette: dict[str, str], problems) -> dict[str, str]:
    """The back's colours, palette names resolved to "#rrggbb"."""
    back = check_mapping(doc, ("back",), data, BACK_SPEC, problems, "back") or {}
    for key, value in list(back.items()):
        if value is not None and not HEX_RE.match(value):
            if value in palette:
                back[key] = palette[value]
            else:
                problems.append(doc.problem(("back", key), f"the back's '{key}' must be \"#rrggbb\" or a palette name{did_you_mean(value, palette)}", "value"))
    return back


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
        out[name] = TextStyle(s["font"], float(s["size"]), s["min_size"], float(s["leading"]), s["align"], s["valign"], s["colour"], s["keyword_max"] or 0.0, s["single_line_min"])
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
    if e.w <= 0 or e.h <= 0:
        return  # no box to place (needs_size says so)
    m = design["safe_margin"]
    W, H = design["width"], design["height"]
    eps = 1e-6
    if e.x < m - eps or e.y < m - eps or e.x + e.w > W - m + eps or e.y + e.h > H - m + eps:
        yield (f"element '{e.name}' ({kind}) at x {e.x}–{e.x + e.w:g}, y {e.y}–{e.y + e.h:g} mm leaves the safe zone "
               f"({m:g} mm inside the {W:g} × {H:g} mm card)"), "safe-zone"


# The rule table of an element: each yields (message, code).
ELEMENT_RULES: tuple[Callable[[Element, str, dict], Iterable[tuple[str, str]]], ...] = (needs_style, needs_size, inside_safe_zone)


def _element_problems(doc: Doc, path, e: Element, design, kind: str) -> list[Problem]:
    """The element rules, for a shown element other than the background (which fills the bleed),
    when the design size is known."""
    if design is None or not e.show or e.name == "background":
        return []
    return [doc.problem(path, message, code) for rule in ELEMENT_RULES for message, code in rule(e, kind, design)]


def scaled(template: CardTemplate, kind: str, width_mm: float, height_mm: float) -> tuple[dict[str, Element], float]:
    """The elements of `kind` for a card of another size, and the font scale factor.

    Boxes scale by x and y separately; sizes of lines, corners and fonts by
    the smaller factor, so text never grows wider than its box.
    """
    sx, sy = width_mm / template.width, height_mm / template.height
    s = min(sx, sy)
    out = {}
    for name, e in template.kinds[kind].items():
        out[name] = replace(e, x=e.x * sx, y=e.y * sy, w=e.w * sx, h=e.h * sy, stroke_width=e.stroke_width * s, radius=e.radius * s)
    return out, s
