"""Reading files people wrote: size limit, strict UTF-8 (a BOM is accepted), and a
clear `file:line:col` problem for bytes that are not UTF-8. And the one way a file is written:
whole (`written_whole`), for the cache folder (read/cache.py) and every output (write/atomic.py,
which adds what an output needs).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import DataError, Problem, UsageError, display_path

MAX_INPUT_BYTES = 8 * 1024 * 1024  # no card database, locale or decklist is anywhere near this


def read_text(path: Path, root: Path | None = None, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """Read a UTF-8 text file a person wrote, or raise DataError naming the problem."""
    shown = display_path(path, root)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(max_bytes + 1)
    except FileNotFoundError:
        folder = Path(path).parent
        why = ("file.not-found", {}) if folder.is_dir() else ("file.no-folder", {"folder": display_path(folder, root)})
        raise DataError([Problem.keyed(shown, 0, 0, why[0], "io", **why[1])]) from None
    except IsADirectoryError:
        raise DataError([Problem.keyed(shown, 0, 0, "file.is-folder", "io")]) from None
    except OSError as exc:
        raise DataError([Problem.keyed(shown, 0, 0, "file.cannot-read", "io", reason=exc.strerror)]) from None
    if len(raw) > max_bytes:
        raise DataError([Problem.keyed(shown, 0, 0, "file.too-large", "io", mb=max_bytes // (1024 * 1024))])
    return decode_text(raw, shown)


def decode_text(raw: bytes, shown: str) -> str:
    """Decode UTF-8 (optional BOM); normalise CRLF/CR line endings to LF."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # a UTF-16 byte order mark (Windows Notepad's "Unicode")
        raise DataError([Problem.keyed(shown, 0, 0, "file.utf16", "encoding")])
    if b"\x00" in raw[:8192]:
        raise DataError([Problem.keyed(shown, 0, 0, "file.binary", "encoding")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise DataError([Problem.keyed(shown, line, col, "file.not-utf8", "encoding", byte=f"{raw[exc.start]:02x}")]) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


# ── writing a file whole ─────────────────────────────────────────────────────
@contextmanager
def written_whole(path: Path, mode: str = "wb", durable: bool = True, permissions: int | None = None,
                  shown: Path | None = None) -> Iterator:
    """Open a temporary file beside `path`; on success rename it over `path`, so a reader (another
    process too) finds the old file or the new one, never half of one. `durable`: flushed to the
    disk before the rename. The temporary file is new (never one that exists, never through a
    link), made 0o600, then given `permissions` if they are named; what stands at `path` (a link
    too) is replaced. `shown`: the name the messages give (`path` unless named).

    On any exception (including KeyboardInterrupt) the temporary file is removed and `path` is
    left exactly as it was. A failing write (disk full, permission denied) raises UsageError
    naming the file.
    """
    path = Path(path)
    shown = path if shown is None else shown
    folder = path.parent
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
            if permissions is not None:
                os.chmod(tmp, permissions)
            os.replace(tmp, path)
            _UNFINISHED.discard(tmp)
        except OSError as exc:
            raise UsageError(f"cannot write {shown}: {exc.strerror or exc}; it was left as it was") from None
    except BaseException:
        if tmp is not None:
            _remove(tmp)
        raise


_UNFINISHED: set[Path] = set()  # the temporary files being written, until renamed or removed


def remove_unfinished() -> None:
    """Remove every temporary file a write began and did not finish. A signal (Ctrl-C, `kill`)
    handled in the instant between a file's opening and the start of the `with` block that
    writes it leaves written_whole's generator (and write/atomic's atomic_output around it)
    suspended, its file still there: only the generator's finalisation would remove it, and a
    program that leaves at once (the `ppgen` program, interrupted: cli._exit_now) never runs it.
    The program calls this before it leaves."""
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
