"""Sheet geometry: where every card, crop mark, fold line and note goes on the paper.

Imposition knows nothing about what a card says. A sheet side holds numbered
*slots*; a page says which item of the print run goes into which slot. The
PDF writer (`sheets.py`) draws what this module computes.

Units: the API takes millimetres (what people type: `--bleed 3`, `63x88`);
every `Rect` and `Segment` it returns is in PDF points (1/72 in), origin at
the bottom-left corner of the page, the unit the PDF writer and the tests use.

Layouts:
- duplex: every front page is followed by its back page; backs are mirrored
  so they land behind their fronts when the printer flips the sheet on its
  long edge (columns mirrored) or short edge (rows mirrored); `back_offset`
  shifts back pages only, to correct a printer's misalignment.
- foldover: fronts on one half of the page, backs mirrored on the other half;
  fold on the line, glue, cut. No duplex printer needed.
- fronts-only: front pages only.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from .errors import UsageError

MM = 72 / 25.4  # points per millimetre

MIN_MARGIN = 5.0  # mm from the paper edge to the outermost card (bleed included): room for crop marks
MARK_GAP = 1.0  # mm between the cards' outer bleed edge and the start of a crop mark
MARK_EDGE = 1.5  # mm: crop marks stop this far from the paper edge
MARK_MAX = 8.0  # mm: the longest crop mark
NOTE_EDGE = 2.0  # mm: the print note keeps this far from the paper edge
NOTE_CLEAR = 1.0  # mm: free space kept around crop marks and fold lines when placing the note
MAX_BLEED = 10.0
MAX_GUTTER = 50.0
MAX_BACK_OFFSET = 10.0

LAYOUTS = ("duplex", "foldover", "fronts-only")
DUPLEX_EDGES = ("long", "short")


# ── paper and cards ──────────────────────────────────────────────────────────
@dataclass(frozen=True)
class Paper:
    key: str  # a4 | letter
    name: str  # as printed in messages: A4, Letter
    width: float  # mm
    height: float  # mm

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    def turned(self) -> "Paper":
        """The same sheet in the other orientation."""
        return replace(self, width=self.height, height=self.width)

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) in points."""
        return (self.width * MM, self.height * MM)


PAPERS = {
    "a4": Paper("a4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "Letter", 215.9, 279.4),
}


@dataclass(frozen=True)
class CardSize:
    name: str  # poker | bridge | mini | tarot | "" for a size given in mm
    width: float  # mm, trimmed
    height: float  # mm, trimmed

    def __str__(self) -> str:
        dims = f"{fmt_mm(self.width)} × {fmt_mm(self.height)} mm"
        return f"{self.name} ({dims})" if self.name else dims


CARD_SIZES = {
    "poker": CardSize("poker", 63.0, 88.0),
    "bridge": CardSize("bridge", 57.0, 89.0),
    "mini": CardSize("mini", 44.0, 63.0),
    "tarot": CardSize("tarot", 70.0, 120.0),
}


def fmt_mm(value: float) -> str:
    """12, 12.5, 215.9: a length in mm without useless decimals."""
    return f"{value:.1f}".rstrip("0").rstrip(".") if abs(value - round(value)) > 1e-9 else str(int(round(value)))


def parse_paper(text: str) -> Paper:
    key = str(text).strip().lower()
    if key not in PAPERS:
        raise ValueError(f"unknown paper '{text}' (choose {' or '.join(PAPERS)})")
    return PAPERS[key]


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×X*]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$")


def parse_card_size(text: str) -> CardSize:
    """poker | bridge | mini | tarot, or width × height in mm: `63x88`, `63.5×88.9`."""
    key = str(text).strip().lower()
    if key in CARD_SIZES:
        return CARD_SIZES[key]
    m = _SIZE_RE.match(key)
    if not m:
        raise ValueError(f"unknown card size '{text}' (choose {', '.join(CARD_SIZES)}, or width x height in mm such as 63x88)")
    w, h = float(m.group(1)), float(m.group(2))
    for value in (w, h):
        if not 10 <= value <= 400:
            raise ValueError(f"card size '{text}': each side must be between 10 and 400 mm")
    for size in CARD_SIZES.values():
        if (size.width, size.height) == (w, h):
            return size
    return CardSize("", w, h)


def check_length(value, what: str, lo: float, hi: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number of millimetres, not '{value}'") from None
    if not math.isfinite(number) or not lo <= number <= hi:
        raise ValueError(f"{what} must be between {fmt_mm(lo)} and {fmt_mm(hi)} mm, not {value}")
    return number


def parse_offset(value) -> tuple[float, float]:
    """`X,Y` in mm (text such as "1.5,-0.5", or a list of two numbers)."""
    parts = value if isinstance(value, (list, tuple)) else str(value).replace(" ", "").split(",")
    if len(parts) != 2:
        raise ValueError(f"back offset must be two numbers X,Y in mm (e.g. 1.5,-0.5), not '{value}'")
    x, y = (check_length(p, "each back offset", -MAX_BACK_OFFSET, MAX_BACK_OFFSET) for p in parts)
    return (x + 0.0, y + 0.0)


# ── geometry primitives (points) ─────────────────────────────────────────────
@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def mirrored_x(self, axis: float) -> "Rect":
        """Reflected across the vertical line x = axis."""
        return Rect(2 * axis - self.x1, self.y, self.w, self.h)

    def mirrored_y(self, axis: float) -> "Rect":
        """Reflected across the horizontal line y = axis."""
        return Rect(self.x, 2 * axis - self.y1, self.w, self.h)

    def inset(self, d: float) -> "Rect":
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def overlaps(self, other: "Rect") -> bool:
        return self.x < other.x1 and other.x < self.x1 and self.y < other.y1 and other.y < self.y1

    def union(self, other: "Rect") -> "Rect":
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.x1, other.x1) - x, max(self.y1, other.y1) - y)

    def box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): a PDF box array."""
        return (self.x, self.y, self.x1, self.y1)


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Slot:
    """Where one card face goes on a sheet side."""

    item: int  # which card of the page, in reading order on the front (0 = top left)
    face: str  # "front" | "back"
    bleed_box: Rect  # where the face's drawing goes, on the page
    trim_box: Rect  # the cut
    rotation: int = 0  # degrees anticlockwise the drawing is turned by: 0, 90, 180 or 270

    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """The PDF matrix (a, b, c, d, e, f) that maps the face's own drawing space
        ((0, 0) = bottom-left of its bleed box, upright) onto `bleed_box`, turned by `rotation`."""
        return face_matrix(self.bleed_box, self.rotation)


@dataclass(frozen=True)
class NoteSlot:
    """Free margin space for the print note (never over a card, a mark or a fold)."""

    box: Rect
    vertical: bool  # text runs bottom to top along a side margin


@dataclass(frozen=True)
class Side:
    """One printed side of a sheet: its slots, crop marks, fold lines and note space."""

    kind: str  # "front" | "back" | "foldover"
    width: float  # points
    height: float
    slots: tuple[Slot, ...]
    marks: tuple[Segment, ...] = ()
    folds: tuple[Segment, ...] = ()
    note_slots: tuple[NoteSlot, ...] = ()
    fold_slots: tuple[NoteSlot, ...] = ()  # beside a fold line, on the backs' side: for the fold instructions

    @property
    def trim_box(self) -> Rect:
        """The union of every card's trim (the PDF TrimBox)."""
        return _union([s.trim_box for s in self.slots])

    @property
    def bleed_box(self) -> Rect:
        """The union of every card's bleed, within the paper (the PDF BleedBox)."""
        box = _union([s.bleed_box for s in self.slots])
        x0, y0 = max(box.x, 0.0), max(box.y, 0.0)
        return Rect(x0, y0, min(box.x1, self.width) - x0, min(box.y1, self.height) - y0)


def _union(rects: list[Rect]) -> Rect:
    out = rects[0]
    for r in rects[1:]:
        out = out.union(r)
    return out


# ── the sheet layout ─────────────────────────────────────────────────────────
@dataclass(frozen=True)
class Page:
    side: Side
    items: tuple[int, ...]  # the print-run items on this page, slot item i holds items[i]
    number: int  # 1-based
    total: int

    def placements(self) -> list[tuple[int, Slot]]:
        """(print-run item, slot) for every filled slot, in drawing order."""
        return [(self.items[s.item], s) for s in self.side.slots if s.item < len(self.items)]


@dataclass(frozen=True)
class SheetLayout:
    paper: Paper  # as printed (landscape for some fold-over layouts)
    card: CardSize
    bleed: float  # mm
    gutter: float  # mm
    layout: str
    duplex: str
    back_offset: tuple[float, float]  # mm, applied to back pages only
    cols: int
    rows: int
    sides: tuple[Side, ...]  # duplex: (front, back); fronts-only: (front,); foldover: (foldover,)
    turned: bool = False  # cards lie sideways on the sheet (more of them fit)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def trim_pt(self) -> tuple[float, float]:
        return (self.card.width * MM, self.card.height * MM)

    @property
    def bleed_pt(self) -> float:
        return self.bleed * MM

    def page_count(self, n_items: int) -> int:
        return math.ceil(n_items / self.per_page) * len(self.sides) if n_items else 0

    def pages(self, n_items: int) -> list[Page]:
        """Every page for a print run of `n_items` cards, in printing order."""
        sheets = math.ceil(n_items / self.per_page)
        total = sheets * len(self.sides)
        out: list[Page] = []
        for sheet in range(sheets):
            items = tuple(range(sheet * self.per_page, min(n_items, (sheet + 1) * self.per_page)))
            for side in self.sides:
                out.append(Page(side, items, len(out) + 1, total))
        return out

    def describe(self) -> str:
        """e.g. "9 poker (63 × 88 mm) cards per A4 page (3 × 3), duplex, long edge"."""
        orient = " landscape" if self.paper.landscape else ""
        how = {"duplex": f"duplex, flip on {self.duplex} edge", "foldover": "fold-over", "fronts-only": "fronts only"}[self.layout]
        bleed = f", {fmt_mm(self.bleed)} mm bleed" if self.bleed else ""
        turned = ", cards turned sideways" if self.turned else ""
        return f"{self.per_page} {self.card} cards per {self.paper.name}{orient} page ({self.cols} × {self.rows}{bleed}{turned}), {how}"


@dataclass(frozen=True)
class _Grid:
    cols: int
    rows: int
    cells: tuple[Rect, ...]  # bleed boxes, reading order
    trims: tuple[Rect, ...]
    area: Rect  # the region the grid was laid out in
    turned: bool  # cards lie sideways (their drawing turned 90° anticlockwise)

    @property
    def count(self) -> int:
        return self.cols * self.rows

    def fronts(self) -> tuple[Slot, ...]:
        rotation = 90 if self.turned else 0
        return tuple(Slot(i, "front", cell, trim, rotation) for i, (cell, trim) in enumerate(zip(self.cells, self.trims)))


def _fit(avail: float, cell: float, gutter: float) -> int:
    """How many cells of `cell` mm with `gutter` mm between them fit in `avail` mm."""
    if avail + 1e-9 < cell:
        return 0
    return int((avail + gutter + 1e-9) // (cell + gutter))


def _grid(area_mm: tuple[float, float, float, float], card: CardSize, bleed: float, gutter: float, turned: bool = False) -> _Grid | None:
    """The largest grid of cards centred in area (x, y, w, h in mm) with MIN_MARGIN inside it."""
    ax, ay, aw, ah = area_mm
    tw, th = (card.height, card.width) if turned else (card.width, card.height)  # trim, as it lies on the sheet
    cw, ch = tw + 2 * bleed, th + 2 * bleed
    cols = _fit(aw - 2 * MIN_MARGIN, cw, gutter)
    rows = _fit(ah - 2 * MIN_MARGIN, ch, gutter)
    if cols < 1 or rows < 1:
        return None
    gw, gh = cols * cw + (cols - 1) * gutter, rows * ch + (rows - 1) * gutter
    x0, top = ax + (aw - gw) / 2, ay + (ah + gh) / 2
    cells, trims = [], []
    for r in range(rows):
        for c in range(cols):
            x, y = x0 + c * (cw + gutter), top - (r + 1) * ch - r * gutter
            cells.append(Rect(x * MM, y * MM, cw * MM, ch * MM))
            trims.append(Rect((x + bleed) * MM, (y + bleed) * MM, tw * MM, th * MM))
    return _Grid(cols, rows, tuple(cells), tuple(trims), Rect(ax * MM, ay * MM, aw * MM, ah * MM), turned)


def _best_grid(area_mm, card: CardSize, bleed: float, gutter: float, allow_turn: bool) -> _Grid | None:
    """Upright cards, or sideways ones when strictly more of them fit."""
    upright = _grid(area_mm, card, bleed, gutter)
    sideways = _grid(area_mm, card, bleed, gutter, turned=True) if allow_turn and card.width != card.height else None
    if sideways is not None and (upright is None or sideways.count > upright.count):
        return sideways
    return upright


def plan_sheets(
    paper: Paper,
    card: CardSize,
    bleed: float = 0.0,
    gutter: float = 0.0,
    layout: str = "duplex",
    duplex: str = "long",
    back_offset: tuple[float, float] = (0.0, 0.0),
    allow_turn: bool = True,
) -> SheetLayout:
    """The sheet layout for these settings, or a UsageError saying why the cards do not fit.

    Cards lie sideways when that fits strictly more of them on a page (e.g. poker
    cards with 3 mm bleed: 8 instead of 6 on A4), unless `allow_turn` is False.
    """
    if layout not in LAYOUTS:
        raise UsageError(f"unknown layout '{layout}' (choose {', '.join(LAYOUTS)})")
    if duplex not in DUPLEX_EDGES:
        raise UsageError(f"unknown duplex edge '{duplex}' (choose long or short)")
    if layout == "foldover":
        return _plan_foldover(paper, card, bleed, gutter, allow_turn)
    grid = _best_grid((0.0, 0.0, paper.width, paper.height), card, bleed, gutter, allow_turn)
    if grid is None:
        raise UsageError(_does_not_fit(paper, card, bleed, (paper.width, paper.height), "page"))
    W, H = paper.size
    fronts = grid.fronts()
    marks = crop_marks(grid.trims, grid.cells, Rect(0, 0, W, H))
    front = Side("front", W, H, fronts, marks, (), note_slots(W, H, marks, (), _union(list(grid.cells))))
    sides = [front]
    if layout == "duplex":
        dx, dy = back_offset[0] * MM, back_offset[1] * MM
        backs = tuple(
            Slot(s.item, "back", behind(s.bleed_box, W, H, duplex).moved(dx, dy), behind(s.trim_box, W, H, duplex).moved(dx, dy),
                 back_rotation(s.rotation, duplex))
            for s in fronts
        )
        cards_area = _union([s.bleed_box for s in backs])
        sides.append(Side("back", W, H, backs, (), (), note_slots(W, H, (), (), cards_area)))
    return SheetLayout(paper, card, bleed, gutter, layout, duplex, tuple(back_offset), grid.cols, grid.rows, tuple(sides), grid.turned)


_TURNS = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), 180: (-1, 0, 0, -1), 270: (0, -1, 1, 0)}  # PDF (a, b, c, d)


def face_matrix(box: Rect, rotation: int) -> tuple[float, float, float, float, float, float]:
    """The PDF matrix drawing an upright face into `box`, turned `rotation`° anticlockwise."""
    a, b, c, d = _TURNS[rotation % 360]
    w, h = (box.w, box.h) if rotation % 180 == 0 else (box.h, box.w)  # the face's own size
    xs = [a * x + c * y for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
    ys = [b * x + d * y for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
    return (a, b, c, d, box.x - min(xs), box.y - min(ys))


def back_rotation(front_rotation: int, flip: str) -> int:
    """How far to turn a back so that it reads upright when its card, cut out, is turned
    over like a book page (about the card's own vertical axis), whatever the sheet does.

    Keeps backs the same way up relative to their fronts in every layout, so decks
    printed flipping on the long or the short edge stay shuffle-compatible even
    with a back design that is not symmetrical.
    """
    a, b, c, d = _TURNS[front_rotation % 360]
    sheet = (-1, 1) if flip == "long" else (1, -1)  # turning the sheet over mirrors x or y
    # back = sheet mirror · front turn · card mirror (x), as 2×2 matrices [[a, c], [b, d]]
    m00, m10 = sheet[0] * a * -1, sheet[1] * b * -1
    return {(1, 0): 0, (0, 1): 90, (-1, 0): 180, (0, -1): 270}[(m00, m10)]


def behind(rect: Rect, width: float, height: float, duplex: str) -> Rect:
    """Where, on the back page, to draw what must land behind `rect` of the front page.

    A sheet flipped on its long (vertical, portrait) edge mirrors left and right;
    flipped on its short edge it mirrors top and bottom.
    """
    return rect.mirrored_x(width / 2) if duplex == "long" else rect.mirrored_y(height / 2)


def _plan_foldover(paper: Paper, card: CardSize, bleed: float, gutter: float, allow_turn: bool = True) -> SheetLayout:
    """Fronts on one half, backs mirrored across the fold on the other; the best of both
    paper orientations, both fold directions and upright or sideways cards (most cards
    per page; portrait, a vertical fold and upright cards win ties)."""
    best = None
    for sheet in (paper, paper.turned()):
        for vertical_fold in (True, False):
            w, h = sheet.width, sheet.height
            half = (0.0, 0.0, w / 2, h) if vertical_fold else (0.0, h / 2, w, h / 2)
            grid = _best_grid(half, card, bleed, gutter, allow_turn)
            if grid is not None and (best is None or grid.count > best[2].count):
                best = (sheet, vertical_fold, grid)
    if best is None:
        w, h = paper.width, paper.height
        half = max(((w / 2, h), (w, h / 2), (h / 2, w), (h, w / 2)), key=lambda a: min(a[0] - card.width, a[1] - card.height))
        raise UsageError(_does_not_fit(paper, card, bleed, half, "half page (fold-over layout)"))
    sheet, vertical_fold, grid = best
    W, H = sheet.size
    fronts = grid.fronts()
    edge, clear = NOTE_EDGE * MM, NOTE_CLEAR * MM
    if vertical_fold:
        fold = Segment(W / 2, 0.0, W / 2, H)
        mirror = lambda r: r.mirrored_x(W / 2)  # noqa: E731
    else:
        fold = Segment(0.0, H / 2, W, H / 2)
        mirror = lambda r: r.mirrored_y(H / 2)  # noqa: E731
    flip = "long" if vertical_fold else "short"  # folding is turning the sheet over on the fold line
    backs = tuple(Slot(s.item, "back", mirror(s.bleed_box), mirror(s.trim_box), back_rotation(s.rotation, flip)) for s in fronts)
    back_area = _union([s.bleed_box for s in backs])
    if vertical_fold:  # the strip between the fold and the backs
        fold_slot = NoteSlot(Rect(W / 2 + clear, edge, back_area.x - W / 2 - 2 * clear, H - 2 * edge), True)
    else:
        fold_slot = NoteSlot(Rect(edge, back_area.y1 + clear, W - 2 * edge, H / 2 - back_area.y1 - 2 * clear), False)
    marks = crop_marks(grid.trims, grid.cells, grid.area)
    cards_area = _union(list(grid.cells) + [s.bleed_box for s in backs])
    side = Side("foldover", W, H, fronts + backs, marks, (fold,), note_slots(W, H, marks, (fold,), cards_area), (fold_slot,))
    return SheetLayout(sheet, card, bleed, gutter, "foldover", flip, (0.0, 0.0), grid.cols, grid.rows, (side,), grid.turned)


def _does_not_fit(paper: Paper, card: CardSize, bleed: float, area: tuple[float, float], where: str) -> str:
    need_w, need_h = card.width + 2 * bleed, card.height + 2 * bleed
    avail_w, avail_h = area[0] - 2 * MIN_MARGIN, area[1] - 2 * MIN_MARGIN
    short = []
    if need_w > avail_w:
        short.append(f"{fmt_mm(need_w - avail_w)} mm in width")
    if need_h > avail_h:
        short.append(f"{fmt_mm(need_h - avail_h)} mm in height")
    with_bleed = f" with {fmt_mm(bleed)} mm bleed" if bleed else ""
    return (
        f"{card} cards{with_bleed} do not fit on {paper.name}: 1 card needs {fmt_mm(need_w)} × {fmt_mm(need_h)} mm, "
        f"the printable area of a {where} is {fmt_mm(avail_w)} × {fmt_mm(avail_h)} mm "
        f"({fmt_mm(MIN_MARGIN)} mm margins for crop marks) (short by {' and '.join(short)})"
    )


# ── crop marks and the note's place ──────────────────────────────────────────
def _unique(values) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > 1e-6:
            out.append(v)
    return out


def cut_lines(trims) -> tuple[list[float], list[float]]:
    """The x of every vertical cut and the y of every horizontal cut (points)."""
    return _unique([t.x for t in trims] + [t.x1 for t in trims]), _unique([t.y for t in trims] + [t.y1 for t in trims])


def crop_marks(trims, cells, area: Rect) -> tuple[Segment, ...]:
    """A mark in the margin at both ends of every cut line, never over a card.

    Marks start MARK_GAP outside the outermost bleed edge and run towards the
    edge of `area` (the page, or the half page of a fold-over).
    """
    grid = _union(list(cells))
    xs, ys = cut_lines(trims)
    gap, edge, longest = MARK_GAP * MM, MARK_EDGE * MM, MARK_MAX * MM
    marks: list[Segment] = []

    def run(start: float, limit: float, direction: int) -> tuple[float, float] | None:
        end = start + direction * longest
        end = min(end, limit) if direction > 0 else max(end, limit)
        return (start, end) if (end - start) * direction > 0.5 else None

    for x in xs:
        for span in (run(grid.y1 + gap, area.y1 - edge, 1), run(grid.y - gap, area.y + edge, -1)):
            if span:
                marks.append(Segment(x, span[0], x, span[1]))
    for y in ys:
        for span in (run(grid.x - gap, area.x + edge, -1), run(grid.x1 + gap, area.x1 - edge, 1)):
            if span:
                marks.append(Segment(span[0], y, span[1], y))
    return tuple(marks)


def note_slots(width: float, height: float, marks, folds, cards: Rect) -> tuple[NoteSlot, ...]:
    """Free stretches of the four margins around `cards`, where the print note may go.

    Per margin: the strip between the paper edge and the outer ends of the crop
    marks (when the marks leave room), then the stretches between the marks and
    fold lines crossing the margin, each kept NOTE_CLEAR away from them. Bottom
    and top margins give horizontal slots; left and right give vertical ones.
    """
    edge, clear = NOTE_EDGE * MM, NOTE_CLEAR * MM
    lines = [Rect(min(s.x0, s.x1) - clear, min(s.y0, s.y1) - clear, abs(s.x1 - s.x0) + 2 * clear, abs(s.y1 - s.y0) + 2 * clear)
             for s in list(marks) + list(folds)]
    bands = [  # (margin, vertical text?, which side is the paper edge)
        (Rect(edge, edge, width - 2 * edge, cards.y - clear - edge), False, "bottom"),
        (Rect(edge, cards.y1 + clear, width - 2 * edge, height - edge - cards.y1 - clear), False, "top"),
        (Rect(edge, edge, cards.x - clear - edge, height - 2 * edge), True, "left"),
        (Rect(cards.x1 + clear, edge, width - edge - cards.x1 - clear, height - 2 * edge), True, "right"),
    ]
    out: list[NoteSlot] = []
    for band, vertical, outer in bands:
        if band.w <= 0 or band.h <= 0:
            continue
        crossing = [r for r in lines if r.overlaps(band)]
        # 1. the strip outside the marks' ends, the whole length of the margin
        #    (only what crosses the whole band, like a fold line, still splits it)
        if crossing:
            strip = {
                "bottom": lambda: Rect(band.x, band.y, band.w, min(r.y for r in crossing) - band.y),
                "top": lambda: Rect(band.x, max(r.y1 for r in crossing), band.w, band.y1 - max(r.y1 for r in crossing)),
                "left": lambda: Rect(band.x, band.y, min(r.x for r in crossing) - band.x, band.h),
                "right": lambda: Rect(max(r.x1 for r in crossing), band.y, band.x1 - max(r.x1 for r in crossing), band.h),
            }[outer]()
            if strip.w > 0 and strip.h > 0:
                out += _free_stretches(strip, vertical, [r for r in crossing if r.overlaps(strip)])
        # 2. the stretches between the marks, the whole depth of the margin
        out += _free_stretches(band, vertical, crossing)
    return tuple(out)


def _free_stretches(band: Rect, vertical: bool, blocked: list[Rect]) -> list[NoteSlot]:
    """The parts of `band` along its length that no rectangle of `blocked` crosses."""
    lo, hi = (band.y, band.y1) if vertical else (band.x, band.x1)
    spans = sorted((r.y, r.y1) if vertical else (r.x, r.x1) for r in blocked)
    free, at = [], lo
    for b0, b1 in spans:
        if b0 > at:
            free.append((at, b0))
        at = max(at, b1)
    if hi > at:
        free.append((at, hi))
    return [NoteSlot(Rect(band.x, a, band.w, b - a) if vertical else Rect(a, band.y, b - a, band.h), vertical) for a, b in free]


def best_note_slot(slots, width_per_pt: float, max_size: float, min_size: float, line_height: float = 1.3):
    """The slot where a one-line text `width_per_pt` wide at 1 pt gets the largest size.

    Horizontal slots are preferred unless a vertical one allows a size 1 pt larger.
    Returns (slot, size); size may be below min_size when nothing fits (the caller
    warns). Ties go to the first slot.
    """
    best, best_score = None, None
    for slot in slots:
        length, depth = (slot.box.h, slot.box.w) if slot.vertical else (slot.box.w, slot.box.h)
        size = min(max_size, length / max(width_per_pt, 1e-9), depth / line_height)
        score = size - (1.0 if slot.vertical else 0.0)
        if best is None or score > best_score + 1e-6:
            best, best_score = (slot, size), score
    return best


# ── the duplex calibration page ──────────────────────────────────────────────
CAL_RANGE = 5.0  # mm: the largest back offset the test page reads directly, either way
CAL_STEP = 0.5  # mm between the values of neighbouring boxes
CAL_PER_LINE = 7  # boxes per row (X) or per column (Y)
CAL_PITCH = 11.0  # mm between neighbouring boxes: more than 2 × CAL_RANGE, so a back line
#                  can never line up with a neighbouring box's front line
CAL_BOX = (10.0, 20.0)  # mm: an X box (Y boxes are turned)
CAL_SEG = 8.0  # mm: each line in a box


@dataclass(frozen=True)
class AlignmentBox:
    """One numbered box of the alignment test.

    Its front line is drawn on the front page; its back line on the back page,
    placed where it would land behind the front line if printed with a back
    offset of `value` along `axis`. So the box whose two lines meet exactly
    names the back offset the printer needs.
    """

    axis: str  # "x" | "y"
    value: float  # mm
    label: str  # "+1.5", "−2", "0"
    box: Rect  # the frame, front page
    front: Segment  # front page coordinates
    back: Segment  # back page coordinates (the page's own back offset included)
    label_at: tuple[float, float]  # centre of the label's baseline, front page


@dataclass(frozen=True)
class CalibrationSheet:
    """Geometry of the duplex alignment test: numbered boxes, the back's lines, texts."""

    paper: Paper
    duplex: str
    back_offset: tuple[float, float]
    boxes: tuple[AlignmentBox, ...]
    x_caption_at: tuple[float, float]
    y_caption_at: tuple[float, float]
    hundred_mm: Segment  # a 100 mm line to check that the page was printed at 100 %
    text_box: Rect  # the instructions, front page, top
    back_text_at: tuple[float, float]  # the back page's label (centre of its baseline)


def _signed(value: float) -> str:
    if abs(value) < 1e-9:
        return "0"
    return ("+" if value > 0 else "\u2212") + fmt_mm(abs(value))


def calibration_sheet(paper: Paper, duplex: str, back_offset: tuple[float, float] = (0.0, 0.0)) -> CalibrationSheet:
    """Where the boxes, lines and texts of the calibration page go.

    X boxes (vertical lines; front line above, back line below) stand in rows on
    the left; Y boxes (horizontal lines; front left, back right) in columns on
    the right. A user holding the printed sheet to the light reads the value of
    the box whose lines meet: that is the back offset to build with (plus the
    offset the page itself was printed with, shown on it).
    """
    W, H = paper.size
    values = [i * CAL_STEP for i in range(-int(round(CAL_RANGE / CAL_STEP)), int(round(CAL_RANGE / CAL_STEP)) + 1)]
    lines = math.ceil(len(values) / CAL_PER_LINE)
    bw, bh = CAL_BOX[0] * MM, CAL_BOX[1] * MM
    pitch, seg = CAL_PITCH * MM, CAL_SEG * MM
    row_gap = (CAL_BOX[1] + 8.0) * MM  # X rows: a box and its label below
    col_gap = (CAL_BOX[1] + 12.0) * MM  # Y columns: a box, its label beside, space
    x_width = (CAL_PER_LINE - 1) * pitch + bw
    y_width = (lines - 1) * col_gap + bh + 9 * MM
    gap = 10 * MM
    x_left = (W - x_width - gap - y_width) / 2  # X boxes on the left, Y boxes on the right
    y_left = x_left + x_width + gap
    top = H * 0.62
    dx, dy = back_offset[0] * MM, back_offset[1] * MM
    boxes: list[AlignmentBox] = []
    for i, v in enumerate(values):
        line, pos = divmod(i, CAL_PER_LINE)
        # X box: vertical lines, the front's above the back's
        cx, cy = x_left + bw / 2 + pos * pitch, top - bh / 2 - line * row_gap
        front = Rect(cx, cy, 0.0, seg)
        back = behind(Rect(cx, cy - seg, 0.0, seg), W, H, duplex).moved(dx + v * MM, dy)
        boxes.append(AlignmentBox("x", v, _signed(v), Rect(cx - bw / 2, cy - bh / 2, bw, bh),
                                  Segment(front.x, front.y, front.x1, front.y1), Segment(back.x, back.y, back.x1, back.y1),
                                  (cx, cy - bh / 2 - 4 * MM)))
        # Y box: horizontal lines, the front's left of the back's
        cx, cy = y_left + bh / 2 + line * col_gap, top - bw / 2 - pos * pitch
        front = Rect(cx - seg, cy, seg, 0.0)
        back = behind(Rect(cx, cy, seg, 0.0), W, H, duplex).moved(dx, dy + v * MM)
        boxes.append(AlignmentBox("y", v, _signed(v), Rect(cx - bh / 2, cy - bw / 2, bh, bw),
                                  Segment(front.x, front.y, front.x1, front.y1), Segment(back.x, back.y, back.x1, back.y1),
                                  (cx + bh / 2 + 2 * MM, cy - 1 * MM)))
    margin = 15.0 * MM
    bottom = min(top - (lines - 1) * row_gap - bh - 6 * MM, top - CAL_PER_LINE * pitch)  # the lowest box or label
    ruler_y = bottom - 22 * MM
    return CalibrationSheet(
        paper,
        duplex,
        (back_offset[0] + 0.0, back_offset[1] + 0.0),
        tuple(sorted(boxes, key=lambda b: (b.axis, b.value))),
        (x_left + x_width / 2, top + 4 * MM),
        (y_left + (y_width - 9 * MM) / 2, top + 4 * MM),
        Segment(W / 2 - 50 * MM, ruler_y, W / 2 + 50 * MM, ruler_y),
        Rect(margin, top + 14 * MM, W - 2 * margin, H - margin - top - 14 * MM),
        _back_text_at(W, H, duplex, bottom - 10 * MM),
    )


def _back_text_at(W: float, H: float, duplex: str, front_y: float) -> tuple[float, float]:
    """The back page's label lands behind an empty band of the front, at `front_y`."""
    spot = behind(Rect(W / 2, front_y, 0.0, 0.0), W, H, duplex)
    return (spot.x, spot.y)
