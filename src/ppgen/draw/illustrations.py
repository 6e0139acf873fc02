"""Vector illustrations for the art window of a card without a picture: one per unit type,
a scroll for Doctrines, a banner for Tactics, a landscape for Terrain (templates/card.yaml
`illustrations:` says which card gets which, or `emblem`, or `none`).

Like the emblems, each motif is drawn in a unit square, x and y from −1 to 1 (y up), in
the current fill colour, its details cut out (even-odd) so the art window's glow shows
through them; `draw_illustration` centres it in a box, with the same offset shadow the
emblem has. The landscape is the exception: a band across the whole window.

To add a motif: write `def _name(c)` drawing in the unit square and add it to MOTIFS.
"""
from __future__ import annotations

import math

from .colours import mix, rl
from .emblems import EMBLEMS, _arc, _circle, _fill, _path, _poly, _rot


def _holes(c, p) -> None:
    _fill(c, p, even_odd=True)


def _rect(p, x0, y0, x1, y1) -> None:
    _poly(p, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def _bar(p, a, b, half: float) -> None:
    """A straight bar from a to b, `half` its width on either side."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length * half, (x1 - x0) / length * half
    _poly(p, [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)])


# ── unit types ─────────────────────────────────────────────────────────────
def _shield(c) -> None:
    """Infantry: the long curved shield of the line, a spear behind it."""
    p = _path(c)
    _bar(p, (-0.78, -0.9), (0.62, 0.74), 0.045)
    _poly(p, _rot([(0, 0), (0.09, 0.14), (0, 0.36), (-0.09, 0.14)], -40, (0, 0)), close=True)
    _fill(c, p)
    p = _path(c)
    p.moveTo(-0.44, 0.62)
    p.curveTo(-0.44, 0.86, 0.44, 0.86, 0.44, 0.62)
    p.lineTo(0.44, -0.62)
    p.curveTo(0.44, -0.86, -0.44, -0.86, -0.44, -0.62)
    p.close()
    _circle(p, 0, 0, 0.17)
    _circle(p, 0, 0, 0.1)
    _rect(p, -0.03, 0.2, 0.03, 0.66)
    _rect(p, -0.03, -0.66, 0.03, -0.2)
    _holes(c, p)
    # the spearhead, above the shield's top right
    p = _path(c)
    tip = [(0.62, 0.74), (0.72, 0.74), (0.92, 0.96), (0.7, 0.86)]
    _poly(p, tip)
    _fill(c, p)


def _bow(c) -> None:
    """Missile infantry: a recurve bow, drawn, an arrow on the string."""
    p = _path(c)
    _arc(p, -0.55, 0, 1.0, -58, 58, move=True)
    _arc(p, -0.55, 0, 0.86, 58, -58)
    p.close()
    _fill(c, p)
    top = (-0.55 + math.cos(math.radians(58)), math.sin(math.radians(58)))
    p = _path(c)
    _bar(p, top, (-0.42, 0), 0.018)
    _bar(p, (top[0], -top[1]), (-0.42, 0), 0.018)
    _bar(p, (-0.42, 0), (0.86, 0), 0.035)
    _poly(p, [(0.98, 0), (0.78, 0.1), (0.82, 0), (0.78, -0.1)])
    for dy in (0.09, -0.09):
        _poly(p, [(-0.42, 0), (-0.2, 0), (-0.3, dy * 1.6), (-0.52, dy * 1.6)])
    _fill(c, p)


def _horse(c) -> None:
    """Cavalry: a horse's head and neck, facing left, ears up, its mane along the neck."""
    p = _path(c)
    p.moveTo(0.7, -0.96)  # the neck's front, down to the chest
    p.curveTo(0.58, -0.46, 0.36, -0.16, 0.14, 0.06)
    p.curveTo(-0.04, 0.2, -0.34, 0.04, -0.6, -0.16)  # the jaw
    p.curveTo(-0.8, -0.3, -0.92, -0.18, -0.86, 0.0)  # the muzzle
    p.curveTo(-0.7, 0.34, -0.44, 0.58, -0.16, 0.74)  # the face
    p.lineTo(-0.16, 0.98)  # an ear
    p.lineTo(0.02, 0.78)
    p.lineTo(0.08, 0.94)  # the other ear
    p.lineTo(0.14, 0.74)
    p.curveTo(0.56, 0.66, 0.86, 0.3, 0.96, -0.96)  # the neck's back
    p.close()
    _circle(p, -0.22, 0.46, 0.065)  # the eye
    _circle(p, -0.74, -0.08, 0.04)  # the nostril
    _holes(c, p)
    p = _path(c)  # the mane: locks lying along the neck's back
    for t in (0.0, 0.22, 0.44, 0.66):
        x, y = 0.18 + t * 0.9, 0.72 - t * 1.2
        _poly(p, [(x - 0.1, y + 0.02), (x + 0.2, y - 0.02), (x + 0.1, y - 0.26)])
    _fill(c, p)


def _helmet(c) -> None:
    """Guard: a crested helmet, seen from the front, its T of eye slits and nose guard."""
    p = _path(c)
    p.moveTo(-0.56, -0.9)
    p.lineTo(-0.56, 0.1)
    p.curveTo(-0.56, 0.56, -0.3, 0.72, 0, 0.72)
    p.curveTo(0.3, 0.72, 0.56, 0.56, 0.56, 0.1)
    p.lineTo(0.56, -0.9)
    p.lineTo(0.2, -0.9)
    p.lineTo(0.12, -0.36)
    p.lineTo(-0.12, -0.36)
    p.lineTo(-0.2, -0.9)
    p.close()
    _poly(p, [(-0.42, 0.0), (-0.07, -0.06), (-0.07, -0.62), (-0.13, -0.62), (-0.16, -0.14), (-0.42, -0.1)])
    _poly(p, [(0.42, 0.0), (0.07, -0.06), (0.07, -0.62), (0.13, -0.62), (0.16, -0.14), (0.42, -0.1)])
    _holes(c, p)
    p = _path(c)  # the crest, a fan of plumes
    p.moveTo(-0.5, 0.66)
    p.curveTo(-0.46, 1.02, 0.46, 1.02, 0.5, 0.66)
    p.curveTo(0.3, 0.8, -0.3, 0.8, -0.5, 0.66)
    p.close()
    _fill(c, p)


def _swords(c) -> None:
    """Officer: two short swords crossed."""
    p = _path(c)
    for angle in (-40, 40):
        blade = [(-0.08, -0.2), (-0.08, 0.72), (0, 0.96), (0.08, 0.72), (0.08, -0.2)]
        guard = [(-0.26, -0.2), (0.26, -0.2), (0.26, -0.3), (-0.26, -0.3)]
        grip = [(-0.05, -0.3), (0.05, -0.3), (0.05, -0.66), (-0.05, -0.66)]
        for shape in (blade, guard, grip):
            _poly(p, _rot(shape, angle))
        pommel = _rot([(0, -0.74)], angle)[0]
        _circle(p, pommel[0], pommel[1], 0.09)
    _fill(c, p)


def _wheel(c) -> None:
    """Chariot: a spoked wheel under the chariot's curved car."""
    p = _path(c)
    p.moveTo(-0.9, 0.1)
    p.lineTo(0.5, 0.1)
    p.curveTo(0.8, 0.1, 0.9, 0.5, 0.84, 0.82)
    p.lineTo(0.7, 0.82)
    p.curveTo(0.72, 0.5, 0.62, 0.26, 0.42, 0.26)
    p.lineTo(-0.9, 0.26)
    p.close()
    _bar(p, (-0.9, 0.18), (-1.0, 0.5), 0.03)
    _fill(c, p)
    p = _path(c)
    cx, cy, r = 0.0, -0.32, 0.6
    _circle(p, cx, cy, r)
    _circle(p, cx, cy, r - 0.12)
    _holes(c, p)
    p = _path(c)
    for i in range(6):
        a = math.radians(i * 60 + 15)
        _bar(p, (cx, cy), (cx + (r - 0.08) * math.cos(a), cy + (r - 0.08) * math.sin(a)), 0.035)
    _circle(p, cx, cy, 0.11)
    _fill(c, p)


def _elephant(c) -> None:
    """War elephant: a head seen from the front, ears spread, tusks out, trunk curled."""
    p = _path(c)
    _circle(p, -0.6, 0.32, 0.38, 0.48)
    _circle(p, 0.6, 0.32, 0.38, 0.48)
    _fill(c, p)
    p = _path(c)
    p.moveTo(-0.3, 0.74)
    p.curveTo(-0.1, 0.88, 0.1, 0.88, 0.3, 0.74)
    p.curveTo(0.42, 0.5, 0.36, 0.0, 0.14, -0.2)
    p.curveTo(0.12, -0.5, 0.14, -0.72, 0.3, -0.8)
    p.curveTo(0.36, -0.84, 0.36, -0.94, 0.26, -0.96)
    p.curveTo(0.02, -0.92, -0.06, -0.6, -0.08, -0.2)
    p.curveTo(-0.36, 0.0, -0.42, 0.5, -0.3, 0.74)
    p.close()
    _circle(p, -0.16, 0.36, 0.055)
    _circle(p, 0.16, 0.36, 0.055)
    _holes(c, p)
    p = _path(c)  # tusks, curving out and up below the ears
    for s in (-1, 1):
        p.moveTo(s * 0.2, -0.16)
        p.curveTo(s * 0.34, -0.46, s * 0.6, -0.52, s * 0.78, -0.34)
        p.curveTo(s * 0.58, -0.42, s * 0.38, -0.36, s * 0.26, -0.06)
        p.close()
    _fill(c, p)


def _eye(c) -> None:
    """Scout: a watchful eye, its rays."""
    p = _path(c)
    p.moveTo(-0.9, 0)
    p.curveTo(-0.5, 0.6, 0.5, 0.6, 0.9, 0)
    p.curveTo(0.5, -0.6, -0.5, -0.6, -0.9, 0)
    p.close()
    _circle(p, 0, 0, 0.3)
    _circle(p, 0, 0, 0.13)
    _holes(c, p)
    p = _path(c)
    for angle in (-50, -25, 0, 25, 50):
        a = math.radians(90 + angle)
        _bar(p, (0.62 * math.cos(a), 0.62 * math.sin(a)), (0.9 * math.cos(a), 0.9 * math.sin(a)), 0.035)
        _bar(p, (0.62 * math.cos(a), -0.62 * math.sin(a)), (0.9 * math.cos(a), -0.9 * math.sin(a)), 0.035)
    _fill(c, p)


def _catapult(c) -> None:
    """Siege unit: a torsion catapult on wheels, its arm raised, a stone in the cup."""
    p = _path(c)
    _rect(p, -0.9, -0.6, 0.8, -0.46)
    _bar(p, (-0.5, -0.5), (0.0, 0.24), 0.05)
    _bar(p, (0.5, -0.5), (0.0, 0.24), 0.05)
    _bar(p, (0.08, -0.38), (-0.62, 0.78), 0.045)
    p.moveTo(-0.88, 0.74)
    p.curveTo(-0.86, 0.96, -0.56, 0.98, -0.5, 0.8)
    p.close()
    _fill(c, p)
    p = _path(c)
    _circle(p, -0.7, 0.96, 0.12)
    for x in (-0.52, 0.52):
        _circle(p, x, -0.72, 0.22)
        _circle(p, x, -0.72, 0.08)
    _holes(c, p)


def _amphora(c) -> None:
    """Support: an amphora of supplies, handles at its neck."""
    p = _path(c)
    p.moveTo(-0.14, 0.92)
    p.lineTo(0.14, 0.92)
    p.lineTo(0.12, 0.56)
    p.curveTo(0.56, 0.44, 0.6, -0.1, 0.3, -0.56)
    p.lineTo(0.06, -0.96)
    p.lineTo(-0.06, -0.96)
    p.lineTo(-0.3, -0.56)
    p.curveTo(-0.6, -0.1, -0.56, 0.44, -0.12, 0.56)
    p.close()
    for y in (0.1, -0.06):
        _rect(p, -0.46, y, 0.46, y + 0.05)
    _holes(c, p)
    p = _path(c)
    for s in (-1, 1):
        p.moveTo(s * 0.12, 0.8)
        p.curveTo(s * 0.52, 0.84, s * 0.56, 0.56, s * 0.36, 0.42)
        p.lineTo(s * 0.3, 0.48)
        p.curveTo(s * 0.44, 0.6, s * 0.4, 0.72, s * 0.12, 0.7)
        p.close()
    _fill(c, p)


def _tiara(c) -> None:
    """Satrap: a tall crenellated tiara on a band of jewels."""
    p = _path(c)
    crenels = [pt for i in range(5) for x in (0.7 - i * 0.28,) for pt in ((x, 0.78), (x - 0.14, 0.78), (x - 0.14, 0.5), (x - 0.28, 0.5))]
    _poly(p, [(-0.62, -0.72), (0.62, -0.72), (0.7, 0.5)] + crenels + [(-0.7, 0.78), (-0.7, 0.5)])  # crenellations, right to left
    _rect(p, -0.6, -0.56, 0.6, -0.3)
    for x in (-0.4, 0, 0.4):
        _circle(p, x, 0.1, 0.1)
    _holes(c, p)
    p = _path(c)
    for x in (-0.36, 0, 0.36):
        _circle(p, x, -0.43, 0.07)
    _fill(c, p)


def _crown(c) -> None:
    """Commander: a crown of five points over a laurel band."""
    p = _path(c)
    _poly(p, [(-0.78, -0.5), (0.78, -0.5), (0.9, 0.46), (0.46, 0.12), (0.24, 0.72), (0, 0.2), (-0.24, 0.72), (-0.46, 0.12), (-0.9, 0.46)])
    _rect(p, -0.7, -0.34, 0.7, -0.22)
    _circle(p, 0, -0.02, 0.09)
    _holes(c, p)
    p = _path(c)
    for x, y in ((0.9, 0.46), (0.24, 0.72), (-0.24, 0.72), (-0.9, 0.46)):
        _circle(p, x, y + 0.08, 0.08)
    _rect(p, -0.82, -0.72, 0.82, -0.58)
    _fill(c, p)


# ── Doctrines, Tactics ─────────────────────────────────────────────────────
def _scroll(c) -> None:
    """Doctrine: an unrolled scroll, its lines of writing."""
    p = _path(c)
    _rect(p, -0.7, -0.56, 0.7, 0.56)
    for y in (0.3, 0.12, -0.06, -0.24):
        _rect(p, -0.5, y, 0.5 if y != -0.24 else 0.12, y + 0.06)
    _holes(c, p)
    p = _path(c)
    for x in (-0.76, 0.76):
        _circle(p, x, 0, 0.13, 0.7)
    for x in (-0.76, 0.76):
        _rect(p, x - 0.04, -0.86, x + 0.04, 0.86)
    _fill(c, p)


def _banner(c) -> None:
    """Tactic: a swallow-tailed banner streaming from a spear."""
    p = _path(c)
    _rect(p, -0.66, -0.96, -0.58, 0.8)
    _poly(p, [(-0.62, 0.98), (-0.54, 0.8), (-0.7, 0.8)])
    p.moveTo(-0.58, 0.74)
    p.curveTo(-0.2, 0.86, 0.3, 0.5, 0.94, 0.66)
    p.lineTo(0.56, 0.28)
    p.lineTo(0.94, -0.1)
    p.curveTo(0.3, -0.26, -0.2, 0.1, -0.58, -0.02)
    p.close()
    _fill(c, p)


MOTIFS = {
    "shield": _shield,
    "bow": _bow,
    "horse": _horse,
    "helmet": _helmet,
    "swords": _swords,
    "wheel": _wheel,
    "elephant": _elephant,
    "eye": _eye,
    "catapult": _catapult,
    "amphora": _amphora,
    "tiara": _tiara,
    "crown": _crown,
    "scroll": _scroll,
    "banner": _banner,
}
LANDSCAPE = "landscape"
ALL_MOTIFS = tuple(MOTIFS) + (LANDSCAPE, "emblem", "none")


def draw_illustration(c, motif: str, emblem: str, box, colour: str, shadow: str, offset: float) -> None:
    """`motif` (or the faction `emblem` for "emblem") centred in `box`, with its shadow."""
    from .emblems import _draw_unit

    fn = EMBLEMS[emblem] if motif == "emblem" else MOTIFS[motif]
    x, y, w, h = box
    _draw_unit(c, fn, x + offset, y - offset, w, h, shadow)
    _draw_unit(c, fn, x, y, w, h, colour)


def draw_landscape(c, box, near: str, far: str, sky: str) -> None:
    """Terrain: a band of hills across the window's lower part under a low sun."""
    x, y, w, h = box
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.setFillColor(rl(sky))
    sun = c.beginPath()
    _circle(sun, x + w * 0.7, y + h * 0.58, h * 0.16)
    c.drawPath(sun, stroke=0, fill=1)
    for colour, base, peaks in ((far, 0.42, ((0.0, 0.5), (0.22, 0.66), (0.45, 0.5), (0.62, 0.62), (0.86, 0.46), (1.0, 0.54))),
                                (mix(far, near, 0.5), 0.3, ((0.0, 0.34), (0.3, 0.5), (0.5, 0.38), (0.78, 0.52), (1.0, 0.36))),
                                (near, 0.0, ((0.0, 0.22), (0.2, 0.3), (0.5, 0.18), (0.74, 0.28), (1.0, 0.16)))):
        hill = c.beginPath()
        hill.moveTo(x, y)
        (x0, y0) = peaks[0]
        hill.lineTo(x + x0 * w, y + y0 * h)
        for (xa, ya), (xb, yb) in zip(peaks, peaks[1:]):
            mid = (xa + xb) / 2
            hill.curveTo(x + mid * w, y + ya * h, x + mid * w, y + yb * h, x + xb * w, y + yb * h)
        hill.lineTo(x + w, y)
        hill.close()
        c.setFillColor(rl(colour))
        c.drawPath(hill, stroke=0, fill=1)
    c.restoreState()
