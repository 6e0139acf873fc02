"""Every Python example in README.md runs as written, in a copy of the game directory,
and writes the files it names."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i + 1}" for i in range(len(BLOCKS))])
def test_readme_python_example_runs(block, game_copy):
    result = subprocess.run([sys.executable, "-c", block], cwd=game_copy, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    for named in re.findall(r'"(out/[^"]+\.pdf)"', block):
        path = game_copy / named
        assert path.is_file() and path.read_bytes().startswith(b"%PDF"), named


# ── the quick start (issue 13, item 14) ─────────────────────────────────────
def quick_start() -> tuple[str, str]:
    """The README's two quick-start commands: build, then tests."""
    text = README.read_text(encoding="utf-8")
    start = text.index("## Quick start")
    build, tests = re.findall(r"```sh\n(.*?)\n```", text[start:text.index("\n## ", start + 3)], re.S)[:2]
    return build.strip(), tests.strip()


def test_the_quick_start_works_where_the_system_python_is_externally_managed():
    """Debian 12 and Ubuntu 23.04+ refuse `pip install` into the system Python (PEP 668): each
    command makes a virtual environment in the folder and runs everything from it."""
    for command in quick_start():
        steps = [s.strip() for s in command.split("&&")]
        assert steps[0] == "python3 -m venv .venv", command
        assert all(s.startswith(".venv/bin/") for s in steps[1:]), command
    build, tests = quick_start()
    assert build.endswith(".venv/bin/ppgen build --lang all")
    assert ".venv/bin/pip install '.[test]'" in tests and tests.endswith(".venv/bin/python -m pytest")


def test_ci_runs_the_readmes_test_command_exactly():
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == quick_start()[1]


def test_the_readme_says_how_long_the_tests_take():
    text = README.read_text(encoding="utf-8")
    assert re.search(r"Tests \(about \d+ minutes on two cores", text)


def test_the_test_files_run_longest_first_are_test_files(request):
    """conftest.LONGEST_FIRST names files that exist (a renamed file would silently lose its
    place), and this run took them in that order."""
    from conftest import LONGEST_FIRST

    here = Path(__file__).resolve().parent
    assert [name for name in LONGEST_FIRST if not (here / name).is_file()] == []
    order = list(dict.fromkeys(item.path.name for item in request.session.items))
    listed = [name for name in order if name in LONGEST_FIRST]
    assert listed == [name for name in LONGEST_FIRST if name in order]
    assert order[:len(listed)] == listed  # before every file not named
