"""A drawing larger than the paper (the player mat), on one sheet or on two joined ones.

    tiles = plan_tiles((w, h), paper, printable=5, margin=6, glue=10, avoid=[(x0, x1), …])
    seam_of(tiles)        # ("x", 177.5 mm in points): where the drawing is cut; None on one sheet

- **One sheet** when the drawing fits the paper inside its margins (turned landscape when
  that is the way it fits), centred.
- **Two sheets** otherwise, joined along a seam: sheet 1 holds the drawing up to the seam and,
  beyond it, a grey glue strip; sheet 2 holds the rest, from the seam, with a dashed cut line
  at the seam and a strip of waste beyond it. Cut sheet 2 along the line and lay its edge on
  the seam line of sheet 1, over the strip, where triangles on both sheets meet. The seam runs
  across the drawing's longer side where both halves fit, at the place of the allowed range
  farthest from anything in `avoid` (intervals along the seam's axis, in order of priority:
  die spots first, then card zones), so no die spot is cut when that can be avoided.
- Neither: a UsageError with the drawing's size and the paper's.

All lengths here are points (impose/geometry.py); `plan_tiles` takes mm where people give them.
`draw_tile` places the drawing (a form of the Document) on a sheet, clipped to its part, with
the marks and words of a join.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import UsageError
from ..units import MM
from .geometry import Rect

MIN_WASTE = 6.0  # mm: sheet 2's strip beyond its cut line, where its words are printed


@dataclass(frozen=True)
class Tile:
    """One sheet: its page size, where the drawing's origin lands on it, the part of the drawing
    it shows (drawing coordinates), and for a join the glue strip (sheet 1) or the cut line
    (sheet 2) in page coordinates."""

    page: tuple[float, float]
    origin: tuple[float, float]
    part: Rect
    number: int = 1
    total: int = 1
    axis: str = ""  # "x": sheets side by side (a vertical seam); "y": one above the other
    seam: float = 0.0  # page coordinate of the seam (sheet 1: its glue line; sheet 2: its cut line)
    glue: Rect | None = None  # sheet 1: the strip sheet 2 is laid on (page coordinates)
    waste: Rect | None = None  # sheet 2: the strip cut off (page coordinates)

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """A point of the drawing on this sheet's page."""
        return (x + self.origin[0], y + self.origin[1])


def plan_tiles(size: tuple[float, float], paper, printable: float, margin: float, glue: float,
               avoid: tuple[list[tuple[float, float]], ...] = ((), ()), what: str = "the drawing", hint: str = "") -> list[Tile]:
    """The sheets `size` (points) prints on: one, or two joined (see the module's doc). `paper` is a
    units.Paper (either way up); `printable` and `margin` are mm from the paper edge (the larger
    counts); `glue` the strip's width in mm; `avoid` (points) = (along x, along y) interval lists."""
    w, h = size
    edge = max(printable, margin) * MM
    short, long_ = sorted((paper.width * MM, paper.height * MM))
    for pw, ph in ((long_, short), (short, long_)) if w >= h else ((short, long_), (long_, short)):
        if w <= pw - 2 * edge + 1e-6 and h <= ph - 2 * edge + 1e-6:
            return [Tile((pw, ph), ((pw - w) / 2, (ph - h) / 2), Rect(0, 0, w, h))]
    g, waste = glue * MM, MIN_WASTE * MM
    axes = ("x", "y") if w >= h else ("y", "x")
    for axis in axes:
        along, across = (w, h) if axis == "x" else (h, w)
        # sheets turned so that their side across the seam holds the drawing's other side
        for sheet_along, sheet_across in ((short, long_), (long_, short)):
            room_across, room = sheet_across - 2 * edge, sheet_along - 2 * edge
            if across > room_across + 1e-6:
                continue
            # the seam's range: along x sheet 1 holds [0, seam] and the glue, sheet 2 the waste and [seam, along];
            # along y sheet 1 (the top) holds [seam, along] and the glue, sheet 2 [0, seam] and the waste
            if axis == "x":
                low, high = along - (room - waste), room - g
            else:
                low, high = along - (room - g), room - waste
            if low > high + 1e-6:
                continue
            seam = _seam(low, high, avoid[0] if axis == "x" else avoid[1])
            return _joined(axis, w, h, seam, sheet_along, sheet_across, g, waste)
    raise UsageError(
        f"{what} ({w / MM:.0f} × {h / MM:.0f} mm) does not fit one sheet of {paper.name} "
        f"({paper.width:g} × {paper.height:g} mm), nor two joined ones, with {max(printable, margin):g} mm margins{hint}"
    )


def _seam(low: float, high: float, groups) -> float:
    """The seam in [low, high]: outside every interval of the first group that allows it, as far from
    their edges as it can be; the middle of the range when no group allows it."""
    for intervals in groups:
        free = [(low, high)]
        for a, b in sorted(intervals):
            free = [piece for lo, hi in free for piece in ((lo, min(hi, a)), (max(lo, b), hi)) if piece[1] - piece[0] > 1e-6]
        if free:
            def margin_of(piece):
                lo, hi = piece
                inner = [e for iv in intervals for e in iv]
                mid = (lo + hi) / 2
                return min((abs(mid - e) for e in inner), default=hi - lo)

            best = max(free, key=margin_of)
            return (best[0] + best[1]) / 2
    return (low + high) / 2


def _joined(axis: str, w: float, h: float, seam: float, sheet_along: float, sheet_across: float, g: float,
            waste: float) -> list[Tile]:
    """Two sheets joined at `seam` (drawing coordinate along `axis`), each part centred on its sheet."""
    along, across = (w, h) if axis == "x" else (h, w)
    first_len, second_len = seam + g, along - seam + waste
    off1 = (sheet_along - first_len) / 2  # where the drawing's 0 lands on sheet 1 (along the axis)
    off2 = (sheet_along - second_len) / 2 + waste - seam  # … on sheet 2: its cut line at off2 + seam
    cross = (sheet_across - across) / 2

    def rect(a0, a1, c0, c1) -> Rect:
        return Rect(a0, c0, a1 - a0, c1 - c0) if axis == "x" else Rect(c0, a0, c1 - c0, a1 - a0)

    page = (sheet_along, sheet_across) if axis == "x" else (sheet_across, sheet_along)

    def origin(off):
        return (off, cross) if axis == "x" else (cross, off)

    # sheet 1 is the one at the drawing's start along x (left), or its top along y (y grows upward)
    if axis == "x":
        one = Tile(page, origin(off1), rect(0, seam, 0, across), 1, 2, axis, off1 + seam,
                   glue=rect(off1 + seam, off1 + seam + g, cross, cross + across))
        two = Tile(page, origin(off2), rect(seam, along, 0, across), 2, 2, axis, off2 + seam,
                   waste=rect(off2 + seam - waste, off2 + seam, cross, cross + across))
        return [one, two]
    # along y: the part above the seam (the far side of the mat) is sheet 1; its glue strip below the seam
    top_len, bottom_len = along - seam + g, seam + waste
    off_top = (sheet_along - top_len) / 2 + g - seam  # drawing y = seam lands at off_top + seam
    off_bottom = (sheet_along - bottom_len) / 2  # drawing y = 0 lands here
    one = Tile(page, origin(off_top), rect(seam, along, 0, across), 1, 2, axis, off_top + seam,
               glue=rect(off_top + seam - g, off_top + seam, cross, cross + across))
    two = Tile(page, origin(off_bottom), rect(0, seam, 0, across), 2, 2, axis, off_bottom + seam,
               waste=rect(off_bottom + seam, off_bottom + seam + waste, cross, cross + across))
    return [one, two]


def seam_of(tiles: list[Tile]) -> tuple[str, float] | None:
    """Where the drawing is cut between two sheets, in drawing coordinates: ("x", x) for sheets
    side by side, ("y", y) for one above the other; None on one sheet."""
    if len(tiles) < 2:
        return None
    one = tiles[0]
    return ("x", one.part.x + one.part.w) if one.axis == "x" else ("y", one.part.y)


# ── drawing ───────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class JoinText:
    """The words of a join, in the build's language, each already fitted by the caller's style."""

    glue: str  # on sheet 1's strip
    cut: str  # on sheet 2's waste strip
    sheet: str  # "Sheet {n} of {total}" with {n} and {total} to fill
    style: object  # a typeset.text.Style for them
    where: str = "text"


def draw_tile(doc, tile: Tile, form: str, text: JoinText | None = None) -> None:
    """One sheet: the drawing (form `form` of `doc`, a write.pdf.Document) clipped to the tile's part,
    and for a join the glue strip or the cut line, their triangles and words. Ends the page."""
    c = doc.canvas
    doc.begin_page(*tile.page)
    ox, oy = tile.origin
    part = tile.part.moved(ox, oy)
    c.saveState()
    path = c.beginPath()
    path.rect(part.x, part.y, part.w, part.h)
    c.clipPath(path, stroke=0, fill=0)
    doc.place_form(form, (1, 0, 0, 1, ox, oy))
    c.restoreState()
    if tile.total > 1:
        _join_marks(c, tile, part, text)
    doc.end_page()


def _join_marks(c, tile: Tile, part: Rect, text: JoinText | None) -> None:
    strip = tile.glue or tile.waste
    c.saveState()
    if tile.glue is not None:
        c.setFillColorRGB(0.86, 0.86, 0.86)
        c.rect(strip.x, strip.y, strip.w, strip.h, stroke=0, fill=1)
        c.setStrokeColorRGB(0.7, 0.7, 0.7)
        c.setLineWidth(0.4)
        step = 3 * MM
        c.saveState()
        clip = c.beginPath()
        clip.rect(strip.x, strip.y, strip.w, strip.h)
        c.clipPath(clip, stroke=0, fill=0)
        span = strip.w + strip.h
        k = -span
        while k < span:
            c.line(strip.x + k, strip.y, strip.x + k + strip.h, strip.y + strip.h)
            k += step
        c.restoreState()
        c.setStrokeColorRGB(0.25, 0.25, 0.25)
        c.setLineWidth(0.6)
    else:
        c.setStrokeColorRGB(0.25, 0.25, 0.25)
        c.setLineWidth(0.6)
        c.setDash(4, 2.5)
    # the seam: sheet 1's line to lay sheet 2's edge on, sheet 2's line to cut along
    if tile.axis == "x":
        c.line(tile.seam, strip.y, tile.seam, strip.y1)
    else:
        c.line(strip.x, tile.seam, strip.x1, tile.seam)
    c.setDash()
    c.setFillColorRGB(0.25, 0.25, 0.25)
    size = 2.6 * MM
    for end in (0, 1):  # triangles at both ends of the seam: they meet when the sheets are laid right
        if tile.axis == "x":
            y = strip.y + size if end == 0 else strip.y1 - size
            _triangle(c, tile.seam, y, size, "x")
        else:
            x = strip.x + size if end == 0 else strip.x1 - size
            _triangle(c, x, tile.seam, size, "y")
    c.restoreState()
    if text is not None:
        _strip_words(c, tile, strip, text)


def _triangle(c, x: float, y: float, size: float, axis: str) -> None:
    p = c.beginPath()
    if axis == "x":  # pointing at the seam from both sides
        p.moveTo(x, y)
        p.lineTo(x - size * 0.7, y + size * 0.5)
        p.lineTo(x - size * 0.7, y - size * 0.5)
        p.close()
        p.moveTo(x, y)
        p.lineTo(x + size * 0.7, y + size * 0.5)
        p.lineTo(x + size * 0.7, y - size * 0.5)
        p.close()
    else:
        p.moveTo(x, y)
        p.lineTo(x - size * 0.5, y + size * 0.7)
        p.lineTo(x + size * 0.5, y + size * 0.7)
        p.close()
        p.moveTo(x, y)
        p.lineTo(x - size * 0.5, y - size * 0.7)
        p.lineTo(x + size * 0.5, y - size * 0.7)
        p.close()
    c.drawPath(p, stroke=0, fill=1)


def _strip_words(c, tile: Tile, strip: Rect, text: JoinText) -> None:
    """The glue strip's or the waste strip's words, along the strip, between the triangles."""
    from ..typeset.text import draw, fit

    words = text.glue if tile.glue is not None else text.cut
    words = f"{words}   ·   {text.sheet.format(n=tile.number, total=tile.total)}"
    inset = 6 * MM
    vertical = tile.axis == "x"
    length = (strip.h if vertical else strip.w) - 2 * inset
    depth = (strip.w if vertical else strip.h) - 1.2 * MM
    lay = fit(words, text.style, length, depth, where=text.where)
    c.saveState()
    if vertical:
        c.translate(strip.x + strip.w / 2 + depth / 2, strip.y + inset)
        c.rotate(90)
    else:
        c.translate(strip.x + inset, strip.y + strip.h / 2 - depth / 2)
    draw(c, lay, 0, 0)
    c.restoreState()
