"""Drawing imposed sheets: faces in their slots, crop marks, fold lines, the print note.

Geometry comes from `layout` and `marks`; faces from `draw.faces` (or any object
with `.key` and `.draw(canvas)`); the document is a `write.pdf.Document` (or any
object with its `define_face`/`begin_page`/`place_form`/`end_page`). Nothing here
knows what a card says.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..typeset.text import Style, draw_line, one_line
from .layout import Page, Side
from .marks import best_note_slot

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
    page_note: Callable[[Page], str] | None = None  # the note of one page, instead of print_note + page number


def draw_pages(
    doc,
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
        note = text.page_note(page) if text.page_note else f"{text.print_note}   {page.number}/{page.total}"
        draw_note(doc.canvas, side.note_slots, note, text.chain, report, lang, "sheet.print-note", text.where)
        if side.fold_slots and text.fold_note:
            draw_note(doc.canvas, side.fold_slots, text.fold_note, text.chain, report, lang, "sheet.fold-note", text.where)
        doc.end_page()
        if progress:
            progress(n, len(pages))


def draw_marks(c, side: Side) -> None:
    """Crop marks (solid, black), fold lines (dashed, grey) and a cutting machine's
    registration marks (filled, black)."""
    if side.inks:
        c.saveState()
        c.setFillColorRGB(0, 0, 0)
        for r in side.inks:
            c.rect(r.x, r.y, r.w, r.h, stroke=0, fill=1)
        c.restoreState()
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
    lay = one_line(text, sheet_style(chain, NOTE_MAX_PT, NOTE_GREY_HEX), where=where(key))
    slot, size = best_note_slot(slots, lay.width / lay.size, NOTE_MAX_PT, NOTE_MIN_PT)
    if size < NOTE_MIN_PT:
        if report is not None:
            report.warning("sheet", f"fits the margin only at {size:.1f} pt; printed at {NOTE_MIN_PT:g} pt", lang=lang, key=key)
        size = NOTE_MIN_PT
    lay = one_line(text, sheet_style(chain, size, NOTE_GREY_HEX), where=where(key))
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


def sheet_style(chain, size: float, colour: str = "#000000", min_size: float | None = None) -> Style:
    return Style(chain, chain, size, min_size, colour=colour)
