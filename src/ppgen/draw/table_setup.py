"""The table at the start of a game: both player mats, as the mat code draws them, facing each
other, with the decks and dice in place, and numbered callouts on your mat.

    figure = setup_figure(book)          # a typeset.flow.Figure for the rulebook's flow

The mats are the build's own (draw/mat.py, for its card size, sleeved or not), drawn once as a
form and placed twice — your opponent's turned round; a deck of card backs lies on each Deck
zone, each d20 on its spot at starting_life, each d12 on its spot at energy_start (cards.yaml).
Where a callout stands is the zone the mat drawing reported, so the picture follows
templates/mat-style.yaml. The words are `rules.setup.*`.
"""
from __future__ import annotations

from dataclasses import replace

from ..typeset import flow as fl
from ..typeset.text import draw, layout
from .pictures import callout, die, draw_legend, legend_height
from .style import mm, text_style, tint

# (number, locale key, the mat zone its callout stands on)
ITEMS = (
    (1, "rules.setup.deck", "deck"),
    (2, "rules.setup.graveyard", "graveyard"),
    (3, "rules.setup.units", "unit-2"),
    (4, "rules.setup.row", "row-2"),
    (5, "rules.setup.terrain", "terrain"),
    (6, "rules.setup.life", "life-d20"),
    (7, "rules.setup.energy", "energy-d12"),
    (8, "rules.setup.hand", None),
)
KEYS = tuple(key for _, key, _ in ITEMS) + ("rules.setup.you", "rules.setup.opponent")
MAT_FORM = "rb-mat"


class _Quiet:
    """The mat's own warnings are the mats part's to report; the picture draws it small."""

    def warning(self, *args, **kwargs) -> None:
        pass


def _geometry(book):
    from .mat import mat_geometry

    f = book.facts
    return mat_geometry(book.project, f.card_size, f.sleeves)


def needs(book) -> None:
    """Define the mat's form (and keep the zones it drew) and the card back's."""
    from .mat import paint_mat

    geo = _geometry(book)
    zones: list = []
    book.artwork.define(MAT_FORM, geo.width, geo.height,
                        lambda c: zones.extend(paint_mat(c, book.project, book.lang, geo, _Quiet())), measures=True)
    book.artwork.mat_zones = {z.name: z for z in zones} or getattr(book.artwork, "mat_zones", {})
    book.artwork.back()


def _legend_style(book):
    return replace(book.styles["body"], size=book.look.type.table + 0.8, leading=1.3, align="left")


def _items(book):
    return [(n, book.words(key)) for n, key, _ in ITEMS]


HAND = 15.0  # mm: the row beside each mat's label where that player's hand is fanned


def _layout(book, width: float, room: float):
    """(scale, legend height): the two mats and the gap between them as large as fit the width
    and `room` less the legend and the rows of the players' hands."""
    geo = _geometry(book)
    legend = legend_height(_items(book), _legend_style(book), width, 2, mm(1), book.where("rules.setup.deck"))
    scale = min(width / geo.width, (room - legend - 2 * mm(HAND) - mm(6)) / (2 * geo.height))
    return max(scale, 0.1), legend


def setup_figure(book) -> fl.Figure:
    room = book.frame(0).height - mm(book.look.space.h1_before)  # the picture fits a page with a heading's room

    def height(width: float) -> float:
        scale, legend = _layout(book, width, room)
        return 2 * _geometry(book).height * scale + 2 * mm(HAND) + mm(6) + legend

    def paint(c, x, top, width, h):
        scale, _ = _layout(book, width, room)
        geo = _geometry(book)
        w, mh = geo.width * scale, geo.height * scale
        mx = x + (width - w) / 2
        col = book.look.colours
        label = text_style(book.project, book.lang, "bold", book.look.type.table + 0.4, col.muted)
        # your opponent's mat, across the table: turned round, their hand beyond it
        y = top - mm(HAND)
        _label(c, book, "rules.setup.opponent", label, mx, y + mm(1), w)
        _hand(book, c, mx + w * 0.72, y + mm(HAND) / 2, mm(HAND) * 0.8, turned=True)
        opp_y = y - mh
        art = book.artwork
        art.place(MAT_FORM, mx, opp_y, scale, rotate=180)
        _pieces(book, c, geo, mx, opp_y, scale, turned=True)
        # the table between them
        c.saveState()
        c.setStrokeColor(tint(col.accent, 0.4))
        c.setLineWidth(0.5)
        c.setDash(2, 2)
        c.line(mx, opp_y - mm(3), mx + w, opp_y - mm(3))
        c.restoreState()
        you_y = opp_y - mm(6) - mh
        art.place(MAT_FORM, mx, you_y, scale)
        _pieces(book, c, geo, mx, you_y, scale, turned=False)
        _label(c, book, "rules.setup.you", label, mx, you_y - mm(5), w)
        hand_x, hand_y = mx + w * 0.72, you_y - mm(HAND) / 2
        _hand(book, c, hand_x, hand_y, mm(HAND) * 0.8, turned=False)
        callout(c, hand_x + mm(HAND) * 0.9, hand_y, 8, mm(2.4), book.styles["marker"], col.heading)
        _callouts(book, c, geo, mx, you_y, scale)
        draw_legend(c, _items(book), _legend_style(book), x, you_y - mm(HAND) - mm(1), width, 2, mm(1), col.heading,
                    book.styles["marker"], book.where("rules.setup.deck"))

    sp = book.look.space
    return fl.Figure(height, paint, space_before=mm(sp.paragraph), space_after=mm(sp.paragraph) * 2)


def _label(c, book, key: str, style, x: float, y: float, w: float) -> None:
    lay = layout(book.words(key), style, w, style.size * 1.5, where=book.where(key))
    draw(c, lay, x, y)


def _point(geo, x: float, y: float, scale: float, px: float, py: float, turned: bool) -> tuple[float, float]:
    """A point of the mat's design (points) on the page, for a mat placed at (x, y) at `scale`."""
    if turned:
        px, py = geo.width - px, geo.height - py
    return (x + px * scale, y + py * scale)


def _pieces(book, c, geo, x: float, y: float, scale: float, turned: bool) -> None:
    """The deck on its zone and the dice on their spots, at the start of a game."""
    zones = book.artwork.mat_zones
    rules = book.project.game.rules
    col = book.look.colours
    deck = zones["deck"]
    g = book.artwork.geometry
    card_scale = scale * min(mm(deck.w) / g.width, mm(deck.h) / g.height) * 0.96
    cx, cy = _point(geo, x, y, scale, mm(deck.x + deck.w / 2), mm(deck.y + deck.h / 2), turned)
    cw, ch = g.width * card_scale, g.height * card_scale
    for k in range(3):  # a few cards' thickness
        book.artwork.place(book.artwork.back(), cx - cw / 2 + k * 0.6, cy - ch / 2 + k * 0.6, card_scale, 180 if turned else 0)
    number = text_style(book.project, book.lang, "bold", 6, col.ink)
    for name, kind, value, colour in (("life-d20", "d20", rules.starting_life, col.heading), ("energy-d12", "d12", rules.energy_start, col.ink)):
        z = zones[name]
        px, py = _point(geo, x, y, scale, mm(z.x + z.w / 2), mm(z.y + z.h / 2), turned)
        size = mm(getattr(_die_sizes(book), kind)) * scale
        c.saveState()
        if turned:
            c.translate(px, py)
            c.rotate(180)
            px, py = 0.0, 0.0
        die(c, kind, px, py, size, value, colour, "#FFFFFF", tint(colour, 0.6), number)
        c.restoreState()


def _hand(book, c, cx: float, cy: float, height: float, turned: bool) -> None:
    """A player's opening hand: its cards fanned, backs up, `height` tall, centred on (cx, cy)."""
    art = book.artwork
    g = art.geometry
    scale = height / g.height
    n = book.project.game.rules.opening_hand
    w = g.width * scale
    for k in range(n):
        angle = (k - (n - 1) / 2) * 9.0
        dx = (k - (n - 1) / 2) * w * 0.42
        art.place(art.back(), cx + dx - w / 2, cy - height / 2, scale, angle + (180 if turned else 0))


def _die_sizes(book):
    from ..read.styles import mat_style

    return mat_style(book.project).dice


def _callouts(book, c, geo, x: float, y: float, scale: float) -> None:
    zones = book.artwork.mat_zones
    col = book.look.colours
    r = mm(2.4)
    for n, _, zone in ITEMS:
        if zone is None:
            continue
        z = zones[zone]
        if z.kind == "card":
            px, py = _point(geo, x, y, scale, mm(z.x + z.w * 0.5), mm(z.y + z.h * 0.78), False)
        else:  # beside the die, not on it
            px, py = _point(geo, x, y, scale, mm(z.x + z.w), mm(z.y + z.h), False)
        callout(c, px, py, n, r, book.styles["marker"], col.heading)
