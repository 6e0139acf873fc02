"""A library's log messages kept off the terminal while ppgen reads a file with it (svglib on an
SVG, pypdf on a damaged PDF): ppgen says what is wrong itself, once, in its own words."""
from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def silenced(logger: str) -> Iterator[None]:
    """The logger `logger` (and those below it) says nothing inside the block."""
    log = logging.getLogger(logger)
    level = log.level
    log.setLevel(logging.CRITICAL + 1)  # (setLevel, not .level: it clears what logging cached of the old level)
    try:
        yield
    finally:
        log.setLevel(level)
