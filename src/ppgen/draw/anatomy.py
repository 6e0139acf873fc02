"""The card anatomy picture: two real cards of the build, drawn by the card code itself, with
numbered callouts on their parts and a legend.

    figure = anatomy_figure(book)        # a typeset.flow.Figure for the rulebook's flow

The cards are templates/rulebook.yaml `anatomy:` (a unit — a Commander shows the ♚ mark — and
a Doctrine or Tactic: a Terrain Doctrine shows the Terrain sign and a bonus). Where each
callout points is read from the laid-out front (the elements of templates/card.yaml), so a
template that moves the name box moves its callout; an element a card does not show has
none. The words are `rules.anatomy.*`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..typeset import flow as fl
from .pictures import callout, draw_legend, leader, legend_height
from .style import mm

# The legend's items, in order: (number, locale key, the card elements a callout points at, side)
# side: where the callout stands — left or right of the card, or below it.
ITEMS = (
    (1, "rules.anatomy.name", "name", "right"),
    (2, "rules.anatomy.level", "level", "left"),
    (3, "rules.anatomy.commander", "mark", "right"),
    (4, "rules.anatomy.type", "type_line", "right"),
    (5, "rules.anatomy.effect", "effect", "right"),
    (6, "rules.anatomy.atk", "atk", "below"),
    (7, "rules.anatomy.energy", "energy", "below"),
    (8, "rules.anatomy.def", "def", "below"),
    (9, "rules.anatomy.code", "code", "left"),
    (10, "rules.anatomy.terrain", "mark", "right"),
    (11, "rules.anatomy.bonus", "bonus", "right"),
)
KEYS = tuple(key for _, key, _, _ in ITEMS)
# A leader ends on the edge of the panel a text is set in (a justified effect runs to its own
# box's edge), or, for a text with no panel, OUTSIDE mm clear of it.
PANELS = {"name": "header", "type_line": "type_band", "effect": "text_panel"}
BARE_TEXTS = ("code",)
OUTSIDE = 0.8
GUTTER = 10.0  # mm beside a card for its callouts
LARGEST = 1.15  # the unit card at most this × its real size; the other card at OTHER_SCALE × that
OTHER_SCALE = 0.8


@dataclass(frozen=True)
class Callout:
    number: int
    element: str
    side: str


def callouts(face, unit: bool) -> list[Callout]:
    """The callouts one card gets: its elements the items name (the unit: every part a unit shows;
    the other card: its type line, effect, mark and bonus)."""
    card = face.card
    out = []
    for n, _, element, side in ITEMS:
        if element not in face.elements:
            continue
        if element == "mark":
            if n == 3 and not (unit and card.commander):
                continue
            if n == 10 and not (not unit and card.terrain):
                continue
        if not unit and n not in (4, 5, 10, 11):
            continue
        out.append(Callout(n, element, "right" if not unit else side))
    return out


def shown_items(book) -> list[tuple[int, str]]:
    """The legend: each item some callout uses, in order, in the book's language."""
    unit, other = _faces(book)
    used = {c.number for c in callouts(unit, True)} | {c.number for c in callouts(other, False)}
    return [(n, book.words(key)) for n, key, _, _ in ITEMS if n in used]


def _faces(book):
    s = book.structure.anatomy
    return book.artwork.front_face(book.project.game.card(s["unit"])), book.artwork.front_face(book.project.game.card(s["other"]))


def needs(book) -> None:
    """Define the forms this picture places (before the first page)."""
    s = book.structure.anatomy
    for role in ("unit", "other"):
        book.artwork.front(book.project.game.card(s[role]))


def _legend_style(book):
    t = book.look.type
    return replace(book.styles["body"], size=t.table + 0.8, leading=1.3, align="left")


def _scale(book, width: float) -> float:
    g = book.artwork.geometry
    room = width - 3 * mm(GUTTER) - mm(4)
    return min(LARGEST, room / (g.width * (1 + OTHER_SCALE)))


def anatomy_figure(book) -> fl.Figure:
    sp = book.look.space

    def height(width: float) -> float:
        s = _scale(book, width)
        legend = legend_height(shown_items(book), _legend_style(book), width, 2, mm(1.2), book.where("rules.anatomy.name"))
        return book.artwork.geometry.height * s + mm(GUTTER) + mm(3) + legend

    def paint(c, x, top, width, h):
        s = _scale(book, width)
        g = book.artwork.geometry
        unit, other = _faces(book)
        w1, h1, w2 = g.width * s, g.height * s, g.width * s * OTHER_SCALE
        total = mm(GUTTER) + w1 + mm(GUTTER) + mm(4) + w2 + mm(GUTTER)
        x1 = x + (width - total) / 2 + mm(GUTTER)
        y1 = top - h1
        x2 = x1 + w1 + mm(GUTTER) + mm(4)
        y2 = y1 + (h1 - g.height * s * OTHER_SCALE)  # tops level
        book.artwork.place(book.artwork.front(unit.card), x1, y1, s)
        book.artwork.place(book.artwork.front(other.card), x2, y2, s * OTHER_SCALE)
        _marks(book, c, unit, callouts(unit, True), x1, y1, s)
        _marks(book, c, other, callouts(other, False), x2, y2, s * OTHER_SCALE)
        style = _legend_style(book)
        draw_legend(c, shown_items(book), style, x, y1 - mm(GUTTER) - mm(3), width, 2, mm(1.2), book.look.colours.heading,
                    book.styles["marker"], book.where("rules.anatomy.name"))

    return fl.Figure(height, paint, space_before=mm(sp.paragraph), space_after=mm(sp.paragraph) * 2)


def anchor(face, mark: Callout, x: float, y: float, s: float) -> tuple[float, float]:
    """Where the leader of `mark` ends on the card placed at (x, y) at scale `s`: halfway along the
    edge that faces the callout, of its element's panel (PANELS) where the card shows one, else
    of the element itself (a disc's rim), a text without a panel OUTSIDE its box — never on text."""
    ex, ey, ew, eh = face.box(face.elements[mark.element])
    panel = face.elements.get(PANELS.get(mark.element, ""))
    px, py, pw, ph = face.box(panel) if panel is not None else (ex, ey, ew, eh)
    gap = mm(OUTSIDE) if mark.element in BARE_TEXTS else 0.0
    if mark.side == "right":
        return x + (px + pw + gap) * s, y + (ey + eh / 2) * s
    if mark.side == "left":
        return x + (px - gap) * s, y + (ey + eh / 2) * s
    return x + (ex + ew / 2) * s, y + (py - gap) * s


def _marks(book, c, face, marks: list[Callout], x: float, y: float, s: float) -> None:
    """Each callout beside the card, its leader line to its element; callouts on one side spread so
    that no two overlap."""
    colour = book.look.colours.heading
    r = mm(2.3)
    style = book.styles["marker"]
    w = face.geometry.width * s
    by_side: dict[str, list] = {}
    for m in marks:
        by_side.setdefault(m.side, []).append((m, anchor(face, m, x, y, s)))
    for side, items in by_side.items():
        if side == "below":
            cy = y - mm(GUTTER) / 2
            for m, (ax, ay) in items:
                leader(c, ax, cy + r, ax, ay, colour)
                callout(c, ax, cy, m.number, r, style, colour)
            continue
        cx = x - mm(GUTTER) / 2 if side == "left" else x + w + mm(GUTTER) / 2
        placed: list[float] = []
        for m, (ax, ay) in sorted(items, key=lambda item: -item[1][1]):
            cy = ay if not placed else min(ay, placed[-1] - 2.4 * r)
            placed.append(cy)
            leader(c, cx + (r if side == "left" else -r), cy, ax, ay, colour)
            callout(c, cx, cy, m.number, r, style, colour)
