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


def run_folder(variable: str, prefix: str) -> bool:
    """Point `variable` at a temporary folder of this test run (its subprocesses and xdist
    workers inherit it), removed when the process that made it exits; False when already set."""
    if variable in os.environ:
        return False
    import atexit
    import shutil

    folder = tempfile.mkdtemp(prefix=prefix)
    os.environ[variable] = folder
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return True


# What ppgen keeps between runs (read/cache.py) goes to a folder of this run's, not the user's ~/.cache.
run_folder("PPGEN_CACHE_DIR", "ppgen-test-cache-")


@pytest.hookimpl(trylast=True)  # after pytest's own, which makes config._tmp_path_factory
def pytest_configure(config):
    """The hundreds of `python -m ppgen` subprocesses and the xdist workers (started after this)
    keep compiled bytecode in pytest's own folder for this user (/tmp/pytest-of-USER/pycache,
    which pytest makes private to the user), so ppgen's modules are compiled once, not once per
    process, and the workers' rewritten test modules are kept for the next run — also where
    PYTHONDONTWRITEBYTECODE is set; nothing is written beside the sources. With a --basetemp of
    the user's own, a folder of this run's instead."""
    if "PYTHONPYCACHEPREFIX" in os.environ:  # the user's own, or set by the process that started this one
        return
    root = config._tmp_path_factory.getbasetemp().parent
    if root.name.startswith("pytest-of-"):
        folder = root / "pycache"
        folder.mkdir(mode=0o700, exist_ok=True)
        os.environ["PYTHONPYCACHEPREFIX"] = str(folder)
    else:
        run_folder("PYTHONPYCACHEPREFIX", "ppgen-test-pycache-")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


# The test files that take longest (seconds on a worker of the suite's own command, the 2-core
# machine shared with other work, on 2026-12-03), longest first. pytest-xdist hands each worker the next file
# when it is done with one (--dist loadfile), in this order: the long ones start first, the many
# short ones fill in at the end, and no long file runs alone while the other worker waits for the
# end. (xdist's own order, files with the most tests first, ran the fuzz tests, nine tests and
# 35 s, last and alone.) Files not named here (each under 3 s) follow, in pytest's order.
# Re-measure with `--durations=0` when a file grows.
LONGEST_FIRST = (
    "test_rulebook.py",            # 30 s: PDFium reads eight rulebooks line by line; first, as it usually makes the full set
    "test_fuzz_loaders.py",        # 29 s: each example loads and draws the part it changed
    "test_export.py",              # 25 s: every card as a PNG, TTS sheets of every card
    "test_hardening_interrupts.py",  # 23 s: real builds, interrupted, in processes
    "test_press.py",               # 19 s
    "test_build.py",               # 18 s
    "test_serve.py",               # 16 s
    "test_serve_browser.py",       # 15 s: a browser
    "test_errata.py",              # 14 s
    "test_duplex.py",              # 14 s: the set assembled in every language, paper and layout (the rulebooks: rulebook_files)
    "test_booklet.py",             # 12 s
    "test_i18n_files.py",          # 12 s
    "test_typography.py",
    "test_session.py",
    "test_i18n_check.py",
    "test_mats.py",
    "test_faces.py",
    "test_print_and_cut.py",
    "test_build_cache.py",
    "test_hardening_inputs.py",
    "test_hardening_files.py",
    "test_art.py",
    "test_assembly.py",
    "test_sheets.py",
    "test_fuzz_decks.py",
    "test_hardening_text.py",
    "test_linebreak.py",           # 4 s: uniseg's answers recorded (linebreak_reference.py); 23 s when asked live
    "test_cli_in_process.py",
)


def pytest_collection_modifyitems(config, items):
    """The test files in LONGEST_FIRST's order (each file's tests in their own order)."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """xdist's scheduler takes the files in the order above, not reordered by their number of tests."""
    if hasattr(session.config.option, "loadscopereorder"):
        session.config.option.loadscopereorder = False


@pytest.fixture(scope="session")
def project():
    import ppgen

    return ppgen.load(ROOT)


def made_once(tmp_path_factory, name: str, make):
    """`make(folder)` once per test run, also under pytest-xdist: the first worker to ask makes
    it in a folder all workers of the run share (the pattern of the pytest-xdist docs, with an
    atomic mkdir as the lock) and pickles the result; the others wait for it and read it. Not
    for anything a test changes: the folder and the result are read only."""
    import pickle
    import time

    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: its own session folder
        return make(tmp_path_factory.mktemp(name))
    root = tmp_path_factory.getbasetemp().parent / f"made-once-{name}"  # the run's folder, above each worker's
    result, failed = root / "result.pickle", root / "failed"
    try:
        root.mkdir()
    except FileExistsError:  # another worker makes it
        deadline = time.monotonic() + 600
        while not (result.exists() or failed.exists()) and time.monotonic() < deadline:
            time.sleep(0.1)
        if result.exists():
            return pickle.loads(result.read_bytes())
        return make(tmp_path_factory.mktemp(name))  # it failed there: fail here with the same error
    try:
        folder = root / name
        folder.mkdir()
        value = make(folder)
        part = root / "result.part"
        part.write_bytes(pickle.dumps(value))
        os.replace(part, result)
    except BaseException:
        failed.touch()
        raise
    return value


@pytest.fixture(scope="session")
def full_set(project, tmp_path_factory):
    """Every part of every language, as `ppgen build --lang all` makes it (languages and parts
    drawn in worker processes), built once per test run and only read: (result, out folder)."""
    from ppgen.write.build import BuildOptions, build

    return made_once(tmp_path_factory, "full-set", lambda out: (build(project, BuildOptions.resolve(project, lang="all", out=out, jobs=2)), out))


@pytest.fixture(scope="session")
def rulebook_files(full_set, project, tmp_path_factory):
    """The rulebook of every language on each paper as `write_part(project, lang, "rulebook", path,
    paper)` writes it, drawn once per test run: {(lang, paper): (path, pages)}. A4's are the full
    set's (the same bytes: test_rulebook checks it), Letter's drawn here; only read."""
    from ppgen.write.standalone import write_part

    result, _ = full_set
    a4 = {(f.lang, "a4"): (f.path, f.pages) for f in result.files if f.part == "rulebook"}

    def letter(out):
        written = {lang: write_part(project, lang, "rulebook", out / f"rulebook-{lang}.pdf", "letter") for lang, _ in a4}
        return {(lang, "letter"): (w.path, w.pages) for lang, w in written.items()}

    return a4 | made_once(tmp_path_factory, "letter-rulebooks", letter)


@pytest.fixture(scope="session")
def seed_cards():
    """The seeds' cards, every language, as printed (copied from ../shared/seeds)."""
    return json.loads((DATA / "seed_cards.json").read_text(encoding="utf-8"))


@pytest.fixture
def game_copy(tmp_path):
    """A writable copy of the game directory (fonts linked, not copied)."""
    from clitools import copy_game

    return copy_game(tmp_path / "game")
