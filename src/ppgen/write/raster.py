"""The one rendering path: a page of a PDF the build drew, rasterised by PDFium (pypdfium2).

Nothing here draws: pages come from the build's own PDFs, so a picture is exactly what
the PDF shows. `render_page` maps the whole page, or a rectangle of it, onto a bitmap of
an exact pixel size; `png_bytes` encodes it reproducibly (no timestamp or text chunk, a
fixed compression level, the resolution in pHYs). `export/` (card pictures) and the
print-and-cut upload images (write/upload.py) both use these two.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

PNG_COMPRESS_LEVEL = 6  # zlib level: fixed, so the same pixels always give the same bytes


@dataclass(frozen=True)
class RasterSize:
    """The pixel size a page (or a rectangle of it) is rendered at, and the resolution written into its PNG."""

    width: int
    height: int
    dpi: float

    @property
    def pixels(self) -> tuple[int, int]:
        return (self.width, self.height)


def render_page(pdf, index: int, size: RasterSize, area: tuple[float, float, float, float] | None = None):
    """Page `index` of an open pypdfium2 document as an RGB PIL image of exactly `size` pixels:
    the whole page stretched onto it, or `area` (x, y, w, h in points, y up from the page's
    bottom-left corner) mapped onto it, what lies outside cut off."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    w, h = size.pixels
    page = pdf[index]
    try:
        page_w, page_h = page.get_size()
        x, y, aw, ah = area if area is not None else (0.0, 0.0, page_w, page_h)
        bitmap = pdfium.PdfBitmap.new_native(w, h, pdfium_c.FPDFBitmap_BGR)
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, w, h)
        # PDFium first maps the page onto page-sized device space, y down from the top-left
        # corner; this matrix then scales that to exactly w × h pixels for `area` and moves
        # the area's top-left corner to (0, 0), fractions of a pixel included (a scale
        # factor and integer offsets, as FPDF_RenderPageBitmap takes, would round them).
        sx, sy = w / aw, h / ah
        matrix = pdfium_c.FS_MATRIX(sx, 0, 0, sy, -x * sx, -(page_h - (y + ah)) * sy)
        clip = pdfium_c.FS_RECTF(0, 0, w, h)
        pdfium_c.FPDF_RenderPageBitmapWithMatrix(bitmap, page, ctypes.byref(matrix), ctypes.byref(clip), pdfium_c.FPDF_ANNOT)
        return bitmap.to_pil().convert("RGB")
    finally:
        page.close()


def png_bytes(image, dpi: float | None = None) -> bytes:
    """A PIL image as PNG bytes, reproducibly (no timestamp, fixed compression); with `dpi`,
    its resolution in the pHYs chunk, so programs that size pictures by it show it at 1:1."""
    buffer = io.BytesIO()
    options = {"optimize": False, "compress_level": PNG_COMPRESS_LEVEL}
    if dpi:
        options["dpi"] = (dpi, dpi)
    image.save(buffer, "PNG", **options)
    return buffer.getvalue()


__all__ = ["PNG_COMPRESS_LEVEL", "RasterSize", "png_bytes", "render_page"]
