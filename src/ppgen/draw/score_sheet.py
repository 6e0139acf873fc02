"""The score sheet: for players without dice, one portrait page per game.

    draw_score_sheet(canvas, project, "zh", a4, report)

A row per turn, and for each player three columns: the energy (the maximum of that turn
printed in the corner of the cell, from cards.yaml: energy_start, energy_growth_turn,
energy_max; room to note what is left), the life points (the Start row pre-filled with
starting_life) and the bonuses on their units. A turn counts each player's own turns, as
the rules' energy does; the first-turn rule is printed under the table. As many turn rows
as the paper holds. Look: templates/mat-style.yaml `sheet:` and colours.
"""
from __future__ import annotations

from dataclasses import replace

from ..read.styles import mat_style
from ..typeset.text import draw, layout
from . import ornament
from .mat import logo_style
from .style import draw_fitted, mm, text_style, tint
from .words import Words

PLAYERS = 2
COLUMNS = ("sheet.energy", "sheet.life", "sheet.bonuses")  # each player's, in order


def column_widths(look, width: float) -> list[float]:
    """Turn, then per player energy, life points, bonuses (points): the bonuses take what is left."""
    s = look.sheet
    fixed = mm(s.turn_column) + PLAYERS * (mm(s.energy_column) + mm(s.life_column))
    bonus = max((width - fixed) / PLAYERS, 0.0)
    return [mm(s.turn_column)] + [w for _ in range(PLAYERS) for w in (mm(s.energy_column), mm(s.life_column), bonus)]


def draw_score_sheet(canvas, project, lang: str, page_size: tuple[float, float], report, printable: float = 0.0) -> int:
    """Draw one score-sheet page in `lang`; return the number of turn rows. Its margin is the
    style's, or `printable` mm (the build's printable margin) when larger."""
    look = mat_style(project)
    s, col, t = look.sheet, look.colours, look.type
    pw, ph = page_size
    canvas.setPageSize(page_size)
    margin = mm(max(s.margin, printable))
    x0, x1, top = margin, pw - margin, ph - margin
    width = x1 - x0
    c = canvas
    words = Words(project, lang, report)

    def text(key, style, box, label=False, **values):
        x, y, w, h = box
        return draw_fitted(c, words(key, **values), style, x, y, w, h, report, lang, key, label=label)

    # title line: the game's logo, then "Score sheet", and a date field on the right
    logo = layout(words("rules.title"), logo_style(project, lang, s.title * 0.62, col.heading), width * 0.4, mm(12))
    draw(c, replace(logo, box_h=logo.height), x0, top - logo.height)
    title_x = x0 + logo.width + mm(4)
    ornament.diamond(c, title_x - mm(2), top - logo.height / 2, 2.6, col.accent)
    title = text_style(project, lang, "title", s.title * 0.62, col.ink, min_size=t.min, valign="top")
    text("sheet.title", title, (title_x, top - mm(12), width * 0.45, mm(12)), label=True)
    field = text_style(project, lang, "body", s.body, col.muted, min_size=t.min, valign="bottom")
    _field(c, text, "sheet.date", field, (x0 + width * 0.68, top - logo.height, width * 0.32, logo.height), col.line)
    y = top - logo.height - mm(4)
    c.saveState()
    c.setStrokeColor(col.accent)
    c.setLineWidth(0.8)
    c.line(x0, y, x1, y)
    c.restoreState()
    # what the sheet is for
    intro_style = text_style(project, lang, "body", s.body, col.ink, min_size=t.min, leading=1.35)
    text("sheet.intro", intro_style, (x0, y - mm(13), width, mm(11.5)))
    y -= mm(14)
    widths = column_widths(look, width)
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    # players' names, over their columns
    name_style = text_style(project, lang, "bold", s.body, col.ink, min_size=t.min, valign="bottom")
    for n in range(1, PLAYERS + 1):
        bx, bw = xs[1 + 3 * (n - 1)], sum(widths[1 + 3 * (n - 1): 4 + 3 * (n - 1)])
        lab = words("sheet.player", n=n) + " \u2014 " + words("sheet.name")
        lay = draw_fitted(c, lab, name_style, bx, y - mm(8), bw * 0.55, mm(7), report, lang, "sheet.player", label=True)
        c.saveState()
        c.setStrokeColor(col.line)
        c.setLineWidth(0.5)
        c.line(bx + lay.width + mm(2), y - mm(8) + 1, bx + bw - mm(2), y - mm(8) + 1)
        c.restoreState()
    y -= mm(11)
    rows = _table(c, project, lang, words, look, report, xs, widths, y, margin)
    # the first-turn rule, and the winner
    table_bottom = y - mm(s.header_height) - (rows + 1) * mm(s.row_height)
    note = text_style(project, lang, "body", s.body * 0.9, col.ink, min_size=t.min, leading=1.25)
    ornament.diamond(c, x0 + mm(1.2), table_bottom - mm(3.4), 2.2, col.heading)
    text("rules.turn.first-turn", note, (x0 + mm(3.2), table_bottom - mm(7.5), width - mm(3.2), mm(6)))
    _field(c, text, "sheet.winner", replace(field, colour=col.ink), (x0, table_bottom - mm(15), width * 0.5, mm(6)), col.line)
    canvas.showPage()
    return rows


def _table(c, project, lang, words, look, report, xs, widths, y, margin) -> int:
    """The header (players over their three columns) and a row per turn; returns the turn rows."""
    s, col, t = look.sheet, look.colours, look.type
    rules = project.game.rules
    head_h, row_h = mm(s.header_height), mm(s.row_height)
    footer_h = mm(19)
    rows = int((y - head_h - (margin + footer_h)) // row_h) - 1  # turn rows, after the Start row
    x0, x1 = xs[0], xs[-1]
    bottom = y - head_h - (rows + 1) * row_h
    c.saveState()
    c.setFillColor(tint(col.heading, 0.86))
    c.rect(x0, y - head_h, x1 - x0, head_h, stroke=0, fill=1)
    for r in range(rows + 1):
        if r % 2 == 1:
            c.setFillColor(col.panel)
            c.rect(x0, y - head_h - (r + 1) * row_h, x1 - x0, row_h, stroke=0, fill=1)
    for p in range(PLAYERS):  # each player's energy column: its printed maximum
        c.setFillColor(tint(col.accent, 0.88))
        k = 1 + 3 * p
        c.rect(xs[k], bottom, widths[k], rows * row_h, stroke=0, fill=1)
    c.setStrokeColor(col.line)
    c.setLineWidth(0.4)
    for r in range(rows + 2):
        yy = y - head_h - r * row_h
        c.line(x0, yy, x1, yy)
    for k, xx in enumerate(xs[1:-1], 1):
        c.setLineWidth(0.9 if k % 3 == 1 else 0.4)  # a heavier rule before each player's columns
        c.line(xx, y if k % 3 == 1 else y - head_h / 2, xx, bottom)
    c.setLineWidth(0.9)
    c.rect(x0, bottom, x1 - x0, y - bottom, stroke=1, fill=0)
    c.line(x0, y - head_h, x1, y - head_h)
    c.setLineWidth(0.4)
    c.line(xs[1], y - head_h / 2, x1, y - head_h / 2)
    c.restoreState()
    head = text_style(project, lang, "bold", s.body, col.ink, min_size=t.min, align="center", valign="middle", leading=1.15)
    pad = mm(1)

    def label(key, x, yy, w, h, **values):
        draw_fitted(c, words(key, **values), head, x + pad, yy, w - 2 * pad, h, report, lang, key, label=True)

    label("mat.turn", xs[0], y - head_h, widths[0], head_h)
    for p in range(PLAYERS):
        k = 1 + 3 * p
        label("sheet.player", xs[k], y - head_h / 2, sum(widths[k:k + 3]), head_h / 2, n=p + 1)
        for j, key in enumerate(COLUMNS):
            label(key, xs[k + j], y - head_h, widths[k + j], head_h / 2)
    num = text_style(project, lang, "bold", s.numbers, col.heading, align="center", valign="middle")
    corner = text_style(project, lang, "bold", s.body * 0.85, col.heading, align="left", valign="top")
    turn_num = replace(num, colour=col.ink, size=s.body)
    start_y = y - head_h - row_h
    draw_fitted(c, words("sheet.start"), replace(turn_num, min_size=t.min), xs[0] + pad, start_y, widths[0] - 2 * pad, row_h, report,
                lang, "sheet.start", label=True)
    for p in range(PLAYERS):
        k = 2 + 3 * p
        draw(c, layout(str(rules.starting_life), num, widths[k], row_h), xs[k], start_y)
    for r in range(1, rows + 1):
        ry = start_y - r * row_h
        draw(c, layout(str(r), turn_num, widths[0], row_h), xs[0], ry)
        for p in range(PLAYERS):
            k = 1 + 3 * p
            draw(c, layout(str(rules.energy_max_on(r)), corner, widths[k], row_h - mm(0.6)), xs[k] + mm(1), ry)
    return rows


def _field(c, text, key: str, style, box: tuple, line_colour: str) -> None:
    """A label with a line to write on."""
    x, y, w, h = box
    lay = text(key, style, (x, y, w * 0.4, h), label=True)
    c.saveState()
    c.setStrokeColor(line_colour)
    c.setLineWidth(0.5)
    c.line(x + lay.width + mm(2), y + 1, x + w, y + 1)
    c.restoreState()
