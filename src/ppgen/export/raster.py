"""Card faces as pictures: drawn into a PDF exactly as the build draws them, then rasterised.

There is one drawing path. A face (`draw.faces.front_face` / `back_face`) is
recorded once as a PDF form, as on the card sheets, and placed alone on a page
the size of its bleed box; PDFium (pypdfium2) renders that page to a bitmap of
an exact pixel size (`write/raster.py`, which the print-and-cut upload images use
too). Nothing here draws a card a second way.

    size = card_raster(geometry, dpi=300)           # pixels: round(inches × dpi), half up
    pdf = faces_pdf(project, faces, geometry, lang)  # bytes: one page per face
    images = render_images(pdf, size)                # PIL RGB images, size.pixels each
    pngs = render_pngs(pdf, size, jobs=2)            # PNG bytes, encoded in worker processes

PNG bytes are reproducible: no timestamp or text chunk, a fixed compression
level, and the resolution (pHYs) of the size rendered at.
"""
from __future__ import annotations

import math
import os
from typing import Callable, Sequence

from ..draw.faces import CardGeometry
from ..units import px  # noqa: F401 — re-exported (tts)
from ..write.raster import PNG_COMPRESS_LEVEL, RasterSize, png_bytes, render_page  # noqa: F401 — the one rendering path, re-exported

MIN_PAGES_PER_WORKER = 8  # below this, a worker process costs more than it saves

Progress = Callable[[int, int], None]


def card_raster(geometry: CardGeometry, dpi: float) -> RasterSize:
    """The bleed box of `geometry` at `dpi`, each side rounded to whole pixels."""
    return RasterSize.at(geometry.width, geometry.height, dpi)


def fitted_raster(geometry: CardGeometry, width: int, height: int) -> RasterSize:
    """A fixed pixel size (a TTS cell), with the resolution it works out to."""
    return RasterSize(width, height, round(width / geometry.width * 72, 2))


# ── rasterising ────────────────────────────────────────────────────────────
def render_images(pdf_data: bytes, size: RasterSize, pages: Sequence[int] | None = None, progress: Progress | None = None) -> list:
    """Every page (or `pages`) of a PDF as a PIL image of `size`."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_data)
    try:
        indices = list(range(len(pdf))) if pages is None else list(pages)
        out = []
        for n, i in enumerate(indices, 1):
            out.append(render_page(pdf, i, size))
            if progress:
                progress(n, len(indices))
        return out
    finally:
        pdf.close()


def render_pngs(pdf_data: bytes, size: RasterSize, jobs: int = 1, progress: Progress | None = None) -> list[bytes]:
    """Every page of a PDF as PNG bytes; with `jobs` > 1, rendered and encoded in worker processes."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_data)
    count = len(pdf)
    pdf.close()
    jobs = max(1, min(jobs, count // MIN_PAGES_PER_WORKER))
    if jobs == 1:
        return [png_bytes(image, size.dpi) for image in render_images(pdf_data, size, progress=progress)]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    chunk = max(1, math.ceil(count / (jobs * 4)))  # small chunks: progress moves, workers stay busy
    chunks = [list(range(i, min(i + chunk, count))) for i in range(0, count, chunk)]
    out: list[bytes] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(method)) as pool:
        for result in pool.map(_pngs_of_pages, [pdf_data] * len(chunks), [size] * len(chunks), chunks):
            out.extend(result)
            if progress:
                progress(len(out), count)
    return out


def _pngs_of_pages(pdf_data: bytes, size: RasterSize, pages: list[int]) -> list[bytes]:
    return [png_bytes(image, size.dpi) for image in render_images(pdf_data, size, pages)]


def default_jobs() -> int:
    return os.cpu_count() or 1
