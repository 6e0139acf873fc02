"""Writing outputs atomically: a temporary file in the target folder, flushed to disk,
then renamed over the target, so an interrupted or failed write never leaves a
truncated file behind.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import UsageError


@contextmanager
def atomic_output(path: Path, mode: str = "wb", durable: bool = True) -> Iterator:
    """Open a temporary file beside `path`; on success rename it over `path`.
    `durable`: flushed to the disk before the rename (every output; False for what ppgen keeps
    for itself in .ppgen-cache/, which a crash may lose: it is made again).

    On any exception (including KeyboardInterrupt) the temporary file is removed
    and `path` is left exactly as it was. A failing write (disk full, permission
    denied, a folder in the way) raises UsageError naming the file.
    """
    path = Path(path)
    shown = path
    if path.is_symlink():  # a link is written through: the file it points to gets the new text
        path = Path(os.path.realpath(path))
    folder = path.parent
    ensure_folder(folder)
    if path.is_dir():
        raise UsageError(f"cannot write {shown}: a folder of that name is in the way")
    permissions = _kept_permissions(shown)
    tmp = folder / f".{path.name}.{os.urandom(6).hex()}.part"  # named before it exists: Ctrl-C once it does finds it
    try:
        try:
            fd = os.open(tmp, _NEW_FILE, 0o600)
        except FileExistsError:
            tmp = None  # another's (48 random bits alike): never removed
            raise UsageError(f"cannot write into {folder}: a temporary file of that name is there") from None
        except OSError as exc:
            raise UsageError(f"cannot write into {folder}: {exc.strerror}") from None
        _UNFINISHED.add(tmp)
        try:
            with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as fh:
                yield fh
                fh.flush()
                if durable:
                    os.fsync(fh.fileno())
            os.chmod(tmp, permissions)
            os.replace(tmp, path)
            _UNFINISHED.discard(tmp)
        except OSError as exc:
            raise UsageError(f"cannot write {shown}: {exc.strerror or exc}; it was left as it was") from None
    except BaseException:
        if tmp is not None:
            _remove(tmp)
        raise


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


_UNFINISHED: set[Path] = set()  # the temporary files being written, until renamed or removed


def remove_unfinished() -> None:
    """Remove every temporary file a write began and did not finish. A signal (Ctrl-C, `kill`)
    handled in the instant between a file's opening and the start of the `with` block that
    writes it leaves atomic_output's generator suspended, its file still there: only the
    generator's finalisation would remove it, and a program that leaves at once (the `ppgen`
    program, interrupted: cli._exit_now) never runs it. The program calls this before it leaves."""
    for tmp in list(_UNFINISHED):
        _remove(tmp)


def _remove(tmp: Path) -> None:
    try:
        os.unlink(tmp)
    except FileNotFoundError:  # renamed over its target already
        pass
    except OSError:  # its folder gone or read-only now: nothing more can be done
        pass
    _UNFINISHED.discard(tmp)


# a new file only (never one that exists, never through a link), as tempfile.mkstemp opens it
_NEW_FILE = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


def write_atomic(path: Path, data: bytes | str, durable: bool = True) -> None:
    """Write `data` to `path` atomically (`durable`: see atomic_output)."""
    with atomic_output(path, "wb" if isinstance(data, bytes) else "w", durable) as fh:
        fh.write(data)


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
