"""`ppgen preview`: one card as a PNG, the quickest way to see an edit.

The card is named as players name it (read/names.py): its id, its collector
code, or its name in any language. An unknown name gets "did you mean"
suggestions, a name several cards share lists them all; nothing is guessed.
The card is laid out at the build's card size (ppgen.yaml `build.card_size`),
so the preview shows the line breaks the printed PDF has.
"""
from __future__ import annotations

from pathlib import Path

from ..draw.faces import CardGeometry
from ..errors import UsageError
from ..write.faces import card_fronts, faces_pdf
from ..write.report import fallbacks_reported
from .output import ExportResult, checked_folder, write_all
from .raster import card_raster, png_bytes, render_images


def find_card(project, text: str, lang: str | None = None):
    """The card `text` names (id, code, or name in any language), or a UsageError that helps,
    in `lang` (the decklist messages' words)."""
    from ..decks.deck import Ref
    from ..read.names import names_for
    from ..decks.report import Words

    lang = lang or project.config.source_language
    match = names_for(project).cards.lookup(text)
    if match.found:
        return project.game.card(match.found)
    words = Words(project, lang)
    if match.ids:
        choices = [Ref("card", i, with_code=True) for i in match.ids]
        raise UsageError(words.text("deck.ambiguous-card", name=text, choices=choices))
    message = words.text("deck.unknown-card", name=text)
    if match.suggestions:
        choices = [Ref("card", i, lang=in_lang or None, with_code=True) for i, in_lang in match.suggestions]
        message += "; " + words.text("deck.hint.did-you-mean", choices=choices)
    raise UsageError(f"{message} (ppgen cards --lang {lang})")


def preview(project, text: str, lang: str, target: Path, card_mm: tuple[float, float], dpi: float = 300) -> tuple:
    """Render the card `text` names, in `lang`, to a PNG; return (card, path, result).

    target: a `.png` file, or a folder that receives `<CODE>.png`.
    """
    from .png import check_dpi

    card = find_card(project, text, lang)
    dpi = check_dpi(dpi)
    target = Path(target)
    path = target if target.suffix.lower() == ".png" else target / f"{card.code}.png"
    checked_folder(path.parent)
    result = ExportResult()
    geometry = CardGeometry.from_mm(*card_mm)
    with fallbacks_reported(project.locale(lang), result.report):
        pdf = faces_pdf(project, card_fronts(project, [card], lang, geometry, result.report), geometry, lang)
    size = card_raster(geometry, dpi)
    image = render_images(pdf, size)[0]
    write_all([(path, png_bytes(image, size.dpi))], result)
    return card, path, result
