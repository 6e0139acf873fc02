"""Shared fixtures: the real game directory, and scratch copies of it to break."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import os

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

# Subprocesses (`python -m ppgen ...`) import this checkout's code, not an installed copy.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
# What ppgen keeps between runs (read/cache.py) goes to a folder of this run's, not the user's ~/.cache.
os.environ.setdefault("PPGEN_CACHE_DIR", tempfile.mkdtemp(prefix="ppgen-test-cache-"))


@pytest.fixture(scope="session")
def project():
    import ppgen

    return ppgen.load(ROOT)


@pytest.fixture(scope="session")
def full_set(project, tmp_path_factory):
    """Every part of every language, as `ppgen build --lang all` makes it (languages and parts
    drawn in worker processes), built once per test process and only read: (result, out folder)."""
    from ppgen.write.build import BuildOptions, build

    out = tmp_path_factory.mktemp("full-set")
    return build(project, BuildOptions.resolve(project, lang="all", out=out, jobs=2)), out


@pytest.fixture(scope="session")
def seed_cards():
    """The seeds' cards, every language, as printed (copied from ../shared/seeds)."""
    return json.loads((DATA / "seed_cards.json").read_text(encoding="utf-8"))


@pytest.fixture
def game_copy(tmp_path):
    """A writable copy of the game directory (fonts linked, not copied)."""
    from clitools import copy_game

    return copy_game(tmp_path / "game")
