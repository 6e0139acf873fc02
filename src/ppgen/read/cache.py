"""What ppgen derives from a game's files and keeps on disk between runs, so that a short
command does not parse every file again (today: the name index behind decklists, read/names.py).

An entry is a JSON file named by its kind, under the user's cache folder (`PPGEN_CACHE_DIR`, or
`$XDG_CACHE_HOME/ppgen`, or `~/.cache/ppgen`), holding the key it was made for: a digest of the
signatures of the files it was derived from (GameDir.signature) and of ppgen's own code. An entry
whose key differs is ignored and replaced. The cache is disposable: an entry that cannot be read
or written is simply made again, and deleting the folder is always safe.
"""
from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from ..errors import UsageError
from .files import written_whole

LIBRARIES = ("reportlab", "PIL", "pypdf", "pypdfium2", "yaml", "uniseg", "svglib")  # the modules the drawing depends on


def cache_folder() -> Path:
    given = os.environ.get("PPGEN_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ppgen"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """ppgen's own source, and where each library it draws with is installed and the size and
    time of its first file (an upgrade rewrites it): another version of either may read or draw
    differently, so what it made is not trusted. Nothing is imported to learn this."""
    from importlib.util import find_spec

    h = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for name in LIBRARIES:
        spec = find_spec(name)
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        stat = origin.stat() if origin is not None and origin.is_file() else None
        h.update(f"{name}={origin}:{stat and stat.st_size}:{stat and stat.st_mtime_ns}\0".encode())
    return h.hexdigest()


def files_key(game_dir, paths, *extra: str) -> str:
    """The key of something derived from `paths` of a game (and `extra` strings): their
    signatures, the game's folder and ppgen's code."""
    h = hashlib.sha256(f"{code_digest()}\0{game_dir.label}\0".encode())
    for value in extra:
        h.update(value.encode() + b"\0")
    for path in paths:
        h.update(f"{game_dir.show(path)}\0{game_dir.signature(path)}\0".encode())
    return h.hexdigest()


def _prefix(kind: str, owner: str) -> str:
    """The start of the names of `kind`'s entries for one `owner` (a game's folder)."""
    return f"{kind}-{hashlib.sha256(owner.encode()).hexdigest()[:12]}-"


def recall(kind: str, key: str, owner: str = ""):
    """The value stored for `kind` under `key` (for `owner`, see `keep`), or None."""
    try:
        stored = json.loads((cache_folder() / f"{_prefix(kind, owner)}{key[:16]}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return stored.get("value") if isinstance(stored, dict) and stored.get("key") == key else None


def keep(kind: str, key: str, value, owner: str = "") -> None:
    """Store `value` (JSON) for `kind` under `key` (`store`), replacing what `owner` (a game's
    folder) kept before: every edit of a locale makes a new key, and the folder would otherwise
    keep one entry per edit."""
    prefix = _prefix(kind, owner)
    store(f"{prefix}{key[:16]}.json", json.dumps({"key": key, "value": value}, ensure_ascii=False).encode("utf-8"),
          replacing=prefix)


def stored(name: str) -> bytes | None:
    """The bytes of the cache folder's file `name`, or None."""
    try:
        return (cache_folder() / name).read_bytes()
    except OSError:
        return None


def store(name: str, data: bytes, replacing: str | None = None) -> None:
    """Write the cache folder's file `name` whole (read/files.py's written_whole): a concurrent
    reader sees the old entry or the new one, never half of one. Not flushed to disk: an entry
    lost in a crash is made again; one that cannot be written (a read-only home, a full disk) is
    made again next time. An entry is private to its user (0o600), and whatever stands at its
    name is replaced (a read-only entry, a link: never written through). `replacing`: the other
    entries whose names start so are deleted (what an earlier version of the same input, or of
    ppgen, left: the folder does not grow with every upgrade; a process still using one reads it
    whole or parses again)."""
    path = cache_folder() / name
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with written_whole(path, durable=False) as fh:
            fh.write(data)
        for other in path.parent.glob(f"{replacing}*") if replacing else ():
            if other.name != name and not other.name.startswith("."):
                other.unlink(missing_ok=True)
    except (OSError, UsageError):
        pass
