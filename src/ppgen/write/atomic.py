"""Writing outputs atomically: a temporary file in the target folder, flushed to disk,
then renamed over the target, so an interrupted or failed write never leaves a
truncated file behind (read/files.py's written_whole, which the cache folder's entries use
too). What an output adds: a link is written through, the file's permissions are kept, a
read-only file or one that is not a plain file is refused, the folder is made.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import UsageError
from ..read.files import written_whole


@contextmanager
def atomic_output(path: Path, mode: str = "wb", durable: bool = True) -> Iterator:
    """Open a temporary file beside `path`; on success rename it over `path`.
    `durable`: flushed to the disk before the rename (every output; False for what ppgen keeps
    for itself in .ppgen-cache/, which a crash may lose: it is made again).

    On any exception (including KeyboardInterrupt) the temporary file is removed
    and `path` is left exactly as it was. A failing write (disk full, permission
    denied, a folder in the way) raises UsageError naming the file.
    """
    shown = Path(path)
    path = _target(shown)
    ensure_folder(path.parent)
    permissions = _kept_permissions(shown)
    with written_whole(path, mode, durable, permissions, shown) as fh:
        yield fh


def check_writable(path: Path) -> None:
    """A UsageError now when `path` would be refused by atomic_output (a folder in its way, a
    read-only file, not a plain file), so that a build can say so before it draws anything and
    before it writes any of a language's files."""
    shown = Path(path)
    target = _target(shown)
    folder = next((f for f in (target.parent, *target.parent.parents) if f.exists()), None)
    if folder is not None and not folder.is_dir():  # (ensure_folder's words)
        raise UsageError(f"{folder} exists and is a file, not a folder" if folder == target.parent else
                         f"cannot create folder {target.parent}: {folder} is a file, not a folder")
    if folder == target.parent:
        _kept_permissions(shown)


def _target(shown: Path) -> Path:
    """The file a write to `shown` replaces: a link is written through (the file it points to gets
    the new text); a folder of that name is in the way."""
    path = Path(os.path.realpath(shown)) if shown.is_symlink() else shown
    if path.is_dir():
        raise UsageError(f"cannot write {shown}: a folder of that name is in the way")
    return path


def _kept_permissions(shown: Path) -> int:
    """The permissions the written file gets: those of the file it replaces (a translator's
    `chmod 600` stays), 0o644 for a new one. A file nobody may write, or one that is not a plain
    file (a device, a pipe), is refused, not replaced."""
    import stat

    try:
        found = os.stat(shown)  # through a link: /dev/stdout is the pipe or terminal it stands for
    except FileNotFoundError:
        return 0o644
    except OSError as exc:
        raise UsageError(f"cannot write {shown}: {exc.strerror}") from None
    if not stat.S_ISREG(found.st_mode):  # a device, a pipe (-o /dev/null, /dev/stdout): renaming over it would replace it
        raise UsageError(f"cannot write {shown}: it is not a plain file; name a file to write")
    mode = stat.S_IMODE(found.st_mode)
    if not mode & 0o222:
        raise UsageError(f"cannot write {shown}: it is read-only (chmod u+w to let ppgen change it); it was left as it was")
    return mode


def write_atomic(path: Path, data: bytes | str, durable: bool = True) -> os.stat_result:
    """Write `data` to `path` atomically (`durable`: see atomic_output); the written file's
    status as it was renamed into place (its inode, size and modification time: the file at
    `path` while no one else replaces it)."""
    with atomic_output(path, "wb" if isinstance(data, bytes) else "w", durable) as fh:
        fh.write(data)
        fh.flush()
        written = os.fstat(fh.fileno())
    return written


def ensure_folder(folder: Path) -> None:
    """Create `folder` (and parents) or raise a UsageError that says why not."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} exists and is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create folder {folder}: {exc.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write into {folder}: permission denied")
