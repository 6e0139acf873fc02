"""The rulebook: title page, contents, the rules with their pictures, the card terms, the card
reference and the quick reference, in one language.

    entries = draw_rulebook(canvas, project, "ja", A4, report, facts=PrintFacts(...))

draws every page onto `canvas` (ending each with showPage) and returns the
outline, each entry's bookmark already placed (canvas.bookmarkPage): the
rulebook itself (level 0, titled with the subtitle, "How to Play"), every
section (level 1) and every faction of the card reference (level 2). The
caller adds them to the PDF outline with `add_outline`, beside its own
entries for the other parts (mats, score sheet, cards).

The book is laid out twice: first on a scratch canvas, to learn on which page each
section lands (and how many pages there are), then for real, with those numbers in
the table of contents and the components table.

Where things come from:
- the order of sections and blocks: templates/rulebook.yaml (load_structure);
- the words: locales/<lang>.yaml `rules.*`, `label.*`, `faction.*`, cards;
- every number: cards.yaml (rule constants fill the {placeholders}; the card
  tables come from the card database, so they cannot disagree with the cards);
  what the build prints — files, sheets, duplex edge, card size — from `PrintFacts`
  (write/parts.py fills them in);
- the pictures: the card code, the mat code and the dice (draw/anatomy.py,
  draw/table_setup.py, draw/walkthrough.py, draw/quick_reference.py);
- the look: templates/rulebook-style.yaml.
Text is set by the text engine only (typeset/text.py), poured down pages by
typeset/flow.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable

from ..errors import UsageError
from ..read.model import COMMANDER_MARK
from ..read.rulebook import Block, Section, Structure, component_keys, load_structure, term_keys
from ..read.styles import rulebook_style
from ..read.templates import in_language
from ..typeset import flow as fl
from ..typeset.fonts import FontChain
from ..typeset.text import ASCENT, Style, draw, fit, layout
from . import ornament
from .pictures import Artwork
from .style import mm, text_style, tint
from .words import Words


# ── what the build prints ─────────────────────────────────────────────────
@dataclass(frozen=True)
class PrintFacts:
    """What the build prints, for the pages that say what to print and how: the facts a block's
    `when:` asks about, and `values` for the texts' {placeholders} (file names, sheets, sizes)."""

    layout: str = "duplex"  # how the card sheets are laid out
    duplex: str = "long"  # the edge the set is flipped on
    rulebook: str = "pages"  # pages | booklet
    mat_sheets: int = 2  # sheets per player mat
    sleeves: bool = True  # the mat's zones are sized for sleeved cards
    card_size: tuple[float, float] = (63.0, 88.0)  # mm
    parts: tuple[str, ...] = ("rulebook", "mats", "score-sheet", "cards")  # the parts of the set
    values: dict = field(default_factory=dict)
    art: Callable | None = None  # card -> its prepared picture (draw.art.CardArt) or None


class _Quiet:
    """A report that hears nothing: the trial layout's warnings are the real one's."""

    def warning(self, *args, **kwargs) -> None:
        pass


# ── the outline ───────────────────────────────────────────────────────────
@dataclass(frozen=True)
class OutlineEntry:
    title: str
    key: str  # the bookmark's name (canvas.bookmarkPage)
    level: int  # 0 = the rulebook, 1 = section, 2 = faction of the card reference
    page: int  # page number, counted from the first page drawn on the canvas


def add_outline(canvas, entries: list[OutlineEntry], level_offset: int = 0) -> None:
    """Add entries to the PDF outline, in order; `level_offset` nests them deeper (under an entry of the caller's)."""
    for e in entries:
        canvas.addOutlineEntry(e.title, e.key, level=e.level + level_offset, closed=False)


# ── the book ──────────────────────────────────────────────────────────────
@dataclass
class Book:
    """Everything the page-drawing functions share for one rulebook in one language."""

    canvas: object
    project: object
    lang: str
    page_size: tuple[float, float]
    words: Words
    look: object
    report: object
    structure: Structure
    outline: list[OutlineEntry] = field(default_factory=list)
    styles: dict[str, Style] = field(default_factory=dict)
    facts: PrintFacts = field(default_factory=PrintFacts)
    artwork: Artwork | None = None
    pages: dict[str, int] = field(default_factory=dict)  # bookmark key -> page, from the trial layout ({} in it)
    current_section: str = ""  # the section whose blocks are being made (a picture's running head)

    @property
    def width(self) -> float:
        return self.page_size[0]

    @property
    def height(self) -> float:
        return self.page_size[1]

    def frame(self, page: int) -> fl.Frame:
        p = self.look.page
        return fl.Frame(mm(p.margin_side), mm(p.margin_bottom), self.width - 2 * mm(p.margin_side),
                        self.height - mm(p.margin_top) - mm(p.margin_bottom))

    def where(self, key: str) -> str:
        """Where a text comes from, for error messages: locales/ja.yaml:12:3 rules.goal.1."""
        return self.words.locale.where(key)


def _is_cjk(chain: FontChain) -> bool:
    primary = chain.fonts[0]
    return primary.has("\u4e00") or primary.has("\uac00")


def _styles(project, lang: str, look) -> dict[str, Style]:
    t, col = look.type, look.colours
    body_chain = project.fonts.chain(lang, "body")
    lead = t.cjk_leading if _is_cjk(body_chain) else t.leading
    body = text_style(project, lang, "body", t.body, col.ink, leading=lead, align=in_language(t.body_align, lang))
    en = project.config.source_language
    # The game's name is a logo: set in the source language's title face in every
    # language, falling back to the language's own title chain for other scripts.
    logo_fonts = project.fonts.chain(en, "title").fonts + project.fonts.chain(lang, "title").fonts
    logo_chain = FontChain(lang, "title", logo_fonts)
    return {
        "body": body,
        "lead": replace(body, size=t.lead),
        "small": replace(body, size=t.colophon, colour=col.muted, align="center"),
        "logo": Style(logo_chain, logo_chain, t.title, min_size=t.title * 0.5, leading=1.1, align="center",
                      colour=col.heading, line_break=body.line_break),
        "subtitle": text_style(project, lang, "title", t.subtitle, col.ink, align="center", leading=1.25),
        "tagline": replace(body, size=t.tagline, colour=col.muted, align="center", leading=lead),
        "h1": text_style(project, lang, "title", t.h1, col.heading, leading=1.25),
        "h2": text_style(project, lang, "bold", t.h2, col.ink, leading=1.25),
        "band": text_style(project, lang, "title", t.band, "#FFFFFF", leading=1.2),
        "cell": replace(body, size=t.table, leading=t.table_leading, align="left"),
        "cell_head": text_style(project, lang, "bold", t.table_header, col.ink, leading=t.table_leading),
        "head": text_style(project, lang, "title", t.head, col.muted, leading=1.2),
        "folio": text_style(project, lang, "bold", t.folio, col.muted, align="center"),
        "marker": text_style(project, lang, "bold", t.body * 0.78, "#FFFFFF", align="center", valign="middle"),
    }


def open_book(canvas, project, lang: str, page_size: tuple[float, float], report, form: str = "pages",
              printable: float = 0.0, facts: PrintFacts | None = None, values: dict | None = None) -> Book:
    """The rulebook's look, styles and words on `canvas`: for the rulebook, and for pages set
    like it (the changelog of `ppgen errata`, draw/changelog.py). `form` "booklet": the look of
    the booklet's small pages (the style's `booklet:` values); a look that would print within
    `printable` mm of the paper edge is refused (UsageError naming the key). `values` fill the
    texts' {placeholders} beside the rule constants."""
    structure = load_structure(project)
    look = rulebook_style(project, form)
    check_printable(look, printable, form)
    canvas.setPageSize(page_size)  # pages keep this size until another part sets its own
    facts = facts or PrintFacts()
    words = Words(project, lang, report, values)
    book = Book(canvas, project, lang, page_size, words, look, report, structure, facts=facts)
    book.styles = _styles(project, lang, look)
    book.artwork = Artwork(canvas, project, lang, report, facts.card_size, facts.art)
    return book


def draw_rulebook(canvas, project, lang: str, page_size: tuple[float, float], report, first_page: int = 1,
                  form: str = "pages", printable: float = 0.0, facts: PrintFacts | None = None) -> list[OutlineEntry]:
    """Draw the whole rulebook of `lang` onto `canvas`; return its outline (bookmarks already placed).

    `first_page` is the number the title page would carry (for the printed
    page numbers when the rulebook is not the first part of a PDF). `form`
    "booklet" lays the book out for the small pages of a booklet, with the
    style's `booklet:` values (margins, type sizes, ornaments) — not scaled down.
    A style that puts the running head, folio or title frame within `printable`
    mm of the paper edge is refused (UsageError naming the key). `facts`: what the
    build prints (the components table, the printing page).

    The book is laid out on a scratch canvas first: the pages its sections land on fill
    the table of contents, its page count the components table, in the real layout.
    """
    facts = facts or PrintFacts()
    trial, pages = _pour(_scratch_canvas(project, lang, page_size), project, lang, page_size, _Quiet(), first_page, form,
                         printable, facts, {})
    book, _ = _pour(canvas, project, lang, page_size, report, first_page, form, printable, facts,
                    {e.key: e.page for e in trial.outline}, pages)
    moved = [e.title for e, t in zip(book.outline, trial.outline) if (e.key, e.page) != (t.key, t.page)]
    if moved or len(book.outline) != len(trial.outline):
        report.warning("contents", f"the table of contents does not match where {', '.join(moved) or 'a section'} landed",
                       lang=lang)
    return book.outline


def _scratch_canvas(project, lang: str, page_size):
    """A canvas whose pages are thrown away: the trial layout's. It only measures: its pages
    are laid out and turned, but nothing is painted on them (see `measuring_canvas`)."""
    import io

    return measuring_canvas()(io.BytesIO(), pagesize=page_size, initialFontName=project.fonts.chain(lang, "body").primary,
                              invariant=1)


_PAINTING = ("drawPath", "line", "lines", "rect", "roundRect", "circle", "ellipse", "wedge", "drawImage",
             "drawInlineImage", "doForm", "drawText", "clipPath", "beginForm", "endForm", "linearGradient", "radialGradient")


@lru_cache(maxsize=1)
def measuring_canvas():
    """A ReportLab Canvas class that lays pages out without painting them: every painting call
    does nothing, `measuring` tells the text and picture code to skip their drawing (a third of
    the trial layout's time went into pages thrown away). Page turns, sizes and state work."""
    from reportlab.pdfgen.canvas import Canvas

    def nothing(self, *args, **kwargs):
        return None

    return type("MeasuringCanvas", (Canvas,), {"measuring": True, **{name: nothing for name in _PAINTING}})


def book_values(project, lang: str, facts: PrintFacts, structure: Structure, pages: int | None, form: str) -> dict:
    """The {placeholders} the rulebook's texts take besides the rule constants: the build's facts,
    the combat example's numbers, the rulebook's own pages and sheets."""
    from ..read.rulebook import example_numbers

    game = project.game
    cards = [game.card(structure.example[r]) for r in ("boss", "archer", "soldier")] if len(structure.example) == 3 else []
    values = dict(facts.values)
    values["blank_page"] = " ".join(project.locale(lang).get("sheet.blank-page").split())  # as the blank pages print it
    if cards:
        values.update(example_numbers(game.rules, *cards))
        values.update({role: project.card_name(card, lang) for role, card in zip(("boss", "archer", "soldier"), cards)})
    n = pages or 24  # the trial layout's guess
    if form == "booklet":
        printed = math.ceil(n / 4) * 4
        values.update(rulebook_pages=printed, rulebook_sheets=printed // 4)
    else:
        values.update(rulebook_pages=n, rulebook_sheets=math.ceil(n / 2))
    return values


def _pour(canvas, project, lang, page_size, report, first_page, form, printable, facts, pages, count=None):
    """One layout of the whole book on `canvas`: (the book, its page count)."""
    from ..read.rulebook import load_structure as structure_of

    values = book_values(project, lang, facts, structure_of(project), count, form)
    book = open_book(canvas, project, lang, page_size, report, form, printable, facts, values)
    book.pages = pages
    define_pictures(book)
    structure = book.structure
    title_page(book, structure, first_page)
    flow = fl.PageFlow(canvas, book.frame, begin_page=lambda f: _begin_page(book, f),
                       end_page=lambda f: page_furniture(book, f), first_page=first_page + 1)
    flow.run(prose_blocks(book, structure) + reference_blocks(book, structure) + back_page_blocks(book, structure))
    colophon(book, flow, structure)
    flow.finish()
    return book, flow.page - first_page + 1


def define_pictures(book: Book) -> None:
    """Every form the pictures place (cards, the mat, the card back), before the first page."""
    from . import anatomy, table_setup, walkthrough

    figures = {b.value for s in book.structure.all_sections for b in s.blocks if b.kind == "figure" and b.applies(book.facts)}
    for name, module in (("anatomy", anatomy), ("table-setup", table_setup), ("walkthrough", walkthrough)):
        if name in figures:
            module.needs(book)


def check_printable(look, printable: float, form: str = "pages") -> None:
    """UsageError when the style puts ink within `printable` mm of the paper edge: the nearest
    are the title frame, the running head (its type rises up to its size above the baseline)
    and the folio (sitting on its baseline)."""
    p, t = look.page, look.type
    pt_mm = 25.4 / 72
    nearest = {"title_frame": p.title_frame, "head_offset": p.head_offset - t.head * pt_mm, "foot_offset": p.foot_offset,
               "margin_side": p.margin_side, "margin_top": p.margin_top, "margin_bottom": p.margin_bottom}
    key = min(nearest, key=nearest.get)
    if nearest[key] < printable - 1e-9:
        where = "booklet: page" if form == "booklet" else "page"
        raise UsageError(f"templates/rulebook-style.yaml {where}.{key} puts the rulebook's ink {nearest[key]:.1f} mm from the "
                         f"paper edge, inside the {printable:g} mm printable margin: raise it (or lower build.printable_margin)")


# ── title page ────────────────────────────────────────────────────────────
def title_page(book: Book, structure: Structure, page: int) -> None:
    c, w, h = book.canvas, book.width, book.height
    col, st = book.look.colours, book.styles
    words = book.words
    inset = mm(book.look.page.title_frame)
    k = book.look.page.ornaments  # the ornaments' size on this page (the style's, per page size)
    c.saveState()
    c.setStrokeColor(col.accent)
    c.setLineWidth(1.6)
    c.rect(inset, inset, w - 2 * inset, h - 2 * inset, stroke=1, fill=0)
    c.setLineWidth(0.5)
    c.rect(inset + 4, inset + 4, w - 2 * inset - 8, h - 2 * inset - 8, stroke=1, fill=0)
    c.restoreState()
    for x in (inset + 4, w - inset - 4):
        for y in (inset + 4, h - inset - 4):
            ornament.diamond(c, x, y, 4.5, col.accent)
    cx = w / 2
    ornament.meander(c, cx, h - inset - mm(22 * k), w * 0.55, mm(1.45 * k), col.accent)
    ornament.emblem(c, cx, h * 0.655, mm(62 * k), (col.heading, col.accent, col.ink))
    box_w = w - 2 * inset - mm(24 * k)
    top = h * 0.52
    top = _centred(book, words(structure.title), st["logo"], box_w, top, fit_to=mm(30 * k), key=structure.title)
    top = _centred(book, words(structure.subtitle), st["subtitle"], box_w, top - mm(2 * k), key=structure.subtitle)
    ornament.diamond_rule(c, cx, top - mm(6 * k), mm(70 * k), col.accent)
    top = _centred(book, words(structure.tagline), st["tagline"], min(mm(120), box_w), top - mm(11 * k), key=structure.tagline)
    _faction_shields(book, inset + mm(24 * k), k)
    # The rulebook's own outline entry (its title: "How to Play"); sections nest under it.
    book.outline.append(OutlineEntry(plain_title(words(structure.subtitle)), f"rulebook-{book.lang}", 0, page))
    c.bookmarkPage(f"rulebook-{book.lang}", fit="Fit")
    c.showPage()


def plain_title(text: str) -> str:
    return text.replace("**", "").replace("\n", " ")


def _centred(book: Book, text: str, style: Style, box_w: float, top: float, fit_to: float | None = None, key: str = "") -> float:
    """Draw text centred on the page below `top` (shrunk to `fit_to` tall if given); return the y below it."""
    where = book.where(key)
    lay = fit(text, style, box_w, fit_to, where=where) if fit_to is not None else layout(text, style, box_w, fl.HUGE, where=where)
    lay = replace(lay, box_h=lay.height)
    draw(book.canvas, lay, (book.width - box_w) / 2, top - lay.height)
    return top - lay.height


def _faction_shields(book: Book, bottom: float, k: float = 1.0) -> None:
    """The seven factions' shields in a row, each in its colours, with its name beneath (`k`: their size)."""
    c = book.canvas
    factions = list(book.project.game.factions.values())
    sw, gap = mm(13 * k), mm(8.5 * k)
    total = len(factions) * sw + (len(factions) - 1) * gap
    x = (book.width - total) / 2
    name_style = replace(book.styles["body"], size=7.2, colour=book.look.colours.muted, align="center", leading=1.2)
    code_style = text_style(book.project, book.lang, "bold", 7.5 * k, "#FFFFFF", align="center", valign="middle")
    top = bottom + mm(26 * k)
    for f in factions:
        cx = x + sw / 2
        h = ornament.heater_shield(c, cx, top, sw, f.colour, f.accent)
        code = layout(f.code, replace(code_style, colour=f.accent), sw, h * 0.6)
        draw(c, code, cx - sw / 2, top - h * 0.62)
        name_w = sw + gap - mm(1)
        name = fit(book.words(f"faction.{f.id}"), replace(name_style, min_size=5.5), name_w, mm(7), where=book.where(f"faction.{f.id}"))
        draw(c, name, cx - name_w / 2, top - h - mm(2 * k) - mm(7))  # the name's 7 mm box, 2 mm under the shield
        x += sw + gap


# ── running head and folio ────────────────────────────────────────────────
def _begin_page(book: Book, flow: fl.PageFlow) -> None:
    # The running head names the section at the top of the page (or, on a page
    # that starts before any section, the first section that starts on it).
    flow.state["head"] = flow.state.get("section", "")


def page_furniture(book: Book, flow: fl.PageFlow) -> None:
    """The running head (the game's name; `flow.state["head"]` on the right) and the folio."""
    c, w, h = book.canvas, book.width, book.height
    p, col, st = book.look.page, book.look.colours, book.styles
    frame = book.frame(flow.page)
    base = h - mm(p.head_offset)
    left = layout(plain_title(book.words(book.structure.title)), replace(st["logo"], size=st["head"].size, align="left",
                  colour=col.muted, min_size=None), frame.width * 0.4, fl.HUGE)
    fl.draw_baseline(c, left, frame.x, base)
    head = flow.state.get("head", "")
    if head:
        right = fit(head, replace(st["head"], align="right", min_size=5), frame.width * 0.58, st["head"].size * 1.3)
        fl.draw_baseline(c, right, frame.x + frame.width * 0.42, base)
    c.saveState()
    c.setStrokeColor(col.rule)
    c.setLineWidth(0.5)
    c.line(frame.x, base - mm(2.2), frame.x + frame.width, base - mm(2.2))
    c.restoreState()
    fy = mm(p.foot_offset)
    folio = layout(str(flow.page), st["folio"], 40, fl.HUGE)
    fl.draw_baseline(c, folio, w / 2 - 20, fy)
    ornament.diamond(c, w / 2 - mm(6), fy + folio.size * 0.33, 2.0, col.accent)
    ornament.diamond(c, w / 2 + mm(6), fy + folio.size * 0.33, 2.0, col.accent)


def _head_marker(title: str) -> fl.Marker:
    """A picture that floats to the top of a page names its own section in that page's running head."""

    def action(flow: fl.PageFlow, x: float, top: float) -> None:
        if flow.empty:
            flow.state["head"] = title

    return fl.Marker(action)


def _section_marker(book: Book, title: str, key: str, level: int, head: str | None = None) -> fl.Marker:
    """Bookmark + outline entry + running head, placed where the heading after it lands."""

    def action(flow: fl.PageFlow, x: float, top: float) -> None:
        book.canvas.bookmarkPage(key, fit="XYZ", left=0, top=min(top + mm(8), book.height))
        book.outline.append(OutlineEntry(title, key, level, flow.page))
        flow.state["section"] = head or title
        if flow.empty or not flow.state.get("head"):
            flow.state["head"] = head or title

    return fl.Marker(action)


# ── the rules ─────────────────────────────────────────────────────────────
def prose_blocks(book: Book, structure: Structure) -> list[fl.Block]:
    st, sp = book.styles, book.look.space
    words = book.words
    blocks: list[fl.Block] = [
        fl.Paragraph(words(structure.intro), st["lead"], space_after=mm(sp.h1_before) * 0.6, where=book.where(structure.intro))
    ]
    for section in structure.sections:
        blocks.extend(section_blocks(book, section))
    return blocks


def section_blocks(book: Book, section: Section) -> list[fl.Block]:
    """A section: its bookmark, its heading, its blocks (those the build's facts call for)."""
    sp, col = book.look.space, book.look.colours
    title = book.words(section.heading)
    book.current_section = plain_title(title)
    out: list[fl.Block] = [_section_marker(book, plain_title(title), f"rulebook-{book.lang}-{section.id}", 1),
                           heading1(book, title, section.heading)]
    body: list[fl.Block] = []
    for b in merged_lists([b for b in section.blocks if b.applies(book.facts)]):
        body.extend(block_of(book, b))
    if section.panel:
        out.append(fl.Group(body, fill=col.panel, padding=mm(sp.panel_padding), bar=(col.heading, mm(sp.panel_bar)),
                            space_after=mm(sp.paragraph), prefer_whole=True))
    else:
        out.extend(body)
    return out


def merged_lists(blocks: list[Block]) -> list[Block]:
    """Neighbouring bullet lists as one list (blocks set only for some builds split a list)."""
    out: list[Block] = []
    for b in blocks:
        if out and b.kind == "bullets" and out[-1].kind == "bullets":
            out[-1] = replace(out[-1], keys=out[-1].keys + b.keys)
        else:
            out.append(b)
    return out


def block_of(book: Book, b: Block) -> list[fl.Block]:
    """The flow blocks of one structure block."""
    st, sp = book.styles, book.look.space
    if b.kind == "paragraph":
        key = b.keys[0]
        text = book.words(key)
        # a paragraph that introduces what follows ("…in this order:") stays with it
        leads_in = text.rstrip().endswith((":", "\uff1a"))
        return [fl.Paragraph(text, st["body"], space_after=mm(sp.paragraph), keep_with_next=leads_in, where=book.where(key))]
    if b.kind in ("bullets", "numbered"):
        group = fl.Group(list_items(book, b.kind, b.keys), space_after=mm(sp.list_after), runs_on=True)  # (no figure between its items)
        return [kept_whole_if_short(book, group)]
    if b.kind == "contents":
        return contents_blocks(book, b.value)
    if b.kind == "terms":
        return [terms_table(book, b.keys)]
    if b.kind == "components":
        return [kept_whole_if_short(book, components_table(book, b.keys))]
    return figure_blocks(book, b.value)


def kept_whole_if_short(book: Book, block: fl.Block) -> fl.Block:
    """A block of a quarter of a page or less (the six phases, the four rows of what to print) moves
    to the next page whole rather than split there (the table split 2 + 2 rows, its header twice); a
    longer one splits (between a list's items, a table's rows)."""
    frame = book.frame(0)
    block.prefer_whole = block.height(frame.width) <= frame.height / 4
    return block


def figure_blocks(book: Book, name: str) -> list[fl.Block]:
    """A picture: a float (it goes to the top of the next page when the rest of this one cannot
    hold it, and the text after it fills this page first — never splitting a paragraph around
    it: typeset/flow.py Float), or the walkthrough's steps."""
    from . import anatomy, table_setup, walkthrough

    head = book.current_section
    if name in ("anatomy", "table-setup"):
        figure = anatomy.anatomy_figure(book) if name == "anatomy" else table_setup.setup_figure(book)
        # the figure's space after it is the float's: the text that follows keeps it (it ran into the legend)
        return [fl.Float(fl.Group([_head_marker(head), figure], space_after=figure.space_after))]
    if name == "walkthrough":
        return walkthrough.walkthrough_blocks(book)
    return [quick_reference_block(book)]


def quick_reference_block(book: Book) -> fl.Block:
    """The quick reference: the rest of the last page when at least a third of it is left (so the
    end of the card reference never leaves a page more than a third empty), else a page of its own
    — in either case as large as the room allows, with the colophon's room below it."""
    from .quick_reference import quick_reference_figure

    frame = book.frame(0)
    heading = heading1(book, "X", book.structure.subtitle).height(frame.width) + mm(book.look.space.h1_after)
    colophon_room = book.styles["small"].size * 3 + mm(12)
    page = frame.height - heading - colophon_room
    return quick_reference_figure(book, frame.height / 3 - heading - colophon_room, page, colophon_room)


def back_page_blocks(book: Book, structure: Structure) -> list[fl.Block]:
    """The back page's section, after the card reference (the quick reference)."""
    if structure.back_page is None:
        return []
    return section_blocks(book, structure.back_page)


# ── the words the rulebook prints ─────────────────────────────────────────
TABLE_KEYS = ("rules.contents.heading", "rules.terms.column-term", "rules.terms.column-meaning",
              "rules.components.column-what", "rules.components.column-amount", "rules.components.column-paper")


def printed_keys(structure: Structure) -> list[str]:
    """Every locale key the rulebook of `structure` may print: its own texts, its sections'
    (whatever the build's facts), the tables' headers and the pictures' words — once each."""
    keys = [structure.title, structure.subtitle, structure.tagline, structure.intro, structure.colophon]
    keys += list(structure.reference.values())
    keys += [k for s in structure.all_sections for k in s.locale_keys] + list(TABLE_KEYS)
    keys += [k for s in structure.all_sections for k in section_figure_keys(s)]
    return list(dict.fromkeys(keys))


def section_figure_keys(section) -> list[str]:
    """The locale keys the pictures of a section print (their labels, the example's words, the
    quick reference's texts), in order."""
    from . import anatomy, quick_reference, table_setup, walkthrough

    pictures = {"anatomy": anatomy.KEYS, "table-setup": table_setup.KEYS, "walkthrough": walkthrough.KEYS,
                "quick-reference": quick_reference.KEYS}
    return [k for b in section.blocks if b.kind == "figure" for k in pictures.get(b.value, ())]


# ── contents, terms, components ───────────────────────────────────────────
def contents_entries(book: Book, depth: int) -> list[tuple[str, str, int]]:
    """(title, bookmark key, level) of every entry of the contents, in the book's order."""
    s, lang, words = book.structure, book.lang, book.words
    out = [(plain_title(words(x.heading)), f"rulebook-{lang}-{x.id}", 1) for x in s.sections if x.id != "contents"]
    out.append((plain_title(words(s.reference["heading"])), f"rulebook-{lang}-reference", 1))
    if depth >= 2:
        out += [(words(f"faction.{f}"), f"rulebook-{lang}-faction-{f}", 2) for f in book.project.game.factions]
    if s.back_page is not None:
        out.append((plain_title(words(s.back_page.heading)), f"rulebook-{lang}-{s.back_page.id}", 1))
    return out


def contents_blocks(book: Book, depth: int) -> list[fl.Block]:
    """The table of contents: a leader line per entry, its page read from the trial layout."""
    st, col, sp = book.styles, book.look.colours, book.look.space
    out: list[fl.Block] = []
    for title, key, level in contents_entries(book, depth):
        page = str(book.pages.get(key, "00")) if book.pages else "00"
        style = st["body"] if level == 1 else replace(st["body"], size=st["body"].size * 0.92, colour=col.muted)
        number = replace(style, bold_all=True) if level == 1 else style
        out.append(fl.Leader(title if level == 2 else f"**{title}**", page, replace(style, align="left"),
                             indent=mm(6) * (level - 1), number_style=number, leader_colour=col.rule,
                             space_after=mm(sp.list_item) * (1.0 if level == 1 else 0.5), where=book.where("rules.contents.heading")))
    group = fl.Group(out, space_after=mm(sp.list_after) * 1.5)
    group.prefer_whole = True
    return [group]


def _plain_table_style(book: Book) -> fl.TableStyle:
    sp, col = book.look.space, book.look.colours
    return fl.TableStyle(pad_x=mm(sp.table_pad_x) * 1.5, pad_y=mm(sp.table_pad_y) * 1.2, header_fill=tint(col.heading, 0.86),
                         zebra_fill=col.zebra, rule_colour=col.rule, rule_width=0.35, header_rule_width=0.9)


def _cell_style(book: Book) -> Style:
    """Table text a little larger than the card reference's: these tables are read, not looked up."""
    return replace(book.styles["cell"], size=book.look.type.table + 0.8)


def terms_table(book: Book, terms: tuple[str, ...]) -> fl.Table:
    """The card terms: the words as the cards print them, and what they mean."""
    cell = _cell_style(book)
    header = [fl.Cell(book.words(k), replace(book.styles["cell_head"], size=cell.size), book.where(k))
              for k in ("rules.terms.column-term", "rules.terms.column-meaning")]
    rows = []
    named = replace(cell, balance=True)  # a list of terms ("攻撃表示、守備表示") on two lines breaks after its comma
    for term in terms:
        key, meaning = term_keys(term)
        rows.append([fl.Cell(f"**{book.words(key)}**", named, book.where(key)), fl.Cell(book.words(meaning), cell, book.where(meaning))])
    columns = [fl.Column(weight=1.0, min=mm(28)), fl.Column(weight=2.6)]
    return fl.Table(columns, header, rows, _plain_table_style(book), space_after=mm(book.look.space.table_after))


def components_table(book: Book, parts: tuple[str, ...]) -> fl.Table:
    """What to print: a row per part of the set, its sheets from the build."""
    cell = _cell_style(book)
    head = replace(book.styles["cell_head"], size=cell.size)
    header = [fl.Cell(book.words(k), head, book.where(k))
              for k in ("rules.components.column-what", "rules.components.column-amount", "rules.components.column-paper")]
    rows = []
    for part in parts:
        if part not in book.facts.parts or (part == "cards" and "card_pages" not in book.words.values):
            continue
        what, amount, paper = component_keys(part, references=bool(book.words.values.get("reference_cards")))
        rows.append([fl.Cell(f"**{book.words(what)}**", cell, book.where(what)), fl.Cell(book.words(amount), cell, book.where(amount)),
                     fl.Cell(book.words(paper), cell, book.where(paper))])
    columns = [fl.Column(weight=1.0), fl.Column(weight=1.9), fl.Column(weight=1.1)]
    return fl.Table(columns, header, rows, _plain_table_style(book), space_after=mm(book.look.space.table_after))


def heading1(book: Book, text: str, key: str) -> fl.Paragraph:
    sp, col = book.look.space, book.look.colours
    return fl.Paragraph(text, book.styles["h1"], space_before=mm(sp.h1_before), space_after=mm(sp.h1_after),
                        keep_with_next=True, rule_below=(col.rule, sp.h1_rule, mm(1.4)), where=book.where(key))


def list_items(book: Book, kind: str, keys: tuple[str, ...]) -> list[fl.Block]:
    st, sp, col = book.styles, book.look.space, book.look.colours
    items = []
    for i, key in enumerate(keys, 1):
        marker = _number_marker(book, i) if kind == "numbered" else _bullet_marker(col.accent)
        items.append(fl.ListItem(book.words(key), st["body"], marker, hang=mm(sp.list_hang),
                                 space_after=mm(sp.list_item), where=book.where(key)))
    return items


def _bullet_marker(colour: str):
    def marker(c, x, top, size):
        ornament.diamond(c, x + mm(1.3), top - size * ASCENT + size * 0.36, size * 0.27, colour)

    return marker


def _number_marker(book: Book, n: int):
    style = book.styles["marker"]
    colour = book.look.colours.heading

    def marker(c, x, top, size):
        r = size * 0.68
        cx, cy = x + r, top - size * ASCENT + size * 0.36
        c.saveState()
        c.setFillColor(colour)
        c.circle(cx, cy, r, stroke=0, fill=1)
        c.restoreState()
        lay = layout(str(n), replace(style, size=size * 0.78), 2 * r, 2 * r)
        draw(c, lay, cx - r, cy - r + lay.size * 0.04)

    return marker


# ── the card reference ────────────────────────────────────────────────────
def reference_blocks(book: Book, structure: Structure) -> list[fl.Block]:
    project, words, st, sp, col = book.project, book.words, book.styles, book.look.space, book.look.colours
    ref = structure.reference
    title = words(ref["heading"])
    blocks: list[fl.Block] = [
        _section_marker(book, plain_title(title), f"rulebook-{book.lang}-reference", 1),
        heading1(book, title, ref["heading"]),
        fl.Paragraph(words(ref["intro"]), st["body"], space_after=mm(sp.paragraph), where=book.where(ref["intro"])),
        fl.Paragraph(words(ref["doctrines_tactics_intro"]), replace(st["body"], colour=col.muted), space_after=mm(sp.h2_before),
                     where=book.where(ref["doctrines_tactics_intro"])),
    ]
    for faction in project.game.factions.values():
        name = words(f"faction.{faction.id}")
        blocks.append(_section_marker(book, name, f"rulebook-{book.lang}-faction-{faction.id}", 2, head=f"{plain_title(title)} · {name}"))
        blocks.append(fl.Paragraph(name, st["band"], fill=faction.colour, padding=mm(sp.band_padding), keep_with_next=True,
                                   space_before=mm(sp.h1_before) * 0.6, space_after=mm(sp.band_after),
                                   rule_below=(faction.accent, 1.6, 0.0), where=book.where(f"faction.{faction.id}")))
        cards = project.game.cards_of(faction.id)
        units = [c for c in cards if c.is_unit]
        others = [c for c in cards if not c.is_unit]
        h2 = replace(st["h2"], colour=faction.colour)
        if units:
            blocks.append(fl.Paragraph(words(ref["units"]), h2, space_before=mm(sp.h2_before) * 0.5, space_after=mm(sp.h2_after),
                                       keep_with_next=True, where=book.where(ref["units"])))
            blocks.append(unit_table(book, faction, units))
        if others:
            blocks.append(fl.Paragraph(words(ref["doctrines_tactics"]), h2, space_before=mm(sp.h2_before), space_after=mm(sp.h2_after),
                                       keep_with_next=True, where=book.where(ref["doctrines_tactics"])))
            blocks.append(doctrine_table(book, faction, others))
    return blocks


def _name_cell(book: Book, card) -> fl.Cell:
    name = book.project.card_name(card, book.lang)
    mark = f" {COMMANDER_MARK}" if card.commander else ""
    # balance: a name on two lines breaks after its comma (汉尼拔·巴卡，/机动大师), as on the card
    return fl.Cell(f"**{name}{mark}**\n{card.code}", replace(book.styles["cell"], balance=True), book.where(f"card.{card.id}.name"))


def _table_style(book: Book, faction) -> fl.TableStyle:
    sp, col = book.look.space, book.look.colours
    return fl.TableStyle(pad_x=mm(sp.table_pad_x), pad_y=mm(sp.table_pad_y),
                         header_fill=tint(faction.colour, book.look.reference.header_tint),
                         zebra_fill=col.zebra, rule_colour=col.rule, rule_width=0.35, header_rule_width=0.9)


def _header(book: Book, keys: list[str]) -> list[fl.Cell]:
    return [fl.Cell(book.words(k), book.styles["cell_head"], book.where(k)) for k in keys]


def _type_column(book: Book, cards, weight: float) -> fl.Column:
    """The Type column, never so narrow that a type name breaks inside a word.

    Words languages may break between words ("Missile / Infantry"); in ja/zh
    a line may break between any two characters, so there the column is as
    wide as the longest type line (they are short: 射撃歩兵・傭兵).
    """
    cell = book.styles["cell"]
    lines = [book.project.type_line(card, book.lang) for card in cards]
    pieces = [w for line in lines for w in line.split()] if cell.line_break == "words" else lines
    widest = max((fl.flow_layout(p, cell, fl.HUGE).width for p in pieces), default=0.0)
    return fl.Column(weight=weight, min=widest + 2 * mm(book.look.space.table_pad_x) + 0.5)


def unit_table(book: Book, faction, cards) -> fl.Table:
    r, cell = book.look.reference, book.styles["cell"]
    num = fl.Column(align="center", fit=True)
    columns = [fl.Column(weight=r.name), num, num, num, num, num, _type_column(book, cards, r.type), fl.Column(weight=r.effect)]
    header = _header(book, ["label.card", "label.level-short", "label.atk", "label.def", "label.energy", "label.copies",
                            "label.type", "label.effect"])
    rows = []
    for card in cards:
        rows.append([
            _name_cell(book, card),
            *(fl.Cell(str(v), cell) for v in (card.level, card.atk, card.def_, card.energy, card.copies)),
            fl.Cell(book.project.type_line(card, book.lang), cell),
            fl.Cell(book.project.card_effect(card, book.lang), cell, book.where(f"card.{card.id}.effect")),
        ])
    return fl.Table(columns, header, rows, _table_style(book, faction), space_after=mm(book.look.space.table_after))


def doctrine_table(book: Book, faction, cards) -> fl.Table:
    r, cell = book.look.reference, book.styles["cell"]
    columns = [fl.Column(weight=r.name), fl.Column(weight=r.bonus), fl.Column(align="center", fit=True),
               _type_column(book, cards, r.type), fl.Column(weight=r.effect)]
    header = _header(book, ["label.card", "label.bonus", "label.copies", "label.type", "label.effect"])
    rows = []
    for card in cards:
        bonus = book.project.bonus_text(card, book.lang) if card.bonus else "\u2014"
        rows.append([
            _name_cell(book, card),
            fl.Cell(bonus, cell),
            fl.Cell(str(card.copies), cell),
            fl.Cell(book.project.type_line(card, book.lang), cell),
            fl.Cell(book.project.card_effect(card, book.lang), cell, book.where(f"card.{card.id}.effect")),
        ])
    return fl.Table(columns, header, rows, _table_style(book, faction), space_after=mm(book.look.space.table_after))


# ── colophon ──────────────────────────────────────────────────────────────
def colophon(book: Book, flow: fl.PageFlow, structure: Structure) -> None:
    """The colophon at the foot of the last page (on a page of its own if there is no room)."""
    text = book.words(structure.colophon)
    frame = flow.current
    lay = layout(text, book.styles["small"], frame.width, fl.HUGE, where=book.where(structure.colophon))
    need = lay.height + mm(10)
    if flow.remaining < need - 1e-6:
        flow.new_page()
        frame = flow.current
    ornament.diamond_rule(book.canvas, frame.x + frame.width / 2, frame.y + lay.height + mm(5), mm(40), book.look.colours.accent, 0.5)
    fl.draw_layout(book.canvas, lay, frame.x, frame.y + lay.height)
    flow.cursor = frame.y
    flow.empty = False
