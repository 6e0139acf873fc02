"""Vector emblems and icons, drawn from geometry alone (no image files).

Every shape is described in a unit square, x and y from −1 to 1 (y up), and
drawn into any box with `draw_emblem` / `draw_icon`, which keep the aspect
ratio and centre the shape. Emblems are the faction signs named by `emblem:`
in cards.yaml; icons are the small pictograms on badges and medallions.

To add a faction emblem: write a function `def _name(c)` drawing in the unit
square with `_fill(c, path)`, and add it to EMBLEMS under the id cards.yaml uses.
"""
from __future__ import annotations

import math

from .colours import rl


# ── path helpers ───────────────────────────────────────────────────────────
def _path(c):
    return c.beginPath()


def _fill(c, p, even_odd: bool = False) -> None:
    from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO

    c.drawPath(p, stroke=0, fill=1, fillMode=FILL_EVEN_ODD if even_odd else FILL_NON_ZERO)


def _poly(p, points, close: bool = True) -> None:
    p.moveTo(*points[0])
    for pt in points[1:]:
        p.lineTo(*pt)
    if close:
        p.close()


def _arc(p, cx, cy, r, a0, a1, move: bool = False, ry: float | None = None) -> None:
    """Add an arc from angle a0 to a1 (degrees, counter-clockwise when a1 > a0) as cubic Béziers."""
    ry = r if ry is None else ry
    n = max(1, math.ceil(abs(a1 - a0) / 90))
    step = math.radians(a1 - a0) / n
    k = 4 / 3 * math.tan(step / 4)
    a = math.radians(a0)
    x0, y0 = cx + r * math.cos(a), cy + ry * math.sin(a)
    if move:
        p.moveTo(x0, y0)
    else:
        p.lineTo(x0, y0)
    for _ in range(n):
        b = a + step
        x1, y1 = cx + r * math.cos(b), cy + ry * math.sin(b)
        p.curveTo(
            x0 - k * r * math.sin(a), y0 + k * ry * math.cos(a),
            x1 + k * r * math.sin(b), y1 - k * ry * math.cos(b),
            x1, y1,
        )
        a, x0, y0 = b, x1, y1


def _circle(p, cx, cy, r, ry=None) -> None:
    _arc(p, cx, cy, r, 0, 360, move=True, ry=ry)
    p.close()


def _rot(points, angle_deg, origin=(0.0, 0.0)):
    a = math.radians(angle_deg)
    ox, oy = origin
    ca, sa = math.cos(a), math.sin(a)
    return [(ox + (x - ox) * ca - (y - oy) * sa, oy + (x - ox) * sa + (y - oy) * ca) for x, y in points]


def _leaf(p, x, y, angle, length, width) -> None:
    """An almond-shaped leaf from (x, y) pointing at `angle` degrees."""
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    nx, ny = -uy, ux
    tip = (x + ux * length, y + uy * length)
    w = width / 2 * 1.33
    p.moveTo(x, y)
    p.curveTo(x + ux * length * 0.3 + nx * w, y + uy * length * 0.3 + ny * w,
              x + ux * length * 0.75 + nx * w * 0.8, y + uy * length * 0.75 + ny * w * 0.8, *tip)
    p.curveTo(x + ux * length * 0.75 - nx * w * 0.8, y + uy * length * 0.75 - ny * w * 0.8,
              x + ux * length * 0.3 - nx * w, y + uy * length * 0.3 - ny * w, x, y)
    p.close()


def _tanit(c) -> None:
    """The sign of Tanit: crescent, head, raised arms, triangular robe (Carthage)."""
    p = _path(c)
    # robe: a triangle with gently concave sides
    p.moveTo(-0.075, 0.1)
    p.lineTo(0.075, 0.1)
    p.curveTo(0.12, -0.32, 0.36, -0.72, 0.6, -0.94)
    p.lineTo(-0.6, -0.94)
    p.curveTo(-0.36, -0.72, -0.12, -0.32, -0.075, 0.1)
    p.close()
    # arms: a bar whose ends sweep upward
    p.moveTo(0, 0.075)
    p.lineTo(0.46, 0.075)
    p.curveTo(0.6, 0.075, 0.66, 0.16, 0.66, 0.3)
    p.lineTo(0.66, 0.46)
    p.lineTo(0.54, 0.46)
    p.lineTo(0.54, 0.32)
    p.curveTo(0.54, 0.24, 0.5, 0.2, 0.44, 0.2)
    p.lineTo(-0.44, 0.2)
    p.curveTo(-0.5, 0.2, -0.54, 0.24, -0.54, 0.32)
    p.lineTo(-0.54, 0.46)
    p.lineTo(-0.66, 0.46)
    p.lineTo(-0.66, 0.3)
    p.curveTo(-0.66, 0.16, -0.6, 0.075, -0.46, 0.075)
    p.close()
    _fill(c, p)
    # head
    p = _path(c)
    _circle(p, 0, 0.47, 0.19)
    _fill(c, p)
    # crescent, horns up, above the head
    p = _path(c)
    c1, r1 = (0.0, 0.88), 0.17
    tip_a = 160
    tx, ty = r1 * math.cos(math.radians(tip_a)), c1[1] + r1 * math.sin(math.radians(tip_a))
    inner_bottom = 0.78
    c2y = (tx * tx + ty * ty - inner_bottom * inner_bottom) / (2 * (ty - inner_bottom))
    r2 = c2y - inner_bottom
    a2 = math.degrees(math.atan2(ty - c2y, tx))  # the left tip seen from the inner circle's centre
    _arc(p, c1[0], c1[1], r1, tip_a, 540 - tip_a, move=True)  # outer edge, through the bottom
    right = ((180 - a2 + 180) % 360) - 180  # the right tip, seen from the inner circle's centre
    _arc(p, 0, c2y, r2, right, -180 - right)  # inner edge, back to the left tip through the bottom
    p.close()
    _fill(c, p)


def _falx_shape(c, angle: float, mirror: bool) -> None:
    s = -1 if mirror else 1
    blade_back = [(-0.075, -0.22), (-0.16, 0.5), (0.3, 0.98), (0.64, 0.46)]
    blade_edge = [(0.64, 0.46), (0.34, 0.72), (0.07, 0.42), (0.075, -0.22)]

    def t(pts):
        return _rot([(s * x, y) for x, y in pts], s * angle)

    p = _path(c)
    b = t(blade_back)
    e = t(blade_edge)
    p.moveTo(*b[0])
    p.curveTo(*b[1], *b[2], *b[3])
    p.curveTo(*e[1], *e[2], *e[3])
    p.close()
    _poly(p, t([(-0.055, -0.2), (0.055, -0.2), (0.06, -0.86), (-0.06, -0.86)]))  # handle
    _poly(p, t([(-0.12, -0.2), (0.12, -0.2), (0.1, -0.29), (-0.1, -0.29)]))  # collar
    _fill(c, p)
    p = _path(c)
    px, py = t([(0, -0.9)])[0]
    _circle(p, px, py, 0.08)
    _fill(c, p)


def _falx(c) -> None:
    """Two crossed Dacian falxes, the curved war-scythes (Dacia)."""
    _falx_shape(c, -27, mirror=False)
    _falx_shape(c, -27, mirror=True)


def _ankh(c) -> None:
    """The ankh, with flared arms and foot (Egypt)."""
    p = _path(c)
    _circle(p, 0, 0.5, 0.31, ry=0.42)
    _circle(p, 0, 0.52, 0.17, ry=0.28)
    _fill(c, p, even_odd=True)
    p = _path(c)
    # crossbar, flaring towards its ends
    p.moveTo(-0.64, -0.04)
    p.curveTo(-0.4, 0.03, -0.2, 0.04, 0, 0.04)
    p.curveTo(0.2, 0.04, 0.4, 0.03, 0.64, -0.04)
    p.lineTo(0.64, 0.28)
    p.curveTo(0.4, 0.2, 0.2, 0.18, 0, 0.18)
    p.curveTo(-0.2, 0.18, -0.4, 0.2, -0.64, 0.28)
    p.close()
    # stem, flaring to the foot
    p.moveTo(-0.085, 0.1)
    p.lineTo(0.085, 0.1)
    p.curveTo(0.09, -0.4, 0.13, -0.75, 0.24, -0.96)
    p.lineTo(-0.24, -0.96)
    p.curveTo(-0.13, -0.75, -0.09, -0.4, -0.085, 0.1)
    p.close()
    _fill(c, p)


def _vergina_sun(c) -> None:
    """The Vergina Sun: sixteen rays around a disc (Macedonia)."""
    p = _path(c)
    for k in range(16):
        a = 90 + k * 22.5
        tip = (0.98 * math.cos(math.radians(a)), 0.98 * math.sin(math.radians(a)))
        left = (0.3 * math.cos(math.radians(a + 8.5)), 0.3 * math.sin(math.radians(a + 8.5)))
        right = (0.3 * math.cos(math.radians(a - 8.5)), 0.3 * math.sin(math.radians(a - 8.5)))
        _poly(p, [right, tip, left])
    _fill(c, p)
    p = _path(c)
    _circle(p, 0, 0, 0.27)
    _circle(p, 0, 0, 0.21)
    _circle(p, 0, 0, 0.16)
    _fill(c, p, even_odd=True)


def _tier(p, x0, x1, y_top, thickness, lift, scallop) -> None:
    """One tier of a wing (x0 → x1, either direction): straight top, upturned tip, scalloped lower edge."""
    d = 1 if x1 > x0 else -1
    length = abs(x1 - x0)
    bend = x1 - d * length * 0.28
    p.moveTo(x0, y_top)
    p.lineTo(bend, y_top)
    p.curveTo(x1 - d * length * 0.1, y_top, x1, y_top + lift * 0.5, x1, y_top + lift)
    bottom = y_top - thickness
    p.curveTo(x1 - d * length * 0.02, y_top + lift * 0.2, x1 - d * length * 0.12, bottom, bend - d * length * 0.04, bottom)
    n = max(1, round(abs(bend - d * length * 0.04 - x0) / scallop))
    step = (bend - d * length * 0.04 - x0) / n
    x = bend - d * length * 0.04
    for _ in range(n):
        nx = x - step
        p.curveTo(x - step * 0.1, bottom - thickness * 0.45, nx + step * 0.1, bottom - thickness * 0.45, nx, bottom)
        x = nx
    p.close()


def _winged_disc(c) -> None:
    """The winged disc: a sun disc on spread wings of three tiers, and a tail (Persia)."""
    cy = 0.16
    p = _path(c)
    for side in (1, -1):
        for i, (length, lift) in enumerate([(0.98, 0.26), (0.84, 0.16), (0.68, 0.08)]):
            _tier(p, side * 0.21, side * length, cy + 0.12 - i * 0.15, 0.1, lift, 0.095)
    for i, half in enumerate([0.3, 0.24, 0.17]):
        y = cy - 0.24 - i * 0.15
        p.moveTo(-half, y)
        p.lineTo(half, y)
        p.lineTo(half * 0.92, y - 0.1)
        n = 3 + (2 - i)
        step = 2 * half * 0.92 / n
        x = half * 0.92
        for _ in range(n):
            p.curveTo(x - step * 0.1, y - 0.15, x - step * 0.9, y - 0.15, x - step, y - 0.1)
            x -= step
        p.close()
    _fill(c, p)
    p = _path(c)
    _circle(p, 0, cy, 0.27)
    _circle(p, 0, cy, 0.2)
    _circle(p, 0, cy, 0.13)
    _fill(c, p, even_odd=True)


def _laurel(c) -> None:
    """A laurel wreath, open at the top, tied at the bottom (Rome)."""
    R = 0.7
    p = _path(c)
    for side in (1, -1):
        # stem: a thin band along the arc
        a0, a1 = -78, 62
        if side > 0:
            _arc(p, 0, -0.02, R + 0.018, a0, a1, move=True)
            _arc(p, 0, -0.02, R - 0.018, a1, a0)
        else:
            _arc(p, 0, -0.02, R + 0.018, 180 - a0, 180 - a1, move=True)
            _arc(p, 0, -0.02, R - 0.018, 180 - a1, 180 - a0)
        p.close()
        for k in range(8):
            theta = -70 + k * 17.5  # degrees on the right side, going up
            t = theta if side > 0 else 180 - theta
            x, y = R * math.cos(math.radians(t)), -0.02 + R * math.sin(math.radians(t))
            along = t + 90 if side > 0 else t - 90
            size = 0.27 - k * 0.008
            _leaf(p, x, y, along - 42 * side, size, 0.12)
            _leaf(p, x, y, along + 42 * side, size, 0.12)
        tt = a1 if side > 0 else 180 - a1
        x, y = R * math.cos(math.radians(tt)), -0.02 + R * math.sin(math.radians(tt))
        _leaf(p, x, y, tt + 90 if side > 0 else tt - 90, 0.26, 0.12)
    _fill(c, p)
    # the tie: a small knot and two ribbon ends
    p = _path(c)
    _circle(p, 0, -0.72, 0.07)
    _poly(p, [(-0.03, -0.74), (-0.2, -0.98), (-0.12, -0.99), (0.0, -0.8)])
    _poly(p, [(0.03, -0.74), (0.2, -0.98), (0.12, -0.99), (0.0, -0.8)])
    _fill(c, p)


def _lambda(c) -> None:
    """A hoplite shield bearing the lambda, Λ (Sparta)."""
    p = _path(c)
    _circle(p, 0, 0, 0.98)
    _circle(p, 0, 0, 0.86)
    _fill(c, p, even_odd=True)
    p = _path(c)
    _circle(p, 0, 0, 0.8)
    # the lambda, cut out of the shield's face
    _poly(p, [(-0.5, -0.5), (-0.29, -0.5), (0, 0.26), (0.29, -0.5), (0.5, -0.5), (0.1, 0.56), (-0.1, 0.56)])
    _fill(c, p, even_odd=True)


EMBLEMS = {
    "tanit": _tanit,
    "falx": _falx,
    "ankh": _ankh,
    "vergina-sun": _vergina_sun,
    "winged-disc": _winged_disc,
    "laurel": _laurel,
    "lambda": _lambda,
}


# ── icons ──────────────────────────────────────────────────────────────────
def _sword(c) -> None:
    p = _path(c)
    blade = [(-0.11, -0.3), (-0.11, 0.62), (0, 0.92), (0.11, 0.62), (0.11, -0.3)]
    _poly(p, _rot(blade, -45))
    _poly(p, _rot([(-0.4, -0.3), (0.4, -0.3), (0.4, -0.44), (-0.4, -0.44)], -45))
    _poly(p, _rot([(-0.07, -0.44), (0.07, -0.44), (0.07, -0.78), (-0.07, -0.78)], -45))
    x, y = _rot([(0, -0.86)], -45)[0]
    _circle(p, x, y, 0.11)
    _fill(c, p)


def _shield(c) -> None:
    p = _path(c)
    p.moveTo(0, 0.9)
    p.curveTo(0.25, 0.78, 0.5, 0.74, 0.74, 0.74)
    p.curveTo(0.76, 0.1, 0.6, -0.5, 0, -0.92)
    p.curveTo(-0.6, -0.5, -0.76, 0.1, -0.74, 0.74)
    p.curveTo(-0.5, 0.74, -0.25, 0.78, 0, 0.9)
    p.close()
    _fill(c, p)


def _bolt(c) -> None:
    p = _path(c)
    _poly(p, [(0.2, 0.95), (-0.5, -0.08), (-0.04, -0.08), (-0.2, -0.95), (0.5, 0.12), (0.04, 0.12)])
    _fill(c, p)


def _mountain(c) -> None:
    p = _path(c)
    _poly(p, [(-0.95, -0.6), (-0.3, 0.55), (-0.02, 0.08), (0.25, 0.5), (0.95, -0.6)])
    _fill(c, p)


def _column(c) -> None:
    """An Ionic column: the sign of a Doctrine (a lasting plan)."""
    p = _path(c)
    _poly(p, [(-0.62, 0.62), (0.62, 0.62), (0.62, 0.74), (-0.62, 0.74)])  # abacus
    _poly(p, [(-0.46, 0.5), (0.46, 0.5), (0.46, 0.62), (-0.46, 0.62)])  # echinus
    for x in (-0.5, 0.5):  # volutes
        _circle(p, x, 0.5, 0.14)
    for x0 in (-0.4, -0.2, 0.0, 0.2):  # fluted shaft
        _poly(p, [(x0 + 0.035, -0.56), (x0 + 0.165, -0.56), (x0 + 0.165, 0.4), (x0 + 0.035, 0.4)])
    _poly(p, [(-0.46, 0.36), (0.46, 0.36), (0.46, 0.44), (-0.46, 0.44)])
    _poly(p, [(-0.5, -0.72), (0.5, -0.72), (0.5, -0.6), (-0.5, -0.6)])  # base
    _poly(p, [(-0.66, -0.9), (0.66, -0.9), (0.66, -0.76), (-0.66, -0.76)])
    _fill(c, p)


def _arrows(c) -> None:
    """Two crossed arrows: the sign of a Tactic (a sudden stroke)."""
    p = _path(c)
    for angle in (45, 135):
        shaft = [(-0.05, -0.85), (0.05, -0.85), (0.05, 0.5), (-0.05, 0.5)]
        head = [(-0.2, 0.46), (0, 0.95), (0.2, 0.46)]
        fletch_l = [(-0.05, -0.85), (-0.2, -0.98), (-0.2, -0.68), (-0.05, -0.55)]
        fletch_r = [(0.05, -0.85), (0.2, -0.98), (0.2, -0.68), (0.05, -0.55)]
        for shape in (shaft, head, fletch_l, fletch_r):
            _poly(p, _rot(shape, angle - 90))
    _fill(c, p)


ICONS = {
    "atk": _sword,
    "def": _shield,
    "energy": _bolt,
    "terrain": _mountain,
    "doctrine": _column,
    "tactic": _arrows,
}


def _draw_unit(canvas, fn, x: float, y: float, w: float, h: float, colour: str) -> None:
    s = min(w, h) / 2
    canvas.saveState()
    canvas.translate(x + w / 2, y + h / 2)
    canvas.scale(s, s)
    canvas.setFillColor(rl(colour))
    fn(canvas)
    canvas.restoreState()


def draw_emblem(canvas, emblem_id: str, x: float, y: float, w: float, h: float, colour: str) -> None:
    """Draw faction emblem `emblem_id` centred in the box (points), as large as fits."""
    _draw_unit(canvas, EMBLEMS[emblem_id], x, y, w, h, colour)


def draw_icon(canvas, icon: str, x: float, y: float, w: float, h: float, colour: str) -> None:
    _draw_unit(canvas, ICONS[icon], x, y, w, h, colour)
