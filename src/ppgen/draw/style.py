"""Drawing helpers shared by the rulebook, the mats and the score sheet: millimetres to
points, a language's text styles by role, tints, and labels fitted into boxes (reported
when they must shrink). The style files themselves are read by read/styles.py.
"""
from __future__ import annotations

from ..typeset.text import Layout, Style
from ..units import MM


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


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
    kw.setdefault("phrases", project.phrases(lang))
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
    its box and reported through `report.warning("overflow", ...)`; text whose
    last line is a runt no re-breaking avoids, through `report.warning("orphan", ...)`.
    """
    from ..typeset.text import draw, fit

    where = where or key or "text"
    lay = fit_label(text, style, w, h, where=where) if label else fit(text, style, w, h, where=where)
    if not lay.fits:
        report.warning("overflow", f"'{key or text[:30]}' does not fit its {w / MM:.0f} × {h / MM:.0f} mm box "
                       f"even at {lay.size:g} pt (sticks out {lay.overflow / MM:.1f} mm)", lang=lang, key=key or None)
    elif lay.orphans:
        report.warning("orphan", f"'{key or text[:30]}' ends with a lone word on its last line: no break that fits its "
                       f"{w / MM:.0f} × {h / MM:.0f} mm box avoids it; shorten or reword it", lang=lang, key=key or None)
    draw(canvas, lay, x, y)
    return lay


def fit_stack(texts: list[str], style: Style, width: float, height: float, gap: float, where: str = "text") -> float:
    """The largest size (0.25 pt steps, style.size down to style.min_size) at which the texts,
    each wrapped to `width` and stacked `gap` apart, fit `height`; the minimum when none does."""
    from ..typeset.text import layout

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


QUIET_SHRINK = 0.9  # a label shrunk to 90 % of its size still matches its neighbours: no need to break it


def fit_label(text: str, style: Style, w: float, h: float, shrink: float = 0.75, where: str = "text") -> "Layout":
    """A short label: on one line if it fits there at QUIET_SHRINK × its size; else on two balanced lines
    broken at a good break (between words; in ja/zh at a compound's seam, スタンバイ|フェイズ)
    when that sets it larger than one line shrunk would (down to `shrink` × its size); else
    one line shrunk; else wrapped and fitted, at the largest size that breaks no word when
    one down to the minimum does."""
    from dataclasses import replace as _replace

    from ..typeset.text import ASCENT, DESCENT, fit, smaller

    one_line_h = style.size * (ASCENT + DESCENT) + 0.01
    floor = max(style.min_size or style.size, style.size * shrink)
    one = fit(text, _replace(style, min_size=floor), w, one_line_h, where=where)
    one = _replace(one, box_h=h) if one.fits and len(one.lines) == 1 else None
    if one is not None and one.size >= style.size * QUIET_SHRINK:
        return one
    two = fit(text, _replace(style, balance=True), w, h, where=where)
    if two.fits and len(two.lines) == 2 and not two.rough and (one is None or two.size > one.size):
        return two
    if one is not None:
        return one
    wrapped = fit(text, style, w, h, where=where)
    if wrapped.fits and wrapped.rough:  # a word broken ("DOCTRIN / E"): smaller, where a size down to the minimum sets every word whole
        low = style.min_size if style.min_size is not None else style.size
        return smaller(text, style, w, h, wrapped.size, low, lambda lay: not lay.rough, where) or wrapped
    return wrapped
