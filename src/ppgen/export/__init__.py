"""Exports for screens and print services, rasterised from the build's own drawing.

    raster.py   faces → one-page-per-face PDF (as forms, like the card sheets) → exact-size
                pixels (pypdfium2) → reproducible PNG bytes; the one rendering path
    png.py      `ppgen export png`: <CODE>.png per card + back.png at print-service sizes
    tts.py      `ppgen export tts`: Tabletop Simulator sheets, back, sheets.json, saved object
    contact.py  `ppgen export contact`: a faction's cards on one picture, for proofreading
    preview.py  `ppgen preview`: one card, named in any language, as a PNG
    output.py   ExportResult; render everything, then write each file atomically

From Python::

    import ppgen
    from ppgen import export

    project = ppgen.load()
    image = export.card_image("poker", bleed_mm=3.175, dpi=300)     # 825 × 1125 px
    result = export.export_png(project, "ja", Path("out/ja/png"), image)
    card, path, result = export.preview(project, "로마 가도", "ko", Path("out/ko/preview"), (63, 88))

Each export returns an `ExportResult` (.files, .images, .bytes, .report with the
build's warnings: fallback, shrunk, overflow, missing-glyph).
"""
from __future__ import annotations

from ..write.faces import faces_pdf
from .contact import contact_sheet, export_contact
from .output import ExportResult
from .png import TRADE_SIZES_IN, US_BLEED_MM, CardImage, card_image, export_png, png_folder
from .preview import find_card, preview
from .raster import RasterSize, card_raster, render_images, render_pngs
from .tts import CARDS_PER_SHEET, Grid, export_tts, plan_grid, split_sheets

__all__ = [
    "CARDS_PER_SHEET", "CardImage", "ExportResult", "Grid", "RasterSize", "TRADE_SIZES_IN", "US_BLEED_MM",
    "card_image", "card_raster", "contact_sheet", "export_contact", "export_png", "export_tts", "faces_pdf", "png_folder",
    "find_card", "plan_grid", "preview", "render_images", "render_pngs", "split_sheets",
]
