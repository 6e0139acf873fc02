"""`ppgen export contact`: every card of a faction on one picture, for proofreading.

A grid image rather than an A4 page: proofreading happens on a screen, where
a page of 20 cards would shrink the effect text below legibility. Here each
card keeps its real proportions at 150 dpi (372 × 520 px for 63 × 88 mm;
effect text about 13 px high), five to a row, its collector code and copies
under it, the faction and language on top. Cards are rendered from the same
PDF drawing as the build and pasted, never redrawn.

    contact_sheet(project, "ja", "rome", card_mm, dpi=150) → (PIL image, report)
"""
from __future__ import annotations

from pathlib import Path

from ..draw.faces import CardGeometry
from ..write.faces import card_fronts, faces_pdf
from ..write.report import BuildReport, fallbacks_reported
from .output import ExportResult, checked_folder, write_all
from .raster import card_raster, png_bytes, render_images

COLUMNS = 5
BACKGROUND = (236, 234, 228)
INK = (40, 34, 30)
FAINT = (110, 100, 92)


def contact_sheet(project, lang: str, faction: str, card_mm: tuple[float, float], dpi: float = 150,
                  report: BuildReport | None = None):
    """The contact sheet of `faction` in `lang` as a PIL image."""
    from PIL import Image, ImageDraw


    report = report if report is not None else BuildReport()
    cards = project.game.cards_of(faction)
    geometry = CardGeometry.from_mm(*card_mm)
    loc = project.locale(lang)
    with fallbacks_reported(loc, report):
        faces = card_fronts(project, cards, lang, geometry, report)
        pdf = faces_pdf(project, faces, geometry, lang)
        title = f"{loc.get(f'faction.{faction}')} — {loc.get('language.name')}"
        count = loc.format("export.contact-count", cards=len(cards), copies=sum(card.copies for card in cards))
    size = card_raster(geometry, dpi)
    images = render_images(pdf, size)

    unit = dpi / 150  # pixel sizes below are for 150 dpi
    gap, label_h, header_h = round(24 * unit), round(34 * unit), round(64 * unit)
    columns = min(COLUMNS, len(cards))
    rows = -(-len(cards) // columns)
    width = gap + columns * (size.width + gap)
    height = header_h + rows * (size.height + label_h + gap) + gap
    sheet = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    header = f"{title}  ·  {count}"
    draw_text(draw, (gap, round(header_h * 0.62)), header, project.fonts.chain(lang, "title"), round(30 * unit), INK)
    label_font = project.fonts.chain(project.config.source_language, "bold")
    for i, (card, image) in enumerate(zip(cards, images)):
        col, row = i % columns, i // columns
        x = gap + col * (size.width + gap)
        y = header_h + row * (size.height + label_h + gap)
        sheet.paste(image, (x, y))
        baseline = y + size.height + round(label_h * 0.72)
        draw_text(draw, (x, baseline), card.code, label_font, round(20 * unit), INK)
        draw_text(draw, (x + size.width, baseline), f"×{card.copies}", label_font, round(20 * unit), FAINT, anchor="end")
    return sheet, size.dpi


def draw_text(draw, xy: tuple[int, int], text: str, chain, size: int, fill, anchor: str = "start") -> None:
    """One line of text on a PIL image, baseline at y, each run in the chain font that has it."""
    from PIL import ImageFont

    paths = {font.name: font.path for font in chain.fonts}
    runs = [(ImageFont.truetype(str(paths[name]), size), run) for name, run in chain.runs(text)]
    x, y = xy
    if anchor == "end":
        x -= sum(font.getlength(run) for font, run in runs)
    for font, run in runs:
        draw.text((x, y), run, font=font, fill=fill, anchor="ls")
        x += font.getlength(run)


def export_contact(project, lang: str, factions, folder: Path, card_mm: tuple[float, float], dpi: float = 150,
                   progress=None) -> ExportResult:
    """`<folder>/contact-<faction>-<lang>.png` for each faction, rendered before any is written."""
    from .png import check_dpi

    dpi = check_dpi(dpi)
    folder = checked_folder(folder)
    result = ExportResult()
    outputs = []
    for n, faction in enumerate(factions, 1):
        image, image_dpi = contact_sheet(project, lang, faction, card_mm, dpi, result.report)
        outputs.append((folder / f"contact-{faction}-{lang}.png", png_bytes(image, image_dpi)))
        if progress:
            progress(n, len(factions))
    write_all(outputs, result)
    return result
