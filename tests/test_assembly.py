"""The whole print-and-play set: parts assembled into one PDF per language, built in parallel."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import ppgen
from pdftools import fonts, reader
from ppgen.write.build import BuildOptions, build

LANGS = ["en", "ja", "ko", "zh"]
A4 = (595, 842)


@pytest.fixture(scope="module")
def full(project, tmp_path_factory):
    """Every part of every language, languages in two worker processes."""
    out = tmp_path_factory.mktemp("full")
    return build(project, BuildOptions.resolve(project, lang="all", out=out, jobs=2)), out


def _outline(pdf):
    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                yield from walk(item, level + 1)
            else:
                yield level, item.title, pdf.get_destination_page_number(item)

    return list(walk(pdf.outline, 0))


@pytest.mark.parametrize("lang", LANGS)
def test_one_pdf_per_language_holds_every_part_in_order(full, project, lang):
    result, out = full
    files = {f.part: f for f in result.files if f.lang == lang}
    assert set(files) == {"set", "rulebook", "mats", "score-sheet", "cards"}
    assert files["set"].path == out / lang / f"ancient-duel-{lang}.pdf"
    pdf = reader(files["set"].path)
    parts = [reader(files[p].path) for p in ("rulebook", "mats", "score-sheet", "cards")]
    n_rules = len(parts[0].pages)
    mats = n_rules + n_rules % 2  # every part from an odd page; each mat and the score sheet with a blank back
    assert len(pdf.pages) == files["set"].pages == mats + 2 * 2 + 2 + len(parts[3].pages)
    sizes = [(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in pdf.pages]
    assert sizes[:mats] == [A4] * mats
    assert sizes[mats:mats + 4] == [(842, 595)] * 4  # the two player mats, landscape, and their blank backs
    assert sizes[mats + 4:] == [A4] * (2 + 64)  # score sheet and its back, card sheets
    loc = project.locale(lang)
    top = [(title, page) for level, title, page in _outline(pdf) if level == 0]
    assert top == [(loc.get("rules.subtitle"), 0), (loc.get("mat.title"), mats),
                   (loc.get("sheet.title"), mats + 4), (loc.get("part.cards"), mats + 6)]
    players = [(title, page) for level, title, page in _outline(pdf) if level == 1 and page in (mats, mats + 2)]
    assert players[-2:] == [(loc.format("sheet.player", n=1), mats), (loc.format("sheet.player", n=2), mats + 2)]
    sections = [title for level, title, _ in _outline(pdf) if level == 1]
    assert loc.get("rules.kamikaze.heading") in sections and loc.get("rules.deck.heading") in sections


@pytest.mark.parametrize("lang", LANGS)
def test_assembled_pdf_embeds_every_font(full, lang):
    result, _ = full
    path = next(f.path for f in result.files if f.lang == lang and f.part == "set")
    found = fonts(path)
    assert found and all(embedded for _, embedded in found.items()), found
    assert not any("Helvetica" in name for name in found)


def test_parallel_and_sequential_builds_are_byte_identical(full, project, tmp_path):
    result, _ = full
    again = build(project, BuildOptions.resolve(project, lang="ko", out=tmp_path, jobs=1))
    for f in again.files:
        twin = next(g for g in result.files if g.lang == "ko" and g.part == f.part)
        assert f.path.read_bytes() == twin.path.read_bytes(), f.part


def test_strict_build_fails_on_a_missing_string_and_writes_nothing(game_copy, tmp_path):
    ja = game_copy / "locales" / "ja.yaml"
    lines = ja.read_text(encoding="utf-8").splitlines(keepends=True)
    start = lines.index("rules.goal.2:\n")
    ja.write_text("".join(lines[:start] + lines[start + 3:]), encoding="utf-8")
    report = tmp_path / "report.json"
    args = [sys.executable, "-m", "ppgen", "--root", str(game_copy), "build", "--lang", "ja", "--parts", "rulebook",
            "--out", str(tmp_path / "out"), "--report-json", str(report)]
    lenient = subprocess.run(args, capture_output=True, text=True)
    assert lenient.returncode == 0, lenient.stderr
    assert "rules.goal.2" in lenient.stderr and "fallback" in lenient.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert {(w["lang"], w["code"], w["subject"]) for w in data["warnings"]} == {("ja", "fallback", "rules.goal.2")}
    strict_out = tmp_path / "strict"
    strict = subprocess.run(args[:-4] + ["--out", str(strict_out), "--strict"], capture_output=True, text=True)
    assert strict.returncode == 1
    assert not list(strict_out.rglob("*.pdf"))


def test_parts_option_and_unknown_part(project, tmp_path):
    result = build(project, BuildOptions.resolve(project, lang="en", out=tmp_path, parts="mats,rulebook"))
    assert [f.part for f in result.files] == ["set", "rulebook", "mats"]
    with pytest.raises(ppgen.UsageError, match="did you mean 'mats'"):
        BuildOptions.resolve(project, parts="mat")
