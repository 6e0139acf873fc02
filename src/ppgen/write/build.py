"""`ppgen build`: the print-and-play set of one or more languages, as print-ready PDFs.

The build, stage by stage (see `build()`, `draw_language()` and `write_language()`):

    options  → BuildOptions.resolve(): command line over ppgen.yaml `build:` over defaults, checked once
    layout   → impose.plan_sheets(): the grid on the paper (refused with a clear message if cards do not fit)
    cards    → select_cards(): the seven starter decks (or --faction, or a decklist via `cards=`)
    parts    → parts.PARTS: rulebook, player mats, score sheet, card sheets, each drawn into its own PDF
    assemble → parts.assemble(): all parts in one PDF with an outline
    write    → files.write_atomic(); nothing of a language is written under --strict when it has warnings

The parts of every language are drawn in parallel processes (one per core: a language's rulebook
beside its card sheets), then assembled and written by this process only: Ctrl-C or a failed
write stops the workers and leaves no half-written file.

Output, per language: `<out>/<lang>/ancient-duel-<lang>.pdf` (every part) and the parts
`rulebook-<lang>.pdf`, `mats-<lang>.pdf`, `score-sheet-<lang>.pdf`, `cards-<lang>.pdf`
(`cards-<lang>-<faction>.pdf` for --faction; `<deck>-<lang>.pdf` for a decklist, which
prints the cards only unless parts are asked for).
"""
from __future__ import annotations

import os
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Callable, Sequence

from .. import units
from ..errors import DataError, UsageError
from ..impose.layout import SheetLayout, plan_sheets
from ..read.config import BUILD_SPEC
from ..read.templates import load_card_template
from ..read.model import Card
from ..units import CardSize, Paper
from .parts import DEFAULT_PARTS, PART_ORDER
from .report import BuildReport, fallbacks_reported


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
    printable_margin: float = units.PRINTABLE_MARGIN  # mm along the paper edge where nothing is drawn
    back: str | None = None  # the card back's variant (templates/card.yaml `backs:`); None = the first
    rulebook: str = "pages"  # pages | booklet
    factions: tuple[str, ...] = ()
    strict: bool = False
    parts: tuple[str, ...] = DEFAULT_PARTS
    whole: tuple[str, ...] = DEFAULT_PARTS  # the game's whole set: ppgen.yaml build.parts, else DEFAULT_PARTS
    jobs: int = 0  # parts drawn at once, in worker processes; 0 = one per core
    art_max_dpi: float = 600.0  # card pictures larger than this at their printed size are downsampled
    cutter: object = None  # print-and-cut: a read.cutters.Cutter
    cut_formats: tuple[str, ...] = ("svg",)  # print-and-cut: cut files beside each PDF
    corner_radius: float = 3.0  # mm, of every cut outline; 0 = square
    card_thickness: float = 0.3  # mm: tuck boxes
    sleeves: bool | None = None  # True: mats and boxes for sleeved cards; False: for bare ones; None: mats sleeved, boxes bare
    mat: str = "standard"  # standard: the mat on the build's paper; large: on one A3 / Tabloid sheet

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
        printable_margin: float | str | None = None,
        back: str | None = None,
        rulebook: str | None = None,
        factions: Sequence[str] = (),
        strict: bool = False,
        parts: str | Sequence[str] | None = None,
        jobs: int | None = None,
        cards_only: bool = False,
        cutter: str | None = None,
        cut_file: str | Sequence[str] | None = None,
        corner_radius: float | str | None = None,
        card_thickness: float | str | None = None,
        sleeves: bool | None = None,
        mat: str | None = None,
    ) -> "BuildOptions":
        """Merge command-line values (None = not given) over ppgen.yaml's `build:` over the
        defaults, and check every value here, with a message naming the option."""
        conf = {k: f.default for k, f in BUILD_SPEC.items()}
        conf.update({k: v for k, v in (project.config.build or {}).items() if v is not None})

        def pick(option: str, given, parse):
            if given is not None:
                try:
                    return parse(given)
                except ValueError as exc:
                    raise UsageError(f"--{option.replace('_', '-')}: {exc}") from None
            try:
                return parse(conf[option])
            except ValueError as exc:  # ppgen.yaml's (or the default): at its line, when it is written there
                if option in (project.config.build or {}) and project.config.doc is not None:
                    raise DataError([project.config.problem(("build", option), f"build.{option}: {exc}")]) from None
                raise UsageError(f"ppgen.yaml build.{option}: {exc}") from None

        def choice(choices):
            def parse(v):
                if v not in choices:
                    raise ValueError(f"'{v}' is not one of {', '.join(choices)}")
                return v

            return parse

        out_dir = output_folder(project, out if out is not None else conf["out"], "--out" if out is not None else "ppgen.yaml build.out")
        factions = [project.check_faction(f) for f in factions]  # ids, from any name (rome, ROM, ローマ)
        machine = _cutter(project, cutter, conf["cutter"], layout, conf["layout"])
        for option, given in (("--cut-file", cut_file), ("--corner-radius", corner_radius)):
            if given is not None and machine is None:  # (it was ignored: no cut file was written)
                from ..read.cutters import load_cutters

                raise UsageError(f"{option} shapes the cut files of a cutting machine: add --cutter ({', '.join(load_cutters(project))})")
        chosen_layout = "print-and-cut" if machine is not None else pick("layout", layout, choice(units.LAYOUTS))
        card = pick("card_size", card_size, units.parse_card_size)
        def configured_parts(value):  # ppgen.yaml's parts, or the default ones (a mistake there is said at its line)
            try:
                return parse_parts(value, DEFAULT_PARTS, "parts")
            except UsageError as exc:
                raise ValueError(str(exc).removeprefix("parts: ")) from None

        whole = pick("parts", None, configured_parts)
        chosen = parse_parts(parts, default=("cards",) if (factions or cards_only) else whole)
        if card_thickness is not None and "boxes" not in chosen:  # (it was ignored, and made the build draw afresh)
            raise UsageError("--card-thickness sizes the tuck boxes: add boxes to --parts (e.g. --parts cards,boxes)")

        def card_back(v):  # checked against the card template only when there are cards to print
            return v if v is None or "cards" not in chosen else load_card_template(project).back_name(v)

        return cls(
            langs=resolve_languages(project, lang),
            out=out_dir,
            paper=pick("paper", paper, units.parse_paper),
            card_size=card,
            # print-and-cut: bleed and gap are the machine's (templates/cutters.yaml) unless given on the command line
            bleed=pick("bleed", machine.bleed if machine and bleed is None else bleed,
                       lambda v: units.check_length(v or 0.0, "bleed", 0, units.MAX_BLEED)),
            gutter=pick("gutter", machine.gap if machine and gutter is None else gutter,
                        lambda v: units.check_length(v or 0.0, "gutter", 0, units.MAX_GUTTER)),
            duplex=pick("duplex", duplex, choice(units.DUPLEX_EDGES)),
            back_offset=pick("back_offset", back_offset, units.parse_offset),
            layout=chosen_layout,
            printable_margin=pick("printable_margin", printable_margin,
                                  lambda v: units.check_length(v, "the printable margin", 0, units.MAX_PRINTABLE_MARGIN)),
            back=pick("back", back, card_back),
            rulebook=pick("rulebook", rulebook, choice(units.RULEBOOK_FORMS)),
            factions=tuple(dict.fromkeys(factions)),
            strict=strict,
            parts=chosen,
            whole=whole,
            jobs=jobs if jobs is not None else 0,
            art_max_dpi=float(conf["art_max_dpi"]),
            cutter=machine,
            cut_formats=pick("cut_file", cut_file, units.parse_cut_formats),
            corner_radius=pick("corner_radius", corner_radius, lambda v: _corner(v, card)),
            card_thickness=pick("card_thickness", card_thickness, lambda v: units.check_length(v, "card thickness", 0.05, 2)),
            sleeves=sleeves if sleeves is not None else conf["sleeves"],
            mat=pick("mat", mat, choice(units.MAT_SIZES)),
        )

    @cached_property
    def sheet_layout(self) -> SheetLayout:
        """The card sheets' grid (planned once; refused with a clear message when cards do not fit)."""
        if self.layout == "print-and-cut":
            from ..impose.cutter import plan_cut_sheets

            return plan_cut_sheets(self.paper, self.card_size, self.cutter, self.bleed, self.gutter, self.duplex, self.back_offset)
        return plan_sheets(self.paper, self.card_size, self.bleed, self.gutter, self.layout, self.duplex, self.back_offset,
                           printable_margin=self.printable_margin)


FILE_SUFFIXES = (".pdf", ".png", ".json")  # what ppgen writes into the output folder


def output_folder(project, value, source: str) -> Path:
    """The output folder (relative paths from ppgen.yaml are under the game directory). A name
    ending like a file ppgen writes (my.pdf) is refused unless that folder exists: --out names
    the folder that receives one subfolder per language, never the PDF itself."""
    folder = Path(value).expanduser()
    if source != "--out" and not folder.is_absolute():
        folder = project.dir.root / folder
    if folder.suffix.lower() in FILE_SUFFIXES and not folder.is_dir():
        raise UsageError(f"{source} names a folder (it receives one subfolder per language), not a file: "
                         f"'{value}' ends in {folder.suffix}; give a folder, e.g. {source} {Path(value).with_suffix('')}")
    return folder


def _cutter(project, given: str | None, configured: str | None, layout: str | None, configured_layout: str):
    """The cutting machine of a print-and-cut build (None for any other layout). --cutter alone
    means --layout print-and-cut; ppgen.yaml's build.cutter is used when the layout is."""
    from ..read.cutters import cutter, load_cutters

    if given is not None:
        if layout not in (None, "print-and-cut"):
            raise UsageError(f"--cutter {given} prints for a cutting machine: it needs --layout print-and-cut, not {layout}")
        return cutter(project, given)
    machines = load_cutters(project) if configured is not None else {}
    if configured is not None and configured not in machines:  # checked whatever the layout, at its line
        from ..read.schema import did_you_mean

        raise DataError([project.config.problem(("build", "cutter"), f"build.cutter: unknown cutting machine '{configured}'"
                                                f"{did_you_mean(configured, machines)} (machines of templates/cutters.yaml: {', '.join(machines)})")])
    if (layout or configured_layout) != "print-and-cut":
        return None
    if configured is None:
        raise UsageError(f"--layout print-and-cut: name your cutting machine with --cutter ({', '.join(load_cutters(project))})")
    return cutter(project, configured)


def _corner(value, card: CardSize) -> float:
    """--corner-radius: 0 (square) up to half the card's shorter side, and at most MAX_CORNER."""
    limit = min(units.MAX_CORNER, min(card.width, card.height) / 2)
    return units.check_length(value, "corner radius", 0, limit)


def parse_parts(value, default: tuple[str, ...], source: str = "--parts") -> tuple[str, ...]:
    """`--parts rulebook,cards` → the parts in assembly order; None → `default`. `source`: where
    the value was written, for the message (the option, or ppgen.yaml's key)."""
    if value is None:
        return default
    names = [str(p).strip() for p in (value.split(",") if isinstance(value, str) else value) if str(p).strip()]
    if not names:
        raise UsageError(f"{source}: name at least one part")
    for name in names:
        if name not in PART_ORDER:
            from ..read.schema import did_you_mean

            raise UsageError(f"{source}: unknown part '{name}'{did_you_mean(name, PART_ORDER)} (parts: {', '.join(PART_ORDER)})")
    return tuple(p for p in PART_ORDER if p in names)


def resolve_languages(project, lang: str | None) -> tuple[str, ...]:
    """`None` → the source language; `all` → every language; `ja,ko` → those."""
    if lang is None:
        langs = [project.config.source_language]
    elif lang.strip().lower() == "all":
        langs = project.every_language()
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
    part: str = "cards"  # a parts.PART_ORDER name, "set" for the assembled PDF, "cut-file" or "print-image" beside the cards
    kept: bool = False  # True: already written by an earlier build of the same inputs, and left as it was (write/cache.py)
    stamp: tuple | None = None  # as this build wrote it (write/cache.py stamp_of), for the record of what it wrote

    def as_dict(self, shown: str) -> dict:
        return {"lang": self.lang, "part": self.part, "path": shown, "pages": self.pages, "cards": self.cards,
                "faces": self.faces, "bytes": self.bytes, "written": self.written, "kept": self.kept}


@dataclass
class BuildResult:
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
          progress: Progress | None = None, report: BuildReport | None = None, box_deck=None, reuse: bool = True) -> BuildResult:
    """Build every part of every language in `options.langs`.

    cards: a decklist as (card, count) pairs, instead of the starter decks.
    name: the card sheets' file name stem: `<out>/<lang>/<name>-<lang>.pdf` (default "cards";
    with factions and no decklist, "cards-<lang>-<faction>….pdf").
    box_deck: the decklist's draw.tuckbox.BoxDeck (its name and faction), for its tuck box.
    reuse: keep a language's files when an earlier build wrote them from the same inputs, and
    take the texts an earlier build laid out from it (write/cache.py); False lays out and draws
    every language afresh (the layouts it made are still kept for the next build).
    """
    from . import cache

    run = PrintRun()
    if "cards" in options.parts:
        options.sheet_layout  # noqa: B018 — a paper/card/bleed that does not fit is refused before any drawing
        run = PrintRun(select_cards(project, options.factions, cards))
        if not run:
            raise UsageError("nothing to print: the selection holds no cards")
        if cards is None and not options.factions:  # the whole set: with a quick-reference card for each player
            from .parts import REFERENCE_CARDS

            run.references = REFERENCE_CARDS
    if "boxes" in options.parts:
        run.decks = select_decks(project, options, box_deck)
    result = BuildResult(report=report if report is not None else BuildReport())
    names = file_names(project, options, name, cards is not None)
    inputs = cache.BuildInputs(project, options, tuple(c.id for c in run),
                               tuple((d.title, d.faction, tuple((c.id, n) for c, n in d.cards)) for d in run.decks),
                               tuple(sorted(names.items())))
    kept = {lang: cache.kept(inputs, lang) if reuse else None for lang in options.langs}
    fresh = tuple(lang for lang in options.langs if kept[lang] is None)
    if fresh and "cards" in options.parts:
        from .parts import run_art

        run_art(project, replace(options, langs=fresh), run)  # every picture checked and prepared: a bad one stops the build here
    total = len(options.langs) * len(options.parts)
    done = 0

    def add(files, warnings, status: str):
        nonlocal done
        for w in warnings:
            result.report.warning(w.code, w.message, w.lang, w.subject, w.strict)
        result.files.extend(files)
        done += len(options.parts)
        if progress:
            progress(done, total, f"{files[0].lang}: {status}")

    for lang in options.langs:
        if kept[lang] is not None:
            files, warnings = kept[lang]
            refuse = options.strict and any(w.strict for w in warnings)  # --strict fails on the same warnings again
            add([replace(f, written=not refuse) for f in files], warnings, "unchanged")
    if fresh:
        _check_writable(options, fresh, names)
        drawing = replace(options, langs=fresh)
        jobs = min(len(fresh) * len(options.parts), options.jobs or os.cpu_count() or 1)
        for files, warnings in _run_languages(project, drawing, run, names, jobs, progress, recall=reuse):
            cache.remember(inputs, files[0].lang, files, warnings)
            add(files, warnings, "done")
    result.files.sort(key=lambda f: options.langs.index(f.lang))
    return result


def file_names(project, options: BuildOptions, name: str | None, decklist: bool) -> dict[str, str]:
    """File name patterns of each part and of the assembled set ({lang} is filled per language).
    The set is `ancient-duel-<lang>.pdf` when it holds the whole game (every part of the whole set,
    `options.whole`; the starter decks); a set of fewer cards is named by them — its factions
    (`ancient-duel-en-rome.pdf`), or its decklist as the deck's other files are (`my-deck-set-en.pdf`)
    — and a set of fewer parts of the whole game by its parts (`ancient-duel-en-rulebook-mats.pdf`):
    printing a part or a deck never replaces the whole set."""
    suffix = "".join(f"-{f}" for f in options.factions) if not decklist else ""
    names = {part: f"{part}-{{lang}}.pdf" for part in PART_ORDER}
    if options.rulebook == "booklet":
        names["rulebook"] = "rulebook-booklet-{lang}.pdf"
    names["cards"] = f"{name or 'cards'}-{{lang}}{suffix}.pdf"
    names["boxes"] = f"{name}-boxes-{{lang}}.pdf" if name else f"boxes-{{lang}}{suffix}.pdf"
    if decklist and name:  # (named as the deck's cards and boxes are: a deck called rome.txt is not the faction)
        names["set"] = f"{name}-set-{{lang}}.pdf"
        return names
    holds = suffix
    if not holds and not set(options.whole) <= set(options.parts):
        holds = "".join(f"-{part}" for part in options.parts)
    names["set"] = f"{slug(project.config.game)}-{{lang}}{holds}.pdf"
    return names


def _check_writable(options: BuildOptions, langs, names: dict[str, str]) -> None:
    """Every file the build will write, checked before anything is drawn: one that cannot be
    written (read-only, a folder in its way) stops the build now, every file as it was — it was
    refused after the drawing, when the files before it had been replaced already (a new set
    beside an old card sheet)."""
    import glob

    from .atomic import check_writable

    in_set = [p for p in options.parts if not (p == "rulebook" and options.rulebook == "booklet")]
    keys = list(options.parts) + (["set"] if len(in_set) > 1 else [])
    for lang in langs:
        for key in keys:
            path = options.out / lang / names[key].format(lang=lang)
            check_writable(path)
            if key == "cards" and path.parent.is_dir():  # the cut files and pictures beside the sheets, those there already
                for beside in path.parent.glob(f"{glob.escape(path.stem)}-*"):
                    if beside.suffix in BESIDE:
                        check_writable(beside)


def slug(text: str) -> str:
    """'Ancient Duel' → 'ancient-duel' (file names)."""
    import re

    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "game"


def _run_languages(project, options, run, names, jobs, progress: Progress | None = None, recall: bool = True):
    """Yield (files, warnings) per language, in order: drawn in this process (showing each
    part's own progress: pages drawn, pictures rendered) or, part by part, in `jobs` worker
    processes — the rulebook of a language beside its card sheets, so one language uses every
    core too — and always assembled and written here (a worker never writes a file, so
    stopping one can never leave anything half-written)."""
    project.load_languages(options.langs)  # before any drawing (and any fork)
    with _frozen_heap():
        if jobs <= 1:
            for lang in options.langs:
                drawn = [draw_part(project, options, run, lang, part, progress, recall) for part in options.parts]
                yield write_language(finish_language(project, options, lang, drawn, names), options)
            return
        drawn_parts = _draw_in_workers(project, options, run, jobs, progress, recall)
        try:
            for lang in options.langs:
                drawn = [next(drawn_parts) for _ in options.parts]
                yield write_language(finish_language(project, options, lang, drawn, names), options)
            next(drawn_parts, None)  # every part taken: the pool shuts down (closing it here would kill its workers)
        finally:
            drawn_parts.close()  # a failed write stops the workers too


@contextmanager
def _frozen_heap():
    """Everything made before the drawing (the project, its fonts and locales, ppgen's modules)
    moved out of the garbage collector's sight while the parts are drawn: it lives as long as
    the build, and each full collection walked it again (a tenth of a build's CPU time); forked
    workers also keep its memory shared instead of copying what the collector touches. The
    youngest objects are looked at every 20 000 allocations instead of 700 (the drawing makes
    millions, short-lived: as fast as no collector at all, with the same peak memory at 10× the
    cards). Both given back as they were after the build."""
    import gc

    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(DRAWING_GC_THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


DRAWING_GC_THRESHOLD = 20_000  # allocations between two collections of the youngest objects, while drawing


DRAW_FIRST = ("cards", "rulebook", "boxes")  # the longest parts start first in the workers (the others fill in)


def _draw_in_workers(project, options, run, jobs, progress: Progress | None = None, recall: bool = True):
    """Each part of each language drawn in a worker process (write/workers.py), the longest parts
    started first; yields them in the order of options.langs × options.parts."""
    from .workers import in_workers

    card_ids = [c.id for c in run]
    decks = [(d.title, d.faction, [(c.id, n) for c, n in d.cards]) for d in getattr(run, "decks", ())]
    first = sorted(options.parts, key=lambda part: (part not in DRAW_FIRST, DRAW_FIRST.index(part) if part in DRAW_FIRST else 0))
    calls = {(lang, part): (_draw_in_worker, (options, card_ids, decks, lang, part, run.references, recall))
             for lang in options.langs for part in first}
    order = [(lang, part) for lang in options.langs for part in options.parts]
    with closing(in_workers(project, jobs, calls, order)) as drawn_parts:  # closed here (Ctrl-C, a failed write): the workers end
        for done, ((lang, part), drawn) in enumerate(drawn_parts, 1):
            if progress:
                progress(done, len(order), f"{lang}: {part}")
            yield drawn


def _draw_in_worker(project, options, card_ids: list[str], decks, lang: str, part: str, references: int = 0, recall: bool = True):
    """One part of one language, in a worker process."""
    from ..draw.tuckbox import BoxDeck

    run = PrintRun(project.game.card(i) for i in card_ids)
    run.decks = tuple(BoxDeck(title, faction, tuple((project.game.card(i), n) for i, n in cards)) for title, faction, cards in decks)
    run.references = references
    return draw_part(project, options, run, lang, part, recall=recall)


class PrintRun(list):
    """The card sheets' cards, in printing order (copies side by side), `decks`: the decks
    the tuck boxes are made for (draw.tuckbox.BoxDeck), and `references`: the quick-reference
    cards printed after them (the starter decks get one for each player; a decklist none)."""

    decks: tuple = ()
    references: int = 0


def select_decks(project, options: BuildOptions, box_deck=None) -> tuple:
    """The tuck boxes' decks: the decklist's, or the starter decks of the build's factions; each
    checked against the paper now (a deck too thick for one sheet is refused before any drawing)."""
    from ..draw.tuckbox import box_net, deck_title, place_net
    from .parts import starter_decks

    decks = (box_deck,) if box_deck is not None else tuple(starter_decks(project, options.factions))
    for deck in decks:
        net = box_net(options.card_size, deck.count, options.card_thickness, bool(options.sleeves))
        place_net(net, options.paper, f"'{deck_title(project, options.langs[0], deck)}' ({deck.count} cards)")
    return decks


def select_cards(project, factions: Sequence[str] = (), cards: Sequence[tuple[Card, int]] | None = None) -> list[Card]:
    """The print run: every card repeated for its copies, in deck order (copies side by side)."""
    if cards is not None:
        return [card for card, count in cards for _ in range(count)]
    chosen = list(factions) or list(project.game.factions)
    return [card for faction in chosen for card, count in project.game.starter_deck(faction) for _ in range(count)]


BESIDE = {".svg": "cut-file", ".dxf": "cut-file", ".png": "print-image"}  # files written beside a PDF, by kind


@dataclass
class _Extra:
    """A file written beside a part's PDF (a cut file, a picture to upload): counted as one more file of the part."""

    data: bytes
    name: str = "cut-file"
    pages: int = 0
    cards: int = 0
    faces: int = 0


@dataclass
class DrawnLanguage:
    """One language's PDFs, drawn in memory, with where they go; nothing written yet."""

    lang: str
    outputs: list  # (parts.PartPDF, Path), the assembled set first
    warnings: list
    refuse: bool  # --strict and there are warnings: write nothing
    layouts: dict = field(default_factory=dict)  # part → the layouts it used (kept once the files are written)


@dataclass
class DrawnPart:
    """One part of one language, drawn (parts.PartPDF), the warnings its drawing reported and the
    layouts it used (typeset/memo.py: kept for the next build, write/cache.py)."""

    pdf: object
    warnings: list
    layouts: dict = field(default_factory=dict)


def draw_part(project, options: BuildOptions, run: list[Card], lang: str, part: str, progress: Progress | None = None,
              recall: bool = True) -> DrawnPart:
    """One part of one language, as bytes; `progress` hears of its own steps (n, total, "ja: cards").
    `recall`: the texts the last build of this part laid out are not laid out again (write/cache.py)."""
    from ..typeset.text import LAYOUTS
    from .cache import recall_layouts
    from .parts import PARTS

    report = BuildReport()
    steps = (lambda n, total: progress(n, total, f"{lang}: {part}")) if progress else None
    with fallbacks_reported(project.locale(lang), report), LAYOUTS.recording(recall_layouts(options, lang, part) if recall else None) as used:
        pdf = PARTS[part](project, options, lang, run, report, steps)
        if pdf.in_set and pdf.single_sided and len(options.parts) > 1:  # its blank backs in the set, drawn here (in the worker)
            from .join import Source
            from .parts import blank_page_pdf

            pdf.back = blank_page_pdf(project, lang, Source(pdf.data).pages[0].size, report)
    return DrawnPart(pdf, report.warnings, used)


def finish_language(project, options: BuildOptions, lang: str, drawn: list[DrawnPart], names: dict[str, str]) -> DrawnLanguage:
    """A language's drawn parts and, when there are several, the assembled set, with where each
    file goes; its warnings in the order of its parts."""
    from .parts import set_pdf

    report = BuildReport()
    for part in drawn:
        for w in part.warnings:
            report.warning(w.code, w.message, w.lang, w.subject, w.strict)
    pdfs = [part.pdf for part in drawn]
    in_set = [pdf for pdf in pdfs if pdf.in_set]  # the booklet is printed on its own
    with fallbacks_reported(project.locale(lang), report):
        whole = set_pdf(project, options, lang, in_set, report) if len(in_set) > 1 else None
    folder = options.out / lang
    outputs = [(pdf, folder / names[pdf.name].format(lang=lang)) for pdf in pdfs]
    outputs += [(_Extra(data, BESIDE[Path(suffix).suffix]), path.with_name(path.stem + suffix))
                for pdf, path in list(outputs) for suffix, data in pdf.files]
    if whole is not None:
        outputs.insert(0, (whole, folder / names["set"].format(lang=lang)))
    return DrawnLanguage(lang, outputs, report.warnings, options.strict and bool(report.failing()),
                         {part.pdf.name: part.layouts for part in drawn})


def write_language(drawn: DrawnLanguage, options: BuildOptions | None = None):
    """Write a drawn language's files (each atomically), then keep its parts' layouts for the next
    build into `options.out`; returns (files, warnings)."""
    from .atomic import write_atomic
    from .cache import keep_layouts, stamp_of

    files = []
    for part, path in drawn.outputs:
        stamp = None if drawn.refuse else stamp_of(write_atomic(path, part.data))
        files.append(BuiltFile(drawn.lang, path, part.pages, part.cards, part.faces, len(part.data), not drawn.refuse, part.name,
                               stamp=stamp))
    if options is not None:
        for part, layouts in drawn.layouts.items():
            keep_layouts(options, drawn.lang, part, layouts)
    return files, drawn.warnings


# ── the calibration page ─────────────────────────────────────────────────────
def calibration_file_name(lang: str, options: BuildOptions) -> str:
    """calibrate-ja-letter-short.pdf: the language, the paper and the edge the sheet is flipped on."""
    return f"calibrate-{lang}-{options.paper.key}-{options.duplex}.pdf"


def build_calibration(project, options: BuildOptions, report: BuildReport | None = None) -> BuildResult:
    """The duplex alignment test of every language in `options.langs` (paper, duplex and
    back offset from the options): `<out>/<lang>/calibrate-<lang>-<paper>-<edge>.pdf`, e.g.
    calibrate-en-a4-long.pdf, so a page for another printer setting never overwrites it."""
    from ..impose.calibration import CalibrationText, calibration_sheet, draw_calibration, offset_text
    from .pdf import Document, duplex_hint

    result = BuildResult(report=report if report is not None else BuildReport())
    cal = calibration_sheet(options.paper, options.duplex, options.back_offset)
    for lang in options.langs:
        loc = project.locale(lang)
        body, bold = project.fonts.chain(lang, "body"), project.fonts.chain(lang, "bold")
        with fallbacks_reported(loc, result.report):
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
                where=loc.where,
            )
            doc = Document(body.primary, f"{project.config.game} — {words.title}", lang, f"{options.paper.name}, {flip}",
                           duplex_hint(options.duplex))
            draw_calibration(doc, cal, words, body, bold, result.report, lang)
        path = options.out / lang / calibration_file_name(lang, options)
        if options.strict and result.report.failing(lang):
            result.files.append(BuiltFile(lang, path, doc.pages, 0, 0, 0, written=False))
            continue
        size = doc.save(path)
        result.files.append(BuiltFile(lang, path, doc.pages, 0, 0, size))
    return result
