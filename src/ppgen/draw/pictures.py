"""What the rulebook's pictures share: real cards and mats drawn once as forms, dice that show a
value, numbered callouts with their leader lines, and a numbered legend.

    art = Artwork(canvas, project, lang, report)
    art.front(card)            # a form of the card's front, drawn by the card code (draw/card_front.py)
    art.back()                 # the card back (draw/card_back.py)
    art.place(name, x, y, scale, rotate=0)   # place a form, its bottom-left corner at (x, y)

Forms must be defined before the first page is drawn (ReportLab keeps one stream at a
time): the rulebook asks every picture for what it will place (`needs`) and defines it all
up front (draw/rulebook.py). Every picture is drawn from the game's own data, by the same
code as the printed cards and mats, so it changes when a template or cards.yaml does.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

from ..typeset.text import ASCENT, Style, draw, layout
from . import dice


class Artwork:
    """The forms the pictures of one rulebook place, and how to place them."""

    def __init__(self, canvas, project, lang: str, report, card_size: tuple[float, float] = (63.0, 88.0),
                 art: Callable | None = None):
        self.c, self.project, self.lang, self.report = canvas, project, lang, report
        self.card_size = card_size  # mm, as the build prints the cards
        self.art = art  # card -> draw.art.CardArt | None: the build's prepared pictures
        self.sizes: dict[str, tuple[float, float]] = {}  # form name -> (w, h) in points
        self.faces: dict[str, object] = {}  # form name -> the laid-out front (its elements' places)

    @property
    def geometry(self):
        from .faces import CardGeometry

        return CardGeometry.from_mm(*self.card_size)

    def define(self, name: str, w: float, h: float, paint: Callable, measures: bool = False) -> str:
        """Record `paint(canvas)` once as a form `name` of w × h points (before any page is drawn).
        On a canvas that only measures (the rulebook's trial layout) nothing is painted unless the
        paint `measures` (it returns what the layout needs: the mat's zones)."""
        if name not in self.sizes:
            c = self.c
            if getattr(c, "measuring", False) and not measures:
                self.sizes[name] = (w, h)
                return name
            c.beginForm(name, 0, 0, w, h)
            c.saveState()
            paint(c)
            c.restoreState()
            c.endForm()
            self.sizes[name] = (w, h)
        return name

    def front_face(self, card):
        """The card's front in this language, laid out (its texts' overflow reported)."""
        from .card_front import FrontFace

        name = f"rb-front-{card.id}"
        if name not in self.faces:
            art = self.art(card) if self.art else None
            self.faces[name] = FrontFace(self.project, card, self.lang, self.geometry, self.report, art)
        return self.faces[name]

    def front(self, card) -> str:
        face = self.front_face(card)
        g = self.geometry
        return self.define(f"rb-front-{card.id}", g.width, g.height, face.draw_flat)

    def back(self) -> str:
        from .card_back import BackFace

        g = self.geometry
        face = BackFace(self.project, g)
        return self.define("rb-back", g.width, g.height, face.draw)

    def place(self, name: str, x: float, y: float, scale: float = 1.0, rotate: float = 0.0) -> tuple[float, float]:
        """Place form `name` scaled, its bottom-left corner at (x, y) (turned `rotate` degrees about
        its centre); returns its placed (w, h)."""
        w, h = self.sizes[name]
        c = self.c
        c.saveState()
        c.translate(x + w * scale / 2, y + h * scale / 2)
        if rotate:
            c.rotate(rotate)
        c.scale(scale, scale)
        c.translate(-w / 2, -h / 2)
        c.doForm(name)
        c.restoreState()
        return (w * scale, h * scale)


# ── marks on pictures ─────────────────────────────────────────────────────
def callout(c, cx: float, cy: float, n: int, r: float, style: Style, fill: str, ring: str = "#FFFFFF") -> None:
    """A numbered disc of radius r centred on (cx, cy)."""
    c.saveState()
    c.setFillColor(fill)
    c.setStrokeColor(ring)
    c.setLineWidth(max(r * 0.12, 0.5))
    c.circle(cx, cy, r, stroke=1, fill=1)
    c.restoreState()
    lay = layout(str(n), replace(style, size=r * 1.15, align="center", valign="middle", min_size=None), 2 * r, 2 * r)
    draw(c, lay, cx - r, cy - r + lay.size * 0.04)


def leader(c, x0: float, y0: float, x1: float, y1: float, colour: str, width: float = 0.6) -> None:
    """A leader line from a callout (x0, y0) to the thing it names, ending in a dot at (x1, y1)."""
    c.saveState()
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(width)
    c.line(x0, y0, x1, y1)
    c.circle(x1, y1, width * 1.6, stroke=0, fill=1)
    c.restoreState()


def die(c, kind: str, cx: float, cy: float, size: float, value: int | None, line: str, fill: str, facet: str,
        number: Style | None = None) -> None:
    """A die at (cx, cy) showing `value`: a d20 or d12 with the number on its face, a d6 with pips."""
    if kind == "d6":
        dice.d6(c, cx, cy, size, line, fill, pips=value, pip_colour=line, width=max(size * 0.03, 0.4))
        return
    shape = dice.d20 if kind == "d20" else dice.d12
    shape(c, cx, cy, size, line, fill, facet, width=max(size * 0.03, 0.4))
    if value is not None and number is not None:
        box = size * 0.5
        lay = layout(str(value), replace(number, size=size * 0.26, align="center", valign="middle", min_size=None), box, box)
        draw(c, lay, cx - box / 2, cy - box / 2 - size * 0.03)


def legend_height(items: list[tuple[int, str]], style: Style, width: float, columns: int, gap: float, where: str = "") -> float:
    """The height of a numbered legend set in `columns` (see `draw_legend`)."""
    return _legend(items, style, width, columns, gap, where)[0]


def draw_legend(c, items: list[tuple[int, str]], style: Style, x: float, top: float, width: float, columns: int, gap: float,
                disc: str, number: Style, where: str = "") -> float:
    """A numbered legend (its numbers in discs, as the callouts: `number` is their style) in
    `columns`, filled column by column; returns its height."""
    height, placed = _legend(items, style, width, columns, gap, where)
    r = style.size * 0.62
    for (n, lay), (lx, ly) in placed:
        callout(c, x + lx + r, top - ly - style.size * ASCENT + style.size * 0.36, n, r, number, disc)
        draw(c, replace(lay, box_h=lay.height), x + lx + 2 * r + style.size * 0.5, top - ly - lay.height)
    return height


def _legend(items, style: Style, width: float, columns: int, gap: float, where: str):
    col_gap = style.size * 1.5
    col_w = (width - col_gap * (columns - 1)) / columns
    text_w = col_w - style.size * 1.74
    lays = [(n, layout(text, style, text_w, 1e6, where=where)) for n, text in items]
    total = sum(l.height for _, l in lays) + gap * max(len(lays) - 1, 0)
    target = total / columns
    placed, col, y, heights = [], 0, 0.0, [0.0] * columns
    for n, lay in lays:
        if y > 0 and y + lay.height > target + style.size and col < columns - 1:
            heights[col] = y - gap
            col, y = col + 1, 0.0
        placed.append(((n, lay), (col * (col_w + col_gap), y)))
        y += lay.height + gap
    heights[col] = max(heights[col], y - gap)
    return max(heights), placed


def fit_scale(natural: tuple[float, float], room: tuple[float, float], largest: float) -> float:
    """The largest scale, at most `largest`, at which a `natural` (w, h) fits `room` (w, h)."""
    return max(0.05, min(largest, room[0] / natural[0], room[1] / natural[1]))


def arrow(c, x0: float, y0: float, x1: float, y1: float, colour: str, width: float = 1.2) -> None:
    """An arrow from (x0, y0) to (x1, y1)."""
    c.saveState()
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(width)
    angle = math.atan2(y1 - y0, x1 - x0)
    head = width * 4.5
    bx, by = x1 - head * math.cos(angle), y1 - head * math.sin(angle)
    c.line(x0, y0, bx, by)
    p = c.beginPath()
    p.moveTo(x1, y1)
    p.lineTo(bx + head * 0.5 * math.sin(angle), by - head * 0.5 * math.cos(angle))
    p.lineTo(bx - head * 0.5 * math.sin(angle), by + head * 0.5 * math.cos(angle))
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()
