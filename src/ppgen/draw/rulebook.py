"""The rulebook: title page, the rules, the card reference and the colophon, in one language.

    entries = draw_rulebook(canvas, project, "ja", A4, report)

draws every page onto `canvas` (ending each with showPage) and returns the
outline, each entry's bookmark already placed (canvas.bookmarkPage): the
rulebook itself (level 0, titled with the subtitle, "How to Play"), every
section (level 1) and every faction of the card reference (level 2). The
caller adds them to the PDF outline with `add_outline`, beside its own
entries for the other parts (mats, score sheet, cards).

Where things come from:
- the order of sections and blocks: templates/rulebook.yaml (load_structure);
- the words: locales/<lang>.yaml `rules.*`, `label.*`, `faction.*`, cards;
- every number: cards.yaml (rule constants fill the {placeholders}; the card
  tables come from the card database, so they cannot disagree with the cards);
- the look: templates/rulebook-style.yaml.
Text is set by the text engine only (typeset/text.py), poured down pages by
typeset/flow.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..errors import UsageError
from ..read.model import COMMANDER_MARK
from ..read.rulebook import Structure, load_structure
from ..read.styles import rulebook_style
from ..read.templates import in_language
from ..typeset import flow as fl
from ..typeset.fonts import FontChain
from ..typeset.text import ASCENT, Style, draw, fit, layout
from . import ornament
from .style import mm, text_style, tint
from .words import Words


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
              printable: float = 0.0) -> Book:
    """The rulebook's look, styles and words on `canvas`: for the rulebook, and for pages set
    like it (the changelog of `ppgen errata`, draw/changelog.py). `form` "booklet": the look of
    the booklet's small pages (the style's `booklet:` values); a look that would print within
    `printable` mm of the paper edge is refused (UsageError naming the key)."""
    structure = load_structure(project)
    look = rulebook_style(project, form)
    check_printable(look, printable, form)
    canvas.setPageSize(page_size)  # pages keep this size until another part sets its own
    book = Book(canvas, project, lang, page_size, Words(project, lang, report), look, report, structure)
    book.styles = _styles(project, lang, look)
    return book


def draw_rulebook(canvas, project, lang: str, page_size: tuple[float, float], report, first_page: int = 1,
                  form: str = "pages", printable: float = 0.0) -> list[OutlineEntry]:
    """Draw the whole rulebook of `lang` onto `canvas`; return its outline (bookmarks already placed).

    `first_page` is the number the title page would carry (for the printed
    page numbers when the rulebook is not the first part of a PDF). `form`
    "booklet" lays the book out for the small pages of a booklet, with the
    style's `booklet:` values (margins, type sizes, ornaments) — not scaled down.
    A style that puts the running head, folio or title frame within `printable`
    mm of the paper edge is refused (UsageError naming the key).
    """
    book = open_book(canvas, project, lang, page_size, report, form, printable)
    structure = book.structure
    title_page(book, structure, first_page)
    flow = fl.PageFlow(canvas, book.frame, begin_page=lambda f: _begin_page(book, f),
                       end_page=lambda f: page_furniture(book, f), first_page=first_page + 1)
    flow.run(prose_blocks(book, structure) + reference_blocks(book, structure))
    colophon(book, flow, structure)
    flow.finish()
    return book.outline


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
    st, sp, col = book.styles, book.look.space, book.look.colours
    words = book.words
    blocks: list[fl.Block] = [
        fl.Paragraph(words(structure.intro), st["lead"], space_after=mm(sp.h1_before) * 0.6, where=book.where(structure.intro))
    ]
    for section in structure.sections:
        title = words(section.heading)
        blocks.append(_section_marker(book, plain_title(title), f"rulebook-{book.lang}-{section.id}", 1))
        blocks.append(heading1(book, title, section.heading))
        body: list[fl.Block] = []
        for kind, keys in section.blocks:
            if kind == "paragraph":
                body.append(fl.Paragraph(words(keys[0]), st["body"], space_after=mm(sp.paragraph), where=book.where(keys[0])))
            else:
                items = list_items(book, kind, keys)
                group = fl.Group(items, space_after=mm(sp.list_after))
                # a short list (the six phases) is kept on one page; a long one splits between items
                frame = book.frame(0)
                group.prefer_whole = group.height(frame.width) <= frame.height / 4
                body.append(group)
        if section.panel:
            blocks.append(fl.Group(body, fill=col.panel, padding=mm(sp.panel_padding), bar=(col.heading, mm(sp.panel_bar)),
                                   space_after=mm(sp.paragraph), prefer_whole=True))
        else:
            blocks.extend(body)
    return blocks


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
        fl.PageBreak(),
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
    return fl.Cell(f"**{name}{mark}**\n{card.code}", book.styles["cell"], book.where(f"card.{card.id}.name"))


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
    if flow.remaining < need:
        flow.new_page()
        frame = flow.current
    ornament.diamond_rule(book.canvas, frame.x + frame.width / 2, frame.y + lay.height + mm(5), mm(40), book.look.colours.accent, 0.5)
    fl.draw_layout(book.canvas, lay, frame.x, frame.y + lay.height)
    flow.cursor = frame.y
    flow.empty = False
