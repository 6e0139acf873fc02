"""A game kept in memory while a person edits it: what every card face is drawn from, and
what was drawn from it, so that an edit redraws only what it changed.

    session = Session(find_game_dir(), langs="en,ja")     # loaded and checked (or .error: a DataError)
    session.fingerprints["hastati-line", "ja"]             # draw/face_inputs.py: equal exactly when the face prints the same
    update = session.reload({root / "locales/ja.yaml"})    # after an edit: that file read again, the rest kept
    update.fronts                                          # [(card id, lang)] whose face changed: only these are drawn again
    drawn = session.front("hastati-line", "ja")            # laid out and drawn once per fingerprint: .warnings, .pdf
    picture = session.front_picture("hastati-line", "ja", 96)   # rasterised once per fingerprint and resolution
    futures = session.paint_fronts(update.fronts, 96)      # the same for many faces, rasterised in worker processes
    part = session.part("rulebook", "ja")                  # drawn once per content of the files it is drawn from
    picture = session.part_picture("rulebook", "ja", 0, 100)

The project stays loaded between edits (`Project.reloaded` reads again only the files that
changed; fonts, templates, glossary and the other locales are kept), and so do the faces
laid out and the pictures made from them, keyed by what they depend on. The drawing is the
build's own (write/faces.py, write/parts.py) and the pictures are rasterised by
write/raster.py, as `ppgen preview` does. A file that cannot be read leaves the last good
state in place and puts its problems in `error`; the next reload that succeeds clears it.

ReportLab and a project's caches are not made for threads: one lock (`lock`) guards the
reading and the drawing of faces, and `reload`, `front`, `draw_fronts` and `paint_fronts`
take it. What only looks (`loaded` and the properties over it, `drawn`, `drawn_part`) never
waits: a reload replaces `loaded` whole. A part is drawn beside the faces, on a twin of the
project (`part`), and so are a caller's checks (`twin`). Pictures are rasterised by a
RasterPool (write/raster.py): in worker processes when `workers` > 0 (PDFium draws one page
at a time in a process), so the next faces are laid out while the last ones are rasterised.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, PpgenError, Problem, UsageError
from .report import BuildReport, BuildWarning, fallbacks_reported

SHOWN_PARTS = ("rulebook", "mats", "score-sheet")  # the parts besides the cards, as pages
PICTURE_CACHE_BYTES = 256 * 2**20  # pictures kept, least recently used dropped first


@dataclass(frozen=True)
class DrawnFront:
    """A card face laid out and drawn at one fingerprint."""

    fingerprint: str
    warnings: tuple[BuildWarning, ...]  # laying it out (fallback, shrunk, overflow, orphan …) and its picture's preflight
    pdf: bytes | None  # a PDF with the face on page `page` (faces drawn together share one); None: it could not be drawn
    page: int = 0
    error: DataError | None = None  # why it could not be drawn (a character no font has, a broken placeholder)


@dataclass(frozen=True)
class DrawnPart:
    """A part of the set (rulebook, mats, score sheet) drawn in one language."""

    name: str
    lang: str
    key: str  # the fingerprint of the files it was drawn from
    pdf: bytes | None
    pages: tuple[tuple[float, float], ...]  # each page's width and height in points
    warnings: tuple[BuildWarning, ...]
    error: DataError | None = None


@dataclass(frozen=True)
class Picture:
    data: bytes
    fingerprint: str  # of what it shows: a URL naming it may be cached for good
    kind: str = "png"  # png | jpeg (write/raster.py picture_bytes)


@dataclass(frozen=True)
class Loaded:
    """One reading of the game, everything the session shows is drawn from: replaced whole by a
    reload, so that whoever holds one (a page being answered) sees one consistent game."""

    project: object  # project.Project
    langs: tuple[str, ...]
    geometry: object  # draw.faces.CardGeometry: the build's card size, no bleed
    book: object  # write.art.ArtBook: every card's picture in every language, checked and prepared
    fingerprints: dict  # (card id, lang) → the fingerprint of its face
    part_keys: dict  # (part, lang) → the fingerprint of the files it is drawn from
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # what readers work out from it, once


@dataclass
class Update:
    """What one reload changed."""

    fronts: list[tuple[str, str]] = field(default_factory=list)  # (card id, lang) whose face changed, new ones included
    removed: list[tuple[str, str]] = field(default_factory=list)  # faces of cards (or languages) that are gone
    parts: list[tuple[str, str]] = field(default_factory=list)  # (part, lang) whose files changed
    cards: bool = False  # the card database was read again (numbers, copies, cards added or removed)
    languages: set[str] | None = None  # the languages whose texts can have changed (None: every language)
    error: DataError | None = None  # the game cannot be read now; the last good state stays
    recovered: bool = False  # it could not be read before this reload, and can now
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.fronts or self.removed or self.parts or self.cards or self.error or self.recovered)


class Session:
    def __init__(self, gamedir, langs: str | None = None, parts=SHOWN_PARTS, workers: int = 0):
        """Load the game in `gamedir` for `langs` (as `--lang`: "ja,ko", "all"; default: every
        language). A bad `langs` is a UsageError; a file that cannot be read is kept in `error`.
        `workers`: processes rasterising the pictures (0: this one)."""
        from ..project import open_project
        from .raster import RasterPool

        self.dir = gamedir
        self.lock = threading.RLock()
        self.shown_parts = tuple(parts)
        self._asked = langs or "all"
        self.loaded: Loaded | None = None  # the last reading of the game without error
        self.error: DataError | None = None
        self.generation = 0  # counts the reloads that changed anything
        self._edited: set[Path] = set()  # files edited since `project` was read
        self._fronts: dict[tuple[str, str], DrawnFront] = {}
        self._parts: dict[tuple[str, str], DrawnPart] = {}
        self._pictures = PictureCache(PICTURE_CACHE_BYTES)
        self._painting: dict = {}  # picture name → the future of its rasterising
        self._cache_lock = threading.Lock()  # guards the pictures and _painting (not the drawing)
        self._parts_lock = threading.Lock()  # one part drawn at a time (beside the cards: not under `lock`)
        self._raster = RasterPool(workers)
        try:
            project = open_project(gamedir)
            self._adopt(project, self._prepare(project), None)
        except DataError as exc:
            self.error = exc

    # the current reading (a reader that needs several of these at once takes `loaded` once)
    project = property(lambda self: self.loaded.project if self.loaded else None)
    langs = property(lambda self: self.loaded.langs if self.loaded else ())
    geometry = property(lambda self: self.loaded.geometry if self.loaded else None)
    book = property(lambda self: self.loaded.book if self.loaded else None)
    fingerprints = property(lambda self: self.loaded.fingerprints if self.loaded else {})
    part_keys = property(lambda self: self.loaded.part_keys if self.loaded else {})

    # ── loading ──────────────────────────────────────────────────────────
    def _prepare(self, project):
        """Read and check everything the session shows (DataError with every problem's place)."""
        from ..draw.faces import CardGeometry
        from ..read.rulebook import load_structure
        from ..read.styles import mat_style, rulebook_style
        from ..read.templates import load_card_template
        from .art import art_book
        from .build import BuildOptions, resolve_languages

        langs = resolve_languages(project, self._asked)
        options = BuildOptions.resolve(project)
        geometry = CardGeometry.from_mm(options.card_size.width, options.card_size.height)
        for lang in langs:
            project.locale(lang)
        load_card_template(project)
        _ = project.glossary  # read and checked now (the card text is set with its phrases)
        if self.shown_parts:
            load_structure(project)
            rulebook_style(project)
            mat_style(project)
        book = art_book(project, project.game.cards, langs, geometry, options.art_max_dpi)
        return langs, geometry, book

    def reload(self, changed) -> Update:
        """Read again the files `changed` (absolute paths in the game directory) and every file
        edited since the last reload that succeeded; tell what that changed."""
        from ..project import open_project

        with self.lock:
            start = time.perf_counter()
            self._edited |= {Path(p).resolve() for p in changed}
            failed_before = self.error is not None
            try:
                project = self.project.reloaded(self._edited) if self.project is not None else open_project(self.dir)
                prepared = self._prepare(project)
            except (DataError, UsageError) as exc:
                error = exc if isinstance(exc, DataError) else DataError([Problem(self.dir.show(self.dir.root), 0, 0, str(exc), "usage")])
                same = failed_before and str(error) == str(self.error)
                self.error = error
                if not same:
                    self.generation += 1
                return Update(error=error, seconds=time.perf_counter() - start)
            only = self._languages_edited(project)
            update = self._adopt(project, prepared, only)
            update.languages, update.recovered = only, failed_before
            self.error = None
            self._edited.clear()
            if update.changed:
                self.generation += 1
            update.seconds = time.perf_counter() - start
            return update

    def _languages_edited(self, project) -> set[str] | None:
        """The languages whose faces can have changed: those whose locale file alone was edited
        (another language's file changes none of theirs); None: every language."""
        locales = {project.dir.locale(lang): lang for lang in project.languages if lang != project.config.source_language}
        if all(path in locales for path in self._edited):
            return {locales[path] for path in self._edited}
        return None

    def _adopt(self, project, prepared, only: set[str] | None) -> Update:
        from ..draw.face_inputs import front_fingerprint

        langs, geometry, book = prepared
        old, was = self.fingerprints, self.project
        if geometry != self.geometry:  # another card size: nothing drawn before is of use
            self._fronts.clear()
            self._pictures.clear()
            self._parts.clear()
            only = None
        fresh = {}
        for lang in langs:
            for card in project.game.cards:
                key = (card.id, lang)
                if only is None or lang in only or key not in old:
                    fresh[key] = front_fingerprint(project, card, lang)
                else:
                    fresh[key] = old[key]
        parts = {(part, lang): key for lang, key in self._part_keys(project, langs).items() for part in self.shown_parts}
        update = Update(
            fronts=[k for k, fp in fresh.items() if old.get(k) != fp],
            removed=[k for k in old if k not in fresh],
            parts=[k for k, v in parts.items() if self.part_keys.get(k) != v],
            cards=was is None or project.game is not was.game,
        )
        for key in update.removed:
            self._fronts.pop(key, None)
        self.loaded = Loaded(project, langs, geometry, book, fresh, parts)
        return update

    def _part_keys(self, project, langs) -> dict[str, str]:
        """Per language, the fingerprint of every file its parts are drawn from — the same files
        a re-run of `ppgen build` checks (write/cache.py `input_files`), by signature."""
        from ..draw.face_inputs import fingerprint
        from .cache import input_files

        d = project.dir
        return {lang: fingerprint({d.show(path): d.signature(path) for path in input_files(project, lang)}) for lang in langs}

    def _require(self):
        if self.project is None:
            raise self.error or DataError([])
        return self.project

    # ── card faces ───────────────────────────────────────────────────────
    def front(self, card_id: str, lang: str) -> DrawnFront:
        """The face of a card in a language as it is now, laid out and drawn (once per fingerprint).
        KeyError for a card or language the session does not show."""
        with self.lock:
            self.draw_fronts([(card_id, lang)])
            return self._fronts[card_id, lang]

    def drawn(self, card_id: str, lang: str, loaded: Loaded | None = None) -> DrawnFront | None:
        """The face if it is drawn at its fingerprint (in `loaded`, default: now), else None
        (nothing is drawn: this never waits)."""
        loaded = loaded or self.loaded
        drawn = self._fronts.get((card_id, lang))
        return drawn if drawn is not None and loaded is not None and drawn.fingerprint == loaded.fingerprints.get((card_id, lang)) else None

    def draw_fronts(self, keys) -> None:
        """Lay out and draw the faces `keys` ((card id, lang)) not drawn at their fingerprint yet,
        those of one language together in one PDF (fonts embedded once)."""
        from .faces import card_fronts, faces_pdf

        with self.lock:
            project = self._require()
            todo: dict[str, list[str]] = {}
            for card_id, lang in keys:
                self.fingerprints[card_id, lang]  # KeyError: not a face of this session
                if self.drawn(card_id, lang) is None:
                    todo.setdefault(lang, []).append(card_id)
            for lang, ids in todo.items():
                laid_out = []
                for card_id in dict.fromkeys(ids):
                    card, fp = project.game.card(card_id), self.fingerprints[card_id, lang]
                    report = BuildReport()
                    self._preflight(report, card, lang)
                    try:
                        with fallbacks_reported(project.locale(lang), report):
                            face = card_fronts(project, [card], lang, self.geometry, report, self.book)[0]
                    except PpgenError as exc:  # a character no font has, broken markup or placeholders
                        self._fronts[card_id, lang] = DrawnFront(fp, tuple(report.sorted()), None, error=as_data_error(exc))
                        continue
                    laid_out.append((card_id, fp, report, face))
                if laid_out:
                    pdf = faces_pdf(project, [face for *_, face in laid_out], self.geometry, lang)
                    for page, (card_id, fp, report, _) in enumerate(laid_out):
                        self._fronts[card_id, lang] = DrawnFront(fp, tuple(report.sorted()), pdf, page)

    def _preflight(self, report, card, lang: str) -> None:
        row = self.book.row(card.id, lang)
        for problem in row.problems if row is not None else ():
            report.warning(problem.code, problem.message, lang=lang, key=card.code, strict=problem.strict)

    def front_picture(self, card_id: str, lang: str, dpi: float, kind: str = "png") -> Picture | None:
        """The face as it is now, as a picture at `dpi` (`kind`: png or jpeg); None when it cannot
        be drawn (`front().error` says why). KeyError for a card or language the session does not show."""
        fp = self.fingerprints[card_id, lang]
        data = self._cached(("front", card_id, lang, fp, dpi, kind))
        if data is None:
            for future in self.paint_fronts([(card_id, lang)], dpi, kind):
                future.result()
            fp = self._fronts[card_id, lang].fingerprint  # (a reload since may have changed it: the face as it is now)
            data = self._cached(("front", card_id, lang, fp, dpi, kind))
        return Picture(data, fp, kind) if data is not None else None

    def paint_fronts(self, keys, dpi: float, kind: str = "png") -> list:
        """Make the pictures at `dpi` of the faces `keys` that are not made yet: lay them out and
        draw them now, rasterise them in the pool. The futures are done once the pictures are kept."""
        from .raster import RasterSize

        with self.lock:
            keys = list(keys)
            self.draw_fronts(keys)
            size = RasterSize.at(self.geometry.width, self.geometry.height, dpi)
            futures, by_pdf = [], {}
            for card_id, lang in keys:
                drawn = self._fronts[card_id, lang]
                name = ("front", card_id, lang, drawn.fingerprint, dpi, kind)
                if drawn.pdf is None:
                    continue
                with self._cache_lock:
                    if name in self._pictures:
                        continue
                    if name in self._painting:
                        futures.append(self._painting[name])
                        continue
                by_pdf.setdefault(id(drawn.pdf), (drawn.pdf, []))[1].append((drawn.page, size, name))
            futures += [self._rasterise(pdf, pages, kind) for pdf, pages in by_pdf.values()]
            return futures

    def _cached(self, name) -> bytes | None:
        with self._cache_lock:
            return self._pictures.get(name)

    def _rasterise(self, pdf: bytes, pages, kind: str = "png"):
        """Rasterise `pages` [(page index, RasterSize, cache name)] of one PDF in the pool; a
        future done when every picture is kept under its name."""
        from concurrent.futures import Future

        kept: Future = Future()
        names = [name for *_, name in pages]

        def keep(done):
            try:
                pngs = done.result()
            except BaseException as exc:
                with self._cache_lock:
                    for name in names:
                        self._painting.pop(name, None)
                kept.set_exception(exc)
                return
            with self._cache_lock:
                for name, png in zip(names, pngs):
                    self._pictures.put(name, png)
                    self._painting.pop(name, None)
            kept.set_result(None)

        raw = self._raster.submit(pdf, [(page, size) for page, size, _ in pages], kind)
        with self._cache_lock:
            for name in names:
                self._painting[name] = kept
        raw.add_done_callback(keep)
        return kept

    def start_workers(self) -> None:
        """Start the raster workers now, not at the first picture (spawning one takes a moment)."""
        self._raster.warm_up()

    def close(self) -> None:
        """Stop the raster workers."""
        self._raster.close()

    # ── the other parts ──────────────────────────────────────────────────
    def part(self, name: str, lang: str) -> DrawnPart:
        """A part (rulebook, mats, score-sheet) in a language as it is now, drawn once per
        content of its files — beside the cards, on a twin of the project (Project.twin), so
        that a face to draw (an edit) never waits for a rulebook. KeyError for a part or language
        the session does not show."""
        with self._parts_lock:
            with self.lock:
                self._require()
                key = self.part_keys[name, lang]
                drawn = self._parts.get((name, lang))
                if drawn is not None and drawn.key == key:
                    return drawn
                project = self.project.twin()
            drawn = self._parts[name, lang] = self._draw_part(project, name, lang, key)
            return drawn

    def twin(self):
        """The project as it is now, for work beside the drawing (Project.twin): checks, errata."""
        with self.lock:
            return self._require().twin()

    def drawn_part(self, name: str, lang: str, loaded: Loaded | None = None) -> DrawnPart | None:
        """The part if it is drawn from its files as they are (in `loaded`), else None (never waits)."""
        loaded = loaded or self.loaded
        drawn = self._parts.get((name, lang))
        return drawn if drawn is not None and loaded is not None and drawn.key == loaded.part_keys.get((name, lang)) else None

    def _draw_part(self, project, name: str, lang: str, key: str) -> DrawnPart:
        from .build import BuildOptions
        from .parts import PARTS

        report = BuildReport()
        try:
            options = BuildOptions.resolve(project, lang=lang, parts=[name])
            with fallbacks_reported(project.locale(lang), report):
                data = PARTS[name](project, options, lang, [], report).data
        except PpgenError as exc:
            return DrawnPart(name, lang, key, None, (), tuple(report.sorted()), as_data_error(exc))
        return DrawnPart(name, lang, key, data, self._raster.page_sizes(data), tuple(report.sorted()))

    def part_picture(self, name: str, lang: str, page: int, dpi: float) -> Picture | None:
        """Page `page` (from 0) of a part as a PNG at `dpi`; None when there is no such page."""
        from .raster import RasterSize

        drawn = self.part(name, lang)
        if drawn.pdf is None or not 0 <= page < len(drawn.pages):
            return None
        cache_name = ("part", name, lang, drawn.key, page, dpi)
        with self._cache_lock:
            future = None if cache_name in self._pictures else self._painting.get(cache_name)
            missing = future is None and cache_name not in self._pictures
        if missing:
            future = self._rasterise(drawn.pdf, [(page, RasterSize.at(*drawn.pages[page], dpi), cache_name)])
        if future is not None:
            future.result()
        return Picture(self._cached(cache_name), drawn.key)


def as_data_error(exc: PpgenError) -> DataError:
    """A problem met while drawing (typeset's GlyphError, MarkupError: they carry the `where` of
    their text, locales/ja.yaml:12:3 key) as a DataError with its place."""
    if isinstance(exc, DataError):
        return exc
    where = getattr(exc, "where", None)
    message = str(exc)
    if getattr(where, "file", None):
        message = message.removeprefix(f"{where}: ")
        return DataError([Problem(where.file, where.line, where.col, message, type(exc).__name__.removesuffix("Error").lower())])
    return DataError([Problem("", 0, 0, message, "drawing")])


class PictureCache:
    """PNG bytes by name, at most `limit` bytes in all: the least recently used go first."""

    def __init__(self, limit: int):
        self.limit = limit
        self.size = 0
        self._items: OrderedDict = OrderedDict()

    def __contains__(self, name) -> bool:
        return name in self._items

    def get(self, name):
        data = self._items.get(name)
        if data is not None:
            self._items.move_to_end(name)
        return data

    def put(self, name, data: bytes) -> None:
        if name in self._items:
            self.size -= len(self._items.pop(name))
        self._items[name] = data
        self.size += len(data)
        while self.size > self.limit and len(self._items) > 1:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped)

    def clear(self) -> None:
        self._items.clear()
        self.size = 0
