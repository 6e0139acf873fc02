"""A tuck box for a deck, on one sheet: cut it out, fold it, glue it.

    net = box_net(card_size, cards=40, thickness=0.3, sleeves=False)   # sizes from the deck
    draw_tuck_box(canvas, project, "ja", deck, net, paper, report)

The net, left to right: front, spine, back, side, glue flap; above the back its lid and
tuck flap, above the sides their dust flaps, a thumb notch in the front's top edge; below
the front and back their bottom flaps (the front's glued under the back's), dust flaps
below the sides. Inner sizes (mm):

    width  = card width  + 2 mm clearance (+3 mm more with sleeves)
    height = card height + the same clearance
    depth  = cards × card thickness + 0.1 mm per sleeve + 2 mm

Printed: the faction's colours and emblem; the deck's name on the front, the spine and
the lid; the card list with counts and collector codes on the back; the card count and
inner size; which flaps to glue. Folded, every face reads upright: the front, back and
sides standing, the spine lying on its back (as a book's), the lid from above with the front
towards you, the bottom tipped back (lid, front and bottom one column, as on a carton) — so on
the flat net the lid's name and the bottom's size are upside down (tests/test_tuckbox.py
models the fold). Fold lines dashed, cut lines solid (one closed outline).
A net that does not fit the paper is refused with its size and the paper's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from ..typeset.text import draw_line, one_line
from ..units import MM, CardSize, Paper, fmt_mm
from .colours import mix, readable_on, rl
from .emblems import draw_emblem
from .style import draw_fitted, text_style

CLEARANCE = 2.0  # mm around the cards, each way
SLEEVE_CLEARANCE = 3.0  # mm more for sleeved cards
SLEEVE = 0.1  # mm: one sleeve's thickness (front and back together)
DEPTH_SPARE = 2.0  # mm of depth beyond the stack
MARGIN = 5.0  # mm: the net keeps this far from the paper edge (home printers print no closer)
GLUE = 12.0  # mm: the side glue flap's width (at most)
FOLD_DASH = (3, 2)  # pt: fold lines
CUT_WIDTH = 0.6  # pt
FOLD_WIDTH = 0.5


@dataclass(frozen=True)
class BoxDeck:
    """A deck a box is made for: its name (None = the faction's starter deck, named in the
    build's language), its faction, and its cards with counts."""

    title: str | None
    faction: str
    cards: tuple = field(default=())  # ((Card, count), …)

    @property
    def count(self) -> int:
        return sum(n for _, n in self.cards)


@dataclass(frozen=True)
class BoxNet:
    """A tuck box's sizes (mm): inside, and of its flaps."""

    width: float  # inner width: the front and back panels
    height: float  # inner height
    depth: float  # the spine, the sides, the lid
    tuck: float  # the tuck flap, above the lid
    glue: float  # the side glue flap

    @property
    def size(self) -> tuple[float, float]:
        """The whole net (mm): 2 panels, 2 sides, the glue flap; bottom flap, body, lid, tuck flap."""
        return (2 * self.width + 2 * self.depth + self.glue, self.depth + self.height + self.depth + self.tuck)

    @property
    def columns(self) -> tuple[float, ...]:
        """x of every vertical fold, left to right, from the net's left edge (mm)."""
        w, d = self.width, self.depth
        return (w, w + d, 2 * w + d, 2 * w + 2 * d)


def box_net(card: CardSize, cards: int, thickness: float = 0.3, sleeves: bool = False) -> BoxNet:
    """The net for `cards` cards of `card` size, `thickness` mm each, sleeved or not."""
    clearance = CLEARANCE + (SLEEVE_CLEARANCE if sleeves else 0.0)
    depth = cards * thickness + (cards * SLEEVE if sleeves else 0.0) + DEPTH_SPARE
    return BoxNet(card.width + clearance, card.height + clearance, depth, tuck=min(max(depth, 15.0), 25.0),
                  glue=min(GLUE, max(depth - 2.0, 6.0)))


def place_net(net: BoxNet, paper: Paper, what: str) -> tuple[float, float, bool]:
    """(x, y, turned) in mm: the net centred on the paper, turned a quarter when only that fits;
    a UsageError with both sizes when neither does."""
    nw, nh = net.size
    aw, ah = paper.width - 2 * MARGIN, paper.height - 2 * MARGIN
    if nw <= aw + 1e-9 and nh <= ah + 1e-9:
        return ((paper.width - nw) / 2, (paper.height - nh) / 2, False)
    if nh <= aw + 1e-9 and nw <= ah + 1e-9:
        return ((paper.width - nh) / 2, (paper.height - nw) / 2, True)
    short = [f"{fmt_mm(a - b)} mm in {k}" for a, b, k in ((min(nw, nh), aw, "width"), (max(nw, nh), ah, "height")) if a > b + 1e-9]
    raise UsageError(f"the tuck box for {what} does not fit one {paper.name} sheet: its net is {fmt_mm(nw)} × {fmt_mm(nh)} mm "
                     f"(inside {fmt_mm(net.width)} × {fmt_mm(net.height)} × {fmt_mm(round(net.depth, 1))} mm) and the sheet "
                     f"leaves {fmt_mm(aw)} × {fmt_mm(ah)} mm within {fmt_mm(MARGIN)} mm margins (short by {' and '.join(short)}); "
                     "box fewer cards (--deck) or give a smaller --card-thickness")


def deck_title(project, lang: str, deck: BoxDeck) -> str:
    """The name printed on the box: a starter deck's in the build's language; a decklist's own
    name when the language's fonts can draw it (a list may be named in any language), else
    the faction's name."""
    loc = project.locale(lang)
    if deck.title is None:
        return loc.format("box.starter-deck", faction=loc.get(f"faction.{deck.faction}"))
    chains = [project.fonts.chain(lang, role) for role in ("title", "body", "bold")]
    if any(chain.missing(deck.title) for chain in chains):
        return loc.get(f"faction.{deck.faction}")
    return deck.title


# ── drawing ──────────────────────────────────────────────────────────────────
def draw_tuck_box(c, project, lang: str, deck: BoxDeck, net: BoxNet, paper: Paper, report) -> None:
    """One page: the deck's tuck box, laid on the paper (in mm, drawn in points)."""
    title = deck_title(project, lang, deck)
    x0, y0, turned = place_net(net, paper, f"'{title}'")
    c.setPageSize(paper.size)
    c.saveState()
    if turned:  # the net's bottom-left corner goes to (x0 + its height, y0): turned a quarter anticlockwise
        c.translate((x0 + net.size[1]) * MM, y0 * MM)
        c.rotate(90)
    else:
        c.translate(x0 * MM, y0 * MM)
    faction = project.game.factions[deck.faction]
    panels = Panels(net)
    c.saveState()
    c.clipPath(_outline(c, net, panels), stroke=0, fill=0)  # nothing printed beyond the cut
    _paint(c, project, lang, deck, title, net, panels, faction, report)
    c.restoreState()
    _fold_lines(c, net, panels)
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(CUT_WIDTH)
    c.drawPath(_outline(c, net, panels), stroke=1, fill=0)
    c.restoreState()
    c.restoreState()
    loc = project.locale(lang)
    note = one_line(loc.get("box.howto"), text_style(project, lang, "body", 7, "#595959", min_size=5), paper.width * MM - 2 * MARGIN * MM,
                    where=loc.where("box.howto"))
    draw_line(c, note, paper.width * MM / 2, (MARGIN + 1) * MM, "middle")


class Panels:
    """Every panel and flap of a net as (x, y, w, h) in mm from the net's bottom-left."""

    def __init__(self, n: BoxNet):
        w, h, d = n.width, n.height, n.depth
        cols = (0.0,) + n.columns
        self.front = (cols[0], d, w, h)
        self.spine = (cols[1], d, d, h)
        self.back = (cols[2], d, w, h)
        self.side = (cols[3], d, d, h)
        self.glue = (cols[4], d, n.glue, h)
        self.lid = (cols[2], d + h, w, d)
        self.tuck = (cols[2], d + h + d, w, n.tuck)
        self.front_bottom = (cols[0], 0.0, w, d)  # glued: the back's bottom flap goes over it
        self.back_bottom = (cols[2], 0.0, w, d)
        dust = min(d, w / 2) * 0.9
        self.dust_top = [(cols[1], d + h, d, dust), (cols[3], d + h, d, dust)]
        self.dust_bottom = [(cols[1], d - dust, d, dust), (cols[3], d - dust, d, dust)]
        self.notch = min(9.0, w / 6)  # radius of the thumb notch in the front's top edge


def _rect(c, box, colour: str) -> None:
    x, y, w, h = box
    c.setFillColor(rl(colour))
    c.rect(x * MM, y * MM, w * MM, h * MM, stroke=0, fill=1)


def _paint(c, project, lang, deck: BoxDeck, title: str, net: BoxNet, p: Panels, faction, report) -> None:
    loc = project.locale(lang)
    colour, accent = faction.colour, faction.accent
    dark, light = mix(colour, "#000000", 0.35), mix(colour, "#FFFFFF", 0.86)
    ink, grey = readable_on(colour), "#D0D0D0"
    for box in (p.front, p.spine, p.side, p.lid):
        _rect(c, box, colour)
    for box in [p.back, p.tuck, p.back_bottom] + p.dust_top + p.dust_bottom:
        _rect(c, box, light)
    for box in (p.glue, p.front_bottom):
        _rect(c, box, grey)
    # accent bands at the front's top and bottom, and the emblem
    fx, fy, fw, fh = p.front
    band = min(3.0, fh * 0.03)
    _rect(c, (fx, fy + fh - p.notch - band - 2, fw, band), accent)
    _rect(c, (fx, fy + 4, fw, band), accent)
    e = min(fw * 0.55, fh * 0.4)
    draw_emblem(c, faction.emblem, (fx + (fw - e) / 2) * MM, (fy + fh * 0.36) * MM, e * MM, e * MM, mix(accent, "#FFFFFF", 0.15))

    def text(key_text: str, key: str, box, size: float, role: str = "title", colour_: str = ink, align="center", valign="middle"):
        x, y, w, h = box
        style = text_style(project, lang, role, size, colour_, min_size=max(4.0, size * 0.45), align=align, valign=valign)
        return draw_fitted(c, key_text, style, x * MM, y * MM, w * MM, h * MM, report, lang, key, label=True)

    pad = 3.0
    text(title, "box.starter-deck", (fx + pad, fy + fh * 0.12, fw - 2 * pad, fh * 0.22), 15)
    count = loc.format("box.card-count", n=deck.count)
    text(count, "box.card-count", (fx + pad, fy + band + 5, fw - 2 * pad, 6), 8, "bold")
    # the spine and the lid: the name, turned along the spine
    sx, sy, sw, sh = p.spine
    c.saveState()
    c.translate((sx + sw) * MM, sy * MM)
    c.rotate(90)
    text(title, "box.starter-deck", (pad, 1.0, sh - 2 * pad, sw - 2.0), 11)
    c.restoreState()
    # the lid, a half turn: it folds over from the back's top edge towards the front, so the
    # name's top must face the back for it to read from above with the front towards you
    lx, ly, lw, lh = p.lid
    c.saveState()
    c.translate((lx + lw) * MM, (ly + lh) * MM)
    c.rotate(180)
    text(title, "box.starter-deck", (pad, 1, lw - 2 * pad, lh - 2), 10)
    c.restoreState()
    # the other side: the emblem small
    ox, oy, ow, oh = p.side
    s = min(ow * 0.7, 14.0)
    draw_emblem(c, faction.emblem, (ox + (ow - s) / 2) * MM, (oy + oh * 0.6) * MM, s * MM, s * MM, mix(accent, "#FFFFFF", 0.15))
    # the back: the card list
    _card_list(c, project, lang, deck, title, p.back, dark, report)
    # glue flaps, the inner size
    for box in (p.glue, p.front_bottom):
        gx, gy, gw, gh = box
        if gw < gh:
            c.saveState()
            c.translate((gx + gw) * MM, gy * MM)
            c.rotate(90)
            text(loc.get("box.glue"), "box.glue", (2, 0.5, gh - 4, gw - 1), 8, "bold", "#6E6E6E")
            c.restoreState()
        else:
            text(loc.get("box.glue"), "box.glue", (gx + 2, gy + gh / 2, gw - 4, gh / 2 - 0.5), 8, "bold", "#6E6E6E")
    # the inner size on the bottom, a half turn too: the back's bottom flap folds under towards
    # the front, and tipping the box back to read it brings the front's edge to the top
    bx, by, bw, bh = p.back_bottom
    size = loc.format("box.size", w=fmt_mm(net.width), h=fmt_mm(net.height), d=fmt_mm(round(net.depth, 1)))
    c.saveState()
    c.translate((bx + bw) * MM, (by + bh) * MM)
    c.rotate(180)
    text(size, "box.size", (2, 1, bw - 4, bh - 2), 6.5, "body", dark)
    c.restoreState()


def _card_list(c, project, lang, deck: BoxDeck, title: str, box, colour: str, report) -> None:
    """The deck's cards, one line each: count, name, collector code; as large as fits."""
    x, y, w, h = box
    pad = 3.0
    rows = [(f"{n}×", project.card_name(card, lang), card.code) for card, n in deck.cards]
    head = text_style(project, lang, "bold", 8, colour, min_size=5)
    lay = one_line(title, head, (w - 2 * pad) * MM, where=f"{deck.faction} deck name")
    top = (y + h - pad) * MM - lay.size
    draw_line(c, lay, (x + w / 2) * MM, top, "middle")
    c.setStrokeColor(rl(colour))
    c.setLineWidth(0.4)
    c.line((x + pad) * MM, top - 2.5, (x + w - pad) * MM, top - 2.5)
    avail = top - 4 - (y + pad) * MM
    size = max(4.0, min(7.0, avail / max(len(rows), 1) / 1.25))
    body = text_style(project, lang, "body", size, colour, min_size=4)
    code_style = text_style(project, lang, "body", size * 0.85, mix(colour, "#FFFFFF", 0.3), min_size=3.5)
    count_w = one_line("3×", body).width * 1.15
    code_w = max((one_line(code, code_style).width for _, _, code in rows), default=0.0) + 2
    name_w = (w - 2 * pad) * MM - count_w - code_w
    baseline = top - 4 - size
    for count, name, code in rows:
        draw_line(c, one_line(count, body), (x + pad) * MM + count_w - 1, baseline, "end")
        name_lay = one_line(name, body, name_w, where=f"card name {code}")
        if not name_lay.fits:
            report.warning("overflow", f"'{name}' does not fit the tuck box's card list", lang=lang, key=code)
        draw_line(c, name_lay, (x + pad) * MM + count_w + 1, baseline, "start")
        draw_line(c, one_line(code, code_style), (x + w - pad) * MM, baseline, "end")
        baseline -= size * 1.25


def _fold_lines(c, net: BoxNet, p: Panels) -> None:
    """Every fold, dashed: between the panels, under the flaps."""
    w, h, d = net.width, net.height, net.depth
    c.saveState()
    c.setStrokeColorRGB(0.35, 0.35, 0.35)
    c.setLineWidth(FOLD_WIDTH)
    c.setDash(*FOLD_DASH)
    for x in net.columns:
        c.line(x * MM, d * MM, x * MM, (d + h) * MM)
    folds = [(p.back[0], d + h, w), (p.back[0], d + h + d, w), (p.front[0], d, w), (p.back[0], d, w)]  # lid, tuck, bottoms
    folds += [(bx, d + h, bw) for bx, _, bw, _ in p.dust_top] + [(bx, d, bw) for bx, _, bw, _ in p.dust_bottom]
    for x, y, length in folds:
        c.line(x * MM, y * MM, (x + length) * MM, y * MM)
    c.restoreState()


def _outline(c, net: BoxNet, p: Panels):
    """The net's cut outline as one closed path: flaps with bevelled corners, the tuck flap
    rounded, the thumb notch a half circle in the front's top edge."""
    w, h, d = net.width, net.height, net.depth
    cols = (0.0,) + net.columns
    bevel = min(3.0, d / 3)
    top, bottom = d + h, d
    dust_t, dust_b = p.dust_top[0][3], p.dust_bottom[0][3]
    r = p.notch
    pts: list = []  # points in mm, anticlockwise from the bottom-left of the front's bottom flap
    # bottom edge: front bottom flap, dust flap, back bottom flap, dust flap, glue flap
    pts += [(cols[0] + bevel, 0.0), (cols[1] - bevel, 0.0), (cols[1], bottom)]
    pts += [(cols[1] + bevel, bottom - dust_b), (cols[2] - bevel, bottom - dust_b), (cols[2], bottom)]
    pts += [(cols[2] + bevel, 0.0), (cols[3] - bevel, 0.0), (cols[3], bottom)]
    pts += [(cols[3] + bevel, bottom - dust_b), (cols[4] - bevel, bottom - dust_b), (cols[4], bottom)]
    g = net.glue
    pts += [(cols[4] + g, bottom + g * 0.6), (cols[4] + g, top - g * 0.6), (cols[4], top)]
    # top edge, right to left: dust flap, lid + tuck flap, dust flap, the front with its notch
    pts += [(cols[4] - bevel, top + dust_t), (cols[3] + bevel, top + dust_t), (cols[3], top)]
    t = net.tuck
    round_r = min(t * 0.8, w / 4)
    pts += [(cols[3], top + d), ("arc", cols[3] - round_r, top + d + t - round_r, round_r, 0, 90),
            ("arc", cols[2] + round_r, top + d + t - round_r, round_r, 90, 90), (cols[2], top + d), (cols[2], top)]
    pts += [(cols[2] - bevel, top + dust_t), (cols[1] + bevel, top + dust_t), (cols[1], top)]
    mid = cols[0] + w / 2
    pts += [(mid + r, top), ("arc", mid, top, r, 0, -180), (cols[0], top), (cols[0], bottom)]
    path = c.beginPath()
    path.moveTo(pts[0][0] * MM, pts[0][1] * MM)
    for pt in pts[1:]:
        if pt[0] == "arc":
            _, cx, cy, rad, start, extent = pt
            path.arcTo((cx - rad) * MM, (cy - rad) * MM, (cx + rad) * MM, (cy + rad) * MM, start, extent)
        else:
            path.lineTo(pt[0] * MM, pt[1] * MM)
    path.close()
    return path
