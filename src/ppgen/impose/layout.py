"""Sheet geometry: where every card, crop mark, fold line and note goes on the paper.

Imposition knows nothing about what a card says. A sheet side holds numbered
*slots*; a page says which item of the print run goes into which slot. The
drawing of sheets (`sheets.py`) places faces where this module says.

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
- print-and-cut: for a cutting machine, no crop marks but its registration marks
  (`Side.inks`) and their exclusion zones (`Side.keep_out`); planned by `cutter.py`.

The printable area: nothing is drawn within `printable_margin` (5 mm) of the
paper edge, and every cut line gets a crop mark of at least MARK_MIN (2 mm)
inside the printable area at both ends. So the cards keep printable_margin +
MARK_ROOM (7.5 mm) from the paper edge; where a larger grid would fit the
printable area but leave no room for the marks, the smaller grid is taken and
`grid_note` says so; a card that leaves no room at all is refused, with the sizes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..errors import UsageError
from ..units import DUPLEX_EDGES, LAYOUTS, MM, PRINTABLE_MARGIN, CardSize, Paper, fmt_mm
from .geometry import NoteSlot, Rect, Segment, union_of
from .marks import FOLD_CLEAR, MARK_ROOM, NOTE_CLEAR, crop_marks, note_slots


@dataclass(frozen=True)
class Slot:
    """Where one card face goes on a sheet side."""

    item: int  # which card of the page, in reading order on the front (0 = top left)
    face: str  # "front" | "back"
    bleed_box: Rect  # where the face's drawing goes, on the page
    trim_box: Rect  # the cut
    rotation: int = 0  # degrees anticlockwise the drawing is turned by: 0, 90, 180 or 270
    # A back of a duplex sheet printed beyond its bleed box (`spread_backs`): its face is drawn
    # `reach` points larger on every side and shows within `spread` (page coordinates).
    reach: float = 0.0
    spread: Rect | None = None

    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """The PDF matrix (a, b, c, d, e, f) that maps the face's own drawing space
        ((0, 0) = bottom-left of its bleed box, upright) onto `bleed_box` (grown by `reach`),
        turned by `rotation`."""
        return face_matrix(self.bleed_box.inset(-self.reach) if self.reach else self.bleed_box, self.rotation)

    @property
    def printed_box(self) -> Rect:
        """Where the face shows on the page: its bleed box, or its spread."""
        return self.spread or self.bleed_box


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
    inks: tuple[Rect, ...] = ()  # print-and-cut: the registration marks, filled black
    keep_out: tuple[Rect, ...] = ()  # print-and-cut: each mark's exclusion zone

    @property
    def trim_box(self) -> Rect:
        """The union of every card's trim (the PDF TrimBox)."""
        return union_of([s.trim_box for s in self.slots])

    @property
    def bleed_box(self) -> Rect:
        """The union of every card's bleed (a spread back's spread), within the paper (the PDF BleedBox)."""
        box = union_of([s.printed_box for s in self.slots])
        x0, y0 = max(box.x, 0.0), max(box.y, 0.0)
        return Rect(x0, y0, min(box.x1, self.width) - x0, min(box.y1, self.height) - y0)


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
    cutter: object = None  # print-and-cut: the read.cutters.Cutter the sheets are laid out for
    printable_margin: float = PRINTABLE_MARGIN  # mm along the paper edge where nothing is drawn
    grid_note: str = ""  # why the grid holds fewer cards than the printable area would (room for crop marks)

    @property
    def viewer_duplex(self) -> str:
        """The PDF /Duplex viewer preference for these sheets: one-sided sheets (fold-over,
        fronts only) print simplex; front and back pages on the edge they were mirrored for."""
        if len(self.sides) == 1:
            return "Simplex"
        return "DuplexFlipLongEdge" if self.duplex == "long" else "DuplexFlipShortEdge"

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def back_reach(self) -> float:
        """mm the backs are drawn beyond their bleed box (`spread_backs`): 0 where they are not."""
        return max((s.reach for side in self.sides for s in side.slots), default=0.0) / MM

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
                out.append(Page(side if len(items) == self.per_page else self._partly_filled(side, len(items)), items, len(out) + 1, total))
        return out

    def _partly_filled(self, side: Side, filled: int) -> Side:
        """A side of the print run's last sheet, its first `filled` slots holding cards: the crop marks
        of their cut lines only, and backs spread (`spread_backs`) towards the empty slots too — an
        empty slot is margin, not a neighbour."""
        side = _marks_for(side, filled)
        if not any(s.reach for s in side.slots):
            return side
        edge = self.printable_margin * MM
        placed = spread_backs(tuple(s for s in side.slots if s.item < filled), Rect(edge, edge, side.width - 2 * edge, side.height - 2 * edge))
        return replace(side, slots=placed + tuple(s for s in side.slots if s.item >= filled))

    def describe(self) -> str:
        """e.g. "9 poker (63 × 88 mm) cards per A4 page (3 × 3), duplex, long edge"."""
        orient = " landscape" if self.paper.landscape else ""
        how = {"duplex": f"duplex, flip on {self.duplex} edge", "foldover": "fold-over", "fronts-only": "fronts only",
               "print-and-cut": f"print and cut for {getattr(self.cutter, 'software', '')}{self._upload_size()}, "
                                f"backs for a flip on the {self.duplex} edge"}[self.layout]
        bleed = f", {fmt_mm(self.bleed)} mm bleed" if self.bleed else ""
        turned = ", cards turned sideways" if self.turned else ""
        note = f"; {self.grid_note}" if self.grid_note else ""
        return f"{self.per_page} {self.card} cards per {self.paper.name}{orient} page ({self.cols} × {self.rows}{bleed}{turned}), {how}{note}"


    def _upload_size(self) -> str:
        """', a 132.08 × 182.08 mm picture at 300 dpi per full sheet side' for software printing from uploads."""
        if self.cutter is None or not self.cutter.uploads:
            return ""
        from .cutter import upload_image

        image = upload_image(self.sides[0].slots, self.cutter.upload_dpi)
        w, h = image.size_mm
        return f" from uploads: a {w:.2f} × {h:.2f} mm picture at {image.dpi:g} dpi per full sheet side"


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


def _grid(area_mm: tuple[float, float, float, float], card: CardSize, bleed: float, gutter: float, margin: float,
          turned: bool = False) -> _Grid | None:
    """The largest grid of cards centred in area (x, y, w, h in mm), `margin` mm inside it."""
    ax, ay, aw, ah = area_mm
    tw, th = (card.height, card.width) if turned else (card.width, card.height)  # trim, as it lies on the sheet
    cw, ch = tw + 2 * bleed, th + 2 * bleed
    cols = _fit(aw - 2 * margin, cw, gutter)
    rows = _fit(ah - 2 * margin, ch, gutter)
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


def _best_grid(area_mm, card: CardSize, bleed: float, gutter: float, allow_turn: bool, margin: float) -> _Grid | None:
    """Upright cards, or sideways ones when strictly more of them fit."""
    upright = _grid(area_mm, card, bleed, gutter, margin)
    sideways = _grid(area_mm, card, bleed, gutter, margin, turned=True) if allow_turn and card.width != card.height else None
    if sideways is not None and (upright is None or sideways.count > upright.count):
        return sideways
    return upright


def _grids(area_mm, card: CardSize, bleed: float, gutter: float, allow_turn: bool, printable: float):
    """(the best grid that leaves room for crop marks inside the printable area,
    the number of cards the printable area alone would hold)."""
    marked = _best_grid(area_mm, card, bleed, gutter, allow_turn, printable + MARK_ROOM)
    bare = _best_grid(area_mm, card, bleed, gutter, allow_turn, printable)
    return marked, (bare.count if bare else 0)


def _grid_note(marked: _Grid, bare_count: int, printable: float) -> str:
    if bare_count <= marked.count:
        return ""
    return (f"{bare_count} would fit, but would leave no room for crop marks "
            f"outside the {fmt_mm(printable)} mm border a printer cannot print")


def plan_sheets(
    paper: Paper,
    card: CardSize,
    bleed: float = 0.0,
    gutter: float = 0.0,
    layout: str = "duplex",
    duplex: str = "long",
    back_offset: tuple[float, float] = (0.0, 0.0),
    allow_turn: bool = True,
    printable_margin: float = PRINTABLE_MARGIN,
) -> SheetLayout:
    """The sheet layout for these settings, or a UsageError saying why the cards do not fit.

    Cards lie sideways when that fits strictly more of them on a page (e.g. poker
    cards with 3 mm bleed: 8 instead of 6 on A4), unless `allow_turn` is False.
    Nothing is drawn within `printable_margin` mm of the paper edge.
    """
    if layout not in LAYOUTS:
        raise UsageError(f"unknown layout '{layout}' (choose {', '.join(LAYOUTS)})")
    if duplex not in DUPLEX_EDGES:
        raise UsageError(f"unknown duplex edge '{duplex}' (choose long or short)")
    p = printable_margin
    if layout == "foldover":
        return _plan_foldover(paper, card, bleed, gutter, allow_turn, p)
    if layout == "print-and-cut":
        raise UsageError("the print-and-cut layout needs a cutting machine: --cutter (impose.cutter.plan_cut_sheets)")
    grid, bare = _grids((0.0, 0.0, paper.width, paper.height), card, bleed, gutter, allow_turn, p)
    if grid is None:
        raise UsageError(_does_not_fit(paper, card, bleed, (paper.width, paper.height), "page", p, bare > 0))
    W, H = paper.size
    edge = p * MM
    fronts = grid.fronts()
    marks = crop_marks(grid.trims, grid.cells, Rect(edge, edge, W - 2 * edge, H - 2 * edge))
    front = Side("front", W, H, fronts, marks, (), note_slots(W, H, marks, (), union_of(list(grid.cells)), edge))
    sides = [front]
    if layout == "duplex":
        dx, dy = back_offset[0] * MM, back_offset[1] * MM
        backs = tuple(
            Slot(s.item, "back", behind(s.bleed_box, W, H, duplex).moved(dx, dy), behind(s.trim_box, W, H, duplex).moved(dx, dy),
                 back_rotation(s.rotation, duplex))
            for s in fronts
        )
        if bleed == 0:
            backs = spread_backs(backs, Rect(edge, edge, W - 2 * edge, H - 2 * edge))
        cards_area = union_of([s.printed_box for s in backs])
        sides.append(Side("back", W, H, backs, (), (), note_slots(W, H, (), (), cards_area, edge)))
    return SheetLayout(paper, card, bleed, gutter, layout, duplex, tuple(back_offset), grid.cols, grid.rows, tuple(sides), grid.turned,
                       printable_margin=p, grid_note=_grid_note(grid, bare, p))


def _marks_for(side: Side, filled: int) -> Side:
    """A sheet side whose first `filled` slots hold cards (the print run's last sheet): only the crop
    marks of the cut lines those cards have — none for the rows and columns left empty."""
    slots = [s for s in side.slots if s.item < filled]
    xs = {round(v, 3) for s in slots for v in (s.trim_box.x, s.trim_box.x1)}
    ys = {round(v, 3) for s in slots for v in (s.trim_box.y, s.trim_box.y1)}
    marks = tuple(m for m in side.marks if (round(m.x0, 3) in xs if abs(m.x0 - m.x1) < 1e-6 else round(m.y0, 3) in ys))
    return side if marks == side.marks else replace(side, marks=marks)


BACK_REACH = 3.0  # mm: how far a duplex back without bleed is printed past the cards' edge


def spread_backs(backs: tuple[Slot, ...], bounds: Rect) -> tuple[Slot, ...]:
    """The backs of a duplex sheet without bleed, each printed past its edge wherever no other card
    is: into the margin up to BACK_REACH (within `bounds`, the printable area), into a gutter up
    to its middle. A sheet turned over goes through a home printer a millimetre or two off: the
    backs land that far off their fronts, and a card cut on its front's lines would show a strip
    of bare paper along its back's edge at the grid's border; now it shows the back's own field.
    Between cards butted together nothing changes (the neighbour's back is there)."""
    reach = BACK_REACH * MM
    out = []
    for s in backs:
        b = s.bleed_box
        x0, y0, x1, y1 = b.x - reach, b.y - reach, b.x1 + reach, b.y1 + reach
        for o in backs:
            ob = o.bleed_box
            if o is s:
                continue
            if ob.y < b.y1 and b.y < ob.y1:  # beside it
                x0 = max(x0, (ob.x1 + b.x) / 2) if ob.x1 <= b.x + 1e-6 else x0
                x1 = min(x1, (b.x1 + ob.x) / 2) if ob.x >= b.x1 - 1e-6 else x1
            if ob.x < b.x1 and b.x < ob.x1:  # above or below it
                y0 = max(y0, (ob.y1 + b.y) / 2) if ob.y1 <= b.y + 1e-6 else y0
                y1 = min(y1, (b.y1 + ob.y) / 2) if ob.y >= b.y1 - 1e-6 else y1
        x0, y0 = min(max(x0, bounds.x), b.x), min(max(y0, bounds.y), b.y)  # within the printable area, never inside the card
        x1, y1 = max(min(x1, bounds.x1), b.x1), max(min(y1, bounds.y1), b.y1)
        out.append(Slot(s.item, s.face, s.bleed_box, s.trim_box, s.rotation, reach, Rect(x0, y0, x1 - x0, y1 - y0)))
    return tuple(out)


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


def _plan_foldover(paper: Paper, card: CardSize, bleed: float, gutter: float, allow_turn: bool = True,
                   printable: float = PRINTABLE_MARGIN) -> SheetLayout:
    """Fronts on one half, backs mirrored across the fold on the other; the best of both
    paper orientations, both fold directions and upright or sideways cards (most cards
    per page; portrait, a vertical fold and upright cards win ties)."""
    best, bare_best = None, 0
    for sheet in (paper, paper.turned()):
        for vertical_fold in (True, False):
            w, h = sheet.width, sheet.height
            half = (0.0, 0.0, w / 2, h) if vertical_fold else (0.0, h / 2, w, h / 2)
            grid, bare = _grids(half, card, bleed, gutter, allow_turn, printable)
            bare_best = max(bare_best, bare)
            if grid is not None and (best is None or grid.count > best[2].count):
                best = (sheet, vertical_fold, grid)
    if best is None:
        w, h = paper.width, paper.height
        half = max(((w / 2, h), (w, h / 2), (h / 2, w), (h, w / 2)), key=lambda a: min(a[0] - card.width, a[1] - card.height))
        raise UsageError(_does_not_fit(paper, card, bleed, half, "half page (fold-over layout)", printable, bare_best > 0))
    sheet, vertical_fold, grid = best
    W, H = sheet.size
    fronts = grid.fronts()
    edge, clear, fold_clear = printable * MM, NOTE_CLEAR * MM, FOLD_CLEAR * MM
    if vertical_fold:
        fold = Segment(W / 2, edge, W / 2, H - edge)  # inside the printable area, like everything printed
        mirror = lambda r: r.mirrored_x(W / 2)  # noqa: E731
    else:
        fold = Segment(edge, H / 2, W - edge, H / 2)
        mirror = lambda r: r.mirrored_y(H / 2)  # noqa: E731
    flip = "long" if vertical_fold else "short"  # folding is turning the sheet over on the fold line
    backs = tuple(Slot(s.item, "back", mirror(s.bleed_box), mirror(s.trim_box), back_rotation(s.rotation, flip)) for s in fronts)
    back_area = union_of([s.bleed_box for s in backs])
    if vertical_fold:  # the strip between the fold and the backs
        fold_slot = NoteSlot(Rect(W / 2 + clear, edge, back_area.x - W / 2 - 2 * clear, H - 2 * edge), True)
    else:
        fold_slot = NoteSlot(Rect(edge, back_area.y1 + clear, W - 2 * edge, H / 2 - back_area.y1 - 2 * clear), False)
    # the fronts' half, inside the printable area and clear of the fold: where their marks may go
    if vertical_fold:
        bounds = Rect(edge, edge, W / 2 - fold_clear - edge, H - 2 * edge)
    else:
        bounds = Rect(edge, H / 2 + fold_clear, W - 2 * edge, H / 2 - fold_clear - edge)
    marks = crop_marks(grid.trims, grid.cells, bounds)
    cards_area = union_of(list(grid.cells) + [s.bleed_box for s in backs])
    side = Side("foldover", W, H, fronts + backs, marks, (fold,), note_slots(W, H, marks, (fold,), cards_area, edge), (fold_slot,))
    return SheetLayout(sheet, card, bleed, gutter, "foldover", flip, (0.0, 0.0), grid.cols, grid.rows, (side,), grid.turned,
                       printable_margin=printable, grid_note=_grid_note(grid, bare_best, printable))


def _does_not_fit(paper: Paper, card: CardSize, bleed: float, area: tuple[float, float], where: str, printable: float,
                  fits_unmarked: bool = False) -> str:
    margin = printable + MARK_ROOM
    need_w, need_h = card.width + 2 * bleed, card.height + 2 * bleed
    avail_w, avail_h = area[0] - 2 * margin, area[1] - 2 * margin
    short = []
    if need_w > avail_w:
        short.append(f"{fmt_mm(need_w - avail_w)} mm in width")
    if need_h > avail_h:
        short.append(f"{fmt_mm(need_h - avail_h)} mm in height")
    with_bleed = f" with {fmt_mm(bleed)} mm bleed" if bleed else ""
    what = "fit the printable area but leave no room for crop marks" if fits_unmarked else "do not fit"
    return (
        f"{card} cards{with_bleed} {what} on {paper.name}: 1 card needs {fmt_mm(need_w)} × {fmt_mm(need_h)} mm, "
        f"a {where} has {fmt_mm(avail_w)} × {fmt_mm(avail_h)} mm for cards "
        f"({fmt_mm(printable)} mm along each edge the printer cannot print, then {fmt_mm(MARK_ROOM)} mm for crop marks) "
        f"(short by {' and '.join(short)})"
    )
