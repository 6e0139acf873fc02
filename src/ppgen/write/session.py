"""A game kept in memory while a person edits it: what every card face is drawn from, and
what was drawn from it, so that an edit redraws only what it changed.

    session = Session(find_game_dir(), langs="en,ja")     # loaded and checked (or .error: a DataError)
    session.fingerprints["hastati-line", "ja"]             # draw/face_inputs.py: equal exactly when the face prints the same
    update = session.reload({root / "locales/ja.yaml"})    # after an edit: that file read again, the rest kept
    update.fronts                                          # [(card id, lang)] whose face changed: only these are drawn again
    drawn = session.front("hastati-line", "ja")            # laid out and drawn once per fingerprint: .warnings, .pdf
    picture = session.front_picture("hastati-line", "ja", 96)   # rasterised once per fingerprint and resolution
    futures = session.paint_fronts(update.fronts, 96)      # the same for many faces, in worker processes
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
project (`part`), and so are a caller's checks (`twin`).

Pictures are made in worker processes when `workers` > 0 (write/raster.py RasterPool). Forked
by `start_workers` before the caller starts any thread, the workers inherit this session —
the game loaded, its fonts parsed — and lay faces out as well as rasterise them, so the
first load of a gallery uses every core. They see the edits by reading again the files
edited since (`reload` in the worker), and each face they draw is checked against the
fingerprint this process asked for: a worker that read a file in another state (saved
again meanwhile) leaves that face out, and it is drawn here. An edited face is laid out
here (`here=True`: this process has read the edit already) and rasterised in the pool.

With a `store` (write/picture_store.py) the pictures of faces, and what laying each face
out reported (its warnings), are kept on disk by fingerprint: a session started again on
the same game reads them back instead of drawing (`kept`), and lays a face out again only
when a picture it has not kept is asked for.
"""
from __future__ import annotations

import json
import os
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
    pdf: bytes | None  # a PDF with the face on page `page` (faces drawn together share one); None: it could not be drawn (or is `kept`)
    page: int = 0
    error: DataError | None = None  # why it could not be drawn (a character no font has, a broken placeholder)
    kept: bool = False  # read back from the picture store: what laying it out reported, without its PDF
    under: tuple[int, str] | None = None  # the page its underlay is on, and its digest (write/faces.py picture_pdf):
                                          # then `page` is the face without it, to paint over it


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
    inputs: dict = field(default_factory=dict)  # lang → the fingerprint of every file its drawing reads (write/cache.py input_files)
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
    def __init__(self, gamedir, langs: str | None = None, parts=SHOWN_PARTS, workers: int = 0, store=None):
        """Load the game in `gamedir` for `langs` (as `--lang`: "ja,ko", "all"; default: every
        language). A bad `langs` is a UsageError; a file that cannot be read is kept in `error`.
        `workers`: processes making the pictures (0: this one; see start_workers);
        `store`: a write.picture_store.PictureStore keeping them on disk between runs (None: none)."""
        from ..project import open_project

        self.dir = gamedir
        self.workers = workers
        self.store = store
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
        self._raster = None  # the RasterPool (made by start_workers, or at the first picture)
        self._edited_ever: set[str] = set()  # every file edited since the session was loaded (what a forked worker reads again)
        self._here: set[tuple[str, str, str]] = set()  # (card id, lang, fingerprint) a worker could not draw: drawn here
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
            self._edited_ever |= {str(p) for p in self._edited}
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
        inputs = self._part_keys(project, langs)
        parts = {(part, lang): key for lang, key in inputs.items() for part in self.shown_parts}
        update = Update(
            fronts=[k for k, fp in fresh.items() if old.get(k) != fp],
            removed=[k for k in old if k not in fresh],
            parts=[k for k, v in parts.items() if self.part_keys.get(k) != v],
            cards=was is None or project.game is not was.game,
        )
        for key in update.removed:
            self._fronts.pop(key, None)
        self.loaded = Loaded(project, langs, geometry, book, fresh, parts, inputs)
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
        """The face if it is drawn at its fingerprint (in `loaded`, default: now) — or read back
        from the store (`kept`) — else None (nothing is drawn: this never waits)."""
        loaded = loaded or self.loaded
        drawn = self._fronts.get((card_id, lang))
        return drawn if drawn is not None and loaded is not None and drawn.fingerprint == loaded.fingerprints.get((card_id, lang)) else None

    def _laid_out(self, card_id: str, lang: str) -> DrawnFront | None:
        drawn = self.drawn(card_id, lang)
        return drawn if drawn is not None and not drawn.kept else None

    def draw_fronts(self, keys) -> None:
        """Lay out and draw the faces `keys` ((card id, lang)) not laid out at their fingerprint yet,
        those of one language together in one PDF (fonts embedded once)."""
        from .faces import card_fronts, picture_pdf

        with self.lock:
            project = self._require()
            todo: dict[str, list[str]] = {}
            for card_id, lang in keys:
                self.fingerprints[card_id, lang]  # KeyError: not a face of this session
                if self._laid_out(card_id, lang) is None:
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
                    pdf, pages = picture_pdf(project, [face for *_, face in laid_out], self.geometry, lang)
                    for (page, under), (card_id, fp, report, _) in zip(pages, laid_out):
                        drawn = self._fronts[card_id, lang] = DrawnFront(fp, tuple(report.sorted()), pdf, page, under=under)
                        self._keep_record((card_id, lang), drawn, self.geometry)

    def _preflight(self, report, card, lang: str) -> None:
        row = self.book.row(card.id, lang)
        for problem in row.problems if row is not None else ():
            report.warning(problem.code, problem.message, lang=lang, key=card.code, strict=problem.strict)

    def front_picture(self, card_id: str, lang: str, dpi: float, kind: str = "png") -> Picture | None:
        """The face as it is now, as a picture at `dpi` (`kind`: png or jpeg); None when it cannot
        be drawn (`front().error` says why). KeyError for a card or language the session does not show."""
        for _ in range(2):  # (the second time: a worker could not draw it, this process does)
            fp = self.fingerprints[card_id, lang]
            data = self._recall(("front", card_id, lang, fp, dpi, kind))
            if data is None:
                for future in self.paint_fronts([(card_id, lang)], dpi, kind):
                    future.result()
                fp = self.fingerprints[card_id, lang]  # (a reload since may have changed it: the face as it is now)
                data = self._cached(("front", card_id, lang, fp, dpi, kind))
            if data is not None:
                return Picture(data, fp, kind)
            drawn = self.drawn(card_id, lang)
            if drawn is not None and drawn.pdf is None and not drawn.kept:
                return None  # it cannot be drawn
        return None

    def paint_fronts(self, keys, dpi: float, kind: str = "png", here: bool = False) -> list:
        """Make the pictures at `dpi` of the faces `keys` that are not made yet; the futures are
        done once the pictures are kept. A face the store has is read back; one laid out already
        is rasterised in the pool; the others are laid out and rasterised in a worker when the
        workers were forked with the game (start_workers), else laid out here first. `here`:
        lay them out in this process (an edit: a worker would have to read the file again first)."""
        with self.lock:
            futures, mine, theirs = [], [], {}
            forked = self._raster is not None and self._raster.forked
            for key in keys:
                fp = self.fingerprints[key]  # KeyError: not a face of this session
                name = ("front", *key, fp, dpi, kind)
                made = self._made(name)
                if made is not None:
                    futures += [made] if made is not True else []
                    continue
                if self._recall(name) is not None and self._restore(key, fp):
                    continue
                if here or not forked or self._laid_out(*key) is not None or (*key, fp) in self._here:
                    mine.append(key)
                else:
                    theirs.setdefault(key[1], []).append(key)
            futures += self._paint_here(mine, dpi, kind)
            futures += [self._paint_there(lang, faces, dpi, kind) for lang, faces in theirs.items()]
            return futures

    def kept(self, keys, dpi: float, kind: str = "png") -> list:
        """Read back from the store the pictures at `dpi` of the faces `keys`, and what laying
        them out reported; the faces it has not kept (all of them without a store)."""
        with self.lock:
            missing = []
            for key in keys:
                fp = self.fingerprints[key]
                if self._recall(("front", *key, fp, dpi, kind)) is None or not self._restore(key, fp):
                    missing.append(key)
            return missing

    def _paint_here(self, keys, dpi: float, kind: str) -> list:
        """Lay out `keys` in this process (those not laid out yet) and rasterise them in the pool."""
        from .raster import RasterSize

        self.draw_fronts(keys)
        size = RasterSize.at(self.geometry.width, self.geometry.height, dpi)
        futures, by_pdf = [], {}
        for card_id, lang in keys:
            drawn = self._fronts[card_id, lang]
            name = ("front", card_id, lang, drawn.fingerprint, dpi, kind)
            made = self._made(name) if drawn.pdf is not None else True
            if made is not None:
                futures += [made] if made is not True else []
                continue
            by_pdf.setdefault(id(drawn.pdf), (drawn.pdf, []))[1].append((drawn.page, size, name, drawn.under))
        return futures + [self._rasterise(pdf, pages, kind) for pdf, pages in by_pdf.values()]

    def _paint_there(self, lang: str, keys, dpi: float, kind: str):
        """Lay out and rasterise `keys` (of `lang`) in a forked worker; a future done when what it
        drew is kept. A face it leaves out is drawn here next time it is asked for."""
        from concurrent.futures import Future

        fingerprints = [self.fingerprints[key] for key in keys]
        names = [("front", *key, fp, dpi, kind) for key, fp in zip(keys, fingerprints)]
        geometry = self.geometry
        kept: Future = Future()

        def landed(done):
            try:
                drawn, pictures = done.result()
            except BaseException:  # the worker failed (a bug, or it died): this process draws them, and says why
                drawn, pictures = {}, {}
            try:
                for key, fp in zip(keys, fingerprints):
                    front = drawn.get(key[0])
                    if front is None or front.fingerprint != fp:
                        self._here.add((*key, fp))
                        continue
                    if self.fingerprints.get(key) == fp and self._laid_out(*key) is None and geometry == self.geometry:
                        self._fronts[key] = front
                    self._keep_record(key, front, geometry)
                for key, name in zip(keys, names):
                    if key[0] in pictures:
                        self._keep(name, pictures[key[0]], geometry)
            finally:
                with self._cache_lock:
                    for name in names:
                        self._painting.pop(name, None)
                kept.set_result(None)

        raw = self._raster.run(_paint_in_worker, tuple(sorted(self._edited_ever)), lang, [card_id for card_id, _ in keys],
                               fingerprints, dpi, kind)
        with self._cache_lock:
            for name in names:
                self._painting[name] = kept
        raw.add_done_callback(landed)
        return kept

    def _made(self, name):
        """True when the picture `name` is kept in memory, the future of its making when it is
        being made, else None."""
        with self._cache_lock:
            return True if name in self._pictures else self._painting.get(name)

    def _cached(self, name) -> bytes | None:
        with self._cache_lock:
            return self._pictures.get(name)

    def _recall(self, name) -> bytes | None:
        """A picture kept in memory, or in the store (then kept in memory too)."""
        data = self._cached(name)
        if data is None and self.store is not None and name[0] == "front":
            data = self.store.get(self._store_key(name, self.geometry), name[-1])
            if data is not None:
                with self._cache_lock:
                    self._pictures.put(name, data)
        return data

    def _keep(self, name, data: bytes, geometry) -> None:
        """Keep a picture (made at `geometry`) in memory — unless the card size changed since —
        and a face's in the store."""
        if geometry == self.geometry:
            with self._cache_lock:
                self._pictures.put(name, data)
        if self.store is not None and name[0] == "front":
            self.store.put(self._store_key(name, geometry), name[-1], data)

    def _restore(self, key, fp: str) -> bool:
        """The face is drawn at `fp`, or what laying it out reported is read back from the store."""
        drawn = self._fronts.get(key)
        if drawn is not None and drawn.fingerprint == fp:
            return True
        found = self.store.get(self._record_key(key, fp, self.geometry), "json") if self.store is not None else None
        try:
            warnings = tuple(BuildWarning(*w) for w in json.loads(found)["warnings"])
        except (TypeError, ValueError, KeyError):
            return False
        self._fronts[key] = DrawnFront(fp, warnings, None, kept=True)
        return True

    def _keep_record(self, key, drawn: DrawnFront, geometry) -> None:
        """What laying a face out reported, in the store (not a face that cannot be drawn: its
        error names the line of its text, which can move while the text stays)."""
        if self.store is not None and drawn.error is None and not drawn.kept:
            record = {"warnings": [[w.lang, w.code, w.subject, w.message, w.strict] for w in drawn.warnings]}
            self.store.put(self._record_key(key, drawn.fingerprint, geometry), "json", json.dumps(record, ensure_ascii=False).encode())

    def _store_key(self, name, geometry) -> str:
        _, card_id, lang, fp, dpi, kind = name
        return self.store.key("front", card_id, lang, fp, geometry.width, geometry.height, dpi, kind)

    def _record_key(self, key, fp: str, geometry) -> str:
        return self.store.key("record", *key, fp, geometry.width, geometry.height)

    def _rasterise(self, pdf: bytes, pages, kind: str = "png"):
        """Rasterise `pages` [(page index, RasterSize, cache name, underlay or None)] of one PDF
        in the pool; a future done when every picture is kept under its name."""
        from concurrent.futures import Future

        kept: Future = Future()
        names = [name for _, _, name, _ in pages]
        geometry = self.geometry

        def keep(done):
            try:
                pngs = done.result()
            except BaseException as exc:
                with self._cache_lock:
                    for name in names:
                        self._painting.pop(name, None)
                kept.set_exception(exc)
                return
            for name, png in zip(names, pngs):
                self._keep(name, png, geometry)
            with self._cache_lock:
                for name in names:
                    self._painting.pop(name, None)
            kept.set_result(None)

        raw = self._pool().submit(pdf, [(page, size, under) for page, size, _, under in pages], kind)
        with self._cache_lock:
            for name in names:
                self._painting[name] = kept
        raw.add_done_callback(keep)
        return kept

    def _pool(self):
        """The RasterPool (spawned workers, if start_workers did not fork them)."""
        from .raster import RasterPool

        if self._raster is None:
            self._raster = RasterPool(self.workers)
        return self._raster

    def start_workers(self, fonts: bool = True) -> None:
        """Start the workers now, not at the first picture. Where the system can, they are forked
        — call this before starting any thread — and inherit the session as it is: they lay faces
        out too. `fonts`: parse every font of the languages first (0.8 s for four languages; once
        here rather than in each worker), when faces will be laid out (no store has them)."""
        global _INHERITED, _PARENT
        from .raster import RasterPool

        if self.workers <= 0:
            return
        for lang in self.langs if fonts else ():
            self.load_fonts(lang)
        if self._raster is not None:
            self._raster.close()
        _INHERITED, _PARENT = self, os.getpid()
        self._raster = RasterPool(self.workers, fork=True)
        self._raster.start()

    def load_fonts(self, lang: str) -> None:
        """Parse the fonts of `lang` now, rather than when a face of it is first laid out here."""
        with self.lock:
            try:
                self._require().fonts.load([lang])
            except PpgenError:
                pass  # a font that cannot be used: the drawing says so, face by face

    def close(self) -> None:
        """Stop the workers."""
        if self._raster is not None:
            self._raster.close()

    # ── the other parts ──────────────────────────────────────────────────
    def part(self, name: str, lang: str) -> DrawnPart:
        """A part (rulebook, mats, score-sheet) in a language as it is now, drawn once per
        content of its files — beside the cards (`beside`), so that a face to draw (an edit)
        never waits for a rulebook. KeyError for a part or language the session does not show."""
        with self._parts_lock:
            with self.lock:
                self._require()
                key = self.part_keys[name, lang]
                drawn = self._parts.get((name, lang))
                if drawn is not None and drawn.key == key:
                    return drawn
            drawn = self._parts[name, lang] = self.beside(draw_part, lang, name, lang, key)
            return drawn

    def twin(self):
        """The project as it is now, for work beside the drawing (Project.twin): checks, errata."""
        with self.lock:
            return self._require().twin()

    def beside(self, function, lang: str, *args):
        """`function(project, *args)` (a module's function) on the game as it is now, beside the
        drawing of faces: in a forked worker when there are — the longer work (a language's
        checks, a rulebook) then takes nothing of this process, which answers the pages — on
        the worker's copy of the game brought up to date with the edits (checked by the
        fingerprint of the files `lang` is drawn from); else, or when the worker read the
        files in another state (saved again since), here on a twin of the project."""
        with self.lock:
            project = self._require()
            key = self.loaded.inputs.get(lang)
            forked = self._raster is not None and self._raster.forked
            edited = tuple(sorted(self._edited_ever))
        if forked:
            found = self._raster.run(_beside_in_worker, edited, lang, key, function, args).result()
            if found is not None:
                return found[0]
        return function(project.twin(), *args)

    def drawn_part(self, name: str, lang: str, loaded: Loaded | None = None) -> DrawnPart | None:
        """The part if it is drawn from its files as they are (in `loaded`), else None (never waits)."""
        loaded = loaded or self.loaded
        drawn = self._parts.get((name, lang))
        return drawn if drawn is not None and loaded is not None and drawn.key == loaded.part_keys.get((name, lang)) else None

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
            future = self._rasterise(drawn.pdf, [(page, RasterSize.at(*drawn.pages[page], dpi), cache_name, None)])
        if future is not None:
            future.result()
        return Picture(self._cached(cache_name), drawn.key)


_INHERITED: Session | None = None  # the session forked workers inherit (start_workers)
_PARENT = 0  # the process that forked them


def _paint_in_worker(edited: tuple[str, ...], lang: str, ids: list[str], fingerprints: list[str], dpi: float, kind: str):
    """In a forked worker: the faces `ids` of `lang` laid out as the session that forked it
    draws them — brought up to date with the files `edited` since, when it does not reach the
    fingerprints asked for — and rasterised at `dpi`: ({card id: DrawnFront}, {card id: picture}).
    A face whose fingerprint it does not reach (its file saved again since) is left out."""
    from .raster import RasterSize, render_pictures

    s = _INHERITED
    if s is None or os.getpid() == _PARENT:  # (the pool failed and runs this in the session's own process)
        return {}, {}
    s.store = None  # (what it draws is kept by the session that asked)
    wanted = {(card_id, lang): fp for card_id, fp in zip(ids, fingerprints)}
    if edited and any(s.fingerprints.get(key) != fp for key, fp in wanted.items()):
        s.reload({Path(p) for p in edited})
    keys = [key for key, fp in wanted.items() if s.fingerprints.get(key) == fp]
    s.draw_fronts(keys)
    drawn = {card_id: s._fronts[card_id, lang] for card_id, lang in keys}
    s._fronts.clear()  # (the server keeps them)
    size = RasterSize.at(s.geometry.width, s.geometry.height, dpi)
    by_pdf: dict = {}
    for card_id, front in drawn.items():
        if front.pdf is not None:
            by_pdf.setdefault(id(front.pdf), (front.pdf, []))[1].append((card_id, front.page, front.under))
    pictures = {}
    for pdf, pages in by_pdf.values():
        for (card_id, *_), data in zip(pages, render_pictures(pdf, [(page, size, under) for _, page, under in pages], kind)):
            pictures[card_id] = data
    return drawn, pictures


def _beside_in_worker(edited: tuple[str, ...], lang: str, key: str, function, args):
    """In a forked worker: (function(project, *args),) on the game as the session that forked it
    has it now (the files `lang` is drawn from at fingerprint `key`), brought up to date with the
    files `edited` since; None when this process does not read them so (saved again since)."""
    s = _INHERITED
    if s is None or os.getpid() == _PARENT:
        return None
    if edited and s.loaded is not None and s.loaded.inputs.get(lang) != key:
        s.reload({Path(p) for p in edited})
    if s.error is not None or s.loaded is None or s.loaded.inputs.get(lang) != key:
        return None
    return (function(s.project.twin(), *args),)


def draw_part(project, name: str, lang: str, key: str) -> DrawnPart:
    """A part of the set (rulebook, mats, score-sheet) in `lang`, drawn as the build draws it."""
    from .build import BuildOptions
    from .parts import PARTS
    from .raster import page_sizes

    report = BuildReport()
    try:
        options = BuildOptions.resolve(project, lang=lang, parts=[name])
        with fallbacks_reported(project.locale(lang), report):
            data = PARTS[name](project, options, lang, [], report).data
    except PpgenError as exc:
        return DrawnPart(name, lang, key, None, (), tuple(report.sorted()), as_data_error(exc))
    return DrawnPart(name, lang, key, data, page_sizes(data), tuple(report.sorted()))


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
