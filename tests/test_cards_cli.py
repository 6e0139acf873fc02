"""`ppgen cards`: the table fits the terminal it is shown on, and speaks the chosen language (issue 13, item 8)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT
from ppgen.termtable import width

LANGS = ("en", "ja", "ko", "zh")


def on_a_terminal(*args, columns: int) -> str:
    """`ppgen cards ARGS` with its output on a pseudo-terminal COLUMNS wide, as a person sees it."""
    import pty

    leader, follower = pty.openpty()
    env = dict(os.environ, COLUMNS=str(columns), LINES="50")
    process = subprocess.Popen([sys.executable, "-m", "ppgen", "cards", *args], stdin=subprocess.DEVNULL,
                               stdout=follower, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    os.close(follower)
    chunks = read_terminal(leader)
    assert process.wait(timeout=120) == 0
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def read_terminal(leader: int) -> list[bytes]:
    """Everything a program wrote to its pseudo-terminal, until it closed it; the terminal closed."""
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the program is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return chunks


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("columns", [80, 120])
def test_the_table_fits_the_terminal_and_keeps_every_word_of_the_effects(project, lang, columns):
    shown = on_a_terminal("--lang", lang, "--faction", "rome", columns=columns)
    lines = shown.rstrip("\n").split("\n")
    assert max(width(line) for line in lines) <= columns, max(lines, key=width)
    text = "".join(line.strip() for line in lines).replace(" ", "")
    for row in project.card_rows(lang, "rome"):
        assert row["effect"].replace(" ", "") in text, row["code"]  # wrapped, never cut
        assert row["code"] in text


def test_piped_output_is_unchanged_by_the_terminal_width(project):
    def piped(columns):
        return subprocess.run([sys.executable, "-m", "ppgen", "cards", "-f", "rome"], capture_output=True, text=True,
                              cwd=ROOT, env=dict(os.environ, COLUMNS=str(columns))).stdout

    narrow, wide = piped(60), piped(300)
    assert narrow == wide
    assert max(width(line) for line in narrow.split("\n")) > 150  # the full table, for scripts and files


@pytest.mark.parametrize("lang", LANGS)
def test_every_header_is_in_the_chosen_language(project, lang):
    from ppgen.termtable import card_table

    loc = project.locale(lang)
    header = card_table(project.card_rows(lang, "rome"), project, lang).split("\n")[0]
    words = [loc.get(k) for k in ("label.code", "label.card", "label.level-short", "label.atk", "label.def",
                                  "label.energy", "label.copies", "label.type", "label.bonus", "label.effect")]
    assert header.split() == " ".join(words).split()
    if lang != "en":
        assert "Code" not in header and "×" not in header


def test_wrapped_lines_keep_japanese_punctuation_and_long_vowels_off_the_line_start(project):
    from ppgen.termtable import wrap

    for row in project.card_rows("ja"):
        for limit in (17, 23, 38):
            lines = wrap(row["effect"], limit)
            assert "".join(lines).replace(" ", "") == row["effect"].replace(" ", "")
            assert all(width(line) <= limit for line in lines), lines
            assert not any(line[:1] in "ー、。）」』" for line in lines[1:]), lines
            assert not any(line[-1:] in "「『（" for line in lines[:-1]), lines


@pytest.mark.parametrize("no_color", [None, "1"])
def test_colour_only_on_a_terminal_and_never_where_no_color_is_set(no_color):
    """An error on a terminal is in colour, unless NO_COLOR is set (https://no-color.org): then
    the same words without escape codes."""
    import pty

    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if no_color:
        env["NO_COLOR"] = no_color
    process = subprocess.Popen([sys.executable, "-m", "ppgen", "cards", "--lang", "xx"], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=follower, cwd=ROOT, env=env)
    os.close(follower)
    chunks = read_terminal(leader)
    assert process.wait(timeout=120) == 2
    shown = b"".join(chunks).decode("utf-8")
    assert "unknown language" in shown
    assert ("\x1b[" in shown) == (no_color is None), repr(shown)


def test_an_empty_faction_is_refused_as_the_build_refuses_it():
    """`cards --faction ""` listed every card, where `build --faction ""` says the faction is
    unknown: both refuse it now, with the factions to choose from."""
    from clitools import call_ppgen

    for command in (("cards",), ("build", "--out", "/nonexistent-never-written")):
        result = call_ppgen(*command, "--faction", "")
        assert result.returncode == 2 and "unknown faction ''" in result.stderr and "rome" in result.stderr, (command, result.stderr)


def test_a_repeated_faction_lists_each_as_build_and_export_take_it():
    """`cards -f rome -f sparta` listed Sparta alone (the last option won), where build, export and
    art take every faction repeated."""
    import json

    from clitools import call_ppgen

    result = call_ppgen("cards", "-f", "rome", "--faction", "SPA", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert {r["faction"] for r in rows} == {"rome", "sparta"} and len(rows) == 39
    assert "39 cards of Rome and Sparta (en)" in result.stderr
