"""The assembled set printed double-sided: which page lands on which sheet.

A player prints `ancient-duel-<lang>.pdf` on a home printer, both sides, in one go.
For that to come out right whatever the page counts, `parts.assemble` keeps these
rules, inserting intentionally blank pages (drawn by draw/blank.py, in the set's
language) only where they are needed:

- every part starts on an odd page, the front of a new sheet (a blank back for the
  last page of the part before it when that part ends on an odd page);
- a part printed on single sheets (`PartPDF.single_sided`: each player's mat, the
  score sheet, fold-over and fronts-only card sheets, tuck boxes) gets a blank back after each
  page, so no two of them share a sheet;
- duplex card sheets alternate front and back pages already: starting on an odd
  page puts every front on an odd page with its back on the page after it.

    blanks = BlankPages(lambda size: blank_pdf(size))   # one-page PDF bytes of that size
    start_on_odd_page(join, blanks)                      # join: a write/join.py Join
    start = len(join.pages); join.append(part_pdf)
    pages = blank_backs(join, start, part_pages, blanks)  # where the part's pages went
"""
from __future__ import annotations

from typing import Callable, Iterable

from .join import Source


class BlankPages:
    """Intentionally blank pages by size, each drawn once (`draw((w, h))` → PDF bytes) and
    inserted as often as needed (every copy a page dictionary of its own, sharing one drawing);
    `drawn`: blank pages already drawn (one-page PDFs: the parts' `back`), used for their size."""

    def __init__(self, draw: Callable[[tuple[float, float]], bytes], drawn: Iterable[bytes] = ()):
        self._draw = draw
        self._pages: dict = {}
        for data in drawn:
            page = Source(data).pages[0]
            self._pages.setdefault(_size_key(page.size), page)

    def page(self, size: tuple[float, float]):
        key = _size_key(size)
        if key not in self._pages:
            self._pages[key] = Source(self._draw(size)).pages[0]
        return self._pages[key]


def _size_key(size: tuple[float, float]) -> tuple[float, float]:
    return (round(size[0], 2), round(size[1], 2))


def start_on_odd_page(join, blanks: BlankPages) -> None:
    """Before a part: when the pages so far are odd in number, a blank back for the last one."""
    if len(join.pages) % 2:
        join.add_page(blanks.page(join.pages[-1].size))


def blank_backs(join, start: int, count: int, blanks: BlankPages | None, single_sided: bool = True) -> list[int]:
    """After a part's `count` pages were appended at `start`: for single sheets, a blank back
    after each of them. Returns the index each of the part's pages now has."""
    if not single_sided or blanks is None:
        return list(range(start, start + count))
    for k in reversed(range(count)):
        join.insert_page(blanks.page(join.pages[start + k].size), start + k + 1)
    return [start + 2 * k for k in range(count)]
