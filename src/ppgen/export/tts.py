"""`ppgen export tts`: Tabletop Simulator deck sheets, a back image, and where each card sits.

TTS cuts a custom deck's face image into a grid of at most 10 × 7 cells and
shows one back image for every card. Convention kept here: the last cell of
every sheet (bottom right) holds the card back. Older TTS versions, and
decks imported with "Back is Hidden" unticked, show that cell for cards in a
hidden hand; newer ones use the back image (`BackIsHidden: true`, set in the
saved object). Either way a hidden card shows our back, so a full sheet holds
69 cards (10 × 7 − 1).

The grid of each sheet is chosen to give the largest cells within 4096 px on
both sides (TTS's practical texture limit), never larger than the card at
300 dpi: a 20-card starter deck goes on a 6 × 4 sheet of 682 × 953 px cells.
Cells are the trimmed card (no bleed), rendered from the same PDF drawing as
the build.

Written into `<folder>/` (one folder per deck):
    <deck>-<lang>-1.png …    the sheets
    back.png                  the back image (BackURL)
    sheets.json               which card sits in which cell of which sheet (ppgen's own format)
    <deck>-<lang>.json        a TTS Saved Object: copy it into
                              "Tabletop Simulator/Saves/Saved Objects"; its image URLs point
                              at the files here (file:///…) unless --base-url names where
                              you uploaded them (needed for multiplayer)
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence
from urllib.parse import quote

from ..draw.faces import CardGeometry
from ..errors import UsageError
from ..write.faces import card_fronts, faces_pdf
from ..write.report import fallbacks_reported
from .output import ExportResult, checked_folder, write_all
from .raster import fitted_raster, png_bytes, px, render_images

MAX_SHEET_PX = 4096
MAX_COLUMNS, MAX_ROWS = 10, 7
CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # the last cell shows the back (hidden card)
MAX_CELL_DPI = 300  # cells are never finer than print resolution
BACK_FILE = "back.png"
MANIFEST_FILE = "sheets.json"
EMPTY_CELL = (255, 255, 255)


@dataclass(frozen=True)
class Grid:
    """One sheet: `columns` × `rows` cells of `cell_w` × `cell_h` pixels; the last cell is the back."""

    columns: int
    rows: int
    cell_w: int
    cell_h: int

    @property
    def width(self) -> int:
        return self.columns * self.cell_w

    @property
    def height(self) -> int:
        return self.rows * self.cell_h

    @property
    def cells(self) -> int:
        return self.columns * self.rows

    @property
    def hidden_cell(self) -> int:
        return self.cells - 1

    def position(self, cell: int) -> tuple[int, int]:
        """(column, row) of a cell, numbered row by row from the top left, as TTS numbers them."""
        return cell % self.columns, cell // self.columns

    def box(self, cell: int) -> tuple[int, int, int, int]:
        """The cell's pixels as a PIL box (left, top, right, bottom)."""
        col, row = self.position(cell)
        x, y = col * self.cell_w, row * self.cell_h
        return (x, y, x + self.cell_w, y + self.cell_h)


def plan_grid(cards: int, trim_w: float, trim_h: float, max_cell_w: int) -> Grid:
    """The grid for `cards` cards plus the back cell with the largest cells within 4096 px.

    trim_w, trim_h: the card's proportions (any unit). Ties go to the grid with fewer cells.
    """
    needed = cards + 1
    if not 2 <= needed <= MAX_COLUMNS * MAX_ROWS:
        raise ValueError(f"a sheet holds 1 to {CARDS_PER_SHEET} cards, not {cards}")
    best: tuple | None = None
    for rows in range(1, MAX_ROWS + 1):
        for columns in range(1, MAX_COLUMNS + 1):
            if columns * rows < needed:
                continue
            cell_h_max = MAX_SHEET_PX // rows
            cell_w = min(MAX_SHEET_PX // columns, math.floor(cell_h_max * trim_w / trim_h), max_cell_w)
            cell_h = round(cell_w * trim_h / trim_w)
            while cell_h > cell_h_max:
                cell_w -= 1
                cell_h = round(cell_w * trim_h / trim_w)
            key = (cell_w, -columns * rows, columns)
            if best is None or key > best[0]:
                best = (key, Grid(columns, rows, cell_w, cell_h))
    return best[1]


def split_sheets(count: int) -> list[int]:
    """How many distinct cards go on each sheet: 69 a sheet, the rest on the last."""
    return [min(CARDS_PER_SHEET, count - start) for start in range(0, count, CARDS_PER_SHEET)]


# ── the export ─────────────────────────────────────────────────────────────
def export_tts(project, lang: str, deck: str, title: str, cards: Sequence[tuple], folder: Path,
               card_mm: tuple[float, float], base_url: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> ExportResult:
    """Sheets, back, sheets.json and a TTS saved object for `cards` ((Card, copies) pairs).

    deck: the file-name stem (e.g. starter-rome); title: the deck's name shown in TTS.
    """
    from PIL import Image

    from ..draw.faces import back_face

    cards = [(card, copies) for card, copies in cards if copies > 0]
    if not cards:
        raise UsageError(f"nothing to export: deck {deck} holds no cards")
    folder = checked_folder(folder)
    result = ExportResult()
    geometry = CardGeometry.from_mm(*card_mm)
    max_cell_w = px(geometry.trim_w, MAX_CELL_DPI)
    counts = split_sheets(len(cards))
    grids = [plan_grid(n, geometry.trim_w, geometry.trim_h, max_cell_w) for n in counts]
    with fallbacks_reported(project.locale(lang), result.report):
        faces = card_fronts(project, [card for card, _ in cards], lang, geometry, result.report)
        faces.append(back_face(project, geometry))
        pdf = faces_pdf(project, faces, geometry, lang)
    back_page = len(faces) - 1
    total = len(cards) + len(grids) + 1
    done = 0
    outputs: list[tuple[Path, bytes | str]] = []
    sheets = []
    start = 0
    for number, (count, grid) in enumerate(zip(counts, grids), 1):
        size = fitted_raster(geometry, grid.cell_w, grid.cell_h)
        pages = list(range(start, start + count)) + [back_page]
        images = render_images(pdf, size, pages)
        sheet = Image.new("RGB", (grid.width, grid.height), EMPTY_CELL)
        for cell, image in enumerate(images[:-1]):
            sheet.paste(image, grid.box(cell)[:2])
        sheet.paste(images[-1], grid.box(grid.hidden_cell)[:2])
        name = f"{deck}-{lang}-{number}.png"
        outputs.append((folder / name, png_bytes(sheet, size.dpi)))
        sheets.append((name, grid, cards[start : start + count]))
        start += count
        done += count + 1
        if progress:
            progress(done, total)
    back_grid = max(grids, key=lambda g: g.cell_w)
    back_size = fitted_raster(geometry, back_grid.cell_w, back_grid.cell_h)
    outputs.append((folder / BACK_FILE, png_bytes(render_images(pdf, back_size, [back_page])[0], back_size.dpi)))
    if progress:
        progress(total, total)
    manifest = sheets_manifest(project, lang, deck, title, cards, sheets, back_size.pixels)
    outputs.append((folder / MANIFEST_FILE, _json(manifest)))
    urls = _url_maker(folder, base_url)
    outputs.append((folder / f"{deck}-{lang}.json", _json(saved_object(manifest, urls))))
    write_all(outputs, result)
    return result


def sheets_manifest(project, lang: str, deck: str, title: str, cards, sheets, back_px: tuple[int, int]) -> dict:
    """ppgen's record of the sheets: which card (id, code, name, copies) sits in which cell."""
    out_sheets = []
    for number, (name, grid, on_sheet) in enumerate(sheets, 1):
        cells = []
        for cell, (card, copies) in enumerate(on_sheet):
            col, row = grid.position(cell)
            x, y, _, _ = grid.box(cell)
            cells.append({"cell": cell, "column": col, "row": row, "x": x, "y": y, "id": card.id, "code": card.code,
                          "name": project.card_name(card, lang), "copies": copies, "tts_card_id": number * 100 + cell})
        out_sheets.append({"file": name, "width": grid.width, "height": grid.height, "columns": grid.columns,
                           "rows": grid.rows, "card_width": grid.cell_w, "card_height": grid.cell_h,
                           "hidden_cell": grid.hidden_cell, "cells": cells})
    return {
        "game": project.config.game,
        "deck": deck,
        "title": title,
        "lang": lang,
        "cards": sum(copies for _, copies in cards),
        "distinct": len(cards),
        "back": {"file": BACK_FILE, "width": back_px[0], "height": back_px[1]},
        "hidden": "the last cell of every sheet (hidden_cell) holds the card back, shown for cards in a hidden hand",
        "sheets": out_sheets,
    }


# ── the Tabletop Simulator saved object ────────────────────────────────────
_TRANSFORM = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
              "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}  # face down


def saved_object(manifest: dict, url: Callable[[str], str]) -> dict:
    """A TTS Saved Object holding the deck: one CustomDeck entry per sheet (key = sheet number),
    every copy a Card whose CardID is sheet × 100 + cell."""
    custom = {}
    contained = []
    for number, sheet in enumerate(manifest["sheets"], 1):
        custom[str(number)] = {
            "FaceURL": url(sheet["file"]),
            "BackURL": url(manifest["back"]["file"]),
            "NumWidth": sheet["columns"],
            "NumHeight": sheet["rows"],
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
        for cell in sheet["cells"]:
            for _ in range(cell["copies"]):
                contained.append(_object("Card", cell["name"], cell["code"], CardID=cell["tts_card_id"],
                                         CustomDeck={str(number): custom[str(number)]}))
    if len(contained) == 1:
        deck = contained[0]  # TTS has no one-card deck
    else:
        deck = _object("DeckCustom", manifest["title"], f"{manifest['game']} — {manifest['lang']}",
                       DeckIDs=[c["CardID"] for c in contained], CustomDeck=custom, ContainedObjects=contained)
    return {"SaveName": manifest["title"], "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5,
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": [deck], "TabStates": {}, "VersionNumber": ""}


def _object(name: str, nickname: str, description: str, **fields) -> dict:
    obj = {"Name": name, "Transform": dict(_TRANSFORM), "Nickname": nickname, "Description": description,
           "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
           "SidewaysCard": False, "Hands": name == "Card", "HideWhenFaceDown": True}
    obj.update(fields)
    return obj


def _url_maker(folder: Path, base_url: str | None) -> Callable[[str], str]:
    if base_url:
        base = base_url.rstrip("/")
        return lambda name: f"{base}/{quote(name)}"
    folder = Path(folder).resolve()
    return lambda name: (folder / name).as_uri()


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
