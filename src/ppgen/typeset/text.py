"""The text engine: every piece of text on every page goes through here.

- **Markup**: `**bold**` only. Everything else is printed as written (a `<` or
  `&` in a translation prints as itself: nothing is parsed as XML).
- **Fonts**: each character is set in the first font of the language's chain
  that has it (fonts.FontChain); a character no font has is an error naming
  the string's key, never tofu.
- **Line breaking**: `words` breaks at spaces (English, Korean); `cjk` breaks
  by Unicode line-breaking rules (UAX #14, linebreak.py: uniseg's results,
  fast) with Japanese/Chinese kinsoku: no line starts with 、。」，！？ and the
  like, none ends with an opening bracket. A word longer than the line is
  broken between characters.
- **Fitting**: `fit` finds the largest size (0.25 pt steps) at which the text
  fits a box, down to a minimum; at the minimum it reports the overflow and
  the caller decides — text is never drawn outside its box.

Widths scale linearly with size, so a text is segmented and measured once
(at 1 pt) and every trial size only re-wraps.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from ..errors import PpgenError
from .fonts import FontChain

# Kinsoku shori (JIS X 4051): characters that may not start a line ...
NO_LINE_START = frozenset(
    "、。，．・：；？！゛゜ヽヾゝゞ々ー）］｝〕〉》」』】〙〗〟’”｠»‐゠–〜～…‥"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    "%％),.:;?!]}"
)
# ... and that may not end one.
NO_LINE_END = frozenset("（［｛〔〈《「『【〘〖〝‘“｟«([{")

ASCENT = 0.92  # of the font size, above the baseline (Noto CJK/Latin caps and ideographs)
DESCENT = 0.24  # below the baseline

_BIDI_AND_CONTROL = re.compile("[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")


class MarkupError(PpgenError):
    """Unbalanced `**` in a text; `where` says whose (a locale.Where, or "")."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(message)
        self.where = where


class GlyphError(PpgenError):
    """A character no font in the chain can draw."""

    def __init__(self, where: str, chars: list[str], chain: FontChain):
        self.where, self.chars, self.chain = where, chars, chain
        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)
        super().__init__(f"{where}: no font of the {chain.lang} {chain.role} chain can draw {shown}")


def clean(text: str) -> str:
    """Drop control and bidirectional-formatting characters; tabs become spaces."""
    return _BIDI_AND_CONTROL.sub("", text.replace("\t", " ").replace("\r\n", "\n"))


def parse_markup(text: str) -> list[tuple[str, bool]]:
    """Split `**bold**` markup into (text, bold) spans; raise MarkupError if unbalanced."""
    parts = text.split("**")
    if len(parts) % 2 == 0:
        raise MarkupError("unbalanced ** (bold) markup")
    return [(part, i % 2 == 1) for i, part in enumerate(parts) if part]


def plain(text: str) -> str:
    """The text without markup."""
    return text.replace("**", "")


@dataclass(frozen=True)
class Style:
    """How a block of text is set: fonts, size limits, line height, alignment, colour."""

    regular: FontChain
    bold: FontChain
    size: float  # the preferred (largest) size in pt
    min_size: float | None = None  # shrink down to this; None = never shrink
    leading: float = 1.22  # line height as a multiple of the size
    line_break: str = "words"  # words | cjk
    align: str = "left"  # left | center | right
    valign: str = "top"  # top | middle | bottom
    colour: str = "#000000"
    bold_all: bool = False  # set everything in the bold chain (names, headings)


@dataclass
class Unit:
    """An unbreakable piece of text with the space (if any) that follows it."""

    runs: list[tuple[str, str]]  # (font name, text) at 1 pt
    width: float  # at 1 pt, without trailing space
    space: float  # trailing space width at 1 pt
    hard_break: bool = False  # a newline follows


@dataclass
class Line:
    runs: list[tuple[str, str]]
    width: float  # in pt at the layout's size


@dataclass
class Layout:
    lines: list[Line]
    size: float
    leading: float
    box_w: float
    box_h: float
    style: Style = field(repr=False)

    @property
    def line_height(self) -> float:
        return self.size * self.leading

    @property
    def height(self) -> float:
        if not self.lines:
            return 0.0
        return (len(self.lines) - 1) * self.line_height + self.size * (ASCENT + DESCENT)

    @property
    def width(self) -> float:
        return max((line.width for line in self.lines), default=0.0)

    @property
    def overflow(self) -> float:
        """How many points the text sticks out of its box (0 when it fits)."""
        return max(0.0, self.height - self.box_h, self.width - self.box_w)

    @property
    def fits(self) -> bool:
        return self.overflow <= 0.01

    @property
    def text(self) -> str:
        return "\n".join("".join(t for _, t in line.runs) for line in self.lines)


# ── segmentation ───────────────────────────────────────────────────────────
_NUMBER_AND_STAT = re.compile(r"(?<=\d) (?=(?:ATK|DEF|LP)\b)")


def _break_units(text: str, mode: str) -> list[str]:
    """Split plain text into pieces between which a line may break."""
    text = _NUMBER_AND_STAT.sub("\u00a0", text)  # keep "1 ATK" on one line
    if mode == "cjk":
        from .linebreak import break_units

        return _kinsoku(break_units(text))
    return re.findall(r"[^ \n]+ *| +", text)


def _kinsoku(pieces: list[str]) -> list[str]:
    """Join pieces so that no line can start or end with a forbidden character."""
    out: list[str] = []
    for piece in pieces:
        if out and (piece[0] in NO_LINE_START or out[-1].rstrip()[-1:] in NO_LINE_END):
            out[-1] += piece
        else:
            out.append(piece)
    return out


@lru_cache(maxsize=4096)
def _segment(text: str, regular: FontChain, bold: FontChain, mode: str, bold_all: bool) -> tuple[Unit, ...]:
    spans = parse_markup(text)
    flat = "".join(t for t, _ in spans)
    bold_at = []
    for t, b in spans:
        bold_at.extend([b or bold_all] * len(t))
    units: list[Unit] = []
    pos = 0
    for paragraph_i, paragraph in enumerate(flat.split("\n")):
        if paragraph_i:
            if units:
                units[-1].hard_break = True
            pos += 1  # the newline
        for piece in _break_units(paragraph, mode) if paragraph else []:
            units.append(_measure(piece, bold_at[pos : pos + len(piece)], regular, bold))
            pos += len(piece)
    return tuple(units)


def _measure(piece: str, bold_flags: list[bool], regular: FontChain, bold: FontChain) -> Unit:
    body = piece.rstrip(" ")
    trailing = len(piece) - len(body)
    runs: list[tuple[str, str]] = []
    width = 0.0
    i = 0
    while i < len(body):  # split by bold flag, then by font
        j = i
        while j < len(body) and bold_flags[j] == bold_flags[i]:
            j += 1
        chain = bold if bold_flags[i] else regular
        for font, run in chain.runs(body[i:j]):
            runs.append((font, run))
            width += _width(run, font)
        i = j
    space_font = (bold if bold_flags and bold_flags[-1] else regular).primary
    space = _width(" ", space_font) * trailing
    return Unit(runs, width, space)


@lru_cache(maxsize=65536)
def _width(text: str, font: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, 1.0)


# ── wrapping and fitting ───────────────────────────────────────────────────
def _split_long(unit: Unit, limit: float) -> list[Unit]:
    """Break a unit wider than a whole line between characters (grapheme clusters)."""
    from uniseg.graphemecluster import grapheme_clusters

    out: list[Unit] = []
    runs: list[tuple[str, str]] = []
    width = 0.0
    for font, text in unit.runs:
        for g in grapheme_clusters(text):
            w = _width(g, font)
            if width + w > limit and (runs or width):
                out.append(Unit(runs, width, 0.0))
                runs, width = [], 0.0
            if runs and runs[-1][0] == font:
                runs[-1] = (font, runs[-1][1] + g)
            else:
                runs.append((font, g))
            width += w
    out.append(Unit(runs, width, unit.space, unit.hard_break))
    return out


def wrap(units: tuple[Unit, ...], size: float, box_w: float) -> list[Line]:
    """Greedy line filling at `size`; widths in pt."""
    limit = box_w / size  # compare at 1 pt
    lines: list[Line] = []
    cur_runs: list[tuple[str, str]] = []
    cur_w = 0.0  # without the pending space
    pending_space = 0.0
    pending_space_font = None

    def flush():
        nonlocal cur_runs, cur_w, pending_space, pending_space_font
        lines.append(Line(cur_runs, cur_w * size))
        cur_runs, cur_w, pending_space, pending_space_font = [], 0.0, 0.0, None

    queue = list(units)
    while queue:
        unit = queue.pop(0)
        if unit.width > limit and len(unit.runs[0][1] if unit.runs else "") + sum(len(t) for _, t in unit.runs[1:]) > 1:
            if cur_runs:
                flush()
            queue[0:0] = _split_long(unit, limit)
            continue
        if cur_runs and cur_w + pending_space + unit.width > limit + 1e-9:
            flush()
        if cur_runs and pending_space:
            _append(cur_runs, pending_space_font, " " * max(1, round(pending_space / max(_width(" ", pending_space_font), 1e-6))))
            cur_w += pending_space
        for font, text in unit.runs:
            _append(cur_runs, font, text)
        cur_w += unit.width
        pending_space = unit.space
        pending_space_font = unit.runs[-1][0] if unit.runs else None
        if unit.hard_break:
            flush()
    if cur_runs or not lines:
        flush()
    return lines


def _append(runs: list[tuple[str, str]], font: str, text: str) -> None:
    if runs and runs[-1][0] == font:
        runs[-1] = (font, runs[-1][1] + text)
    else:
        runs.append((font, text))


def layout(text: str, style: Style, box_w: float, box_h: float, size: float | None = None, where: str = "text") -> Layout:
    """Lay `text` out at one size (default: the style's size)."""
    units = _units(text, style, where)
    size = size or style.size
    return Layout(wrap(units, size, box_w), size, style.leading, box_w, box_h, style)


def fit(text: str, style: Style, box_w: float, box_h: float, where: str = "text") -> Layout:
    """The largest size, in 0.25 pt steps from style.size down to style.min_size, at which text fits.

    Returns the layout at the minimum size (with `.fits` False and `.overflow`
    > 0) when even that does not fit; the caller reports it.
    """
    units = _units(text, style, where)
    hi = style.size
    lo = style.min_size if style.min_size is not None else hi

    def at(size):
        return Layout(wrap(units, size, box_w), size, style.leading, box_w, box_h, style)

    best = at(hi)
    if best.fits or lo >= hi:
        return best
    smallest = at(lo)
    if not smallest.fits:
        return smallest
    steps_lo, steps_hi = 0, int(round((hi - lo) / 0.25))  # size = lo + steps * 0.25; smallest fits, hi does not
    best = smallest
    while steps_hi - steps_lo > 1:
        mid = (steps_lo + steps_hi) // 2
        trial = at(lo + mid * 0.25)
        if trial.fits:
            steps_lo, best = mid, trial
        else:
            steps_hi = mid
    return best


def _units(text: str, style: Style, where: str) -> tuple[Unit, ...]:
    text = unicodedata.normalize("NFC", clean(text))
    try:
        spans = parse_markup(text)
    except MarkupError as exc:
        raise MarkupError(f"{where}: {exc}", where) from None
    for chain, bold in ((style.regular, False), (style.bold, True)):  # each chain draws its own spans
        part = "".join(t for t, b in spans if (b or style.bold_all) == bold)
        missing = chain.missing(part)
        if missing:
            raise GlyphError(where, missing, chain)
    return _segment(text, style.regular, style.bold, style.line_break, style.bold_all)


def one_line(text: str, style: Style, max_width: float | None = None, where: str = "text") -> Layout:
    """`text` on one line (only its own newlines break it), at the style's size or smaller — in
    0.25 pt steps, not below `min_size` — so that it is at most `max_width` wide. At the
    minimum it may still be wider: check `.fits`."""
    units = _units(text, style, where)
    natural = max((line.width for line in wrap(units, 1.0, float("inf"))), default=0.0)  # at 1 pt
    size = style.size
    if max_width is not None and natural * size > max_width:
        size = max(style.min_size or size, int(max_width / natural * 4) / 4)
    lines = wrap(units, size, float("inf"))
    width = max_width if max_width is not None else max((line.width for line in lines), default=0.0)
    return Layout(lines, size, style.leading, width, size * (ASCENT + DESCENT), style)


def draw_line(canvas, lay: Layout, x: float, baseline: float, anchor: str = "start") -> None:
    """Draw a one-line layout with its baseline at `baseline`, starting at, centred on or ending at x."""
    from dataclasses import replace

    width = lay.width  # (a line wider than its box was reported by the caller; it is drawn whole)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    draw(canvas, replace(lay, box_w=width + 0.01, box_h=lay.height + 0.01), left, baseline - lay.size * DESCENT)


# ── drawing ────────────────────────────────────────────────────────────────
def draw(canvas, lay: Layout, x: float, y: float) -> None:
    """Draw a layout in its box whose bottom-left corner is (x, y). Never outside the box:
    a layout that does not fit is clipped to the box (and should have been reported)."""
    style = lay.style
    top = y + lay.box_h
    if style.valign == "middle":
        top = y + (lay.box_h + lay.height) / 2
    elif style.valign == "bottom":
        top = y + lay.height
    canvas.saveState()
    if not lay.fits:
        path = canvas.beginPath()
        path.rect(x, y, lay.box_w, lay.box_h)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.setFillColor(style.colour)
    baseline = top - lay.size * ASCENT
    t = canvas.beginText()
    for line in lay.lines:
        if style.align == "center":
            lx = x + (lay.box_w - line.width) / 2
        elif style.align == "right":
            lx = x + lay.box_w - line.width
        else:
            lx = x
        t.setTextOrigin(lx, baseline)
        for font, run in line.runs:
            t.setFont(font, lay.size)
            t.textOut(run)
        baseline -= lay.line_height
    canvas.drawText(t)
    canvas.restoreState()
