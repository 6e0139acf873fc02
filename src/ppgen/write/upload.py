"""Print-and-cut for software that prints the page itself (Cricut Design Space's Print
Then Cut): per printed side, a picture of the cards to upload and a cut file of its size.

Design Space takes an uploaded picture, prints it with sensor marks of its own around
it and cuts relative to those marks (templates/cutters.yaml says where that comes
from), so ppgen prints no marks for it: it writes, beside the card sheets' PDF (which
is there to look at), for every printed side

    <pdf>-sheet-01-front.png   the side's cards, rasterised from the PDF page itself by
                               the one rendering path (write/raster.py): the rectangle of
                               their bleed boxes in whole pixels (impose.cutter.upload_image),
                               opaque, white between the cards, its dpi in pHYs
    <pdf>-sheet-01-front.svg   every card's outline (true arcs) and the picture's edge,
                               exactly the picture's size in mm (write/cutfile.py)

(and `.dxf` with --cut-file dxf). Backs come on their own, mirrored, as for every
cutter. A back page's picture depends only on which of its slots hold a card (every back
is the same drawing), so it is rendered once per such set. Deterministic: the same sheet
gives the same bytes.
"""
from __future__ import annotations

from ..impose.cutter import upload_image
from .cutfile import filled_side, page_cut_files, sheet_file_suffix
from .raster import RasterSize, png_bytes, render_page


def upload_files(pdf_data: bytes, pages, sides: int, dpi: float, radius: float, formats: tuple[str, ...],
                 title: str, progress=None) -> list[tuple[str, bytes]]:
    """(file-name suffix, bytes) of every page's picture and cut files, in page order;
    `pages` are the pages of `pdf_data`, in order; `progress(n, total)` after each page."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_data)
    try:
        files: list[tuple[str, bytes]] = []
        backs: dict = {}  # (back side, its filled slots) → the picture
        for index, page in enumerate(pages):
            side = filled_side(page)
            image = upload_image(side.slots, dpi)
            key = (page.side, tuple(s.item for s in side.slots))
            picture = backs.get(key) if page.side.kind == "back" else None
            if picture is None:
                box = image.box
                picture = png_bytes(render_page(pdf, index, RasterSize(image.width_px, image.height_px, dpi),
                                                (box.x, box.y, box.w, box.h)), dpi)
                if page.side.kind == "back":
                    backs[key] = picture
            files.append((f"{sheet_file_suffix(page, sides)}.png", picture))
            files.extend(page_cut_files(page, sides, radius, formats, title, image.box))
            if progress:
                progress(index + 1, len(pages))
        return files
    finally:
        pdf.close()
