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


def test_second_baseline_replays_ppgens_own_drawing(bench, project, tmp_path):
    """The second baseline draws what ppgen drew: the same forms, placed on the same pages,
    matching ppgen's own page pixel for pixel but for the text (drawn as the first baseline does)."""
    import subprocess
    import sys

    import pypdfium2 as pdfium
    from PIL import ImageChops

    from ppgen.write.build import BuildOptions, build

    result = build(project, BuildOptions.resolve(project, lang="en", out=tmp_path / "out", parts="cards", factions=["rome"], jobs=1),
                   reuse=False)
    pdf = result.files[0].path
    spec = bench.vector_spec(pdf, tmp_path / "vectors.json")
    assert len(spec["forms"]) == result.files[0].faces  # every form ppgen drew: faces, and the layers they share (frames…)
    assert len(spec["pages"]) == result.files[0].pages
    bench.baseline_spec(project, "en", len(spec["pages"]), tmp_path / "strings.json")
    strings = json.loads((tmp_path / "strings.json").read_text(encoding="utf-8"))
    (tmp_path / "strings.json").write_text(json.dumps({**strings, "strings": []}), encoding="utf-8")  # the drawing alone
    script = bench.REPLAY.replace("io.BytesIO()", repr(str(tmp_path / "replay.pdf")))
    subprocess.run([sys.executable, "-c", script, str(tmp_path / "strings.json"), str(tmp_path / "vectors.json")], check=True)

    def pixels(path):
        return pdfium.PdfDocument(str(path))[0].render(scale=0.5).to_pil().convert("L")

    ours, replayed = pixels(pdf), pixels(tmp_path / "replay.pdf")
    assert ours.size == replayed.size
    histogram = ImageChops.difference(ours, replayed).histogram()
    same = sum(histogram[:25]) / sum(histogram)
    assert same > 0.93, same  # all but the cards' words (4–5 % of the page): every shape is the same
