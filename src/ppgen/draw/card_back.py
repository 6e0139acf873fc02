"""The card back: one design for every card, in every language, in the variants the
template defines (`backs:` in templates/card.yaml: dark, the ink-saving light, …).

It carries no text at all, so cards printed in two languages shuffle together,
and it is symmetric under a half turn (every ornament is drawn in mirrored
pairs about the card's centre), so turning a card round reveals nothing.

It forgives a duplex printer: home printers land the back 1–4 mm off its front,
and the card is cut along the front's marks. So nothing on the back is tied to
the card's edge: the diamond lattice covers the whole field into the bleed (a
shift only moves it by part of a diamond), and every ornament keeps
`safe_margin + DUPLEX_ERROR` from the trim — no frame line to come out 1 mm
from one edge and 5 mm from the other. The ornaments are the medallion, a
cross of rules ending in diamonds, and four palmettes on its diagonals.
"""
from __future__ import annotations

import math

from ..errors import UsageError
from ..read.templates import load_card_template
from ..units import MM
from .colours import mix, rl
from .emblems import _arc, _circle, _fill, _poly

DUPLEX_ERROR = 2.0  # mm a back may land off its front and still look right


class BackFace:
    """The back in variant `variant` (None: the template's first, the default)."""

    def __init__(self, project, geometry, variant: str | None = None):
        self.geometry = geometry
        template = load_card_template(project)
        try:
            self.variant = template.back_name(variant)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        back = template.back(self.variant)
        self.key = f"back-{self.variant}"
        self.fill = back.get("fill") or "#2A1F17"
        self.colour = back.get("colour") or "#C9A45C"
        self.accent = back.get("accent") or "#8C2F22"
        self.pattern = back.get("pattern") or mix(self.fill, self.colour, 0.16)
        self.clear = (template.safe_margin + DUPLEX_ERROR) * MM  # ornaments keep this far from the trim
        self.scale = min(geometry.trim_w / (template.width * MM), geometry.trim_h / (template.height * MM))

    def ornament_box(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) in points of the bleed box: where the ornaments may go."""
        g = self.geometry
        return (g.bleed + self.clear, g.bleed + self.clear, g.trim_w - 2 * self.clear, g.trim_h - 2 * self.clear)

    def draw(self, canvas) -> None:
        c, g, s = canvas, self.geometry, self.scale
        cx, cy = g.width / 2, g.height / 2
        _, _, w, h = self.ornament_box()
        c.saveState()
        self.draw_field(c)
        r = min(w, h) * 0.38
        diagonal = r * 0.8  # the palmettes' origins, on the diagonals just outside the ring
        for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            self._palmette(c, cx + sx * diagonal, cy + sy * diagonal, sx, sy, min(6.5 * MM * s, w / 2 - diagonal))
        self._axis(c, cx, cy, r, h / 2, vertical=True)
        self._axis(c, cx, cy, r, w / 2, vertical=False)
        self._medallion(c, cx, cy, r)
        c.restoreState()

    def draw_field(self, c) -> None:
        """The background: the field and a fine diamond lattice over all of it, into the bleed,
        centred on the card (so a half turn maps it onto itself)."""
        g = self.geometry
        cx, cy = g.width / 2, g.height / 2
        c.setFillColor(rl(self.fill))
        c.rect(0, 0, g.width, g.height, stroke=0, fill=1)
        c.saveState()
        p = c.beginPath()
        p.rect(0, 0, g.width, g.height)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColor(rl(self.pattern))  # no transparency: see card_front
        c.setLineWidth(0.25 * MM * self.scale)
        step = 3.2 * MM * self.scale
        reach = g.width + g.height
        n = int(reach / step) + 1
        for k in range(-n, n + 1):
            d = k * step
            c.line(cx + d - reach, cy - reach, cx + d + reach, cy + reach)
            c.line(cx + d - reach, cy + reach, cx + d + reach, cy - reach)
        c.restoreState()

    def _palmette(self, c, x, y, sx, sy, size) -> None:
        """A palmette fan at (x, y), opening away from the card's centre towards (sx, sy)."""
        c.saveState()
        c.translate(x, y)
        c.scale(sx * size, sy * size)  # unit coordinates: the fan opens towards +x, +y
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

    def _axis(self, c, cx, cy, r, reach, vertical: bool) -> None:
        """Rules from the medallion towards two opposite edges, each ending in a diamond whose
        tip lies `reach` from the centre (the edge of the ornament box)."""
        c.setStrokeColor(rl(self.colour))
        c.setFillColor(rl(self.colour))
        c.setLineWidth(0.3 * MM * self.scale)
        d = 1.4 * MM * self.scale
        end = reach - d  # the diamond's centre
        if end - d <= r + d:
            return
        for sign in (1, -1):
            a, b = sign * (r + d), sign * (end - d)
            pts = [(0, sign * (end + d)), (d * 0.7, sign * end), (0, sign * (end - d)), (-d * 0.7, sign * end)]
            if vertical:
                c.line(cx, cy + a, cx, cy + b)
                pts = [(cx + x, cy + y) for x, y in pts]
            else:
                c.line(cx + a, cy, cx + b, cy)
                pts = [(cx + y, cy + x) for x, y in pts]
            p = c.beginPath()
            _poly(p, pts)
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
