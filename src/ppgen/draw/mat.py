"""The player mat: one landscape page per player, every zone at real size.

    zones = draw_mat(canvas, project, "ko", landscape_a4, report)

draws one page (ending with showPage) and returns the zones it drew, in mm
from the page's bottom-left corner — what a test or a preview can measure.

What is on it (geometry, colours, sizes: templates/mat-style.yaml):
- three unit slots, each one poker card (63 × 88 mm), with a green (+) d6
  spot for bonuses and a red (−) one for wounds under it;
- the deck and the graveyard, one card each, in a column beside the slots
  (four card widths is what fits Letter landscape; a fifth would not);
- life: a d20 spindown (start value from cards.yaml `starting_life`);
- energy: one d12 spindown or two d6, with the energy maximum on each turn
  computed from cards.yaml (energy_start, energy_growth_turn, energy_max);
- combat quick reference; the six-phase turn track with the first-turn rule.
All words come from locales (`mat.*`, and `rules.*` where the rulebook
already has them); all text goes through the text engine.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import UsageError
from ..read.styles import mat_style
from ..typeset.fonts import FontChain
from ..typeset.text import Style, draw, layout
from . import dice, ornament
from .style import draw_fitted, fit_stack, mm, text_style, tint
from .words import Words


@dataclass(frozen=True)
class Zone:
    """Something drawn at a stated size: name, kind (card | d20 | d12 | d6) and its box in mm."""

    name: str
    kind: str
    x: float
    y: float
    w: float
    h: float


def _zone(name: str, kind: str, box: tuple) -> Zone:
    x, y, w, h = (v / mm(1) for v in box)
    return Zone(name, kind, x, y, w, h)


def logo_style(project, lang: str, size: float, colour_: str) -> Style:
    """The game's name as a logo: the source language's title face, then the language's own."""
    fonts = project.fonts.chain(project.config.source_language, "title").fonts + project.fonts.chain(lang, "title").fonts
    chain = FontChain(lang, "title", fonts)
    return Style(chain, chain, size, colour=colour_, line_break=project.config.languages[lang].line_break)


def energy_schedule(rules) -> list[tuple[str, int]]:
    """(turn label, maximum) from turn 1 until the maximum stops growing; the last label is 'n+'."""
    out = []
    turn = 1
    while True:
        value = rules.energy_max_on(turn)
        if value >= rules.energy_max or turn > 40:
            out.append((f"{turn}+", value))
            return out
        out.append((str(turn), value))
        turn += 1


# ── geometry ──────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class MatGeometry:
    """Where the mat's parts go on the page, in points."""

    x0: float
    y0: float
    width: float
    height: float
    units_width: float
    slots: tuple  # (x, y, w, h) per unit slot
    deck: tuple
    graveyard: tuple
    spots_y: float  # centre line of the d6 spots
    panels: tuple  # (x, y, w, h) of life, energy, combat
    track: tuple
    first_turn: tuple
    header: tuple


def mat_geometry(look, page_size: tuple[float, float], paper_name: str = "this paper", printable: float = 0.0) -> MatGeometry:
    """Compute the layout; UsageError when it does not fit the page inside the printable margin
    (the style's min_margin, or `printable` mm — the build's printable margin — when larger)."""
    L, card = look.layout, look.card
    n = int(L.unit_slots)
    cw, ch, gap = mm(card.width), mm(card.height), mm(L.slot_gap)
    units_w = n * cw + (n - 1) * gap
    width = units_w + mm(L.column_gap) + cw
    height = mm(L.header) + 2 * ch + gap
    pw, ph = page_size
    margin_mm = max(look.page.min_margin, printable)
    margin = mm(margin_mm)
    if width > pw - 2 * margin or height > ph - 2 * margin:
        raise UsageError(
            f"the player mat ({width / mm(1):.0f} × {height / mm(1):.0f} mm) does not fit {paper_name} "
            f"({pw / mm(1):.0f} × {ph / mm(1):.0f} mm) with {margin_mm:g} mm margins"
            f"{' (the printable margin)' if printable > look.page.min_margin else ''}; "
            "use fewer unit_slots or smaller gaps in templates/mat-style.yaml"
        )
    x0, y0 = (pw - width) / 2, (ph - height) / 2
    top = y0 + height
    slot_y = top - mm(L.header) - ch
    slots = tuple((x0 + i * (cw + gap), slot_y, cw, ch) for i in range(n))
    col_x = x0 + units_w + mm(L.column_gap)
    deck = (col_x, slot_y, cw, ch)
    graveyard = (col_x, slot_y - gap - ch, cw, ch)
    d6 = mm(look.dice.d6)
    spots_y = slot_y - mm(L.spot_gap) - d6 / 2
    first_turn = (x0, y0, units_w, mm(L.first_turn_line))
    track = (x0, y0 + mm(L.first_turn_line), units_w, mm(L.track_height))
    panel_top = spots_y - d6 / 2 - mm(L.panel_gap)
    panel_bottom = track[1] + track[3] + mm(L.panel_gap)
    ph_ = panel_top - panel_bottom
    pg = mm(L.panel_gap)
    life_w = mm(L.life_panel)
    rest = (units_w - life_w - 2 * pg) / 2
    panels = (
        (x0, panel_bottom, life_w, ph_),
        (x0 + life_w + pg, panel_bottom, rest, ph_),
        (x0 + life_w + 2 * pg + rest, panel_bottom, rest, ph_),
    )
    header = (x0, top - mm(L.header), width, mm(L.header))
    return MatGeometry(x0, y0, width, height, units_w, slots, deck, graveyard, spots_y, panels, track, first_turn, header)


# ── drawing ───────────────────────────────────────────────────────────────
class MatPainter:
    """Draws the mat's parts; collects the zones it draws."""

    def __init__(self, canvas, project, lang: str, look, words: Words, report):
        self.c, self.project, self.lang, self.look, self.words, self.report = canvas, project, lang, look, words, report
        self.zones: list[Zone] = []
        t, col = look.type, look.colours
        self.body = text_style(project, lang, "body", t.body, col.ink, min_size=t.min, leading=1.3)
        self.bold = text_style(project, lang, "bold", t.heading, col.heading, min_size=t.min, leading=1.2)
        self.label = text_style(project, lang, "title", t.zone_label, col.watermark, min_size=t.min, align="center",
                                valign="middle", leading=1.15)

    def text(self, key: str, style: Style, box: tuple, label: bool = False, **values) -> None:
        x, y, w, h = box
        draw_fitted(self.c, self.words(key, **values), style, x, y, w, h, self.report, self.lang, key, label=label)

    def card_zone(self, name: str, box: tuple, label_key: str) -> None:
        c, col, card = self.c, self.look.colours, self.look.card
        x, y, w, h = box
        c.saveState()
        c.setFillColor(col.zone)
        c.setStrokeColor(col.line)
        c.setLineWidth(0.8)
        c.roundRect(x, y, w, h, mm(card.corner), stroke=1, fill=1)
        c.restoreState()
        pad = mm(5)
        self.text(label_key, self.label, (x + pad, y + h * 0.3, w - 2 * pad, h * 0.4))
        self.zones.append(_zone(name, "card", box))

    def spot(self, name: str, cx: float, cy: float, colour_: str, sign: str) -> None:
        size = mm(self.look.dice.d6)
        box = dice.d6(self.c, cx, cy, size, colour_, tint(colour_, 0.9), width=1.1)
        c = self.c
        c.saveState()
        c.setFillColor(tint(colour_, 0.55))
        bar, arm = size * 0.09, size * 0.42
        c.rect(cx - arm / 2, cy - bar / 2, arm, bar, stroke=0, fill=1)  # the minus, or the plus's cross-bar
        if sign == "+":
            c.rect(cx - bar / 2, cy - arm / 2, bar, arm, stroke=0, fill=1)
        c.setFillColor(tint(colour_, 0.7))
        step = size * 0.3
        for px, py in ((-1, 1), (1, 1), (-1, -1), (1, -1)):  # faint corner pips: this is a die's place
            c.circle(cx + px * step, cy + py * step, size * 0.05, stroke=0, fill=1)
        c.restoreState()
        self.zones.append(_zone(name, "d6", box))

    def panel(self, box: tuple, heading_key: str) -> tuple:
        """A panel with its heading; returns the inner box below the heading."""
        c, col = self.c, self.look.colours
        x, y, w, h = box
        pad = mm(self.look.layout.panel_padding)
        c.saveState()
        c.setFillColor(col.panel)
        c.setStrokeColor(col.accent)
        c.setLineWidth(0.6)
        c.roundRect(x, y, w, h, mm(2), stroke=1, fill=1)
        c.restoreState()
        head_h = self.bold.size * 1.35
        self.text(heading_key, self.bold, (x + pad, y + h - pad - head_h, w - 2 * pad, head_h))
        c.saveState()
        c.setStrokeColor(col.accent)
        c.setLineWidth(0.4)
        ly = y + h - pad - head_h - mm(0.8)
        c.line(x + pad, ly, x + w - pad, ly)
        c.restoreState()
        return (x + pad, y + pad, w - 2 * pad, h - 2 * pad - head_h - mm(1.5))


def draw_mat(canvas, project, lang: str, page_size: tuple[float, float], report, paper_name: str = "this paper",
             printable: float = 0.0) -> list[Zone]:
    """Draw one player mat page in `lang`; return the zones drawn (mm). Nothing nearer the paper
    edge than the style's min_margin or `printable` mm, whichever is larger."""
    look = mat_style(project)
    geo = mat_geometry(look, page_size, paper_name, printable)
    canvas.setPageSize(page_size)
    words = Words(project, lang, report)
    p = MatPainter(canvas, project, lang, look, words, report)
    _header(p, geo)
    for i, slot in enumerate(geo.slots, 1):
        p.card_zone(f"unit-{i}", slot, "mat.unit")
        _spots(p, geo, slot, i)
    p.card_zone("deck", geo.deck, "mat.deck")
    p.card_zone("graveyard", geo.graveyard, "mat.graveyard")
    _life_panel(p, geo.panels[0])
    _energy_panel(p, geo.panels[1])
    _combat_panel(p, geo.panels[2])
    _turn_track(p, geo)
    canvas.showPage()
    return p.zones


def _header(p: MatPainter, geo: MatGeometry) -> None:
    x, y, w, h = geo.header
    col, t = p.look.colours, p.look.type
    logo = layout(p.words("rules.title"), logo_style(p.project, p.lang, t.title, col.heading), w * 0.3, h)
    base = y + h * 0.42
    draw(p.c, replace(logo, box_h=logo.height), x, base - logo.size * 0.24)
    title_x = x + logo.width + mm(3)
    ornament.diamond(p.c, title_x, base + t.title * 0.33, 2.4, col.accent)
    title = text_style(p.project, p.lang, "title", t.title * 0.9, col.ink, min_size=t.min)
    p.text("mat.title", title, (title_x + mm(3), base - t.title * 0.3, w * 0.35, t.title * 1.3))
    note = text_style(p.project, p.lang, "body", t.small, col.muted, min_size=t.min, align="right")
    p.text("sheet.print-note", note, (x + w * 0.5, base - t.small * 0.3, w * 0.5, t.small * 1.4))


def _spots(p: MatPainter, geo: MatGeometry, slot: tuple, i: int) -> None:
    x, y, w, h = slot
    d6, pair = mm(p.look.dice.d6), mm(p.look.layout.spot_pair_gap)
    cx, cy = x + w / 2, geo.spots_y
    col, t = p.look.colours, p.look.type
    gx, rx = cx - pair / 2 - d6 / 2, cx + pair / 2 + d6 / 2
    p.spot(f"bonus-{i}", gx, cy, col.bonus, "+")
    p.spot(f"wound-{i}", rx, cy, col.wound, "-")
    side = (w - 2 * d6 - pair) / 2 - mm(1)
    small = text_style(p.project, p.lang, "bold", t.small, col.bonus, min_size=t.min, align="right", valign="middle")
    p.text("mat.bonus", small, (x, cy - d6 / 2, side, d6), label=True)
    p.text("mat.wounds", replace(small, colour=col.wound, align="left"), (x + w - side, cy - d6 / 2, side, d6), label=True)


def _life_panel(p: MatPainter, box: tuple) -> None:
    x, y, w, h = p.panel(box, "mat.life")
    col, size = p.look.colours, mm(p.look.dice.d20)
    cap_h = mm(8)
    cx, cy = x + w / 2, y + cap_h + (h - cap_h) / 2
    drawn = dice.d20(p.c, cx, cy, size, col.line, col.die_fill, col.facet, width=1.1)
    p.zones.append(_zone("life-d20", "d20", drawn))
    number = text_style(p.project, p.lang, "bold", 8, col.muted, align="center", valign="middle")
    draw(p.c, layout(str(p.project.game.rules.starting_life), number, mm(8), mm(5)), cx - mm(4), cy - mm(2.5) - size * 0.03)
    cap = text_style(p.project, p.lang, "body", p.look.type.small, col.ink, min_size=p.look.type.min, align="center",
                     valign="middle", leading=1.25)
    p.text("mat.life-die", cap, (x, y, w, cap_h))


def _energy_panel(p: MatPainter, box: tuple) -> None:
    x, y, w, h = p.panel(box, "mat.energy")
    col, t = p.look.colours, p.look.type
    d12s, d6s = mm(p.look.dice.d12), mm(p.look.dice.d6)
    or_w = mm(9)
    row_w = d12s + or_w + 2 * d6s + mm(2)
    dice_cy = y + h - d12s / 2 - mm(0.5)
    x1 = x + (w - row_w) / 2
    drawn = dice.d12(p.c, x1 + d12s / 2, dice_cy, d12s, col.line, col.die_fill, col.facet, width=1.1)
    p.zones.append(_zone("energy-d12", "d12", drawn))
    small = text_style(p.project, p.lang, "body", t.small, col.muted, min_size=t.min, align="center", valign="middle")
    p.text("mat.or", small, (x1 + d12s, dice_cy - mm(3), or_w, mm(6)))
    for k in range(2):
        cx = x1 + d12s + or_w + d6s / 2 + k * (d6s + mm(2))
        drawn = dice.d6(p.c, cx, dice_cy, d6s, col.line, col.die_fill, pips=6, pip_colour=col.facet, width=1.1)
        p.zones.append(_zone(f"energy-d6-{k + 1}", "d6", drawn))
    # the energy maximum on each turn, from the rules
    schedule = energy_schedule(p.project.game.rules)
    table_top = dice_cy - d12s / 2 - mm(2.5)
    row_h = mm(4.2)
    label_w = mm(19)
    cell_w = (w - label_w) / len(schedule)
    c = p.c
    c.saveState()
    c.setFillColor(tint(col.heading, 0.86))
    c.rect(x, table_top - row_h, w, row_h, stroke=0, fill=1)
    c.setStrokeColor(col.accent)
    c.setLineWidth(0.4)
    c.rect(x, table_top - 2 * row_h, w, 2 * row_h, stroke=1, fill=0)
    c.line(x, table_top - row_h, x + w, table_top - row_h)
    for i in range(len(schedule) + 1):
        c.line(x + label_w + i * cell_w, table_top, x + label_w + i * cell_w, table_top - 2 * row_h)
    c.restoreState()
    head = text_style(p.project, p.lang, "bold", t.small, col.ink, min_size=t.min, align="center", valign="middle")
    nums = text_style(p.project, p.lang, "bold", t.body, col.heading, min_size=t.min, align="center", valign="middle")
    p.text("mat.turn", replace(head, align="left"), (x + mm(1), table_top - row_h, label_w - mm(1.5), row_h), label=True)
    for i, (turn, _) in enumerate(schedule):
        draw(c, layout(turn, head, cell_w, row_h), x + label_w + i * cell_w, table_top - row_h)
    p.text("mat.energy-max", replace(head, align="left"), (x + mm(1), table_top - 2 * row_h, label_w - mm(1.5), row_h),
           label=True)
    for i, (_, value) in enumerate(schedule):
        draw(c, layout(str(value), nums, cell_w, row_h), x + label_w + i * cell_w, table_top - 2 * row_h)
    note = text_style(p.project, p.lang, "body", t.small, col.ink, min_size=t.min, align="center", valign="middle", leading=1.25)
    below = table_top - 2 * row_h - mm(1)
    p.text("mat.energy-note", note, (x, y, w, below - y))


def _combat_panel(p: MatPainter, box: tuple) -> None:
    x, y, w, h = p.panel(box, "rules.fighting.heading")
    col, t = p.look.colours, p.look.type
    keys = [f"mat.combat.{i}" for i in range(1, 6)]
    texts = [p.words(k) for k in keys]
    hang = mm(2.6)
    gap = mm(0.9)
    style = text_style(p.project, p.lang, "body", t.body, col.ink, min_size=t.min, leading=1.22)
    size = fit_stack(texts, style, w - hang, h, gap)
    top = y + h
    for key, text in zip(keys, texts):
        lay = layout(text, style, w - hang, 1e6, size=size, where=key)
        if top - lay.height < y - 0.5:
            p.report.warning("overflow", f"'{key}' does not fit the combat panel", lang=p.lang, key=key)
            break
        ornament.diamond(p.c, x + mm(0.9), top - size * 0.55, size * 0.26, col.accent)
        draw(p.c, replace(lay, box_h=lay.height), x + hang, top - lay.height)
        top -= lay.height + gap


def _turn_track(p: MatPainter, geo: MatGeometry) -> None:
    x, y, w, h = geo.track
    col, t = p.look.colours, p.look.type
    n = 6
    point = h * 0.32
    seg = w / n
    label = text_style(p.project, p.lang, "bold", t.track, col.ink, min_size=t.min, align="center", valign="middle",
                       leading=1.1)
    num_style = text_style(p.project, p.lang, "bold", t.track * 1.15, "#FFFFFF", align="center", valign="middle")
    c = p.c
    for i in range(n):
        x0 = x + i * seg
        x1 = x0 + seg - mm(0.8)
        path = c.beginPath()
        path.moveTo(x0, y)
        path.lineTo(x1 - point, y)
        path.lineTo(x1, y + h / 2)
        path.lineTo(x1 - point, y + h)
        path.lineTo(x0, y + h)
        if i:
            path.lineTo(x0 + point, y + h / 2)
        path.close()
        c.saveState()
        c.setFillColor(tint(col.heading, 0.9 - 0.05 * i))
        c.setStrokeColor(col.accent)
        c.setLineWidth(0.5)
        c.drawPath(path, stroke=1, fill=1)
        r = h * 0.27
        nx = x0 + (point if i else 0) + r + mm(1.2)
        c.setFillColor(col.heading)
        c.circle(nx, y + h / 2, r, stroke=0, fill=1)
        c.restoreState()
        draw(c, layout(str(i + 1), num_style, 2 * r, 2 * r), nx - r, y + h / 2 - r - num_style.size * 0.05)
        tx = nx + r + mm(0.8)
        p.text(f"rules.phases.{i + 1}", label, (tx, y + mm(0.6), x1 - point * 0.55 - tx, h - mm(1.2)), label=True)
    fx, fy, fw, fh = geo.first_turn
    note = text_style(p.project, p.lang, "body", t.small, col.ink, min_size=t.min, valign="middle", leading=1.2)
    ornament.diamond(c, fx + mm(1.2), fy + fh / 2, 2.2, col.heading)
    p.text("rules.turn.first-turn", note, (fx + mm(3.2), fy, fw - mm(3.2), fh))
