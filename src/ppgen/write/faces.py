"""Card faces as PDFs of their own: one page per face, the size of its bleed box.

    pdf = faces_pdf(project, [front_face(...), back_face(...)], geometry, "ja")
    render_card_pdf(project, card, "ja", Path("out/rom-01.pdf"), back=True)

The exports (PNG, TTS, contact sheets, previews) rasterise these pages, so
pictures and print share one drawing path.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..draw.faces import CardGeometry, back_face, front_face
from .atomic import write_atomic
from .parts import new_document


# ── fronts with their pictures ─────────────────────────────────────────────
def card_fronts(project, cards: Sequence, lang: str, geometry: CardGeometry, report=None, book=None) -> list:
    """The fronts of `cards` in `lang`, each with its picture (write/art.py: checked and
    prepared once; a bad file is a DataError before anything is drawn). Every export and
    preview draws its fronts through here, so each shows the art the PDF prints.
    `book`: the pictures already prepared for these cards (a live session's); its preflight
    is then the caller's to report."""
    from .art import art_book

    if book is None:
        book = art_book(project, cards, [lang], geometry)
        if report is not None:
            book.report(report, lang)
    return [front_face(project, card, lang, geometry, report, book.art(card, lang)) for card in cards]


# ── one-card PDFs, for looking at the work ─────────────────────────────────
def faces_pdf(project, faces: Sequence, geometry: CardGeometry, lang: str | None = None, title: str | None = None,
              report=None, **colour) -> bytes:
    """One page per face, the size of its bleed box; each distinct face drawn once as a form.
    The exports rasterise these pages: one drawing path for PDFs and pictures; the print
    shops' files are these pages in CMYK (`colour`: separation=, opaque=; write/printshop.py)."""

    lang = lang or project.config.source_language
    doc = new_document(project, lang, title or f"{project.config.game} — card faces ({lang})", **colour)
    for face in faces:
        doc.define_face(face, geometry.width, geometry.height)
        _page(doc, geometry, [face.key])
    if report is not None:
        flattening_reported(doc.canvas, report, lang)
    return doc.data()


def picture_pdf(project, faces: Sequence, geometry: CardGeometry, lang: str | None = None) -> tuple[bytes, list]:
    """The faces to rasterise as pictures (write/raster.py `render_pictures`): a front is put
    on its page without its underlay (draw/card_front.py FrontFace.underlay: the backdrop and
    the glow many fronts share), and each distinct underlay on a page of its own after them,
    so that it is rasterised once and the fronts over it; the pictures are the same, pixel for
    pixel, as faces_pdf's pages rasterised whole; its streams are not compressed (it is only
    rasterised, in memory). (bytes, [(page, underlay)] per face), where
    underlay is (its page, a digest of what it draws — equal in any PDF exactly when it draws
    the same), or None for a face put on its page whole."""
    import hashlib

    lang = lang or project.config.source_language
    doc = new_document(project, lang, f"{project.config.game} — card faces ({lang})", compress=False)  # (never written)
    size = (geometry.width, geometry.height)
    placed, underlays = [], {}  # (face placed, its underlay's digest); digest → its layers
    for face in faces:
        under = tuple(getattr(face, "underlay", ()))
        for layer in under:
            doc.define_face(layer, *getattr(layer, "size", size))
        drawings = [doc.drawing(layer.key) for layer in under]
        if under and all(drawings) and all(getattr(layer, "size", size) == size for layer in under):
            digest = hashlib.sha256(f"{size!r}\n{' '.join(drawings)}".encode()).hexdigest()
            underlays.setdefault(digest, under)
            face = face.overlay
        else:
            digest = None
        doc.define_face(face, *size)
        placed.append((face, digest))
    for face, _ in placed:
        _page(doc, geometry, [face.key])
    for layers in underlays.values():
        _page(doc, geometry, [layer.key for layer in layers])
    pages = {digest: len(placed) + i for i, digest in enumerate(underlays)}
    return doc.data(), [(i, (pages[digest], digest) if digest else None) for i, (_, digest) in enumerate(placed)]


def _page(doc, geometry: CardGeometry, keys) -> None:
    """A page the size of the bleed box with the forms `keys` placed on it, in order."""
    b = geometry.bleed
    doc.begin_page(geometry.width, geometry.height, trim_box=(b, b, b + geometry.trim_w, b + geometry.trim_h),
                   bleed_box=(0, 0, geometry.width, geometry.height))
    for key in keys:
        doc.place_form(key, (1, 0, 0, 1, 0, 0))
    doc.end_page()


def flattening_reported(canvas, report, lang: str) -> None:
    """What a PDF/X-1a canvas had to flatten (write/separation.py), as warnings."""
    dropped, pictures = getattr(canvas, "transparency_dropped", 0), getattr(canvas, "flattened_pictures", 0)
    if dropped:
        report.warning("pdfx-transparency", f"{dropped} see-through colours printed opaque: PDF/X-1a allows no transparency", lang)
    if pictures:
        report.warning("pdfx-transparency", f"{pictures} pictures with transparent parts printed on white: a CMYK print file "
                       "has no alpha (give them an opaque background)", lang)


def render_faces_pdf(project, faces: list, geometry: CardGeometry, path: Path, lang: str | None = None) -> Path:
    """Write `faces_pdf` to `path`, atomically."""

    write_atomic(Path(path), faces_pdf(project, faces, geometry, lang))
    return Path(path)


def render_card_pdf(project, card, lang: str, path: Path, geometry: CardGeometry | None = None, report=None, back: bool = False) -> Path:
    """A one-card PDF of `card`'s front in `lang` (and its back on page 2 when `back`)."""
    geometry = geometry or CardGeometry.named("poker")
    faces = card_fronts(project, [card], lang, geometry, report)
    if back:
        faces.append(back_face(project, geometry))
    return render_faces_pdf(project, faces, geometry, path, lang)


def render_back_pdf(project, path: Path, geometry: CardGeometry | None = None, lang: str | None = None,
                    variant: str | None = None) -> Path:
    """A one-page PDF of the card back (`variant`: one of the template's `backs:`, default its first)."""
    geometry = geometry or CardGeometry.named("poker")
    return render_faces_pdf(project, [back_face(project, geometry, variant)], geometry, path, lang)
