"""ppgen — print-and-play PDF generator for Ancient Duel.

Pipeline: load (card database + locale) → check → lay out (fronts, backs,
rulebook, mats) → impose on sheets → write. `ppgen.load()` is the entry point.
"""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import DataError, PpgenError, Problem, UsageError
from .project import Project, load

__all__ = ["__version__", "load", "Project", "DataError", "PpgenError", "Problem", "UsageError"]
