"""A saddle-stitched booklet: the rulebook's pages two to a side of a landscape sheet, the
sheets nested, folded down the middle and stapled on the fold.

    sheet, page = booklet_paper(PAPERS["a4"])   # landscape A4, and its half: an A5 page
    booklet_sides(13)   # 16 pages (3 blank at the end), in printing order:
                        # [(16, 1), (2, 15), (14, 3), (4, 13), (12, 5), (6, 11), (10, 7), (8, 9)]

Each pair is one side of a sheet, (left page, right page), in reading-order page numbers;
sheet k's front is side 2k, its back side 2k + 1. The two pages of a side always add up
to the page count + 1. Printed double-sided, flipping on the short edge, the back's left
page lands behind the front's right page (page 2 behind page 1).
"""
from __future__ import annotations

import math

from ..units import Paper


def booklet_pages(pages: int) -> int:
    """The page count padded to a multiple of 4 (each sheet holds four pages)."""
    return 4 * math.ceil(max(pages, 1) / 4)


def booklet_sides(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers of every sheet side, in printing order; numbers above `pages`
    are the blank pages the padding adds at the end."""
    n = booklet_pages(pages)
    sides = []
    for sheet in range(n // 4):
        sides.append((n - 2 * sheet, 1 + 2 * sheet))  # front: the outer pages of this sheet
        sides.append((2 + 2 * sheet, n - 1 - 2 * sheet))  # back
    return sides


def booklet_paper(paper: Paper) -> tuple[Paper, tuple[float, float]]:
    """The sheet (the paper, landscape) and the booklet's page size in points (half the sheet:
    A5 on A4, half-Letter — 5.5 × 8.5 in — on Letter)."""
    sheet = paper if paper.landscape else paper.turned()
    width, height = sheet.size
    return sheet, (width / 2, height)
