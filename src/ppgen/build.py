"""`ppgen build`: the card sheets of one or more languages, as print-ready PDFs.

The build, stage by stage (see `build()`):

    options  → BuildOptions.resolve(): command line over ppgen.yaml `build:` over defaults, checked once
    layout   → impose.plan_sheets(): the grid on the paper (refused with a clear message if cards do not fit)
    cards    → select_cards(): the seven starter decks (or --faction, or a decklist via `cards=`)
    faces    → draw.faces: each distinct front drawn once per language, one back for all
    sheets   → sheets.draw_pages(): faces placed on pages, crop marks, notes
    write    → pdf.Document.save(): atomic; skipped under --strict when there are warnings

Output: `<out>/<lang>/cards-<lang>.pdf` (`cards-<lang>-<faction>.pdf` for --faction).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from . import impose
from .config import BUILD_SPEC
from .errors import UsageError
from .impose import CardSize, Paper, SheetLayout
from .model import Card
from .report import BuildReport


# ── options ──────────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...]
    out: Path
    paper: Paper
    card_size: CardSize
    bleed: float = 0.0  # mm
    gutter: float = 0.0  # mm
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, x right and y up as seen on the back page
    layout: str = "duplex"
    factions: tuple[str, ...] = ()
    strict: bool = False

    @classmethod
    def resolve(
        cls,
        project,
        *,
        lang: str | None = None,
        out: str | Path | None = None,
        paper: str | None = None,
        card_size: str | None = None,
        bleed: float | str | None = None,
        gutter: float | str | None = None,
        duplex: str | None = None,
        back_offset=None,
        layout: str | None = None,
        factions: Sequence[str] = (),
        strict: bool = False,
    ) -> "BuildOptions":
        """Merge command-line values (None = not given) over ppgen.yaml's `build:` over the
        defaults, and check every value here, with a message naming the option."""
        conf = {k: f.default for k, f in BUILD_SPEC.items()}
        conf.update({k: v for k, v in (project.config.build or {}).items() if v is not None})

        def pick(option: str, given, parse):
            value, source = (given, f"--{option.replace('_', '-')}") if given is not None else (conf[option], f"ppgen.yaml build.{option}")
            try:
                return parse(value)
            except ValueError as exc:
                raise UsageError(f"{source}: {exc}") from None

        def choice(choices):
            def parse(v):
                if v not in choices:
                    raise ValueError(f"'{v}' is not one of {', '.join(choices)}")
                return v

            return parse

        if out is not None:
            out_dir = Path(out).expanduser()
        else:
            out_dir = Path(conf["out"]).expanduser()
            if not out_dir.is_absolute():
                out_dir = project.dir.root / out_dir
        for f in factions:
            project.check_faction(f)
        return cls(
            langs=resolve_languages(project, lang),
            out=out_dir,
            paper=pick("paper", paper, impose.parse_paper),
            card_size=pick("card_size", card_size, impose.parse_card_size),
            bleed=pick("bleed", bleed, lambda v: impose.check_length(v, "bleed", 0, impose.MAX_BLEED)),
            gutter=pick("gutter", gutter, lambda v: impose.check_length(v, "gutter", 0, impose.MAX_GUTTER)),
            duplex=pick("duplex", duplex, choice(impose.DUPLEX_EDGES)),
            back_offset=pick("back_offset", back_offset, impose.parse_offset),
            layout=pick("layout", layout, choice(impose.LAYOUTS)),
            factions=tuple(dict.fromkeys(factions)),
            strict=strict,
        )

    def sheet_layout(self) -> SheetLayout:
        return impose.plan_sheets(self.paper, self.card_size, self.bleed, self.gutter, self.layout, self.duplex, self.back_offset)


def resolve_languages(project, lang: str | None) -> tuple[str, ...]:
    """`None` → the source language; `all` → every language; `ja,ko` → those."""
    if lang is None:
        langs = [project.config.source_language]
    elif lang.strip().lower() == "all":
        langs = list(project.languages)
    else:
        langs = [part.strip() for part in lang.split(",") if part.strip()]
    if not langs:
        raise UsageError("--lang: name a language (e.g. ja) or all")
    for code in langs:
        project.language(code)  # a locale file and fonts, or a UsageError saying which is missing
    return tuple(dict.fromkeys(langs))


# ── results ──────────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class BuiltFile:
    lang: str
    path: Path
    pages: int
    cards: int
    faces: int  # distinct drawings (forms) in the file
    bytes: int
    written: bool = True  # False: refused by --strict

    def as_dict(self, shown: str) -> dict:
        return {"lang": self.lang, "path": shown, "pages": self.pages, "cards": self.cards, "faces": self.faces,
                "bytes": self.bytes, "written": self.written}


@dataclass
class BuildResult:
    layout: SheetLayout | None
    files: list[BuiltFile] = field(default_factory=list)
    report: BuildReport = field(default_factory=BuildReport)

    @property
    def written(self) -> list[BuiltFile]:
        return [f for f in self.files if f.written]

    @property
    def refused(self) -> list[BuiltFile]:
        return [f for f in self.files if not f.written]

    @property
    def pages(self) -> int:
        return sum(f.pages for f in self.written)


Progress = Callable[[int, int, str], None]


# ── the build ────────────────────────────────────────────────────────────────
def build(project, options: BuildOptions, cards: Sequence[tuple[Card, int]] | None = None, name: str | None = None,
          progress: Progress | None = None, report: BuildReport | None = None) -> BuildResult:
    """Build the card sheets of every language in `options.langs`.

    cards: a decklist as (card, count) pairs, instead of the starter decks.
    name: the file name stem: `<out>/<lang>/<name>-<lang>.pdf` (default "cards";
    with factions and no decklist, "cards-<lang>-<faction>….pdf").
    """
    layout = options.sheet_layout()
    run = select_cards(project, options.factions, cards)
    if not run:
        raise UsageError("nothing to print: the selection holds no cards")
    stem = name or "cards"
    suffix = "".join(f"-{f}" for f in options.factions) if cards is None else ""
    result = BuildResult(layout, report=report if report is not None else BuildReport())
    total = layout.page_count(len(run)) * len(options.langs)
    done = 0
    for lang in options.langs:
        def tick(n: int, _of: int, lang=lang, base=done) -> None:
            if progress:
                progress(base + n, total, f"{lang}: page {n}")

        path = options.out / lang / f"{stem}-{lang}{suffix}.pdf"
        result.files.append(build_language(project, options, layout, run, lang, path, result.report, tick))
        done += layout.page_count(len(run))
    return result


def select_cards(project, factions: Sequence[str] = (), cards: Sequence[tuple[Card, int]] | None = None) -> list[Card]:
    """The print run: every card repeated for its copies, in deck order (copies side by side)."""
    if cards is not None:
        return [card for card, count in cards for _ in range(count)]
    chosen = list(factions) or list(project.game.factions)
    return [card for faction in chosen for card, count in project.game.starter_deck(faction) for _ in range(count)]


def build_language(project, options: BuildOptions, layout: SheetLayout, run: list[Card], lang: str, path: Path,
                   report: BuildReport, progress: Callable[[int, int], None] | None = None) -> BuiltFile:
    """One language's PDF: faces, sheets, write (or refuse under --strict)."""
    from .draw.faces import CardGeometry, back_face, front_face
    from .pdf import Document
    from .sheets import SheetText, draw_pages

    loc = project.locale(lang)
    body = project.fonts.chain(lang, "body")
    trim_w, trim_h = layout.trim_pt
    geometry = CardGeometry(trim_w, trim_h, layout.bleed_pt)
    with report.fallbacks_of(loc):
        faces = {}
        for card in run:
            if card.id not in faces:
                faces[card.id] = front_face(project, card, lang, geometry, report)
        fronts = [faces[card.id] for card in run]
        back = back_face(project, geometry) if layout.layout != "fronts-only" else None
        text = SheetText(body, loc.get("sheet.print-note"), loc.get("sheet.fold-note") if layout.layout == "foldover" else "")
        doc = Document(body.primary, f"{project.config.game} — {path.stem} ({loc.get('language.name')})", lang, layout.describe())
        draw_pages(doc, layout.pages(len(run)), fronts, back, (geometry.width, geometry.height), text, report, lang, progress)
    if options.strict and report.for_lang(lang):
        return BuiltFile(lang, path, doc.pages, len(run), doc.form_count, 0, written=False)
    size = doc.save(path)
    return BuiltFile(lang, path, doc.pages, len(run), doc.form_count, size)


# ── the calibration page ─────────────────────────────────────────────────────
def build_calibration(project, options: BuildOptions, report: BuildReport | None = None) -> BuildResult:
    """The duplex alignment test of every language in `options.langs` (paper, duplex and
    back offset from the options): `<out>/<lang>/calibrate-<lang>.pdf`."""
    from .impose import calibration_sheet
    from .pdf import Document
    from .sheets import CalibrationText, draw_calibration, offset_text

    result = BuildResult(None, report=report if report is not None else BuildReport())
    cal = calibration_sheet(options.paper, options.duplex, options.back_offset)
    for lang in options.langs:
        loc = project.locale(lang)
        body, bold = project.fonts.chain(lang, "body"), project.fonts.chain(lang, "bold")
        with result.report.fallbacks_of(loc):
            flip = loc.get(f"calibrate.flip.{options.duplex}")
            x, y = offset_text(options.back_offset)
            words = CalibrationText(
                title=loc.get("calibrate.title"),
                steps=tuple(loc.format(f"calibrate.step{i}", flip=flip) for i in range(1, 7)),
                settings=loc.format("calibrate.settings", paper=options.paper.name, flip=flip, x=x, y=y),
                scale_x=loc.get("calibrate.scale-x"),
                scale_y=loc.get("calibrate.scale-y"),
                ruler=loc.get("calibrate.ruler"),
                back=loc.get("calibrate.back"),
            )
            doc = Document(body.primary, f"{project.config.game} — {words.title}", lang, f"{options.paper.name}, {flip}")
            draw_calibration(doc, cal, words, body, bold, result.report, lang)
        path = options.out / lang / f"calibrate-{lang}.pdf"
        if options.strict and result.report.for_lang(lang):
            result.files.append(BuiltFile(lang, path, doc.pages, 0, 0, 0, written=False))
            continue
        size = doc.save(path)
        result.files.append(BuiltFile(lang, path, doc.pages, 0, 0, size))
    return result
