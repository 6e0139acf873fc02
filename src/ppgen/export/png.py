"""`ppgen export png`: one PNG per distinct card face and one for the back, for print services.

Sizes follow the print trade, where card sizes are whole inches fractions and
files are specified in pixels (The Game Crafter, MakePlayingCards, DriveThruCards):

    poker  2.5 × 3.5 in     300 dpi: 750 × 1050 px; with 1/8 in bleed 825 × 1125 px
    bridge 2.25 × 3.5 in    300 dpi: 675 × 1050 px; with bleed 750 × 1125 px
    mini   1.75 × 2.5 in    300 dpi: 525 × 750 px;  with bleed 600 × 825 px
    tarot  2.75 × 4.75 in   300 dpi: 825 × 1425 px; with bleed 900 × 1500 px

The face is laid out for that card (2.5 × 3.5 in is 63.5 × 88.9 mm, half a
millimetre and 0.9 mm more than the 63 × 88 mm printed at home), so what the
service cuts is what was laid out. `WxH` (mm, e.g. `63x88`) renders any other
size exactly. Pixel sizes are the bleed box at the dpi, rounded half up.

Files: `<folder>/<CODE>.png` (collector code, e.g. ROM-01.png) and `back.png`. Each variant
has a folder of its own (`png_folder`: png, png-bleed, png-bleed-3mm-600dpi, png-bridge …), so
pictures with bleed never overwrite the plain ones.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from ..draw.faces import CardGeometry
from ..errors import UsageError
from ..units import MM, TRADE_SIZES_IN  # noqa: F401 — the trade sizes live in units (services read them too)
from ..write.faces import card_fronts, faces_pdf
from ..write.report import fallbacks_reported
from .output import ExportResult, checked_folder, write_all
from .raster import RasterSize, card_raster, render_pngs

US_BLEED_MM = 3.175  # 1/8 in: what print services ask for
DPI_RANGE = (50, 1200)
BACK_FILE = "back.png"


@dataclass(frozen=True)
class CardImage:
    """What `export png` renders: the card laid out at `geometry`, rendered at `size`."""

    geometry: CardGeometry
    size: RasterSize
    label: str  # e.g. "poker 2.5 × 3.5 in + 3.175 mm bleed, 300 dpi: 825 × 1125 px"


def card_image(card_size: str = "poker", bleed_mm: float = 0.0, dpi: float = 300) -> CardImage:
    """The geometry and pixel size of an exported card; a UsageError names a bad value."""
    from ..units import MAX_BLEED, check_length, fmt_mm, parse_card_size

    dpi = check_dpi(dpi)
    try:
        bleed_mm = check_length(bleed_mm, "--bleed", 0, MAX_BLEED)  # the build's own check (NaN, ∞, range)
    except ValueError as exc:
        raise UsageError(f"{exc} (3.175 mm is 1/8 in)") from None
    key = str(card_size).strip().lower()
    if key in TRADE_SIZES_IN:
        w, h = TRADE_SIZES_IN[key]
        geometry = CardGeometry(w * 72, h * 72, bleed_mm * MM)
        name = f"{key} {w:g} × {h:g} in"
    else:
        try:
            size = parse_card_size(card_size)
        except ValueError as exc:
            raise UsageError(f"--card-size: {exc}") from None
        geometry = CardGeometry.from_mm(size.width, size.height, bleed_mm)
        name = f"{fmt_mm(size.width)} × {fmt_mm(size.height)} mm"
    raster = card_raster(geometry, dpi)
    bleed = f" + {bleed_mm:g} mm bleed" if bleed_mm else ""
    return CardImage(geometry, raster, f"{name}{bleed}, {dpi:g} dpi: {raster.width} × {raster.height} px")


DEFAULT_DPI = 300
DEFAULT_SIZE = "poker"


def png_folder(card_size: str = DEFAULT_SIZE, bleed_mm: float = 0.0, dpi: float = DEFAULT_DPI) -> str:
    """The folder name of one variant: 'png' for poker at 300 dpi without bleed, and a
    suffix for each option that differs: png-bridge, png-bleed (1/8 in), png-bleed-3mm, png-600dpi."""
    parts = ["png"]
    size = str(card_size).strip().lower().replace(" ", "").replace("×", "x").removesuffix("mm")
    if (numbers := re.fullmatch(r"(\d+(?:\.\d*)?)x(\d+(?:\.\d*)?)", size)) is not None:  # 63.0x88.0 is 63x88: one folder
        size = "x".join(f"{float(n):g}" for n in numbers.groups())
    if size != DEFAULT_SIZE:
        parts.append(size)
    if bleed_mm:
        parts.append("bleed" if abs(bleed_mm - US_BLEED_MM) < 1e-9 else f"bleed-{bleed_mm:g}mm")
    if float(dpi) != DEFAULT_DPI:
        parts.append(f"{float(dpi):g}dpi")
    return "-".join(parts)


def check_dpi(dpi: float) -> float:
    lo, hi = DPI_RANGE
    if not lo <= float(dpi) <= hi:
        raise UsageError(f"--dpi: {dpi:g} is out of range ({lo} to {hi})")
    return float(dpi)


def export_png(project, lang: str, folder: Path, image: CardImage, cards: Sequence | None = None,
               jobs: int = 1, progress: Callable[[int, int], None] | None = None, back: str | None = None) -> ExportResult:
    """Write `<folder>/<CODE>.png` for every card (or `cards`) in `lang`, and `<folder>/back.png`.

    Everything is rendered before anything is written.
    """
    from ..draw.faces import back_face

    folder = checked_folder(folder)
    result = ExportResult()
    cards = list(project.game.cards if cards is None else cards)
    with fallbacks_reported(project.locale(lang), result.report):
        faces = card_fronts(project, cards, lang, image.geometry, result.report)
        faces.append(back_face(project, image.geometry, back))
        pdf = faces_pdf(project, faces, image.geometry, lang)
    pngs = render_pngs(pdf, image.size, jobs=jobs, progress=progress)
    names = [f"{card.code}.png" for card in cards] + [BACK_FILE]
    write_all([(folder / name, data) for name, data in zip(names, pngs)], result)
    result.source_pdf = pdf
    return result
