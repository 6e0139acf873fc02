"""Drawing imposed sheets: faces in their slots, crop marks, fold lines, the print note;
and the duplex calibration page.

Geometry comes from `impose`; faces from `draw.faces` (or any object with
`.key` and `.draw(canvas)`); the PDF plumbing from `pdf`. Nothing here knows
what a card says.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from .impose import MM, CalibrationSheet, Page, Side, best_note_slot, fmt_mm
from .pdf import Document
from .text import Style, draw_line, one_line

MARK_WIDTH = 0.3  # pt: crop marks, thin and black
NOTE_MAX_PT = 7.0
NOTE_MIN_PT = 4.5
GREY_HEX = "#595959"  # 35 % black: notes and settings lines
NOTE_GREY_HEX = GREY_HEX


@dataclass(frozen=True)
class SheetText:
    """Words printed on every sheet, in the build's language."""

    chain: object  # FontChain
    print_note: str  # "Print at 100 % (actual size)…"
    fold_note: str = ""  # fold-over layout: how to fold
    where: Callable[[str], str] = str  # key → "locales/ja.yaml:12:3 key", for error messages (Locale.where)


def draw_pages(
    doc: Document,
    pages: Sequence[Page],
    fronts: Sequence,
    back,
    size: tuple[float, float],
    text: SheetText,
    report=None,
    lang: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Draw every page: `fronts[i]` is the face of print-run item i, `back` the common back.

    `size` is the faces' drawing size in points (the bleed box). Each face is
    recorded once as a form and placed for every copy.
    """
    width, height = size
    for n, page in enumerate(pages, 1):
        placements = page.placements()
        for item, slot in placements:
            face = fronts[item] if slot.face == "front" else back
            doc.define_face(face, width, height)
        side = page.side
        doc.begin_page(side.width, side.height, side.trim_box.box(), side.bleed_box.box())
        for item, slot in placements:
            face = fronts[item] if slot.face == "front" else back
            doc.place_form(face.key, slot.matrix())
        draw_marks(doc.canvas, side)
        note = f"{text.print_note}   {page.number}/{page.total}"
        draw_note(doc.canvas, side.note_slots, note, text.chain, report, lang, "sheet.print-note", text.where)
        if side.fold_slots and text.fold_note:
            draw_note(doc.canvas, side.fold_slots, text.fold_note, text.chain, report, lang, "sheet.fold-note", text.where)
        doc.end_page()
        if progress:
            progress(n, len(pages))


def draw_marks(c, side: Side) -> None:
    """Crop marks (solid, black) and fold lines (dashed, grey)."""
    if side.marks:
        c.saveState()
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(MARK_WIDTH)
        c.setLineCap(0)
        for m in side.marks:
            c.line(m.x0, m.y0, m.x1, m.y1)
        c.restoreState()
    if side.folds:
        c.saveState()
        c.setStrokeColorRGB(0.45, 0.45, 0.45)
        c.setLineWidth(0.5)
        c.setDash(4, 3)
        for f in side.folds:
            c.line(f.x0, f.y0, f.x1, f.y1)
        c.restoreState()


def draw_note(c, slots, text: str, chain, report=None, lang: str = "", key: str = "sheet.print-note", where=str) -> None:
    """One line of small grey text in the margin slot that lets it be largest."""
    if not slots:
        if report is not None:
            report.warning("sheet", "no free margin to print this note in", lang=lang, key=key)
        return
    lay = one_line(text, _style(chain, NOTE_MAX_PT, NOTE_GREY_HEX), where=where(key))
    slot, size = best_note_slot(slots, lay.width / lay.size, NOTE_MAX_PT, NOTE_MIN_PT)
    if size < NOTE_MIN_PT:
        if report is not None:
            report.warning("sheet", f"fits the margin only at {size:.1f} pt; printed at {NOTE_MIN_PT:g} pt", lang=lang, key=key)
        size = NOTE_MIN_PT
    lay = one_line(text, _style(chain, size, NOTE_GREY_HEX), where=where(key))
    box = slot.box
    c.saveState()
    baseline = size * 0.3  # centres the line's x-height in its slot
    if slot.vertical:
        c.translate(box.x + box.w / 2 + baseline, box.y + box.h / 2)
        c.rotate(90)
        draw_line(c, lay, 0, 0, "middle")
    else:
        draw_line(c, lay, box.x + box.w / 2, box.y + box.h / 2 - baseline, "middle")
    c.restoreState()


# ── the calibration page ─────────────────────────────────────────────────────
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


def draw_calibration(doc: Document, cal: CalibrationSheet, words: CalibrationText, body, bold, report=None, lang: str = "") -> None:
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
    draw_line(c, one_line(words.scale_x, _style(bold, 12), where=words.where("calibrate.scale-x")), *cal.x_caption_at, "middle")
    draw_line(c, one_line(words.scale_y, _style(bold, 12), where=words.where("calibrate.scale-y")), *cal.y_caption_at, "middle")
    for box in cal.boxes:
        c.setStrokeGray(0.6)
        c.setLineWidth(0.3)
        c.rect(box.box.x, box.box.y, box.box.w, box.box.h, stroke=1, fill=0)
        c.setStrokeGray(0)
        c.setLineWidth(0.5)
        c.line(box.front.x0, box.front.y0, box.front.x1, box.front.y1)
        anchor = "middle" if box.axis == "x" else "start"
        label = one_line(box.label, _style(bold if box.value == 0 else body, 8), where="calibration box")
        draw_line(c, label, *box.label_at, anchor)
    r = cal.hundred_mm
    c.setLineWidth(0.5)
    c.line(r.x0, r.y0, r.x1, r.y1)
    for x in (r.x0, r.x1):
        c.line(x, r.y0 - 2 * MM, x, r.y0 + 2 * MM)
    draw_line(c, one_line(words.ruler, _style(body, 8), where=words.where("calibrate.ruler")), (r.x0 + r.x1) / 2, r.y0 + 1.5 * MM, "middle")
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


def _style(chain, size: float, colour: str = "#000000", min_size: float | None = None) -> Style:
    return Style(chain, chain, size, min_size, colour=colour)


def _fitted(chain, text: str, width: float, size: float, min_size: float, report, lang: str, key: str,
            colour: str = "#000000", where=str):
    """One line of sheet text at the largest size ≤ `size` that fits `width`; reported when it cannot."""
    lay = one_line(text, _style(chain, size, colour, min_size), width, where=where(key))
    if report is not None and not lay.fits:
        report.warning("overflow", f"does not fit the page width even at {min_size:g} pt", lang=lang, key=key)
    return lay


def offset_text(offset: tuple[float, float]) -> tuple[str, str]:
    """The back offset as the user types it: "1.5", "-0.5"."""
    return tuple(("-" if v < 0 else "") + fmt_mm(abs(v)) for v in offset)
