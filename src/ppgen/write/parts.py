"""The parts of a print-and-play set, each drawn into a PDF of its own.

    rulebook     the rules and the card reference (draw/rulebook.py)
    mats         one player mat per player, landscape (draw/mat.py)
    score-sheet  for play without dice (draw/score_sheet.py)
    cards        the card sheets: fronts and backs imposed on pages (sheets.py)

Each function takes the project, the build options, the language, the print
run and a report, and returns a `PartPDF`: the finished bytes and what the
assembled PDF needs to know (pages, outline, whether its pages are single
sheets). Nothing here writes files. Each PDF says how it is meant to be printed
(`/ViewerPreferences`, write/pdf.py): the rulebook duplex on the long edge, mats
and score sheet single-sided, card sheets as their layout says.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .pdf import Document, page_count

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
    single_sheets: bool = False  # each page is printed on a sheet of its own (a blank back in the set)
    in_set: bool = True  # False: printed on its own, not part of the assembled set (the booklet)


def new_document(project, lang: str, title: str, subject: str = "", duplex: str = "Simplex") -> Document:
    """A Document whose canvas starts in the language's embedded body font (never Helvetica);
    `duplex`: its /Duplex print hint."""
    return Document(project.fonts.chain(lang, "body").primary, title, lang, subject, duplex)


def rulebook_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    """The rulebook on the paper's pages; with `options.rulebook == "booklet"`, laid out for
    the booklet's A5 (half-Letter) pages and imposed two-up (write/booklet.py), to print on
    its own: duplex, short edge, folded and stapled."""
    from ..draw import rulebook

    loc = project.locale(lang)
    title = f"{project.config.game} — {loc.get('rules.subtitle')}"
    if options.rulebook == "booklet":
        from ..impose.booklet import booklet_paper
        from .booklet import impose_booklet

        sheet, page = booklet_paper(options.paper)
        doc = new_document(project, lang, title)
        entries = rulebook.draw_rulebook(doc.canvas, project, lang, page, report, form="booklet", printable=options.printable_margin)
        data = impose_booklet(doc.data(), sheet.size, entries, title, lang)
        return PartPDF("rulebook", data, page_count(data), "", in_set=False)
    doc = new_document(project, lang, title, duplex="DuplexFlipLongEdge")
    entries = rulebook.draw_rulebook(doc.canvas, project, lang, options.paper.size, report, printable=options.printable_margin)
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
        mat.draw_mat(doc.canvas, project, lang, landscape.size, report, options.paper.name, options.printable_margin)
    players = [(loc.format("sheet.player", n=n), n - 1) for n in range(1, PLAYERS + 1)]
    return PartPDF("mats", doc.data(), doc.pages, title, players, single_sheets=True)


def score_sheet_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    from ..draw import score_sheet

    title = project.locale(lang).get("sheet.title")
    doc = new_document(project, lang, f"{project.config.game} — {title}")
    score_sheet.draw_score_sheet(doc.canvas, project, lang, options.paper.size, report, options.printable_margin)
    return PartPDF("score-sheet", doc.data(), doc.pages, title, single_sheets=True)


def cards_part(project, options, lang: str, run, report, progress: Callable[[int, int], None] | None = None) -> PartPDF:
    """The card sheets: each distinct face laid out and drawn once (when first placed), placed for every copy."""
    from ..draw.faces import CardGeometry, LazyFront, back_face
    from ..impose.sheets import SheetText, draw_pages

    layout = options.sheet_layout
    loc = project.locale(lang)
    body = project.fonts.chain(lang, "body")
    trim_w, trim_h = layout.trim_pt
    geometry = CardGeometry(trim_w, trim_h, layout.bleed_pt)
    faces: dict = {}
    for card in run:
        if card.id not in faces:
            faces[card.id] = LazyFront(project, card, lang, geometry, report)
    fronts = [faces[card.id] for card in run]
    back = back_face(project, geometry, options.back) if layout.layout != "fronts-only" else None
    text = SheetText(body, loc.get("sheet.print-note"), loc.get("sheet.fold-note") if layout.layout == "foldover" else "", loc.where,
                     project.config.languages[lang].line_break)
    title = loc.get("part.cards")
    doc = new_document(project, lang, f"{project.config.game} — {title} ({loc.get('language.name')})", layout.describe(),
                       layout.viewer_duplex)
    draw_pages(doc, layout.pages(len(run)), fronts, back, (geometry.width, geometry.height), text, report, lang, progress)
    return PartPDF("cards", doc.data(), doc.pages, title, cards=len(run), faces=doc.form_count,
                   single_sheets=layout.layout != "duplex")


def blank_page_pdf(project, lang: str, size: tuple[float, float], report) -> bytes:
    """One intentionally blank page of `size` (points), saying so in `lang`: a back in the set."""
    from ..draw.blank import draw_blank_page

    doc = new_document(project, lang, project.locale(lang).get("sheet.blank-page"))
    draw_blank_page(doc.canvas, project, lang, size, report)
    return doc.data()


def set_pdf(project, options, lang: str, parts: list[PartPDF], report) -> PartPDF:
    """Every part of one language in one PDF (`assemble`), made to print right double-sided in
    every layout: parts from odd pages, single sheets with blank backs (write/duplex.py)."""
    from .pdf import duplex_hint

    title = f"{project.config.game} — {project.locale(lang).get('language.name')}"
    data = assemble(parts, title, lang, lambda size: blank_page_pdf(project, lang, size, report), duplex_hint(options.duplex))
    return PartPDF("set", data, page_count(data), title, cards=sum(p.cards for p in parts), faces=sum(p.faces for p in parts))


PARTS = {
    "rulebook": rulebook_part,
    "mats": mats_part,
    "score-sheet": score_sheet_part,
    "cards": cards_part,
}


def assemble(parts: list[PartPDF], title: str, lang: str, blank_page: Callable[[tuple[float, float]], bytes] | None = None,
             duplex: str = "DuplexFlipLongEdge") -> bytes:
    """One PDF of every part, in order, with an outline: the rulebook's own, then one entry per
    other part (and its children). Deterministic: the same parts give the same bytes.

    With `blank_page` (size → a one-page PDF) the set prints right double-sided
    (write/duplex.py: each part from an odd page, single sheets with blank backs);
    `duplex` is its /Duplex print hint."""
    import io

    from pypdf import PdfReader, PdfWriter

    from .duplex import BlankPages, blank_backs, start_on_odd_page
    from .pdf import finished_pdf

    writer = PdfWriter()
    blanks = BlankPages(blank_page) if blank_page else None
    for part in parts:
        if blanks:
            start_on_odd_page(writer, blanks)
        start = len(writer.pages)
        writer.append(PdfReader(io.BytesIO(part.data)), import_outline=not part.title)
        pages = blank_backs(writer, start, part.pages, blanks, part.single_sheets)
        if part.title:
            parent = writer.add_outline_item(title=part.title, page_number=pages[0])
            for child, page in part.children:
                writer.add_outline_item(title=child, page_number=pages[page], parent=parent)
    return finished_pdf(writer, title, lang, duplex)
