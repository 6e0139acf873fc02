"""One drawn part (rulebook, player mat, score sheet) as a PDF of its own — for development and tests.

    from ppgen.draw.standalone import write_part
    write_part(project, "ja", "rulebook", Path("out/ja/rulebook-ja.pdf"), paper="letter")

The canvas starts in an embedded TrueType font of the language (never
Helvetica) and is `invariant`, so the same inputs give byte-identical files;
the file is written atomically. `ppgen build` assembles the parts into one
PDF per language with its own canvas; this is the same drawing, alone.
"""
from __future__ import annotations

import io
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UsageError
from ..files import atomic_output

PAPERS = {"a4": (595.2755905511812, 841.8897637795277), "letter": (612.0, 792.0)}
PARTS = ("rulebook", "mat", "score-sheet")


def page_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    """Paper size in points, portrait unless `landscape`."""
    try:
        w, h = PAPERS[paper]
    except KeyError:
        raise UsageError(f"unknown paper '{paper}' (papers: {', '.join(PAPERS)})") from None
    return (h, w) if landscape else (w, h)


@dataclass
class Warnings:
    """The simplest `report`: collects warnings as (code, message, lang, key)."""

    items: list[tuple] = field(default_factory=list)

    def warning(self, code: str, message: str, lang: str | None = None, key: str | None = None) -> None:
        self.items.append((code, message, lang, key))


def new_canvas(out, project, lang: str, size: tuple[float, float], title: str):
    """A Canvas that embeds everything (initial font = the language's body font) and builds reproducibly."""
    from reportlab.pdfgen.canvas import Canvas

    body = project.fonts.chain(lang, "body").primary
    c = Canvas(out, pagesize=size, initialFontName=body, invariant=1, pageCompression=1)
    c.setTitle(title)
    c.setAuthor(project.config.game)
    c.setCreator("ppgen")
    c.setSubject(f"{project.config.game} ({lang})")
    return c


@dataclass
class PartResult:
    path: Path
    pages: int
    seconds: float


def write_part(project, lang: str, part: str, path: Path, paper: str = "a4", report=None) -> PartResult:
    """Draw one part in one language and write it to `path` atomically."""
    project.check_language(lang)
    report = report if report is not None else Warnings()
    start = time.perf_counter()
    buf = io.BytesIO()
    if part == "rulebook":
        from . import rulebook

        size = page_size(paper)
        c = new_canvas(buf, project, lang, size, project.config.game)
        entries = rulebook.draw_rulebook(c, project, lang, size, report)
        rulebook.add_outline(c, entries)
        c.showOutline()
    elif part == "mat":
        from . import mat

        size = page_size(paper, landscape=True)
        c = new_canvas(buf, project, lang, size, project.config.game)
        mat.draw_mat(c, project, lang, size, report)
    elif part == "score-sheet":
        from . import score_sheet

        size = page_size(paper)
        c = new_canvas(buf, project, lang, size, project.config.game)
        score_sheet.draw_score_sheet(c, project, lang, size, report)
    else:
        raise UsageError(f"unknown part '{part}' (parts: {', '.join(PARTS)})")
    pages = c.getPageNumber() - 1
    c.save()
    with atomic_output(Path(path)) as fh:
        fh.write(buf.getvalue())
    return PartResult(Path(path), pages, time.perf_counter() - start)
