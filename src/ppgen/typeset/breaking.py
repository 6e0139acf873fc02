"""Choosing line breaks among the opportunities the segmenter leaves.

The text engine cuts a paragraph into units (text.py: UAX #14 + kinsoku,
with unbreakable phrases joined); a line may break between any two of them.
This module picks which breaks to take, on widths alone:

- **fill** (greedy): each line takes as many units as fit. It gives the
  fewest lines, and full lines for justified CJK text.
- **no orphans**: when the last line of a paragraph of two lines or more is a
  runt — in ja/zh fewer than 3 characters (punctuation counts), in en/ko a
  single word — the paragraph is re-broken (`even`) with the fewest lines
  that end it properly (usually the line before gives up a character or a
  word); when no break avoids the runt, the fill is kept and the paragraph is
  counted in `Layout.orphans`, for the caller to report.
- **even** lines for justified text: a filled line that would have to spread
  a lot (a key word that does not fit its end moves whole to the next line)
  makes the paragraph re-broken so that the shortfall is shared by several
  lines, as little on each as the breaks allow.
- **balance** (names, labels): a text that needs two lines breaks after its
  comma if it has one (text.fit sets it up to COMMA_SHRINK smaller for that),
  else where the two are closest in width, preferring a *good* break (a
  space; in ja/zh after punctuation, at a change between katakana and kanji,
  or at a compound's seam from the glossary), and never leaving one short
  word alone on a line.

Widths are at 1 pt; `limit` is the line width at 1 pt.
"""
from __future__ import annotations

from dataclasses import dataclass

from .justify import MAX_SPREAD

EPS = 1e-9
MIN_LAST_CHARS = 3  # ja/zh: the last line of a paragraph holds at least this many characters
MIN_LAST_WORDS = 2  # en/ko: ... at least a word and something more
SHORT_WORD = 5  # balance: a word of fewer characters never stands alone on a line
LOOSE = 1.5  # ems a justified line may have to spread before its paragraph is re-broken evenly
COMMAS = frozenset(",、，;；")
COMMA_SHRINK = 0.85  # a name that can break after its comma is set down to this much smaller to do so
SENTENCE_ENDS = frozenset("。！？.!?")
RAGGED_SHORT = 0.1  # even: what a line set left costs for its shortfall, against a spread line's


@dataclass
class Measure:
    """Prefix sums over one paragraph's units, so any line's width costs O(1)."""

    units: list
    justify: bool

    def __post_init__(self):
        self.w, self.s, self.k, self.z, self.c, self.n = [0.0], [0.0], [0.0], [0.0], [0], [0]
        for u in self.units:
            self.w.append(self.w[-1] + u.width)
            self.s.append(self.s[-1] + u.space)
            self.k.append(self.k[-1] + u.kern)
            self.z.append(self.z[-1] + u.squeeze)
            self.c.append(self.c[-1] + u.chars)
            self.n.append(self.n[-1] + u.words)

    def width(self, i: int, j: int) -> float:
        """Natural width of units i..j-1 set on one line."""
        return self.w[j] - self.w[i] + self.s[j - 1] - self.s[i] + self.k[j] - self.k[i + 1]

    def squeeze(self, i: int, j: int) -> float:
        """What punctuation compression may take out of that line (justified text only)."""
        if not self.justify:
            return 0.0
        last = self.units[j - 1]
        inner = self.z[j] - self.z[i] - self.units[i].head - last.tail + last.end + (self.k[j] - self.k[i + 1])
        return max(0.0, inner)

    def fits(self, i: int, j: int, limit: float) -> bool:
        return j - i == 1 or self.width(i, j) - self.squeeze(i, j) <= limit + EPS

    def chars(self, i: int, j: int) -> int:
        return self.c[j] - self.c[i]

    def words(self, i: int, j: int) -> int:
        return self.n[j] - self.n[i]


def fill(m: Measure, limit: float) -> list[int]:
    """Greedy breaks: the end index of each line."""
    ends, i, count = [], 0, len(m.units)
    while i < count:
        j = i + 1
        while j < count and m.fits(i, j + 1, limit):
            j += 1
        ends.append(j)
        i = j
    return ends


def runt(m: Measure, start: int, cjk: bool) -> bool:
    """Is the line from `start` to the paragraph's end too short to end a paragraph? (Never in a
    paragraph too short to have a proper last line and something before it: "Missile / Infantry"
    in a narrow column is two words, each on its line, as it must be.)"""
    end = len(m.units)
    if cjk:
        return m.chars(start, end) < MIN_LAST_CHARS < m.chars(0, end)
    return m.words(start, end) < MIN_LAST_WORDS < m.words(0, end)


def deviation(m: Measure, i: int, j: int, limit: float) -> float:
    """How far a line of units i..j-1 is from the measure: its shortfall, or what compression takes."""
    return abs(limit - m.width(i, j)) if m.width(i, j) > limit else limit - m.width(i, j)


def loose(m: Measure, ends: list[int], limit: float) -> bool:
    """Does a justified paragraph have a line before its last that would be spread visibly
    (more than LOOSE ems to distribute, as when a key word does not fit the line's end)?"""
    starts = [0] + ends[:-1]
    return any(deviation(m, i, j, limit) > LOOSE for i, j in zip(starts[:-1], ends[:-1]))


def sentence_end(m: Measure, i: int, j: int, limit: float) -> bool:
    """A line that ends a sentence and would still be spread loose (the next sentence opens with
    a key word too long for the line's end): set flush left like a paragraph's last line, not
    spread — the eye reads the gap as the sentence's end."""
    return m.units[j - 1].last in SENTENCE_ENDS and deviation(m, i, j, limit) > LOOSE and m.width(i, j) < limit


def even(m: Measure, limit: float, cjk: bool, orphans: bool) -> list[int] | None:
    """The fewest lines — ending in a proper last line when `orphans` — and among those the
    breaks whose lines before the last come closest to the measure (least sum of squared
    deviations: a shortfall spread over several lines rather than one loose line). None when
    no breaking ends properly (the whole paragraph is a runt, or its last unit alone is).

    A justified CJK line too short to be spread without letter-spacing it is set left (text.py,
    justify.MAX_SPREAD; its gaps counted here as one after each character): it costs what a full
    line spread as far as it may be costs, a tenth of its shortfall's square more (the fuller
    one is taken), and as much again when it ends inside a phrase (Unit.phrase_end) — a hole shared
    with a line that would then be spread leaves two lines worse than one set left at a phrase's end."""
    count = len(m.units)
    W, S, K, Z, C = m.w, m.s, m.k, m.z, m.c  # prefix sums, read directly: this loop runs for every pair of breaks
    heads = [u.head for u in m.units]
    tails = [u.tail - u.end for u in m.units]  # what a line's last unit keeps (the blank after its last mark it gives up)
    ends_phrase = [u.phrase_end for u in m.units]
    justify = m.justify
    capped = justify and cjk
    ragged = (MAX_SPREAD * limit) ** 2  # a line set left costs what a full line at the widest spread does
    none = 10**9  # no breaking of units i.. ends properly
    lines = [none] * (count + 1)  # the best breaking of units i..: its lines, ...
    squares = [0.0] * (count + 1)  # ... its squared deviations (compared as the pair, lines first)
    lines[count] = 0
    take = [0] * (count + 1)
    last_ok = [i == 0 or not orphans or not runt(m, i, cjk) for i in range(count)]
    for i in range(count - 1, -1, -1):
        Wi, Si, Ki, Zi, head = W[i], S[i], K[i + 1], Z[i], heads[i]
        for j in range(i + 1, count + 1):
            kerns = K[j] - Ki
            width = W[j] - Wi + S[j - 1] - Si + kerns
            squeeze = max(0.0, Z[j] - Zi - head - tails[j - 1] + kerns) if justify else 0.0
            if j - i > 1 and width - squeeze > limit + EPS:
                break
            if j == count:
                if not last_ok[i]:
                    continue
                n, dev = 1, 0.0
            elif lines[j] < none:
                cost = (width - limit) ** 2
                if capped and limit - width > MAX_SPREAD * max(1, C[j] - C[i] - 1):  # set left
                    cost = ragged * (1 if ends_phrase[j - 1] else 2) + RAGGED_SHORT * cost
                n, dev = lines[j] + 1, squares[j] + cost
            else:
                continue
            if n < lines[i] or (n == lines[i] and dev < squares[i]):
                lines[i], squares[i], take[i] = n, dev, j
    if lines[0] >= none:
        return None
    ends, i = [], 0
    while i < count:
        i = take[i]
        ends.append(i)
    return ends


def has_comma(m: Measure) -> bool:
    """Could the text break after a comma (a unit before the last ends with one)?"""
    return any(u.last in COMMAS for u in m.units[:-1])


def balance(m: Measure, limit: float) -> list[int] | None:
    """Two lines as close in width as the breaks allow (see the module's notes), or None."""
    count = len(m.units)
    total = m.width(0, count)
    candidates = [j for j in range(1, count) if m.fits(0, j, limit) and m.fits(j, count, limit)]
    if not candidates:
        return None
    commas = [j for j in candidates if m.units[j - 1].last in COMMAS]
    good = [j for j in candidates if m.units[j - 1].good]
    pool = commas or good or candidates  # after a comma reads best ("Hannibal Barca, / Master of …"), even unbalanced

    def cost(j):
        c = max(m.width(0, j), m.width(j, count))
        for lo, hi in ((0, j), (j, count)):
            if hi - lo == 1 and m.words(lo, hi) <= 1 and m.chars(lo, hi) < SHORT_WORD:
                c += total  # a short word alone on a line
        return (c, j)

    return [min(pool, key=cost), count]
