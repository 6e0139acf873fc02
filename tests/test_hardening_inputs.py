"""Hostile files, for every file ppgen reads besides cards.yaml and the locales
(those are in test_hardening_files.py): ppgen.yaml, the templates, the glossary,
decklists (text and YAML) and PO files for `i18n import`.

Each hostile variant either loads (to exactly what the original loads to, where
it means the same) or raises DataError whose every problem names the file;
through the command line it is a clean error (exit 2, file:line:col, no traceback).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

import ppgen
from clitools import assert_clean_error, assert_no_crash, call_ppgen, located, run_ppgen
from ppgen.errors import DataError


# ── the files, how the library loads each, and which command reads it ──────
def _config(game: Path):
    return ppgen.load(game).config


def _card_template(game: Path):
    from ppgen.read.templates import read_card_template

    return read_card_template(game / "templates" / "card.yaml", game)


def _rulebook(game: Path):
    from ppgen.read.rulebook import load_structure

    return load_structure(ppgen.load(game))


def _rulebook_style(game: Path):
    from ppgen.read.styles import RULEBOOK_STYLE_SPEC, load_template

    return load_template(ppgen.load(game), "rulebook-style", RULEBOOK_STYLE_SPEC)


def _mat_style(game: Path):
    from ppgen.read.styles import mat_style

    return mat_style(ppgen.load(game))


def _glossary(game: Path):
    from ppgen.i18n.checks import load_project_glossary

    return load_project_glossary(ppgen.load(game))


def _deck(name: str) -> Callable:
    def load(game: Path):
        from ppgen.decks import load_deck

        deck = load_deck(ppgen.load(game), game / "decks" / name)
        return deck.name, deck.primary, deck.games, [(e.name, e.count, e.card) for e in deck.entries], \
            [(i.code, i.params) for i in deck.issues]

    return load


def _po(game: Path):
    from ppgen.i18n.po import import_po

    result = import_po(ppgen.load(game), game / "ja.po", "ja", dry_run=True)
    return result.updated, result.added, result.unchanged, result.empty, [p.message for p in result.problems]


@dataclass(frozen=True)
class Input:
    path: str  # relative to the game directory
    load: Callable  # game dir -> what it loads to (comparable)
    command: tuple  # the ppgen command that reads it
    yaml: bool = True
    code: int = 2  # exit code of `command` on a bad file (`i18n check` too: it lists it as a finding, and exits 2)


INPUTS = {
    "ppgen.yaml": Input("ppgen.yaml", _config, ("cards",)),
    "card template": Input("templates/card.yaml", _card_template, ("build", "--lang", "en", "--faction", "rome", "--out", "{out}")),
    "rulebook structure": Input("templates/rulebook.yaml", _rulebook, ("build", "--lang", "en", "--parts", "rulebook", "--out", "{out}")),
    "rulebook style": Input("templates/rulebook-style.yaml", _rulebook_style, ("build", "--lang", "en", "--parts", "rulebook", "--out", "{out}")),
    "mat style": Input("templates/mat-style.yaml", _mat_style, ("build", "--lang", "en", "--parts", "mats", "--out", "{out}")),
    "glossary": Input("locales/glossary.yaml", _glossary, ("i18n", "check", "--lang", "ja")),
    "text decklist": Input("decks/starter-rome.txt", _deck("starter-rome.txt"), ("validate", "{path}"), yaml=False),
    "YAML decklist": Input("decks/coalition-macedonia.yaml", _deck("coalition-macedonia.yaml"), ("validate", "{path}")),
    "PO file": Input("ja.po", _po, ("i18n", "import", "{path}", "--lang", "ja"), yaml=False),
}


@pytest.fixture(scope="module")
def edited_po(project) -> str:
    """The shipped game's ja export (a copy of the game exports the same text) with one translation edited."""
    from ppgen.i18n.po import export_po

    text, _ = export_po(project, "ja")
    head, sep, rest = text.partition('msgctxt "card.hastati-line.name"')
    rest = rest.replace('msgstr "ハスタティ戦列"', 'msgstr "ハスタティ隊"', 1)
    assert rest.count("ハスタティ隊") == 1
    return head + sep + rest


@pytest.fixture
def game(game_copy, edited_po):
    """A game copy with a ja.po beside it: the shipped export with one translation edited."""
    (game_copy / "ja.po").write_text(edited_po, encoding="utf-8")
    return game_copy


def outcome(inp: Input, game: Path):
    """('ok', value) or ('error', DataError); any other exception fails the test."""
    try:
        return "ok", inp.load(game)
    except DataError as exc:
        shown = inp.path
        assert exc.problems, exc
        assert all(p.file == shown for p in exc.problems), [str(p) for p in exc.problems]
        return "error", exc


def hostile(inp: Input, game: Path, make: Callable[[bytes], bytes]):
    path = game / inp.path
    path.write_bytes(make(path.read_bytes()))
    return outcome(inp, game)


def first_top_level_line(raw: bytes) -> bytes:
    return next(l for l in raw.split(b"\n") if l.strip() and not l.startswith((b"#", b" ", b"\t")))


BOMB = "\n".join(
    ["a: &a ['lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol']"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
).encode()

PARAMS = pytest.mark.parametrize("name", list(INPUTS))


@PARAMS
def test_original_loads(game, name):
    kind, _ = outcome(INPUTS[name], game)
    assert kind == "ok"


@PARAMS
def test_empty_file(game, name):
    inp = INPUTS[name]
    kind, value = hostile(inp, game, lambda raw: b"")
    if kind == "error":
        assert {p.code for p in value.problems} <= {"missing-key", "data"}, str(value)
    elif name.endswith("decklist"):
        assert [code for code, _ in value[4]] == ["empty"]  # "this decklist holds no cards", exit 1
    # ppgen.yaml (defaults), the glossary (no terms) and a PO file (nothing to import) may be empty


@PARAMS
def test_binary_file(game, name):
    kind, err = hostile(INPUTS[name], game, lambda raw: bytes(range(256)) * 40)
    assert kind == "error" and "binary file" in str(err)


@PARAMS
def test_invalid_utf8_is_located(game, name):
    def make(raw):
        line3 = raw.index(b"\n", raw.index(b"\n") + 1) + 1
        return raw[:line3] + b"# caf\xe9\n" + raw[line3:]

    kind, err = hostile(INPUTS[name], game, make)
    assert kind == "error"
    (problem,) = err.problems
    assert (problem.line, problem.col, problem.code) == (3, 6, "encoding") and "0xe9" in problem.message


@PARAMS
def test_bom_and_crlf_load_identically(game, name):
    inp = INPUTS[name]
    _, original = outcome(inp, game)
    kind, value = hostile(inp, game, lambda raw: b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n"))
    assert kind == "ok" and value == original


@PARAMS
def test_tab_indentation(game, name):
    inp = INPUTS[name]
    _, original = outcome(inp, game)

    def make(raw):
        lines = raw.split(b"\n")
        indented = [i for i, l in enumerate(lines) if l.startswith(b"  ") and l.strip() and not l.strip().startswith(b"#")]
        if not indented:  # a text decklist: indent its card lines
            indented = [i for i, l in enumerate(lines) if l[:1].isdigit()]
        for i in indented[:3]:
            lines[i] = b"\t" + lines[i].lstrip(b" ")
        return b"\n".join(lines)

    kind, value = hostile(inp, game, make)
    if inp.yaml:
        assert kind == "error"
        assert any(p.code == "yaml" and p.line > 0 and "indent with spaces, not tabs" in p.message for p in value.problems), str(value)
    else:  # a decklist or a PO file does not care about indentation
        assert kind == "ok"
        if name == "text decklist":
            assert value[:4] == original[:4] and value[4] == original[4]
        else:
            assert value == original


@PARAMS
def test_ten_megabyte_file_is_refused(game, name):
    kind, err = hostile(INPUTS[name], game, lambda raw: raw + (b"# " + b"x" * 98 + b"\n") * 100_000)
    assert kind == "error" and "larger than" in str(err)


@PARAMS
def test_deep_nesting(game, name):
    inp = INPUTS[name]
    kind, value = hostile(inp, game, lambda raw: b"x: " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    if inp.yaml:
        assert kind == "error" and "nesting" in str(value)
    elif name == "text decklist":
        assert kind == "ok" and [code for code, _ in value[4]] == ["bad-line"]  # reported, not read
    else:
        assert kind == "error" and "not a PO line" in str(value)
    nested_blocks = b"".join(b" " * i + b"k:\n" for i in range(200))
    kind, value = hostile(inp, game, lambda raw: nested_blocks)
    if inp.yaml:
        assert kind == "error" and "nesting deeper than" in str(value)


@PARAMS
def test_billion_laughs_is_refused(game, name):
    inp = INPUTS[name]
    kind, value = hostile(inp, game, lambda raw: BOMB)
    if inp.yaml:
        assert kind == "error" and "aliases" in str(value)
        (problem,) = value.problems
        assert (problem.line, problem.col) == (2, 8)  # the first alias, "*a"
    elif name == "text decklist":
        assert kind == "ok" and value[3] == []  # nine lines it cannot read, none a card
    else:
        assert kind == "error"


@PARAMS
def test_duplicate_keys(game, name):
    inp = INPUTS[name]
    if name == "PO file":
        raw = (game / inp.path).read_bytes()
        start = raw.index(b"#. area: cards")
        entry = raw[start:raw.index(b"\n\n", start) + 2]
        (game / inp.path).write_bytes(raw + b"\n" + entry)
        kind, value = outcome(inp, game)
        assert kind == "ok" and any("appears twice" in m for m in value[4])
        return
    kind, value = hostile(inp, game, lambda raw: raw.rstrip(b"\n") + b"\n" + first_top_level_line(raw) + b"\n")
    if inp.yaml:
        assert kind == "error"
        (problem,) = [p for p in value.problems if p.code == "duplicate"]
        lines = (game / inp.path).read_text(encoding="utf-8").split("\n")
        assert problem.line == len(lines) - 1 and "first defined on line" in problem.message
    else:
        assert kind == "ok" and "duplicate-field" in [code for code, _ in value[4]]


@PARAMS
def test_not_a_mapping(game, name):
    inp = INPUTS[name]
    for text in (b"42\n", b"- a\n- b\n", b"just words\n"):
        kind, value = hostile(inp, game, lambda raw: text)
        if inp.yaml:
            assert kind == "error" and ("must be a mapping" in str(value) or "is a mapping" in str(value)), str(value)
            assert [(p.line, p.col) for p in value.problems] == [(1, 1)]


# ── through the command line: one clean error per file ─────────────────────
@PARAMS
def test_command_reports_a_bad_file_cleanly(game, tmp_path, name):
    """Every file gets a located error through the command that reads it (invalid UTF-8 at line 3)."""
    inp = INPUTS[name]
    path = game / inp.path
    raw = path.read_bytes()
    line3 = raw.index(b"\n", raw.index(b"\n") + 1) + 1
    path.write_bytes(raw[:line3] + b"# caf\xe9\n" + raw[line3:])
    args = [a.format(out=tmp_path / "out", path=path) for a in inp.command]
    result = call_ppgen(*args, root=game)
    assert_clean_error(result, "0xe9", code=inp.code, where=rf"{located(inp.path)}: error\[encoding\]")
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.parametrize("name", [n for n in INPUTS if INPUTS[n].yaml])
def test_command_reports_a_duplicate_key_cleanly(game, tmp_path, name):
    inp = INPUTS[name]
    path = game / inp.path
    raw = path.read_bytes()
    path.write_bytes(raw.rstrip(b"\n") + b"\n" + first_top_level_line(raw) + b"\n")
    line = path.read_text(encoding="utf-8").count("\n")
    args = [a.format(out=tmp_path / "out", path=path) for a in inp.command]
    result = call_ppgen(*args, root=game)
    assert_clean_error(result, "duplicate key", code=inp.code, where=rf"{path.relative_to(game)}:{line}:1: error\[duplicate\]")


# ── bugs found by hardening, each with its test ────────────────────────────
@pytest.mark.parametrize("key", ["width", "size", "leading"])
def test_infinite_numbers_are_refused(game, key):
    """`.inf` is a YAML float: the card template once accepted it and the build crashed drawing it."""
    from ppgen.read.templates import read_card_template

    path = game / "templates" / "card.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    i = next(i for i, l in enumerate(lines) if l.strip().startswith(f"{key}:"))
    lines[i] = lines[i].split(":")[0] + ": .inf"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_card_template(path, game)
    (problem,) = exc.value.problems
    assert problem.line == i + 1 and "finite number" in problem.message


def test_nan_in_a_per_language_number_is_refused(game):
    from ppgen.read.templates import read_card_template

    path = game / "templates" / "card.yaml"
    text = path.read_text(encoding="utf-8")
    old = next(l for l in text.split("\n") if l.strip().startswith("keyword_max:"))
    path.write_text(text.replace(old, old.split(":")[0] + ": {default: .inf}", 1), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_card_template(path, game)
    assert "keyword_max" in str(exc.value)


@pytest.mark.parametrize("value", ["0", "{default: 0, ja: 8.5}"])
def test_a_name_kept_on_one_line_down_to_size_zero_is_refused(game, value):
    """Found by the fuzz test: single_line_min 0 divided by zero when a name was laid out."""
    from ppgen.read.templates import read_card_template

    path = game / "templates" / "card.yaml"
    text = path.read_text(encoding="utf-8")
    old = next(l for l in text.split("\n") if l.strip().startswith("single_line_min:"))
    path.write_text(text.replace(old, old.split(":")[0] + f": {value}", 1), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_card_template(path, game)
    (problem,) = exc.value.problems
    assert "'single_line_min' must be a type size in points (more than 0)" in problem.message


@pytest.mark.parametrize("value", ["0", "0.001"])
def test_score_sheet_rows_too_thin_are_refused(game, tmp_path, value):
    """row_height 0 divided by zero; 0.001 mm asked for 250 000 rows (a hang)."""
    path = game / "templates" / "mat-style.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  row_height: 7.5", f"  row_height: {value}", 1), encoding="utf-8")
    line = 1 + path.read_text(encoding="utf-8").split("\n").index(f"  row_height: {value}")
    result = run_ppgen("build", "--lang", "en", "--parts", "score-sheet", "--out", tmp_path / "out", root=game, timeout=120)
    assert_clean_error(result, "between 4 and 100", where=rf"templates/mat-style\.yaml:{line}:\d+")


def test_po_file_errors_name_it_as_the_user_wrote_it(game):
    """A PO file's encoding error was reported with its absolute path; now relative to the game."""
    (game / "ja.po").write_bytes(b"\x00\x01binary")
    kind, err = outcome(INPUTS["PO file"], game)
    assert kind == "error" and str(err).startswith("ja.po: ")


def test_a_line_with_a_wall_of_spaces_is_read_not_hung_on(game, tmp_path):
    """The line patterns were quadratic in a run of spaces: a 3-million-space line took hours.
    A line longer than any card line is now reported as unreadable, shortened. (The timeout
    guards against a hang; it is not a speed test.)"""
    deck = tmp_path / "wall.txt"
    deck.write_text("primary: Rome\n3 Hastati" + " \t" * 1_500_000 + "Line\n2 Legionary Cohort\n", encoding="utf-8")
    result = run_ppgen("validate", deck, "--format", "json", root=game, timeout=120)
    assert_no_crash(result)
    import json

    (report,) = json.loads(result.stdout)["decks"]
    bad = [p for p in report["problems"] if p["code"] == "bad-line"]
    assert [(p["line"], p["col"]) for p in bad] == [(2, 1)] and len(bad[0]["message"]) < 200
    assert report["summary"]["total"] == 2  # the next line was read


@pytest.mark.parametrize("fmt", ["txt", "yaml"])
def test_a_decklist_of_thousands_of_lines_is_refused(game, tmp_path, fmt):
    deck = tmp_path / f"huge.{fmt}"
    if fmt == "txt":
        deck.write_text("1 Hastati Line\n" * 100_000, encoding="utf-8")
    else:
        deck.write_text("cards:\n" + "".join(f"  card {i}: 1\n" for i in range(5000)), encoding="utf-8")
    result = run_ppgen("validate", deck, root=game, timeout=120)
    line = 2001 if fmt == "txt" else 2002
    assert_clean_error(result, "more than 2000 lines to read", where=rf"huge\.{fmt}:{line}:\d+: error\[too-long\]")
