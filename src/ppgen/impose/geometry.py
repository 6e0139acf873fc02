"""Geometry primitives of imposition, in PDF points (origin bottom-left of the page)."""
from __future__ import annotations

from dataclasses import dataclass


# ── geometry primitives (points) ─────────────────────────────────────────────
@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def mirrored_x(self, axis: float) -> "Rect":
        """Reflected across the vertical line x = axis."""
        return Rect(2 * axis - self.x1, self.y, self.w, self.h)

    def mirrored_y(self, axis: float) -> "Rect":
        """Reflected across the horizontal line y = axis."""
        return Rect(self.x, 2 * axis - self.y1, self.w, self.h)

    def inset(self, d: float) -> "Rect":
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def overlaps(self, other: "Rect") -> bool:
        return self.x < other.x1 and other.x < self.x1 and self.y < other.y1 and other.y < self.y1

    def union(self, other: "Rect") -> "Rect":
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.x1, other.x1) - x, max(self.y1, other.y1) - y)

    def box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): a PDF box array."""
        return (self.x, self.y, self.x1, self.y1)


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class NoteSlot:
    """Free margin space for the print note (never over a card, a mark or a fold)."""

    box: Rect
    vertical: bool  # text runs bottom to top along a side margin


def union_of(rects: list[Rect]) -> Rect:
    out = rects[0]
    for r in rects[1:]:
        out = out.union(r)
    return out
