"""Card faces: what the imposition stage places on sheets.

The interface the sheets code uses::

    geometry = CardGeometry.named("poker", bleed_mm=3)     # all sizes in points
    face = front_face(project, card, "ja", geometry, report)   # laid out now (LazyFront: when drawn)
    back = back_face(project, geometry)                       # one for every language
    face.key      # "front-ja-hastati-line" / "back": unique per distinct drawing
    face.draw(canvas)   # paints (0, 0)–(geometry.width, geometry.height), the bleed box

`report` is anything with `warning(code, message, lang=None, key=None)`;
fronts report `overflow` (and `shrunk` at the minimum size) while
they are laid out, before anything is drawn.

For looking at the work: `render_card_pdf(project, card, lang, path)` writes
a one-card PDF; `render_faces_pdf` writes one page per face.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Sequence

from ..errors import UsageError
from ..templates import MM

def card_size_mm(size: str) -> tuple[float, float]:
    """poker | bridge | mini | tarot | WxH (mm, e.g. 63x88) → (width, height) in mm (impose's sizes)."""
    from ..impose import parse_card_size

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


def front_face(project, card, lang: str, geometry: CardGeometry, report=None):
    """The front of `card` in `lang`, laid out (overflow reported to `report`)."""
    from .card_front import FrontFace

    return FrontFace(project, card, lang, geometry, report)


class LazyFront:
    """A front laid out when its form is drawn, and let go once drawn: the card sheets of a
    print run of thousands of cards keep one key per card, not its layout. Overflow is then
    reported as the sheets are drawn (in the same order: the run's order)."""

    def __init__(self, project, card, lang: str, geometry: CardGeometry, report=None):
        from .card_front import front_key

        self.key = front_key(card, lang)
        self._args = (project, card, lang, geometry, report)
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


def back_face(project, geometry: CardGeometry):
    """The back every card shares, identical in every language."""
    from .card_back import BackFace

    return BackFace(project, geometry)


# ── one-card PDFs, for looking at the work ─────────────────────────────────
def faces_pdf(project, faces: Sequence, geometry: CardGeometry, lang: str | None = None) -> bytes:
    """One page per face, the size of its bleed box; each distinct face drawn once as a form.
    The exports rasterise these pages: one drawing path for PDFs and pictures."""
    from ..parts import new_document

    lang = lang or project.config.source_language
    doc = new_document(project, lang, f"{project.config.game} — card faces ({lang})")
    b = geometry.bleed
    for face in faces:
        doc.define_face(face, geometry.width, geometry.height)
        doc.begin_page(geometry.width, geometry.height, trim_box=(b, b, b + geometry.trim_w, b + geometry.trim_h),
                       bleed_box=(0, 0, geometry.width, geometry.height))
        doc.place_form(face.key, (1, 0, 0, 1, 0, 0))
        doc.end_page()
    return doc.data()


def render_faces_pdf(project, faces: list, geometry: CardGeometry, path: Path, lang: str | None = None) -> Path:
    """Write `faces_pdf` to `path`, atomically."""
    from ..files import write_atomic

    write_atomic(Path(path), faces_pdf(project, faces, geometry, lang))
    return Path(path)


def render_card_pdf(project, card, lang: str, path: Path, geometry: CardGeometry | None = None, report=None, back: bool = False) -> Path:
    """A one-card PDF of `card`'s front in `lang` (and its back on page 2 when `back`)."""
    geometry = geometry or CardGeometry.named("poker")
    faces = [front_face(project, card, lang, geometry, report)]
    if back:
        faces.append(back_face(project, geometry))
    return render_faces_pdf(project, faces, geometry, path, lang)


def render_back_pdf(project, path: Path, geometry: CardGeometry | None = None, lang: str | None = None) -> Path:
    geometry = geometry or CardGeometry.named("poker")
    return render_faces_pdf(project, [back_face(project, geometry)], geometry, path, lang)
