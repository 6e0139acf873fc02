"""The duplex calibration page: numbered alignment boxes whose front and back lines
meet at the back offset a printer needs (`ppgen calibrate`), its geometry and its drawing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..typeset.text import draw_line, one_line
from ..units import MM, Paper, fmt_mm
from .geometry import Rect, Segment
from .layout import behind
from .sheets import GREY_HEX, sheet_style

CAL_RANGE = 5.0  # mm: the largest back offset the test page reads directly, either way
CAL_STEP = 0.5  # mm between the values of neighbouring boxes
CAL_PER_LINE = 7  # boxes per row (X) or per column (Y)
CAL_PITCH = 11.0  # mm between neighbouring boxes: more than 2 × CAL_RANGE, so a back line
#                  can never line up with a neighbouring box's front line
CAL_BOX = (10.0, 20.0)  # mm: an X box (Y boxes are turned)
CAL_SEG = 8.0  # mm: each line in a box


# ── geometry ─────────────────────────────────────────────────────────────────
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


# ── drawing ──────────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class CalibrationText:
    title: str
    steps: tuple[str, ...]
    settings: str
    scale_x: str
    scale_y: str
    ruler: str
    back: str
    where: Callable[[str], str] = str  # key → "locales/ja.yaml:12:3 key" (Locale.where)


def draw_calibration(doc, cal: CalibrationSheet, words: CalibrationText, body, bold, report=None, lang: str = "") -> None:
    """The front (numbered boxes, instructions, a 100 mm line) and the back (the boxes' other lines)."""
    W, H = cal.paper.size
    c = doc.canvas
    # front
    doc.begin_page(W, H)
    box = cal.text_box
    y = box.y1 - 8 * MM
    draw_line(c, _fitted(bold, words.title, box.w, 16, 10, report, lang, "calibrate.title", where=words.where), box.x, y)
    y -= 10 * MM
    for i, step in enumerate(words.steps):
        draw_line(c, _fitted(body, step, box.w, 10, 6.5, report, lang, f"calibrate.step{i + 1}", where=words.where), box.x, y)
        y -= 7 * MM
    draw_line(c, _fitted(body, words.settings, box.w, 8, 5, report, lang, "calibrate.settings", GREY_HEX, words.where), box.x, y - 2 * MM)
    draw_line(c, one_line(words.scale_x, sheet_style(bold, 12), where=words.where("calibrate.scale-x")), *cal.x_caption_at, "middle")
    draw_line(c, one_line(words.scale_y, sheet_style(bold, 12), where=words.where("calibrate.scale-y")), *cal.y_caption_at, "middle")
    for box in cal.boxes:
        c.setStrokeGray(0.6)
        c.setLineWidth(0.3)
        c.rect(box.box.x, box.box.y, box.box.w, box.box.h, stroke=1, fill=0)
        c.setStrokeGray(0)
        c.setLineWidth(0.5)
        c.line(box.front.x0, box.front.y0, box.front.x1, box.front.y1)
        anchor = "middle" if box.axis == "x" else "start"
        label = one_line(box.label, sheet_style(bold if box.value == 0 else body, 8), where="calibration box")
        draw_line(c, label, *box.label_at, anchor)
    r = cal.hundred_mm
    c.setLineWidth(0.5)
    c.line(r.x0, r.y0, r.x1, r.y1)
    for x in (r.x0, r.x1):
        c.line(x, r.y0 - 2 * MM, x, r.y0 + 2 * MM)
    draw_line(c, one_line(words.ruler, sheet_style(body, 8), where=words.where("calibrate.ruler")), (r.x0 + r.x1) / 2, r.y0 + 1.5 * MM, "middle")
    doc.end_page()
    # back
    doc.begin_page(W, H)
    c.setStrokeGray(0)
    c.setLineWidth(0.5)
    for box in cal.boxes:
        c.line(box.back.x0, box.back.y0, box.back.x1, box.back.y1)
    back = _fitted(body, words.back, W - 40 * MM, 8, 5, report, lang, "calibrate.back", GREY_HEX, words.where)
    draw_line(c, back, *cal.back_text_at, "middle")
    doc.end_page()


def _fitted(chain, text: str, width: float, size: float, min_size: float, report, lang: str, key: str,
            colour: str = "#000000", where=str):
    """One line of sheet text at the largest size ≤ `size` that fits `width`; reported when it cannot."""
    lay = one_line(text, sheet_style(chain, size, colour, min_size), width, where=where(key))
    if report is not None and not lay.fits:
        report.warning("overflow", f"does not fit the page width even at {min_size:g} pt", lang=lang, key=key)
    return lay


def offset_text(offset: tuple[float, float]) -> tuple[str, str]:
    """The back offset as the user types it: "1.5", "-0.5"."""
    return tuple(("-" if v < 0 else "") + fmt_mm(abs(v)) for v in offset)
