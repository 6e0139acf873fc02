"""The combat example on the table: the seeds' example ("Enemy boss: 6 ATK. Your archer: 2 ATK,
your soldier: 5 ATK.") played with real cards and dice, step by step.

    blocks = walkthrough_blocks(book)     # each step: its picture, then its caption

The cards are templates/rulebook.yaml `example:` (boss, archer, soldier); every number — the
cards' ATK and Energy, the energy die, both players' life points, the wound's d6 — comes from
them and the rules (read/rulebook.py `example_numbers`), so the pictures, their captions
(`rules.walkthrough.*`) and the example's text (`rules.example.*`) always agree.
"""
from __future__ import annotations

from dataclasses import replace

from ..read.rulebook import example_numbers
from ..read.styles import mat_style
from ..typeset import flow as fl
from ..typeset.text import draw, layout
from .pictures import arrow, die
from .style import mm, text_style, tint

STEPS = ("standby", "attack-1", "attack-2")
KEYS = tuple(f"rules.walkthrough.{k}" for k in ("heading", "intro", *STEPS, "you", "opponent", "versus"))
LARGEST = 0.5  # a card at most this × its real size


def example_cards(book) -> dict:
    game = book.project.game
    return {role: game.card(card_id) for role, card_id in book.structure.example.items()}


def example_values(book) -> dict:
    """The example's numbers and, for the captions, its cards' names in the book's language."""
    cards = example_cards(book)
    values = example_numbers(book.project.game.rules, cards["boss"], cards["archer"], cards["soldier"])
    values.update({role: book.project.card_name(card, book.lang) for role, card in cards.items()})
    return values


def needs(book) -> None:
    for card in example_cards(book).values():
        book.artwork.front(card)


PAD, GAP, DICE_OFFSET, BOSS_OFFSET, ARROW_MIN = 3.0, 3.0, 6.0, 14.0, 12.0  # mm: the row's margins and gaps
MAX_DIE = mm(11)  # the dice's size, at most


def scale_for(card_w: float, width: float) -> float:
    """The cards' scale in a picture `width` points wide: your two units, the enemy's, and between them
    the dice and the arrow, whose room does not shrink with the cards (it was scaled with them: on the
    booklet's A5 page the enemy's card covered your dice and the attack's numbers)."""
    fixed = mm(2 * PAD + 2 * GAP + DICE_OFFSET + ARROW_MIN + BOSS_OFFSET) + MAX_DIE / 2
    return min(LARGEST, (width - fixed) / (3 * card_w))



def table_row(card_w: float, card_h: float, x: float, width: float) -> dict[str, float]:
    """Where the picture's row goes across `width` from `x` (points): `units` (your two cards' left
    edges), `dice` (the centre of your dice), `die` (their size), `boss` (the enemy card's left edge),
    `opponent_die` (the centre of its life die), `right` (the picture's inner right edge)."""
    s = scale_for(card_w, width)
    cw, ch = card_w * s, card_h * s
    ux = x + mm(PAD)
    units = [ux, ux + cw + mm(GAP)]
    right = x + width - mm(PAD)
    return {"scale": s, "units": units, "dice": units[1] + cw + mm(GAP) + mm(DICE_OFFSET), "die": min(MAX_DIE, ch * 0.42),
            "boss": right - cw - mm(BOSS_OFFSET), "opponent_die": right - mm(6), "right": right}


def walkthrough_blocks(book) -> list[fl.Block]:
    """Each step as a group: its picture, then its caption; a step is never split."""
    sp = book.look.space
    values = example_values(book)
    out: list[fl.Block] = []
    for step in STEPS:
        key = f"rules.walkthrough.{step}"
        picture = fl.Figure(lambda width: _height(book, width), _painter(book, step, values), space_after=mm(1.5))
        caption = fl.Paragraph(book.words(key, **values), book.styles["body"], space_after=mm(sp.paragraph), where=book.where(key))
        out.append(fl.Group([picture, caption], prefer_whole=True, space_after=mm(sp.paragraph)))
    return out


def _height(book, width: float) -> float:
    g = book.artwork.geometry
    return g.height * scale_for(g.width, width) + mm(7)


def _painter(book, step: str, n: dict):
    def paint(c, x, top, width, height):
        _step(book, c, step, n, x, top, width, height)

    return paint


def _step(book, c, step: str, n: dict, x: float, top: float, width: float, height: float) -> None:
    art, col, t = book.artwork, book.look.colours, book.look.type
    cards = example_cards(book)
    g = art.geometry
    row = table_row(g.width, g.height, x, width)  # where the row's cards and dice go, and their scale
    s = row["scale"]
    cw, ch = g.width * s, g.height * s
    label = text_style(book.project, book.lang, "bold", t.table, col.muted)
    number = text_style(book.project, book.lang, "bold", 8, col.ink)
    small = text_style(book.project, book.lang, "body", t.table - 0.6, col.muted, align="center")
    card_y = top - mm(5) - ch
    # a table: your side on the left, your opponent's on the right
    c.saveState()
    c.setFillColor(tint(col.accent, 0.9))
    c.roundRect(x, top - height, width, height, mm(2), stroke=0, fill=1)
    c.restoreState()

    def text(key, style, bx, by, bw, values=None):
        lay = layout(book.words(key, **(values or {})), style, bw, style.size * 1.4, where=book.where(key))
        draw(c, lay, bx, by)

    pad = mm(PAD)
    text("rules.walkthrough.you", label, x + pad, top - mm(4.5), width / 2)
    right = row["right"]
    opp_w = mm(40)
    text("rules.walkthrough.opponent", replace(label, align="right"), right - opp_w, top - mm(4.5), opp_w)
    wounded = step in ("attack-1", "attack-2")
    wound_colour = mat_style(book.project).colours.wound
    # your units (the archer is in your Graveyard after the first attack)
    positions = {}
    for role, ux in zip(("archer", "soldier"), row["units"]):
        if role == "archer" and step == "attack-2":
            _gone(c, ux, card_y, cw, ch, col.muted)
        else:
            art.place(art.front(cards[role]), ux, card_y, s)
        positions[role] = (ux, card_y)
    # your dice: energy (d12) and life points (d20)
    energy = {"standby": n["energy"], "attack-1": n["energy_1"], "attack-2": n["energy_2"]}[step]
    life = n["life_1"] if step != "standby" else book.project.game.rules.starting_life
    dx, dice_size = row["dice"], row["die"]
    die(c, "d12", dx, card_y + ch * 0.72, dice_size, energy, col.ink, "#FFFFFF", tint(col.ink, 0.6), number)
    text("mat.energy", small, dx - mm(9), card_y + ch * 0.72 - dice_size / 2 - mm(3.4), mm(18))
    die(c, "d20", dx, card_y + ch * 0.22, dice_size, life, col.heading, "#FFFFFF", tint(col.heading, 0.6), number)
    text("sheet.life", small, dx - mm(9), card_y + ch * 0.22 - dice_size / 2 - mm(3.4), mm(18))
    # the enemy's unit and life points
    bx = row["boss"]
    art.place(art.front(cards["boss"]), bx, card_y, s)
    opp_life = n["life_2"] if step == "attack-2" else book.project.game.rules.starting_life
    ox = row["opponent_die"]
    die(c, "d20", ox, card_y + ch * 0.22, dice_size, opp_life, col.heading, "#FFFFFF", tint(col.heading, 0.6), number)
    text("sheet.life", small, ox - mm(9), card_y + ch * 0.22 - dice_size / 2 - mm(3.4), mm(18))
    if wounded:  # a red d6 on the boss, showing the wound
        wound = min(mm(8), cw * 0.3)
        die(c, "d6", bx + cw - wound * 0.55, card_y + ch * 0.35, wound, n["archer_atk"], "#FFFFFF", wound_colour, "#FFFFFF")
    # the attack: the attacker outlined, an arrow from your side to the unit it attacks
    if step != "standby":
        attacker = "archer" if step == "attack-1" else "soldier"
        ax, ay = positions[attacker]
        c.saveState()
        c.setStrokeColor(col.heading)
        c.setLineWidth(1.6)
        c.roundRect(ax - 1.2, ay - 1.2, cw + 2.4, ch + 2.4, mm(1.5), stroke=1, fill=0)
        c.restoreState()
        y0 = card_y + ch * 0.5
        x0, x1 = dx + dice_size / 2 + mm(2), bx - mm(1.5)
        arrow(c, x0, y0, x1, y0, col.heading, 1.4)
        versus = {"attacker": n["archer_atk"] if attacker == "archer" else n["soldier_atk"],
                  "defender": n["boss_atk"] if attacker == "archer" else n["boss_after"]}
        tag = text_style(book.project, book.lang, "bold", t.table + 0.4, col.heading, align="center")
        text("rules.walkthrough.versus", tag, x0, y0 + mm(1.2), x1 - x0, versus)
        loser = attacker if attacker == "archer" else "boss"
        lx, ly = positions[loser] if loser != "boss" else (bx, card_y)
        _destroyed(c, lx, ly, cw, ch, wound_colour)


def _gone(c, x: float, y: float, w: float, h: float, colour: str) -> None:
    """Where a destroyed unit stood: an empty outline."""
    c.saveState()
    c.setStrokeColor(colour)
    c.setLineWidth(0.6)
    c.setDash(3, 2)
    c.roundRect(x, y, w, h, min(w, h) * 0.05, stroke=1, fill=0)
    c.restoreState()


def _destroyed(c, x: float, y: float, w: float, h: float, colour: str) -> None:
    """A destroyed unit: crossed out, on its way to the Graveyard."""
    c.saveState()
    c.setStrokeColor(colour)
    c.setLineWidth(2.2)
    c.setLineCap(1)
    inset = min(w, h) * 0.12
    c.line(x + inset, y + inset, x + w - inset, y + h - inset)
    c.line(x + inset, y + h - inset, x + w - inset, y + inset)
    c.restoreState()
