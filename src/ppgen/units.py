"""Units and sizes every stage may use: millimetres and points, papers, card sizes,
and the build's lengths as people type them (`--bleed 3`, `63x88`, `1.5,-0.5`).

Lengths people give are millimetres; PDF coordinates are points (1/72 in).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

MM = 72 / 25.4  # points per millimetre

MAX_BLEED = 10.0  # mm
MAX_GUTTER = 50.0
MAX_BACK_OFFSET = 10.0
PRINTABLE_MARGIN = 5.0  # mm along every paper edge that a home printer may not print (most leave 4–6 mm)
MAX_PRINTABLE_MARGIN = 15.0
MAX_CORNER = 10.0  # mm: the largest rounded corner of a cut outline

LAYOUTS = ("duplex", "foldover", "fronts-only", "print-and-cut")  # how card sheets are imposed (impose/layout.py)
DUPLEX_EDGES = ("long", "short")
RULEBOOK_FORMS = ("pages", "booklet")  # pages: the paper's size, in reading order; booklet: A5 / half-Letter, saddle-stitched
CUT_FORMATS = ("svg", "dxf")  # print-and-cut: cut files written beside each PDF (SVG always)


# ── paper and cards ──────────────────────────────────────────────────────────
@dataclass(frozen=True)
class Paper:
    key: str  # a4 | letter
    name: str  # as printed in messages: A4, Letter
    width: float  # mm
    height: float  # mm

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    def turned(self) -> "Paper":
        """The same sheet in the other orientation."""
        return replace(self, width=self.height, height=self.width)

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) in points."""
        return (self.width * MM, self.height * MM)


PAPERS = {
    "a4": Paper("a4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "Letter", 215.9, 279.4),
}


@dataclass(frozen=True)
class CardSize:
    name: str  # poker | bridge | mini | tarot | "" for a size given in mm
    width: float  # mm, trimmed
    height: float  # mm, trimmed

    def __str__(self) -> str:
        dims = f"{fmt_mm(self.width)} × {fmt_mm(self.height)} mm"
        return f"{self.name} ({dims})" if self.name else dims


CARD_SIZES = {
    "poker": CardSize("poker", 63.0, 88.0),
    "bridge": CardSize("bridge", 57.0, 89.0),
    "mini": CardSize("mini", 44.0, 63.0),
    "tarot": CardSize("tarot", 70.0, 120.0),
}

TRADE_SIZES_IN = {  # card sizes as print services give them, in inches (poker 2.5 × 3.5 in is 63.5 × 88.9 mm)
    "poker": (2.5, 3.5),
    "bridge": (2.25, 3.5),
    "mini": (1.75, 2.5),
    "tarot": (2.75, 4.75),
}


def fmt_mm(value: float) -> str:
    """12, 12.5, 215.9: a length in mm without useless decimals."""
    return f"{value:.1f}".rstrip("0").rstrip(".") if abs(value - round(value)) > 1e-9 else str(int(round(value)))


def px(points: float, dpi: float) -> int:
    """A length in points as whole pixels at `dpi`, rounded half up (2.75 in × 300 = 825)."""
    from decimal import ROUND_HALF_UP, Decimal

    value = Decimal(repr(points)) / Decimal(72) * Decimal(repr(dpi))
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def parse_paper(text: str) -> Paper:
    key = str(text).strip().lower()
    if key not in PAPERS:
        raise ValueError(f"unknown paper '{text}' (choose {' or '.join(PAPERS)})")
    return PAPERS[key]


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×X*]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$")


def parse_card_size(text: str) -> CardSize:
    """poker | bridge | mini | tarot, or width × height in mm: `63x88`, `63.5×88.9`."""
    key = str(text).strip().lower()
    if key in CARD_SIZES:
        return CARD_SIZES[key]
    m = _SIZE_RE.match(key)
    if not m:
        raise ValueError(f"unknown card size '{text}' (choose {', '.join(CARD_SIZES)}, or width x height in mm such as 63x88)")
    w, h = float(m.group(1)), float(m.group(2))
    for value in (w, h):
        if not 10 <= value <= 400:
            raise ValueError(f"card size '{text}': each side must be between 10 and 400 mm")
    for size in CARD_SIZES.values():
        if (size.width, size.height) == (w, h):
            return size
    return CardSize("", w, h)


def check_length(value, what: str, lo: float, hi: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number of millimetres, not '{value}'") from None
    if not math.isfinite(number) or not lo <= number <= hi:
        raise ValueError(f"{what} must be between {fmt_mm(lo)} and {fmt_mm(hi)} mm, not {value}")
    return number


def parse_offset(value) -> tuple[float, float]:
    """`X,Y` in mm (text such as "1.5,-0.5", or a list of two numbers)."""
    parts = value if isinstance(value, (list, tuple)) else str(value).replace(" ", "").split(",")
    if len(parts) != 2:
        raise ValueError(f"back offset must be two numbers X,Y in mm (e.g. 1.5,-0.5), not '{value}'")
    x, y = (check_length(p, "each back offset", -MAX_BACK_OFFSET, MAX_BACK_OFFSET) for p in parts)
    return (x + 0.0, y + 0.0)


def parse_cut_formats(value) -> tuple[str, ...]:
    """`dxf`, `svg,dxf` or a list → the cut-file formats, SVG always first."""
    names = value if isinstance(value, (list, tuple)) else str(value).replace(" ", "").split(",")
    for name in names:
        if name not in CUT_FORMATS:
            raise ValueError(f"unknown cut-file format '{name}' (choose {' or '.join(CUT_FORMATS)})")
    return tuple(f for f in CUT_FORMATS if f == "svg" or f in names)
