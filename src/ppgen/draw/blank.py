"""An intentionally blank page: the back of a page printed on one side, in a set printed
double-sided (write/duplex.py), saying so in its language so nobody thinks a page is missing.
"""
from __future__ import annotations

from .style import draw_fitted, mm, text_style
from .words import Words

BLANK_NOTE_PT = 8.0
BLANK_GREY = "#8C8C8C"


def draw_blank_page(canvas, project, lang: str, page_size: tuple[float, float], report) -> None:
    """One page of `page_size` with "This page is intentionally left blank." in the middle."""
    canvas.setPageSize(page_size)
    w, h = page_size
    words = Words(project, lang, report)
    style = text_style(project, lang, "body", BLANK_NOTE_PT, BLANK_GREY, min_size=6, align="center", valign="middle")
    box_w, box_h = w - 2 * mm(30), mm(12)
    draw_fitted(canvas, words("sheet.blank-page"), style, (w - box_w) / 2, (h - box_h) / 2, box_w, box_h, report, lang,
                "sheet.blank-page", words.locale.where("sheet.blank-page"))
    canvas.showPage()
