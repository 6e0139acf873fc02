"""Where a game's files live. Nothing else in ppgen knows these paths.

A game directory holds `cards.yaml`, `locales/`, `templates/`, `fonts/`, an
optional `ppgen.yaml` configuration and optional card pictures in `art/`.
It is given with `--root DIR` (or the
PPGEN_ROOT environment variable) or found by looking upward from the current
directory for `cards.yaml`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError

MARKER = "cards.yaml"


@dataclass(frozen=True)
class GameDir:
    root: Path

    @property
    def cards(self) -> Path:
        return self.root / "cards.yaml"

    @property
    def config(self) -> Path:
        return self.root / "ppgen.yaml"

    @property
    def locales(self) -> Path:
        return self.root / "locales"

    def locale(self, lang: str) -> Path:
        return self.locales / f"{lang}.yaml"

    @property
    def glossary(self) -> Path:
        return self.locales / "glossary.yaml"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    def template(self, name: str) -> Path:
        return self.templates / f"{name}.yaml"

    @property
    def fonts(self) -> Path:
        return self.root / "fonts"

    @property
    def art(self) -> Path:
        """Card pictures: art/<card-id>.<ext>, art/<lang>/<card-id>.<ext> (read/art.py)."""
        return self.root / "art"

    @property
    def decks(self) -> Path:
        return self.root / "decks"

    @property
    def out(self) -> Path:
        return self.root / "out"

    def available_languages(self) -> list[str]:
        """Languages that have a locale file, source language first, then alphabetical."""
        if not self.locales.is_dir():
            return []
        return sorted(p.stem for p in self.locales.glob("*.yaml") if p.stem != "glossary")

    def show(self, path: Path) -> str:
        """A path as the user reads it: relative to the game directory when inside it."""
        try:
            return str(Path(path).resolve().relative_to(self.root))
        except ValueError:
            return str(path)


def find_game_dir(root: str | Path | None = None, start: Path | None = None) -> GameDir:
    """The game directory: `root` if given, else $PPGEN_ROOT, else the nearest folder upward with cards.yaml."""
    root = root or os.environ.get("PPGEN_ROOT") or None
    if root is not None:
        path = Path(root).expanduser()
        if not path.is_dir():
            raise UsageError(f"game directory {path} does not exist")
        if not (path / MARKER).is_file():
            raise UsageError(f"{path} is not a game directory: it has no {MARKER}")
        return GameDir(path.resolve())
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / MARKER).is_file():
            return GameDir(folder)
    raise UsageError(
        f"no game directory found: neither {here} nor any folder above it holds {MARKER}. "
        "Run ppgen inside a game directory or pass --root DIR."
    )
