"""Bad data gets one clear message per problem with file:line:col, exit code 2, no traceback."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

import ppgen
from clitools import Break, call_ppgen
from ppgen.errors import DataError


def run_cli(*args, cwd=None):
    return call_ppgen(*args, cwd=cwd)


def corrupt(path, old, new, count=1):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path, needle, nth=1):
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [i + 1 for i, line in enumerate(lines) if needle in line]
    return hits[nth - 1]


def test_four_corruptions_reported_at_once(game_copy):
    cards = game_copy / "cards.yaml"
    corrupt(cards, "      - id: numidian-cavalry", "      - id: balearic-slingers")  # duplicate id
    corrupt(cards, "        atk: 6\n", "        atk: 9\n")  # out of range
    corrupt(cards, "        copies: 2\n        type: infantry\n", "        copies: 2\n        type: infantry\n        speed: 3\n")
    with pytest.raises(DataError) as exc:
        ppgen.load(game_copy)
    problems = exc.value.problems
    messages = [str(p) for p in problems]
    dup_line = line_of(cards, "id: balearic-slingers", 2)
    assert any(p.code == "duplicate" and p.line == dup_line and p.col == 13 for p in problems), messages
    atk_line = line_of(cards, "atk: 9")
    assert any(p.code == "range" and p.line == atk_line and "between 1 and 6, not 9" in p.message for p in problems), messages
    speed_line = line_of(cards, "speed: 3")
    assert any(p.code == "unknown-key" and p.line == speed_line and p.col == 9 for p in problems), messages
    assert len(problems) == 3, messages
    result = run_cli("--root", str(game_copy), "cards")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert re.search(rf"cards\.yaml:{atk_line}:\d+: error\[range\]", result.stderr)
    assert re.search(rf"cards\.yaml:{dup_line}:13: error\[duplicate\]", result.stderr)


@pytest.mark.parametrize("key, expected", [("level", "a whole number"), ("atk", "a whole number"), ("def", "a whole number"),
                                           ("energy", "a whole number"), ("type", "text")])
def test_a_unit_s_stat_or_type_left_blank_is_an_error_where_it_stands(game_copy, key, expected):
    """`atk:` with nothing after it: the card printed "None" in its ATK badge and every command went
    on (exit 0); `type:` ended in an internal error (KeyError 'type.None'). Now an error at the key,
    as a blank `copies:` is, and nothing is written."""
    cards = game_copy / "cards.yaml"
    block = "      - id: balearic-slingers\n        code: CAR-01\n        kind: unit\n"
    text = cards.read_text(encoding="utf-8")
    start = text.index(block) + len(block)
    end = text.index("\n      - id:", start)
    entry = re.sub(rf"^(        {key}):.*$", r"\1:", text[start:end], count=1, flags=re.M)
    cards.write_text(text[:start] + entry + text[end:], encoding="utf-8")
    line = text[:start].count("\n") + 1 + entry[: entry.index(f"        {key}:")].count("\n")
    for command in (["cards"], ["build", "--lang", "en", "--parts", "cards", "--faction", "carthage"]):
        result = run_cli("--root", str(game_copy), *command)
        assert result.returncode == 2, (command, result.stderr)
        col = len(f"        {key}:") + 1  # where its value would be, as for a blank `copies:`
        assert f"cards.yaml:{line}:{col}: error[type] '{key}' must be {expected}, not nothing" in result.stderr, result.stderr
        assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert not (game_copy / "out").exists()


def test_bad_indentation(game_copy):
    cards = game_copy / "cards.yaml"
    corrupt(cards, "        atk: 2\n        def: 1\n", "        atk: 2\n      def: 1\n")
    result = run_cli("--root", str(game_copy), "cards")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert re.search(r"cards\.yaml:\d+:\d+: error\[yaml\]", result.stderr), result.stderr


@pytest.mark.parametrize("quote", ['"', "'"])
def test_an_unclosed_quote_is_pointed_at_where_it_opens(game_copy, quote):
    """A translator's quote left open runs on until the next entry's quote closes it and YAML fails
    hundreds of lines below ("while scanning an alias" at 1351): the error names the line where
    the quote opened, and says what it is."""
    from ppgen.read.yamlio import load_yaml

    ja = game_copy / "locales" / "ja.yaml"
    lines = ja.read_text(encoding="utf-8").split("\n")
    at = lines.index("card.roman-archer-auxilia.name:") + 1
    lines[at] = lines[at].replace("  text: ", f"  text: {quote}")
    ja.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_yaml(ja, game_copy, plain_strings=True)
    (p,) = exc.value.problems
    assert (p.line, p.col) == (at + 1, 9) and "quoted text is not closed" in p.message, str(p)


@pytest.mark.parametrize("pure", [False, True], ids=["libyaml", "pure-python"])
def test_a_bracket_left_open_is_pointed_at_where_it_opens(game_copy, monkeypatch, pure):
    """`def: [` never closed was reported two lines below, where YAML gave up; now where it opens."""
    from ppgen.read.yamlio import load_yaml

    if pure:
        monkeypatch.setenv("PPGEN_PURE_YAML", "1")
    cards = game_copy / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    at = text.index("        def: 3\n        energy: 3\n        copies: 3\n        type: cavalry")
    line = text.count("\n", 0, at) + 1
    for value, col in (("[", 14), ("{atk: 3", 14)):
        cards.write_text(text[:at] + f"        def: {value}" + text[at + len("        def: 3"):], encoding="utf-8")
        with pytest.raises(DataError) as exc:
            load_yaml(cards, game_copy)
        (p,) = exc.value.problems
        assert (p.line, p.col) == (line, col) and "in brackets is not closed" in p.message, (value, str(p))


def test_a_quote_left_open_at_the_end_of_a_file_or_closed_by_another_is_pointed_at_where_it_opens(game_copy, tmp_path):
    """Never closed, at the last entry: it was reported on a line after the file's end (3:1 of a
    two-line decklist). Closed by another text's quote 150 lines below: the mapping it swallowed
    read on, and the error was a "duplicate key 'accent'" there, not the quote."""
    from ppgen.read.yamlio import load_yaml

    deck = tmp_path / "deck.yaml"
    deck.write_text("games: 3\nprimary: 'Rome\n", encoding="utf-8")
    result = run_cli("--root", str(game_copy), "validate", str(deck))
    assert result.returncode == 2 and f"{deck}:2:10: error[yaml] invalid YAML: a quoted text is not closed" in result.stdout + result.stderr
    ja = game_copy / "locales" / "ja.yaml"
    text = ja.read_text(encoding="utf-8").rstrip("\n").split("\n")
    last = max(i for i, line in enumerate(text) if line.startswith("  text: "))
    text[last] = text[last].replace("  text: ", "  text: '", 1)
    ja.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_yaml(ja, game_copy, plain_strings=True)
    (p,) = exc.value.problems
    assert (p.line, p.col) == (last + 1, 9) and "quoted text is not closed" in p.message, str(p)
    cards = game_copy / "cards.yaml"
    at = line_of(cards, 'accent: "#')
    lines = cards.read_text(encoding="utf-8").split("\n")
    lines[at - 1] = lines[at - 1].rstrip('"')
    cards.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        ppgen.load(game_copy)
    (p,) = exc.value.problems
    assert (p.line, p.code) == (at, "yaml") and "quoted text is not closed" in p.message, str(p)


def test_a_duplicate_key_after_a_closed_text_on_several_lines_is_named_as_such():
    """A quoted text rightly on two lines, holding "Note: …" of its own, and a duplicate key below:
    the duplicate is named, not an unclosed quote (only a key indented as the quote's own, or an item
    of a list around it, reads as swallowed)."""
    from ppgen.read.yamlparse import parse

    with pytest.raises(DataError) as exc:
        parse('a:\n  text: "A long text\n    Note: it goes on."\nb:\n  text: one\nb:\n  text: two\n', "x.yaml", True)
    (p,) = exc.value.problems
    assert (p.line, p.code) == (6, "duplicate"), str(p)


def test_a_text_on_several_lines_in_quotes_is_not_taken_for_an_unclosed_one(game_copy):
    """A quoted text that rightly runs over two lines, and a mistake after it: the mistake is named."""
    from ppgen.read.yamlio import load_yaml

    ja = game_copy / "locales" / "ja.yaml"
    lines = ja.read_text(encoding="utf-8").split("\n")
    at = lines.index("card.roman-archer-auxilia.name:") + 1
    lines[at] = '  text: "ローマ補助\n    弓兵隊"'
    bad = lines.index("card.numidian-cavalry.name:") + 1
    lines[bad] = "   " + lines[bad].lstrip()  # a field indented one space too far
    ja.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_yaml(ja, game_copy, plain_strings=True)
    (p,) = exc.value.problems
    assert p.line >= bad and "quoted text is not closed" not in p.message, str(p)


def test_duplicate_yaml_key_is_not_silently_kept(game_copy):
    cards = game_copy / "cards.yaml"
    corrupt(cards, "        atk: 2\n        def: 1\n", "        atk: 2\n        atk: 3\n        def: 1\n")
    with pytest.raises(DataError) as exc:
        ppgen.load(game_copy)
    (p,) = exc.value.problems
    assert p.code == "duplicate" and "atk" in p.message and p.line == line_of(cards, "atk: 3")


def test_starter_deck_total(game_copy):
    corrupt(game_copy / "cards.yaml", "        copies: 3\n        type: cavalry\n", "        copies: 1\n        type: cavalry\n")
    with pytest.raises(DataError) as exc:
        ppgen.load(game_copy)
    assert any(p.code == "starter-deck" and "total 38, must be 40" in p.message for p in exc.value.problems)


def test_locale_naming_an_unknown_card(game_copy):
    ja = game_copy / "locales" / "ja.yaml"
    corrupt(ja, "card.hastati-line.name:", "card.hastati-lines.name:")
    project = ppgen.load(game_copy)
    with pytest.raises(DataError) as exc:
        project.locale("ja")
    (p,) = exc.value.problems
    assert p.code == "unknown-card" and "did you mean 'hastati-line'" in p.message
    assert p.line == line_of(ja, "card.hastati-lines.name") + 1


def test_locale_with_duplicate_key(game_copy):
    en = game_copy / "locales" / "en.yaml"
    text = en.read_text(encoding="utf-8") + "card.hastati-line.name: Again\n"
    en.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as exc:
        ppgen.load(game_copy).locale("en")
    assert exc.value.problems[0].code == "duplicate"


def test_no_game_directory(tmp_path):
    result = run_cli("cards", cwd=tmp_path)
    assert result.returncode == 2
    assert "no game directory found" in result.stderr and "Traceback" not in result.stderr


def test_help_and_validate_do_not_import_the_pdf_stack():
    code = (
        "import sys\n"
        "from ppgen.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('reportlab', 'PIL', 'pypdf', 'pypdfium2') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "HEAVY []" in result.stdout, result.stdout + result.stderr


def test_version():
    result = run_cli("--version")
    assert result.returncode == 0 and ppgen.__version__ in result.stdout


# The language rules of ppgen.yaml (read/config.py): each message alone, at its line:col.
EN_FONTS = "\n  en:"
FONT_RULES = {
    "unknown-role": Break(EN_FONTS, "      title: [Cinzel", "      italic: [NotoSans_400Regular.ttf]\n      title: [Cinzel", "data",
                          "unknown font role 'italic' (roles: body, bold, title)", "      italic:", "italic"),
    "chain-not-a-list": Break(EN_FONTS, "      bold: [NotoSans_700Bold.ttf, DejaVuSans-Bold.ttf]", "      bold: NotoSans_700Bold.ttf", "data",
                              "a font chain is a list of font file names in fonts/", "      bold:", "NotoSans"),
    "empty-chain": Break(EN_FONTS, "      bold: [NotoSans_700Bold.ttf, DejaVuSans-Bold.ttf]", "      bold: []", "data",
                         "a font chain is a list of font file names in fonts/", "      bold:", "["),
    "needs-body": Break(EN_FONTS, "      body: [NotoSans_400Regular.ttf, DejaVuSans.ttf]\n", "", "data",
                        "language 'en' needs a 'body' font chain", "      bold:", "bold"),
    # a font outside fonts/ (it was opened wherever it was, and refused without a line: "cannot use font cards.yaml")
    "font-outside": Break(EN_FONTS, "      bold: [NotoSans_700Bold.ttf,", "      bold: [../cards.yaml,", "font",
                          "'../cards.yaml' is not in fonts/: a font chain names font files of the game's fonts/ folder "
                          "(e.g. NotoSans_400Regular.ttf)", "      bold:", "../cards.yaml"),
    # a language's own name left empty, a number, or blank: it was read anyway (exit 3, "internal
    # error: TypeError: normalize() argument 2 must be str, not None", from every command)
    "name-empty": Break("\n  ko:", "    name: 한국어", "    name: ~", "type", "'name' must be text, not nothing", "    name:", "~"),
    "name-number": Break("\n  ko:", "    name: 한국어", "    name: 42", "type", "'name' must be text, not the number 42", "    name:", "42"),
    "name-blank": Break("\n  ko:", "    name: 한국어", "    name: ' '", "value",
                        "'name' must be the language's own name, e.g. 日本語, not blank", "    name:", "'"),
}


@pytest.mark.parametrize("rule", FONT_RULES.values(), ids=FONT_RULES.keys())
def test_font_chain_rule_message_and_position(game_copy, rule):
    expected = rule.apply(game_copy / "ppgen.yaml", "ppgen.yaml")
    with pytest.raises(DataError) as exc:
        ppgen.load(game_copy)
    assert [str(p) for p in exc.value.problems] == [expected]  # a broken chain is not also reported missing


def test_a_font_shared_through_a_link_is_found_after_the_linking_game_is_gone(tmp_path, monkeypatch):
    """Two game directories sharing the same font files (one's fonts/ a link to the other's) in one
    process: the fonts are parsed once, and when the first directory is removed the second still
    finds them (contact sheets open them by path; the registered font's path was the link's)."""
    import shutil

    from clitools import ROOT, copy_game
    from ppgen.typeset import fonts

    monkeypatch.setattr(fonts, "_REGISTERED", {})  # as in a process that has registered no font yet
    first = ppgen.load(copy_game(tmp_path / "first"))
    shared = first.fonts.chain("ja").fonts
    shutil.rmtree(tmp_path / "first")
    for font in ppgen.load(ROOT).fonts.chain("ja").fonts:
        assert font.path.is_file(), font.path
    assert all(f.path == (ROOT / "fonts" / f.path.name).resolve() for f in shared)
