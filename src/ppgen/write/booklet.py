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
    points; `outline`: the rulebook's OutlineEntry list (1-based page numbers). Each page goes
    onto its sheet as a form XObject holding its content stream as it is (nothing re-parsed)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    reader = PdfReader(io.BytesIO(pages_pdf))
    count = len(reader.pages)
    width, height = sheet_size
    writer = PdfWriter()
    side_of: dict[int, int] = {}  # page number -> index of the sheet side it is printed on
    for index, pair in enumerate(booklet_sides(count)):
        sheet = writer.add_blank_page(width, height)
        forms, drawing = DictionaryObject(), []
        for slot, number in enumerate(pair):
            side_of[number] = index
            if number <= count:  # the padding pages stay blank
                name = NameObject(f"/Page{number}")
                forms[name] = writer._add_object(_page_form(reader.pages[number - 1], writer))
                drawing.append(f"q 1 0 0 1 {slot * width / 2:.4f} 0 cm {name} Do Q")
        if drawing:
            content = DecodedStreamObject()
            content.set_data("\n".join(drawing).encode())
            sheet[NameObject("/Contents")] = writer._add_object(content.flate_encode())
            sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): forms})
    parents: dict[int, object] = {}
    for entry in outline:
        parent = parents.get(entry.level - 1)
        parents[entry.level] = writer.add_outline_item(title=entry.title, page_number=side_of[entry.page], parent=parent)
    return finished_pdf(writer, title, lang, "DuplexFlipShortEdge", pages_pdf)


def _page_form(page, writer):
    """A page of the reader as a form XObject of the writer: its content stream kept encoded, its
    resources cloned (objects the pages share, such as fonts, are cloned once)."""
    from pypdf.generic import ArrayObject, NameObject, StreamObject

    contents = page["/Contents"].get_object()
    if isinstance(contents, ArrayObject):  # several streams: joined (ReportLab writes one)
        joined = StreamObject()
        joined.set_data(b"\n".join(part.get_object().get_data() for part in contents))
        contents = joined.flate_encode()
    form = StreamObject()
    form._data = contents._data
    if "/Filter" in contents:
        form[NameObject("/Filter")] = contents["/Filter"]
    form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                 NameObject("/BBox"): ArrayObject(page.mediabox),
                 NameObject("/Resources"): page["/Resources"].clone(writer)})
    return form
