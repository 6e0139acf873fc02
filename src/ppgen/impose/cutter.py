"""Print-and-cut sheets: cards laid out for a cutting machine that reads registration marks.

The machine (a `read.cutters.Cutter`) says where its software expects its marks, the
zone around each mark nothing else may enter, and the largest print it accepts. Each
card gets its own bleed, with a gap to its neighbours, so a cut that wanders a little
shows colour, never white or the next card. There are no crop marks: the machine cuts
along the outlines of the sheet's cut file (write/cutfile.py), which are the slots'
trim boxes. Backs are on their own pages, mirrored behind their fronts for the printer's
duplex edge, with the marks where the software expects them, so each side can be cut.

The result is the same `SheetLayout` of Sides, Slots and Pages as every other layout,
so `impose/sheets.py` draws it; marks are filled rectangles (`Side.inks`), their
exclusion zones `Side.keep_out`. API in millimetres, geometry in points.

A machine whose software prints the page itself from an uploaded picture (Cricut Design
Space: `Cutter.uploads`) gets no marks of ppgen's; `upload_image` says which rectangle of
each printed side that picture covers (the cards, bleed included, in whole pixels).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from ..errors import UsageError
from ..units import MM, PRINTABLE_MARGIN, CardSize, Paper, fmt_mm, px
from .geometry import NoteSlot, Rect, union_of
from .layout import SheetLayout, Side, Slot, back_rotation, behind
from .marks import note_slots

NOTE_EDGE = 2.0  # mm: the note keeps this far inside the marks' frame


@dataclass(frozen=True)
class MarkSet:
    """A sheet side's registration marks and their exclusion zones (points)."""

    inks: tuple[Rect, ...]  # filled black rectangles: a square is one, a bracket two
    zones: tuple[Rect, ...]  # one per mark: nothing but the mark itself may enter it
    frame: Rect | None  # the rectangle the marks stand at the corners of


def mark_set(cutter, paper: Paper) -> MarkSet:
    """Where `cutter`'s software prints its marks on `paper`, and their exclusion zones."""
    marks = cutter.marks
    if marks is None:
        return MarkSet((), (), None)
    W, H = paper.width, paper.height
    if marks.inset is not None:
        x0, y0, x1, y1 = marks.inset, marks.inset, W - marks.inset, H - marks.inset
    else:
        a = print_area(cutter, paper)
        x0, y0, x1, y1 = a[0] - marks.outside, a[1] - marks.outside, a[2] + marks.outside, a[3] + marks.outside
    inks, zones = [], []
    for corner, kind in marks.pattern:
        top, left = corner.startswith("top"), corner.endswith("left")
        cx, cy = (x0 if left else x1), (y1 if top else y0)  # the corner; arms and zone point inward
        sx, sy = (1 if left else -1), (-1 if top else 1)
        if kind == "square":
            inks.append(_box(cx, cy, sx * marks.square, sy * marks.square))
            side = max(marks.keep_out, marks.square)
        else:
            t = marks.thickness
            inks.append(_box(cx, cy, sx * marks.length, sy * t))  # the arm along the top or bottom edge
            inks.append(_box(cx, cy, sx * t, sy * marks.length))  # the arm along the side
            side = max(marks.keep_out, marks.length)
        c = marks.clearance
        zones.append(_box(cx - sx * c, cy - sy * c, sx * (side + 2 * c), sy * (side + 2 * c)))
    return MarkSet(tuple(inks), tuple(zones), Rect(x0 * MM, y0 * MM, (x1 - x0) * MM, (y1 - y0) * MM))


@dataclass(frozen=True)
class UploadImage:
    """The rectangle of a printed side that its upload picture and cut file cover."""

    box: Rect  # points, on the page: the cards' bleed boxes, grown (centred) to whole pixels
    width_px: int
    height_px: int
    dpi: float

    @property
    def size_mm(self) -> tuple[float, float]:
        """(width, height) in mm: exactly the picture's pixels at its dpi."""
        return (self.width_px / self.dpi * 25.4, self.height_px / self.dpi * 25.4)


def upload_image(slots, dpi: float) -> UploadImage:
    """The picture of `slots` (a side's cards): the union of their bleed boxes, each side
    rounded to whole pixels at `dpi` (half up) and grown or shrunk by the fraction of a
    pixel evenly on both sides, so the cards stay centred in it."""
    cards = union_of([s.bleed_box for s in slots])
    w, h = px(cards.w, dpi), px(cards.h, dpi)
    bw, bh = w * 72 / dpi, h * 72 / dpi
    return UploadImage(Rect(cards.x - (bw - cards.w) / 2, cards.y - (bh - cards.h) / 2, bw, bh), w, h, dpi)


def print_area(cutter, paper: Paper) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in mm: where cards may go — the paper within the cutter's margin,
    within its largest print (centred), within its marks' frame."""
    W, H = paper.width, paper.height
    m = cutter.margin
    x0, y0, x1, y1 = m, m, W - m, H - m
    if cutter.area is not None:
        aw, ah = cutter.area
        x0, y0, x1, y1 = max(x0, (W - aw) / 2), max(y0, (H - ah) / 2), min(x1, (W + aw) / 2), min(y1, (H + ah) / 2)
    marks = cutter.marks
    if marks is not None and marks.inset is not None:
        i = marks.inset
        x0, y0, x1, y1 = max(x0, i), max(y0, i), min(x1, W - i), min(y1, H - i)
    return (x0, y0, x1, y1)


def _box(x: float, y: float, dx: float, dy: float) -> Rect:
    """The rectangle (points) from corner (x, y) mm spanning dx, dy mm (either sign)."""
    return Rect(min(x, x + dx) * MM, min(y, y + dy) * MM, abs(dx) * MM, abs(dy) * MM)


def plan_cut_sheets(
    paper: Paper,
    card: CardSize,
    cutter,
    bleed: float,
    gap: float,
    duplex: str = "long",
    back_offset: tuple[float, float] = (0.0, 0.0),
    allow_turn: bool = True,
) -> SheetLayout:
    """The print-and-cut layout: the grid with most cards (upright wins ties) that keeps every
    card, front and back, inside the print area and out of every mark's exclusion zone; or a
    UsageError saying what does not fit and by how much."""
    marks = mark_set(cutter, paper)
    area = print_area(cutter, paper)
    W, H = paper.size
    dx, dy = back_offset[0] * MM, back_offset[1] * MM
    best = None
    for turned in ((False, True) if allow_turn and card.width != card.height else (False,)):
        tw, th = (card.height, card.width) if turned else (card.width, card.height)
        cw, ch = tw + 2 * bleed, th + 2 * bleed
        for cols, rows in product(range(_fit(area[2] - area[0], cw, gap), 0, -1), range(_fit(area[3] - area[1], ch, gap), 0, -1)):
            if best is not None and cols * rows <= best[0]:
                continue
            fronts = _slots(area, cols, rows, cw, ch, gap, bleed, tw, th, turned)
            backs = tuple(Slot(s.item, "back", behind(s.bleed_box, W, H, duplex).moved(dx, dy),
                               behind(s.trim_box, W, H, duplex).moved(dx, dy), back_rotation(s.rotation, duplex)) for s in fronts)
            if _clear(fronts, marks, area) and _clear(backs, marks, area):
                best = (cols * rows, cols, rows, turned, fronts, backs)
    if best is None:
        raise UsageError(_does_not_fit(paper, card, cutter, bleed, area))
    _, cols, rows, turned, fronts, backs = best
    sides = tuple(_side(kind, slots, marks, paper) for kind, slots in (("front", fronts), ("back", backs)))
    return SheetLayout(paper, card, bleed, gap, "print-and-cut", duplex, tuple(back_offset), cols, rows, sides, turned, cutter)


def _fit(avail: float, cell: float, gap: float) -> int:
    return max(0, int((avail + gap + 1e-9) // (cell + gap)))


def _slots(area, cols, rows, cw, ch, gap, bleed, tw, th, turned) -> tuple[Slot, ...]:
    """A grid of cols × rows cells centred in `area` (mm), in reading order."""
    gw, gh = cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap
    x0, top = (area[0] + area[2] - gw) / 2, (area[1] + area[3] + gh) / 2
    out = []
    for r in range(rows):
        for c in range(cols):
            x, y = x0 + c * (cw + gap), top - (r + 1) * ch - r * gap
            cell = Rect(x * MM, y * MM, cw * MM, ch * MM)
            trim = Rect((x + bleed) * MM, (y + bleed) * MM, tw * MM, th * MM)
            out.append(Slot(len(out), "front", cell, trim, 90 if turned else 0))
    return tuple(out)


def _clear(slots, marks: MarkSet, area) -> bool:
    """Every card within the print area and out of every exclusion zone (a touch is allowed)."""
    eps = 1e-6
    a = Rect(area[0] * MM, area[1] * MM, (area[2] - area[0]) * MM, (area[3] - area[1]) * MM)
    for s in slots:
        b = s.bleed_box
        if b.x < a.x - eps or b.y < a.y - eps or b.x1 > a.x1 + eps or b.y1 > a.y1 + eps:
            return False
        if any(b.inset(eps).overlaps(z) for z in marks.zones):
            return False
    return True


def _side(kind: str, slots, marks: MarkSet, paper: Paper) -> Side:
    """A printed side: its cards, its marks, and note space clear of both (inside the marks'
    frame, since the software hatches what lies outside it)."""
    W, H = paper.size
    frame = marks.frame or Rect(0.0, 0.0, W, H)
    ox, oy = frame.x, frame.y
    cards = union_of([s.bleed_box for s in slots]).moved(-ox, -oy)
    edge = max(NOTE_EDGE * MM, PRINTABLE_MARGIN * MM - min(ox, oy))  # the note stays inside the printable area too
    notes = note_slots(frame.w, frame.h, (), (), cards, edge, [z.moved(-ox, -oy) for z in marks.zones])
    notes = tuple(NoteSlot(n.box.moved(ox, oy), n.vertical) for n in notes)
    return Side(kind, W, H, slots, (), (), notes, inks=marks.inks, keep_out=marks.zones)


def _does_not_fit(paper: Paper, card: CardSize, cutter, bleed: float, area) -> str:
    need_w, need_h = card.width + 2 * bleed, card.height + 2 * bleed
    aw, ah = area[2] - area[0], area[3] - area[1]
    with_bleed = f" with {fmt_mm(bleed)} mm bleed" if bleed else ""
    clear = " clear of the registration marks' zones" if cutter.marks is not None else ""
    limit = ""
    if cutter.area is not None and (abs(aw - cutter.area[0]) < 1e-6 or abs(ah - cutter.area[1]) < 1e-6):  # the software's limit
        limit = f"{_inches(cutter.area)}, the largest {'image' if cutter.uploads else 'print'} {cutter.software} takes; "
    return (f"{card} cards{with_bleed} do not fit a {cutter.name} print-and-cut sheet on {paper.name}: 1 card needs "
            f"{_mm2(need_w)} × {_mm2(need_h)} mm{clear}, the print area is {_mm2(aw)} × {_mm2(ah)} mm "
            f"({limit}templates/cutters.yaml, '{cutter.key}')")


def _mm2(value: float) -> str:
    """A length in mm to 0.01 mm, without useless zeros (171.45, 172, 102.5)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _inches(size: tuple[float, float]) -> str:
    """(171.45, 234.95) mm → '6.75 × 9.25 in'."""
    return " × ".join(f"{v / 25.4:.2f}".rstrip("0").rstrip(".") for v in size) + " in"
