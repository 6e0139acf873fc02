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
from .pdf import Document, fit_size, text_line

MARK_WIDTH = 0.3  # pt: crop marks, thin and black
NOTE_MAX_PT = 7.0
NOTE_MIN_PT = 4.5
NOTE_GREY = 0.35


@dataclass(frozen=True)
class SheetText:
    """Words printed on every sheet, in the build's language."""

    chain: object  # FontChain
    print_note: str  # "Print at 100 % (actual size)…"
    fold_note: str = ""  # fold-over layout: how to fold


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
        draw_note(doc.canvas, side.note_slots, note, text.chain, report, lang)
        if side.fold_slots and text.fold_note:
            draw_note(doc.canvas, side.fold_slots, text.fold_note, text.chain, report, lang, "sheet.fold-note")
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


def draw_note(c, slots, text: str, chain, report=None, lang: str = "", key: str = "sheet.print-note") -> None:
    """One line of small grey text in the margin slot that lets it be largest."""
    if not slots:
        if report is not None:
            report.warning("sheet", "no free margin to print this note in", lang=lang, key=key)
        return
    check_glyphs(chain, text, report, lang, key)
    slot, size = best_note_slot(slots, chain.width(text, 1.0), NOTE_MAX_PT, NOTE_MIN_PT)
    if size < NOTE_MIN_PT:
        if report is not None:
            report.warning("sheet", f"fits the margin only at {size:.1f} pt; printed at {NOTE_MIN_PT:g} pt", lang=lang, key=key)
        size = NOTE_MIN_PT
    box = slot.box
    c.saveState()
    c.setFillGray(NOTE_GREY)
    baseline = size * 0.3  # centres the line's x-height in its slot
    if slot.vertical:
        c.translate(box.x + box.w / 2 + baseline, box.y + box.h / 2)
        c.rotate(90)
        text_line(c, chain, text, 0, 0, size, "middle")
    else:
        text_line(c, chain, text, box.x + box.w / 2, box.y + box.h / 2 - baseline, size, "middle")
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


def draw_calibration(doc: Document, cal: CalibrationSheet, words: CalibrationText, body, bold, report=None, lang: str = "") -> None:
    """The front (numbered boxes, instructions, a 100 mm line) and the back (the boxes' other lines)."""
    W, H = cal.paper.size
    c = doc.canvas
    # front
    doc.begin_page(W, H)
    box = cal.text_box
    y = box.y1 - 8 * MM
    size = _fitted(bold, words.title, box.w, 16, 10, report, lang, "calibrate.title")
    text_line(c, bold, words.title, box.x, y, size)
    y -= 10 * MM
    for i, step in enumerate(words.steps):
        size = _fitted(body, step, box.w, 10, 6.5, report, lang, f"calibrate.step{i + 1}")
        text_line(c, body, step, box.x, y, size)
        y -= 7 * MM
    c.setFillGray(0.35)
    text_line(c, body, words.settings, box.x, y - 2 * MM, _fitted(body, words.settings, box.w, 8, 5, report, lang, "calibrate.settings"))
    c.setFillGray(0)
    text_line(c, bold, words.scale_x, cal.x_caption_at[0], cal.x_caption_at[1], 12, "middle")
    text_line(c, bold, words.scale_y, cal.y_caption_at[0], cal.y_caption_at[1], 12, "middle")
    for box in cal.boxes:
        c.setStrokeGray(0.6)
        c.setLineWidth(0.3)
        c.rect(box.box.x, box.box.y, box.box.w, box.box.h, stroke=1, fill=0)
        c.setStrokeGray(0)
        c.setLineWidth(0.5)
        c.line(box.front.x0, box.front.y0, box.front.x1, box.front.y1)
        anchor = "middle" if box.axis == "x" else "start"
        text_line(c, bold if box.value == 0 else body, box.label, box.label_at[0], box.label_at[1], 8, anchor)
    r = cal.hundred_mm
    c.setLineWidth(0.5)
    c.line(r.x0, r.y0, r.x1, r.y1)
    for x in (r.x0, r.x1):
        c.line(x, r.y0 - 2 * MM, x, r.y0 + 2 * MM)
    text_line(c, body, words.ruler, (r.x0 + r.x1) / 2, r.y0 + 1.5 * MM, 8, "middle")
    doc.end_page()
    # back
    doc.begin_page(W, H)
    c.setStrokeGray(0)
    c.setLineWidth(0.5)
    for box in cal.boxes:
        c.line(box.back.x0, box.back.y0, box.back.x1, box.back.y1)
    c.setFillGray(0.35)
    size = _fitted(body, words.back, W - 40 * MM, 8, 5, report, lang, "calibrate.back")
    text_line(c, body, words.back, cal.back_text_at[0], cal.back_text_at[1], size, "middle")
    doc.end_page()


def _fitted(chain, text: str, width: float, size: float, min_size: float, report, lang: str, key: str) -> float:
    fitted = fit_size(chain, text, width, size, min_size)
    if report is not None and chain.width(text, fitted) > width:
        report.warning("overflow", f"does not fit the page width even at {min_size:g} pt", lang=lang, key=key)
    check_glyphs(chain, text, report, lang, key)
    return fitted


def check_glyphs(chain, text: str, report, lang: str, key: str) -> None:
    """Report characters of `text` that no font of the chain can draw (they would print as boxes)."""
    missing = chain.missing(text)
    if missing and report is not None:
        report.warning("missing-glyph", f"no font can draw {' '.join(missing)}", lang=lang, key=key)


def offset_text(offset: tuple[float, float]) -> tuple[str, str]:
    """The back offset as the user types it: "1.5", "-0.5"."""
    return tuple(("-" if v < 0 else "") + fmt_mm(abs(v)) for v in offset)
