"""Pictures kept on disk between runs, by the content they show, so that a restarted
`ppgen serve` shows the gallery at once instead of drawing every face again.

    store = PictureStore()                         # <user cache folder>/pictures (read/cache.py cache_folder)
    key = store.key("front", card.id, "ja", fingerprint, width, height, 96, "jpeg")
    store.put(key, "jpg", data)                    # written to a temporary file and renamed: atomic
    store.get(key, "jpg")                          # the bytes, or None

A key is a digest of what the picture is drawn from (a face's fingerprint, draw/face_inputs.py,
and its card size, resolution and kind) and of ppgen's own code and libraries (read/cache.py
`code_digest`): another version of ppgen never reads what this one kept, so an entry is never
stale, only unused. Many servers (and a build) may share the folder: each file is written
whole under a temporary name and renamed, so a reader sees all of a file or none of it; a
file another process deleted is simply missing. The folder is bounded: past `limit` bytes
the least recently used files are deleted (a file read is marked used) until a quarter is
free. Nothing here is precious: deleting the folder is always safe, and a folder that cannot
be written (read-only, full) only means pictures are drawn again.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path

STORE_BYTES = 256 * 2**20  # the folder's size at most (the full gallery's thumbnails: ~10 MB)
LEFTOVER_SECONDS = 3600  # a temporary file older than this was left by a process that died while writing


class PictureStore:
    def __init__(self, folder: Path | None = None, limit: int = STORE_BYTES):
        from ..read.cache import cache_folder

        self.folder = Path(folder) if folder is not None else cache_folder() / "pictures"
        self.limit = limit
        self._size: int | None = None  # bytes in the folder as last counted, plus what this process wrote since
        self._lock = threading.Lock()

    @staticmethod
    def key(*parts) -> str:
        """The name of what `parts` describe (strings and numbers), for this version of ppgen."""
        from ..read.cache import code_digest

        h = hashlib.sha256(code_digest().encode())
        for part in parts:
            h.update(repr(part).encode("utf-8") + b"\0")
        return h.hexdigest()[:40]

    def _path(self, key: str, suffix: str) -> Path:
        return self.folder / key[:2] / f"{key}.{suffix}"

    def get(self, key: str, suffix: str) -> bytes | None:
        path = self._path(key, suffix)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            os.utime(path)  # used now: the last to be pruned
        except OSError:
            pass
        return data

    def put(self, key: str, suffix: str, data: bytes) -> None:
        from ..errors import UsageError
        from .atomic import write_atomic

        try:
            write_atomic(self._path(key, suffix), data, durable=False)  # its folder made again if deleted meanwhile
        except (OSError, UsageError):
            return  # a folder that cannot be written: the picture is drawn again next time
        with self._lock:
            if self._size is None:
                self._size = self._files_size()
            self._size += len(data)
            over = self._size > self.limit
        if over:
            self.prune()

    def prune(self) -> None:
        """Delete the least recently used files until the folder holds at most three quarters
        of `limit`, and the temporary files of writers that died."""
        entries = []
        now = time.time()
        for path, stat in self._files():
            if path.name.startswith("."):
                if now - stat.st_mtime > LEFTOVER_SECONDS:
                    _unlink(path)
                continue
            entries.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in entries)
        entries.sort()
        keep = self.limit * 3 // 4
        for _, size, path in entries:
            if total <= keep:
                break
            _unlink(path)
            total -= size
        with self._lock:
            self._size = total

    def _files(self):
        try:
            folders = [entry for entry in os.scandir(self.folder) if entry.is_dir(follow_symlinks=False)]
        except OSError:
            return
        for folder in folders:
            try:
                files = list(os.scandir(folder.path))
            except OSError:
                continue
            for entry in files:
                try:
                    if entry.is_file(follow_symlinks=False):
                        yield Path(entry.path), entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # deleted meanwhile (another server pruned it)

    def _files_size(self) -> int:
        return sum(stat.st_size for path, stat in self._files() if not path.name.startswith("."))


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass  # gone already: another process pruned it
