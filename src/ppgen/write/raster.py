"""The one rendering path: a page of a PDF the build drew, rasterised by PDFium (pypdfium2).

Nothing here draws: pages come from the build's own PDFs, so a picture is exactly what
the PDF shows. `render_page` maps the whole page, or a rectangle of it, onto a bitmap of
an exact pixel size; `png_bytes` encodes it reproducibly (no timestamp or text chunk, a
fixed compression level, the resolution in pHYs). `export/` (card pictures) and the
print-and-cut upload images (write/upload.py) both use these two.
"""
from __future__ import annotations

import io
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from ..units import px
from .signals import signals_blocked, worker_ignores_sigint

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


def render_page(pdf, index: int, size: RasterSize, area: tuple[float, float, float, float] | None = None, under: bytes | None = None):
    """Page `index` of an open pypdfium2 document as an RGB PIL image of exactly `size` pixels:
    the whole page stretched onto it, or `area` (x, y, w, h in points, y up from the page's
    bottom-left corner) mapped onto it, what lies outside cut off. `under`: the pixels it is
    painted over (a bitmap of this size, `bitmap_bytes`), instead of white paper."""
    return _render(pdf, index, size, area, under).to_pil().convert("RGB")


def bitmap_bytes(pdf, index: int, size: RasterSize) -> bytes:
    """Page `index` rasterised at `size`, as the bitmap's own bytes (to paint another page over: `under`)."""
    return bytes(_render(pdf, index, size).buffer)


def _render(pdf, index: int, size: RasterSize, area=None, under: bytes | None = None):
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    w, h = size.pixels
    page = pdf[index]
    try:
        page_w, page_h = page.get_size()
        x, y, aw, ah = area if area is not None else (0.0, 0.0, page_w, page_h)
        bitmap = pdfium.PdfBitmap.new_native(w, h, pdfium_c.FPDFBitmap_BGR)
        if under is None:
            bitmap.fill_rect((255, 255, 255, 255), 0, 0, w, h)
        else:
            ctypes.memmove(bitmap.buffer, under, len(under))
        # PDFium first maps the page onto page-sized device space, y down from the top-left
        # corner; this matrix then scales that to exactly w × h pixels for `area` and moves
        # the area's top-left corner to (0, 0), fractions of a pixel included (a scale
        # factor and integer offsets, as FPDF_RenderPageBitmap takes, would round them).
        sx, sy = w / aw, h / ah
        matrix = pdfium_c.FS_MATRIX(sx, 0, 0, sy, -x * sx, -(page_h - (y + ah)) * sy)
        clip = pdfium_c.FS_RECTF(0, 0, w, h)
        pdfium_c.FPDF_RenderPageBitmapWithMatrix(bitmap, page, ctypes.byref(matrix), ctypes.byref(clip), pdfium_c.FPDF_ANNOT)
        return bitmap
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
    """[(page index, RasterSize)] or [(page index, RasterSize, underlay)] of one PDF, each as a
    picture of `kind` (what a RasterPool worker does). An underlay, (its page, its digest)
    (write/faces.py picture_pdf), is rasterised once per digest and size in a process and
    the page painted over it."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_data)
    try:
        out = []
        for page, size, *underlay in jobs:
            under = _underlay(pdf, *underlay[0], size) if underlay and underlay[0] else None
            out.append(picture_bytes(render_page(pdf, page, size, under=under), size.dpi, kind))
        return out
    finally:
        pdf.close()


UNDERLAY_BYTES = 96 * 2**20  # underlays kept rasterised in a process (35 distinct in the game's 141 cards)
_UNDERLAYS: "OrderedDict[tuple, bytes]" = OrderedDict()
_UNDERLAYS_LOCK = threading.Lock()


def _underlay(pdf, page: int, digest: str, size: RasterSize) -> bytes:
    """The pixels of underlay `digest` at `size`: rasterised from `page` the first time."""
    key = (digest, size.pixels)
    with _UNDERLAYS_LOCK:
        found = _UNDERLAYS.get(key)
        if found is not None:
            _UNDERLAYS.move_to_end(key)
            return found
    found = bitmap_bytes(pdf, page, size)
    with _UNDERLAYS_LOCK:
        _UNDERLAYS[key] = found
        while sum(len(v) for v in _UNDERLAYS.values()) > UNDERLAY_BYTES and len(_UNDERLAYS) > 1:
            _UNDERLAYS.popitem(last=False)
    return found


def _worker_starts(owner: int) -> None:
    """A RasterPool's worker: Ctrl-C is for its owner to handle, and it ends when its owner is
    gone — killed, or ended without stopping it — instead of waiting for work for ever (a
    forked worker holds the whole game in memory)."""
    worker_ignores_sigint()
    threading.Thread(target=_end_with, args=(owner,), name="ppgen-owner-watch", daemon=True).start()


def _end_with(owner: int) -> None:
    while os.getppid() == owner:
        time.sleep(OWNER_CHECK_SECONDS)
    os._exit(0)


OWNER_CHECK_SECONDS = 0.5
PDFIUM = threading.Lock()  # PDFium draws one page at a time in a process: the threads of this one take turns


def page_sizes(pdf_data: bytes) -> tuple[tuple[float, float], ...]:
    """Each page's width and height in points."""
    import pypdfium2 as pdfium

    with PDFIUM:
        pdf = pdfium.PdfDocument(pdf_data)
        try:
            return tuple(tuple(pdf[i].get_size()) for i in range(len(pdf)))
        finally:
            pdf.close()


class RasterPool:
    """Pages of PDFs rasterised in worker processes, so that PDFium (one call at a time in a
    process) and the encoding run on every core while this process goes on drawing.

        pool = RasterPool(2)                           # 0: in this process, one at a time
        future = pool.submit(pdf, [(0, size)], "png")  # concurrent.futures.Future of [picture bytes]
        future = pool.run(function, *args)             # any work, in a worker (forked pools: what they inherited)
        pool.close()

    `fork`: the workers are forked (where the system can) when `start` is called, and inherit
    everything this process has loaded by then — a live session lays card faces out in them
    too (write/session.py); call `start` before this process starts any thread (a thread
    holding a lock when the process forks leaves that lock held for ever in the child).
    Otherwise they are spawned: a fresh interpreter, safe at any time, that only rasterises.
    Workers ignore Ctrl-C: the process that owns the pool stops them."""

    def __init__(self, workers: int, fork: bool = False):
        self.workers = workers
        self.broken = False  # the workers failed: pages are rendered in this process since
        self.forked = False  # the workers were forked: they hold what this process had loaded
        self._pool = None
        if workers > 0:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            method = "fork" if fork and "fork" in multiprocessing.get_all_start_methods() else "spawn"
            self.forked = method == "fork"
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method), initializer=_worker_starts,
                                             initargs=(os.getpid(),))

    def submit(self, pdf_data: bytes, jobs, kind: str = "png"):
        return self.run(render_pictures, pdf_data, list(jobs), kind)

    def run(self, function, *args):
        """`function(*args)` in a worker (in this process when there is none, or the workers died)."""
        from concurrent.futures import Future

        if self._pool is not None:
            from concurrent.futures.process import BrokenProcessPool

            try:
                with signals_blocked():  # a submit may fork the workers: no Ctrl-C lost in the fork (write/signals.py)
                    return self._pool.submit(function, *args)
            except (BrokenProcessPool, RuntimeError):  # a worker died (or cannot start): go on in this process
                self.broken, self.forked, self._pool = True, False, None
        future: Future = Future()
        try:
            with PDFIUM:
                future.set_result(function(*args))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def start(self) -> None:
        """Start the workers now rather than at the first page (spawning takes a moment; a
        forked pool forks here)."""
        if self._pool is not None:
            for _ in range(self.workers):
                self.run(int)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


__all__ = ["PDFIUM", "PICTURE_TYPES", "PNG_COMPRESS_LEVEL", "RasterPool", "RasterSize", "bitmap_bytes", "page_sizes", "picture_bytes",
           "png_bytes", "render_page", "render_pictures"]
