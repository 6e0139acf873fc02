"""The quick reference — the turn's six phases, combat, energy — as the rulebook's back page and
as a card for the card sheets (two per set: one for each player).

    figure = quick_reference_figure(book, height)        # the rulebook's page
    front = ReferenceFace(project, "ja", geometry, "front")   # the card: turn and energy
    back = ReferenceFace(project, "ja", geometry, "back")     # its other side: combat

One set of words for both (`rules.quick.*`, the mats' `mat.combat.*`, `rules.turn.first-turn`)
and every number from cards.yaml (the energy maximum on each turn, the hand limit); set as large
as its boxes allow (`fit_size`), the card's two sides at one size: the one at which both fit. A face
has the protocol of draw/faces.py (`key`, `draw`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..read.styles import rulebook_style
from ..typeset.text import ASCENT, Style, draw, layout
from ..units import MM
from . import ornament
from .mat import energy_schedule, schedule_grid
from .style import text_style, tint
from .words import Words

PHASES = tuple(f"rules.quick.phase.{i}" for i in range(1, 7))
COMBAT = tuple(f"mat.combat.{i}" for i in range(1, 6))
KEYS = ("rules.quick.heading", "rules.quick.turn", *PHASES, "rules.quick.combat", "rules.quick.energy",
        "rules.quick.energy.note", "rules.turn.first-turn", *COMBAT, "mat.turn", "mat.energy-max")
SIDES = {"page": (("turn", "energy"), ("combat",)), "front": (("turn", "energy"),), "back": (("combat",),)}
STEP = 0.25  # pt: the sizes tried, from the largest down
SPREAD = 1.0  # × size: the most a gap between items widens to fill a card's height
TABLE_LEAST = 5.5  # pt: the energy table's labels and turns (0.85 × size) are set no smaller, unless the size itself is


@dataclass(frozen=True)
class Item:
    kind: str  # heading | number | bullet | note | schedule
    text: str = ""
    key: str = ""
    n: int = 0


def parts(words: Words) -> dict[str, list[Item]]:
    """The quick reference's parts, in its language: turn, combat, energy."""
    turn = [Item("heading", words("rules.quick.turn"), "rules.quick.turn")]
    turn += [Item("number", words(k), k, i) for i, k in enumerate(PHASES, 1)]
    turn.append(Item("note", words("rules.turn.first-turn"), "rules.turn.first-turn"))
    combat = [Item("heading", words("rules.quick.combat"), "rules.quick.combat")]
    combat += [Item("bullet", words(k), k) for k in COMBAT]
    energy = [Item("heading", words("rules.quick.energy"), "rules.quick.energy"), Item("schedule"),
              Item("note", words("rules.quick.energy.note"), "rules.quick.energy.note")]
    return {"turn": turn, "combat": combat, "energy": energy}


@dataclass
class Look:
    """What a quick reference is set in: styles at size 1, colours."""

    body: Style
    heading: Style
    bold: Style
    ink: str
    accent: str
    rule: str
    panel: str


def look_for(project, lang: str) -> Look:
    look = rulebook_style(project)
    col = look.colours
    body = text_style(project, lang, "body", 1.0, col.ink, leading=1.28)
    return Look(body, text_style(project, lang, "title", 1.0, col.heading, leading=1.2),
                text_style(project, lang, "bold", 1.0, col.ink, leading=1.2), col.ink, col.heading, col.rule, col.panel)


class Column:
    """Items set in a box at a size: their height (`height`), then drawn (`draw`)."""

    def __init__(self, items: list[Item], look: Look, words: Words, where):
        self.items, self.look, self.words, self.where = items, look, words, where

    def _lays(self, width: float, size: float):
        out = []
        hang = size * 1.9
        for item in self.items:
            if item.kind == "schedule":
                out.append((item, None, size * 1.35 * 2 + size * 0.6))
                continue
            style = self.look.heading if item.kind == "heading" else self.look.body
            scale = 1.3 if item.kind == "heading" else (0.9 if item.kind == "note" else 1.0)
            s = replace(style, size=size * scale, min_size=None)
            indent = hang if item.kind in ("number", "bullet") else 0.0
            lay = layout(item.text, s, width - indent, 1e6, where=self.where(item.key))
            gap = size * (0.55 if item.kind == "heading" else 0.45)
            out.append((item, lay, lay.height + gap))
        return out

    def height(self, width: float, size: float) -> float:
        return sum(h for _, _, h in self._lays(width, size))

    def gaps(self) -> int:
        """The gaps between its items that `spread` widens: not a heading's (it stays with what follows)."""
        return sum(item.kind != "heading" for item in self.items[:-1])

    def draw(self, c, x: float, top: float, width: float, size: float, rules, spread: float = 0.0) -> None:
        """Draw at `size` from `top` down, each of its `gaps` `spread` wider."""
        look = self.look
        y = top
        hang = size * 1.9
        for item, lay, h in self._lays(width, size):
            if item.kind == "schedule":
                _schedule(c, x, y - size * 0.2, width, size, look, self.words, rules)
            elif item.kind == "number":
                r = size * 0.62
                cy = y - size * ASCENT + size * 0.36
                c.saveState()
                c.setFillColor(look.accent)
                c.circle(x + r, cy, r, stroke=0, fill=1)
                c.restoreState()
                num = layout(str(item.n), replace(look.bold, size=size * 0.78, colour="#FFFFFF", align="center",
                                                  valign="middle", min_size=None), 2 * r, 2 * r)
                draw(c, num, x, cy - r + num.size * 0.04)
                draw(c, replace(lay, box_h=lay.height), x + hang, y - lay.height)
            elif item.kind == "bullet":
                ornament.diamond(c, x + size * 0.5, y - size * ASCENT + size * 0.36, size * 0.27, look.accent)
                draw(c, replace(lay, box_h=lay.height), x + hang, y - lay.height)
            else:
                draw(c, replace(lay, box_h=lay.height), x, y - lay.height)
                if item.kind == "heading":
                    c.saveState()
                    c.setStrokeColor(look.rule)
                    c.setLineWidth(0.5)
                    c.line(x, y - lay.height - size * 0.2, x + width, y - lay.height - size * 0.2)
                    c.restoreState()
            y -= h + (spread if item.kind != "heading" else 0.0)


def _schedule(c, x: float, top: float, width: float, size: float, look: Look, words: Words, rules) -> None:
    """The energy maximum on each turn: a row of turns over a row of maxima."""
    schedule = energy_schedule(rules)
    row = size * 1.35
    label_w = min(width * 0.34, size * 8)
    inset = size * 0.3  # the labels' left inset, kept at the right of the last cell too ("12" touched the frame)
    cell = (width - label_w - inset) / len(schedule)
    schedule_grid(c, x, top, width, row, tint(look.accent, 0.86), look.rule)
    small = max(size * 0.85, min(size, TABLE_LEAST))  # the labels' and turns' size
    head = replace(look.bold, size=small, valign="middle", min_size=size * 0.6)
    nums = replace(look.bold, size=size, colour=look.accent, align="center", valign="middle", min_size=None)
    from .style import draw_fitted

    for k, key in enumerate(("mat.turn", "mat.energy-max")):
        draw_fitted(c, words(key), head, x + inset, top - (k + 1) * row, label_w - size * 0.5, row, words.report,
                    words.lang, key, label=True)
    turns = replace(nums, colour=look.ink, size=small)
    nums = replace(nums, size=_one_line(nums, [str(v) for _, v in schedule] + [t for t, _ in schedule], cell - size * 0.25))
    for i, (turn, value) in enumerate(schedule):
        cx = x + label_w + i * cell
        draw(c, layout(turn, replace(turns, size=min(turns.size, nums.size)), cell, row), cx, top - row)
        draw(c, layout(str(value), nums, cell, row), cx, top - 2 * row)


def _one_line(style: Style, texts: list[str], width: float) -> float:
    """The style's size, or the smaller one at which the widest of `texts` still fits `width` on
    one line (the energy maxima "10 11 12" in a narrow booklet's cells: never broken digit by digit)."""
    widest = max(layout(t, style, 10_000, 10_000).width for t in texts)
    return style.size if widest <= width else style.size * width / widest


def fit_size(project, lang: str, report, boxes: list[tuple], columns: tuple, largest: float, smallest: float,
             panels: bool = False) -> float:
    """The largest size, from `largest` down in steps of STEP to `smallest`, at which each group
    of parts (`columns`: ("turn", "energy"), …) fits its box (x, top, w, h); `smallest` (or just
    below it) when none does. Found by halving the sizes left to try (a text set smaller never
    takes more height): 5 trial layouts of the rulebook's page instead of up to 30."""
    groups = _groups(project, lang, report, columns, look_for(project, lang))
    sizes = [largest]
    while sizes[-1] > smallest:
        sizes.append(sizes[-1] - STEP)

    def fits(size: float) -> bool:
        return not any(_group_height(cols, w, size, panels) > h for cols, (_, _, w, h) in zip(groups, boxes))

    first, last = 0, len(sizes) - 1  # the answer is among sizes[first..last]; the last is taken when none fits
    while first < last:
        middle = (first + last) // 2
        if fits(sizes[middle]):
            last = middle
        else:
            first = middle + 1
    return sizes[first]


def paint_sides(c, project, lang: str, report, boxes: list[tuple], columns: tuple, size: float, panels: bool = False) -> None:
    """Set each group of parts (`columns`) in its box (x, top, w, h) at `size` (`fit_size`'s), its
    box's spare height shared out: with `panels` each part sits on a tinted panel and the panels of
    a group grow with their content; without, the gaps between items and between parts widen
    alike, up to SPREAD × size each, and what is left over is split above and below."""
    look = look_for(project, lang)
    groups = _groups(project, lang, report, columns, look)
    pad, gap = _pad(size, panels), _gap(size, panels)
    for cols, (x, top, w, h) in zip(groups, boxes):
        need = _group_height(cols, w, size, panels)
        if need > h + 0.5:
            report.warning("overflow", f"the quick reference does not fit its {w / MM:.0f} × {h / MM:.0f} mm box "
                           f"even at {size:g} pt", lang=lang, key=cols[0].items[0].key)
        extra = max(h - need, 0.0)
        heights = [col.height(w - 2 * pad, size) for col in cols]
        spread, y = 0.0, top
        if not panels:
            gaps = sum(col.gaps() for col in cols) + len(cols) - 1
            spread = min(extra / gaps, SPREAD * size) if gaps else 0.0
            y -= (extra - spread * gaps) / 2
        for col, ch in zip(cols, heights):
            panel_h = ch + 2 * pad + (extra * (ch / sum(heights) if sum(heights) else 0) if panels else 0.0)
            if panels:
                c.saveState()
                c.setFillColor(look.panel)
                c.setStrokeColor(look.rule)
                c.setLineWidth(0.6)
                c.roundRect(x, y - panel_h, w, panel_h, size * 0.5, stroke=1, fill=1)
                c.restoreState()
            col.draw(c, x + pad, y - pad, w - 2 * pad, size, project.game.rules, spread)
            y -= panel_h + col.gaps() * spread + gap + spread


def _groups(project, lang: str, report, columns: tuple, look) -> list:
    words = Words(project, lang, report)
    content = parts(words)
    return [[Column(content[name], look, words, words.locale.where) for name in group] for group in columns]


def _pad(size: float, panels: bool) -> float:
    return size * 0.9 if panels else 0.0


def _gap(size: float, panels: bool) -> float:
    return size * (1.2 if panels else 0.9)


def _group_height(cols, w: float, size: float, panels: bool) -> float:
    pad = _pad(size, panels)
    return sum(col.height(w - 2 * pad, size) + 2 * pad for col in cols) + _gap(size, panels) * (len(cols) - 1)


def needed_height(project, lang: str, report, columns: tuple, width: float, size: float, panels: bool = False) -> float:
    """The height the tallest group of `columns` needs in a box `width` wide at `size`."""
    groups = _groups(project, lang, report, columns, look_for(project, lang))
    return max(_group_height(cols, width, size, panels) for cols in groups)


# ── the rulebook's page ───────────────────────────────────────────────────
def quick_reference_figure(book, least: float, most: float, reserve: float):
    """The page's two columns — turn and energy, then combat — on panels, at the largest size the
    room it gets allows (a typeset.flow.Fill: the rest of the last page, or a page of its own)."""
    from ..typeset import flow as fl

    body = book.look.type.body

    gap = 5 * MM

    def paint(c, x, top, width, h):
        col_w = (width - gap) / 2
        boxes = [(x, top, col_w, h), (x + col_w + gap, top, col_w, h)]
        size = fit_size(book.project, book.lang, book.report, boxes, SIDES["page"], body * 1.6, body * 0.75, panels=True)
        paint_sides(c, book.project, book.lang, book.report, boxes, SIDES["page"], size, panels=True)

    # never less room than it needs at its smallest size: on a small page (the booklet's A5) it then takes a page of its own
    need = needed_height(book.project, book.lang, book.report, SIDES["page"], (book.frame(0).width - gap) / 2, body * 0.75, panels=True)
    return fl.Fill(max(least, min(need, most)), most, paint, reserve=reserve)


# ── the card ──────────────────────────────────────────────────────────────
class ReferenceFace:
    """A side of the quick-reference card (draw/faces.py protocol): "front" (turn and energy) or
    "back" (combat), in `lang`, for the build's card geometry. Both sides of a card are set as
    one: at the size (`size`) at which each side fits its box, the spare height of each shared
    out among its gaps."""

    def __init__(self, project, lang: str, geometry, side: str, report=None):
        self.project, self.lang, self.geometry, self.side, self.report = project, lang, geometry, side, report
        self.key = f"reference-{lang}-{side}"

    def _title(self, words: Words):
        g, heading = self.geometry, rulebook_style(self.project).colours.heading
        style = text_style(self.project, self.lang, "title", 8.5, heading, align="center", leading=1.1)
        return layout(words("rules.quick.heading"), style, g.width - 2 * self._pad(), 12,
                      where=words.locale.where("rules.quick.heading"))

    def _pad(self) -> float:
        return self.geometry.bleed + (3.4 + 2.2) * MM  # the frame's inset, and the words' inside it

    def _box(self, words: Words) -> tuple:
        """The box (x, top, w, h) the parts are set in: the card's inside, below the title (the
        same on both sides: it is measured from the trimmed card, whatever the bleed)."""
        pad, g = self._pad(), self.geometry
        top = g.height - pad - self._title(words).height - 3.2 * MM
        return (pad, top, g.width - 2 * pad, top - pad)

    def size(self, report) -> float:
        """The largest size at which both sides fit: what each is set at."""
        box = self._box(Words(self.project, self.lang, report))
        return min(fit_size(self.project, self.lang, report, [box], SIDES[side], 8.0, 5.0) for side in ("front", "back"))

    def draw(self, canvas) -> None:
        c, g = canvas, self.geometry
        col = rulebook_style(self.project).colours
        report = _Silent() if self.report is None else self.report  # not `or`: a build's report with no warning yet is falsy
        c.saveState()
        c.setFillColor(col.panel)
        c.rect(0, 0, g.width, g.height, stroke=0, fill=1)  # into the bleed
        safe = g.bleed + 3.4 * MM
        c.setStrokeColor(col.heading)
        c.setLineWidth(0.8)
        c.roundRect(safe, safe, g.trim_w - 2 * (safe - g.bleed), g.trim_h - 2 * (safe - g.bleed), 2 * MM, stroke=1, fill=0)
        c.restoreState()
        words = Words(self.project, self.lang, report)
        pad, title = self._pad(), self._title(words)
        top = g.height - pad
        draw(c, replace(title, box_h=title.height), pad, top - title.height)
        ornament.diamond_rule(c, g.width / 2, top - title.height - 1.4 * MM, (g.width - 2 * pad) * 0.6, col.accent, 0.5)
        paint_sides(c, self.project, self.lang, report, [self._box(words)], SIDES[self.side], self.size(_Silent()))


class _Silent:
    def warning(self, *args, **kwargs) -> None:
        pass
