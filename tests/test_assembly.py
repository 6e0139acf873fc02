"""The whole print-and-play set: parts assembled into one PDF per language, built in parallel."""
from __future__ import annotations

import json
import subprocess

import pytest

import ppgen
from clitools import call_ppgen
from pdftools import fonts, outline, reader
from ppgen.write.build import BuildOptions, build

LANGS = ["en", "ja", "ko", "zh"]
A4 = (595, 842)


@pytest.fixture(scope="module")
def full(full_set):
    """Every part of every language, languages and parts in two worker processes (conftest.py)."""
    return full_set


@pytest.mark.parametrize("lang", LANGS)
def test_one_pdf_per_language_holds_every_part_in_order(full, project, lang):
    result, out = full
    files = {f.part: f for f in result.files if f.lang == lang}
    assert set(files) == {"set", "rulebook", "mats", "score-sheet", "cards"}
    assert files["set"].path == out / lang / f"ancient-duel-{lang}.pdf"
    pdf = reader(files["set"].path)
    parts = [reader(files[p].path) for p in ("rulebook", "mats", "score-sheet", "cards")]
    n_rules = len(parts[0].pages)
    mats = n_rules + n_rules % 2  # every part from an odd page; each mat sheet and the score sheet with a blank back
    sheets = len(parts[1].pages)  # two players' mats, each on one sheet or on two joined ones
    assert sheets in (2, 4)
    assert len(pdf.pages) == files["set"].pages == mats + 2 * sheets + 2 + len(parts[3].pages)
    sizes = [(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in pdf.pages]
    assert sizes[:mats] == [A4] * mats
    mat_sizes = [(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in parts[1].pages]
    assert sizes[mats:mats + 2 * sheets] == [size for size in mat_sizes for _ in (0, 1)]  # each mat sheet, its blank back
    assert set(mat_sizes) <= {A4, (842, 595)}
    score = mats + 2 * sheets
    assert sizes[score:] == [A4] * (2 + 64)  # score sheet and its back, card sheets
    loc = project.locale(lang)
    top = [(title, page) for level, title, page in outline(pdf) if level == 0]
    assert top == [(loc.get("rules.subtitle"), 0), (loc.get("mat.title"), mats),
                   (loc.get("sheet.title"), score), (loc.get("part.cards"), score + 2)]
    per_mat = sheets // 2
    players = [(title, page) for level, title, page in outline(pdf) if level == 1 and mats <= page < score]
    assert players == [(loc.format("sheet.player", n=1), mats), (loc.format("sheet.player", n=2), mats + 2 * per_mat)]
    sections = [title for level, title, _ in outline(pdf) if level == 1]
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
    args = ["build", "--lang", "ja", "--parts", "rulebook", "--out", tmp_path / "out", "--report-json", report]
    lenient = call_ppgen(*args, root=game_copy)
    assert lenient.returncode == 0, lenient.stderr
    assert "rules.goal.2" in lenient.stderr and "fallback" in lenient.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert {(w["lang"], w["code"], w["subject"]) for w in data["warnings"]} == {("ja", "fallback", "rules.goal.2")}
    strict_out = tmp_path / "strict"
    strict = call_ppgen(*args[:-4], "--out", strict_out, "--strict", root=game_copy)
    assert strict.returncode == 1
    assert not list(strict_out.rglob("*.pdf"))


def test_parts_option_and_unknown_part(project, tmp_path):
    result = build(project, BuildOptions.resolve(project, lang="en", out=tmp_path, parts="mats,rulebook"))
    assert [f.part for f in result.files] == ["set", "rulebook", "mats"]
    with pytest.raises(ppgen.UsageError, match="did you mean 'mats'"):
        BuildOptions.resolve(project, parts="mat")


@pytest.mark.parametrize("lang", LANGS)
def test_assembled_pdf_gives_every_font_subset_a_tag_of_its_own(full, project, lang):
    """Issue 13, item 9 (ISO 32000-1 §9.6.4: different subsets in one file have different tags).
    The parts each start ReportLab's tags again at AAAAAA; the merge kept four AAAAAA+NotoSansJP-Bold."""
    import re
    from collections import Counter

    from pdftools import font_programs

    result, _ = full
    path = next(f.path for f in result.files if f.lang == lang and f.part == "set")
    found = font_programs(path)
    assert len(found) > 10
    for base, name, _ in found.values():
        assert re.fullmatch(r"/[A-Z]{6}\+[\w-]+", base) and base == name, (base, name)
    tags = Counter(base[1:7] for base, _, _ in found.values())
    assert max(tags.values()) == 1, [t for t, n in tags.items() if n > 1]
    programs = {(base.split("+")[1], digest) for base, _, digest in found.values()}
    assert len(programs) == len(found)  # the same subset is never embedded twice
    part_fonts = {(base.split("+")[1], digest) for f in result.files if f.lang == lang and f.part != "set"
                  for base, _, digest in font_programs(f.path).values()}
    # and the blank backs' note (issue 14): one subset, however many blank pages of whatever size
    from ppgen.write.parts import blank_page_pdf
    from ppgen.write.report import BuildReport

    blank = {(base.split("+")[1], digest) for base, _, digest in font_programs(blank_page_pdf(project, lang, A4, BuildReport())).values()}
    assert programs == part_fonts | blank  # every subset of every part, none lost, none new


def test_assembled_pdf_has_a_file_identifier_derived_from_its_content(full):
    """Issue 13, item 10: the trailer /ID (ISO 32000-1 §14.4), the same on every rebuild."""
    result, _ = full
    ids = {}
    for f in result.files:
        if f.part == "set":
            ident = reader(f.path).trailer["/ID"]
            first, second = (getattr(v, "original_bytes", v) for v in ident)
            assert first == second and len(first) == 16
            ids[f.lang] = first
    assert len(set(ids.values())) == 4  # each language's file has its own


@pytest.mark.skipif(not __import__("shutil").which("qpdf"), reason="qpdf is not installed (apt-get install qpdf)")
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_assembled_pdf_passes_qpdf_check(full, lang):
    result, _ = full
    path = next(f.path for f in result.files if f.lang == lang and f.part == "set")
    check = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    assert check.returncode == 0 and "No syntax or stream encoding errors found" in check.stdout, check.stdout + check.stderr


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_merging_font_subsets_changes_no_pixel(full, lang):
    """The set's pages, whose fonts were merged and retagged, render exactly as the parts' pages."""
    from pdftools import render

    result, _ = full
    files = {f.part: f.path for f in result.files if f.lang == lang}
    start = 0
    for part in ("rulebook", "mats", "score-sheet", "cards"):
        pages = len(reader(files[part]).pages)
        start += start % 2  # every part from an odd page; single-sided ones with a blank back after each page (issue 14)
        step = 2 if part in ("mats", "score-sheet") else 1
        for page in sorted({0, 1, pages - 1} & set(range(pages))):
            assert render(files["set"], start + step * page, dpi=40).tobytes() == render(files[part], page, dpi=40).tobytes(), (part, page)
        start += step * pages
