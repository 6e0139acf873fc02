"""The parts of a print-and-play set, each drawn into a PDF of its own.

    rulebook     the rules and the card reference (draw/rulebook.py)
    mats         one player mat per player, landscape (draw/mat.py)
    score-sheet  for play without dice (draw/score_sheet.py)
    cards        the card sheets: fronts and backs imposed on pages (sheets.py); for a
                 cutting machine, with a cut file per printed side (cutfile.py)
    boxes        a tuck box per deck (draw/tuckbox.py); only when asked for

Each function takes the project, the build options, the language, the print
run and a report, and returns a `PartPDF`: the finished bytes and what the
assembled PDF needs to know (pages, outline). Nothing here writes files.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .pdf import Document

PART_ORDER = ("rulebook", "mats", "score-sheet", "cards", "boxes")  # the order in the assembled PDF
DEFAULT_PARTS = ("rulebook", "mats", "score-sheet", "cards")  # built unless --parts (or ppgen.yaml build.parts) says otherwise
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
    files: list[tuple[str, bytes]] = field(default_factory=list)  # (suffix, bytes) written beside the part's PDF: cut files
    single_sided: bool = False  # each page a sheet of its own: in the assembled PDF on odd pages, backs blank


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
    back = back_face(project, geometry) if layout.layout != "fronts-only" else None
    pages = layout.pages(len(run))
    text = SheetText(body, loc.get("sheet.print-note"), loc.get("sheet.fold-note") if layout.layout == "foldover" else "", loc.where,
                     _cut_note(loc, layout) if layout.layout == "print-and-cut" else None)
    title = loc.get("part.cards")
    doc = new_document(project, lang, f"{project.config.game} — {title} ({loc.get('language.name')})", layout.describe())
    draw_pages(doc, pages, fronts, back, (geometry.width, geometry.height), text, report, lang, progress)
    data = doc.data()
    files = []
    if layout.layout == "print-and-cut":
        files = _cut_files(data, pages, layout, options, f"{project.config.game} — {title}", progress)
    return PartPDF("cards", data, doc.pages, title, cards=len(run), faces=doc.form_count, files=files)


def _cut_files(data: bytes, pages, layout, options, title: str, progress=None) -> list[tuple[str, bytes]]:
    """A print-and-cut sheet's files: its cut files, or for software that prints from uploads
    (Cricut Design Space) a picture of the page's cards and a cut file of its size."""
    sides, radius, formats = len(layout.sides), options.corner_radius, options.cut_formats
    if layout.cutter.uploads:
        from .upload import upload_files

        return upload_files(data, pages, sides, layout.cutter.upload_dpi, radius, formats, title, progress)
    from .cutfile import cut_files

    return cut_files(pages, sides, radius, formats, title)


def _cut_note(loc, layout):
    """Each print-and-cut page names its machine's software and its own cut file (or, for
    software that prints from uploads, the picture and cut file to upload, and their size)."""
    from .cutfile import filled_side, sheet_file_suffix

    software = layout.cutter.software

    def note(page) -> str:
        file = f"…{sheet_file_suffix(page, len(layout.sides))}"
        if layout.cutter.uploads:
            from ..impose.cutter import upload_image

            w, h = upload_image(filled_side(page).slots, layout.cutter.upload_dpi).size_mm
            text = loc.format("sheet.upload-note", image=f"{file}.png", cut=f"{file}.svg", w=f"{w:.2f}", h=f"{h:.2f}", software=software)
        else:
            text = loc.format("sheet.cut-note", software=software, file=f"{file}.svg")
        return f"{text}   {page.number}/{page.total}"

    return note


def boxes_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    """A tuck box per deck (`run.decks`, or the starter decks of the build's factions), one
    sheet each, sized from the deck's cards, the card thickness and sleeves."""
    from ..draw.tuckbox import box_net, deck_title, draw_tuck_box

    loc = project.locale(lang)
    decks = getattr(run, "decks", None) or starter_decks(project, options.factions)
    title = loc.get("part.boxes")
    doc = new_document(project, lang, f"{project.config.game} — {title} ({loc.get('language.name')})")
    children = []
    for deck in decks:
        net = box_net(options.card_size, deck.count, options.card_thickness, options.sleeves)
        children.append((deck_title(project, lang, deck), doc.pages))
        draw_tuck_box(doc.canvas, project, lang, deck, net, options.paper, report)
        doc.canvas.showPage()
    return PartPDF("boxes", doc.data(), doc.pages, title, children, single_sided=True)


def starter_decks(project, factions=()) -> list:
    """The starter deck of every faction (or of `factions`), as boxes see them."""
    from ..draw.tuckbox import BoxDeck

    return [BoxDeck(None, f, tuple(project.game.starter_deck(f))) for f in (factions or project.game.factions)]


PARTS = {
    "rulebook": rulebook_part,
    "mats": mats_part,
    "score-sheet": score_sheet_part,
    "cards": cards_part,
    "boxes": boxes_part,
}


def assemble(parts: list[PartPDF], title: str, lang: str) -> tuple[bytes, int]:
    """One PDF of every part, in order, with an outline: the rulebook's own, then one entry per
    other part (and its children); and its page count. A single-sided part starts on an odd
    page and has a blank back after each page. Deterministic: the same parts give the same bytes."""
    import io

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter()
    for part in parts:
        pages = PdfReader(io.BytesIO(part.data))
        if part.single_sided and len(writer.pages) % 2:  # starts on an odd page
            writer.add_blank_page(*_size(pages.pages[0]))
        start = len(writer.pages)
        writer.append(pages, import_outline=not part.title)
        at = {page: page for page in range(len(pages.pages))}  # page of the part → page within the assembled part
        if part.single_sided:  # a blank back after every sheet, so duplex printing keeps each on its own
            for page in range(len(pages.pages) - 1, -1, -1):
                writer.insert_blank_page(*_size(pages.pages[page]), index=start + page + 1)
            at = {page: 2 * page for page in at}
        if part.title:
            parent = writer.add_outline_item(title=part.title, page_number=start)
            for child, page in part.children:
                writer.add_outline_item(title=child, page_number=start + at.get(page, page), parent=parent)
    writer.add_metadata({"/Title": title, "/Producer": "ppgen", "/Creator": "ppgen"})
    writer.page_mode = "/UseOutlines"
    writer._root_object[NameObject("/Lang")] = TextStringObject(lang)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), len(writer.pages)


def _size(page) -> tuple[float, float]:
    return (float(page.mediabox.width), float(page.mediabox.height))
