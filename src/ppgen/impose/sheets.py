"""Drawing imposed sheets: faces in their slots, crop marks, fold lines, the print note.

Geometry comes from `layout` and `marks`; faces from `draw.faces` (or any object
with `.key` and `.draw(canvas)`); the document is a `write.pdf.Document` (or any
object with its `define_face`/`begin_page`/`place_form`/`end_page`). Nothing here
knows what a card says.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..typeset.text import Style, draw, draw_line, fit, one_line
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
    line_break: str = "words"  # the language's line breaking, for a note that needs two lines
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
    """Draw every page: `fronts[i]` is the face of print-run item i, `back` the common back — or,
    a sequence, `back[i]` the back of item i (a quick-reference card has a back of its own).

    `size` is the faces' drawing size in points (the bleed box); backs spread past the cards'
    edge (`Slot.reach`, layout.spread_backs) must be drawn that much larger (draw.faces.CardGeometry's
    bleed). Each face is recorded once as a form and placed for every copy.
    """
    width, height = size

    def face_of(item, slot):
        if slot.face == "front":
            return fronts[item]
        return back[item] if isinstance(back, Sequence) else back

    for n, page in enumerate(pages, 1):
        placements = page.placements()
        for item, slot in placements:  # a spread back (layout.spread_backs) is drawn slot.reach larger all round
            doc.define_face(face_of(item, slot), width + 2 * slot.reach, height + 2 * slot.reach)
        side = page.side
        doc.begin_page(side.width, side.height, side.trim_box.box(), side.bleed_box.box())
        for item, slot in placements:
            doc.place_form(face_of(item, slot).key, slot.matrix(), slot.spread and slot.spread.box())
        draw_marks(doc.canvas, side)
        note = text.page_note(page) if text.page_note else f"{text.print_note}   {page.number}/{page.total}"
        draw_note(doc.canvas, side.note_slots, note, text.chain, report, lang, "sheet.print-note", text.where, text.line_break)
        if side.fold_slots and text.fold_note:
            draw_note(doc.canvas, side.fold_slots, text.fold_note, text.chain, report, lang, "sheet.fold-note", text.where,
                      text.line_break)
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


def draw_note(c, slots, text: str, chain, report=None, lang: str = "", key: str = "sheet.print-note", where=str,
              line_break: str = "words") -> None:
    """Small grey text in the margin slot that lets it be largest: on one line when it fits at
    NOTE_MIN_PT or more, else wrapped in the slot where it is largest. Never outside its slot
    (the slots lie in the printable area): a note that fits nowhere is cut at its slot, and reported."""
    if not slots:
        if report is not None:
            report.warning("sheet", "no free margin to print this note in", lang=lang, key=key)
        return
    lay = one_line(text, sheet_style(chain, NOTE_MAX_PT, NOTE_GREY_HEX), where=where(key))
    slot, size = best_note_slot(slots, lay.width / lay.size, NOTE_MAX_PT, NOTE_MIN_PT)
    if size < NOTE_MIN_PT:
        slot, block = _wrapped_note(slots, text, chain, line_break, where(key))
        if not block.fits and report is not None:
            report.warning("sheet", f"does not fit the margin even at {NOTE_MIN_PT:g} pt; cut off at its edge", lang=lang, key=key)
        box = slot.box
        c.saveState()
        if slot.vertical:  # the block's own box, turned to read bottom to top
            c.translate(box.x + box.w, box.y)
            c.rotate(90)
        else:
            c.translate(box.x, box.y)
        draw(c, block, 0, 0)
        c.restoreState()
        return
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


def _wrapped_note(slots, text: str, chain, line_break: str, where: str):
    """(slot, layout) of a note set as a block: the slot where it fits largest (a horizontal one
    wins unless a vertical one allows 1 pt more); when it fits none, the largest slot, at the
    minimum size (drawing clips it to the slot)."""
    style = Style(chain, chain, NOTE_MAX_PT, NOTE_MIN_PT, leading=1.15, line_break=line_break, align="center",
                  valign="middle", colour=NOTE_GREY_HEX)
    best = None
    for slot in slots:
        length, depth = (slot.box.h, slot.box.w) if slot.vertical else (slot.box.w, slot.box.h)
        lay = fit(text, style, length, depth, where=where)
        score = (lay.fits, lay.size - (1.0 if slot.vertical else 0.0) if lay.fits else length * depth)
        if best is None or score > best[0]:
            best = (score, slot, lay)
    return best[1], best[2]


def sheet_style(chain, size: float, colour: str = "#000000", min_size: float | None = None) -> Style:
    return Style(chain, chain, size, min_size, colour=colour)
