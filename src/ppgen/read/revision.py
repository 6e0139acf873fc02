"""A game as it was at a git revision, read with git, nothing checked out.

    other = open_reference(gamedir, "HEAD~1")     # a revision of the game directory's repository
    other = open_reference(gamedir, "../v1-game")  # or another game directory
    project = open_project(other)                 # every loader reads through the GameDir

`RevisionDir` is a GameDir whose paths are those of the game directory on disk, but
whose files come from the revision's tree: `git ls-tree` once (names, blob ids), then
`git cat-file blob` per file read. A symbolic link in the tree is followed as a
checkout would follow it: inside the repository through the revision's tree, outside
it on the disk (a fonts folder shared between games). Problems name files as
`HEAD~1:cards.yaml`.
"""
from __future__ import annotations

import os
import posixpath
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, Problem, UsageError
from .files import MAX_INPUT_BYTES, decode_text
from .gamedir import MARKER, GameDir

SYMLINK = "120000"
MAX_LINKS = 40  # symbolic links followed for one path (a loop stops here)


def open_reference(gamedir: GameDir, ref: str) -> GameDir:
    """The other game `ref` names: a folder (another game directory) or a revision of the
    git repository `gamedir` is in. UsageError when it is neither."""
    if not ref.strip():
        raise UsageError("--since: name a git revision (e.g. HEAD~1, v1.0) or another game directory")
    folder = Path(ref).expanduser()
    if folder.is_dir():
        if not (folder / MARKER).is_file():
            raise UsageError(f"{ref} is a folder but not a game directory: it has no {MARKER}")
        return OtherDir(folder.resolve())
    return open_revision(gamedir, ref)


def open_revision(gamedir: GameDir, rev: str) -> "RevisionDir":
    top = _git(gamedir.root, "rev-parse", "--show-toplevel", failure=None)
    if top is None:
        why = _git_error(gamedir.root)
        raise UsageError(f"'{rev}' is not a folder, and {gamedir.root} is not in a git repository, so it cannot be a revision"
                         + (f" (git: {why})" if why else ""))
    repo = Path(top.decode().strip()).resolve()
    commit = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}", failure=None)
    if commit is None:
        raise UsageError(f"'{rev}' is neither a game directory nor a revision of the git repository at {repo} "
                         "(give a folder, a commit, a tag or a branch, e.g. HEAD~1 or v1.0)")
    found = RevisionDir(gamedir.root, repo=repo, commit=commit.decode().strip(), name=rev)
    if not found.is_file(found.cards):
        raise UsageError(f"there is no game at {rev}: its tree has no {found.relative(found.cards) or MARKER}")
    return found


def _git_error(cwd: Path) -> str:
    """Why git sees no repository at `cwd`, when it is not simply that there is none (e.g. a
    repository owned by another user: git's "dubious ownership")."""
    try:
        done = subprocess.run(["git", "-C", str(cwd), "rev-parse", "--show-toplevel"], capture_output=True, check=False)
    except OSError:
        return ""
    first = next((line for line in done.stderr.decode(errors="replace").splitlines() if line.strip()), "")
    return "" if "not a git repository" in first else first.removeprefix("fatal: ").strip()


def _git(cwd: Path, *args: str, failure: str | None = "") -> bytes | None:
    """Run git; its output, or None when it fails and `failure` is None (else a UsageError)."""
    try:
        done = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed: a revision cannot be read (give another game directory instead)") from None
    if done.returncode != 0:
        if failure is None:
            return None
        raise UsageError(f"git {' '.join(args)} failed: {done.stderr.decode(errors='replace').strip() or failure}")
    return done.stdout


@dataclass(frozen=True)
class OtherDir(GameDir):
    """Another game directory (`errata --since ../v1`): its files are named by their whole path
    in messages (`/home/me/v1/cards.yaml:84:16`), never as if they were this game's."""

    def show(self, path: Path) -> str:
        return str(Path(path))

    def read_text(self, path: Path) -> str:
        from .files import read_text

        return read_text(path, None)


@dataclass(frozen=True)
class RevisionDir(GameDir):
    """The game directory `root` as it is in `commit` of the repository `repo`."""

    repo: Path = Path(".")
    commit: str = ""
    name: str = ""  # the revision as the user gave it: HEAD~1, v1.0
    _tree: dict = field(default_factory=dict, repr=False, compare=False)  # path → (mode, blob id), read once

    @property
    def label(self) -> str:
        return self.name

    def show(self, path: Path) -> str:
        inside = _inside(Path(path), self.root)
        return f"{self.name}:{inside if inside is not None else path}"

    def relative(self, path: Path) -> str | None:
        """`path` as a path in the repository's tree ("" for its top), None when outside it."""
        return _inside(Path(path), self.repo)

    # ── the tree ──────────────────────────────────────────────────────
    def tree(self) -> dict[str, tuple[str, str]]:
        if not self._tree:
            listing = _git(self.repo, "ls-tree", "-r", "-z", "--full-tree", self.commit)
            for item in listing.split(b"\0"):
                if item:
                    meta, name = item.split(b"\t", 1)
                    mode, _kind, oid = meta.decode().split()
                    self._tree[name.decode("utf-8", "surrogateescape")] = (mode, oid)
        return self._tree

    def _locate(self, path: Path) -> tuple[str, str | Path]:
        """Where a path's content is: ("tree", path in the tree) or ("disk", a path on the disk)."""
        rel = self.relative(path)
        if rel is None:
            return ("disk", Path(path))
        tree = self.tree()
        for _ in range(MAX_LINKS):
            parts = rel.split("/") if rel else []
            for i in range(len(parts)):
                here = "/".join(parts[: i + 1])
                entry = tree.get(here)
                if entry and entry[0] == SYMLINK:
                    target = self._blob(entry[1]).decode("utf-8", "surrogateescape")
                    rest = parts[i + 1:]
                    if posixpath.isabs(target):
                        return ("disk", Path(target, *rest))
                    joined = posixpath.normpath(posixpath.join(posixpath.dirname(here), target, *rest))
                    if joined == ".." or joined.startswith("../"):
                        return ("disk", (self.repo / joined).resolve())
                    rel = "" if joined == "." else joined
                    break
            else:
                return ("tree", rel)
        return ("tree", "\0")  # a loop of links: nothing there

    def _blob(self, oid: str) -> bytes:
        return _git(self.repo, "cat-file", "blob", oid)

    # ── GameDir's reading, from the tree ──────────────────────────────
    def is_file(self, path: Path) -> bool:
        where, at = self._locate(path)
        if where == "disk":
            return Path(at).is_file()
        entry = self.tree().get(at)
        return entry is not None and entry[0] != SYMLINK

    def is_dir(self, path: Path) -> bool:
        where, at = self._locate(path)
        if where == "disk":
            return Path(at).is_dir()
        prefix = f"{at}/" if at else ""
        return any(name.startswith(prefix) for name in self.tree())

    def names_in(self, folder: Path, suffix: str) -> list[str]:
        where, at = self._locate(folder)
        if where == "disk":
            return GameDir.names_in(GameDir(Path(at)), Path(at), suffix)
        prefix = f"{at}/" if at else ""
        children = {name[len(prefix):].split("/", 1)[0] for name in self.tree() if name.startswith(prefix)}
        return sorted(n for n in children if n.endswith(suffix) and self.is_file(Path(folder) / n))

    def files_under(self, folder: Path) -> list[Path]:
        where, at = self._locate(folder)
        if where == "disk":
            return GameDir.files_under(GameDir(Path(at)), Path(at))
        prefix = f"{at}/" if at else ""
        return sorted(Path(folder) / name[len(prefix):] for name, (mode, _oid) in self.tree().items()
                      if name.startswith(prefix) and mode != SYMLINK)

    def read_text(self, path: Path) -> str:
        shown = self.show(path)
        where, at = self._locate(path)
        if where == "disk":
            from .files import read_text

            return read_text(Path(at))
        if not self.is_file(path):
            raise DataError([Problem(shown, 0, 0, f"file not found in {self.name}", "io")])
        raw = self._blob(self.tree()[at][1])
        if len(raw) > MAX_INPUT_BYTES:
            raise DataError([Problem(shown, 0, 0, f"file is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB; refusing to read it", "io")])
        return decode_text(raw, shown)

    def signature(self, path: Path) -> str | None:
        return self.digest(path)

    def digest(self, path: Path) -> str | None:
        where, at = self._locate(path)
        if where == "disk":
            return GameDir.digest(self, Path(at))
        entry = self.tree().get(at)
        return entry[1] if entry is not None and entry[0] != SYMLINK else None


def _inside(path: Path, folder: Path) -> str | None:
    """`path` relative to `folder` as a posix path ("" for the folder itself), None when outside it.
    Links on the disk are not followed: the revision's tree decides what a path is."""
    try:
        rel = Path(os.path.abspath(path)).relative_to(folder)
    except ValueError:
        return None
    return "" if str(rel) == "." else rel.as_posix()
