"""The text engine: every piece of text on every page goes through here.

- **Markup**: `**bold**` only. Everything else is printed as written (a `<` or
  `&` in a translation prints as itself: nothing is parsed as XML).
- **Fonts**: each character is set in the first font of the language's chain
  that has it (fonts.FontChain); a character no font has is an error naming
  the string's key, never tofu.
- **Line breaking**: `words` breaks at spaces (English, Korean); `cjk` breaks
  by Unicode line-breaking rules (UAX #14, linebreak.py: uniseg's results,
  fast) with Japanese/Chinese kinsoku: no line starts with 、。」，！？ and the
  like, none ends with an opening bracket. On top of those opportunities:
  a **bold** span and a phrase of the style's `phrases` (key words, "Level
  < 5", "2 ATK": phrases.py) never break, unless one is wider than the line;
  `breaking.py` chooses among the breaks (fill the lines; no runt last line;
  two balanced lines for names and labels). A word longer than the line is
  broken between characters.
- **Justification** (`align: justify`): CJK lines are set on the character
  grid, punctuation compressed (justify.py, JLREQ), the last line of a
  paragraph left-aligned — and so is a line that would have to be
  letter-spaced (more than justify.MAX_SPREAD of an em in each gap).
- **Fitting**: `fit` finds the largest size (0.25 pt steps) at which the text
  fits a box, down to a minimum; at the minimum it reports the overflow and
  the caller decides — text is never drawn outside its box.

Widths scale linearly with size, so a text is segmented and measured once
(at 1 pt) and every trial size only re-wraps.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache

from ..errors import PpgenError
from .breaking import COMMA_SHRINK, COMMAS, Measure, balance, even, fill, has_comma, loose, runt, sentence_end
from .fonts import FontChain
from .frozen import hash_once
from .memo import Memo
from .phrases import Phrases, merge_spans

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
    align: str = "left"  # left | center | right | justify (the last line of a paragraph: left)
    valign: str = "top"  # top | middle | bottom
    colour: str = "#000000"
    bold_all: bool = False  # set everything in the bold chain (names, headings)
    phrases: Phrases | None = None  # the language's unbreakable phrases and compound seams (glossary)
    balance: bool = False  # two lines break where they are closest in width (names, labels)
    orphans: bool = True  # re-break a paragraph rather than end it with a runt line (breaking.py)

    @property
    def justified(self) -> bool:
        return self.align == "justify"

    __hash__ = hash_once  # hashed for every layout looked up (LAYOUTS)

    @property
    def digest(self) -> str:
        """Everything about the style a layout depends on, the same in every process (its fonts
        by name, file and the file's size and time): part of a kept layout's digest."""
        known = self.__dict__.get("_digest")
        if known is None:
            import hashlib

            def stable(value):
                if isinstance(value, FontChain):
                    return (value.lang, value.role, tuple((f.name, str(f.path), f.stamp) for f in value.fonts))
                return value

            text = repr(tuple(stable(getattr(self, f.name)) for f in fields(self)))
            known = hashlib.sha1(text.encode()).hexdigest()
            object.__setattr__(self, "_digest", known)
        return known


@dataclass
class Unit:
    """An unbreakable piece of text with the space (if any) that follows it. Widths at 1 pt."""

    runs: list[tuple[str, str]]  # (font name, text) at 1 pt
    width: float  # at 1 pt, without trailing space (consecutive CJK punctuation closed up)
    space: float  # trailing space width at 1 pt
    hard_break: bool = False  # a newline follows
    kern: float = 0.0  # added to the width when it follows the unit before on a line (」「 close up)
    squeeze: float = 0.0  # what justification may take from its punctuation (justify.py) ...
    head: float = 0.0  # ... of which at its first character's left (kept at a line's start)
    tail: float = 0.0  # ... of which at its last character's right (inside a line)
    end: float = 0.0  # the blank at its last character's right a line ending with it may give up (、。」: JLREQ's books)
    chars: int = 0  # visible characters (the runt rule)
    words: int = 0  # words (the runt rule)
    good: bool = False  # a preferred break follows (a space, punctuation, a compound's seam)
    phrase_end: bool = True  # good, or in Japanese a particle before a word: where a line set left may end (breaking.even)
    last: str = ""  # its last visible character
    parts: tuple = ()  # the units a kept phrase was joined from, for when it is wider than a line


@dataclass
class Line:
    runs: list[tuple[str, str]]
    width: float  # in pt at the layout's size
    last: bool = True  # ends a paragraph (or the text): never justified
    ends: str = ""  # its last visible character


@dataclass
class Layout:
    lines: list[Line]
    size: float
    leading: float
    box_w: float
    box_h: float
    style: Style = field(repr=False)
    orphans: int = 0  # paragraphs whose last line is a runt no re-breaking in the box avoids
    rough: int = 0  # line breaks that are not good ones (inside a solid ja/zh word, say)

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
def _break_units(text: str, mode: str) -> list[str]:
    """Split plain text into pieces between which a line may break (UAX #14 + kinsoku, or spaces)."""
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
def _segment(text: str, regular: FontChain, bold: FontChain, mode: str, bold_all: bool,
             phrases: Phrases | None = None) -> tuple[Unit, ...]:
    spans = parse_markup(text)
    flat = "".join(t for t, _ in spans)
    bold_at: list[bool] = []
    marked: list[tuple[int, int]] = []  # the **bold** spans: never broken (key words, terms)
    for t, b in spans:
        if b:
            marked.append((len(bold_at), len(bold_at) + len(t)))
        bold_at.extend([b or bold_all] * len(t))
    units: list[Unit] = []
    pos = 0
    for paragraph_i, paragraph in enumerate(flat.split("\n")):
        if paragraph_i:
            if units:
                units[-1].hard_break = True
            pos += 1  # the newline
        if paragraph:
            flags = bold_at[pos : pos + len(paragraph)]
            bold_spans = [(max(a, pos) - pos, min(b, pos + len(paragraph)) - pos) for a, b in marked if a < pos + len(paragraph) and b > pos]
            units.extend(_paragraph_units(paragraph, flags, bold_spans, regular, bold, mode, phrases))
        pos += len(paragraph)
    return tuple(units)


def _paragraph_units(paragraph: str, flags: list[bool], bold_spans, regular, bold, mode, phrases) -> list[Unit]:
    """A paragraph's units: the break pieces, those inside a phrase joined, then those inside a
    bold span; a joined unit keeps what it was joined from as its `parts`."""
    cuts = [0]
    for piece in _break_units(paragraph, mode):
        cuts.append(cuts[-1] + len(piece))
    level1, joined1 = _joined(cuts, phrases.spans(paragraph, mode) if phrases else [])
    level2, joined2 = _joined(level1, bold_spans)
    joined = {2: joined2, 1: joined1}  # level -> start of a unit joined from several -> the cuts of what it joins
    seams = phrases.seams(paragraph) if phrases and mode == "cjk" else set()
    measure = _measurer(flags, regular, bold, mode)

    def build(cut_list: list[int], level: int) -> list[Unit]:
        out = []
        for start, end in zip(cut_list, cut_list[1:]):
            u = measure(paragraph, start, end)
            for below in range(level, 0, -1):  # a bold span of one phrase: its parts are the phrase's
                inner = joined[below].get(start)
                if inner is not None:
                    u.parts = tuple(build(inner, below - 1))
                    break
            out.append(u)
        _mark_breaks(out, paragraph, cut_list, seams, mode)
        return out

    return build(level2, 2)


def _joined(cuts: list[int], spans) -> tuple[list[int], dict[int, list[int]]]:
    """The pieces between `cuts` (ascending), those whose cut falls inside a span joined: the cuts
    left (each piece's start, and the end), and the start of each piece joined from several → the
    cuts it joins. Found by bisection, span by span (most pieces are in no span: a paragraph of
    Japanese has a cut at every character)."""
    if not spans:
        return cuts, {}
    starts: list[int] = []
    joined: dict[int, list[int]] = {}
    done = 0  # the pieces before cuts[done] are taken
    for s, e in merge_spans(spans):  # sorted, overlapping ones joined: a cut is inside one exactly when inside the union
        first, stop = max(bisect_right(cuts, s), 1), bisect_left(cuts, e)  # cuts[first:stop] lie inside (s, e)
        if first >= stop:
            continue
        if first == done:  # the piece before the span's first cut ends the last joined piece: it goes on
            joined[starts[-1]].extend(cuts[first + 1:stop + 1])
        else:
            starts += cuts[done:first]  # the pieces before, and the one before the span's first cut ...
            joined[cuts[first - 1]] = cuts[first - 1:stop + 1]  # ... which joins those after it
        done = stop
    starts += cuts[done:]
    return starts, joined


_KATAKANA = ((0x30A0, 0x30FF), (0x31F0, 0x31FF), (0xFF66, 0xFF9F))  # katakana, its phonetic extensions, half-width
_HAN = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))  # CJK ideographs: extension A, unified, compatibility
_GOOD_AFTER = frozenset("、。，．・：；！？）」』】〉》,.;:!?)")
_HIRAGANA = ((0x3041, 0x309F),)
_SCRIPTS: dict[str, str] = {}  # a character → "k" (katakana), "h" (han), "j" (hiragana) or "" (neither, or no character)


def _script(ch: str) -> str:
    known = _SCRIPTS.get(ch)
    if known is None:
        code = ord(ch) if len(ch) == 1 else -1
        known = next((s for s, ranges in (("k", _KATAKANA), ("h", _HAN), ("j", _HIRAGANA))
                      if any(a <= code <= b for a, b in ranges)), "")
        _SCRIPTS[ch] = known
    return known


def _mark_breaks(units: list[Unit], paragraph: str, starts: list[int], seams: set[int], mode: str) -> None:
    """Which breaks are good ones (for balanced names and labels), and how adjacent CJK punctuation
    closes up across two units that share a line. `starts`: each unit's offset, and the end."""
    from .justify import COMPRESSIBLE, pair

    if mode != "cjk":
        for u in units:
            u.good = True
        return
    for k, u in enumerate(units):
        if u.space:
            u.good = True
            continue
        at = starts[k + 1]
        before, after = _script(u.last), _script(paragraph[at : at + 1])
        u.good = at in seams or u.last in _GOOD_AFTER or (before + after in ("kh", "hk"))
        # a particle (hiragana), then a word (kanji, katakana, a number, Latin)
        u.phrase_end = u.good or (before == "j" and after != "j" and paragraph[at : at + 1].isalnum())
        if k + 1 < len(units) and u.runs and units[k + 1].runs:
            (font_a, run_a), (font_b, run_b) = u.runs[-1], units[k + 1].runs[0]
            a, b = run_a[-1], run_b[0]
            # only two compressible marks close up (justify.pair): asked only of those
            units[k + 1].kern = -pair((font_a, a), (font_b, b)) if a in COMPRESSIBLE and b in COMPRESSIBLE else -0.0


def _measurer(flags: list[bool], regular: FontChain, bold: FontChain, mode: str):
    """measure(paragraph, start, end): the unit of paragraph[start:end], its characters bold where
    `flags` says, measured at 1 pt (`_measured`). The same piece recurs often: measured once, and
    in a paragraph all bold or all not (most are) looked up by the piece alone."""
    if flags.count(flags[0]) != len(flags):
        def measure(paragraph: str, start: int, end: int) -> Unit:
            return _unit(_measured(paragraph[start:end], tuple(flags[start:end]), regular, bold, mode))

        return measure
    flag = flags[0]
    kept = _MEASURED.get((regular, bold, mode, flag))
    if kept is None:
        if len(_MEASURED) >= 64:
            _MEASURED.clear()
        kept = _MEASURED[regular, bold, mode, flag] = {}

    def measure(paragraph: str, start: int, end: int) -> Unit:
        piece = paragraph[start:end]
        m = kept.get(piece)
        if m is None:
            if len(kept) >= 16384:
                kept.clear()
            m = kept[piece] = _measured(piece, (flag,) * len(piece), regular, bold, mode)
        return _unit(m)

    return measure


_MEASURED: dict[tuple, dict[str, tuple]] = {}  # (chains, mode, bold) → piece → what _measured found


def _unit(measured: tuple) -> Unit:
    runs, width, space, chars, words, last, head, tail, squeeze, end = measured
    return Unit(list(runs), width, space, chars=chars, words=words, last=last, head=head, tail=tail, squeeze=squeeze, end=end)


@lru_cache(maxsize=16384)
def _measured(piece: str, bold_flags: tuple[bool, ...], regular: FontChain, bold: FontChain, mode: str):
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
    visible = [ch for ch in body if ch not in " \u00a0" and unicodedata.category(ch)[0] != "M"]
    head = tail = squeeze = end = 0.0
    if mode == "cjk" and body:
        from .justify import line_end_blank, spacing

        chars = [(font, ch) for font, run in runs for ch in run]
        sp = spacing(chars)
        width -= sp.closed
        head, tail, squeeze = sp.left[0], sp.right[-1], sum(sp.left) + sum(sp.right)
        end = 0.0 if trailing else line_end_blank(chars)
    return (tuple(runs), width, space, len(visible), len(body.replace("\u00a0", " ").split()),
            visible[-1] if visible else "", head, tail, squeeze, end)


@lru_cache(maxsize=65536)
def _width(text: str, font: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, 1.0)


# ── wrapping and fitting ───────────────────────────────────────────────────
@lru_cache(maxsize=4096)
def _graphemes(text: str) -> tuple[str, ...]:
    """The grapheme clusters of `text` (uniseg is pure Python and slow; a box too narrow for its
    words splits the same words again at every size tried)."""
    from uniseg.graphemecluster import grapheme_clusters

    return tuple(grapheme_clusters(text))


def _split_long(unit: Unit, limit: float) -> list[Unit]:
    """Break a unit wider than a whole line between characters (grapheme clusters)."""
    out: list[Unit] = []
    runs: list[tuple[str, str]] = []
    width = 0.0

    def piece(space=0.0, hard=False):
        text = "".join(t for _, t in runs)
        return Unit(runs, width, space, hard, chars=len(text.strip()), words=1, last=text.strip()[-1:])

    for font, text in unit.runs:
        for g in _graphemes(text):
            w = _width(g, font)
            if width + w > limit and (runs or width):
                out.append(piece())
                runs, width = [], 0.0
            if runs and runs[-1][0] == font:
                runs[-1] = (font, runs[-1][1] + g)
            else:
                runs.append((font, g))
            width += w
    out.append(piece(unit.space, unit.hard_break))
    out[0].kern = unit.kern
    return out


def _expand(units: tuple[Unit, ...], limit: float) -> list[Unit]:
    """The units as a line of `limit` sees them: a joined phrase or bold span wider than the line
    falls back to its parts, a single piece wider than the line is broken between characters."""
    out: list[Unit] = []
    queue = list(units)
    while queue:
        unit = queue.pop(0)
        if unit.width <= limit + 1e-9:
            out.append(unit)
            continue
        if unit.parts:
            parts = [replace(part) for part in unit.parts]
            parts[0].kern = unit.kern
            parts[-1].hard_break = unit.hard_break
            queue[0:0] = parts
        elif sum(len(t) for _, t in unit.runs) > 1:
            queue[0:0] = _split_long(unit, limit)
        else:
            out.append(unit)
    return out


def _paragraphs(units: list[Unit]) -> list[list[Unit]]:
    """Units cut at their hard line breaks."""
    out: list[list[Unit]] = [[]]
    for unit in units:
        out[-1].append(unit)
        if unit.hard_break:
            out.append([])
    return [p for p in out if p] or [[]]


def _breaks(m: Measure, limit: float, style: Style, orphans: bool) -> tuple[list[int], bool]:
    """The end index of each line of one paragraph, and whether its last line is a runt left in."""
    cjk = style.line_break == "cjk"
    ends = fill(m, limit)
    if style.balance and len(ends) == 2:
        ends = balance(m, limit) or ends
    short = len(ends) > 1 and runt(m, ends[-2], cjk)
    orphans = orphans and style.orphans
    if (short and orphans) or (style.justified and loose(m, ends, limit)):
        better = even(m, limit, cjk, orphans)
        if better is not None:
            return better, len(better) > 1 and runt(m, better[-2], cjk)
    return ends, short


def wrap(units: tuple[Unit, ...], size: float, box_w: float, style: Style, orphans: bool = True) -> tuple[list[Line], int, int]:
    """Lines at `size` (widths in pt), the number of paragraphs ending in a runt line and the
    number of breaks that are not good ones; `orphans=False` keeps the plain fill even where
    re-breaking would avoid a runt."""
    limit = box_w / size  # compare at 1 pt
    lines: list[Line] = []
    runts = rough = 0
    for paragraph in _paragraphs(_expand(units, limit)):
        if not paragraph:
            lines.append(Line([], 0.0))
            continue
        m = Measure(paragraph, style.justified)
        ends, runt_left = _breaks(m, limit, style, orphans)
        runts += runt_left
        rough += sum(not paragraph[end - 1].good for end in ends[:-1])
        start = 0
        for k, end in enumerate(ends):
            line = _line(paragraph, start, end, m, size, limit, k == len(ends) - 1)
            if style.justified and not line.last:
                line.last = sentence_end(m, start, end, limit) or _too_loose(line, m, start, end, limit, style)
            lines.append(line)
            start = end
    return lines, runts, rough


def _too_loose(line: Line, m: Measure, start: int, end: int, limit: float, style: Style) -> bool:
    """Would a justified CJK line have to be letter-spaced (justify.too_loose)? Then it is set left."""
    from .justify import too_loose

    shortfall = limit - m.width(start, end)
    if style.line_break != "cjk" or shortfall <= 0:  # word spaces stretch as far as they must
        return False
    return too_loose([(font, ch) for font, run in line.runs for ch in run], shortfall)


def _line(units: list[Unit], start: int, end: int, m: Measure, size: float, limit: float, last: bool) -> Line:
    runs: list[tuple[str, str]] = []
    for k in range(start, end):
        unit = units[k]
        if k > start and units[k - 1].space:
            font = units[k - 1].runs[-1][0] if units[k - 1].runs else unit.runs[0][0]
            _append(runs, font, " " * max(1, round(units[k - 1].space / max(_width(" ", font), 1e-6))))
        for font, text in unit.runs:
            _append(runs, font, text)
    width = m.width(start, end)
    if m.justify:  # a line pushed in (justify.py) occupies the line's width, no more
        width = min(width, max(limit, width - m.squeeze(start, end)))
    return Line(runs, width * size, last, units[end - 1].last)


def _append(runs: list[tuple[str, str]], font: str, text: str) -> None:
    if runs and runs[-1][0] == font:
        runs[-1] = (font, runs[-1][1] + text)
    else:
        runs.append((font, text))


def _lay(units, style: Style, size: float, box_w: float, box_h: float, orphans: bool = True) -> Layout:
    lines, runts, rough = wrap(units, size, box_w, style, orphans)
    return Layout(lines, size, style.leading, box_w, box_h, style, runts, rough)


LAYOUTS = Memo(20000)  # every layout of this process, made once (typeset/memo.py)


def layout(text: str, style: Style, box_w: float, box_h: float, size: float | None = None, where: str = "text") -> Layout:
    """Lay `text` out at one size (default: the style's size)."""
    return _memo("layout", text, style, box_w, box_h, size,
                 lambda: _lay(_units(text, style, where), style, size or style.size, box_w, box_h))


def fit(text: str, style: Style, box_w: float, box_h: float, where: str = "text") -> Layout:
    """The largest size at which `text` fits its box (see `_fit`); made once for the same
    text, style and box."""
    return _memo("fit", text, style, box_w, box_h, None, lambda: _fit(text, style, box_w, box_h, where))


def _memo(kind: str, text: str, style: Style, box_w: float, box_h: float, size, make) -> Layout:
    def digest() -> str:
        import hashlib

        return hashlib.sha1(f"{kind}\0{text}\0{style.digest}\0{box_w!r}\0{box_h!r}\0{size!r}".encode()).hexdigest()

    return LAYOUTS.get((kind, text, style, box_w, box_h, size), make, digest, _plain, lambda p: _restored(p, style))


def _plain(lay: Layout) -> tuple:
    """A layout as plain data (kept between builds; its style is the one asked with)."""
    lines = tuple((tuple(line.runs), line.width, line.last, line.ends) for line in lay.lines)
    return (lines, lay.size, lay.leading, lay.box_w, lay.box_h, lay.orphans, lay.rough)


def _restored(plain: tuple, style: Style) -> Layout:
    lines, size, leading, box_w, box_h, orphans, rough = plain
    return Layout([Line(list(runs), width, last, ends) for runs, width, last, ends in lines], size, leading, box_w, box_h,
                  style, orphans, rough)


def _fit(text: str, style: Style, box_w: float, box_h: float, where: str = "text") -> Layout:
    """The largest size, in 0.25 pt steps from style.size down to style.min_size, at which text fits.

    At each size the text is re-broken to avoid a runt last line when that still fits the box
    (it may take a line more); where it does not, the size that fits keeps the runt only if no
    smaller size down to the minimum fits without one (then `.orphans` counts it). Returns the
    layout at the minimum size (with `.fits` False and `.overflow` > 0) when even that does not
    fit; the caller reports it.
    """
    units = _units(text, style, where)
    hi = style.size
    lo = style.min_size if style.min_size is not None else hi

    def at(size):
        return _at(units, style, size, box_w, box_h)

    best = at(hi)
    if not best.fits and lo < hi:
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
    if best.fits and best.orphans:  # a runt kept to fit: a little smaller may fit without it
        return _smaller(units, style, best.size, box_w, box_h, lo, lambda lay: not lay.orphans) or best
    if best.fits and style.balance and len(best.lines) == 2 and best.lines[0].ends not in COMMAS:
        floor = max(lo, best.size * COMMA_SHRINK)  # a name breaks after its comma if a little smaller lets it
        if any(has_comma(Measure(p, False)) for p in _paragraphs(list(units))):
            return _smaller(units, style, best.size, box_w, box_h, floor, lambda lay: len(lay.lines) == 2 and lay.lines[0].ends in COMMAS) or best
    return best


def _at(units, style: Style, size: float, box_w: float, box_h: float) -> Layout:
    """The layout at `size`: re-broken to avoid a runt last line (style.orphans), or, when only
    that does not fit, the plain fill if it does."""
    lay = _lay(units, style, size, box_w, box_h)
    if not lay.fits and style.orphans:
        plain_fill = _lay(units, style, size, box_w, box_h, orphans=False)
        if plain_fill.fits:
            return plain_fill
    return lay


def smaller(text: str, style: Style, box_w: float, box_h: float, below: float, floor: float, good, where: str = "text") -> Layout | None:
    """The largest layout of `text` smaller than size `below`, down to `floor` in 0.25 pt steps,
    that fits its box and is `good` (a test of a Layout); None if none is."""
    return _smaller(_units(text, style, where), style, below, box_w, box_h, floor, good)


def _smaller(units, style: Style, below: float, box_w: float, box_h: float, floor: float, good) -> Layout | None:
    size = below - 0.25
    while size >= floor - 1e-9:
        trial = _at(units, style, size, box_w, box_h)
        if trial.fits and good(trial):
            return trial
        size -= 0.25
    return None


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
    return _segment(text, style.regular, style.bold, style.line_break, style.bold_all, style.phrases)


def one_line(text: str, style: Style, max_width: float | None = None, where: str = "text") -> Layout:
    """`text` on one line (only its own newlines break it), at the style's size or smaller — in
    0.25 pt steps, not below `min_size` — so that it is at most `max_width` wide. At the
    minimum it may still be wider: check `.fits`."""
    units = _units(text, style, where)
    natural = max((line.width for line in wrap(units, 1.0, float("inf"), style)[0]), default=0.0)  # at 1 pt
    size = style.size
    if max_width is not None and natural * size > max_width:
        size = max(style.min_size or size, int(max_width / natural * 4) / 4)
    lines = wrap(units, size, float("inf"), style)[0]
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
    a layout that does not fit is clipped to the box (and should have been reported), its first
    line at the box's top whatever its alignment, so that what is cut off is its end. On a
    canvas that only measures (`canvas.measuring`: the rulebook's trial layout) nothing is drawn."""
    if getattr(canvas, "measuring", False):
        return
    style = lay.style
    top = y + lay.box_h
    if lay.height > lay.box_h:  # too tall for its box: its start shows, the end is cut (a centred text lost its first words)
        pass
    elif style.valign == "middle":
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
        segments = _segments(line, lay)
        if segments is None:
            for font, run in line.runs:
                t.setFont(font, lay.size)
                t.textOut(run)
        else:
            _draw_segments(t, segments, lx, baseline, lay.size)
        baseline -= lay.line_height
    canvas.drawText(t)
    canvas.restoreState()


def _segments(line: Line, lay: Layout):
    """A CJK line (punctuation closed up) or a justified one, as positioned segments; None for a
    line of words set as it is."""
    style = lay.style
    grid = style.line_break == "cjk"
    justify = style.justified and not line.last
    if not (grid or justify):
        return None
    from .justify import set_line

    chars = [(font, ch) for font, run in line.runs for ch in run]
    widths = [_width(ch, font) for font, ch in chars]
    target = lay.box_w if style.justified else None  # a last line may be reduced, never spread
    segments, _ = set_line(chars, widths, lay.size, target, grid, expand=justify)
    return segments


def _draw_segments(t, segments, lx: float, baseline: float, size: float) -> None:
    """Draw segments from the line's start (the text origin is at lx): contiguous ones simply
    follow each other, the others are placed; character spacing only where it is not 0."""
    pen, char_space = 0.0, 0.0
    for seg in segments:
        if abs(seg.x - pen) > 1e-6:
            t.setTextOrigin(lx + seg.x, baseline)
        if abs(seg.char_space - char_space) > 1e-9:
            t.setCharSpace(seg.char_space)
            char_space = seg.char_space
        t.setFont(seg.font, size)
        t.textOut(seg.text)
        pen = seg.x + _width(seg.text, seg.font) * size + len(seg.text) * seg.char_space
    if char_space:
        t.setCharSpace(0)
