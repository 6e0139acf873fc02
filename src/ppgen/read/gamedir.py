"""Where a game's files live. Nothing else in ppgen knows these paths.

A game directory holds `cards.yaml`, `locales/`, `templates/`, `fonts/`, an
optional `ppgen.yaml` configuration and optional card pictures in `art/`.
It is given with `--root DIR` (or the
PPGEN_ROOT environment variable) or found by looking upward from the current
directory for `cards.yaml`.

Every loader reads a game's files through its GameDir (`read_text`, `yaml`,
`is_file`, `digest`), never with open(): so the same loaders read a game as it
was at a git revision (read/revision.py, `RevisionDir`), nothing checked out.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError, display_path

MARKER = "cards.yaml"
SIGNED_BY_CONTENT = 1 << 20  # bytes: files up to this size are signed by their content (GameDir.signature)


# The kinds of file the game reads from its folders (GameDir.is_input): YAML, decklists, fonts, pictures.
INPUT_SUFFIXES = frozenset({".yaml", ".yml", ".txt", ".ttf", ".otf", ".ttc", ".png", ".jpg", ".jpeg", ".webp", ".svg",
                            ".tif", ".tiff", ".gif", ".bmp"})


@dataclass(frozen=True)
class GameDir:
    root: Path

    # ── reading (a RevisionDir reads the same paths from a git revision) ──
    @property
    def label(self) -> str:
        """What this copy of the game is called in messages: its folder (a revision: the revision)."""
        return str(self.root)

    def read_text(self, path: Path) -> str:
        """A text file of the game, checked (size, UTF-8): DataError naming it otherwise."""
        from .files import read_text

        return read_text(path, self.root)

    def yaml(self, path: Path, plain_strings: bool = False):
        """A YAML file of the game as a yamlio.Doc (positions for file:line:col problems)."""
        from .yamlio import parse_yaml

        return parse_yaml(self.read_text(path), self.show(path), plain_strings)

    def read_bytes(self, path: Path, limit: int) -> bytes:
        """A binary file of the game (an ICC profile), at most `limit` bytes: DataError naming it otherwise."""
        from ..errors import DataError, Problem

        try:
            size = Path(path).stat().st_size
            if size > limit:
                raise DataError([Problem(self.show(path), 0, 0, f"is {size / 2**20:.1f} MB, more than the {limit / 2**20:.0f} MB ppgen reads")])
            return Path(path).read_bytes()
        except OSError as exc:
            raise DataError([Problem(self.show(path), 0, 0, f"cannot be read: {exc.strerror}")]) from None

    def is_file(self, path: Path) -> bool:
        return Path(path).is_file()

    def is_dir(self, path: Path) -> bool:
        return Path(path).is_dir()

    def names_in(self, folder: Path, suffix: str) -> list[str]:
        """File names in `folder` that end in `suffix`, sorted ([] when there is no folder)."""
        if not self.is_dir(folder):
            return []
        return sorted(p.name for p in Path(folder).iterdir() if p.name.endswith(suffix) and p.is_file())

    def files_under(self, folder: Path) -> list[Path]:
        """Every file in `folder` and its subfolders, sorted ([] when there is no folder)."""
        if not self.is_dir(folder):
            return []
        return sorted(p for p in Path(folder).rglob("*") if p.is_file())

    def digest(self, path: Path) -> str | None:
        """The content's git blob id (None when there is no such file): equal for equal bytes,
        whether the file is read here or from a git revision, where git already knows it."""
        import hashlib

        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()

    def signature(self, path: Path) -> str | None:
        """What tells that a file changed, cheaply enough to ask on every build: the digest of a
        small file, the size and modification time of a large one (fonts, pictures: reading
        megabytes to learn they are the same would cost more than the build saves). None when
        there is no such file. A RevisionDir answers with the digest git already knows."""
        try:
            stat = Path(path).stat()
        except OSError:
            return None
        if stat.st_size > SIGNED_BY_CONTENT:
            return f"{stat.st_size}:{stat.st_mtime_ns}"
        return self.digest(path)

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

    def is_input(self, path: Path) -> bool:
        """Is `path` one of the game's own files — cards.yaml, ppgen.yaml, or a file of a kind the
        game reads (YAML, a decklist, a font, a picture) under locales/, templates/, fonts/, art/
        or decks/, there already or not (a new art/<card>.png is that card's picture) — which no
        output may be written as? (A PO export beside its locale, or a JSON report in decks/, is not.)"""
        try:
            real = Path(os.path.realpath(path))
        except (OSError, ValueError):
            return False
        files = {Path(os.path.realpath(f)) for f in (self.cards, self.config)}
        if real in files:
            return True
        folders = [Path(os.path.realpath(f)) for f in (self.locales, self.templates, self.fonts, self.art, self.decks)]
        return real.suffix.lower() in INPUT_SUFFIXES and any(real.is_relative_to(folder) for folder in folders)

    def available_languages(self) -> list[str]:
        """Languages that have a locale file, alphabetical (Project.languages puts the source language first)."""
        return sorted(name[: -len(".yaml")] for name in self.names_in(self.locales, ".yaml") if name != "glossary.yaml")

    def show(self, path: Path) -> str:
        """A path as the user reads it: relative to the game directory when inside it
        (a RevisionDir's files: `HEAD~1:cards.yaml`)."""
        return display_path(path, self.root)


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
