"""The parts of a print-and-play set, each drawn into a PDF of its own.

    rulebook     the rules and the card reference (draw/rulebook.py)
    mats         one player mat per player, landscape (draw/mat.py)
    score-sheet  for play without dice (draw/score_sheet.py)
    cards        the card sheets: fronts and backs imposed on pages (sheets.py)

Each function takes the project, the build options, the language, the print
run and a report, and returns a `PartPDF`: the finished bytes and what the
assembled PDF needs to know (pages, outline). Nothing here writes files.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .pdf import Document

PART_ORDER = ("rulebook", "mats", "score-sheet", "cards")  # the order in the assembled PDF
PLAYERS = 2


@dataclass
class PartPDF:
    name: str  # a PART_ORDER name
    data: bytes
    pages: int
    title: str  # its entry in the assembled PDF's outline ("" = the part brings its own)
    children: list[tuple[str, int]] = field(default_factory=list)  # (title, page within the part)
    cards: int = 0
    faces: int = 0


def new_document(project, lang: str, title: str, subject: str = "") -> Document:
    """A Document whose canvas starts in the language's embedded body font (never Helvetica)."""
    return Document(project.fonts.chain(lang, "body").primary, title, lang, subject)


def rulebook_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    from ..draw import rulebook

    loc = project.locale(lang)
    doc = new_document(project, lang, f"{project.config.game} — {loc.get('rules.subtitle')}")
    entries = rulebook.draw_rulebook(doc.canvas, project, lang, options.paper.size, report)
    rulebook.add_outline(doc.canvas, entries)
    doc.canvas.showOutline()
    return PartPDF("rulebook", doc.data(), doc.pages, "")


def mats_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    from ..draw import mat

    loc = project.locale(lang)
    title = loc.get("mat.title")
    doc = new_document(project, lang, f"{project.config.game} — {title}")
    landscape = options.paper.turned() if not options.paper.landscape else options.paper
    for _ in range(PLAYERS):
        mat.draw_mat(doc.canvas, project, lang, landscape.size, report, options.paper.name)
    players = [(loc.format("sheet.player", n=n), n - 1) for n in range(1, PLAYERS + 1)]
    return PartPDF("mats", doc.data(), doc.pages, title, players)


def score_sheet_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    from ..draw import score_sheet

    title = project.locale(lang).get("sheet.title")
    doc = new_document(project, lang, f"{project.config.game} — {title}")
    score_sheet.draw_score_sheet(doc.canvas, project, lang, options.paper.size, report)
    return PartPDF("score-sheet", doc.data(), doc.pages, title)


def card_geometry(options):
    """The cards' size and bleed, as the build's sheets print them."""
    from ..draw.faces import CardGeometry

    return CardGeometry.from_mm(options.card_size.width, options.card_size.height, options.bleed)


def run_art(project, options, run):
    """The print run's pictures in every language of the build, checked and prepared once (write/art.py)."""
    from .art import art_book

    return art_book(project, run, options.langs, card_geometry(options), options.art_max_dpi)


def cards_part(project, options, lang: str, run, report, progress: Callable[[int, int], None] | None = None) -> PartPDF:
    """The card sheets: each distinct face laid out and drawn once (when first placed), placed for every copy."""
    from ..draw.faces import LazyFront, back_face
    from ..impose.sheets import SheetText, draw_pages

    layout = options.sheet_layout
    loc = project.locale(lang)
    body = project.fonts.chain(lang, "body")
    geometry = card_geometry(options)
    book = run_art(project, options, run)
    book.report(report, lang)
    faces: dict = {}
    for card in run:
        if card.id not in faces:
            faces[card.id] = LazyFront(project, card, lang, geometry, report, book.art(card, lang))
    fronts = [faces[card.id] for card in run]
    back = back_face(project, geometry) if layout.layout != "fronts-only" else None
    text = SheetText(body, loc.get("sheet.print-note"), loc.get("sheet.fold-note") if layout.layout == "foldover" else "", loc.where)
    title = loc.get("part.cards")
    doc = new_document(project, lang, f"{project.config.game} — {title} ({loc.get('language.name')})", layout.describe())
    draw_pages(doc, layout.pages(len(run)), fronts, back, (geometry.width, geometry.height), text, report, lang, progress)
    return PartPDF("cards", doc.data(), doc.pages, title, cards=len(run), faces=doc.form_count)


PARTS = {
    "rulebook": rulebook_part,
    "mats": mats_part,
    "score-sheet": score_sheet_part,
    "cards": cards_part,
}


def assemble(parts: list[PartPDF], title: str, lang: str) -> bytes:
    """One PDF of every part, in order, with an outline: the rulebook's own, then one entry per
    other part (and its children). Deterministic: the same parts give the same bytes."""
    import io

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter()
    for part in parts:
        start = len(writer.pages)
        writer.append(PdfReader(io.BytesIO(part.data)), import_outline=not part.title)
        if part.title:
            parent = writer.add_outline_item(title=part.title, page_number=start)
            for child, page in part.children:
                writer.add_outline_item(title=child, page_number=start + page, parent=parent)
    writer.add_metadata({"/Title": title, "/Producer": "ppgen", "/Creator": "ppgen"})
    writer.page_mode = "/UseOutlines"
    writer._root_object[NameObject("/Lang")] = TextStringObject(lang)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
