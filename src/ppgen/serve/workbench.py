"""The workbench: what `ppgen serve` shows, kept up to date while the game's files are edited.

    bench = Workbench(gamedir, langs="en,ja", since="HEAD~1")
    bench.start()                      # the painter: draws what is missing or changed, in the background
    bench.cards()                      # the gallery: every card, per language its picture URLs, warnings, state
    bench.card("hastati-line")         # a card's page: its data, every text with its file:line, warnings, art
    bench.problems()                   # i18n check, build warnings, data errors, each with a link
    bench.parts()                      # rulebook, mats, score sheet: their pages as pictures
    bench.apply({path, ...})           # files edited (the watcher calls this): reload, redraw, tell the pages
    bench.events.subscribe()           # what the open pages hear: state, faces, problems, parts
    bench.stop()

It holds a write.session.Session (the project, fingerprints, faces and pictures in memory)
and adds what the pages show beside the drawing: the translators' checks (i18n/checks.py),
the text states (i18n/states.py), the comparison with an earlier version (errata/compare.py).
The web server (http.py) only calls these methods and sends what they return.

The painter works in this order: the faces an edit changed, in chunks, each chunk published
(`faces`), laid out in this process (it has read the edit) and rasterised by the workers;
every face not drawn yet (the first load), in blocks of one language — the gallery's first
cards first, in every language, so that the first screen fills soonest — laid out and
rasterised by the workers, forked with the game loaded (write/session.py), a few blocks at a
time so that an edit's pictures never queue behind many; then, once the edits have paused
for QUIET_SECONDS and the pages have stopped asking for card pictures as long, the
fonts of each language when the gallery was read back from the store (nothing was laid out
in this process yet, and the next edit will be), the translators' checks of the languages
edited (`problems`), the errata (`cards`) and the parts whose files changed (`parts`), which
take up to a second each — in a worker process, when there are (Session.beside) — so that
neither an edit nor a page loading the gallery waits behind them. Between two pieces of work
it lets go of the session's drawing, so a page asking for a picture waits at most one piece.
What the pages read (state, cards, problems) is read without waiting for the drawing at all.

The faces' pictures (and what laying them out reported) are kept on disk by fingerprint
(write/picture_store.py, the user's cache folder): a workbench started again on the same
game reads them back before it forks its workers, and the gallery shows at once.
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import wait as wait_for
from urllib.parse import quote

from ..errors import DataError
from ..units import MM
from ..write.raster import RasterSize
from ..write.session import Session

SIZES = {"thumb": 96, "print": 192, "zoom": 300}  # dpi: the gallery; print size at 2 px per CSS pixel; zoomed
KINDS = {"thumb": "jpeg", "print": "png", "zoom": "png"}  # thumbnails: quick to encode and small; the card page: exact
PAGE_DPI = 100  # the other parts' pages
CHUNK = 8  # faces an edit changed, laid out at a time by the painter
BLOCK = 16  # cards of one language drawn at a time on the first load, in one PDF (backgrounds, frames and fonts
            # are drawn once per PDF: a block of 16 costs half what 16 alone do)
FIRST_BLOCK = 6  # the first cards' block: smaller, so that the first screen of the gallery shows soonest
MAX_PAINTING = 3  # blocks (or edited chunks) being made at once: the workers' queue stays short, an edit waits little
QUIET_SECONDS = 0.5  # checks, errata and parts are redone once the edits pause this long
EDIT_SIZES = ("thumb", "print")  # made at once for an edited face (the gallery and the card page show them)
PART_TITLES = {"rulebook": "Rulebook", "mats": "Player mats", "score-sheet": "Score sheet"}
PART_KEYS = (("rules.", "rulebook"), ("mat.", "mats"), ("sheet.", "score-sheet"))  # where a locale key is printed
STATUSES = ("warnings", "untranslated", "stale", "overflow", "low-res", "changed", "error")
LOW_RES = ("art-soft", "art-blurry")
KIND_NAMES = (("unit", "kind.unit"), ("commander", "label.commander"), ("doctrine", "kind.doctrine"),
              ("terrain", "label.terrain"), ("tactic", "kind.tactic"))  # the kind filter: a kind, or what a card is at a glance


class Workbench:
    def __init__(self, gamedir, langs: str | None = None, since: str | None = None, prerender: bool = True, workers: int = 0,
                 keep: bool = True):
        """A UsageError for a bad `langs` or `since`; a file that cannot be read is shown, not raised.
        `prerender`: draw every face and part in the background (False: only what is asked for);
        `workers`: processes making pictures (0: this one), forked here — make the workbench
        before starting any thread; `keep`: keep the faces' pictures on disk (the user's cache
        folder, write/picture_store.py), so that the next start shows them at once."""
        from ..write.picture_store import PictureStore

        self.session = Session(gamedir, langs, workers=workers, store=PictureStore() if keep else None)
        from .events import Broker

        self.events = Broker()
        self.since = since
        self.earlier = None
        if since:
            from ..project import open_project
            from ..read.revision import open_reference

            self.earlier = open_project(open_reference(gamedir, since))
        self.prerender = prerender
        self.on_update = None  # called with (update, changed paths) after each reload (the command tells the terminal)
        self.failures: list[BaseException] = []  # what went wrong in the painter (a bug in ppgen)
        self._wake = threading.Condition()  # the painter sleeps on it; apply() and stop() wake it
        self._asked = 0  # edits applied
        self._edited_at = -QUIET_SECONDS  # when the last edit was applied (time.monotonic)
        self._shown_at = -QUIET_SECONDS  # when a page last asked for a card's picture
        self._idle_at = -1  # the edits applied when the painter last found nothing to do
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._paint, name="ppgen-painter", daemon=True)
        self._pending: list[tuple[str, str]] = []  # faces an edit changed: drawn first
        self._painting: list[tuple[list, list]] = []  # (futures, faces) being rasterised, oldest first
        self._recheck: set[str] = set(self.session.langs)  # languages whose i18n checks are out of date
        self._findings: dict[str, list] = {}  # lang → i18n findings ("" : the glossary's)
        self._by_key: dict[tuple[str, str], list] = {}  # (lang, key) → findings
        self._errata = None  # errata.compare.Errata of the current project against `earlier`
        self._errata_due = bool(since)
        self._running: set[str] = set()  # the checks ("i18n") or comparison ("errata") under way
        self._lock = threading.Lock()  # guards the workbench's own records (the session has its own lock)
        self._marks: dict[tuple[str, str], tuple] = {}  # (card id, lang) → the status and findings the pages were told
        self._publish_marks()  # (none yet: this records what the first load shows)
        s = self.session
        missing = s.kept(self._gallery_order(), SIZES["thumb"], KINDS["thumb"]) if s.loaded is not None else []
        s.start_workers(fonts=bool(missing))  # (the fonts are parsed before the fork when the workers will lay faces out)
        self._fonts_due = set() if missing else set(s.langs)  # else parsed once the painter is idle: an edit is laid out here

    # ── running ─────────────────────────────────────────────────────────
    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._wake:
            self._stop.set()
            self._wake.notify_all()
        self.events.close()
        if self._thread.is_alive():
            self._thread.join(5)
        self.session.close()

    def apply(self, changed) -> None:
        """Files of the game were edited: read them again and tell the open pages what changed."""
        before = self.session.loaded
        update = self.session.reload(changed)
        if self.on_update is not None:
            self.on_update(update, changed)
        if not update.changed:
            return
        after = self.session.loaded
        listed = update.error is None and (update.cards or before is None or set(after.fingerprints) != set(before.fingerprints))
        with self._lock:
            if update.error is None:
                done = set(self._pending)
                self._pending += [key for key in update.fronts if key not in done]
                self._recheck |= set(update.languages if update.languages is not None else self.session.langs)
                self._errata_due = self.earlier is not None
        self.events.publish("state", self.state())
        if listed:  # cards added, removed or changed in cards.yaml (faction, kind, order), or languages: the gallery is read again
            self.events.publish("cards", {"generation": self.session.generation, "reason": "cards"})
        if update.error is None:
            self._paint_edited()  # here, at once: the painter may be busy with the first load or a check
            self._publish_marks()  # faces not drawn again whose state changed (an English edit: stale translations)
        with self._wake:
            self._asked += 1
            self._edited_at = time.monotonic()
            self._wake.notify_all()

    def _paint_edited(self) -> None:
        """Draw the first faces an edit changed (the rest: the painter), and publish them."""
        s = self.session
        with self._lock:
            chunk, self._pending = self._pending[:CHUNK], self._pending[CHUNK:]
        chunk = [k for k in chunk if k in s.fingerprints]
        if chunk:
            futures = [f for size in EDIT_SIZES for f in s.paint_fronts(chunk, SIZES[size], KINDS[size], here=True)]
            wait_for(futures)
            self._publish_faces(chunk)

    @property
    def idle(self) -> bool:
        """The painter has nothing left to do for the edits applied so far."""
        return self._idle_at == self._asked

    def wait_idle(self, timeout: float) -> bool:
        """Wait until the painter has nothing left to do (tests, the benchmark); False on timeout."""
        with self._wake:
            return self._wake.wait_for(lambda: self.idle or self._stop.is_set(), timeout)

    def _paint(self) -> None:
        import traceback

        while not self._stop.is_set():
            with self._wake:
                asked = self._asked
            try:
                later = self._step()
            except DataError:  # the game changed under the painter and cannot be read: the state says so
                later = None
            except Exception as exc:  # a bug in ppgen: say so once, keep serving what can be served
                if not self.failures:
                    traceback.print_exc()
                self.failures.append(exc)
                later = None
            if later == 0:
                continue
            with self._wake:
                if self._asked == asked and not self._stop.is_set():
                    if later is None:
                        self._idle_at = asked
                        self._wake.notify_all()
                    self._wake.wait(later)

    def _step(self) -> float | None:
        """Do one piece of work, the most urgent first. 0: there may be more; a number: there is
        work for when the game has been quiet that long (seconds); None: there is none."""
        s = self.session
        if s.error is not None:
            return 0 if self._published(wait=True) else None
        self._published(wait=len(self._painting) >= MAX_PAINTING)
        with self._lock:
            chunk, self._pending = self._pending[:CHUNK], self._pending[CHUNK:]
            chunk = [k for k in chunk if k in s.fingerprints]
            recheck = sorted(self._recheck)
        if chunk:
            self._painting.append(([f for size in EDIT_SIZES for f in s.paint_fronts(chunk, SIZES[size], KINDS[size], here=True)], chunk))
            return 0
        block = self._next_block() if self.prerender else []
        if block:
            self._painting.append((s.paint_fronts(block, SIZES["thumb"], KINDS["thumb"]), block))
            return 0
        if self._published(wait=True):
            return 0
        parts = [(part, lang) for lang in s.langs for part in s.shown_parts if s.drawn_part(part, lang) is None] if self.prerender else []
        fonts = sorted(self._fonts_due & set(s.langs)) if self.prerender else []
        if not (recheck or self._errata_due or parts or fonts):
            return None
        quiet = QUIET_SECONDS - (time.monotonic() - max(self._edited_at, self._shown_at))
        if quiet > 0:  # the longer work waits until the edits pause, and the pages have their pictures: neither waits for it
            return quiet
        if fonts:  # the gallery was read back from the store: nothing was laid out here yet, and an edit will be
            self._fonts_due.discard(fonts[0])
            s.load_fonts(fonts[0])
        elif recheck:
            self._check(recheck[0])
            self._publish_marks()
        elif self._errata_due:
            self._compare()
        else:
            part, lang = parts[0]
            s.part(part, lang)
            self.events.publish("parts", {"generation": s.generation, "lang": lang, "part": part})
        return 0

    def _published(self, wait: bool) -> bool:
        """Publish the faces whose pictures are made (`wait`: for the oldest, if none is); True if any was."""
        if wait and self._painting and not all(f.done() for f in self._painting[0][0]):
            wait_for(self._painting[0][0])
        done = [(futures, keys) for futures, keys in self._painting if all(f.done() for f in futures)]
        self._painting = [item for item in self._painting if item not in done]
        for futures, keys in done:
            for future in futures:
                if future.exception() is not None:
                    raise future.exception()
            self._publish_faces(keys)
        return bool(done)

    def _publish_faces(self, keys, view=None) -> None:
        s = self.session
        view = view or s.loaded
        entries = []
        for card_id, lang in keys:
            if (card_id, lang) in view.fingerprints:  # else gone since
                entries.append({"id": card_id, **self._face(view, view.project.game.card(card_id), lang)})
        with self._lock:
            self._marks.update({(e["id"], e["lang"]): marks(e) for e in entries})
        self.events.publish("faces", {"generation": s.generation, "faces": entries})

    def _publish_marks(self) -> None:
        """Publish the faces whose marks (status, findings) changed though their picture did not:
        a translation gone stale when its English was edited, the findings of a check. Faces
        the pages were not told of yet (cards added) are left to the painter."""
        s = self.session
        view = s.loaded
        if view is None or s.error is not None:
            return
        now = {(card.id, lang): marks(self._face(view, card, lang)) for card in view.project.game.cards for lang in view.langs}
        with self._lock:
            changed = [key for key, m in now.items() if key in self._marks and self._marks[key] != m]
            self._marks = {**self._marks, **{key: m for key, m in now.items() if key not in self._marks}}
        if changed:
            self._publish_faces(changed, view)

    def _next_block(self) -> list[tuple[str, str]]:
        """The next faces to draw on the first load: a block of cards of one language (`blocks`),
        of its faces those not drawn yet (nor being drawn), the gallery's first cards first."""
        s = self.session
        view = s.loaded
        busy = {key for _, keys in self._painting for key in keys}
        cards = view.project.game.cards
        for start, end in blocks(len(cards)):
            for lang in view.langs:
                block = [(c.id, lang) for c in cards[start:end] if s.drawn(c.id, lang, view) is None and (c.id, lang) not in busy]
                if block:
                    return block
        return []

    def _gallery_order(self) -> list[tuple[str, str]]:
        view = self.session.loaded
        return [(card.id, lang) for card in view.project.game.cards for lang in view.langs]

    # ── checks ───────────────────────────────────────────────────────────
    def _check(self, lang: str) -> None:
        s = self.session
        with self._lock:
            self._recheck.discard(lang)  # before the game is taken: an edit read during the check asks for another
            self._running.add("i18n")
        try:
            findings = s.beside(check_findings, lang, lang)  # beside the drawing: an edit does not wait for it
        except DataError:
            with self._lock:
                self._recheck.add(lang)
            raise
        finally:
            with self._lock:
                self._running.discard("i18n")
        with self._lock:
            self._findings[lang] = [f for f in findings if f.lang == lang]
            self._findings[""] = [f for f in findings if f.lang != lang]
            by_key: dict[tuple[str, str], list] = {}
            for findings in self._findings.values():
                for f in findings:
                    if f.key:
                        by_key.setdefault((f.lang, f.key), []).append(f)
            self._by_key = by_key  # replaced whole: a reader (not under the lock) never sees it half made
        self.events.publish("problems", {"generation": s.generation, "lang": lang})

    def _compare(self) -> None:
        from ..errata.compare import compare

        s = self.session
        with self._lock:
            self._errata_due = False  # (as for the checks: an edit read during the comparison asks for another)
            self._running.add("errata")
        try:
            project, langs = s.twin(), s.langs
            errata = compare(self.earlier, project, langs, since=self.since)
        except DataError:
            with self._lock:
                self._errata_due = True
            raise
        finally:
            with self._lock:
                self._running.discard("errata")
        with self._lock:
            self._errata = errata
        self.events.publish("cards", {"generation": s.generation, "reason": "errata"})

    def _changes(self, card_id: str, lang: str):
        errata = self._errata
        if errata is None:
            return None
        for language in errata.languages:
            if language.lang == lang:
                return next((c for c in language.cards if c.id == card_id), None)
        return None

    # ── what the pages show ──────────────────────────────────────────────
    # Read without waiting for the drawing: each answer takes the session's current reading
    # (`loaded`) once, and looks texts up without recording anything (Locale.peek).
    def state(self) -> dict:
        s = self.session
        view = s.loaded
        out = {
            "generation": s.generation,
            "game": view.project.config.game if view else None,
            "root": str(s.dir.root),
            "since": self.since,
            "parts": list(s.shown_parts),
            "error": self._error(),
            "languages": [],
            "card": None,
            "factions": [],
            "kinds": [],
            "progress": {"faces": len(view.fingerprints) if view else 0,
                         "drawn": sum(1 for k in view.fingerprints if s.drawn(*k, view)) if view else 0,
                         "pending": self._pending_checks(view)},
        }
        if view is None:
            return out
        project, first = view.project, view.langs[0]
        g = view.geometry
        out["languages"] = [{"code": lang, "name": project.config.languages[lang].name} for lang in view.langs]
        out["card"] = {"width_mm": round(g.trim_w / MM, 2), "height_mm": round(g.trim_h / MM, 2),
                       "sizes": {name: list(RasterSize.at(g.width, g.height, dpi).pixels) for name, dpi in SIZES.items()}}
        out["factions"] = [{"id": f.id, "code": f.code, "colour": f.colour,
                            "names": {lang: project.locale(lang).peek(f"faction.{f.id}") for lang in view.langs}}
                           for f in project.game.factions.values()]
        out["kinds"] = [{"id": kind, "name": project.locale(first).peek(key)} for kind, key in KIND_NAMES]
        return out

    def _error(self) -> list[dict] | None:
        error = self.session.error
        return [problem_dict("data", p) for p in error.problems] if error else None

    def _face(self, view, card, lang: str) -> dict:
        """One card in one language, as the gallery shows it."""
        fp = view.fingerprints[card.id, lang]
        drawn = self.session.drawn(card.id, lang, view)
        warnings = [warning_dict(w, view.project, card=card.id) for w in drawn.warnings] if drawn else []
        error = [problem_dict("build", p) for p in drawn.error.problems] if drawn and drawn.error else None
        states = self._text_states(view, card, lang)
        findings = [f for key in states for f in self._by_key.get((lang, key), ())]
        codes = {w["code"] for w in warnings}
        status = {
            "warnings": bool(warnings or findings or error),
            "untranslated": any(v in ("missing", "untranslated") for v in states.values()),
            "stale": any(v == "stale" for v in states.values()),
            "overflow": "overflow" in codes,
            "low-res": bool(codes & set(LOW_RES)),
            "changed": self._changes(card.id, lang) is not None,
            "error": bool(error),
        }
        return {
            "lang": lang,
            "name": view.project.locale(lang).peek(f"card.{card.id}.name"),
            "fingerprint": fp,
            "pictures": {size: picture_url(lang, card.id, size, fp) for size in SIZES},
            "drawn": drawn is not None,
            "warnings": warnings,
            "findings": len(findings),
            "error": error,
            "status": [name for name in STATUSES if status[name]],
        }

    def _text_states(self, view, card, lang: str) -> dict[str, str]:
        """{locale key: state} of every text the face prints: translated, missing, stale,
        untranslated (i18n/states.py); "source" in the source language. Worked out once per reading."""
        from ..draw.card_front import printed_keys
        from ..i18n.states import entry_state

        memo = view.memo.setdefault("text-states", {})
        found = memo.get((card.id, lang))
        if found is None:
            project = view.project
            src = project.config.source_language
            source, loc, glossary = project.locale(src), project.locale(lang), project.glossary
            found = {}
            for k in printed_keys(card):
                english = source.entries.get(k)
                found[k] = "source" if lang == src else entry_state(english.text if english else "", loc.entries.get(k), glossary)
            memo[card.id, lang] = found
        return found

    def cards(self) -> dict:
        """The gallery: every card with, per language, its picture URLs, warnings and state."""
        from ..read.names import normalise

        s = self.session
        view = s.loaded
        out = {"generation": s.generation, "error": self._error(), "cards": []}
        if view is None:
            return out
        for card in view.project.game.cards:
            faces = {lang: self._face(view, card, lang) for lang in view.langs}
            names = [f["name"] for f in faces.values()]
            out["cards"].append({
                "id": card.id, "code": card.code, "faction": card.faction, "kind": card.kind,
                "look": "commander" if card.commander else "terrain" if card.terrain else card.kind,
                "search": " ".join(dict.fromkeys(normalise(t) for t in (card.code, card.id, *names))),
                "faces": faces,
            })
        return out

    def card(self, card_id: str) -> dict | None:
        """A card's page: its data, and per language its texts (key, file:line, English), warnings,
        art preflight and changes. Its faces are laid out first if they are not yet."""
        s = self.session
        view = s.loaded
        if view is not None and not view.project.game.has_card(card_id):  # its collector code (ROM-02), as the cards print it
            card_id = next((c.id for c in view.project.game.cards if c.code.lower() == card_id.lower()), card_id)
        if view is None or not view.project.game.has_card(card_id):
            return None
        missing = [(card_id, lang) for lang in view.langs if s.drawn(card_id, lang, view) is None]
        if missing:
            s.draw_fronts(missing)  # its warnings are known once it is laid out
            view = s.loaded
            if not view.project.game.has_card(card_id):
                return None
        project = view.project
        card = project.game.card(card_id)
        file, line, col = project.game.where(card, "id")
        data = {
            "id": card.id, "code": card.code, "faction": card.faction, "kind": card.kind, "copies": card.copies,
            "level": card.level, "atk": card.atk, "def": card.def_, "energy": card.energy,
            "type": card.type, "traits": list(card.traits), "commander": card.commander, "terrain": card.terrain,
            "bonus": [b.__dict__ for b in card.bonus], "revised": card.revised,
            "where": f"{file}:{line}:{col}" if line else file,
        }
        faces = {}
        for lang in view.langs:
            face = self._face(view, card, lang)
            face["texts"] = self._card_texts(view, card, lang)
            row = view.book.row(card.id, lang)
            face["art"] = view.book.entry(project, row) if row is not None else None
            face["art_picture"] = art_url(lang, card.id) if row is not None and row.picture is not None else None
            face["problems"] = [finding_dict(f, project) for k in self._text_states(view, card, lang)
                                for f in self._by_key.get((lang, k), ())]
            change = self._changes(card.id, lang)
            face["changes"] = change.as_dict() if change is not None else None
            faces[lang] = face
        return {"generation": s.generation, "error": self._error(), "since": self.since, "card": data, "faces": faces}

    def _card_texts(self, view, card, lang: str) -> list[dict]:
        """Every text the face prints: its key, where it is written (locales/LANG.yaml:line, or
        the English entry it falls back to), its state, the text and its English source."""
        project = view.project
        source, loc = project.locale(project.config.source_language), project.locale(lang)
        texts = []
        for key, state in self._text_states(view, card, lang).items():
            file, line, col = place(loc, key)
            english = source.entries.get(key)
            entry = loc.entries.get(key) if loc.is_translated(key) else english
            texts.append({"key": key, "state": state, "text": entry.text if entry else None,
                          "english": english.text if english else None, "where": f"{file}:{line}" if line else file,
                          "file": file, "line": line, "col": col,
                          "note": loc.entries[key].note if key in loc.entries else None})
        return texts

    def problems(self) -> dict:
        """Everything to fix: data errors (the game cannot be read), the translators' checks,
        the warnings of drawing the faces and parts, the errata's — each with a link."""
        s = self.session
        view = s.loaded
        error = self._error()
        out = {"generation": s.generation, "error": error, "problems": [], "pending": self._pending_checks(view)}
        if error is not None or view is None:
            out["problems"] = error or []
            return out
        project = view.project
        with self._lock:
            findings = [f for lang in ("", *view.langs) for f in self._findings.get(lang, ())]
        out["problems"] += [finding_dict(f, project) for f in findings]
        for card in project.game.cards:
            for lang in view.langs:
                drawn = s.drawn(card.id, lang, view)
                if drawn is None:
                    continue
                out["problems"] += [warning_dict(w, project, card=card.id) for w in drawn.warnings]
                if drawn.error:
                    out["problems"] += [problem_dict("build", p, lang=lang, card=card.id) for p in drawn.error.problems]
        for file, why in view.book.unused:
            out["problems"].append({"source": "build", "severity": "warning", "code": "art-unused", "file": file, "line": 0,
                                    "col": 0, "where": file, "lang": "", "key": "", "strict": True, "card": None, "part": None,
                                    "link": None, "message": f"{file} {why}"})
        for lang in view.langs:
            for part in s.shown_parts:
                drawn = s.drawn_part(part, lang, view)
                if drawn is not None:
                    out["problems"] += [warning_dict(w, project, part=part) for w in drawn.warnings]
                    if drawn.error:
                        out["problems"] += [problem_dict("build", p, lang=lang, part=part) for p in drawn.error.problems]
        if self._errata is not None:
            out["problems"] += [dict(warning_dict(w, project), source="errata") for w in self._errata.report.sorted()]
        return out

    def _pending_checks(self, view) -> list[str]:
        """What is not known yet: faces not laid out, checks not run, parts not drawn."""
        s = self.session
        pending = []
        if view is not None and any(s.drawn(*k, view) is None for k in view.fingerprints):
            pending.append("cards")
        if self._recheck or "i18n" in self._running:
            pending.append("i18n")
        if self._errata_due or "errata" in self._running:
            pending.append("errata")
        if view is not None and any(s.drawn_part(p, lang, view) is None for p in s.shown_parts for lang in view.langs):
            pending.append("parts")
        return pending

    def parts(self, lang: str | None = None, part: str | None = None) -> dict:
        """The other parts as pages (drawn now if they are not yet: up to a second each)."""
        s = self.session
        view = s.loaded
        out = {"generation": s.generation, "error": self._error(), "parts": []}
        if view is None:
            return out
        for language in view.langs:
            for name in s.shown_parts:
                if (lang and language != lang) or (part and name != part):
                    continue
                drawn = s.part(name, language)
                out["parts"].append({
                    "part": name, "lang": language, "title": PART_TITLES.get(name, name), "key": drawn.key,
                    "pages": [{"picture": part_url(language, name, i, drawn.key), "width_mm": round(w / MM, 1),
                               "height_mm": round(h / MM, 1)} for i, (w, h) in enumerate(drawn.pages)],
                    "warnings": [warning_dict(w, view.project, part=name) for w in drawn.warnings],
                    "error": [problem_dict("build", p, lang=language, part=name) for p in drawn.error.problems] if drawn.error else None,
                })
        return out

    # ── pictures ─────────────────────────────────────────────────────────
    def front_picture(self, lang: str, card_id: str, size: str):
        """write.session.Picture of a face at a named size; KeyError: no such card, language or size.
        A thumbnail not made yet is made with the others of its block (`blocks`: the painter's;
        the page is about to ask for them, and one PDF for all is a fraction of the work of one
        each — and a block the painter sent already is not sent again, nor split)."""
        s = self.session
        view = s.loaded
        self._shown_at = time.monotonic()
        if size == "thumb" and view is not None and s.drawn(card_id, lang, view) is None and (card_id, lang) in view.fingerprints:
            cards = view.project.game.cards
            at = next(i for i, c in enumerate(cards) if c.id == card_id)
            start, end = next((a, b) for a, b in blocks(len(cards)) if a <= at < b)
            s.paint_fronts([(c.id, lang) for c in cards[start:end] if s.drawn(c.id, lang, view) is None], SIZES[size], KINDS[size])
        return s.front_picture(card_id, lang, SIZES[size], KINDS[size])

    def part_picture(self, lang: str, part: str, page: int):
        return self.session.part_picture(part, lang, page, PAGE_DPI)

    def art_file(self, lang: str, card_id: str):
        """The picture file a card prints in a language, as found by the art preflight (its
        path and format), or None: only these files of the game are ever served."""
        view = self.session.loaded
        row = view.book.row(card_id, lang) if view is not None else None
        if row is None or row.picture is None:
            return None
        return row.source.path, row.picture.format


def blocks(count: int):
    """The blocks of cards (start, end) the gallery's faces are drawn in, a language at a time:
    the first FIRST_BLOCK cards (the first screen), then BLOCK at a time."""
    start, size = 0, FIRST_BLOCK
    while start < count:
        yield start, min(count, start + size)
        start, size = start + size, BLOCK


def check_findings(project, lang: str) -> list:
    """What `ppgen i18n check` finds in `lang` (i18n/checks.py Finding), run beside the drawing
    (Session.beside: in a worker process, when there are)."""
    from ..i18n import checks

    return list(checks.run_checks(project, [lang]).findings)


# ── the JSON shapes ──────────────────────────────────────────────────────────
def marks(face: dict) -> tuple:
    """What a gallery tile shows of a face besides its picture."""
    return tuple(face["status"]), face["findings"], face["name"]


def picture_url(lang: str, card_id: str, size: str, fingerprint: str) -> str:
    suffix = "jpg" if KINDS[size] == "jpeg" else "png"
    return f"/pictures/cards/{quote(lang)}/{quote(card_id)}/{size}.{suffix}?v={fingerprint}"


def part_url(lang: str, part: str, page: int, key: str) -> str:
    return f"/pictures/parts/{quote(lang)}/{quote(part)}/{page + 1}.png?v={key}"


def art_url(lang: str, card_id: str) -> str:
    return f"/art/{quote(lang)}/{quote(card_id)}"


def place(loc, key: str) -> tuple[str, int, int]:
    """Where a translator fixes the text of `key`: its entry in this language's file (one marked
    needs-translation too), else the English entry it falls back to."""
    if key in loc.entries:
        return (loc.file, *loc.position(key))
    return loc.locate(key)


def link_for(key: str | None, lang: str, project, card: str | None = None, part: str | None = None) -> tuple[str | None, str | None, str | None]:
    """(card id, part, link) a problem points to: its card's page or its part's pages."""
    if card is None and part is None and key:
        if key.startswith("card.") and project is not None and project.game.has_card(key.split(".")[1]):
            card = key.split(".")[1]
        else:
            part = next((name for prefix, name in PART_KEYS if key.startswith(prefix)), None)
    if card:
        return card, None, f"#/card/{card}" + (f"?lang={lang}" if lang else "")
    if part:
        return None, part, f"#/parts/{lang}/{part}" if lang else "#/parts"
    return None, None, None


def problem_dict(source: str, problem, lang: str = "", key: str = "", card: str | None = None, part: str | None = None, project=None) -> dict:
    card, part, link = link_for(key, lang, project, card, part)
    return {"source": source, **problem.as_dict(), "where": problem.where(), "lang": lang, "key": key or "",
            "card": card, "part": part, "link": link}


def finding_dict(finding, project) -> dict:
    """An i18n check finding (i18n/checks.py Finding)."""
    return problem_dict("i18n", finding.problem, finding.lang, finding.key or "", project=project)


def warning_dict(warning, project=None, card: str | None = None, part: str | None = None) -> dict:
    """A warning of drawing (write/report.py BuildWarning), placed at its text's locale line when
    its subject is a locale key."""
    file, line, col = "", 0, 0
    if project is not None and warning.lang and "." in warning.subject:
        try:
            file, line, col = place(project.locale(warning.lang), warning.subject)
        except (DataError, KeyError):
            pass
    card_id, part, link = link_for(warning.subject, warning.lang, project, card, part)
    where = f"{file}:{line}:{col}" if line else file
    return {"source": "build", "severity": "warning", "code": warning.code, "message": warning.message, "file": file,
            "line": line, "col": col, "where": where, "lang": warning.lang, "key": warning.subject, "strict": warning.strict,
            "card": card_id, "part": part, "link": link}
