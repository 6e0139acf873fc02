"""Crop marks, and the free margin space where a sheet's notes may go.

Marks sit in the margin at both ends of every cut line and never cross a card;
notes go where no mark or fold line is. Both stay inside the printable area:
nothing is drawn within the printable margin (5 mm by default, ppgen.yaml
`build.printable_margin`) of the paper edge, where home printers print nothing.
The grid (`layout.py`) leaves room for a mark of at least MARK_MIN there at
each end of every cut line. Lengths in mm as constants, geometry in points.
"""
from __future__ import annotations

from ..units import MM
from .geometry import NoteSlot, Rect, Segment, union_of

MARK_GAP = 0.5  # mm between the cards' outer bleed edge and the start of a crop mark
MARK_MIN = 2.0  # mm: the shortest crop mark, inside the printable area
MARK_MAX = 6.0  # mm: the longest crop mark (about 1/4 in, as print shops draw them)
MARK_ROOM = MARK_GAP + MARK_MIN  # mm the grid leaves between the cards and the printable area's edge
FOLD_CLEAR = 1.0  # mm: crop marks stop this far from a fold line
NOTE_CLEAR = 1.0  # mm: free space kept around crop marks and fold lines when placing the note


def _unique(values) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > 1e-6:
            out.append(v)
    return out


def cut_lines(trims) -> tuple[list[float], list[float]]:
    """The x of every vertical cut and the y of every horizontal cut (points)."""
    return _unique([t.x for t in trims] + [t.x1 for t in trims]), _unique([t.y for t in trims] + [t.y1 for t in trims])


def crop_marks(trims, cells, bounds: Rect) -> tuple[Segment, ...]:
    """A mark in the margin at both ends of every cut line, never over a card.

    Marks start MARK_GAP outside the outermost bleed edge and run towards the
    edge of `bounds` (the printable area of the page or of a fold-over's half
    page), at most MARK_MAX long; an end with less than MARK_MIN of room gets
    no mark (the grid is planned so that this never happens).
    """
    grid = union_of(list(cells))
    xs, ys = cut_lines(trims)
    gap, longest = MARK_GAP * MM, MARK_MAX * MM
    marks: list[Segment] = []

    def run(start: float, limit: float, direction: int) -> tuple[float, float] | None:
        end = start + direction * longest
        end = min(end, limit) if direction > 0 else max(end, limit)
        return (start, end) if (end - start) * direction >= MARK_MIN * MM - 1e-6 else None

    for x in xs:
        for span in (run(grid.y1 + gap, bounds.y1, 1), run(grid.y - gap, bounds.y, -1)):
            if span:
                marks.append(Segment(x, span[0], x, span[1]))
    for y in ys:
        for span in (run(grid.x - gap, bounds.x, -1), run(grid.x1 + gap, bounds.x1, 1)):
            if span:
                marks.append(Segment(span[0], y, span[1], y))
    return tuple(marks)


def note_slots(width: float, height: float, marks, folds, cards: Rect, edge: float, blocked=()) -> tuple[NoteSlot, ...]:
    """Free stretches of the four margins around `cards`, where the print note may go.

    `edge` (points) is the printable margin: no slot comes nearer the paper edge.
    Per margin: the strip between the printable edge and the outer ends of the
    crop marks (when the marks leave room), then the stretches between the marks
    and fold lines crossing the margin, each kept NOTE_CLEAR away from them.
    `blocked` rectangles (registration marks' zones) are kept clear the same way.
    Bottom and top margins give horizontal slots; left and right give vertical ones.
    """
    clear = NOTE_CLEAR * MM
    lines = [Rect(min(s.x0, s.x1) - clear, min(s.y0, s.y1) - clear, abs(s.x1 - s.x0) + 2 * clear, abs(s.y1 - s.y0) + 2 * clear)
             for s in list(marks) + list(folds)]
    lines += [r.inset(-clear) for r in blocked]
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
