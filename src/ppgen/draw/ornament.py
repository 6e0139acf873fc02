"""Vector ornaments for printed pages: Greek key bands, laurel wreaths, shields, swords, diamonds.

Pure drawing on a ReportLab canvas, no text. Sizes in points; every function
draws around or from the point it is given and leaves the canvas state as it
found it.
"""
from __future__ import annotations

import math


def diamond(c, cx: float, cy: float, r: float, colour: str) -> None:
    """A filled lozenge, `r` from centre to tip."""
    c.saveState()
    c.setFillColor(colour)
    p = c.beginPath()
    p.moveTo(cx, cy + r)
    p.lineTo(cx + r * 0.72, cy)
    p.lineTo(cx, cy - r)
    p.lineTo(cx - r * 0.72, cy)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def diamond_rule(c, cx: float, y: float, width: float, colour: str, line: float = 0.6) -> None:
    """A horizontal rule with a lozenge in the middle and small ones at the ends."""
    c.saveState()
    c.setStrokeColor(colour)
    c.setLineWidth(line)
    gap = 7
    c.line(cx - width / 2, y, cx - gap, y)
    c.line(cx + gap, y, cx + width / 2, y)
    c.restoreState()
    diamond(c, cx, y, 3.6, colour)
    diamond(c, cx - width / 2 - 3, y, 1.8, colour)
    diamond(c, cx + width / 2 + 3, y, 1.8, colour)


def meander(c, cx: float, y: float, width: float, unit: float, colour: str, line: float = 0.9) -> None:
    """A Greek key band centred on cx, bottom at y, between two border lines.

    One period of the key is 6 units wide and 2 high; the band is as many
    whole periods as fit `width`.
    """
    period = 6 * unit
    n = max(1, int((width - 2 * unit) // period))
    x0 = cx - (n * period + 2 * unit) / 2
    pad = unit * 0.9
    c.saveState()
    c.setStrokeColor(colour)
    c.setLineWidth(line)
    c.setLineJoin(0)
    p = c.beginPath()
    p.moveTo(x0, y + pad)
    for i in range(n):
        bx = x0 + i * period
        for dx, dy in ((0, 2), (4, 2), (4, 1), (2, 1), (2, 0), (6, 0)):
            p.lineTo(bx + dx * unit, y + pad + dy * unit)
    p.lineTo(x0 + n * period + 2 * unit, y + pad)
    c.drawPath(p, stroke=1, fill=0)
    total = n * period + 2 * unit
    c.setLineWidth(line * 0.8)
    c.line(x0, y, x0 + total, y)
    c.line(x0, y + 2 * pad + 2 * unit, x0 + total, y + 2 * pad + 2 * unit)
    c.restoreState()


def _leaf(c, x: float, y: float, angle: float, length: float, width: float) -> None:
    """An almond-shaped leaf from (x, y) pointing at `angle` (radians), filled with the current colour."""
    c.saveState()
    c.translate(x, y)
    c.rotate(math.degrees(angle))
    p = c.beginPath()
    p.moveTo(0, 0)
    p.curveTo(length * 0.3, width, length * 0.75, width * 0.8, length, 0)
    p.curveTo(length * 0.75, -width * 0.8, length * 0.3, -width, 0, 0)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def laurel(c, cx: float, cy: float, radius: float, colour: str, leaves: int = 9, side: int = 1) -> None:
    """One laurel branch along a circle of `radius` around (cx, cy), rising from the bottom.

    side=+1 draws the right-hand branch, -1 the left one.
    """
    start, end = -100.0, 55.0  # degrees, measured from the right-hand horizontal
    c.saveState()
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(radius * 0.022)
    p = c.beginPath()
    steps = 40
    for i in range(steps + 1):
        a = math.radians(start + (end - start) * i / steps)
        x, y = cx + side * radius * math.cos(a), cy + radius * math.sin(a)
        (p.moveTo if i == 0 else p.lineTo)(x, y)
    c.drawPath(p, stroke=1, fill=0)
    leaf_len, leaf_w = radius * 0.3, radius * 0.085
    for i in range(leaves):
        t = (i + 0.6) / (leaves + 0.2)
        a = math.radians(start + (end - start) * t)
        x, y = cx + side * radius * math.cos(a), cy + radius * math.sin(a)
        tangent = a + math.pi / 2  # direction of growth along the circle
        tx, ty = side * math.cos(tangent), math.sin(tangent)
        heading = math.atan2(ty, tx)
        scale = 0.75 + 0.25 * math.sin(math.pi * min(1.0, t * 1.15))
        _leaf(c, x, y, heading + 0.55 * side, leaf_len * scale, leaf_w * scale)  # outer leaf
        _leaf(c, x, y, heading - 0.55 * side, leaf_len * 0.85 * scale, leaf_w * 0.9 * scale)  # inner leaf
    tip = math.radians(end)
    _leaf(c, cx + side * radius * math.cos(tip), cy + radius * math.sin(tip),
          math.atan2(math.sin(tip + math.pi / 2), side * math.cos(tip + math.pi / 2)), leaf_len * 0.8, leaf_w * 0.8)
    c.restoreState()


def sword(c, x: float, y: float, angle: float, length: float, blade: str, hilt: str) -> None:
    """A gladius from its pommel at (x, y) pointing at `angle` (degrees)."""
    w = length * 0.075
    c.saveState()
    c.translate(x, y)
    c.rotate(angle)
    grip, guard = length * 0.2, length * 0.045
    c.setFillColor(hilt)
    c.circle(0, 0, w * 0.75, stroke=0, fill=1)  # pommel
    c.rect(w * 0.3, -w * 0.32, grip, w * 0.64, stroke=0, fill=1)  # grip
    c.roundRect(grip, -w * 1.25, guard, w * 2.5, guard * 0.4, stroke=0, fill=1)  # guard
    c.setFillColor(blade)
    p = c.beginPath()
    b0 = grip + guard
    p.moveTo(b0, -w * 0.55)
    p.lineTo(length * 0.82, -w * 0.62)
    p.lineTo(length, 0)
    p.lineTo(length * 0.82, w * 0.62)
    p.lineTo(b0, w * 0.55)
    p.close()
    c.setStrokeColor(hilt)
    c.setLineWidth(w * 0.1)
    c.setLineJoin(1)
    c.drawPath(p, stroke=1, fill=1)
    c.setLineWidth(w * 0.08)
    c.line(b0 + w, 0, length * 0.8, 0)  # fuller
    c.restoreState()


def round_shield(c, cx: float, cy: float, r: float, field: str, rim: str, boss: str) -> None:
    """A round hoplite shield: rim, field, and an eight-rayed star on the boss."""
    c.saveState()
    c.setFillColor(rim)
    c.circle(cx, cy, r, stroke=0, fill=1)
    c.setFillColor(field)
    c.circle(cx, cy, r * 0.86, stroke=0, fill=1)
    c.setStrokeColor(rim)
    c.setLineWidth(r * 0.025)
    c.circle(cx, cy, r * 0.74, stroke=1, fill=0)
    c.setFillColor(boss)
    p = c.beginPath()
    rays = 8
    for i in range(rays * 2):
        a = math.pi / 2 + i * math.pi / rays
        rr = r * (0.5 if i % 2 == 0 else 0.2)
        (p.moveTo if i == 0 else p.lineTo)(cx + rr * math.cos(a), cy + rr * math.sin(a))
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.setFillColor(field)
    c.circle(cx, cy, r * 0.09, stroke=0, fill=1)
    c.restoreState()


def heater_shield(c, cx: float, top: float, width: float, fill: str, edge: str) -> float:
    """A heraldic shield, flat top centred on cx; returns its height."""
    h = width * 1.18
    x0, x1 = cx - width / 2, cx + width / 2
    c.saveState()
    p = c.beginPath()
    p.moveTo(x0, top)
    p.lineTo(x1, top)
    p.lineTo(x1, top - h * 0.42)
    p.curveTo(x1, top - h * 0.78, cx + width * 0.18, top - h * 0.9, cx, top - h)
    p.curveTo(cx - width * 0.18, top - h * 0.9, x0, top - h * 0.78, x0, top - h * 0.42)
    p.close()
    c.setFillColor(fill)
    c.setStrokeColor(edge)
    c.setLineWidth(width * 0.07)
    c.setLineJoin(1)
    c.drawPath(p, stroke=1, fill=1)
    c.restoreState()
    return h


def emblem(c, cx: float, cy: float, size: float, colours) -> None:
    """The title-page emblem: crossed swords behind a round shield inside a laurel wreath.

    colours: (heading, accent, ink).
    """
    heading, accent, ink = colours
    laurel(c, cx, cy, size * 0.5, accent, side=1)
    laurel(c, cx, cy, size * 0.5, accent, side=-1)
    blade = "#DCDDDF"
    length = size * 0.9
    for side in (1, -1):
        ang = 45 if side == 1 else 135
        ox = cx - side * length * 0.5 * math.cos(math.radians(45))
        oy = cy - length * 0.5 * math.sin(math.radians(45))
        sword(c, ox, oy, ang, length, blade, ink)
    round_shield(c, cx, cy, size * 0.2, heading, accent, accent)
