"""Layouts made once: in this process, and across builds.

A layout (typeset/text.py `layout`, `fit`) depends only on its text, its style (fonts, size,
leading, alignment, the glossary's phrases…) and its box. The same one is asked for again and
again: the rulebook measures a paragraph before it places it and lays the whole book out twice
(the contents page needs the page numbers), a table measures its cells before it draws them,
and the same words recur on cards and pages. `Memo.get` makes each once per process and shares
it (a layout is never changed once made).

Across builds, the build keeps the layouts each part used (write/cache.py: a file per language
and part under `<out>/.ppgen-cache/`) and hands them back to the next build of that part as
`recalled` (digest → the layout as plain data): a layout not made yet in this process is then
taken from there when its digest — a hash of everything it depends on, stable from one process
to the next — is there. So a build after one card's text changed lays out that card's texts
(and the rulebook paragraphs that print them) and nothing else; the PDF is then drawn from the
layouts as before, byte for byte the same as a build that laid everything out afresh.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Callable


class Memo:
    """Layouts by key, made once; bounded (the oldest go first: a workbench runs for hours)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._entries: dict = {}  # key → [layout, its digest or None until asked]
        self.recalled: dict = {}  # digest → plain layout: what an earlier build of this part used
        self.used: dict | None = None  # digest → plain layout: what the part being drawn uses (None: not noted)
        self.counts = {"made": 0, "recalled": 0}

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        """Forget every layout made in this process, and the counts (as a new process starts)."""
        self._entries.clear()
        self.counts = {"made": 0, "recalled": 0}

    def get(self, key, make: Callable, digest: Callable[[], str], plain: Callable, restore: Callable):
        """The layout of `key`: already made in this process, else recalled (by `digest()`),
        else `make()`. While a part is drawn (`recording`), each one it uses is noted."""
        entry = self._entries.get(key)
        if entry is None:
            entry = [None, None]
            if self.recalled:
                entry[1] = digest()
                stored = self.recalled.get(entry[1])
                if stored is not None:
                    entry[0] = restore(stored)
                    self.counts["recalled"] += 1
            if entry[0] is None:
                entry[0] = make()
                self.counts["made"] += 1
            if len(self._entries) >= self.limit:
                del self._entries[next(iter(self._entries))]
            self._entries[key] = entry
        if self.used is not None:
            if entry[1] is None:
                entry[1] = digest()
            if entry[1] not in self.used:
                self.used[entry[1]] = plain(entry[0])
        return entry[0]

    @contextmanager
    def recording(self, recalled: dict | None = None):
        """Within the block, layouts not made yet are taken from `recalled` where it has them,
        and every layout the block uses is noted in the dict it yields (digest → plain layout)."""
        self.recalled, self.used = recalled or {}, {}
        try:
            yield self.used
        finally:
            self.recalled, self.used = {}, None
