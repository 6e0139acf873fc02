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
