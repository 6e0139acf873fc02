"""A deck as a print shop's file: one card face per page, in CMYK, as PDF/X-1a or PDF/X-4.

    data = deck_pdf(project, cards, "en", geometry, service, report)

Every page is one face, the card plus its bleed (MediaBox = BleedBox, TrimBox = the card),
in the order the service states (`front-back`: front of card 1, its back, front of card 2 …);
each distinct face is drawn once, as a form (write/faces.py `faces_pdf`, the very pages the
PNG exports render). The canvas separates every colour and picture into the service's
printing condition (write/separation.py, its ICC profile read once per project) and
write/pdfx.py makes the result PDF/X. The home build's PDFs stay RGB.
"""
from __future__ import annotations

from typing import Sequence

from ..draw.faces import CardGeometry, back_face
from .faces import card_fronts, faces_pdf


def in_order(order: str, fronts: list, back) -> list:
    """The faces of a deck in a service's order."""
    if order == "front-back":
        return [face for front in fronts for face in (front, back)]
    if order == "back-front":
        return [face for front in fronts for face in (back, front)]
    if order == "fronts-then-backs":
        return fronts + [back] * len(fronts)
    raise ValueError(f"no PDF page order '{order}'")


def separation_for(project, condition):
    """The Separation of a printing condition: its profile read and its transform built once per project."""
    from ..read.services import MAX_PROFILE_BYTES
    from .separation import Separation

    return project.cached(f"separation:{condition.key}", lambda: Separation(
        project.dir.read_bytes(condition.profile, MAX_PROFILE_BYTES), condition.total_ink, condition.info))


def deck_pdf(project, cards: Sequence, lang: str, geometry: CardGeometry, service, report=None, pdfx: str | None = None,
             title: str = "", back: str | None = None) -> bytes:
    """`cards` (every copy, in deck order) as `service`'s PDF/X file (`pdfx` overrides its standard)."""
    from .pdfx import pdfx as make_pdfx

    standard = pdfx or service.pdfx
    distinct = list({card.id: card for card in cards}.values())
    fronts = dict(zip((c.id for c in distinct), card_fronts(project, distinct, lang, geometry, report)))
    faces = in_order(service.order, [fronts[card.id] for card in cards], back_face(project, geometry, back))
    separation = separation_for(project, service.condition)
    title = title or f"{project.config.game} ({lang})"
    data = faces_pdf(project, faces, geometry, lang, title, report, separation=separation, opaque=standard == "x1a")
    return make_pdfx(data, standard, service.condition, separation.profile, title)
