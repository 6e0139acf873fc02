"""Page flow: blocks of text and tables poured down pages, top to bottom.

A small, general typesetter on top of the text engine (text.py) for
anything longer than a page: the rulebook now, any multi-page sheet later.

- A **block** knows its height at a width, how to draw itself, and (if it
  can) how to split into a part that fits the rest of the page and a rest.
- **PageFlow** keeps a cursor on the page: it places blocks, drops the space
  before a block at the top of a page, keeps a block marked `keep_with_next`
  (a heading) on the same page as the start of what follows, and breaks pages.
- A **Float** (a figure) is set where it fits, else waits for the top of a later
  page while the text after it fills this one. No float ever comes between the
  two halves of a paragraph: while one waits, a paragraph that would split at
  the page break moves to the next page whole (with its heading), after the
  float, when it fits a page and leaves no more than `FLOAT_GAP` of this page
  empty; otherwise it splits and runs on directly at the top of the next page,
  and the float follows where the paragraph ends. A list (a Group that `runs_on`)
  is read on the same way: no float comes between its items.
- **Paragraph** and **ListItem** split between lines (never leaving a single
  line behind or alone: widow/orphan control); **Table** splits between rows
  and repeats its header row on every page; **Group** keeps blocks together
  on a shaded panel, splitting between its blocks only when it must.

All geometry is in PDF points; y grows upward, as on a ReportLab canvas.
Blocks draw through `text.draw` only: there is no second text engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable

from . import text as textengine
from .text import Layout, Style

HUGE = 1e6  # "unlimited" box height for layouts that flow
FLOAT_GAP = 0.25  # the most of a page a paragraph leaves empty to move whole past a waiting float


@dataclass(frozen=True)
class Frame:
    """The area of a page that blocks flow into (points, bottom-left origin)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def top(self) -> float:
        return self.y + self.height


class Block:
    """Something placed in the flow. Subclasses override `height`, `draw` and maybe `split`."""

    space_before: float = 0.0
    space_after: float = 0.0
    keep_with_next: bool = False  # never split; stays on the page where the next block starts
    prefer_whole: bool = False  # moves to the next page whole rather than split, if it fits a page
    runs_on: bool = False  # split, it reads on across the break: no float comes between its pieces

    def height(self, width: float) -> float:
        raise NotImplementedError

    def min_height(self, width: float) -> float:
        """The height of the smallest first piece this block can be split into."""
        return self.height(width)

    def split(self, width: float, avail: float) -> tuple["Block", "Block"] | None:
        """(a first part no taller than `avail`, the rest), or None when it cannot split there."""
        return None

    def draw(self, flow: "PageFlow", x: float, top: float, width: float) -> None:
        raise NotImplementedError


# ── text blocks ───────────────────────────────────────────────────────────
def flow_layout(text: str, style: Style, width: float, where: str = "text") -> Layout:
    """A layout at the style's size in a box `width` wide and as tall as it needs."""
    return textengine.layout(text, style, width, HUGE, where=where)


def part(lay: Layout, start: int, stop: int | None = None) -> Layout:
    """Some of a layout's lines as a layout of their own."""
    return replace(lay, lines=lay.lines[start:stop])


def draw_layout(canvas, lay: Layout, x: float, top: float) -> None:
    """Draw a flowing layout with its first line's top at `top`."""
    textengine.draw(canvas, replace(lay, box_h=lay.height), x, top - lay.height)


def draw_baseline(canvas, lay: Layout, x: float, baseline: float) -> None:
    """Draw a layout with its first line's baseline at `baseline`."""
    draw_layout(canvas, lay, x, baseline + lay.size * textengine.ASCENT)


class Paragraph(Block):
    """Text that flows: wraps to the width, splits between lines.

    Optional decoration: a background `fill`, inner `padding`, a rule
    `rule_below` (colour, line width, gap) — enough for headings and bands.
    Split, it runs on: its rest starts the next page, before any float waiting there.
    """

    runs_on = True

    def __init__(self, text: str, style: Style, *, space_before=0.0, space_after=0.0, keep_with_next=False,
                 indent=0.0, fill=None, padding=0.0, rule_below=None, where="text", on_draw=None, lines=None):
        self.text, self.style, self.where = text, style, where
        self.space_before, self.space_after, self.keep_with_next = space_before, space_after, keep_with_next
        self.indent, self.fill, self.padding, self.rule_below = indent, fill, padding, rule_below
        self.on_draw = on_draw  # called with (flow, x, top) when drawn: bookmarks, running heads
        self._lines = lines  # (start, stop) when this is a piece of a split paragraph
        self._cache: tuple[float, Layout] | None = None

    def _text_width(self, width: float) -> float:
        return width - self.indent - 2 * self.padding

    def layout(self, width: float) -> Layout:
        if self._cache is None or self._cache[0] != width:
            lay = flow_layout(self.text, self.style, self._text_width(width), self.where)
            if self._lines:
                lay = part(lay, *self._lines)
            self._cache = (width, lay)
        return self._cache[1]

    def _extra(self) -> float:
        rule = (self.rule_below[1] + self.rule_below[2]) if self.rule_below else 0.0
        return 2 * self.padding + rule

    def height(self, width: float) -> float:
        return self.layout(width).height + self._extra()

    def _piece(self, start: int, stop: int | None) -> "Paragraph":
        """Lines start..stop (of this block's lines) as a block of their own."""
        base, end = self._lines or (0, None)
        return self._clone((base + start, end if stop is None else base + stop), start == 0)

    def _clone(self, lines: tuple, is_first: bool) -> "Paragraph":
        return Paragraph(self.text, self.style, indent=self.indent, fill=self.fill, padding=self.padding,
                         rule_below=self.rule_below, where=self.where, lines=lines)

    def min_height(self, width: float) -> float:
        lay = self.layout(width)
        if len(lay.lines) < 4:
            return self.height(width)
        return part(lay, 0, 2).height + self._extra()

    def split(self, width: float, avail: float):
        lay = self.layout(width)
        n = len(lay.lines)
        fit = 0
        for k in range(2, n - 1):  # at least two lines on each side
            if part(lay, 0, k).height + self._extra() <= avail:
                fit = k
        if not fit:
            return None
        first, rest = self._piece(0, fit), self._piece(fit, None)
        first.space_before, rest.space_after = self.space_before, self.space_after
        first.on_draw = self.on_draw
        return first, rest

    def draw(self, flow, x, top, width):
        lay = self.layout(width)
        c = flow.canvas
        h = self.height(width)
        if self.fill:
            rule = (self.rule_below[1] + self.rule_below[2]) if self.rule_below else 0.0
            c.saveState()
            c.setFillColor(self.fill)
            c.rect(x + self.indent, top - h + rule, width - self.indent, h - rule, stroke=0, fill=1)
            c.restoreState()
        draw_layout(c, lay, x + self.indent + self.padding, top - self.padding)
        if self.rule_below:
            colour, line_width, gap = self.rule_below
            y = top - h + line_width / 2
            c.saveState()
            c.setStrokeColor(colour)
            c.setLineWidth(line_width)
            c.line(x + self.indent, y, x + width, y)
            c.restoreState()
        if self.on_draw:
            self.on_draw(flow, x, top)


class ListItem(Paragraph):
    """A paragraph with a hanging marker (bullet, number) drawn by `marker(canvas, x, first_line_top, size)`."""

    def __init__(self, text: str, style: Style, marker: Callable, *, hang: float, **kw):
        super().__init__(text, style, **kw)
        self.marker, self.hang = marker, hang
        self.show_marker = True

    def _text_width(self, width):
        return width - self.indent - self.hang

    def _clone(self, lines, is_first):
        item = ListItem(self.text, self.style, self.marker, hang=self.hang, indent=self.indent, where=self.where, lines=lines)
        item.show_marker = self.show_marker and is_first
        return item

    def draw(self, flow, x, top, width):
        lay = self.layout(width)
        if self.show_marker:
            self.marker(flow.canvas, x + self.indent, top, lay.size)
        draw_layout(flow.canvas, lay, x + self.indent + self.hang, top)


class Figure(Block):
    """A drawing: `paint(canvas, x, top, width, height)` draws it below `top`, as tall as
    `height(width)` says (a number, or a function of the width)."""

    def __init__(self, height, paint: Callable, *, space_before=0.0, space_after=0.0, keep_with_next=False):
        self._height, self.paint = height, paint
        self.space_before, self.space_after, self.keep_with_next = space_before, space_after, keep_with_next

    def height(self, width):
        return self._height(width) if callable(self._height) else self._height

    def draw(self, flow, x, top, width):
        self.paint(flow.canvas, x, top, width, self.height(width))


class Fill(Block):
    """A drawing that takes the rest of the page: at least `least` tall, at most `most`, leaving
    `reserve` below it; `paint(canvas, x, top, width, height)` draws it at the height it gets
    (a quick reference on the book's last page, set as large as the room left allows)."""

    def __init__(self, least: float, most: float, paint: Callable, *, reserve=0.0, space_before=0.0):
        self.least, self.most, self.paint, self.reserve = least, most, paint, reserve
        self.space_before = space_before
        self._drawn: float | None = None

    def height(self, width):  # placed only where its reserve fits below it; once drawn, the reserve is free
        return self._drawn if self._drawn is not None else self.least + self.reserve

    def draw(self, flow, x, top, width):
        room = top - flow.current.y - self.reserve
        self._drawn = max(self.least, min(self.most, room))
        self.paint(flow.canvas, x, top, width, self._drawn)


class Float(Block):
    """A block placed where it fits: here when the rest of the page holds it, otherwise at
    the top of the next page — the blocks after it fill this page first, but never around
    it: a paragraph (a block that `runs_on`) that would split at that page break moves
    there whole, after the float (PageFlow._clear_of_floats), or, when it cannot, splits
    and its rest comes first, directly at the top of the next page, the float following
    where the paragraph ends: below it when the rest of that page holds it, else at the
    top of the page after. With `page` it has a page of its own: it starts a page and
    nothing else is set on it. Floats keep their order among themselves."""

    def __init__(self, block: Block, page: bool = False):
        self.block, self.page = block, page
        self.space_before, self.space_after = block.space_before, block.space_after

    def height(self, width):
        return self.block.height(width)

    def draw(self, flow, x, top, width):
        self.block.draw(flow, x, top, width)


class Leader(Block):
    """One line of a table of contents: `text` (indented by `indent`), a dotted leader, and
    `number` at the right margin. A title too long for the line wraps; the number stands on
    its last line."""

    def __init__(self, text: str, number: str, style: Style, *, indent=0.0, number_style: Style | None = None,
                 leader_colour: str = "#999999", space_after=0.0, where="text"):
        self.text, self.number, self.style, self.indent = text, number, style, indent
        self.number_style = number_style or style
        self.leader_colour, self.space_after, self.where = leader_colour, space_after, where
        self._cache: tuple | None = None

    def _layouts(self, width):
        if self._cache is None or self._cache[0] != width:
            number = flow_layout(self.number, replace(self.number_style, align="left"), HUGE, self.where)
            room = width - self.indent - number.width - self.style.size * 1.5
            title = flow_layout(self.text, replace(self.style, align="left"), max(room, 1.0), self.where)
            self._cache = (width, title, number)
        return self._cache[1], self._cache[2]

    def height(self, width):
        return self._layouts(width)[0].height

    def draw(self, flow, x, top, width):
        title, number = self._layouts(width)
        c = flow.canvas
        draw_layout(c, title, x + self.indent, top)
        baseline = top - title.size * textengine.ASCENT - max(len(title.lines) - 1, 0) * title.line_height
        last = title.lines[-1] if title.lines else None
        start = x + self.indent + (last.width if last is not None else 0.0) + self.style.size * 0.4
        end = x + width - number.width - self.style.size * 0.4
        draw_baseline(c, number, x + width - number.width, baseline)
        if end > start:  # the leader: dots every `step` from the page number back towards the title
            c.saveState()
            c.setStrokeColor(self.leader_colour)
            step = self.style.size * 0.45
            dot = self.style.size * 0.07
            n = int((end - start) / step)
            c.setLineWidth(2 * dot)
            c.setLineCap(1)  # round: each dash of length 0 is a dot as wide as the line
            c.setDash([0, step])
            c.line(end, baseline + dot, end - (n + 0.5) * step, baseline + dot)  # one path, not a circle per dot (the last inside it)
            c.restoreState()


class PageBreak(Block):
    """Start a new page (unless the current one is still empty)."""

    def height(self, width):
        return 0.0

    def draw(self, flow, x, top, width):
        pass


class Marker(Block):
    """A zero-height block that runs `action(flow, x, top)` where it lands (bookmarks, running heads).

    It keeps with the next block, so it lands on the page where that block starts.
    """

    keep_with_next = True

    def __init__(self, action: Callable):
        self.action = action

    def height(self, width):
        return 0.0

    def draw(self, flow, x, top, width):
        self.action(flow, x, top)


class Group(Block):
    """Blocks kept together, optionally on a panel (fill colour, padding, left bar).

    A group splits only between its blocks, leaving at least `orphans` of them
    on each side (so a list never leaves one item alone at the top or bottom of
    a page). With `prefer_whole` (panels) it rather moves to the next page
    whole when it fits there. With `runs_on` (a list: its items are read in
    order) it is split as a paragraph is, and no float comes between its pieces.
    """

    def __init__(self, blocks: list[Block], *, fill=None, padding=0.0, bar=None, space_before=0.0, space_after=0.0,
                 prefer_whole=False, orphans=2, runs_on=False):
        self.blocks, self.fill, self.padding, self.bar = blocks, fill, padding, bar  # bar: (colour, width)
        self.space_before, self.space_after = space_before, space_after
        self.prefer_whole, self.orphans, self.runs_on = prefer_whole, orphans, runs_on

    def _inner(self, width):
        return width - 2 * self.padding - (self.bar[1] if self.bar else 0.0)

    def _heights(self, width):
        w = self._inner(width)
        out = []
        for i, b in enumerate(self.blocks):
            out.append((b.space_before if i else 0.0) + b.height(w) + (b.space_after if i < len(self.blocks) - 1 else 0.0))
        return out

    def height(self, width):
        return sum(self._heights(width)) + 2 * self.padding

    def split(self, width, avail):
        heights = self._heights(width)
        n = len(heights)
        keep = self.orphans
        best, total = 0, 2 * self.padding
        for k, h in enumerate(heights[:-1], 1):
            total += h
            if total > avail:
                break
            if k >= keep and n - k >= keep:
                best = k
        if not best:
            return None
        kw = dict(fill=self.fill, padding=self.padding, bar=self.bar, prefer_whole=self.prefer_whole, orphans=self.orphans,
                  runs_on=self.runs_on)
        return (Group(self.blocks[:best], **kw, space_before=self.space_before),
                Group(self.blocks[best:], **kw, space_after=self.space_after))

    def min_height(self, width):
        heights = self._heights(width)
        if len(heights) < 2 * self.orphans:
            return self.height(width)
        return sum(heights[: self.orphans]) + 2 * self.padding

    def draw(self, flow, x, top, width):
        c = flow.canvas
        h = self.height(width)
        bar = self.bar[1] if self.bar else 0.0
        if self.fill:
            c.saveState()
            c.setFillColor(self.fill)
            c.rect(x, top - h, width, h, stroke=0, fill=1)
            c.restoreState()
        if self.bar:
            c.saveState()
            c.setFillColor(self.bar[0])
            c.rect(x, top - h, bar, h, stroke=0, fill=1)
            c.restoreState()
        y = top - self.padding
        w = self._inner(width)
        for i, b in enumerate(self.blocks):
            if i:
                y -= b.space_before
            b.draw(flow, x + bar + self.padding, y, w)
            y -= b.height(w) + b.space_after


# ── tables ────────────────────────────────────────────────────────────────
@dataclass
class Column:
    """One table column: `fixed` width in pt, else as wide as its content (`fit`), else a share (`weight`)."""

    align: str = "left"  # left | center | right
    weight: float = 0.0  # share of the width left after fixed/fit columns
    fit: bool = False  # as wide as the widest cell (one line), plus padding
    fixed: float | None = None
    min: float = 0.0  # a weighted column is never narrower than this (pt, padding included)


@dataclass
class Cell:
    text: str
    style: Style
    where: str = "table cell"


@dataclass
class TableStyle:
    pad_x: float = 3.0
    pad_y: float = 2.5
    header_fill: str | None = None
    zebra_fill: str | None = None  # every second body row
    rule_colour: str = "#999999"
    rule_width: float = 0.4
    header_rule_width: float = 0.9


@lru_cache(maxsize=4096)
def _aligned(style: Style, align: str) -> Style:
    """The style aligned as its column is: one object for each (every layout looked up hashes it)."""
    return replace(style, align=align)


class Table(Block):
    """Rows of cells; splits between rows and repeats the header row on every page."""

    def __init__(self, columns: list[Column], header: list[Cell], rows: list[list[Cell]], style: TableStyle,
                 *, space_before=0.0, space_after=0.0, first_row_index=0):
        self.columns, self.header, self.rows, self.style = columns, header, rows, style
        self.space_before, self.space_after = space_before, space_after
        self.first_row_index = first_row_index  # keeps zebra striping continuous across pages
        self._cache: dict[float, tuple] = {}
        self._widths: dict[float, list[float]] = {}  # shared with the pieces of a split table

    def column_widths(self, width: float) -> list[float]:
        """Column widths at a table width; the pieces of a split table keep the whole table's."""
        if width not in self._widths:
            self._widths[width] = self._column_widths(width)
        return self._widths[width]

    def _column_widths(self, width: float) -> list[float]:
        pad = 2 * self.style.pad_x
        widths: list[float | None] = []
        for i, col in enumerate(self.columns):
            if col.fixed is not None:
                widths.append(col.fixed)
            elif col.fit:
                cells = [self.header[i]] + [r[i] for r in self.rows]
                natural = max(flow_layout(c.text, c.style, HUGE, c.where).width for c in cells)
                widths.append(natural + pad + 0.5)
            else:
                widths.append(None)
        # Weighted columns share what is left; one whose share is below its minimum
        # gets the minimum, and the others share the rest.
        shared = [i for i, w in enumerate(widths) if w is None]
        while shared:
            left = width - sum(w for w in widths if w is not None)
            total_weight = sum(self.columns[i].weight for i in shared) or 1.0
            short = [i for i in shared if max(left, 0) * self.columns[i].weight / total_weight < self.columns[i].min]
            if not short:
                for i in shared:
                    widths[i] = max(left, 0) * self.columns[i].weight / total_weight
                break
            for i in short:
                widths[i] = self.columns[i].min
            shared = [i for i in shared if i not in short]
        return widths

    def _layouts(self, width: float):
        if width not in self._cache:
            widths = self.column_widths(width)
            pad = self.style.pad_x * 2

            def row_layouts(cells):
                lays = [flow_layout(c.text, _aligned(c.style, col.align), max(w - pad, 1), c.where)
                        for c, col, w in zip(cells, self.columns, widths)]
                return lays, max(l.height for l in lays) + 2 * self.style.pad_y

            self._cache[width] = (widths, row_layouts(self.header), [row_layouts(r) for r in self.rows])
        return self._cache[width]

    def height(self, width):
        _, (_, hh), rows = self._layouts(width)
        return hh + sum(h for _, h in rows)

    orphans = 2  # rows left at least on each side of a page break

    def min_height(self, width):
        _, (_, hh), rows = self._layouts(width)
        return hh + sum(h for _, h in rows[: self.orphans])

    def split(self, width, avail):
        _, (_, hh), rows = self._layouts(width)
        used, k = hh, 0
        for _, h in rows:
            if used + h > avail:
                break
            used += h
            k += 1
        k = min(k, len(rows) - self.orphans)
        if k < self.orphans:
            return None
        first = Table(self.columns, self.header, self.rows[:k], self.style, space_before=self.space_before,
                      first_row_index=self.first_row_index)
        rest = Table(self.columns, self.header, self.rows[k:], self.style, space_after=self.space_after,
                     first_row_index=self.first_row_index + k)
        first._widths = rest._widths = self._widths
        return first, rest

    def draw(self, flow, x, top, width):
        c = flow.canvas
        st = self.style
        widths, (hlays, hh), rows = self._layouts(width)
        total = self.height(width)
        c.saveState()
        if st.header_fill:
            c.setFillColor(st.header_fill)
            c.rect(x, top - hh, width, hh, stroke=0, fill=1)
        y = top - hh
        for i, (_, h) in enumerate(rows):
            if st.zebra_fill and (self.first_row_index + i) % 2 == 1:
                c.setFillColor(st.zebra_fill)
                c.rect(x, y - h, width, h, stroke=0, fill=1)
            y -= h
        c.setStrokeColor(st.rule_colour)
        c.setLineWidth(st.header_rule_width)
        c.line(x, top, x + width, top)
        c.line(x, top - hh, x + width, top - hh)
        c.line(x, top - total, x + width, top - total)
        c.setLineWidth(st.rule_width)
        y = top - hh
        for _, h in rows[:-1]:
            y -= h
            c.line(x, y, x + width, y)
        c.restoreState()
        self._draw_row(c, hlays, widths, x, top, hh)
        y = top - hh
        for lays, h in rows:
            self._draw_row(c, lays, widths, x, y, h)
            y -= h

    def _draw_row(self, c, lays, widths, x, top, h):
        cx = x
        for lay, w in zip(lays, widths):
            draw_layout(c, lay, cx + self.style.pad_x, top - self.style.pad_y)
            cx += w


# ── the flow ──────────────────────────────────────────────────────────────
@dataclass
class PageFlow:
    """Pours blocks into frames, page after page.

    begin_page(flow) is called before anything is drawn on a new page (draw
    backgrounds there); end_page(flow) before the page is shown (running
    heads, folios). `page` counts pages from `first_page`.
    """

    canvas: object
    frame: Callable[[int], Frame]  # page number -> frame
    begin_page: Callable[["PageFlow"], None] = lambda flow: None
    end_page: Callable[["PageFlow"], None] = lambda flow: None
    first_page: int = 1
    page: int = 0
    cursor: float = 0.0
    page_open: bool = False
    empty: bool = True  # nothing placed on the current page yet
    state: dict = field(default_factory=dict)  # for the caller: e.g. the running head
    pending: list = field(default_factory=list)  # floats waiting for the top of the next page
    kept_from: float | None = None  # the room on the page where the blocks the last one is kept with began

    @property
    def current(self) -> Frame:
        return self.frame(self.page)

    @property
    def remaining(self) -> float:
        return self.cursor - self.current.y

    def new_page(self, hold: bool = False) -> None:
        """Close the page and open the next; the floats waiting go at its top, unless `hold`
        (the rest of a split paragraph comes first: `_place_pending` after it)."""
        if self.page_open:
            self.end_page(self)
            self.canvas.showPage()
        self.page = self.first_page if self.page == 0 else self.page + 1
        self.page_open = True
        self.empty = True
        self.cursor = self.current.top
        self.kept_from = None
        self.begin_page(self)
        if not hold:
            self._place_pending()

    def _place_pending(self) -> None:
        """The floats that waited, in order, while they fit: at the top of a fresh page (the
        first always: nothing better than a page of its own), or below the end of a paragraph
        that ran on from the page before (those the rest of the page holds; a float with a
        page of its own waits for a fresh one). The caller's state (the running head's
        section) is the text's again after them."""
        if not self.pending:
            return
        section = self.state.get("section")
        while self.pending:
            f = self.pending[0]
            width = self.current.width
            if not self.empty and (f.page or f.height(width) + f.space_before > self.remaining + 1e-6):
                break
            self.pending.pop(0)
            self._draw(f, 0.0 if self.empty else f.space_before, width)
            if f.page:
                self.cursor = self.current.y  # nothing else on a float's own page
                break
        if section is not None:
            self.state["section"] = section

    def _float(self, block: Float) -> None:
        """A float here when it fits (and none waits before it), else when a page begins."""
        width = self.current.width
        before = 0.0 if self.empty else block.space_before
        fits = block.height(width) + before <= self.remaining + 1e-6
        if not self.pending and (self.empty or (fits and not block.page)):
            self._draw(block, before, width)
            if block.page:
                self.cursor = self.current.y
            return
        self.pending.append(block)

    def finish(self) -> None:
        """Place the floats still waiting, then close the last page."""
        while self.pending:
            self.new_page()
        if self.page_open:
            self.end_page(self)
            self.canvas.showPage()
            self.page_open = False

    def run(self, blocks: list[Block]) -> None:
        """Place every block in order."""
        if not self.page_open:
            self.new_page()
        queue = list(blocks)
        while queue:
            block = queue.pop(0)
            if isinstance(block, PageBreak):
                if not self.empty:
                    self.new_page()
                continue
            if isinstance(block, Float):
                self._float(block)
                continue
            self._place(block, queue)

    def _keep_height(self, block: Block, following: list[Block], width: float) -> float:
        """Height needed for `block` plus whatever it must keep with (the start of the next block)."""
        need = block.height(width)
        b = block
        i = 0
        while b.keep_with_next and i < len(following) and not isinstance(following[i], PageBreak):
            nxt = following[i]
            need += b.space_after + nxt.space_before
            whole = (nxt.keep_with_next or (nxt.prefer_whole and nxt.height(width) <= self.current.height)
                     or self._clear_of_floats(nxt, width))
            need += nxt.height(width) if whole else nxt.min_height(width)
            b = nxt
            i += 1
        return need

    def _place(self, block: Block, following: list[Block]) -> None:
        width = self.current.width
        before = 0.0 if self.empty else block.space_before
        keep = self._keep_height(block, following, width)
        if before + keep <= self.remaining + 1e-6:
            self._draw(block, before, width)
            return
        move_whole = (block.keep_with_next or (block.prefer_whole and keep <= self.current.height)
                      or self._clear_of_floats(block, width))
        piece = None if move_whole else block.split(width, self.remaining - before)
        if piece is not None:
            first, rest = piece
            self._draw(first, before, width)
            self.new_page(hold=block.runs_on)  # a sentence goes on on the next page, before any float
            self._place(rest, following)
            if block.runs_on:
                self._place_pending()
        elif self.empty:  # taller than a page and unsplittable: nothing better than to draw it
            self._draw(block, before, width)
        else:
            self.new_page()
            self._place(block, following)

    def _clear_of_floats(self, block: Block, width: float) -> bool:
        """Whether `block`, a paragraph, goes to the next page whole rather than split around the
        floats waiting for that page: when it fits a page and what it leaves empty here (the
        rest of the page, measured where the blocks kept with it start) is at most FLOAT_GAP of
        it. Otherwise it splits and runs on before them (`_place`). Where the blocks before it are
        kept with it (a heading, a paragraph leading in), the room is the one they started in, as
        when they were placed: measured anew, a list that a heading had been set above for moved
        on alone, leaving the heading at the foot of the page."""
        frame = self.current
        room = self.remaining if self.kept_from is None else self.kept_from
        return (bool(self.pending) and block.runs_on and block.height(width) <= frame.height
                and room <= FLOAT_GAP * frame.height + 1e-6)

    def _draw(self, block: Block, before: float, width: float) -> None:
        if not block.keep_with_next:
            self.kept_from = None
        elif self.kept_from is None:
            self.kept_from = self.remaining
        self.cursor -= before
        block.draw(self, self.current.x, self.cursor, width)
        self.cursor -= block.height(width) + block.space_after
        if block.height(width) > 0:
            self.empty = False
