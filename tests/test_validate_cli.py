"""`ppgen validate`: exit codes, text and JSON output, unreadable files, speed-critical imports."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from clitools import call_ppgen
from conftest import ROOT

STARTER = str(ROOT / "decks" / "starter-rome.txt")


def run(*args, cwd=ROOT):
    return call_ppgen("validate", *args, cwd=cwd)


def write(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return str(path)


def test_legal_deck_exits_0_with_a_summary():
    result = run("decks/starter-rome.txt")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("decks/starter-rome.txt: Rome starter — Standard deck, legal")
    assert "Commanders: 2 · Terrain cards: 2" in result.stdout
    assert "1 decklist checked: 1 legal" in result.stderr


def test_illegal_deck_exits_1_and_lists_every_problem(tmp_path):
    text = (ROOT / "decks" / "starter-rome.txt").read_text(encoding="utf-8")
    text = text.replace("3 Legionary Cohort", "4 Legionary Cohort").replace("primary: Rome", "primary: Rome\ngames: 0")
    text += "1 Darius, Great King\n"
    deck = write(tmp_path / "deck.txt", text)
    result = run(deck)
    assert result.returncode == 1
    out = result.stdout
    line = text.split("\n").index("4 Legionary Cohort") + 1
    assert f"deck.txt:{line}:3: error[copies] 4 copies of Legionary Cohort; at most 3 of any card" in out
    assert "error[deck-size] the deck has 42 cards; it must have exactly 40" in out
    assert "    hint: remove 2 cards" in out
    assert "error[commander-faction]" in out and "error[faction-locked] Persia unlocks at 6 games; you have 0" in out


def test_quiet_shows_only_the_problems_and_the_summary(tmp_path):
    """--quiet ("only errors and the final summary"): a legal deck prints nothing but the summary, an
    illegal one its verdict, errors and hints — not its tables, not its info lines (it printed the
    whole report)."""
    one = write(tmp_path / "one.txt", "1 Hastati Line\n")
    result = call_ppgen("--quiet", "validate", STARTER, one, cwd=ROOT)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{one}: Standard deck, not legal (2 errors)",
        f"{one}: error[deck-size] the deck has 1 card; it must have exactly 40", "    hint: add 39 cards",
        f"{one}: error[commanders] no Commander; a deck has 1 to 2",
        "    hint: add a Commander of your primary faction, e.g. Trajan, Imperial Vanguard"]
    assert "2 decklists checked: 1 legal, 1 not legal" in result.stderr
    legal = call_ppgen("--quiet", "validate", STARTER, cwd=ROOT)
    assert legal.returncode == 0 and legal.stdout == "" and "1 decklist checked: 1 legal" in legal.stderr


def test_json_is_stable_for_scripts(tmp_path):
    bad = write(tmp_path / "bad.txt", "primary: Rome\n4 Hastati Line\n")
    result = run(STARTER, bad, "--format", "json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["version"] == 1 and len(data["decks"]) == 2
    good, wrong = data["decks"]
    assert good["legal"] is True and good["type"] == "standard" and good["primary"] == "rome"
    assert sum(c["count"] for c in good["cards"]) == 40
    assert set(good) >= {"file", "readable", "legal", "format", "name", "type", "primary", "primary_source", "games",
                         "games_source", "errors", "warnings", "problems", "cards", "summary", "skipped"}
    copies = next(p for p in wrong["problems"] if p["code"] == "copies")
    assert copies == {
        "code": "copies", "severity": "error", "message": "4 copies of Hastati Line; at most 3 of any card",
        "hint": "remove 1 copy", "file": bad, "line": 2, "col": 3, "lines": [2], "cards": ["hastati-line"],
        "params": {"card": "hastati-line", "count": 4, "max": 3}, "hint_params": {"n": 1},
    }


def test_messages_in_the_chosen_language(tmp_path):
    deck = write(tmp_path / "deck.txt", "主勢力: ペルシア\n試合数: 4\n" + "".join(
        f"{n} {name}\n" for n, name in [(3, "鎌戦車"), (3, "不死隊近衛兵")]))
    result = run(deck, "--lang", "ja")
    assert result.returncode == 1
    assert "ペルシアは6試合で解放されます。現在の試合数は4です" in result.stdout
    assert "ヒント: あと2試合プレイしてください" in result.stdout
    assert "デッキリスト1件を確認" in result.stderr


def test_games_option(tmp_path):
    persia = str(ROOT / "decks" / "starter-persia.txt")
    assert run(persia, "--games", "5").returncode == 1
    assert run(persia, "--games", "6").returncode == 0
    assert run(persia, "--games", "-1").returncode == 2  # click rejects it


def test_unreadable_files_exit_2_with_positions(tmp_path):
    latin1 = write(tmp_path / "latin1.txt", "primary: Rome\n2 Café\n", "latin-1")
    yaml_bad = write(tmp_path / "broken.yaml", "cards:\n  Hastati Line: 3\n  - Testudo\n")
    missing = str(tmp_path / "missing.txt")
    result = run(latin1, yaml_bad, missing, STARTER)
    assert result.returncode == 2
    assert "latin1.txt:2:6: error[encoding] invalid UTF-8 byte 0xe9" in result.stdout
    assert "broken.yaml:3:3: error[yaml]" in result.stdout
    assert "missing.txt: error[io] file not found" in result.stdout
    assert "starter-rome.txt: Rome starter — Standard deck, legal" in result.stdout  # the others are still checked
    assert "Traceback" not in result.stderr


def test_folder_and_file_named_twice(tmp_path):
    result = run("decks", "decks/starter-rome.txt", "--format", "json")
    assert result.returncode == 0
    files = [d["file"] for d in json.loads(result.stdout)["decks"]]
    assert len(files) == len(set(files)) == len(list((ROOT / "decks").iterdir()))
    assert "starter-rome.txt is named more than once; checked once" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(str(empty))
    assert result.returncode == 2 and "no decklists (.txt, .yaml) in this folder" in result.stdout


def test_empty_and_bom_crlf_files(tmp_path):
    assert run(write(tmp_path / "empty.txt", "")).returncode == 1
    text = (ROOT / "decks" / "starter-rome.txt").read_text(encoding="utf-8").replace("\n", "\r\n")
    bom = write(tmp_path / "bom.txt", b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert run(bom).returncode == 0


def test_validate_does_not_import_the_pdf_stack():
    code = (
        "import sys\n"
        "from ppgen.cli import main\n"
        f"try:\n    main(['validate', {STARTER!r}])\nexcept SystemExit as exc:\n    code = exc.code\n"
        "heavy = [m for m in ('reportlab', 'PIL', 'pypdf', 'pypdfium2') if m in sys.modules]\n"
        "print('HEAVY', heavy, 'EXIT', code)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "HEAVY [] EXIT 0" in result.stdout, result.stdout + result.stderr


# ── every message in the report's language (issue 13, item 7) ─────────────
UNREADABLE = {  # file → (its bytes, the problem's code)
    "shift-jis.txt": ("primary: Rome\n3 テストゥド\n".encode("shift_jis"), "encoding"),
    "binary.txt": (b"\x00\x01\x02" * 10, "encoding"),
    "broken.yaml": ("cards:\n  Hastati Line: 3\n  - Testudo\n".encode(), "yaml"),
    "twice.yaml": ("cards:\n  Testudo: 2\n  Testudo: 1\n".encode(), "duplicate"),
    "tagged.yaml": ("games: !!int seven\n".encode(), "yaml"),
    "list.yaml": ("- 3 Hastati Line\n".encode(), "yaml"),
    "cards-list.yaml": ("cards:\n  - 3 Testudo\n".encode(), "yaml"),
    "missing.txt": (None, "io"),
    "no/folder.txt": (None, "io"),
    "a-folder.txt": ("folder", "io"),
}
ENGLISH_WORDS = ("file", "invalid", "UTF-8 byte", "binary", "folder", "duplicate", "YAML tag", "decklist is", "mapping", "found")


def unreadable_decks(tmp_path):
    paths = []
    for name, (data, _) in UNREADABLE.items():
        path = tmp_path / name
        if data == "folder":
            path.mkdir()
            (path / "x.txt").write_text("3 Testudo\n", encoding="utf-8")
        elif data is not None:
            path.write_bytes(data)
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("lang", ["ja", "ko", "zh"])
def test_file_problems_are_reported_in_the_reports_language(tmp_path, project, lang):
    """A Shift-JIS decklist got its "not UTF-8" message in English under --lang ja."""

    result = run(*unreadable_decks(tmp_path), "--lang", lang, "--format", "json")
    assert result.returncode == 2, result.stderr
    found = {d["file"].split(str(tmp_path) + "/")[-1]: d for d in json.loads(result.stdout)["decks"]}
    loc = project.locale(lang)
    for name, (_, code) in UNREADABLE.items():
        if name == "a-folder.txt":
            continue  # a folder stands for the decklists in it
        (problem,) = found[name]["problems"]
        assert problem["code"] == code, (name, problem)
        message = problem["message"].replace(str(tmp_path), "")
        assert not any(word in message for word in ENGLISH_WORDS), (name, message)
        assert any(ch > "\u3000" for ch in message), (name, message)
    sjis = "shift-jis.txt"  # named from its folder: a long temporary path would be shortened in the heading
    text = run(sjis, "--root", str(ROOT), "--lang", lang, cwd=tmp_path)
    assert text.returncode == 2
    head, line = text.stdout.splitlines()[:2]
    assert head == loc.format("deck.unreadable", file=sjis)
    assert line == f"{sjis}:2:3: error[encoding] " + loc.format("file.not-utf8", byte="83"), line


def test_the_english_of_every_file_message_is_the_english_locale(project):
    """The messages read/ and decks/ raise before any locale is loaded are the English locale's texts."""
    from ppgen.errors import MESSAGES

    en = project.locale("en")
    for key, template in MESSAGES.items():
        assert en.entries[key].text == template, key
        for lang in ("ja", "ko", "zh"):
            assert project.locale(lang).is_translated(key), (lang, key)


def test_the_untranslated_texts_warning_is_in_the_reports_language(game_copy):
    ja = game_copy / "locales" / "ja.yaml"
    text = ja.read_text(encoding="utf-8")
    start = text.index("deck.label.curve:")
    ja.write_text(text[:start] + text[text.index("\ndeck.", start) + 1:], encoding="utf-8")
    result = run(str(game_copy / "decks" / "starter-rome.txt"), "--root", str(game_copy), "--lang", "ja")
    assert result.returncode == 0, result.stderr
    assert "警告: 1件のテキストが日本語に翻訳されていないため、英語で表示しています" in result.stderr, result.stderr
    assert "読み込み不可0件、警告1件 (" in result.stderr
