"""Reading files people wrote: size limit, strict UTF-8 (a BOM is accepted), and a
clear `file:line:col` problem for bytes that are not UTF-8. (Writing is write/atomic.py.)
"""
from __future__ import annotations

from pathlib import Path

from ..errors import DataError, Problem, display_path

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
