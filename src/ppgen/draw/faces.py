"""Card faces — INTERIM: placeholder faces until the real card design lands.

This module only fixes the interface the sheet builder codes against; the real
card fronts and backs (templates, stats, effect text through the text engine)
replace it. Interface:

    CardGeometry(trim_w, trim_h, bleed)            # points; .width/.height = the bleed box
    front_face(project, card, lang, geometry, report) -> Face
    back_face(project, geometry) -> Face           # identical in every language
    Face.key: str                                  # unique per distinct drawing
    Face.draw(canvas)                              # into (0, 0)–(width, height), (0, 0) = bleed box bottom-left

The interim front is a faction-coloured card with its code and localized name;
the interim back is a fixed, language-free pattern.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

SAFE = 3.0 * 72 / 25.4  # the safe zone inside the trim, points


@dataclass(frozen=True)
class CardGeometry:
    """A card's size in points: its trim, and the bleed drawn around it."""

    trim_w: float
    trim_h: float
    bleed: float = 0.0

    @property
    def width(self) -> float:
        return self.trim_w + 2 * self.bleed

    @property
    def height(self) -> float:
        return self.trim_h + 2 * self.bleed


class Face(Protocol):
    key: str

    def draw(self, canvas) -> None: ...


@dataclass(frozen=True)
class DrawnFace:
    """A face as a key and a drawing function."""

    key: str
    painter: Callable

    def draw(self, canvas) -> None:
        self.painter(canvas)


def _hex(colour: str):
    from reportlab.lib.colors import HexColor

    return HexColor(colour)


def front_face(project, card, lang: str, geometry: CardGeometry, report) -> Face:
    """INTERIM front: faction colour, a white panel, the card's name and code."""
    from ..pdf import fit_size, text_line

    faction = project.game.factions[card.faction]
    name = project.card_name(card, lang) + (" ♚" if card.commander else "")
    type_line = project.type_line(card, lang)
    title = project.fonts.chain(lang, "bold")
    body = project.fonts.chain(lang, "body")
    for chain, text, key in ((title, name, f"card.{card.id}.name"), (body, type_line, f"card.{card.id}.type")):
        missing = chain.missing(text)
        if missing:
            report.warn("missing-glyph", f"no font can draw {' '.join(missing)}", lang=lang, subject=key)
    g = geometry

    def paint(c) -> None:
        c.setFillColor(_hex(faction.colour))
        c.rect(0, 0, g.width, g.height, stroke=0, fill=1)
        inner_x, inner_y = g.bleed + SAFE, g.bleed + SAFE
        inner_w, inner_h = g.trim_w - 2 * SAFE, g.trim_h - 2 * SAFE
        c.setFillColorRGB(1, 1, 1)
        c.roundRect(inner_x, inner_y, inner_w, inner_h, 6, stroke=0, fill=1)
        c.setFillColor(_hex(faction.accent))
        c.rect(inner_x, inner_y + inner_h - 30, inner_w, 30, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        size = fit_size(title, name, inner_w - 8, 11, 5)
        text_line(c, title, name, inner_x + inner_w / 2, inner_y + inner_h - 19, size, "middle")
        c.setFillColorRGB(0.15, 0.15, 0.15)
        size = fit_size(body, type_line, inner_w - 8, 8, 4)
        text_line(c, body, type_line, inner_x + inner_w / 2, inner_y + inner_h - 44, size, "middle")
        text_line(c, body, card.code, inner_x + inner_w / 2, inner_y + 8, 8, "middle")
        if card.is_unit:
            stats = f"Lv {card.level}   ATK {card.atk}   DEF {card.def_}   E {card.energy}"
            text_line(c, body, stats, inner_x + inner_w / 2, inner_y + 24, fit_size(body, stats, inner_w - 8, 9, 5), "middle")

    return DrawnFace(f"front-{lang}-{card.id}", paint)


def back_face(project, geometry: CardGeometry) -> Face:
    """INTERIM back: a fixed, language-free diamond pattern (the same in every language)."""
    g = geometry

    def paint(c) -> None:
        c.setFillColorRGB(0.16, 0.13, 0.11)
        c.rect(0, 0, g.width, g.height, stroke=0, fill=1)
        c.setStrokeColorRGB(0.78, 0.63, 0.33)
        c.setLineWidth(0.8)
        c.roundRect(g.bleed + SAFE, g.bleed + SAFE, g.trim_w - 2 * SAFE, g.trim_h - 2 * SAFE, 6, stroke=1, fill=0)
        step = 14.0
        c.setLineWidth(0.4)
        cx, cy = g.width / 2, g.height / 2
        n = int(max(g.width, g.height) / step) + 2
        p = c.beginPath()
        for i in range(-n, n + 1):
            p.moveTo(cx + i * step - g.height, cy - g.height)
            p.lineTo(cx + i * step + g.height, cy + g.height)
            p.moveTo(cx + i * step + g.height, cy - g.height)
            p.lineTo(cx + i * step - g.height, cy + g.height)
        c.saveState()
        clip = c.beginPath()
        clip.roundRect(g.bleed + SAFE + 4, g.bleed + SAFE + 4, g.trim_w - 2 * SAFE - 8, g.trim_h - 2 * SAFE - 8, 4)
        c.clipPath(clip, stroke=0, fill=0)
        c.drawPath(p, stroke=1, fill=0)
        c.restoreState()
        c.setFillColorRGB(0.78, 0.63, 0.33)
        c.circle(cx, cy, min(g.trim_w, g.trim_h) * 0.18, stroke=0, fill=1)
        c.setFillColorRGB(0.16, 0.13, 0.11)
        c.circle(cx, cy, min(g.trim_w, g.trim_h) * 0.12, stroke=0, fill=1)

    return DrawnFace("back", paint)
