"""Card faces: what the imposition stage places on sheets.

The interface the sheets code uses::

    geometry = CardGeometry.named("poker", bleed_mm=3)     # all sizes in points
    face = front_face(project, card, "ja", geometry, report)   # laid out now (LazyFront: when drawn)
    back = back_face(project, geometry, "light")              # one for every language; a variant of templates/card.yaml `backs:`
    face.key      # "front-ja-hastati-line" / "back-light": unique per distinct drawing
    face.draw(canvas)   # paints (0, 0)–(geometry.width, geometry.height), the bleed box

`report` is anything with `warning(code, message, lang=None, key=None)`;
fronts report `overflow` (and `shrunk` at the minimum size) while
they are laid out, before anything is drawn.

Each face is drawn once as a PDF form named `form_name(face.key)`; a face may place
another's form by that name (a card front places its faction's backdrop and its picture,
its `layers`; a layer with a `size` is a form of that size, not the card's). One-card
PDFs for looking at the work are write/faces.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from ..errors import UsageError
from ..units import MM, parse_card_size


def card_size_mm(size: str) -> tuple[float, float]:
    """poker | bridge | mini | tarot | WxH (mm, e.g. 63x88) → (width, height) in mm."""
    try:
        card = parse_card_size(size)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return (card.width, card.height)


@dataclass(frozen=True)
class CardGeometry:
    """A card's size in points: the trimmed card and the bleed around it."""

    trim_w: float
    trim_h: float
    bleed: float = 0.0

    @property
    def width(self) -> float:  # the drawing spans the bleed box
        return self.trim_w + 2 * self.bleed

    @property
    def height(self) -> float:
        return self.trim_h + 2 * self.bleed

    @classmethod
    def from_mm(cls, width: float, height: float, bleed: float = 0.0) -> "CardGeometry":
        return cls(width * MM, height * MM, bleed * MM)

    @classmethod
    def named(cls, size: str = "poker", bleed_mm: float = 0.0) -> "CardGeometry":
        w, h = card_size_mm(size)
        return cls.from_mm(w, h, bleed_mm)


class Face(Protocol):
    key: str

    def draw(self, canvas) -> None: ...


def front_face(project, card, lang: str, geometry: CardGeometry, report=None, art=None):
    """The front of `card` in `lang`, laid out (overflow reported to `report`); `art` is its
    picture (draw.art.CardArt, prepared by write/art.py), or None for the faction's art window."""
    from .card_front import FrontFace

    return FrontFace(project, card, lang, geometry, report, art)


class LazyFront:
    """A front laid out when its form is drawn, and let go once drawn: the card sheets of a
    print run of thousands of cards keep one key per card, not its layout. Overflow is then
    reported as the sheets are drawn (in the same order: the run's order)."""

    def __init__(self, project, card, lang: str, geometry: CardGeometry, report=None, art=None):
        from .card_front import front_key

        self.key = front_key(card, lang)
        self._args = (project, card, lang, geometry, report, art)
        self._face = None

    @property
    def layers(self) -> tuple:
        return self._laid_out().layers

    def draw(self, canvas) -> None:
        self._laid_out().draw(canvas)
        self._face = None

    def _laid_out(self):
        if self._face is None:
            self._face = front_face(*self._args)
        return self._face


def back_face(project, geometry: CardGeometry, variant: str | None = None):
    """The back every card shares, identical in every language: the template's back `variant`
    (None: its first, the default)."""
    from .card_back import BackFace

    return BackFace(project, geometry, variant)


# ── forms ──────────────────────────────────────────────────────────────────
_NAME_RE = re.compile(r"[^A-Za-z0-9_.-]")


def form_name(key: str) -> str:
    """The XObject name of a face key: the key itself when it is PDF-safe, else a readable
    prefix and a hash (so a face can place another face's form by its key)."""
    safe = _NAME_RE.sub("_", key)[:60]
    if safe == key:
        return key
    import hashlib

    return f"f{hashlib.sha1(key.encode('utf-8')).hexdigest()[:10]}_{safe[:40]}"
