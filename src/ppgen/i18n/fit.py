"""Does every card's text fit? The translators' fit check (`ppgen i18n check` calls it).

For every card, its front is laid out in the language as `ppgen build` would
(card size from ppgen.yaml's build.card_size), shrinking text down to the
template's minimum sizes. A name or effect that still does not fit is a
Problem at the locale entry's file:line:col, saying by how much it overflows;
one whose last line is a runt no break in its box avoids (typeset/breaking.py)
is a warning there.
"""
from __future__ import annotations

import contextlib

from ..errors import Problem
from ..read.locale import Where

CHECKED = {"name": "name", "effect": "effect text"}


def check_fit(project, lang: str, geometry=None) -> list[Problem]:
    """Problems (code "fit", or "glyph" for a character no font has) for the cards of `lang`."""
    from ..draw.faces import CardGeometry
    from ..typeset.text import LAYOUTS

    geometry = geometry or CardGeometry.named(str(project.config.build.get("card_size") or "poker"))
    problems: list[Problem] = []
    recalled = _built_layouts(project, lang) if LAYOUTS.used is None else {}  # (not in a part being drawn: its own)
    with LAYOUTS.recording(recalled) if recalled else contextlib.nullcontext():
        for card in project.game.cards:
            problems += _card_problems(project, lang, geometry, card)
    return problems


def _built_layouts(project, lang: str) -> dict:
    """The layouts the last `ppgen build` of the language's card sheets into the build's folder
    kept (write/cache.py): a text laid out there is not laid out again here (the same text, style
    and box give the same layout, so only those are taken; 0.7 s of a check after a build)."""
    from ..errors import PpgenError
    from ..write.build import BuildOptions
    from ..write.cache import recall_layouts

    try:
        return recall_layouts(BuildOptions.resolve(project, lang=lang), lang, "cards")
    except PpgenError:  # a build option of ppgen.yaml the check does not need: nothing recalled
        return {}


def _card_problems(project, lang: str, geometry, card) -> list[Problem]:
    """What does not fit on one card's front in `lang`."""
    from ..draw.card_front import FrontFace
    from ..typeset.text import GlyphError, MarkupError

    try:
        face = FrontFace(project, card, lang, geometry)
    except (GlyphError, MarkupError) as exc:
        return [_at(exc.where, str(exc), "glyph" if isinstance(exc, GlyphError) else "markup")]
    problems: list[Problem] = []
    for element, key, overflow_mm in face.problems:
        if element not in CHECKED or key is None:
            continue
        file, line, col = project.locale(lang).locate(key)
        size = face.texts[element].layout.size
        problems.append(
            Problem(
                file,
                line,
                col,
                f"{card.code}: the {CHECKED[element]} does not fit its box even at the minimum size "
                f"({size:g} pt); it overflows by {overflow_mm:.1f} mm — shorten it",
                "fit",
            )
        )
    for element, key in face.runts:
        if element in CHECKED and key is not None:
            file, line, col = project.locale(lang).locate(key)
            problems.append(Problem(file, line, col, f"{card.code}: the {CHECKED[element]} ends with a lone word on its "
                                    "last line, and no break that fits its box avoids it — shorten or reword it", "fit", "warning"))
    return problems


def _at(where, message: str, code: str) -> Problem:
    """A text-engine error as a Problem at its locale entry (`where` is a locale.Where)."""
    message = message.removeprefix(f"{where}: ")
    if isinstance(where, Where):
        return Problem(where.file, where.line, where.col, f"{where.key}: {message}", code)
    return Problem("", 0, 0, f"{where}: {message}" if where else message, code)
