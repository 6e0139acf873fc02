"""The parts of a print-and-play set, each drawn into a PDF of its own.

    rulebook     the rules and the card reference (draw/rulebook.py)
    mats         one player mat per player, landscape (draw/mat.py)
    score-sheet  for play without dice (draw/score_sheet.py)
    cards        the card sheets: fronts and backs imposed on pages (sheets.py); for a
                 cutting machine, with a cut file per printed side (cutfile.py)
    boxes        a tuck box per deck (draw/tuckbox.py); only when asked for

Each function takes the project, the build options, the language, the print
run and a report, and returns a `PartPDF`: the finished bytes and what the
assembled PDF needs to know (pages, outline, whether its pages are single
sheets). Nothing here writes files. Each PDF says how it is meant to be printed
(`/ViewerPreferences`, write/pdf.py): the rulebook duplex on the long edge, mats
and score sheet single-sided, card sheets as their layout says.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from .pdf import Document, page_count

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
    single_sided: bool = False  # each page a sheet of its own: in the assembled PDF on odd pages, backs blank (write/duplex.py)
    in_set: bool = True  # False: printed on its own, not part of the assembled set (the booklet)
    back: bytes = b""  # single sheets in the set: their blank back (a one-page PDF of the part's page size), drawn with the part


def new_document(project, lang: str, title: str, subject: str = "", duplex: str = "Simplex", compress: bool = True,
                 **colour) -> Document:
    """A Document whose canvas starts in the language's embedded body font (never Helvetica);
    `duplex`: its /Duplex print hint; `compress`: Flate streams (False: a PDF only rasterised
    in memory); `colour`: Document's separation= and opaque= (CMYK print-shop files)."""
    return Document(project.fonts.chain(lang, "body").primary, title, lang, subject, duplex, compress=compress, **colour)


REFERENCE_CARDS = PLAYERS  # quick-reference cards in the card sheets of a set: one for each player


def print_facts(project, options, lang: str, run=()):
    """What this build prints, as the rulebook states it (draw.rulebook.PrintFacts): its files,
    the sheets of each part, the duplex edge, the card size, the mat's zones and sheets."""
    from .. import units
    from ..draw.rulebook import PrintFacts
    from ..errors import UsageError
    from ..read.styles import mat_style
    from ..units import fmt_mm
    from .build import file_names

    parts = tuple(p for p in PART_ORDER if p in DEFAULT_PARTS or p in options.whole or p in options.parts)
    # the files of the whole set, whichever parts this build draws (a rulebook alone names the set too)
    names = {k: v.format(lang=lang) for k, v in file_names(project, replace(options, parts=parts), None, False).items()}
    look = mat_style(project)
    geo, tiles = mat_plan(project, options)
    cards = len(run) or len(starter_run(project, options.factions))
    # the quick-reference cards: the whole set's (write/build.py), none with --faction or a decklist
    references = getattr(run, "references", 0) if len(run) else (0 if options.factions else REFERENCE_CARDS)
    values = {
        "set_file": names["set"], "booklet_file": names["rulebook"],
        "part_files": ", ".join(names[p] for p in parts if not (p == "rulebook" and options.rulebook == "booklet")),
        "card_w": fmt_mm(options.card_size.width), "card_h": fmt_mm(options.card_size.height),
        "zone_w": fmt_mm(geo.zone_w / 72 * 25.4), "zone_h": fmt_mm(geo.zone_h / 72 * 25.4),
        "sleeve_w": fmt_mm(options.card_size.width + look.card.sleeve), "sleeve_h": fmt_mm(options.card_size.height + look.card.sleeve),
        "cards": cards, "reference_cards": references, "mat_sheets": len(tiles), "mat_total": len(tiles) * PLAYERS,
        "mat_paper": (units.LARGE_PAPERS[options.paper.key] if options.mat == "large" else options.paper).name,
        "unit_slots": int(look.layout.unit_slots), "boxes": len(starter_decks(project, options.factions)),
    }
    try:
        values["card_pages"] = options.sheet_layout.page_count(cards + (reference_faces(options.sheet_layout) if references else 0))
    except UsageError:  # cards that do not fit the paper: the rulebook says nothing of their sheets
        pass
    return PrintFacts(options.layout, options.duplex, options.rulebook, len(tiles), options.sleeves is not False,
                      (options.card_size.width, options.card_size.height), parts, values)


def rulebook_values(project, lang: str, options=None) -> dict:
    """The {placeholders} the rulebook's texts take besides the rule constants (its pages, the
    combat example's numbers, the build's files and sheets), as a build with `options` (None: the
    game's defaults) prints them — for the texts read outside a build (errata, checks)."""
    from ..draw.rulebook import book_values
    from ..read.rulebook import load_structure
    from .build import BuildOptions

    def values():
        facts = print_facts(project, options or BuildOptions.resolve(project, lang=lang), lang)
        return book_values(project, lang, facts, load_structure(project), None, "pages")

    return values() if options is not None else project.cached(f"rulebook-values:{lang}", values)


def starter_run(project, factions=()) -> list:
    """The cards of the starter decks of `factions` (all: the set), each repeated for its copies."""
    from .build import select_cards

    return select_cards(project, factions)


def reference_faces(layout) -> int:
    """Card slots the quick-reference cards take: one each with a back, both sides as fronts without."""
    return REFERENCE_CARDS * (2 if layout.layout == "fronts-only" else 1)


def rulebook_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    """The rulebook on the paper's pages; with `options.rulebook == "booklet"`, laid out for
    the booklet's A5 (half-Letter) pages and imposed two-up (write/booklet.py), to print on
    its own: duplex, short edge, folded and stapled."""
    from dataclasses import replace

    from ..draw import rulebook

    loc = project.locale(lang)
    title = f"{project.config.game} — {loc.get('rules.subtitle')}"
    art = _pictured_art(project, options, lang)  # reads templates/rulebook.yaml first: a missing one is named first
    facts = replace(print_facts(project, options, lang, run), art=art)
    if options.rulebook == "booklet":
        from ..impose.booklet import booklet_paper
        from .booklet import impose_booklet

        sheet, page = booklet_paper(options.paper)
        doc = new_document(project, lang, title)
        entries = rulebook.draw_rulebook(doc.canvas, project, lang, page, report, form="booklet", printable=options.printable_margin,
                                         facts=facts)
        data = impose_booklet(doc.data(), sheet.size, entries, title, lang)
        return PartPDF("rulebook", data, page_count(data), "", in_set=False)
    doc = new_document(project, lang, title, duplex="DuplexFlipLongEdge")
    entries = rulebook.draw_rulebook(doc.canvas, project, lang, options.paper.size, report, printable=options.printable_margin,
                                     facts=facts)
    rulebook.add_outline(doc.canvas, entries)
    doc.canvas.showOutline()
    return PartPDF("rulebook", doc.data(), doc.pages, "")


def _pictured_art(project, options, lang: str):
    """The prepared pictures of the cards the rulebook's pictures show (card -> CardArt or None)."""
    from ..read.rulebook import load_structure
    from .art import art_book

    s = load_structure(project)
    cards = [project.game.card(i) for i in (*s.anatomy.values(), *s.example.values())]
    book = art_book(project, cards, (lang,), card_geometry(options), options.art_max_dpi)
    return lambda card: book.art(card, lang)


def mat_plan(project, options):
    """The player mat's design for the build's cards (sleeved unless --unsleeved) and the sheets it
    prints on: (draw.mat.MatGeometry, [impose.tiles.Tile]) — one sheet of the paper when it fits,
    two joined ones otherwise, one A3 / Tabloid sheet with `--mat large`."""
    from .. import units
    from ..draw.mat import mat_geometry, seam_avoid
    from ..impose.tiles import plan_tiles
    from ..read.styles import mat_style

    look = mat_style(project)
    geo = mat_geometry(project, (options.card_size.width, options.card_size.height), options.sleeves is not False)
    paper = units.LARGE_PAPERS[options.paper.key] if options.mat == "large" else options.paper
    tiles = plan_tiles((geo.width, geo.height), paper, options.printable_margin, look.page.min_margin, look.layout.glue,
                       seam_avoid(project, geo), what="the player mat",
                       hint="" if options.mat == "large" else "; build with --mat large, or make the zones, gaps or bands smaller "
                       "in templates/mat-style.yaml")
    if options.mat == "large" and len(tiles) > 1:
        from ..errors import UsageError

        w, h = geo.size_mm
        raise UsageError(f"--mat large: the player mat ({w:.0f} × {h:.0f} mm) does not fit one {paper.name} sheet; "
                         "use smaller gaps or fewer unit_slots in templates/mat-style.yaml")
    return geo, tiles


def mats_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    """One player mat per player: its design drawn once (a form) and placed on its sheets — one, or
    two joined along a glue strip (impose/tiles.py)."""
    from ..draw import mat
    from ..draw.style import text_style
    from ..impose.tiles import JoinText, draw_tile, seam_of

    loc = project.locale(lang)
    title = loc.get("mat.title")
    doc = new_document(project, lang, f"{project.config.game} — {title}")
    geo, tiles = mat_plan(project, options)
    form = f"mat-{lang}"
    doc.define_form(form, geo.width, geo.height, lambda c: mat.paint_mat(c, project, lang, geo, report, seam_of(tiles)))
    join = JoinText(loc.get("mat.glue"), loc.get("mat.cut"), loc.get("mat.sheet"),
                    text_style(project, lang, "body", 7, "#404040", min_size=5, align="center", valign="middle"),
                    loc.where("mat.glue"))
    for _ in range(PLAYERS):
        for tile in tiles:
            draw_tile(doc, tile, form, join)
    players = [(loc.format("sheet.player", n=n), (n - 1) * len(tiles)) for n in range(1, PLAYERS + 1)]
    return PartPDF("mats", doc.data(), doc.pages, title, players, single_sided=True)


def score_sheet_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    from ..draw import score_sheet

    title = project.locale(lang).get("sheet.title")
    doc = new_document(project, lang, f"{project.config.game} — {title}")
    score_sheet.draw_score_sheet(doc.canvas, project, lang, options.paper.size, report, options.printable_margin)
    return PartPDF("score-sheet", doc.data(), doc.pages, title, single_sided=True)


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
    from ..units import MM

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
    behind = replace(geometry, bleed=geometry.bleed + layout.back_reach * MM)  # the backs, spread past the cards' edge
    back = back_face(project, behind, options.back) if layout.layout != "fronts-only" else None
    references = getattr(run, "references", 0)
    if references:  # the quick-reference cards: one for each player, turn and energy on the front, combat on the back
        from ..draw.quick_reference import ReferenceFace

        front = ReferenceFace(project, lang, geometry, "front", report)
        other = ReferenceFace(project, lang, geometry if back is None else behind, "back", report)
        if back is None:  # no backs printed: both sides as fronts
            fronts += [front, other] * references
        else:
            fronts += [front] * references
            back = [back] * len(run) + [other] * references
    pages = layout.pages(len(fronts))
    text = SheetText(body, loc.get("sheet.print-note"), loc.get("sheet.fold-note") if layout.layout == "foldover" else "", loc.where,
                     line_break=project.config.languages[lang].line_break,
                     page_note=_cut_note(loc, layout) if layout.layout == "print-and-cut" else None)
    title = loc.get("part.cards")
    doc = new_document(project, lang, f"{project.config.game} — {title} ({loc.get('language.name')})", layout.describe(),
                       layout.viewer_duplex)
    draw_pages(doc, pages, fronts, back, (geometry.width, geometry.height), text, report, lang, progress)
    data = doc.data()
    files = []
    if layout.layout == "print-and-cut":
        files = _cut_files(data, pages, layout, options, f"{project.config.game} — {title}", progress)
    return PartPDF("cards", data, doc.pages, title, cards=len(run), faces=doc.form_count, files=files,
                   single_sided=len(layout.sides) == 1)


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
        net = box_net(options.card_size, deck.count, options.card_thickness, bool(options.sleeves))
        children.append((deck_title(project, lang, deck), doc.pages))
        draw_tuck_box(doc.canvas, project, lang, deck, net, options.paper, report)
        doc.canvas.showPage()
    return PartPDF("boxes", doc.data(), doc.pages, title, children, single_sided=True)


def starter_decks(project, factions=()) -> list:
    """The starter deck of every faction (or of `factions`), as boxes see them."""
    from ..draw.tuckbox import BoxDeck

    return [BoxDeck(None, f, tuple(project.game.starter_deck(f))) for f in (factions or project.game.factions)]


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
    data, pages = assemble(parts, title, lang, lambda size: blank_page_pdf(project, lang, size, report), duplex_hint(options.duplex))
    return PartPDF("set", data, pages, title, cards=sum(p.cards for p in parts), faces=sum(p.faces for p in parts))


PARTS = {
    "rulebook": rulebook_part,
    "mats": mats_part,
    "score-sheet": score_sheet_part,
    "cards": cards_part,
    "boxes": boxes_part,
}


def assemble(parts: list[PartPDF], title: str, lang: str, blank_page: Callable[[tuple[float, float]], bytes] | None = None,
             duplex: str = "DuplexFlipLongEdge") -> tuple[bytes, int]:
    """One PDF of every part, in order, with an outline: the rulebook's own, then one entry per
    other part (and its children); and its page count. Deterministic: the same parts give the
    same bytes. Joined at the level of their bytes (write/join.py: every object copied as drawn,
    font subsets kept once and each with a tag of its own, ISO 32000-1 §9.6.4), with a file
    identifier (§14.4) computed from the parts.

    With `blank_page` (size → a one-page PDF) the set prints right double-sided
    (write/duplex.py: each part from an odd page, single-sided parts with a blank back after
    each page); `duplex` is its /Duplex print hint."""
    from .duplex import BlankPages, blank_backs, start_on_odd_page
    from .join import Join

    join = Join()
    blanks = BlankPages(blank_page, [part.back for part in parts if part.back]) if blank_page else None
    for part in parts:
        if blanks:
            start_on_odd_page(join, blanks)
        start = len(join.pages)
        join.append(part.data, outline=not part.title)
        pages = blank_backs(join, start, part.pages, blanks, part.single_sided)
        if part.title:
            parent = join.add_item(part.title, pages[0])
            for child, page in part.children:
                join.add_item(child, pages[page], parent)
    return join.write(title, lang, duplex, b"".join(p.data for p in parts)), len(join.pages)
