"""The score sheet: for players without dice, one portrait page per game.

    draw_score_sheet(canvas, project, "zh", a4, report)

Rows per turn: the turn, the energy maximum on that turn (pre-filled from
cards.yaml: energy_start, energy_growth_turn, energy_max), both players'
life (the Start row pre-filled with starting_life), and notes. As many turn
rows as the paper holds. Look: templates/mat-style.yaml `sheet:` and colours.
"""
from __future__ import annotations

from dataclasses import replace

from ..read.styles import mat_style
from ..typeset.text import draw, layout
from . import ornament
from .mat import logo_style
from .style import draw_fitted, mm, text_style, tint
from .words import Words


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
    rules = project.game.rules
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
    text("sheet.intro", intro_style, (x0, y - mm(12), width, mm(10)))
    y -= mm(11)
    # players' names
    half = (width - mm(8)) / 2
    name_style = text_style(project, lang, "bold", s.body, col.ink, min_size=t.min, valign="bottom")
    for n in (1, 2):
        bx = x0 + (n - 1) * (half + mm(8))
        lab = words("sheet.player", n=n) + " \u2014 " + words("sheet.name")
        lay = draw_fitted(c, lab, name_style, bx, y - mm(9), half * 0.45, mm(7), report, lang, "sheet.player", label=True)
        c.saveState()
        c.setStrokeColor(col.line)
        c.setLineWidth(0.5)
        c.line(bx + lay.width + mm(2), y - mm(9) + 1, bx + half, y - mm(9) + 1)
        c.restoreState()
    y -= mm(14)
    # the table
    widths = [mm(s.turn_column), mm(s.energy_column), mm(s.life_column), mm(s.life_column)]
    widths.append(width - sum(widths))
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    head_h, row_h = mm(s.header_height), mm(s.row_height)
    footer_h = mm(14)
    rows = int((y - head_h - (margin + footer_h)) // row_h)
    table_bottom = y - head_h - rows * row_h
    c.saveState()
    c.setFillColor(tint(col.heading, 0.86))
    c.rect(x0, y - head_h, width, head_h, stroke=0, fill=1)
    for r in range(rows):
        if r % 2 == 1:
            c.setFillColor(col.panel)
            c.rect(x0, y - head_h - (r + 1) * row_h, width, row_h, stroke=0, fill=1)
    c.setFillColor(tint(col.accent, 0.85))  # the pre-filled energy column
    c.rect(xs[1], table_bottom, widths[1], rows * row_h, stroke=0, fill=1)
    c.setStrokeColor(col.line)
    c.setLineWidth(0.4)
    for r in range(rows + 1):
        yy = y - head_h - r * row_h
        c.line(x0, yy, x1, yy)
    c.setLineWidth(0.9)
    c.rect(x0, table_bottom, width, y - table_bottom, stroke=1, fill=0)
    c.line(x0, y - head_h, x1, y - head_h)
    c.setLineWidth(0.4)
    for xx in xs[1:-1]:
        c.line(xx, y, xx, table_bottom)
    c.setStrokeColor(tint(col.line, 0.6))  # faint ticks: life changes several times a turn
    c.setDash(1, 2)
    for k in (2, 3):
        for q in (1, 2, 3):
            xx = xs[k] + widths[k] * q / 4
            c.line(xx, y - head_h - row_h, xx, table_bottom)
    c.restoreState()
    head = text_style(project, lang, "bold", s.body, col.ink, min_size=t.min, align="center", valign="middle", leading=1.15)
    pad = mm(1)
    text("mat.turn", head, (xs[0] + pad, y - head_h, widths[0] - 2 * pad, head_h), label=True)
    text("mat.energy-max", head, (xs[1] + pad, y - head_h, widths[1] - 2 * pad, head_h), label=True)
    mixed = text_style(project, lang, "body", s.body, col.ink, min_size=t.min, align="center", valign="middle", leading=1.15)
    for k, n in ((2, 1), (3, 2)):
        lab = "**" + words("sheet.player", n=n) + "**\n" + words("sheet.life")
        draw_fitted(c, lab, mixed, xs[k] + pad, y - head_h, widths[k] - 2 * pad, head_h, report, lang, "sheet.life")
    text("sheet.notes", head, (xs[4] + pad, y - head_h, widths[4] - 2 * pad, head_h), label=True)
    num = text_style(project, lang, "bold", s.numbers, col.heading, align="center", valign="middle")
    turn_num = replace(num, colour=col.ink, size=s.body)
    for r in range(rows):
        ry = y - head_h - (r + 1) * row_h
        if r == 0:
            text("sheet.start", replace(turn_num, min_size=t.min), (xs[0] + pad, ry, widths[0] - 2 * pad, row_h), label=True)
            for k in (2, 3):
                draw(c, layout(str(rules.starting_life), num, mm(10), row_h), xs[k] + pad, ry)
            continue
        draw(c, layout(str(r), turn_num, widths[0], row_h), xs[0], ry)
        draw(c, layout(str(rules.energy_max_on(r)), num, widths[1], row_h), xs[1], ry)
    # the winner
    wy = table_bottom - mm(11)
    _field(c, text, "sheet.winner", replace(field, colour=col.ink), (x0, wy, width * 0.5, mm(7)), col.line)
    canvas.showPage()
    return rows - 1


def _field(c, text, key: str, style, box: tuple, line_colour: str) -> None:
    """A label with a line to write on."""
    x, y, w, h = box
    lay = text(key, style, (x, y, w * 0.4, h), label=True)
    c.saveState()
    c.setStrokeColor(line_colour)
    c.setLineWidth(0.5)
    c.line(x + lay.width + mm(2), y + 1, x + w, y + 1)
    c.restoreState()
