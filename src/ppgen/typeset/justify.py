"""Japanese and Chinese line adjustment: punctuation compression and justification.

What JIS X 4051 and the W3C's "Requirements for Japanese Text Layout" (JLREQ;
"Requirements for Chinese Text Layout", CLREQ, agrees on these points) ask of
body text, done on the glyphs the text engine has already chosen:

- **Consecutive punctuation** is set tighter: a full-width bracket, comma or
  full stop carries half an em of blank beside its ink, and two of them in a
  row keep at most half an em between their inks (。」 and ）、 close up
  completely, 」「 and 、（ keep half an em). Always, in every CJK line.
- **Reduction** (JLREQ 3.8.2, pushing in): a justified line — its last one
  too — may hold a character more than its natural width allows. First the
  empty half after its last mark goes (a line-end 、。」 set half-width, as
  JLREQ's example of books does: its ink stays inside the measure), then the
  blanks of its commas, brackets and middle dots inside the line, evenly (a
  full stop inside a line keeps its blank; the line's first mark keeps its
  blank before).
- **Expansion**: the rest of a justified line's shortfall is spread evenly
  over the gaps next to a CJK character; letters and spaces of a Latin run
  ("ATK", "d20", "ATK < 5") keep their own spacing. A line with no CJK gap
  (Korean, English) spreads it over its word spaces instead.
- The last line of a paragraph is never justified: it is set left.
- **Too loose to spread**: a line before its paragraph's last that would have
  to widen its gaps by more than MAX_SPREAD of an em each (a kept phrase —
  "レベル5未満", "等级 < 5", "1 ATK" — too wide for the line's end moved whole
  to the next line, and no other breaking shares the shortfall) is set left
  at its natural spacing, as a DTP composer's maximum letter spacing for kana
  and han would have it, rather than letter-spaced like a headline; breaking.even
  chooses such a line's end at a phrase's end, and one line set left over two spread.

Where the blank of a punctuation mark is depends on the font (a Japanese
font centres ：；, a Simplified Chinese one sets them left, like 、。), so it
is measured from the glyph's outline (fonts.ink_extent), never assumed.
Everything is in ems at 1 pt: the text engine scales by the type size.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# JLREQ cl-01 opening brackets, cl-02 closing brackets, cl-05 middle dots, cl-06 full
# stops, cl-07 commas: the punctuation whose blank may be compressed. (！？ are not.)
COMPRESSIBLE = frozenset("「」『』（）［］｛｝〔〕〈〉《》【】〘〙〖〗〝〟“”‘’、。，．・：；")
# Full stops close up with a bracket after them (。」) but keep their blank when a line is
# reduced: the gap after a sentence is not given away (JLREQ 3.8.2 reduces commas, brackets
# and middle dots).
FULL_STOPS = frozenset("。．")
EPS = 1e-9
MAX_SPREAD = 0.15  # ems a justified line may add to each of its gaps; a line that needs more is set left


@lru_cache(maxsize=None)
def blanks(font: str, ch: str) -> tuple[float, float]:
    """The compressible blank (ems) at the left and right of `ch` in `font`: (0, 0.5) for a mark
    set in the left half of a full-width cell (、。」 and, in Chinese fonts, ：；), (0.5, 0) for one
    set in the right half (「（), (0.25, 0.25) for a centred one (・, and ：； in Japanese fonts)."""
    if ch not in COMPRESSIBLE:
        return (0.0, 0.0)
    from .fonts import ink_extent
    from .text import _width

    if _width(ch, font) < 0.95:  # a proportional mark (from a Latin font): nothing to take
        return (0.0, 0.0)
    ink = ink_extent(font, ch)
    if ink is None:
        return (0.0, 0.0)
    left, right = ink
    if right <= 0.55:
        return (0.0, 0.5)
    if left >= 0.45:
        return (0.5, 0.0)
    if left >= 0.2 and right <= 0.8:
        return (0.25, 0.25)
    return (0.0, 0.0)


def pair(a: tuple[str, str], b: tuple[str, str]) -> float:
    """How much (ems) two adjacent marks close up: at most half an em stays between their inks
    when a closing mark meets an opening one (」「), none otherwise (。」, ）、, 「（)."""
    a_right, b_left = blanks(*a)[1], blanks(*b)[0]
    if a_right >= 0.5 and b_left >= 0.5:
        return 0.5
    if a_right >= 0.5 and b[1] in COMPRESSIBLE:
        return a_right
    if b_left >= 0.5 and a[1] in COMPRESSIBLE:
        return b_left
    return 0.0


@dataclass
class Spacing:
    """Punctuation of a run of characters after consecutive marks closed up (ems at 1 pt)."""

    gaps: list[float]  # change of the gap after each character (≤ 0), the last one 0
    left: list[float]  # blank each character still has at its left ...
    right: list[float]  # ... and at its right (what reduction may take)

    @property
    def closed(self) -> float:
        return -sum(self.gaps)

    def squeeze(self, first: int = 0, last: int | None = None) -> float:
        """What reduction may still take, not counting the blank at the two ends."""
        last = len(self.left) - 1 if last is None else last
        if last < first:
            return 0.0
        total = sum(self.left[first + 1 : last + 1]) + sum(self.right[first:last])
        return total


def spacing(chars: list[tuple[str, str]]) -> Spacing:
    """Close up consecutive punctuation in a run of (font, character)."""
    n = len(chars)
    left = [blanks(*c)[0] for c in chars]
    right = [blanks(*c)[1] for c in chars]
    gaps = [0.0] * n
    for i in range(n - 1):
        take = pair(chars[i], chars[i + 1])
        if take <= 0:
            continue
        gaps[i] = -take
        from_a = min(take, right[i])
        right[i] -= from_a
        left[i + 1] = max(0.0, left[i + 1] - (take - from_a))
    for i, (_, ch) in enumerate(chars):
        if ch in FULL_STOPS:
            right[i] = 0.0
    return Spacing(gaps, left, right)


def line_end_blank(chars: list[tuple[str, str]]) -> float:
    """The blank a line ending with these characters may give up when it is pushed in: that at the
    right of its last one, a comma, full stop or closing bracket (JLREQ's example of books: 1/2 → 0
    at the line's end). Its ink stays inside the measure; only its empty half runs past it."""
    return blanks(*chars[-1])[1] if chars else 0.0


def is_cjk(ch: str) -> bool:
    """A character set on the CJK grid: ideographs, kana, hangul, full-width forms."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


@dataclass(frozen=True)
class Segment:
    """Characters drawn from one point with one character spacing (points)."""

    font: str
    text: str
    x: float  # from the line's start, points
    char_space: float  # points after every character


def set_line(chars: list[tuple[str, str]], widths: list[float], size: float, target: float | None,
             grid: bool, expand: bool = True) -> tuple[list[Segment], float]:
    """Place one line's characters: (segments, the width they occupy in points).

    `widths` are the characters' advances at 1 pt; `target` the width (points) to justify the
    line to, or None to set it at its natural width; `expand=False` only reduces a line wider
    than `target` (a paragraph's last line); `grid`: a CJK line (punctuation closes up,
    expansion goes between CJK characters), else a line of words.
    """
    n = len(chars)
    sp = spacing(chars) if grid else Spacing([0.0] * n, [0.0] * n, [0.0] * n)
    gaps = list(sp.gaps)
    if target is not None and n > 1:
        slack = target / size - (sum(widths) + sum(gaps))
        if slack < -EPS:  # reduction: first the blank after the line's last mark, then its inner punctuation's, evenly
            slack += min(-slack, line_end_blank(chars)) if grid else 0.0
        if slack < -EPS:
            squeeze = sp.squeeze()
            ratio = min(1.0, -slack / squeeze) if squeeze > EPS else 0.0
            for i in range(n - 1):
                gaps[i] -= ratio * (sp.right[i] + sp.left[i + 1])
        elif slack > EPS and expand:  # expansion
            widen = expandable(chars, grid)
            for i in widen:
                gaps[i] += slack / len(widen)
    return _segments(chars, widths, gaps, size), (sum(widths) + sum(gaps)) * size


def expandable(chars: list[tuple[str, str]], grid: bool) -> list[int]:
    """The gaps (by the index of the character before) that justification may widen: next to a
    CJK character on a CJK line (never inside a Latin run, never before a combining mark), else
    the word spaces."""
    n = len(chars)
    if grid:
        found = [i for i in range(n - 1)
                 if unicodedata.category(chars[i + 1][1])[0] != "M" and (is_cjk(chars[i][1]) or is_cjk(chars[i + 1][1]))]
        if found:
            return found
    return [i for i in range(n - 1) if chars[i][1] == " " and chars[i + 1][1] != " "]


def too_loose(chars: list[tuple[str, str]], shortfall: float) -> bool:
    """Would justifying a CJK line of `chars`, `shortfall` ems (at 1 pt) short of its measure, widen
    its gaps by more than MAX_SPREAD each? (A line with no gap to widen is never spread.)"""
    if shortfall <= MAX_SPREAD + EPS:
        return False
    gaps = len(expandable(chars, True))
    return gaps == 0 or shortfall / gaps > MAX_SPREAD + EPS


def _segments(chars, widths, gaps, size) -> list[Segment]:
    """Group characters that share a font and the gap between them into segments."""
    out: list[Segment] = []
    x = start_x = 0.0
    start = 0
    for i in range(1, len(chars) + 1):
        x += (widths[i - 1] + gaps[i - 1]) * size
        if i < len(chars) and chars[i][0] == chars[start][0] and abs(gaps[i - 1] - gaps[start]) <= EPS:
            continue
        out.append(Segment(chars[start][0], "".join(c for _, c in chars[start:i]), start_x, gaps[start] * size))
        start, start_x = i, x
    return out
