"""The art of a print run: every card's picture found, checked, fitted and prepared once.

    book = art_book(project, cards, langs, geometry)   # DataError naming card and file for a bad picture
    book.art(card, "ja")         # draw.art.CardArt for the front, or None (no picture)
    book.report(report, "ja")    # the preflight's warnings for that language, into a build report
    book.rows                    # per card and language: file, size, effective dpi, problems (`ppgen art`)

The preflight, for every placement (a card's picture in its window, at the print
run's card size and bleed):

    art-soft     prints below 300 dpi (pixels across the printed width): may look soft; --strict passes
    art-blurry   prints below 150 dpi: will look blurry; fails --strict
    art-cropped  `cover` cuts off more than 25 % of the picture (its aspect differs from the window's)
    art-bleed    the template runs the art into the bleed and the picture does not reach it (`contain`)
    art-colour   its colours had to be guessed (CMYK without a profile, an unreadable profile)
    art-unused   a picture in art/ or art/<lang>/ named for no card (a typo in its name?), or in a
                 folder that names a language otherwise (art/jp/)

Every problem with a file (missing, damaged, unsupported, a decompression bomb, an
unsafe SVG) is collected and raised at once before anything is drawn, so nothing is
written. Each distinct picture is prepared once, at the largest size a placement
needs up to `art_max_dpi` (ppgen.yaml `build:`, default 600): the same inputs give
the same bytes. The book is kept by the project, so a build's worker processes
(forked) inherit it prepared.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..draw.art import CardArt, Fitted, art_box, fit
from ..errors import DataError, Problem
from ..read.art import ArtError, ArtFolder, ArtSource, Picture, open_picture
from ..read.templates import load_card_template, scaled
from ..units import MM

DEFAULT_MAX_DPI = 600.0
GOOD_DPI = 300
LOW_DPI = 150
MAX_CROP = 0.25


def art_max_dpi(project) -> float:
    """`build.art_max_dpi` of ppgen.yaml (default 600)."""
    return float((project.config.build or {}).get("art_max_dpi") or DEFAULT_MAX_DPI)


@dataclass(frozen=True)
class ArtProblem:
    code: str
    message: str
    strict: bool = True  # does --strict fail on it?


@dataclass
class ArtRow:
    """One card in one language: its picture and what the preflight found."""

    card: object  # read.model.Card
    lang: str
    source: ArtSource | None = None
    picture: Picture | None = None
    fitted: Fitted | None = None
    fit: str = "cover"
    problems: list[ArtProblem] = field(default_factory=list)
    window: bool = True  # False: the template shows no art window on this kind of card

    @property
    def dpi(self) -> float | None:
        if self.picture is None or self.fitted is None or self.picture.vector:
            return None
        return self.fitted.dpi(self.picture.width)


@dataclass
class ArtBook:
    rows: list[ArtRow]
    unused: list[tuple[str, str]]  # (file, did-you-mean text)
    prepared: dict[Path, object]  # picture path -> read.art.Prepared
    langs: tuple[str, ...]
    _by_card: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self._by_card = {(r.card.id, r.lang): r for r in self.rows}

    def row(self, card_id: str, lang: str) -> ArtRow | None:
        """The preflight of one card in one language (None: not in this book)."""
        return self._by_card.get((card_id, lang))

    def art(self, card, lang: str) -> CardArt | None:
        row = self._by_card.get((card.id, lang))
        if row is None or row.picture is None or row.fitted is None:
            return None
        return CardArt(self.prepared[row.source.path], row.fit, card.art_focus or (0.5, 0.5))

    def problems(self, lang: str | None = None) -> list[tuple[ArtRow | None, ArtProblem]]:
        out: list[tuple[ArtRow | None, ArtProblem]] = [
            (None, ArtProblem("art-unused", f"{file} {why}"))
            for file, why in self.unused
        ]
        for row in self.rows:
            if lang is None or row.lang == lang:
                out.extend((row, p) for p in row.problems)
        return out

    def report(self, report, lang: str) -> None:
        """The preflight's warnings of `lang` (and those of every language), into `report`."""
        for row, problem in self.problems(lang):
            report.warning(problem.code, problem.message, lang=row.lang if row else None,
                           key=row.card.code if row else "art", strict=problem.strict)

    def entry(self, project, row: ArtRow) -> dict:
        """One card in one language of the checklist: its picture, every number, what was found."""
        card, picture = row.card, row.picture
        return {
            "id": card.id, "code": card.code, "faction": card.faction, "kind": card.kind, "lang": row.lang,
            "name": project.card_name(card, row.lang),
            "file": row.source.shown if row.source and picture else None,
            "from": row.source.origin if row.source and picture else None,
            "format": picture.format if picture else None,
            "width": picture.width if picture else None,
            "height": picture.height if picture else None,
            "fit": row.fit if picture else None,
            "dpi": round(row.dpi, 2) if row.dpi is not None else None,
            "cropped": round(row.fitted.cropped, 4) if row.fitted else None,
            "embedded": _embedded(self.prepared.get(row.source.path)) if picture else None,
            "window": row.window,
            "problems": [{"code": p.code, "message": p.message, "fails_strict": p.strict} for p in row.problems],
        }

    def checklist(self, project) -> dict:
        """The `ppgen art` checklist as plain data (its JSON): one entry per card and language."""
        entries = [self.entry(project, row) for row in self.rows]
        with_art = sum(1 for e in entries if e["file"])
        return {
            "cards": entries,
            "unused": [{"file": file, "message": why} for file, why in self.unused],
            "summary": {"languages": list(self.langs), "placements": len(entries), "with_art": with_art,
                        "without_art": sum(1 for e in entries if not e["file"] and e["window"]),
                        "warnings": sum(len(e["problems"]) for e in entries) + len(self.unused),
                        "failing_strict": sum(1 for e in entries for p in e["problems"] if p["fails_strict"]) + len(self.unused)},
        }

    @property
    def with_art(self) -> list[ArtRow]:
        return [r for r in self.rows if r.picture is not None]

    @property
    def without_art(self) -> list[ArtRow]:
        return [r for r in self.rows if r.picture is None and r.window]


def art_book(project, cards, langs, geometry, max_dpi: float | None = None) -> ArtBook:
    """The pictures of `cards` (each once) in `langs`, checked and prepared for `geometry`;
    kept by the project for the same request."""
    max_dpi = float(max_dpi or art_max_dpi(project))
    ids = list(dict.fromkeys(c.id for c in cards))
    digest = hashlib.sha1(" ".join(ids).encode()).hexdigest()
    key = f"art-book:{geometry}:{max_dpi}:{','.join(langs)}:{digest}"
    return project.cached(key, lambda: _make_book(project, [project.game.card(i) for i in ids], tuple(langs), geometry, max_dpi))


def _make_book(project, cards, langs, geometry, max_dpi: float) -> ArtBook:
    game = project.game
    folder = project.cached("art-folder", lambda: ArtFolder.scan(project.dir, project.languages))
    pictures: dict[Path, Picture] = project.cached("art-pictures", dict)
    template = load_card_template(project)
    windows = {}
    for kind in {c.kind for c in cards}:
        elements, _ = scaled(template, kind, geometry.trim_w / MM, geometry.trim_h / MM)
        e = elements.get("art")
        windows[kind] = e if e is not None and e.show else None
    errors: dict[str, Problem] = {}
    rows: list[ArtRow] = []
    needed: dict[Path, int] = {}
    for card in cards:
        for lang in langs:
            row = ArtRow(card, lang, window=windows[card.kind] is not None)
            rows.append(row)
            try:
                row.source = folder.source(game, card, lang)
            except ArtError as exc:
                _refuse(errors, card, exc.where or game.where(card, "art"), None, str(exc))
                continue
            if row.source is None or not row.window:
                continue
            picture = pictures.get(row.source.path)
            if picture is None:
                try:
                    picture = pictures[row.source.path] = open_picture(row.source)
                except ArtError as exc:
                    _refuse(errors, card, row.source.where, row.source, str(exc))
                    continue
            row.picture = picture
            element = windows[card.kind]
            row.fit = card.art_fit or element.fit
            row.fitted = fit(art_box(element, geometry), (picture.width, picture.height), row.fit, card.art_focus or (0.5, 0.5))
            row.problems = _preflight(row, element, geometry)
            if not picture.vector:
                width = math.ceil(row.fitted.w / 72 * max_dpi)
                needed[picture.source.path] = max(needed.get(picture.source.path, 0), width)
    prepared: dict[Path, object] = {}
    for path, width in needed.items():
        picture = pictures[path]
        try:
            prepared[path] = picture.prepared(width if picture.width > width else None)
        except ArtError as exc:
            user = next(r for r in rows if r.source is not None and r.source.path == path)
            _refuse(errors, user.card, picture.source.where, picture.source, str(exc))
    for row in rows:
        if row.picture is not None and row.picture.vector:
            prepared[row.source.path] = row.picture.prepared()
    if errors:
        raise DataError(list(errors.values()))
    for row in rows:
        if row.picture is not None:
            for note in prepared[row.source.path].notes:
                row.problems.append(ArtProblem("art-colour", f"{row.source.shown}: {note}"))
    return ArtBook(rows, folder.unused((c.id for c in game.cards), (c.art for c in game.cards if c.art), project.find_language), prepared, langs)


def _embedded(prepared) -> dict | None:
    if prepared is None:
        return None
    return {"format": prepared.format, "width": prepared.width, "height": prepared.height,
            "bytes": len(prepared.data) if prepared.data else None, "as_is": prepared.passthrough}


def _refuse(errors: dict, card, where, source: ArtSource | None, message: str) -> None:
    file, line, col = where
    subject = f"{source.shown} " if source is not None else ""
    key = f"{file}:{line}:{subject}{message}"
    if key not in errors:  # one problem per file, however many cards and languages use it
        errors[key] = Problem(file, line, col, f"card {card.code} ({card.id}): {subject}{message}", "art")


def _preflight(row: ArtRow, element, geometry) -> list[ArtProblem]:
    """What a placement will look like in print: resolution, cropping, bleed."""
    out = []
    fitted, picture, shown = row.fitted, row.picture, row.source.shown
    size = f"{picture.width:g} × {picture.height:g} px" if not picture.vector else "vector"
    printed = f"{fitted.w / MM:.1f} × {fitted.h / MM:.1f} mm"
    dpi = row.dpi
    if dpi is not None and dpi < LOW_DPI:
        out.append(ArtProblem("art-blurry", f"{shown} ({size}) prints at {dpi:.0f} dpi across {printed}: "
                                            f"it will look blurry (below {LOW_DPI} dpi); {GOOD_DPI} dpi needs "
                                            f"{math.ceil(fitted.w / 72 * GOOD_DPI)} px across"))
    elif dpi is not None and dpi < GOOD_DPI:
        out.append(ArtProblem("art-soft", f"{shown} ({size}) prints at {dpi:.0f} dpi across {printed}: "
                                          f"it may look soft (below {GOOD_DPI} dpi; --strict passes)", strict=False))
    if fitted.cropped > MAX_CROP + 1e-9:
        out.append(ArtProblem("art-cropped", f"{shown} loses {fitted.cropped:.1%} of its area to the art window "
                                             f"(its shape is not the window's; `art_fit: contain` shows it whole, "
                                             f"`art_focus` chooses what stays)"))
    if element.bleed and not fitted.covers:
        out.append(ArtProblem("art-bleed", f"{shown} does not reach the edges of this full-art card "
                                           f"({row.fit}); a white sliver would print: use `fit: cover` or a picture of the card's shape"))
    return out
