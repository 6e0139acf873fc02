"""Plain-text tables that line up in a terminal, CJK double-width characters included."""
from __future__ import annotations

import re
import unicodedata


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def clip(text: str, limit: int) -> str:
    if width(text) <= limit:
        return text
    out, w = "", 0
    for ch in text:
        cw = width(ch)
        if w + cw > limit - 1:
            break
        out += ch
        w += cw
    return out + "…"


def pad(text: str, size: int) -> str:
    return text + " " * (size - width(text))


def render(headers: list[str], rows: list[list[str]], limits: dict[int, int] | None = None,
           wrapped: dict[int, int] | None = None) -> str:
    """A table: a header row, a rule, the rows. `limits` clip columns at a width; `wrapped`
    ({column: width}) wraps a column's text onto continuation lines instead."""
    return "\n".join(table_lines(headers, rows, limits, wrapped))


def table_lines(headers: list[str], rows: list[list[str]], limits: dict[int, int] | None = None,
                wrapped: dict[int, int] | None = None) -> list[str]:
    limits, wrapped = limits or {}, wrapped or {}
    cells = [[wrap(str(cell), wrapped[i]) if i in wrapped else [clip(str(cell), limits.get(i, 999))]
              for i, cell in enumerate(row)] for row in rows]
    sizes = [max([width(h)] + [width(part) for r in cells for part in r[i]]) for i, h in enumerate(headers)]
    line = lambda texts: "  ".join(pad(c, sizes[i]) for i, c in enumerate(texts)).rstrip()  # noqa: E731
    out = [line(headers), line(["─" * s for s in sizes])]
    for row in cells:
        depth = max(len(parts) for parts in row)
        out += [line([parts[k] if k < len(parts) else "" for parts in row]) for k in range(depth)]
    return out


_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"  # kana, hanzi, CJK punctuation, full-width forms
_NO_START = "ー、。，．）」』】〕・：；？！ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々"  # never first on a line (kinsoku)
_NO_END = "「『（【〔"  # never last on a line
# A kana or hanzi with the marks kept with it, a word, or spaces (Hangul is written in words).
_TOKENS = re.compile(rf"[{_NO_END}]*[{_CJK}][{_NO_START}]*|[^\s{_CJK}]+[{_NO_START}]*|\s+")


def wrap(text: str, limit: int) -> list[str]:
    """`text` in lines of at most `limit` columns: broken at spaces, and between any two kana or
    hanzi (which have no spaces); a word wider than a line is cut across lines."""
    limit = max(limit, 2)
    tokens = _TOKENS.findall(text)
    lines, line = [], ""
    for token in tokens:
        if token.isspace():
            line += " " if line else ""
            continue
        while width(token) > limit:  # a word longer than a line
            room = limit - width(line)
            head = clip_to(token, room if room > 0 else limit)
            if room <= 0 or not head:
                lines.append(line.rstrip())
                line = ""
                continue
            lines.append(line + head)
            line, token = "", token[len(head):]
        if width(line) + width(token) > limit and line.strip():
            lines.append(line.rstrip())
            line = ""
        line += token
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def clip_to(text: str, limit: int) -> str:
    """The longest start of `text` at most `limit` columns wide (no ellipsis)."""
    out, w = "", 0
    for ch in text:
        if w + width(ch) > limit:
            break
        out += ch
        w += width(ch)
    return out


CARD_LIMITS = {1: 34, 7: 24, 8: 24, 9: 70}  # columns clipped when the table is not shown on a terminal
EFFECT = 9
SHRINKABLE = {1: 12, 7: 8, 8: 8}  # name, type, bonus: their narrowest on a narrow terminal
MIN_EFFECT = 30  # narrower than this, the effect goes under its row, across the terminal
EFFECT_INDENT = 4


def card_table(rows: list[dict], project, lang: str, columns: int | None = None) -> str:
    """The card list as a table. `columns`: the width of the terminal it is shown on — the table
    fits it, effects wrapped (in their column, or under their row when the terminal is narrow);
    None (piped into a file or a program): every row on one line, effects clipped at 70."""
    loc = project.locale(lang)
    headers = [loc.get(f"label.{k}") for k in ("code", "card", "level-short", "atk", "def", "energy", "copies", "type", "bonus", "effect")]
    body = []
    for r in rows:
        name = r["name"] + (" ♚" if r["commander"] else "")
        num = lambda v: "" if v is None else str(v)  # noqa: E731
        body.append([r["code"], name, num(r["level"]), num(r["atk"]), num(r["def"]), num(r["energy"]),
                     str(r["copies"]), r["type"], r["bonus"] or "", r["effect"]])
    if columns is None:
        return render(headers, body, CARD_LIMITS)
    limits = {i: n for i, n in CARD_LIMITS.items() if i != EFFECT}
    sizes = _sizes(headers, body, limits)
    room = columns - sum(sizes[:EFFECT]) - 2 * EFFECT
    longest = max([width(r[EFFECT]) for r in body] + [width(headers[EFFECT])])
    if room >= min(MIN_EFFECT, longest):
        return render(headers, body, limits, {EFFECT: min(room, longest)})
    while sum(sizes[:EFFECT]) + 2 * (EFFECT - 1) > columns:  # a narrow terminal: the effect under its row
        widest = max(SHRINKABLE, key=lambda i: sizes[i] - SHRINKABLE[i])
        if sizes[widest] <= SHRINKABLE[widest]:
            break
        limits[widest] = sizes[widest] = sizes[widest] - 1
    lines = table_lines(headers[:EFFECT], [row[:EFFECT] for row in body], limits)
    out = lines[:2]
    for row, row_line in zip(body, lines[2:]):
        out.append(row_line)
        out += [" " * EFFECT_INDENT + part for part in wrap(row[EFFECT], columns - EFFECT_INDENT)]
    return "\n".join(out)


def _sizes(headers, rows, limits) -> list[int]:
    return [max([width(h)] + [width(clip(str(r[i]), limits.get(i, 999))) for r in rows]) for i, h in enumerate(headers)]
