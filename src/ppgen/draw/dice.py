"""Die outlines a player recognises, drawn at real size (vector, no text).

- d20: an icosahedron's silhouette — a hexagon, vertex up, with the central
  triangular face and the facet edges running out to the hexagon's corners;
- d12: a dodecahedron's silhouette — a decagon around a central pentagon face,
  each pentagon corner joined to the decagon;
- d6: a rounded square with pips.

`size` is the outline's height (d20, d12: corner to corner; d6: the side).
Every function returns the outline's bounding box (x, y, w, h) in points, so
a caller can record what it drew.
"""
from __future__ import annotations

import math


def _polygon(n: int, cx: float, cy: float, r: float, rotation: float = 90.0) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.radians(rotation + i * 360 / n)), cy + r * math.sin(math.radians(rotation + i * 360 / n)))
            for i in range(n)]


def _path(c, points, close=True):
    p = c.beginPath()
    p.moveTo(*points[0])
    for pt in points[1:]:
        p.lineTo(*pt)
    if close:
        p.close()
    return p


def _solid(c, outline: list, face: list, edges, line: str, fill: str, facet: str, width: float) -> None:
    """A die seen face-on: the filled `outline`, its front `face` and the `edges` (point pairs)
    from the face to the outline in the thin facet colour, then the outline in `line`."""
    c.saveState()
    c.setLineJoin(1)
    c.setFillColor(fill)
    c.setStrokeColor(facet)
    c.setLineWidth(width * 0.55)
    c.drawPath(_path(c, outline), stroke=0, fill=1)
    c.drawPath(_path(c, face), stroke=1, fill=0)
    for a, b in edges:
        c.line(*a, *b)
    c.setStrokeColor(line)
    c.setLineWidth(width)
    c.drawPath(_path(c, outline), stroke=1, fill=0)
    c.restoreState()


def d20(c, cx: float, cy: float, size: float, line: str, fill: str, facet: str, width: float = 1.0) -> tuple:
    """An icosahedron silhouette `size` tall, centred on (cx, cy)."""
    r = size / 2
    hexagon = _polygon(6, cx, cy, r, 90)  # top, upper-left, lower-left, bottom, lower-right, upper-right
    top, ul, ll, bottom, lr, ur = hexagon
    inner = _polygon(3, cx, cy - r * 0.06, r * 0.56, 90)  # the front face, pointing up
    t0, t1, t2 = inner  # top, lower-left, lower-right
    edges = ((t0, top), (t0, ul), (t0, ur), (t1, ul), (t1, ll), (t1, bottom), (t2, ur), (t2, lr), (t2, bottom))
    _solid(c, hexagon, inner, edges, line, fill, facet, width)
    w = math.sqrt(3) * r
    return (cx - w / 2, cy - r, w, size)


def d12(c, cx: float, cy: float, size: float, line: str, fill: str, facet: str, width: float = 1.0) -> tuple:
    """A dodecahedron silhouette `size` tall (a decagon, vertex up), centred on (cx, cy)."""
    r = size / 2
    decagon = _polygon(10, cx, cy, r, 90)
    face = _polygon(5, cx, cy, r * 0.52, 90)
    _solid(c, decagon, face, [(pt, decagon[2 * i]) for i, pt in enumerate(face)], line, fill, facet, width)
    w = 2 * r * math.cos(math.radians(18))  # decagon, vertex up: width across the corners at ±18°
    return (cx - w / 2, cy - r, w, size)


PIPS = {
    1: [(0, 0)],
    2: [(-1, 1), (1, -1)],
    3: [(-1, 1), (0, 0), (1, -1)],
    4: [(-1, 1), (1, 1), (-1, -1), (1, -1)],
    5: [(-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)],
    6: [(-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)],
}


def d6(c, cx: float, cy: float, size: float, line: str, fill: str, pips: int | None = None, pip_colour: str | None = None,
       width: float = 1.0) -> tuple:
    """A die face: a rounded square `size` wide centred on (cx, cy), with `pips` (1–6) or none."""
    x, y = cx - size / 2, cy - size / 2
    c.saveState()
    c.setFillColor(fill)
    c.setStrokeColor(line)
    c.setLineWidth(width)
    c.roundRect(x, y, size, size, size * 0.18, stroke=1, fill=1)
    if pips:
        c.setFillColor(pip_colour or line)
        step = size * 0.27
        for px, py in PIPS[pips]:
            c.circle(cx + px * step, cy + py * step, size * 0.075, stroke=0, fill=1)
    c.restoreState()
    return (x, y, size, size)
