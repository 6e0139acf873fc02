"""Watching the game directory: the files a person edits, through watchfiles (the operating
system's notifications — inotify, FSEvents, ReadDirectoryChangesW — not a polling loop).

    watcher = Watcher(gamedir, on_change)   # on_change(set of absolute paths), in the watcher's thread
    watcher.start()
    watcher.stop()

Watched: cards.yaml, ppgen.yaml, locales/, templates/ and art/ (also when art/ is made
later). Not watched: out/ (what ppgen writes), fonts/ (a font file is read once per process:
restart `ppgen serve` after changing one), and what editors leave beside a file (swap and
backup files, .git). Changes are handed over in groups: watchfiles waits STEP_MS after the
last change before it yields, so an editor's save (write a temporary file, rename it over
the old one) is one change.
"""
from __future__ import annotations

import threading
from pathlib import Path

from ..read.gamedir import INPUT_SUFFIXES

STEP_MS = 50  # quiet time after the last change before a group of changes is handed over
MAX_GROUP_MS = 1600  # the longest a stream of changes is held back
READY_MS = 200  # the watch yields nothing this often: how soon `ready` is known


class GameFilter:
    """The changes that matter to the workbench: the game's own files, not editors' leftovers."""

    def __init__(self, gamedir):
        from watchfiles import DefaultFilter

        self._default = DefaultFilter()
        d = gamedir
        self.files = {d.cards, d.config}
        self.folders = (d.locales, d.templates, d.art)

    def __call__(self, change, path: str) -> bool:
        if not self._default(change, path):
            return False
        p = Path(path)
        if p in self.files or p in self.folders:
            return True
        # a file of a kind the game reads (`sed -i`'s sedXXXXXX, an editor's 4913 are not), or a folder
        return any(folder in p.parents for folder in self.folders) and (p.suffix.lower() in INPUT_SUFFIXES or p.is_dir())


class Watcher:
    def __init__(self, gamedir, on_change):
        self.dir = gamedir
        self.on_change = on_change
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ppgen-watch", daemon=True)
        self.ready = threading.Event()  # set once the watch is in place
        self.failure: BaseException | None = None

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        from watchfiles import watch

        watched = GameFilter(self.dir)
        try:
            for changes in watch(self.dir.root, watch_filter=watched, stop_event=self._stop, step=STEP_MS,
                                 debounce=MAX_GROUP_MS, rust_timeout=READY_MS, yield_on_timeout=True, raise_interrupt=False):
                self.ready.set()
                if changes:
                    self.on_change({Path(path) for _, path in changes})
        except Exception as exc:  # the watch itself failed (no more inotify watches): say so, keep serving
            self.failure = exc
        finally:
            self.ready.set()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
