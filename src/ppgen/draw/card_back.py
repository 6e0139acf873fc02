"""The card back: one design for every card, in every language.

It carries no text at all, so cards printed in two languages shuffle together,
and it is symmetric under a half turn (every ornament is drawn in mirrored
pairs about the card's centre), so turning a card round reveals nothing.
Colours come from the `back:` section of templates/card.yaml; the geometry is
derived from the card size and the template's safe margin.
"""
from __future__ import annotations

import math

from ..read.templates import load_card_template
from ..units import MM
from .colours import mix, rl
from .emblems import _arc, _circle, _fill, _poly


class BackFace:
    key = "back"

    def __init__(self, project, geometry):
        self.geometry = geometry
        template = load_card_template(project)
        self.fill = template.back.get("fill") or "#2A1F17"
        self.colour = template.back.get("colour") or "#C9A45C"
        self.accent = template.back.get("accent") or "#8C2F22"
        self.safe = template.safe_margin * MM
        self.scale = min(geometry.trim_w / (template.width * MM), geometry.trim_h / (template.height * MM))

    def draw(self, canvas) -> None:
        c, g = canvas, self.geometry
        b, s = g.bleed, self.scale
        cx, cy = g.width / 2, g.height / 2
        c.saveState()
        c.setFillColor(rl(self.fill))
        c.rect(0, 0, g.width, g.height, stroke=0, fill=1)
        # the panel inside the safe zone
        x0, y0 = b + self.safe, b + self.safe
        w, h = g.trim_w - 2 * self.safe, g.trim_h - 2 * self.safe
        self._lattice(c, x0, y0, w, h, cx, cy)
        c.setStrokeColor(rl(self.colour))
        c.setLineWidth(0.5 * MM * s)
        c.roundRect(x0, y0, w, h, 2.4 * MM * s, stroke=1, fill=0)
        inset = 1.3 * MM * s
        c.setLineWidth(0.2 * MM * s)
        c.roundRect(x0 + inset, y0 + inset, w - 2 * inset, h - 2 * inset, 1.6 * MM * s, stroke=1, fill=0)
        corner = inset + 1.6 * MM * s
        for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            self._corner(c, cx + sx * (w / 2 - corner), cy + sy * (h / 2 - corner), sx, sy, 6.5 * MM * s)
        r = min(w, h) * 0.36
        self._axis(c, cx, cy, r, h / 2 - inset - 9 * MM * s)
        self._medallion(c, cx, cy, r)
        c.restoreState()

    def _lattice(self, c, x0, y0, w, h, cx, cy) -> None:
        """A fine diamond lattice centred on the card (so a half turn maps it onto itself)."""
        c.saveState()
        p = c.beginPath()
        p.roundRect(x0, y0, w, h, 2.4 * MM * self.scale)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColor(rl(mix(self.fill, self.colour, 0.16)))  # no transparency: see card_front
        c.setLineWidth(0.25 * MM * self.scale)
        step = 3.2 * MM * self.scale
        reach = w + h
        n = int(reach / step) + 1
        for k in range(-n, n + 1):
            d = k * step
            c.line(cx + d - reach, cy - reach, cx + d + reach, cy + reach)
            c.line(cx + d - reach, cy + reach, cx + d + reach, cy - reach)
        c.restoreState()

    def _corner(self, c, x, y, sx, sy, size) -> None:
        """A palmette fan in one corner; (sx, sy) point from the corner towards the card's outside."""
        c.saveState()
        c.translate(x, y)
        c.scale(-sx * size, -sy * size)  # unit coordinates: the fan opens towards +x, +y
        c.setFillColor(rl(self.colour))
        p = c.beginPath()
        _arc(p, 0, 0, 0.36, 0, 90, move=True)
        _arc(p, 0, 0, 0.26, 90, 0)
        p.close()
        for k in range(5):
            a = math.radians(9 + k * 18)
            ux, uy = math.cos(a), math.sin(a)
            nx, ny = -uy, ux
            base, tip, half = 0.42, 0.98 - abs(k - 2) * 0.1, 0.055
            p.moveTo(ux * base + nx * half, uy * base + ny * half)
            p.curveTo(ux * (base + 0.25) + nx * half * 1.9, uy * (base + 0.25) + ny * half * 1.9,
                      ux * (tip - 0.05) + nx * half * 0.8, uy * (tip - 0.05) + ny * half * 0.8, ux * tip, uy * tip)
            p.curveTo(ux * (tip - 0.05) - nx * half * 0.8, uy * (tip - 0.05) - ny * half * 0.8,
                      ux * (base + 0.25) - nx * half * 1.9, uy * (base + 0.25) - ny * half * 1.9,
                      ux * base - nx * half, uy * base - ny * half)
            p.close()
        _circle(p, 0.0, 0.0, 0.12)
        _fill(c, p)
        c.restoreState()

    def _axis(self, c, cx, cy, r, reach) -> None:
        """Rules from the medallion towards the top and bottom, ending in diamonds."""
        c.setStrokeColor(rl(self.colour))
        c.setFillColor(rl(self.colour))
        c.setLineWidth(0.3 * MM * self.scale)
        d = 1.4 * MM * self.scale
        for sign in (1, -1):
            c.line(cx, cy + sign * (r + d), cx, cy + sign * (reach - d))
            p = c.beginPath()
            _poly(p, [(cx, cy + sign * (reach + d)), (cx + d * 0.7, cy + sign * reach), (cx, cy + sign * (reach - d)), (cx - d * 0.7, cy + sign * reach)])
            c.drawPath(p, stroke=0, fill=1)

    def _medallion(self, c, cx, cy, r) -> None:
        c.saveState()
        c.translate(cx, cy)
        c.scale(r, r)
        c.setFillColor(rl(self.accent))
        p = c.beginPath()
        _circle(p, 0, 0, 0.86)
        c.drawPath(p, stroke=0, fill=1)
        c.setFillColor(rl(self.colour))
        p = c.beginPath()  # outer double ring
        _circle(p, 0, 0, 1.0)
        _circle(p, 0, 0, 0.95)
        _circle(p, 0, 0, 0.91)
        _circle(p, 0, 0, 0.86)
        _fill(c, p, even_odd=True)
        p = c.beginPath()  # a ring of beads between the rings
        for k in range(32):
            a = math.radians(k * 360 / 32)
            _circle(p, 0.93 * math.cos(a), 0.93 * math.sin(a), 0.012)
        _fill(c, p)
        # an eight-pointed star, two nested layers
        for outer, inner, colour, turn in ((0.8, 0.36, self.colour, 0.0), (0.54, 0.26, self.fill, 22.5)):
            c.setFillColor(rl(colour))
            p = c.beginPath()
            pts = []
            for k in range(16):
                a = math.radians(90 + turn + k * 22.5)
                rr = outer if k % 2 == 0 else inner
                pts.append((rr * math.cos(a), rr * math.sin(a)))
            _poly(p, pts)
            _fill(c, p)
        c.setFillColor(rl(self.colour))
        p = c.beginPath()
        _circle(p, 0, 0, 0.2)
        _circle(p, 0, 0, 0.15)
        _circle(p, 0, 0, 0.1)
        _fill(c, p, even_odd=True)
        c.restoreState()
