"""What a build noticed: warnings collected while drawing, shown as text and JSON.

Codes (stable, for scripts):
  fallback       a text is not translated; English was printed instead
  shrunk         a text was set at the minimum size to fit its box
  overflow       a text does not fit its box even at the minimum size
  missing-glyph  no font in the language's chain can draw a character
  sheet          something about the sheet itself (e.g. the print note hardly fits)
  art-…          the card pictures' preflight (write/art.py): art-soft (below 300 dpi; advice,
                 `--strict` passes), art-blurry, art-cropped, art-bleed, art-colour, art-unused

`--strict` turns any warning (but advice: `strict=False`) into a failed build
(exit 1) and the PDF of that language is not written.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator

from .atomic import write_atomic


@dataclass(frozen=True, order=True)
class BuildWarning:
    lang: str  # "" when it concerns every language
    code: str
    subject: str  # a locale key or card id, or "" for the whole file
    message: str
    strict: bool = True  # False: advice that `--strict` lets pass (a picture between 150 and 300 dpi)

    def __str__(self) -> str:
        where = " ".join(x for x in (self.lang, self.subject) if x)
        return f"{where}: {self.code}: {self.message}" if where else f"{self.code}: {self.message}"


@dataclass
class BuildReport:
    """Warnings of one build, each recorded once, in a stable order."""

    warnings: list[BuildWarning] = field(default_factory=list)
    _seen: set = field(default_factory=set, repr=False)

    def warning(self, code: str, message: str, lang: str | None = None, key: str | None = None, strict: bool = True) -> None:
        """Record a warning (once). Every drawing module reports through this one method.
        `strict=False`: advice, shown but never failing `--strict`."""
        w = BuildWarning(lang or "", code, key or "", message, strict)
        if w not in self._seen:
            self._seen.add(w)
            self.warnings.append(w)

    def for_lang(self, lang: str) -> list[BuildWarning]:
        return [w for w in self.warnings if w.lang in (lang, "")]

    def failing(self, lang: str | None = None) -> list[BuildWarning]:
        """The warnings `--strict` fails on (of `lang` and every language, or all)."""
        return [w for w in (self.warnings if lang is None else self.for_lang(lang)) if w.strict]

    def __len__(self) -> int:
        return len(self.warnings)

    def sorted(self) -> list[BuildWarning]:
        return sorted(self.warnings)

    def lines(self, limit: int | None = None, locate=None) -> list[str]:
        """The warnings as text, one a line; with `limit`, the rest summed up in a last line;
        `locate(warning)`: the file:line:col to start a warning's line with ("" for none)."""
        items = self.sorted()

        def line(w):
            at = locate(w) if locate else ""
            return f"{at}: {w}" if at else str(w)

        shown = [line(w) for w in (items if limit is None else items[:limit])]
        if limit is not None and len(items) > limit:
            shown.append(f"… and {len(items) - limit} more (--report-json FILE lists them all)")
        return shown

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for w in self.warnings:
            out[w.code] = out.get(w.code, 0) + 1
        return dict(sorted(out.items()))

    def as_dict(self, files: list[dict] | None = None) -> dict:
        return {
            "warnings": [asdict(w) for w in self.sorted()],
            "counts": self.counts(),
            "files": files or [],
        }

    def write_json(self, path: Path, files: list[dict] | None = None) -> None:
        write_atomic(Path(path), json.dumps(self.as_dict(files), ensure_ascii=False, indent=2) + "\n")


@contextmanager
def fallbacks_reported(locale, report) -> Iterator[None]:
    """Within the block, report (`report.warning("fallback", …)`) each text of `locale` that
    falls back to English — the lookups made in the block only: the locale is shared and
    cached, and keeps its own complete record in `locale.fallbacks`."""
    earlier, locale.fallbacks = locale.fallbacks, set()
    earlier_broken, locale.broken = locale.broken, {}
    try:
        yield
    finally:
        used, broken = locale.fallbacks, locale.broken
        locale.fallbacks = earlier | used
        locale.broken = {**earlier_broken, **broken}
        for key in sorted(used):
            report.warning("fallback", "not translated; printed in English", lang=locale.lang, key=key)
        for key, problem in sorted(broken.items()):
            report.warning("placeholder", f"the translation has {problem}; printed in English", lang=locale.lang, key=key)
