"""Reading files people wrote, and writing outputs atomically.

Reading: size limit, strict UTF-8 (a BOM is accepted), and a clear
`file:line:col` problem for bytes that are not UTF-8.
Writing: a temporary file in the target folder, flushed to disk, then
renamed over the target, so an interrupted or failed write never leaves a
truncated file behind.
"""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import DataError, Problem, UsageError, display_path

MAX_INPUT_BYTES = 8 * 1024 * 1024  # no card database, locale or decklist is anywhere near this


def read_text(path: Path, root: Path | None = None, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """Read a UTF-8 text file a person wrote, or raise DataError naming the problem."""
    shown = display_path(path, root)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(max_bytes + 1)
    except FileNotFoundError:
        folder = Path(path).parent
        why = "file not found" if folder.is_dir() else f"file not found: there is no folder {display_path(folder, root)}"
        raise DataError([Problem(shown, 0, 0, why, "io")]) from None
    except IsADirectoryError:
        raise DataError([Problem(shown, 0, 0, "is a folder, not a file", "io")]) from None
    except OSError as exc:
        raise DataError([Problem(shown, 0, 0, f"cannot read: {exc.strerror}", "io")]) from None
    if len(raw) > max_bytes:
        raise DataError(
            [Problem(shown, 0, 0, f"file is larger than {max_bytes // (1024 * 1024)} MB; refusing to read it", "io")]
        )
    return decode_text(raw, shown)


def decode_text(raw: bytes, shown: str) -> str:
    """Decode UTF-8 (optional BOM); normalise CRLF/CR line endings to LF."""
    if b"\x00" in raw[:8192]:
        raise DataError([Problem(shown, 0, 0, "this is a binary file, not UTF-8 text", "encoding")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise DataError(
            [Problem(shown, line, col, f"invalid UTF-8 byte 0x{raw[exc.start]:02x}; save the file as UTF-8", "encoding")]
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


@contextmanager
def atomic_output(path: Path, mode: str = "wb") -> Iterator:
    """Open a temporary file beside `path`; on success rename it over `path`.

    On any exception (including KeyboardInterrupt) the temporary file is removed
    and `path` is left exactly as it was. A failing write (disk full, permission
    denied, a folder in the way) raises UsageError naming the file.
    """
    path = Path(path)
    folder = path.parent
    ensure_folder(folder)
    if path.is_dir():
        raise UsageError(f"cannot write {path}: a folder of that name is in the way")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise UsageError(f"cannot write into {folder}: {exc.strerror}") from None
    try:
        try:
            with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror or exc}; it was left as it was") from None
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write `data` to `path` atomically."""
    with atomic_output(path, "wb" if isinstance(data, bytes) else "w") as fh:
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
