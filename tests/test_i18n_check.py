"""`ppgen i18n check` and `status`: every defect kind at its line and column; clean data reports nothing."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import ppgen
from clitools import call_ppgen
from conftest import ROOT
from ppgen.i18n.checks import check_names, run_checks

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def tiny(tmp_path):
    """A writable copy of the tiny fixture game (en, ja and the made-up language xx)."""
    dest = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "i18n-game", dest)
    (dest / "fonts").symlink_to(ROOT / "fonts")
    return dest


def findings(root, **kw):
    return run_checks(ppgen.load(root), **kw)


def test_shipped_locales_pass_every_check():
    """The CI gate: the real game's translations have no error."""
    result = call_ppgen("--root", str(ROOT), "i18n", "check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error[" not in result.stdout
    assert "checked 4 languages: 0 errors" in result.stderr


def test_clean_fixture_reports_nothing(tiny):
    report = findings(tiny)
    assert report.findings == []
    assert report.languages == ["en", "ja", "xx"]
    result = call_ppgen("--root", str(tiny), "i18n", "check")
    assert result.returncode == 0 and result.stdout == ""


DEFECTS = [
    # fixture file, check, line, col, words the message must hold
    ("missing.ja.yaml", "missing", 13, 1, "'type.missile-infantry' is missing"),
    ("orphan.ja.yaml", "orphan", 22, 1, "'label.unused' is not in English"),
    ("stale.ja.yaml", "stale", 31, 9, "src 0badc0de, English at locales/en.yaml:"),
    ("untranslated.ja.yaml", "untranslated", 8, 9, "'faction.rome' is identical to English"),
    ("numbers.ja.yaml", "numbers", 37, 9, "lacks 2 and has extra 3"),
    ("terms.ja.yaml", "terms", 31, 9, 'says "Infantry"; the ja glossary term is 歩兵'),
    ("markup.ja.yaml", "markup", 23, 9, "lacks {amount} and has unknown {amont} (did you mean {amount}?)"),
    ("glyphs.xx.yaml", "glyphs", 40, 15, "'戦' (U+6226)"),  # at the character: "  text: Salva 戦 pilorum"
    ("punctuation.ja.yaml", "punctuation", 40, 9, 'has straight " in'),
]


def test_every_check_has_a_defect_fixture():
    # fit lays out real cards; keywords only warns (test_a_key_word_spelled_otherwise_is_a_warning)
    assert {d[1] for d in DEFECTS} | {"fit", "keywords"} == set(check_names())


@pytest.mark.parametrize("name,code,line,col,words", DEFECTS, ids=[d[1] for d in DEFECTS])
def test_each_defect_is_reported_once_at_its_line_and_column(tiny, name, code, line, col, words):
    lang = name.split(".")[1]
    shutil.copy(FIXTURES / "i18n-defects" / name, tiny / "locales" / f"{lang}.yaml")
    report = findings(tiny)
    assert len(report.findings) == 1, [str(f.problem) for f in report.findings]
    p = report.findings[0].problem
    assert (p.file, p.line, p.col, p.code, p.severity) == (f"locales/{lang}.yaml", line, col, code, "error")
    assert words in p.message
    result = call_ppgen("--root", str(tiny), "i18n", "check")
    assert result.returncode == 1
    assert result.stdout.startswith(f"locales/{lang}.yaml:{line}:{col}: error[{code}] ")


def test_json_report_names_language_key_and_position(tiny):
    shutil.copy(FIXTURES / "i18n-defects" / "numbers.ja.yaml", tiny / "locales" / "ja.yaml")
    result = call_ppgen("--root", str(tiny), "i18n", "check", "--format", "json", "--lang", "ja")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["errors"] == 1 and data["languages"] == ["ja"]
    (p,) = data["problems"]
    assert (p["lang"], p["key"], p["line"], p["col"], p["code"]) == ("ja", "card.roman-archer-auxilia.effect", 37, 9, "numbers")


def test_only_the_named_checks_run(tiny):
    shutil.copy(FIXTURES / "i18n-defects" / "numbers.ja.yaml", tiny / "locales" / "ja.yaml")
    assert findings(tiny, only=["terms"]).findings == []
    result = call_ppgen("--root", str(tiny), "i18n", "check", "--check", "numbr")
    assert result.returncode == 2 and "did you mean 'numbers'" in result.stderr


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_numbers_normalise_full_width_digits_and_ignore_order(tiny):
    ja = tiny / "locales" / "ja.yaml"
    edit(ja, "ATKが2下がる。\n", "ATKが２下がる。\n")
    assert findings(tiny).findings == []


def test_idiom_with_a_number_slot_still_checks_the_number(tiny):
    en, ja = tiny / "locales" / "en.yaml", tiny / "locales" / "ja.yaml"
    edit(en, "gains 1 ATK this turn.", "gains 1 ATK and 1 DEF this turn.")
    from ppgen.read.locale import source_hash

    new_src = source_hash("On Normal Deploy: 1 Infantry you control gains 1 ATK and 1 DEF this turn.")
    edit(ja, "  text: 通常配備時：このターン、自分フィールドの歩兵ユニット1体のATKが1上がる。\n  src: be0cd0de",
         f"  text: 通常配備時：このターン、自分フィールドの歩兵ユニット1体のATKとDEFが1上がる。\n  src: {new_src}")
    assert findings(tiny, langs=["ja"]).findings == [], "the idiom makes ja's single 1 match English's two"
    edit(ja, "ATKとDEFが1上がる", "ATKとDEFが2上がる")
    (f,) = findings(tiny, langs=["ja"]).findings
    assert f.problem.code == "numbers" and "lacks 1 and has extra 2" in f.problem.message


def test_acknowledged_exception_is_silent_and_a_useless_one_warns(tiny):
    ja = tiny / "locales" / "ja.yaml"
    shutil.copy(FIXTURES / "i18n-defects" / "numbers.ja.yaml", ja)
    edit(ja, "  src: d6f577f8", "  src: d6f577f8\n  checked: [numbers]")
    report = findings(tiny)
    assert report.findings == [] and report.acknowledged == 1
    edit(ja, "ATKが3下がる", "ATKが2下がる")
    (f,) = findings(tiny).findings
    assert (f.problem.code, f.problem.severity, f.problem.line, f.problem.col) == ("checked", "warning", 39, 12)
    result = call_ppgen("--root", str(tiny), "i18n", "check")
    assert result.returncode == 0, "warnings alone do not fail the check"


def test_a_check_that_cannot_be_waived_is_refused_on_the_entry(tiny):
    ja = tiny / "locales" / "ja.yaml"
    edit(ja, "  src: d6f577f8", "  src: d6f577f8\n  checked: [stale]")
    (f,) = findings(tiny).findings
    assert (f.problem.line, f.problem.code) == (38, "value")
    assert "cannot be acknowledged: stale" in f.problem.message


def test_a_check_misspelt_in_checked_is_named_with_a_did_you_mean(tiny):
    """`checked: [term]` said only "cannot be acknowledged: term", where `--check term` suggests terms."""
    ja = tiny / "locales" / "ja.yaml"
    edit(ja, "  src: d6f577f8", "  src: d6f577f8\n  checked: [term]")
    (f,) = findings(tiny).findings
    assert "cannot be acknowledged: term; did you mean 'terms'?" in f.problem.message, f.problem.message


def test_needs_translation_is_missing_and_needs_review_is_stale(tiny):
    ja = tiny / "locales" / "ja.yaml"
    edit(ja, "  text: ローマ\n  src: d0d22019", "  text: Rome\n  src: d0d22019\n  status: needs-translation")
    edit(ja, "  text: ピルム斉射\n  src: ad0e8554", "  text: ピルム斉射\n  src: ad0e8554\n  status: needs-review")
    report = findings(tiny, langs=["ja"])
    got = sorted((f.problem.code, f.problem.line, f.key) for f in report.findings)
    assert got == [("missing", 7, "faction.rome"), ("stale", 40, "card.pilum-volley.name")]
    result = call_ppgen("--root", str(tiny), "i18n", "status", "--lang", "ja", "--format", "json")
    (status,) = json.loads(result.stdout)
    assert (status["translated"], status["missing"], status["stale"], status["untranslated"]) == (11, 1, 1, 0)
    assert status["areas"]["labels"]["missing"] == 1 and status["areas"]["cards"]["stale"] == 1
    assert status["percent"] == round(100 * 11 / 13, 1)


def test_a_stale_entry_is_shown_the_whole_english_and_its_line(tiny):
    """What a translator checks a stale entry against: the English whole (shortened to 60
    characters, the words that changed at the end of a long text were cut off) and where it is."""
    en = tiny / "locales" / "en.yaml"
    long = ("Once per turn: target 1 face-up unit; it loses 2 ATK this turn. If you control another "
            "Mercenary, it loses 3 ATK instead, and its controller discards 1 card at the end of the turn.")
    edit(en, 'card.roman-archer-auxilia.effect: "Once per turn: target 1 face-up unit; it loses 2 ATK this turn."',
         f'card.roman-archer-auxilia.effect: "{long}"')
    stale = [f for f in findings(tiny, langs=["ja"]).findings if f.problem.code == "stale"]
    assert [f.key for f in stale] == ["card.roman-archer-auxilia.effect"]
    message = stale[0].problem.message
    assert 'English at locales/en.yaml:15 now ' in message and f'"{long}"' in message
    ja = tiny / "locales" / "ja.yaml"
    edit(ja, "  text: ピルム斉射\n  src: ad0e8554", "  text: ピルム斉射\n  src: ad0e8554\n  status: needs-review")
    (review,) = [f for f in findings(tiny, langs=["ja"]).findings if f.key == "card.pilum-volley.name"]
    assert 'check it against the English at locales/en.yaml:16, "Pilum Volley"' in review.problem.message


def test_an_acknowledged_english_text_counts_as_translated_in_the_status(tiny):
    """`checked: [untranslated]` (reviewed: it stays English): `check` is silent, and `status` counts
    it translated — the language reaches 100 % (it stayed at 99.9 % with nothing left to fix)."""
    ja = tiny / "locales" / "ja.yaml"
    edit(ja, "  text: ローマ\n  src: d0d22019", "  text: Rome\n  src: d0d22019")

    def status():
        (out,) = json.loads(call_ppgen("--root", str(tiny), "i18n", "status", "--lang", "ja", "--format", "json").stdout)
        return out["untranslated"], out["percent"]

    assert status()[0] == 1 and status()[1] < 100
    edit(ja, "  text: Rome\n  src: d0d22019", "  text: Rome\n  src: d0d22019\n  checked: [untranslated]")
    assert [f for f in findings(tiny, langs=["ja"]).findings if f.problem.code == "untranslated"] == []
    assert status() == (0, 100.0)


@pytest.mark.parametrize("given", [["--lang", "ja", "--lang", "xx"], ["--lang", "ja,xx"], ["-l", "xx", "-l", "ja,ja"]])
def test_the_i18n_commands_take_several_languages(tiny, given):
    """`--lang` repeated or with commas names several languages (a repeated one was dropped silently:
    `--lang ja --lang ko` checked ko alone), as `build --lang` does; `all` is the default."""
    result = call_ppgen("--root", str(tiny), "i18n", "check", *given, "--format", "json")
    assert sorted(json.loads(result.stdout)["languages"]) == ["ja", "xx"]
    status = call_ppgen("--root", str(tiny), "i18n", "status", *given, "--format", "json")
    assert sorted(s["lang"] for s in json.loads(status.stdout)) == ["ja", "xx"]
    sync = call_ppgen("--root", str(tiny), "i18n", "sync", *given, "--dry-run")
    assert sync.returncode == 0 and "locales/ja.yaml" in sync.stderr + sync.stdout and "locales/xx.yaml" in sync.stderr + sync.stdout
    every = call_ppgen("--root", str(tiny), "i18n", "check", "--lang", "all", "--format", "json")
    assert json.loads(every.stdout)["languages"] == ["en", "ja", "xx"]
    wrong = call_ppgen("--root", str(tiny), "i18n", "check", "--lang", "ja,jp")
    assert wrong.returncode == 2 and "unknown language 'jp'" in wrong.stderr


def test_the_help_names_every_check():
    """`i18n check --help` lists every check --check takes (keywords and punctuation were left out)."""
    out = call_ppgen("i18n", "check", "--help").stdout
    option = out[out.index("--check NAME"):].split("--format")[0]
    assert all(name in option for name in check_names()), option


def test_an_english_key_the_rulebook_still_prints_cannot_be_deleted_unnoticed(game_copy):
    """A key deleted from English that templates/rulebook.yaml still names stops every build: `i18n
    check` says so too, at the template's line (it passed, and sync advised pruning the translations)."""
    en = game_copy / "locales" / "en.yaml"
    text = en.read_text(encoding="utf-8")
    line = next(l for l in text.split("\n") if l.startswith("rules.tagline:"))
    en.write_text(text.replace(line + "\n", ""), encoding="utf-8")
    result = call_ppgen("--root", str(game_copy), "i18n", "check", "--lang", "en")
    assert result.returncode == 2, result.stdout + result.stderr
    assert re.search(r"^templates/rulebook\.yaml:\d+:\d+: error\[unknown-key\] 'rules\.tagline'", result.stdout, re.M), result.stdout
    build = call_ppgen("--root", str(game_copy), "build", "--parts", "rulebook", "--out", str(game_copy / "out"))
    assert build.returncode == 2 and "'rules.tagline' is not a key of the source locale" in build.stderr


def test_a_number_written_fewer_times_says_how_often_each_has_it(tiny):
    """"the translation lacks 1" left a translator looking for a 1 that is there: where both texts
    have the number, the message says how often each has it."""
    en = tiny / "locales" / "en.yaml"
    edit(en, 'card.roman-archer-auxilia.effect: "Once per turn: target 1 face-up unit; it loses 2 ATK this turn."',
         'card.roman-archer-auxilia.effect: "Once per turn: target 1 face-up unit; it loses 2 ATK and 1 DEF this turn."')
    (f,) = [f for f in findings(tiny, langs=["ja"]).findings if f.problem.code == "numbers"]  # (and stale: the English changed)
    assert "lacks 1" in f.problem.message and "(1 twice in English, once here)" in f.problem.message, f.problem.message


def test_entry_without_src_is_stale(tiny):
    ja = tiny / "locales" / "ja.yaml"
    edit(ja, "faction.rome:\n  text: ローマ\n  src: d0d22019\n", "faction.rome: ローマ\n")
    (f,) = findings(tiny).findings
    assert (f.problem.code, f.problem.line, f.problem.col) == ("stale", 6, 15)
    assert "has no src" in f.problem.message and "ppgen i18n sync" in f.problem.message


def test_markup_syntax_is_checked_in_english_too(tiny):
    edit(tiny / "locales" / "en.yaml", "loses **2 ATK** this turn", "loses **2 ATK this turn")
    report = findings(tiny, only=["markup"])
    en = [f.problem for f in report.findings if f.lang == "en"]
    assert len(en) == 1 and (en[0].file, en[0].line, en[0].col) == ("locales/en.yaml", 17, 27)
    assert "odd number of **" in en[0].message
    edit(tiny / "locales" / "ja.yaml", "'{stat}{amount}'", "'{stat}{amount'")
    bad = [f.problem for f in findings(tiny, only=["markup"]).findings if f.lang == "ja"]
    assert any("braces do not parse" in p.message and p.line == 22 for p in bad)


def test_bold_spans_must_match_english(tiny):
    edit(tiny / "locales" / "ja.yaml", "**ATKが2**下がる", "ATKが2下がる")
    (f,) = findings(tiny).findings
    assert f.problem.code == "markup" and "English sets 1 term(s) in **bold**, the translation 0" in f.problem.message


def add_entry(root: Path, key: str, english: str, ja: str) -> None:
    """Append one entry to the tiny game's en.yaml and ja.yaml (ja with the right src)."""
    from ppgen.read.locale import source_hash

    with (root / "locales" / "en.yaml").open("a", encoding="utf-8") as f:
        f.write(f"{key}: {json.dumps(english, ensure_ascii=False)}\n")
    with (root / "locales" / "ja.yaml").open("a", encoding="utf-8") as f:
        f.write(f"{key}:\n  text: {json.dumps(ja, ensure_ascii=False)}\n  src: {source_hash(english)}\n")


def terms_findings(root: Path) -> list[tuple[str, str]]:
    return sorted((f.key, f.problem.message) for f in findings(root, langs=["ja"], only=["terms"]).findings)


def test_a_placeholder_name_is_not_a_term(tiny):
    edit(tiny / "locales" / "glossary.yaml", "terms:\n", "terms:\n  - {en: faction, ja: 勢力}\n")
    add_entry(tiny, "deck.part", "{count} {faction}", "{faction}{count}枚")
    add_entry(tiny, "deck.unknown-faction", 'unknown faction "{name}"', "不明な名前「{name}」")
    ((key, message),) = terms_findings(tiny)
    assert key == "deck.unknown-faction" and 'says "faction"; the ja glossary term is 勢力' in message


def test_exclude_keys_keeps_a_term_out_of_keys_where_the_word_means_something_else(tiny):
    glossary = tiny / "locales" / "glossary.yaml"
    edit(glossary, "terms:\n", 'terms:\n  - {en: field, ja: フィールド, exclude_keys: ["deck.*"]}\n')
    add_entry(tiny, "deck.unknown-field", 'unknown field "{field}"', "不明な項目「{field}」")
    add_entry(tiny, "rules.special-deploy", "Place a unit on the field.", "ユニットを出す。")
    ((key, message),) = terms_findings(tiny)
    assert key == "rules.special-deploy" and "フィールド" in message
    edit(glossary, "exclude_keys:", "exclude_key:")
    (f,) = findings(tiny, langs=["ja"]).findings
    assert f.problem.code == "unknown-key" and "did you mean 'exclude_keys'" in f.problem.message


def write_glossary(tmp_path: Path, idioms: str):
    from ppgen.read.glossary import load_glossary

    path = tmp_path / "glossary.yaml"
    path.write_text(f"idioms:\n{idioms}", encoding="utf-8")
    return load_glossary(path, tmp_path, ["en", "ja"])


def differ(glossary, english: str, ja: str) -> tuple[list[int], list[int]]:
    """(numbers the translation lacks, numbers it has extra) once idioms are taken out."""
    from ppgen.i18n.checks import comparable_numbers

    en, tr = comparable_numbers(english, ja, "ja", glossary)
    return sorted((en - tr).elements()), sorted((tr - en).elements())


def test_a_glossary_read_again_is_shared_until_its_text_changes(tmp_path):
    """The same text gives the same Glossary (and the matches it found); an edit, a new one with
    the new terms — a game loaded again, or reloaded by the workbench, never checks against the
    terms it had before."""
    first = write_glossary(tmp_path, "  - {en: one, ja: 1個}\n")
    assert write_glossary(tmp_path, "  - {en: one, ja: 1個}\n") is first
    first.find("take one", first.idioms)
    edited = write_glossary(tmp_path, "  - {en: one, ja: 1枚}\n")
    assert edited is not first and [t.forms["ja"] for t in edited.idioms] == [("1枚",)]
    assert [m.term.forms["ja"] for m in edited.find("take one", edited.idioms)] == [("1枚",)]
    with pytest.raises(ppgen.DataError):  # a broken text is never kept
        write_glossary(tmp_path, "  - {en: one}\n  - {en: one, ja: 1個}\n")


def test_an_idiom_answers_as_many_times_as_the_english_says_it(tmp_path):
    glossary = write_glossary(tmp_path, "  - {en: one, ja: 1個}\n  - {en: two, ja: 2個}\n")
    english = "Dice: one d20 per player, and two d6."
    assert differ(glossary, english, "ダイス：d20を1個、d6を2個。") == ([], [])
    # "two" said once answers one 2個; the second is a wrong number, not the idiom again
    assert differ(glossary, english, "ダイス：d20を2個、d6を2個。") == ([], [2])
    # die names are numbers on both sides, never swallowed by an idiom
    assert differ(glossary, english, "ダイス：d12を1個、d6を2個。") == ([20], [12])


def test_a_form_s_number_is_never_part_of_a_longer_number(tmp_path):
    glossary = write_glossary(tmp_path, "  - {en: one card, ja: 1枚}\n  - {en: for each, ja: 1体につき}\n")
    # 1枚 must not be found at the end of 11枚 (that would leave a stray 1 and lose the 11)
    assert differ(glossary, "Draw one card. The deck holds 11 cards.", "カードを一枚引く。デッキは11枚。") == ([], [])
    assert differ(glossary, "Gain 1 LP for each unit.", "ユニット21体につきLPを1回復する。") == ([], [21])


def test_finding_terms_skips_only_forms_a_text_cannot_hold(project, monkeypatch):
    """read/glossary.py tries a form's regular expression only on a text whose lowercased words
    include the form's (exact where re's case folding is lower(): no ı, İ, ſ or Kelvin sign, the
    only characters beyond ASCII it folds to an ASCII letter — checked over all of Unicode); the
    same matches as trying every form, on every English text and on texts that fold."""
    import re

    from ppgen.read import glossary as module

    letter = re.compile("[a-z]", re.IGNORECASE)
    assert {chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c < 0xE000 and letter.match(chr(c))} == module.FOLDS_TO_ASCII
    glossary = project.glossary
    items = glossary.terms + glossary.idioms
    texts = [e.text for e in project.locale("en").entries.values()]
    texts += ["Deal 2 damage to an ATTACKING unit’s “Level”.", "An attac\u212a on the \u017fquare — Deplo\u0130ed.",
              "Draw one card, then one ca\u0131rd."]
    quick = [glossary.find(text, items) for text in texts]
    monkeypatch.setattr(module, "_ascii_words", lambda form: None)  # every form tried
    fresh = type(glossary)(glossary.file, glossary.terms, glossary.idioms)
    assert [fresh.find(text, items) for text in texts] == quick
    assert sum(map(len, quick)) > 500  # the texts use the terms


def test_glossary_problems_are_reported_at_their_line(tiny):
    edit(tiny / "locales" / "glossary.yaml", "{en: Infantry, ja: 歩兵, xx: pedes}", "{en: Infantry, jap: 歩兵, xx: pedes}")
    edit(tiny / "locales" / "glossary.yaml", "{en: this turn,", '{en: "this {n} turn",')
    report = findings(tiny)
    problems = {(f.problem.line, f.problem.code): f.problem.message for f in report.findings}
    assert "did you mean 'ja'" in problems[(5, "unknown-key")]
    assert "number slots {n} are for idioms" in problems[(9, "data")]
    assert len(report.findings) == 2, "checks that need the glossary wait for it to be fixed"
    assert any("glossary has errors" in i for i in report.infos)


def test_fit_reports_a_card_text_too_long_for_its_box(tiny):
    report = findings(tiny)
    assert any(i.startswith("fit check skipped") for i in report.infos)  # the tiny game has no card template
    assert report.findings == []
    (tiny / "templates").symlink_to(ROOT / "templates")
    _add_card_labels(tiny)
    fit = lambda: [f for f in findings(tiny).findings if f.problem.code == "fit"]  # noqa: E731
    assert fit() == []  # the shipped texts fit
    long_text = "相手が攻撃した時：このターン、攻撃ユニットの**ATKが2**下がる。" + "そのユニットは破壊されない。" * 30
    edit(tiny / "locales" / "ja.yaml", "  text: 相手が攻撃した時：このターン、攻撃ユニットの**ATKが2**下がる。\n",
         f"  text: {long_text}\n")
    (f,) = fit()
    assert (f.problem.code, f.problem.line, f.problem.col, f.key) == ("fit", 42, 9, "card.pilum-volley.effect")
    assert "mm" in f.problem.message


def test_the_fit_check_takes_the_layouts_a_build_kept_and_still_sees_an_edit(game_copy, tmp_path, monkeypatch):
    """After `ppgen build --lang ja`, `i18n check` lays out no card text the build laid out (it
    takes the layouts the build kept in out/.ppgen-cache: 1.1 s → 0.7 s), finds what a check
    without a build finds, and an effect edited since is laid out afresh and found too long."""
    from ppgen.i18n.fit import check_fit
    from ppgen.typeset import text

    def check():
        made = []
        real = text._lay
        monkeypatch.setattr(text, "_lay", lambda *a, **k: made.append(1) or real(*a, **k))
        text.LAYOUTS.clear()
        try:
            return [str(p) for p in check_fit(ppgen.load(game_copy), "ja")], len(made)
        finally:
            monkeypatch.setattr(text, "_lay", real)

    alone, laid_alone = check()
    assert call_ppgen("build", "--lang", "ja", "--parts", "cards", root=game_copy).returncode == 0
    after_build, laid_after = check()
    assert after_build == alone and laid_alone > 500 and laid_after == 0
    ja = game_copy / "locales" / "ja.yaml"
    lines = ja.read_text(encoding="utf-8").split("\n")
    at = lines.index("card.pilum-volley.effect:") + 1
    lines[at] = lines[at] + "そのユニットは破壊されない。" * 30
    ja.write_text("\n".join(lines), encoding="utf-8")
    edited, laid_edited = check()
    assert 0 < laid_edited < laid_alone / 10
    assert [p for p in edited if p not in alone] and "the effect text does not fit its box" in " ".join(edited)


def _add_card_labels(root):
    """Give the tiny game the English words a card front prints besides names and effects."""
    import yaml

    real = yaml.safe_load((ROOT / "locales" / "en.yaml").read_text(encoding="utf-8"))
    en = root / "locales" / "en.yaml"
    have = yaml.safe_load(en.read_text(encoding="utf-8"))
    extra = {k: v for k, v in real.items() if k.split(".")[0] in ("label", "kind", "type", "trait", "stat", "bonus") and k not in have}
    with open(en, "a", encoding="utf-8") as fh:
        fh.write(yaml.safe_dump(extra, allow_unicode=True))


def test_status_table_lists_each_language_and_area(tiny):
    result = call_ppgen("--root", str(tiny), "i18n", "status")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["lang", "name", "area", "keys", "translated", "missing", "stale", "untranslated", "done", "orphans"]
    assert lines[2].split() == ["ja", "日本語", "all", "13", "13", "0", "0", "0", "100.0", "%", "0"]
    assert any(line.split()[:2] == ["xx", "Xenish"] for line in lines)
    assert "2 languages, 2 complete" in result.stderr


def test_languages_are_data_a_configured_language_gets_a_file_from_sync(tiny):
    config = tiny / "ppgen.yaml"
    config.write_text(config.read_text(encoding="utf-8") + (
        "  yy:\n    name: Yish\n    fonts:\n      body: [DejaVuSans.ttf]\n      bold: [DejaVuSans-Bold.ttf]\n"), encoding="utf-8")
    result = call_ppgen("--root", str(tiny), "i18n", "sync", "--lang", "yy")
    assert result.returncode == 0, result.stderr
    loc = ppgen.load(tiny).locale("yy")
    assert len(loc.entries) == 13 and {e.status for e in loc.entries.values()} == {"needs-translation"}
    result = call_ppgen("--root", str(tiny), "i18n", "status", "--lang", "yy", "--format", "json")
    assert json.loads(result.stdout)[0]["missing"] == 13


REAL_MUTATIONS = [
    # (language, key, old, new, check): one real mistake in the shipped locales, caught by the real glossary
    ("ja", "card.call-of-the-tribes.effect", "歩兵または射撃歩兵", "歩兵または歩兵", "terms"),
    ("ko", "card.granary-stores.effect", "유닛 1장마다 LP를 1 회복", "유닛 1장마다 LP를 2 회복", "numbers"),
    ("zh", "card.narrow-pass.effect", "至多宣言 1 次攻击", "至多宣言 2 次攻击", "numbers"),
    ("ja", "card.eagle-standard.effect", "ATKとDEFが1上がる", "ATKとDEFが2上がる", "numbers"),
    # the number-word idioms answer once per English occurrence ("one d20 … two d6")
    ("ja", "rules.table.dice", "d20スピンダウンダイス1個", "d20スピンダウンダイス2個", "numbers"),
    ("ko", "rules.deck.5", "+ 제2 진영", "+ 제3 진영", "numbers"),
    # "field" is excluded from deck.* only; the seed variants widen ko face-down, not drop it
    ("ko", "card.decebalus-king-of-dacia.effect", "필드에 지형", "전장에 지형", "terms"),
    ("ko", "rules.special-deploy.1", "뒷면 수비 표시", "수비 표시", "terms"),
]


@pytest.mark.parametrize("lang,key,old,new,code", REAL_MUTATIONS, ids=[m[1] for m in REAL_MUTATIONS])
def test_real_glossary_and_idioms_catch_real_mistakes(game_copy, lang, key, old, new, code):
    path = game_copy / "locales" / f"{lang}.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n{key}:\n")
    end = text.index("\n  src:", start)
    assert old in text[start:end]
    path.write_text(text[:start] + text[start:end].replace(old, new) + text[end:], encoding="utf-8")
    project = ppgen.load(game_copy)
    (f,) = run_checks(project, [lang]).findings
    assert (f.key, f.problem.code, f.problem.line) == (key, code, project.locale(lang).position(key)[0])


def test_a_key_word_spelled_otherwise_is_a_warning(tiny):
    """The English opens a clause with the glossary key word "Once per turn:"; the translation
    keeps the term (so `terms` is content) but writes no colon: the key-word rule would not set
    it in bold, nor keep it whole — a warning at the entry."""
    ja = tiny / "locales" / "ja.yaml"
    edit(ja, "1ターンに1度：表側", "1ターンに1度、表側")
    report = findings(tiny)
    assert [(f.problem.code, f.problem.severity, f.key, f.problem.line) for f in report.findings] == [
        ("keywords", "warning", "card.roman-archer-auxilia.effect", 36)]
    assert "spells it 1ターンに1度：" in report.findings[0].problem.message
    assert "it opens no clause with a colon" in report.findings[0].problem.message
    result = call_ppgen("--root", str(tiny), "i18n", "check")
    assert result.returncode == 0 and "warning[keywords]" in result.stdout  # warnings alone pass


def test_punctuation_follows_the_language_setting(tiny):
    """English quotes curly (ppgen.yaml quotes: curly): a straight apostrophe is an error whose
    message gives the text with curly ones; with `quotes: any` nothing is checked."""
    en = tiny / "locales" / "en.yaml"
    edit(en, "card.pilum-volley.name: Pilum Volley", "card.pilum-volley.name: \"Caesar's \\\"Pilum\\\" Volley\"")
    report = findings(tiny, only=["punctuation"])
    (f,) = report.findings
    assert (f.lang, f.key, f.problem.code) == ("en", "card.pilum-volley.name", "punctuation")
    assert "has straight ' \"" in f.problem.message and "write \"Caesar’s “Pilum” Volley\"" in f.problem.message
    edit(tiny / "ppgen.yaml", "    name: English\n    quotes: curly", "    name: English\n    quotes: any")
    assert findings(tiny, only=["punctuation"]).findings == []


def test_smart_quotes():
    from ppgen.i18n.checks import smart_quotes

    assert smart_quotes("don't") == "don’t"
    assert smart_quotes("the players' dice") == "the players’ dice"
    assert smart_quotes('unknown card "{name}"') == "unknown card “{name}”"
    assert smart_quotes("('quoted') and \"x\"") == "(‘quoted’) and “x”"
    assert smart_quotes("tag '{tag}' here") == "tag ‘{tag}’ here"  # a placeholder opens like a word
    assert smart_quotes("the items ('- ') of a list") == "the items (‘- ’) of a list"  # the next quote closes
    assert smart_quotes("a ': ' inside") == "a ‘: ’ inside"


def test_quote_style_does_not_make_translations_stale():
    """Making English typographic (don't → don’t, "x" → “x”) changes no meaning: the fingerprint
    a translation records is the same, so no translation turns stale."""
    from ppgen.read.locale import source_hash

    assert source_hash("Energy you don't use is lost.") == source_hash("Energy you don’t use is lost.")
    assert source_hash('unknown card "{name}"') == source_hash("unknown card “{name}”")
    assert source_hash("Energy you don't use is lost.") != source_hash("Energy you do use is lost.")


def test_typesetting_sections_of_the_glossary_are_checked_at_their_line(tiny):
    """`unbreakable` and `breaks` name known languages and hold well-formed phrases; each
    mistake is a problem at its line, and the build (which typesets with them) refuses it too."""
    glossary = tiny / "locales" / "glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8") + (
        'unbreakable:\n  all: ["{n} ATK"]\n  jap: ["{n}体"]\n  ja: ["{x} ATK"]\n'
        "breaks:\n  ja: [スタンバイフェイズ]\n"), encoding="utf-8")
    report = findings(tiny)
    problems = sorted((f.problem.line, f.problem.message) for f in report.findings)
    lines = glossary.read_text(encoding="utf-8").splitlines()
    at = {text: lines.index(text) + 1 for text in ('  jap: ["{n}体"]', '  ja: ["{x} ATK"]', "  ja: [スタンバイフェイズ]")}
    assert [p[0] for p in problems] == sorted(at.values())
    assert "unknown language 'jap' in unbreakable; did you mean 'ja'" in dict(problems)[at['  jap: ["{n}体"]']]
    assert "the only braces a phrase may hold are the slots {n}" in dict(problems)[at['  ja: ["{x} ATK"]']]
    assert "must mark where it breaks with |" in dict(problems)[at["  ja: [スタンバイフェイズ]"]]
    with pytest.raises(ppgen.DataError):
        ppgen.load(tiny).phrases("ja")


def test_the_glossary_gives_each_language_its_phrases(project):
    ja = project.phrases("ja")
    assert "1ターンに1度：" in ja.keep and "{n} ATK" in ja.keep and "{word} ♚" in ja.keep  # key words, all, own
    assert ja.spans("墓地からレベル5未満の歩兵", "cjk") == [(4, 10)]
    assert ja.seams("スタンバイフェイズ") == {5}
    en = project.phrases("en")
    assert "Once per turn:" in en.keep and "1ターンに1度：" not in en.keep
    text = "Alexander, King of Macedon ♚ gains 1 ATK"
    assert [text[a:b] for a, b in en.spans(text, "words")] == ["Macedon ♚", "1 ATK"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_card_text_with_braces_is_a_markup_error(tiny, lang):
    """A card's texts are printed as written (no placeholders are filled in them): `gains {bogus}
    ATK` printed "{bogus}" on the card and passed the check in English. Braces in a card text are
    a markup error in every language, at the text."""
    path = tiny / "locales" / f"{lang}.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("card.") and ".effect" in line.split(":")[0])
    row = at if lang == "en" else at + 1
    text = lines[row].rstrip()
    lines[row] = text[:-1] + ' {bogus}"' if text.endswith('"') else text + " {bogus}"
    path.write_text("\n".join(lines), encoding="utf-8")
    report = findings(tiny, langs=[lang])
    found = [(f.problem.code, f.problem.line) for f in report.findings]
    assert found == [("markup", row + 1)], [str(f.problem) for f in report.findings]
    assert "has braces: a card's texts take no {placeholders}" in report.findings[0].problem.message


def test_a_text_of_another_kind_is_one_error_and_a_doubled_placeholder_is_said_as_such(game_copy):
    """`text: [a, b]` was reported twice — as a list, and as "an empty text", which it is not; a
    translation with {starting_life} twice where English has it once was said to have an "unknown
    {starting_life}", and the translator looked for a typo that was not there."""
    ja = game_copy / "locales" / "ja.yaml"
    text = ja.read_text(encoding="utf-8")
    effect = "card.hastati-line.effect:\n  text: "
    start = text.index(effect) + len(effect)
    text = text[:start] + "[a, b]" + text[text.index("\n", start):]
    goal = "rules.goal.1:\n  text: "
    start = text.index(goal) + len(goal)
    end = text.index("\n", start)
    assert "{starting_life}" in text[start:end]
    text = text[:start] + text[start:end] + "{starting_life}" + text[end:]
    ja.write_text(text, encoding="utf-8")
    result = call_ppgen("i18n", "check", "--lang", "ja", cwd=game_copy)
    assert result.returncode == 2, result.stderr
    said = result.stdout + result.stderr
    assert "'text' must be text, not a list" in said and "empty" not in said, said
    ja.write_text(text.replace(effect + "[a, b]", effect + "ハスタティ"), encoding="utf-8")
    result = call_ppgen("i18n", "check", "--lang", "ja", cwd=game_copy)
    said = result.stdout + result.stderr
    assert "'rules.goal.1': placeholders differ from English: the translation has {starting_life} twice where English has it once" in said, said
    assert "unknown" not in said
