"""Frames and background textures: what tells the kinds of card apart across the table.

templates/card.yaml `frames:` gives each kind of card (unit, commander, doctrine, terrain,
tactic) a frame style, its colour and width, a background colour and texture:

    single    one rule                              (units)
    double    a heavy rule, and a second rule inside the art window (Commanders, in gold)
    corners   one rule with heavy brackets at the corners (Doctrines)
    bevel     a rule with cut corners               (Tactics)
    band      a broad band of colour                (Terrain)
    none

Every line lies inside the frame element's box: the box's distance from the trim is the
frame's safe margin (a stroke never straddles it).
"""
from __future__ import annotations

import math

from ..units import MM
from .colours import rl

TRIMMED = ("art", "header", "level", "type_band")  # the rules a frame's `trim` colour recolours
# mm a bevelled frame's corners are cut by: clear of the name plate's rounded corner (templates/
# card.yaml sets a Tactic's plate 1.7 mm inside the frame) and of the collector code's first letters
BEVEL_CUT = 2.0


def draw_frame(c, style: str, box, radius: float, width: float, colour: str) -> None:
    """Frame `style` inside `box` (points); `radius` of its corners, `width` of its lines."""
    x, y, w, h = box
    if style == "none" or width <= 0:
        return
    c.saveState()
    c.setStrokeColor(rl(colour))
    c.setFillColor(rl(colour))
    half = width / 2
    if style == "band":
        p = c.beginPath()
        p.roundRect(x, y, w, h, radius)
        p.roundRect(x + width, y + width, w - 2 * width, h - 2 * width, max(0.0, radius - width))
        c.drawPath(p, stroke=0, fill=1, fillMode=0)  # even-odd: the ring between the two
    elif style == "bevel":
        cut = BEVEL_CUT * MM
        c.setLineWidth(width)
        c.setLineJoin(0)
        c.drawPath(_bevelled(c, x + half, y + half, w - width, h - width, cut), stroke=1, fill=0)
    else:
        c.setLineWidth(width)
        c.roundRect(x + half, y + half, w - width, h - width, max(0.0, radius - half), stroke=1, fill=0)
        if style == "corners":
            heavy = width * 2.4
            rise, run = h * 0.13, max(radius, 1.2 * MM)  # long along the sides, short along top and bottom (the small print)
            c.setLineWidth(heavy)
            c.setLineCap(0)
            c.setLineJoin(0)
            i = heavy / 2
            for cx, cy, sx, sy in ((x, y, 1, 1), (x + w, y, -1, 1), (x, y + h, 1, -1), (x + w, y + h, -1, -1)):
                p = c.beginPath()
                p.moveTo(cx + sx * i, cy + sy * (i + rise))
                p.lineTo(cx + sx * i, cy + sy * i)
                p.lineTo(cx + sx * (i + run), cy + sy * i)
                c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def _bevelled(c, x, y, w, h, cut):
    p = c.beginPath()
    p.moveTo(x + cut, y)
    for px, py in ((x + w - cut, y), (x + w, y + cut), (x + w, y + h - cut), (x + w - cut, y + h), (x + cut, y + h), (x, y + h - cut),
                   (x, y + cut)):
        p.lineTo(px, py)
    p.close()
    return p


def draw_texture(c, texture: str, width: float, height: float, step: float) -> None:
    """A pattern of thin lines over (0, 0)–(width, height), in the current stroke colour
    (the caller clips it): hatch, rays, grid, chevrons or contours."""
    if texture in ("hatch", "grid"):
        n = int((width + height) / step) + 2
        for i in range(n):
            x0 = i * step - height
            c.line(x0, 0, x0 + height, height)
            if texture == "grid":
                c.line(x0 + height, 0, x0, height)
    elif texture == "rays":
        cx, cy, reach = width / 2, height * 0.62, math.hypot(width, height)
        for i in range(72):
            a = math.radians(i * 5)
            c.line(cx, cy, cx + reach * math.cos(a), cy + reach * math.sin(a))
    elif texture in ("chevrons", "contours"):
        gap = step * 1.6  # rows further apart than hatching: the same weight of ink
        period, amplitude = (gap * 2.4, gap * 0.35) if texture == "chevrons" else (gap * 5, gap * 0.3)
        rows = int(height / gap) + 2
        for r in range(rows):
            y0 = r * gap
            p = c.beginPath()
            p.moveTo(-period, y0)
            x = -period
            up = True
            while x < width + period:
                if texture == "chevrons":
                    p.lineTo(x + period / 2, y0 + (amplitude if up else 0))
                else:
                    p.curveTo(x + period / 4, y0 + (amplitude if up else -amplitude), x + period / 4, y0 + (amplitude if up else -amplitude),
                              x + period / 2, y0)
                x += period / 2
                up = not up
            c.drawPath(p, stroke=1, fill=0)
