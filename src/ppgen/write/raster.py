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

from ..units import px

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

    @classmethod
    def at(cls, width: float, height: float, dpi: float) -> RasterSize:
        """width × height points at `dpi`, each side rounded to whole pixels (half up)."""
        return cls(px(width, dpi), px(height, dpi), dpi)


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


def png_bytes(image, dpi: float | None = None, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """A PIL image as PNG bytes, reproducibly (no timestamp, fixed compression); with `dpi`,
    its resolution in the pHYs chunk, so programs that size pictures by it show it at 1:1.
    A lower `compress_level` encodes faster (a live preview: level 1, twice as fast, 15 % larger)."""
    buffer = io.BytesIO()
    options = {"optimize": False, "compress_level": compress_level}
    if dpi:
        options["dpi"] = (dpi, dpi)
    image.save(buffer, "PNG", **options)
    return buffer.getvalue()


SCREEN_PNG_LEVEL = 1  # pictures to look at: twice as quick to encode as level 6, 15 % larger
JPEG_QUALITY = 90
PICTURE_TYPES = {"png": "image/png", "jpeg": "image/jpeg"}


def picture_bytes(image, dpi: float, kind: str) -> bytes:
    """A picture to look at on a screen: "png" (lossless, zlib level 1) or "jpeg" (quality 90,
    colours not subsampled, so small text stays sharp: encoded six times quicker than the PNG,
    at about half its size — the gallery's thumbnails)."""
    if kind == "png":
        return png_bytes(image, dpi, SCREEN_PNG_LEVEL)
    if kind != "jpeg":
        raise ValueError(f"unknown picture kind {kind!r}")
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=False, dpi=(dpi, dpi))
    return buffer.getvalue()


def render_pictures(pdf_data: bytes, jobs, kind: str = "png") -> list[bytes]:
    """[(page index, RasterSize)] of one PDF, each as a picture of `kind` (what a RasterPool worker does)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_data)
    try:
        return [picture_bytes(render_page(pdf, page, size), size.dpi, kind) for page, size in jobs]
    finally:
        pdf.close()


class RasterPool:
    """Pages of PDFs rasterised in worker processes, so that PDFium (one call at a time in a
    process) and the encoding run on every core while this process goes on drawing.

        pool = RasterPool(2)                           # 0: in this process, one at a time
        future = pool.submit(pdf, [(0, size)], "png")  # concurrent.futures.Future of [picture bytes]
        pool.close()

    Workers are spawned, not forked (safe in a process with threads: a web server's), and
    ignore Ctrl-C: the process that owns the pool stops them."""

    def __init__(self, workers: int):
        import threading

        self.workers = workers
        self.broken = False  # the workers failed: pages are rendered in this process since
        self._pool = None
        self._lock = threading.Lock()  # PDFium in this process (workers == 0)
        if workers > 0:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            from .build import _worker_ignores_sigint

            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_ignores_sigint)

    def submit(self, pdf_data: bytes, jobs, kind: str = "png"):
        from concurrent.futures import Future

        if self._pool is not None:
            from concurrent.futures.process import BrokenProcessPool

            try:
                return self._pool.submit(render_pictures, pdf_data, list(jobs), kind)
            except (BrokenProcessPool, RuntimeError):  # a worker died (or cannot start): go on in this process
                self.broken, self._pool = True, None
        future: Future = Future()
        try:
            with self._lock:
                future.set_result(render_pictures(pdf_data, jobs, kind))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def page_sizes(self, pdf_data: bytes) -> tuple[tuple[float, float], ...]:
        """Each page's width and height in points (read with PDFium in this process)."""
        import pypdfium2 as pdfium

        with self._lock:
            pdf = pdfium.PdfDocument(pdf_data)
            try:
                return tuple(tuple(pdf[i].get_size()) for i in range(len(pdf)))
            finally:
                pdf.close()

    def warm_up(self) -> None:
        """Start the workers now rather than at the first page (spawning takes a moment)."""
        if self._pool is not None:
            for _ in range(self.workers):
                self._pool.submit(int)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


__all__ = ["PICTURE_TYPES", "PNG_COMPRESS_LEVEL", "RasterPool", "RasterSize", "picture_bytes", "png_bytes", "render_page",
           "render_pictures"]
