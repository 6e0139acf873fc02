"""The player mat: a zone for every card a player has in play, spots for the dice, at real size.

    geo = mat_geometry(project, card_size=(63, 88), sleeved=True)     # sizes from templates/mat-style.yaml
    zones = paint_mat(canvas, project, "ko", geo, report)             # drawn at (0, 0)–(geo.width, geo.height)

`paint_mat` draws the mat's design (no page: the caller places it on one sheet or on two
joined ones, impose/tiles.py) and returns the zones it drew, in mm from the design's
bottom-left corner — what a test or the rulebook's table setup picture can measure. On two
sheets, no word is set across the seam (`seam`): a label the seam crosses moves to the larger
side of it, the combat reference's columns leave it between them, and a sheet glued a little
off still shows every letter.

What is on it (geometry, colours, sizes: templates/mat-style.yaml), the player sitting at
its bottom edge:
- the front row: the Terrain zone, the unit zones, the Graveyard; every zone one card, of the
  build's card size with room for a sleeve (`card.sleeve`, 66 × 91 mm for poker cards, plus
  `card.room`), or for a bare card (`--unsleeved`);
- beside each unit zone's foot a green (+, bonus) and a red (−, wound) d6 spot; under the
  Terrain zone the d20 spot for life points;
- the back row: the Doctrine and Tactic row (cards set face-down), one zone under each unit
  zone; the energy panel (a d12 spot or two d6 spots, the energy maximum on each turn from
  cards.yaml: energy_start, energy_growth_turn, energy_max); the Deck;
- under them the life track (1 to starting_life, for players without a d20), the six-phase
  turn track with the first-turn rule, and the combat quick reference.
A die spot is the die's size and room around it (`spots:`); the die's outline, at its real
size (`dice:`), is drawn faintly inside it. All words come from locales (`mat.*`, and
`rules.*` where the rulebook has them); all text goes through the text engine.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..read.styles import mat_style
from ..typeset.fonts import FontChain
from ..typeset.text import Style, draw, layout
from . import dice, ornament
from .style import draw_fitted, fit_stack, mm, text_style, tint
from .words import Words


@dataclass(frozen=True)
class Zone:
    """Something drawn at a stated size: name, kind (card | d20 | d12 | d6 | track) and its box in mm."""

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
    """Where the mat's parts go, in points from the design's bottom-left corner."""

    width: float
    height: float
    zone_w: float  # a card zone
    zone_h: float
    sleeved: bool
    header: tuple  # (x, y, w, h)
    terrain: tuple
    units: tuple  # a box per unit zone
    graveyard: tuple
    row: tuple  # a box per zone of the Doctrine and Tactic row
    deck: tuple
    band: tuple  # the strip between the two rows: the d6 spots, the d20 spot
    energy: tuple  # the energy panel
    life_track: tuple
    track: tuple
    first_turn: tuple
    combat: tuple

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.width / mm(1), self.height / mm(1))


def zone_size(look, card_size: tuple[float, float], sleeved: bool) -> tuple[float, float]:
    """A card zone in mm: the card, a sleeve's allowance when sleeved, and room around it."""
    extra = look.card.room + (look.card.sleeve if sleeved else 0.0)
    return (card_size[0] + extra, card_size[1] + extra)


def mat_geometry(project, card_size: tuple[float, float] = (63.0, 88.0), sleeved: bool = True) -> MatGeometry:
    """The mat's layout for cards of `card_size` (mm), sleeved or bare (templates/mat-style.yaml)."""
    look = mat_style(project)
    L, S = look.layout, look.spots
    zw, zh = zone_size(look, card_size, sleeved)
    cw, ch, gap, side, g = mm(zw), mm(zh), mm(L.gap), mm(L.side_gap), mm(L.panel_gap)
    n = int(L.unit_slots)
    units_w = n * cw + (n - 1) * gap
    width = cw + side + units_w + side + cw
    band = mm(max(L.spot_band, S.d6 + 2, S.d20 + 1))
    combat, first, track, life = mm(L.combat), mm(L.first_turn_line), mm(L.track_height), mm(L.life_track)
    y = 0.0
    combat_box = (0.0, y, width, combat)
    y += combat + g
    first_turn = (0.0, y, width, first)
    y += first
    track_box = (0.0, y, width, track)
    y += track + g
    life_box = (0.0, y, width, life)
    y += life + g
    row_y = y
    y += ch
    band_box = (0.0, y, width, band)
    y += band
    front_y = y
    y += ch
    header = (0.0, y, width, mm(L.header))
    height = y + mm(L.header)
    ux = [cw + side + i * (cw + gap) for i in range(n)]
    right = width - cw
    return MatGeometry(
        width, height, cw, ch, sleeved, header,
        terrain=(0.0, front_y, cw, ch),
        units=tuple((x, front_y, cw, ch) for x in ux),
        graveyard=(right, front_y, cw, ch),
        row=tuple((x, row_y, cw, ch) for x in ux),
        deck=(right, row_y, cw, ch),
        band=band_box,
        energy=(0.0, row_y, cw, ch),
        life_track=life_box,
        track=track_box,
        first_turn=first_turn,
        combat=combat_box,
    )


def unit_spot_centres(look, geo: MatGeometry, box: tuple) -> tuple[tuple[float, float], tuple[float, float]]:
    """The centres of a unit zone's green (bonus) and red (wound) d6 spots: side by side in the
    band under the zone."""
    x, _, w, _ = box
    _, by, _, bh = geo.band
    d6, pair = mm(look.spots.d6), mm(look.layout.spot_pair_gap)
    cx, cy = x + w / 2, by + bh / 2
    return (cx - pair / 2 - d6 / 2, cy), (cx + pair / 2 + d6 / 2, cy)


def life_spot_centre(look, geo: MatGeometry) -> tuple[float, float]:
    """The d20's spot: at the left of the band, under the Terrain zone."""
    _, by, _, bh = geo.band
    return (geo.terrain[0] + mm(look.spots.d20) / 2, by + bh / 2)


def card_boxes(geo: MatGeometry) -> list[tuple]:
    return [geo.terrain, *geo.units, geo.graveyard, *geo.row, geo.deck]


def seam_avoid(project, geo: MatGeometry) -> tuple[tuple[list, list], tuple[list, list]]:
    """Where a seam joining two sheets should not run, in order of priority — through a die spot,
    then through a card zone: ((along x: spots, zones), (along y: spots, zones)), in points."""
    look = mat_style(project)
    d6, d20 = mm(look.spots.d6), mm(look.spots.d20)
    spots = [(c, d6) for box in geo.units for c in unit_spot_centres(look, geo, box)] + [(life_spot_centre(look, geo), d20)]
    zones = card_boxes(geo)
    xs = ([(cx - s / 2, cx + s / 2) for (cx, _), s in spots], [(x, x + w) for x, _, w, _ in zones])
    ys = ([(cy - s / 2, cy + s / 2) for (_, cy), s in spots], [(y, y + h) for _, y, _, h in zones])
    return xs, ys


def schedule_grid(c, x: float, top: float, width: float, row: float, fill: str, rule: str, columns: list[float] = ()) -> None:
    """The energy schedule's grid: a header row shaded `fill` over a row of maxima, framed in `rule`,
    with a vertical rule at each x of `columns` (the mat's; the quick reference sets none)."""
    c.saveState()
    c.setFillColor(fill)
    c.rect(x, top - row, width, row, stroke=0, fill=1)
    c.setStrokeColor(rule)
    c.setLineWidth(0.4)
    c.rect(x, top - 2 * row, width, 2 * row, stroke=1, fill=0)
    c.line(x, top - row, x + width, top - row)
    for cx in columns:
        c.line(cx, top, cx, top - 2 * row)
    c.restoreState()


def rounded_panel(c, box: tuple, fill: str, stroke: str) -> None:
    """A panel's rounded frame (the energy panel, the combat reference)."""
    x, y, w, h = box
    c.saveState()
    c.setFillColor(fill)
    c.setStrokeColor(stroke)
    c.setLineWidth(0.6)
    c.roundRect(x, y, w, h, mm(2), stroke=1, fill=1)
    c.restoreState()


# ── drawing ───────────────────────────────────────────────────────────────
class MatPainter:
    """Draws the mat's parts; collects the zones it draws."""

    def __init__(self, canvas, project, lang: str, look, words: Words, report, seam: tuple[str, float] | None = None):
        self.c, self.project, self.lang, self.look, self.words, self.report = canvas, project, lang, look, words, report
        self.zones: list[Zone] = []
        # the band around the seam no word may cross: (axis, from, to) in points, or None on one sheet
        self.seam = None if seam is None else (seam[0], seam[1] - mm(SEAM_CLEARANCE), seam[1] + mm(SEAM_CLEARANCE))
        t, col = look.type, look.colours
        self.body = text_style(project, lang, "body", t.body, col.ink, min_size=t.min, leading=1.3)
        self.bold = text_style(project, lang, "bold", t.heading, col.heading, min_size=t.min, leading=1.2)
        self.label = text_style(project, lang, "title", t.zone_label, col.watermark, min_size=t.min, align="center",
                                valign="middle", leading=1.15)

    def clear(self, box: tuple) -> tuple:
        """`box` (x, y, w, h) as text may fill it: whole, or where the seam's band crosses it, the
        larger of its two parts beside the band — when that part has room (at least 4 mm and 40 % of
        the box: a life-track cell the band covers most of keeps its number whole, across the seam,
        rather than squeezed into a sliver)."""
        if self.seam is None:
            return box
        axis, lo, hi = self.seam
        x, y, w, h = box
        start, end = (x, x + w) if axis == "x" else (y, y + h)
        if end <= lo or start >= hi:
            return box
        length = end - start
        start, end = (start, lo) if lo - start >= end - hi else (hi, end)
        if end - start < max(mm(CLEAR_LEAST), CLEAR_SHARE * length):
            return box
        return (start, y, end - start, h) if axis == "x" else (x, start, w, end - start)

    def text(self, key: str, style: Style, box: tuple, label: bool = False, **values):
        x, y, w, h = self.clear(box)
        return draw_fitted(self.c, self.words(key, **values), style, x, y, w, h, self.report, self.lang, key, label=label)

    def card_zone(self, name: str, box: tuple, label_key: str, note_key: str | None = None) -> None:
        c, col, card = self.c, self.look.colours, self.look.card
        x, y, w, h = box
        c.saveState()
        c.setFillColor(col.zone)
        c.setStrokeColor(col.line)
        c.setLineWidth(0.8)
        c.roundRect(x, y, w, h, mm(card.corner), stroke=1, fill=1)
        c.restoreState()
        pad = mm(5)
        self.text(label_key, self.label, (x + pad, y + h * 0.36, w - 2 * pad, h * 0.3), label=True)
        if note_key:
            note = replace(self.label, size=self.look.type.small * 1.2, min_size=self.look.type.min)
            self.text(note_key, note, (x + pad, y + h * 0.24, w - 2 * pad, h * 0.12), label=True)
        self.zones.append(_zone(name, "card", box))

    def spot(self, name: str, kind: str, cx: float, cy: float, colour_: str, sign: str = "") -> None:
        """A die's spot: its outline at the spot's size (the die and room around it), the die's own
        outline faint inside, at its real size; for the d6 of bonuses and wounds, their sign."""
        c = self.c
        size = mm(getattr(self.look.spots, kind))
        die = mm(getattr(self.look.dice, kind))
        c.saveState()
        c.setFillColor(tint(colour_, 0.93))
        c.setStrokeColor(colour_)
        c.setLineWidth(0.9)
        if kind == "d6":
            c.roundRect(cx - size / 2, cy - size / 2, size, size, size * 0.2, stroke=1, fill=1)
        else:
            c.circle(cx, cy, size / 2, stroke=1, fill=1)
        c.restoreState()
        faint, fill = tint(colour_, 0.6), tint(colour_, 0.96)
        if kind == "d20":
            dice.d20(c, cx, cy, die, faint, fill, tint(colour_, 0.75), width=0.5)
        elif kind == "d12":
            dice.d12(c, cx, cy, die, faint, fill, tint(colour_, 0.75), width=0.5)
        else:
            dice.d6(c, cx, cy, die, faint, fill, width=0.5)
        if sign:
            c.saveState()
            c.setFillColor(tint(colour_, 0.45))
            bar, arm = die * 0.1, die * 0.46
            c.rect(cx - arm / 2, cy - bar / 2, arm, bar, stroke=0, fill=1)  # the minus, or the plus's cross-bar
            if sign == "+":
                c.rect(cx - bar / 2, cy - arm / 2, bar, arm, stroke=0, fill=1)
            c.restoreState()
        self.zones.append(_zone(name, kind, (cx - size / 2, cy - size / 2, size, size)))

    def panel(self, box: tuple, heading_key: str) -> tuple:
        """A panel with its heading; returns the inner box below the heading."""
        c, col = self.c, self.look.colours
        x, y, w, h = box
        pad = mm(self.look.layout.panel_padding)
        rounded_panel(c, box, col.panel, col.accent)
        head_h = self.bold.size * 1.35
        self.text(heading_key, self.bold, (x + pad, y + h - pad - head_h, w - 2 * pad, head_h))
        c.saveState()
        c.setStrokeColor(col.accent)
        c.setLineWidth(0.4)
        ly = y + h - pad - head_h - mm(0.8)
        c.line(x + pad, ly, x + w - pad, ly)
        c.restoreState()
        return (x + pad, y + pad, w - 2 * pad, h - 2 * pad - head_h - mm(1.5))


SEAM_CLEARANCE = 2.5  # mm on each side of a seam between two sheets that no word comes into
CLEAR_LEAST, CLEAR_SHARE = 4.0, 0.4  # mm, and share of its box: the least room a text moved off the seam gets


def paint_mat(canvas, project, lang: str, geo: MatGeometry, report, seam: tuple[str, float] | None = None) -> list[Zone]:
    """Draw the mat's design in `lang` with its bottom-left corner at the canvas origin; return
    the zones drawn (mm, from that corner). `seam`: where two sheets join, ("x", x) or ("y", y)
    in points from that corner (impose/tiles.py `seam_of`); no word is set across it."""
    look = mat_style(project)
    p = MatPainter(canvas, project, lang, look, Words(project, lang, report), report, seam)
    _header(p, geo)
    p.card_zone("terrain", geo.terrain, "mat.terrain")
    for i, box in enumerate(geo.units, 1):
        p.card_zone(f"unit-{i}", box, "mat.unit")
        _unit_spots(p, geo, box, i)
    p.card_zone("graveyard", geo.graveyard, "mat.graveyard")
    for i, box in enumerate(geo.row, 1):
        p.card_zone(f"row-{i}", box, "mat.doctrine-tactic", "mat.face-down")
    p.card_zone("deck", geo.deck, "mat.deck")
    _life_spot(p, geo)
    _energy_panel(p, geo.energy)
    _life_track(p, geo.life_track)
    _turn_track(p, geo)
    _combat(p, geo.combat)
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


def _unit_spots(p: MatPainter, geo: MatGeometry, slot: tuple, i: int) -> None:
    x, _, w, _ = slot
    d6, pair = mm(p.look.spots.d6), mm(p.look.layout.spot_pair_gap)
    col, t = p.look.colours, p.look.type
    (gx, cy), (rx, _) = unit_spot_centres(p.look, geo, slot)
    p.spot(f"bonus-{i}", "d6", gx, cy, col.bonus, "+")
    p.spot(f"wound-{i}", "d6", rx, cy, col.wound, "-")
    side = (w - 2 * d6 - pair) / 2 + mm(1.5)  # the labels may reach into the gap beside the zone
    small = text_style(p.project, p.lang, "bold", t.small, col.bonus, min_size=t.min, align="right", valign="middle")
    # each label SPOT_LABEL_GAP from its spot's outline, the two mirror images of each other
    p.text("mat.bonus", small, (x - mm(1.5), cy - d6 / 2, side - mm(SPOT_LABEL_GAP), d6), label=True)
    p.text("mat.wounds", replace(small, colour=col.wound, align="left"),
           (x + w - side + mm(1.5 + SPOT_LABEL_GAP), cy - d6 / 2, side - mm(SPOT_LABEL_GAP), d6), label=True)


SPOT_LABEL_GAP = 1.0  # mm between a d6 spot's outline and its label


def _life_spot(p: MatPainter, geo: MatGeometry) -> None:
    """Under the Terrain zone: the d20's spot and what it is for."""
    x, _, w, _ = geo.terrain
    _, by, _, bh = geo.band
    col, t = p.look.colours, p.look.type
    size = mm(p.look.spots.d20)
    cx, cy = life_spot_centre(p.look, geo)
    p.spot("life-d20", "d20", cx, cy, col.heading)
    number = text_style(p.project, p.lang, "bold", 7, col.heading, align="center", valign="middle")
    draw(p.c, layout(str(p.project.game.rules.starting_life), number, mm(8), mm(5)), cx - mm(4), cy - mm(2.5))
    tx = x + size + mm(2)
    head = replace(p.bold, valign="bottom")
    p.text("mat.life", head, (tx, cy, x + w - tx, bh / 2 - mm(1)), label=True)
    cap = text_style(p.project, p.lang, "body", t.small, col.ink, min_size=t.min, valign="top", leading=1.2)
    p.text("mat.life-die", cap, (tx, by + mm(1), x + w - tx, bh / 2 - mm(1.5)))


def _energy_panel(p: MatPainter, box: tuple) -> None:
    x, y, w, h = p.panel(box, "mat.energy")
    col, t = p.look.colours, p.look.type
    d12s, d6s = mm(p.look.spots.d12), mm(p.look.spots.d6)
    top = y + h
    cy = top - d12s / 2 - mm(0.5)
    p.spot("energy-d12", "d12", x + w / 2, cy, col.line)
    small = text_style(p.project, p.lang, "body", t.small, col.muted, min_size=t.min, align="center", valign="middle")
    or_y = cy - d12s / 2 - mm(3.6)
    p.text("mat.or", small, (x, or_y, w, mm(3.2)), label=True)
    pair = mm(2.5)
    dy = or_y - mm(0.6) - d6s / 2
    for k, dx in enumerate((-(d6s + pair) / 2, (d6s + pair) / 2)):
        p.spot(f"energy-d6-{k + 1}", "d6", x + w / 2 + dx, dy, col.line)
    # the energy maximum on each turn, from the rules
    schedule = energy_schedule(p.project.game.rules)
    table_top = dy - d6s / 2 - mm(2.5)
    row_h = mm(5.4)  # room for a label of two lines at its size (エネルギー / 最大値)
    label_w = mm(15)
    cell_w = (w - label_w) / len(schedule)
    c = p.c
    schedule_grid(c, x, table_top, w, row_h, tint(col.heading, 0.86), col.accent,
                  [x + label_w + i * cell_w for i in range(len(schedule) + 1)])
    head = text_style(p.project, p.lang, "bold", t.small, col.ink, min_size=t.min, align="center", valign="middle")
    nums = text_style(p.project, p.lang, "bold", t.body, col.heading, min_size=t.min, align="center", valign="middle")
    p.text("mat.turn", replace(head, align="left"), (x + mm(0.8), table_top - row_h, label_w - mm(1.2), row_h), label=True)
    for i, (turn, _) in enumerate(schedule):
        draw(c, layout(turn, replace(head, min_size=None), cell_w, row_h), x + label_w + i * cell_w, table_top - row_h)
    p.text("mat.energy-max", replace(head, align="left"), (x + mm(0.8), table_top - 2 * row_h, label_w - mm(1.2), row_h),
           label=True)
    for i, (_, value) in enumerate(schedule):
        draw(c, layout(str(value), replace(nums, min_size=None), cell_w, row_h), x + label_w + i * cell_w, table_top - 2 * row_h)
    note = text_style(p.project, p.lang, "body", t.small, col.ink, min_size=t.min, align="center", valign="middle", leading=1.25)
    below = table_top - 2 * row_h - mm(1)
    p.text("mat.energy-note", note, (x, y, w, below - y))


def _life_track(p: MatPainter, box: tuple) -> None:
    """1 to starting_life in a row of boxes: a coin on the current value, for players without a d20."""
    x, y, w, h = box
    col, t = p.look.colours, p.look.type
    life = p.project.game.rules.starting_life
    label_w = mm(p.look.layout.life_label)
    p.text("mat.life-track", text_style(p.project, p.lang, "bold", t.small, col.heading, min_size=t.min, valign="middle",
                                        leading=1.15), (x, y, label_w - mm(1.5), h))
    cell = (w - label_w) / life
    c = p.c
    num = text_style(p.project, p.lang, "bold", t.track, col.heading, align="center", valign="middle")
    for i in range(life):
        cx = x + label_w + i * cell
        c.saveState()
        c.setFillColor(tint(col.heading, 0.9 if i % 5 == 4 else 0.96))
        c.setStrokeColor(col.accent)
        c.setLineWidth(0.5)
        c.roundRect(cx + mm(0.4), y, cell - mm(0.8), h, mm(1.2), stroke=1, fill=1)
        c.restoreState()
        nx, ny, nw, nh = p.clear((cx, y, cell, h))
        draw(c, layout(str(i + 1), num, nw, nh), nx, ny)
    p.zones.append(_zone("life-track", "track", (x + label_w, y, w - label_w, h)))


def _combat(p: MatPainter, box: tuple) -> None:
    """The combat quick reference: its heading, then its points in columns."""
    x, y, w, h = box
    col, t = p.look.colours, p.look.type
    c = p.c
    rounded_panel(c, box, col.panel, col.accent)
    pad = mm(p.look.layout.panel_padding)
    head_w = mm(24)
    p.text("rules.fighting.heading", replace(p.bold, valign="middle"), (x + pad, y + pad, head_w - pad, h - 2 * pad), label=True)
    keys = [f"mat.combat.{i}" for i in range(1, 6)]
    texts = [p.words(k) for k in keys]
    columns = [texts[0:2], texts[2:3], texts[3:5]]
    col_keys = [keys[0:2], keys[2:3], keys[3:5]]
    gap, hang = mm(4), mm(2.4)
    _, bottom, _, height = p.clear((x, y + pad, w, h - 2 * pad))  # (a seam along the panel: the columns on one side of it)
    boxes = combat_columns(x + head_w, x + w - pad, len(columns), gap, p.seam)
    style = text_style(p.project, p.lang, "body", t.body, col.ink, min_size=t.min, leading=1.22)
    size = min(fit_stack(ts, style, col_w - hang, height, mm(0.9)) for ts, (_, col_w) in zip(columns, boxes))
    for (cx, col_w), ts, ks in zip(boxes, columns, col_keys):
        top = bottom + height
        for key, text in zip(ks, ts):
            lay = layout(text, style, col_w - hang, 1e6, size=size, where=key)
            if top - lay.height < bottom - 0.5:
                p.report.warning("overflow", f"'{key}' does not fit the combat reference", lang=p.lang, key=key)
                break
            ornament.diamond(c, cx + mm(0.9), top - size * 0.55, size * 0.26, col.accent)
            draw(c, replace(lay, box_h=lay.height), cx + hang, top - lay.height)
            top -= lay.height + mm(0.9)


def combat_columns(start: float, end: float, n: int, gap: float, seam: tuple | None) -> list[tuple[float, float]]:
    """(x, width) of `n` columns from `start` to `end`, `gap` apart: of one width; where a seam's
    band (axis "x") runs through them, the band is the gap between two of them and each side
    holds columns in proportion to its width."""
    def even(a: float, b: float, k: int) -> list[tuple[float, float]]:
        width = (b - a - (k - 1) * gap) / k
        return [(a + i * (width + gap), width) for i in range(k)]

    if seam is None or seam[0] != "x" or seam[2] <= start or seam[1] >= end:
        return even(start, end, n)
    _, lo, hi = seam
    left, right = lo - start, end - hi
    if left < gap or right < gap:  # the band at an end: the columns beside it
        return even(start, lo, n) if left >= right else even(hi, end, n)
    k = min(n - 1, max(1, round(n * left / (left + right))))
    return even(start, lo, k) + even(hi, end, n - k)


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
    fx, fy, fw, fh = p.clear(geo.first_turn)  # (its mark goes with it)
    note = text_style(p.project, p.lang, "body", t.small, col.ink, min_size=t.min, valign="middle", leading=1.2)
    ornament.diamond(c, fx + mm(1.2), fy + fh / 2, 2.2, col.heading)
    p.text("rules.turn.first-turn", note, (fx + mm(3.2), fy, fw - mm(3.2), fh))
