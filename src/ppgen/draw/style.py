"""Drawing templates: geometry, colours and type sizes a designer edits in `templates/*.yaml`.

A template is a mapping of sections, each a mapping of keys to numbers or
colours. Its spec (in the module that draws) says what every key holds, so a
typo or a wrong value is reported at file:line:col with a "did you mean",
through the same schema checker as every other file (schema.check_mapping).

Conventions: lengths in millimetres, type sizes in points, colours "#rrggbb".
"""
from __future__ import annotations

import re
from types import SimpleNamespace

from ..errors import DataError, Problem
from ..impose import MM
from ..schema import Field, check_mapping
from ..yamlio import load_yaml
from ..text import Style

_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


def length(lo: float = 0.0, hi: float = 1000.0, help: str = "") -> Field:
    """A required number (mm, pt or a factor) between lo and hi."""

    def check(v):
        return None if lo <= v <= hi else f"must be between {lo:g} and {hi:g}, not {v}"

    return Field(float, True, check=check, help=help)


def colour(help: str = "") -> Field:
    return Field(str, True, check=lambda v: None if _COLOUR.match(v) else 'must be a colour like "#7A2E1C" (quoted)', help=help)


def load_template(project, name: str, spec: dict[str, dict[str, Field]]) -> SimpleNamespace:
    """`templates/<name>.yaml` checked against `spec` ({section: {key: Field}}), read once per
    project; DataError on any problem."""
    return project.cached(f"template:{name}", lambda: _read_template(project, name, spec))


def _read_template(project, name: str, spec: dict[str, dict[str, Field]]) -> SimpleNamespace:
    path = project.dir.template(name)
    doc = load_yaml(path, project.dir.root)
    problems: list[Problem] = []
    top_spec = {section: Field(dict, True) for section in spec}
    top = check_mapping(doc, (), doc.data if doc.data is not None else {}, top_spec, problems, f"{name}.yaml")
    out = SimpleNamespace()
    if top is not None:
        for section, fields in spec.items():
            if top.get(section) is None:
                continue
            values = check_mapping(doc, (section,), top[section], fields, problems, f"section '{section}'")
            setattr(out, section, SimpleNamespace(**(values or {})))
    if problems:
        raise DataError(problems)
    return out


def text_style(project, lang: str, role: str, size: float, colour: str = "#000000", **kw) -> Style:
    """A text-engine Style for `lang`: role body (with **bold**), bold (all bold) or title."""
    fonts = project.fonts
    line_break = project.config.languages[lang].line_break
    if role == "body":
        regular, bold = fonts.chain(lang, "body"), fonts.chain(lang, "bold")
    elif role == "bold":
        regular = bold = fonts.chain(lang, "bold")
    elif role == "title":
        regular = bold = fonts.chain(lang, "title")
    else:
        raise ValueError(f"unknown font role {role!r}")
    return Style(regular, bold, size, line_break=line_break, colour=colour, **kw)


def tint(hex_colour: str, amount: float) -> str:
    """`hex_colour` mixed with white: amount 0 = the colour, 1 = white."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02X}" for c in mix)


def draw_fitted(canvas, text: str, style: Style, x: float, y: float, w: float, h: float, report, lang: str,
                key: str = "", where: str = "", label: bool = False) -> "Layout":
    """Draw `text` in the box (x, y, w, h), shrunk down to style.min_size if it must be.

    A `label` stays on one line when shrinking a little makes it fit (see
    fit_label). Text that does not fit even at the minimum size is clipped to
    its box and reported through `report.warning("overflow", ...)`.
    """
    from ..text import draw, fit

    where = where or key or "text"
    lay = fit_label(text, style, w, h, where=where) if label else fit(text, style, w, h, where=where)
    if not lay.fits:
        report.warning("overflow", f"'{key or text[:30]}' does not fit its {w / MM:.0f} × {h / MM:.0f} mm box "
                       f"even at {lay.size:g} pt (sticks out {lay.overflow / MM:.1f} mm)", lang=lang, key=key or None)
    draw(canvas, lay, x, y)
    return lay


def fit_stack(texts: list[str], style: Style, width: float, height: float, gap: float, where: str = "text") -> float:
    """The largest size (0.25 pt steps, style.size down to style.min_size) at which the texts,
    each wrapped to `width` and stacked `gap` apart, fit `height`; the minimum when none does."""
    from ..text import layout

    def total(size):
        lays = [layout(t, style, width, 1e6, size=size, where=where) for t in texts]
        return sum(l.height for l in lays) + gap * (len(texts) - 1), max((l.width for l in lays), default=0.0)

    size = style.size
    low = style.min_size if style.min_size is not None else size
    while size > low:
        h, w = total(size)
        if h <= height and w <= width + 0.01:
            return size
        size -= 0.25
    return low


def fit_label(text: str, style: Style, w: float, h: float, shrink: float = 0.75, where: str = "text") -> "Layout":
    """A short label: on one line if it fits there at `shrink` × its size or more, else wrapped and fitted."""
    from dataclasses import replace as _replace

    from ..text import ASCENT, DESCENT, fit

    one_line_h = style.size * (ASCENT + DESCENT) + 0.01
    floor = max(style.min_size or style.size, style.size * shrink)
    lay = fit(text, _replace(style, min_size=floor), w, one_line_h, where=where)
    if lay.fits and len(lay.lines) == 1:
        return _replace(lay, box_h=h)
    return fit(text, style, w, h, where=where)
