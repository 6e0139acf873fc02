"""The benchmark is run by hand, never timed here; this checks only that its baseline
still gathers the strings a build prints (it broke once, silently, on a code change)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("ppgen_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_baseline_prints_every_card_and_rule_string(bench, project, tmp_path, lang):
    path = tmp_path / "spec.json"
    bench.baseline_spec(project, lang, 80, path)
    spec = json.loads(path.read_text(encoding="utf-8"))
    strings = set(spec["strings"])
    for card in project.game.cards:
        assert project.card_name(card, lang) in strings
    loc = project.locale(lang)
    rule_keys = [k for k in loc.keys() if k.startswith("rules.")]
    assert len(rule_keys) > 50
    written = {loc.get(k) for k in loc.keys()}
    assert {s for s in strings if "{" in s} <= written  # only placeholders filled at drawing time, e.g. {n}
    values = project.game.rules.placeholders(project.game.factions)
    filled = [k for k in rule_keys if "{deck_size}" in loc.get(k)]
    assert filled and all(loc.format(k, **values).replace("**", "") in strings for k in filled)
    assert spec["pages"] == 80 and all(Path(p).is_file() for p in spec["fonts"].values())
