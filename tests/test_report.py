"""The build report: warnings recorded once, listed as text and JSON, fallbacks watched per build."""
from __future__ import annotations

import json

import pytest

import ppgen
from ppgen.errors import DataError
from ppgen.write.build import BuildOptions, build
from ppgen.write.report import BuildReport, fallbacks_reported


def test_warnings_are_recorded_once_and_listed_in_a_stable_order(tmp_path):
    report = BuildReport()
    report.warning("overflow", "does not fit its box even at the minimum size", "ko", "card.x.effect")
    report.warning("shrunk", "set at the minimum size, 6 pt, to fit", "ja", "card.y.effect")
    report.warning("overflow", "does not fit its box even at the minimum size", "ko", "card.x.effect")
    report.warning("sheet", "no room", lang="en")
    assert len(report) == 3
    assert report.lines() == [
        "en: sheet: no room",
        "ja card.y.effect: shrunk: set at the minimum size, 6 pt, to fit",
        "ko card.x.effect: overflow: does not fit its box even at the minimum size",
    ]
    assert report.lines(limit=1)[-1] == "… and 2 more (--report-json FILE lists them all)"
    assert [w.code for w in report.for_lang("ko")] == ["overflow"]
    path = tmp_path / "r.json"
    report.write_json(path, [{"lang": "ko"}])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["counts"] == {"overflow": 1, "sheet": 1, "shrunk": 1} and data["files"] == [{"lang": "ko"}]
    assert [w["subject"] for w in data["warnings"]] == ["", "card.y.effect", "card.x.effect"]


def test_fallbacks_are_those_of_the_block_and_the_locale_keeps_its_record(game_copy):
    key = "sheet.print-note"
    ko = game_copy / "locales" / "ko.yaml"
    lines = ko.read_text(encoding="utf-8").splitlines(keepends=True)
    start = lines.index(f"{key}:\n")
    ko.write_text("".join(lines[:start] + lines[start + 3:]), encoding="utf-8")
    project = ppgen.load(game_copy)
    loc = project.locale("ko")
    loc.get("sheet.print-note")  # looked up before the block: already recorded on the locale
    report = BuildReport()
    with fallbacks_reported(loc, report):
        assert loc.get("faction.rome") != "Rome"  # translated: no warning
    assert len(report) == 0
    with fallbacks_reported(loc, report):
        assert loc.get("sheet.print-note").startswith("Print at 100 %")
    assert [(w.lang, w.code, w.subject) for w in report.warnings] == [("ko", "fallback", "sheet.print-note")]
    assert loc.fallbacks == {"sheet.print-note"}


def test_a_broken_placeholder_in_a_translation_prints_english_and_is_reported(game_copy, tmp_path):
    """A typo in a translation's {placeholder} never crashes a build: English is printed, and
    the report says so; broken English is a data error at its line."""
    ja = game_copy / "locales" / "ja.yaml"
    ja.write_text(ja.read_text(encoding="utf-8").replace("text: \"{stat}{amount}\"", "text: \"{stat}{amout}\"")
                  .replace("text: '{stat}{amount}'", "text: '{stat}{amout}'"), encoding="utf-8")
    assert "{amout}" in ja.read_text(encoding="utf-8")
    project = ppgen.load(game_copy)
    result = build(project, BuildOptions.resolve(project, lang="ja", out=tmp_path, factions=["rome"]))
    assert ("placeholder", "bonus.part") in [(w.code, w.subject) for w in result.report.warnings]
    assert project.bonus_text(project.game.card("testudo"), "ja") == "+2 DEF"
    en = game_copy / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace('bonus.part: "{amount} {stat}"', 'bonus.part: "{amount} {stats}"'),
                  encoding="utf-8")
    with pytest.raises(DataError) as exc:
        ppgen.load(game_copy).bonus_text(project.game.card("testudo"), "en")
    (p,) = exc.value.problems
    assert p.file == "locales/en.yaml" and p.code == "placeholder" and p.line > 0 and "{stats}" in p.message


def test_a_character_no_font_has_in_the_sheet_note_is_an_error_naming_its_entry(game_copy, tmp_path):
    """Sheet furniture goes through the text engine like every other text: a character no font
    of the chain can draw stops the build with the entry's file:line:col (never tofu)."""
    from ppgen.typeset.text import GlyphError

    zh = game_copy / "locales" / "zh.yaml"
    text = zh.read_text(encoding="utf-8")
    zh.write_text(text.replace("请以 100%（实际尺寸）打印", "请以 100%（实际尺寸）打印 \U00013000"), encoding="utf-8")
    project = ppgen.load(game_copy)
    line = project.locale("zh").position("sheet.print-note")[0]
    with pytest.raises(GlyphError) as exc:
        build(project, BuildOptions.resolve(project, lang="zh", out=tmp_path, factions=["egypt"], jobs=1))
    assert f"locales/zh.yaml:{line}:" in str(exc.value) and "sheet.print-note" in str(exc.value)
    assert "U+13000" in str(exc.value)
    assert not list(tmp_path.rglob("*.pdf"))
