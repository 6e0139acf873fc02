"""Plain-text tables that line up in a terminal, CJK double-width characters included."""
from __future__ import annotations

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


def render(headers: list[str], rows: list[list[str]], limits: dict[int, int] | None = None) -> str:
    limits = limits or {}
    rows = [[clip(str(cell), limits.get(i, 999)) for i, cell in enumerate(row)] for row in rows]
    sizes = [max([width(h)] + [width(r[i]) for r in rows]) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(pad(c, sizes[i]) for i, c in enumerate(cells)).rstrip()  # noqa: E731
    return "\n".join([line(headers), line(["─" * s for s in sizes])] + [line(r) for r in rows])


def card_table(rows: list[dict], project, lang: str) -> str:
    loc = project.locale(lang)
    headers = ["Code", loc.get("label.card"), loc.get("label.level-short"), "ATK", "DEF", loc.get("label.energy"),
               "×", loc.get("label.type"), loc.get("label.bonus"), loc.get("label.effect")]
    body = []
    for r in rows:
        name = r["name"] + (" ♚" if r["commander"] else "")
        num = lambda v: "" if v is None else str(v)  # noqa: E731
        body.append([r["code"], name, num(r["level"]), num(r["atk"]), num(r["def"]), num(r["energy"]),
                     str(r["copies"]), r["type"], r["bonus"] or "", r["effect"]])
    return render(headers, body, {1: 34, 7: 24, 8: 24, 9: 70})
