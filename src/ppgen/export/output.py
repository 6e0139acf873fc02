"""Where exports go, and writing them: every file complete or not at all.

An export renders everything first and writes afterwards, each file atomically
(`files.write_atomic`): a failure while rendering leaves the output folder as
it was, and no file is ever left half-written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..errors import UsageError
from ..write.atomic import ensure_folder, write_atomic
from ..write.report import BuildReport


@dataclass
class ExportResult:
    """What an export wrote, and what it noticed on the way."""

    files: list[Path] = field(default_factory=list)
    report: BuildReport = field(default_factory=BuildReport)
    images: int = 0  # pictures written (PNG files)
    bytes: int = 0
    source_pdf: bytes = b""  # the faces PDF the pictures were rendered from (the preflight reads it)

    def add(self, other: "ExportResult") -> None:
        self.files += other.files
        self.images += other.images
        self.bytes += other.bytes
        for w in other.report.warnings:
            self.report.warning(w.code, w.message, w.lang, w.subject)


def checked_folder(folder: Path) -> Path:
    """Create `folder` (and parents) now, before any rendering, or raise a UsageError saying why not."""
    folder = Path(folder)
    for parent in (folder, *folder.parents):  # name the file in the way, not just "Not a directory"
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"cannot write into {folder}: {parent} is a file, not a folder")
            break
    ensure_folder(folder)
    return folder


def write_all(outputs: Sequence[tuple[Path, bytes | str]], result: ExportResult) -> None:
    """Write each (path, data) atomically and record it in `result`; a disk error is a UsageError."""
    for path, data in outputs:
        try:
            write_atomic(path, data)  # a disk error is a UsageError naming the file
        except UsageError as exc:
            done = f" ({len(result.files)} complete files were written before it)" if result.files else ""
            raise UsageError(f"{exc}{done}") from None
        result.files.append(path)
        result.bytes += len(data.encode("utf-8") if isinstance(data, str) else data)
        if path.suffix == ".png":
            result.images += 1
