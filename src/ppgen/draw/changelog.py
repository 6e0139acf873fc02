"""The changelog page of an errata PDF: what changed since an earlier version, in one language.

    pages = draw_changelog(canvas, project, "ja", A4, changelog, report)

`Changelog` holds the words already chosen (errata/sheets.py builds it from the
comparison): a title, a few lines under it, then sections (changed cards, new cards,
removed cards, rules, stale translations), each a list of entries. An entry is a
title line (a card's code and name, in its faction's colour) and a table of rows,
field by field: a label, the old value and the new, with what changed in **bold**.

The page is set like the rulebook — its styles, margins, headings, running head and
folio (draw/rulebook.py `open_book`) — and flows onto further pages as it needs.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..typeset import flow as fl
from .rulebook import Book, heading1, open_book, page_furniture
from .style import mm, tint


@dataclass(frozen=True)
class Row:
    label: str  # "" in a table without a label column (rules texts)
    old: str | None  # None: a table without a Before column (a new card)
    new: str


@dataclass
class Entry:
    title: str  # "ROM-03 Hastati Line"
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # lines under the table ("Printed on the card sheets: 3")
    colour: str | None = None  # the faction's colour for the title; None: the heading colour


@dataclass
class Section:
    heading: str
    entries: list[Entry] = field(default_factory=list)
    key: str = ""  # the heading's locale key (for messages)


@dataclass
class Changelog:
    title: str
    lines: list[str]  # under the title: since when, a summary, how to use the sheets
    sections: list[Section]
    old_label: str  # column headings: "Before", "Now"
    new_label: str
    head: str = ""  # the running head ("Errata")
    title_key: str = ""


def draw_changelog(canvas, project, lang: str, page_size: tuple[float, float], log: Changelog, report) -> int:
    """Draw the changelog onto `canvas` (each page ended with showPage); return its page count."""
    book = open_book(canvas, project, lang, page_size, report)
    flow = fl.PageFlow(canvas, book.frame, begin_page=lambda f: f.state.update(head=log.head),
                       end_page=lambda f: page_furniture(book, f))
    flow.run(blocks(book, log))
    flow.finish()
    return flow.page


def blocks(book: Book, log: Changelog) -> list[fl.Block]:
    st, sp = book.styles, book.look.space
    out: list[fl.Block] = [fl.Paragraph(log.title, replace(st["h1"], size=st["h1"].size * 1.35), space_after=mm(sp.h1_after),
                                        rule_below=(book.look.colours.accent, 1.2, mm(1.6)), where=book.where(log.title_key))]
    for i, line in enumerate(log.lines):
        style = st["lead"] if i == 0 else st["body"]
        out.append(fl.Paragraph(line, style, space_after=mm(sp.paragraph)))
    for section in log.sections:
        out.append(heading1(book, section.heading, section.key))
        for entry in section.entries:
            out.append(entry_group(book, entry, log))
    return out


def entry_group(book: Book, entry: Entry, log: Changelog) -> fl.Group:
    """An entry's title, table and notes, kept together on one page when they fit."""
    st, sp, col = book.styles, book.look.space, book.look.colours
    colour = entry.colour or col.heading
    parts: list[fl.Block] = [fl.Paragraph(entry.title, replace(st["h2"], colour=colour), space_before=mm(sp.h2_before) * 0.6,
                                          space_after=mm(sp.h2_after), keep_with_next=bool(entry.rows or entry.notes))]
    if entry.rows:
        parts.append(row_table(book, entry, log, colour))
    for note in entry.notes:
        parts.append(fl.Paragraph(note, replace(st["cell"], colour=col.muted), space_before=mm(1), space_after=mm(sp.list_item)))
    return fl.Group(parts, space_after=mm(sp.paragraph), prefer_whole=True)


def row_table(book: Book, entry: Entry, log: Changelog, colour: str) -> fl.Table:
    """Label | Before | Now (without a label column for rules texts, without Before for a new card)."""
    size = book.styles["body"].size * 0.88  # a little larger than the rulebook's tables: this is read closely
    cell, head = replace(book.styles["cell"], size=size), replace(book.styles["cell_head"], size=size)
    labelled = any(r.label for r in entry.rows)
    before = any(r.old is not None for r in entry.rows)
    columns, header = [], []
    if labelled:
        columns.append(fl.Column(weight=0.9, min=mm(18)))
        header.append(fl.Cell("", head))
    if before:
        columns.append(fl.Column(weight=2.0))
        header.append(fl.Cell(log.old_label, head))
    columns.append(fl.Column(weight=2.0))
    header.append(fl.Cell(log.new_label, head))
    rows = []
    for r in entry.rows:
        cells = [fl.Cell(r.label, head)] if labelled else []
        if before:
            cells.append(fl.Cell(r.old if r.old is not None else "", replace(cell, colour=book.look.colours.muted)))
        cells.append(fl.Cell(r.new, cell))
        rows.append(cells)
    sp = book.look.space
    style = fl.TableStyle(pad_x=mm(sp.table_pad_x), pad_y=mm(sp.table_pad_y), header_fill=tint(colour, 0.86),
                          zebra_fill=book.look.colours.zebra, rule_colour=book.look.colours.rule, rule_width=0.35,
                          header_rule_width=0.9)
    return fl.Table(columns, header, rows, style, space_after=mm(1))
