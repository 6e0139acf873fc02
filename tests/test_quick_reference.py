"""The quick-reference card (draw/quick_reference.py): its two faces as the card sheets print them."""
from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from ppgen.draw.faces import CardGeometry
from ppgen.draw.quick_reference import ReferenceFace
from ppgen.write.report import BuildReport


def test_a_card_too_small_for_the_words_is_reported_to_the_builds_report(project):
    """On a mini card the quick reference does not fit even at its smallest size: the build's
    report hears of it, though it had no warning yet (an empty report is falsy: it was taken for
    none, and the overflow went unreported)."""
    g = CardGeometry.named("mini")
    for side in ("front", "back"):
        report = BuildReport()
        ReferenceFace(project, "en", g, side, report).draw(Canvas(io.BytesIO(), pagesize=(g.width, g.height)))
        assert [w.code for w in report.warnings] == ["overflow"], side
