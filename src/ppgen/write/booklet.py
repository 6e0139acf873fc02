"""The rulebook as a booklet PDF: its small pages, drawn in reading order, placed two-up on
landscape sheets in printing order (impose/booklet.py), at their size (a translation, never
a scale). The folios printed on the pages stay those of the reading order; the outline
points at the sheet side each section starts on. Printed duplex, flipping on the short edge.
"""
from __future__ import annotations

import io

from ..impose.booklet import booklet_sides
from .pdf import finished_pdf


def impose_booklet(pages_pdf: bytes, sheet_size: tuple[float, float], outline, title: str, lang: str) -> bytes:
    """`pages_pdf` (one page per booklet page, reading order) imposed on sheets of `sheet_size`
    points; `outline`: the rulebook's OutlineEntry list (1-based page numbers)."""
    from pypdf import PdfReader, PdfWriter, Transformation

    reader = PdfReader(io.BytesIO(pages_pdf))
    count = len(reader.pages)
    width, height = sheet_size
    writer = PdfWriter()
    side_of: dict[int, int] = {}  # page number -> index of the sheet side it is printed on
    for index, pair in enumerate(booklet_sides(count)):
        sheet = writer.add_blank_page(width, height)
        for slot, number in enumerate(pair):
            side_of[number] = index
            if number <= count:  # the padding pages stay blank
                sheet.merge_transformed_page(reader.pages[number - 1], Transformation().translate(slot * width / 2, 0))
    parents: dict[int, object] = {}
    for entry in outline:
        parent = parents.get(entry.level - 1)
        parents[entry.level] = writer.add_outline_item(title=entry.title, page_number=side_of[entry.page], parent=parent)
    return finished_pdf(writer, title, lang, "DuplexFlipShortEdge", pages_pdf)
