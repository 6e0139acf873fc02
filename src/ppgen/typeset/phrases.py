"""Phrases a line never breaks inside, and where a solid compound should break.

UAX #14 (linebreak.py) says where a line *may* break; a typesetter also knows
where it *must not* — inside a key word (1ターンに1度, 每回合一次, 배치 시), an
amount ("Level < 5", "2 ATK", "DEF −1"), a mark and the word it belongs to
("Macedon ♚") — and where it *should* when a short label takes two lines
(スタンバイ|フェイズ). Both come from data (the glossary's `keywords`,
`unbreakable` and `breaks`, read/glossary.py); this module turns them into
spans of a text. The text engine joins the break pieces a span covers into
one unit: rules on top of the opportunities, never a change to UAX #14.

Pattern syntax: `{n}` is a number with an optional sign (5, +1, −1, 2.5);
`{word}` is a word — up to the next space in languages that break at spaces,
one character in Japanese and Chinese (a mark stays with the character before
it). A space in a pattern stands for any spaces, or none: ja/zh write both
"1 张" and "1张". Letters match whatever their case.

Also here, because the card's key-word rule and the translators' check both
need it: `leading_clauses`, the clauses a text opens a sentence with and ends
with a colon ("On Deploy:", "配備時：").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .frozen import hash_once

NUMBER = r"[+\-−±]?\d+(?:[.,]\d+)?"
SPACES = "[ \u00a0]*"
# A sentence starts at the start of the text, after a newline, or after a full stop.
_SENTENCE_START = re.compile(r"(?:^|\n|(?<=[.!?])\s+|(?<=[。！？]))")
_SENTENCE_END = re.compile(r"[.!?。！？\n]")


@dataclass(frozen=True)
class Phrases:
    """One language's unbreakable phrases (patterns) and compounds with their break ("a|b")."""

    keep: tuple[str, ...] = ()
    breaks: tuple[str, ...] = ()

    __hash__ = hash_once

    def spans(self, text: str, mode: str) -> list[tuple[int, int]]:
        """(start, end) of every unbreakable phrase in `text` (overlapping spans merged)."""
        if not self.keep:
            return []
        # every phrase starting at every place, overlapping ones too ("5–6" and "6 级" in "5–6 级"): the
        # pattern is a look-ahead, so one match does not hide another that starts inside it
        found = sorted((m.start(), m.end(1)) for m in _keep_regex(self.keep, mode).finditer(text) if m.end(1) > m.start())
        return merge_spans(found)

    def seams(self, text: str) -> set[int]:
        """Offsets in `text` where a compound of `breaks` prefers to break."""
        out: set[int] = set()
        for compound in self.breaks:
            parts = compound.split("|")
            solid = "".join(parts)
            start = text.find(solid)
            while start >= 0:
                at = start
                for part in parts[:-1]:
                    at += len(part)
                    out.add(at)
                start = text.find(solid, start + 1)
        return out


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted spans with overlapping ones joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _pattern(phrase: str, mode: str) -> str:
    word = r"[^\s]" if mode == "cjk" else r"[^\s]+"
    body = []
    for piece in re.split(r"(\{n\}|\{word\}| +)", phrase):
        if piece == "{n}":
            body.append(NUMBER)
        elif piece == "{word}":
            body.append(word)
        elif piece and not piece.strip():
            body.append(SPACES)
        elif piece:
            body.append(re.escape(piece))
    pattern = "".join(body)
    # a Latin letter or digit at a phrase's edge is not part of a longer word ("ATK" is not in "ATKS")
    if re.match(r"[A-Za-z0-9]|\{", phrase):
        pattern = r"(?<![A-Za-z0-9])" + pattern
    if re.search(r"[A-Za-z0-9]$|\}$", phrase):
        pattern += r"(?![A-Za-z0-9])"
    return pattern


@lru_cache(maxsize=64)
def _keep_regex(phrases: tuple[str, ...], mode: str) -> re.Pattern:
    longest_first = sorted(phrases, key=lambda p: (-len(p), p))
    return re.compile("(?=(" + "|".join(f"(?:{_pattern(p, mode)})" for p in longest_first) + "))", re.IGNORECASE)


def leading_clauses(text: str) -> list[tuple[int, int]]:
    """(start, end) of each clause that opens the text or a sentence and ends with ":" or "："
    (the colon included), with no sentence end before it: "On Deploy:", "1ターンに1度："."""
    out: list[tuple[int, int]] = []
    pos = 0
    for m in _SENTENCE_START.finditer(text):
        start = m.end()
        if start < pos or start >= len(text):
            continue
        colon = _clause_end(text, start)
        if colon is not None and text[start : colon + 1].strip():
            out.append((start, colon + 1))
            pos = colon + 1
    return out


def _clause_end(text: str, start: int) -> int | None:
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "：" or (ch == ":" and (i + 1 == len(text) or text[i + 1] in " \n")):
            return i
        if _SENTENCE_END.match(ch):
            return None
    return None
