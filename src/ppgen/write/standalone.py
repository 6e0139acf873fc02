"""One part of the print-and-play set as a PDF of its own — for development and tests.

    from ppgen.draw.standalone import write_part
    write_part(project, "ja", "rulebook", Path("out/ja/rulebook-ja.pdf"), paper="letter")

It is the very drawing `ppgen build` uses (parts.PARTS), written atomically.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .atomic import write_atomic


@dataclass
class PartResult:
    path: Path
    pages: int
    seconds: float


def write_part(project, lang: str, part: str, path: Path, paper: str = "a4", report=None) -> PartResult:
    """Draw one part (rulebook, mats, score-sheet, cards) in one language and write it to `path`."""
    from .build import BuildOptions, select_cards
    from .parts import PARTS
    from .report import BuildReport, fallbacks_reported

    start = time.perf_counter()
    options = BuildOptions.resolve(project, lang=lang, paper=paper, parts=[part])
    report = report if report is not None else BuildReport()
    run = select_cards(project) if part == "cards" else []
    with fallbacks_reported(project.locale(lang), report):
        pdf = PARTS[part](project, options, lang, run, report)
    write_atomic(Path(path), pdf.data)
    return PartResult(Path(path), pdf.pages, time.perf_counter() - start)
