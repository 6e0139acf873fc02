"""The tests' in-process runner of the command (clitools.call_ppgen) agrees with the `ppgen`
program (`python -m ppgen`, clitools.run_ppgen): the same exit code, the same words on stdout
and stderr, the same files written — for success, usage errors, data errors, warnings and
help. Many tests run commands in-process to save an interpreter's start-up each; this is what
lets them."""
from __future__ import annotations

import re

import pytest

from clitools import ROOT, call_ppgen, run_ppgen

SECONDS = re.compile(r"\(\d+(?:\.\d+)? s\)")  # a summary's elapsed time, the only part that may differ


def same_words(text: str, *paths) -> str:
    for i, path in enumerate(paths):
        text = text.replace(str(path), f"<out{i}>")
    return SECONDS.sub("(… s)", text)


@pytest.mark.parametrize("args", [
    ["--help"],
    ["--version"],
    ["build", "--help"],
    ["validate", "decks/starter-rome.txt", "decks/allied-rome-sparta.txt"],
    ["validate", "decks/starter-rome.txt", "--format", "json"],
    ["cards", "--lang", "ko", "--faction", "rome"],
    ["build", "--lang", "xx"],             # a usage error: exit 2
    ["cards", "--faction", "atlantis"],    # "did you mean"
    ["nonsense"],                          # click's own error
    ["validate", "no-such-deck.txt"],
], ids=lambda args: " ".join(args))
def test_same_as_the_program(args):
    process, here = run_ppgen(*args, cwd=ROOT), call_ppgen(*args, cwd=ROOT)
    assert (here.returncode, same_words(here.stdout), same_words(here.stderr)) == \
           (process.returncode, same_words(process.stdout), same_words(process.stderr))


def test_same_files_errors_and_warnings(game_copy, tmp_path):
    """A build that warns (a text missing, shown in English), and one a broken file stops."""
    ja = game_copy / "locales" / "ja.yaml"
    text = ja.read_text(encoding="utf-8")
    start = text.index("card.roman-road.effect:")
    ja.write_text(text[:start] + text[text.index("\ncard.", start + 1) + 1:], encoding="utf-8")
    outs = tmp_path / "process", tmp_path / "here"
    args = ["build", "--lang", "ja", "--parts", "cards", "--faction", "rome", "--no-cache"]
    process = run_ppgen(*args, "--out", outs[0], root=game_copy)
    here = call_ppgen(*args, "--out", outs[1], root=game_copy)
    assert process.returncode == here.returncode == 0, (process.stderr, here.stderr)
    assert "fallback" in here.stderr
    assert same_words(here.stderr, outs[1]) == same_words(process.stderr, outs[0])
    assert same_words(here.stdout, outs[1]) == same_words(process.stdout, outs[0])
    written = [sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file()) for out in outs]
    assert written[0] == written[1] and written[0]
    for name in written[0]:
        if name.suffix == ".pdf":
            assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    (game_copy / "cards.yaml").write_text("cards: [\n", encoding="utf-8")
    process, here = run_ppgen("validate", "decks/starter-rome.txt", cwd=game_copy), call_ppgen("validate", "decks/starter-rome.txt", cwd=game_copy)
    assert process.returncode == here.returncode == 2
    assert "cards.yaml:" in here.stderr + here.stdout
    assert (same_words(here.stdout), same_words(here.stderr)) == (same_words(process.stdout), same_words(process.stderr))


def test_an_uncaught_exception_is_a_traceback_and_exit_1(monkeypatch):
    """What a crash looks like to the tests (clitools.assert_no_crash looks for it), as from the program."""
    import ppgen.cli

    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(ppgen.cli.main_group, "main", crash)
    result = call_ppgen("--version")
    assert result.returncode == 3 and "internal error: RuntimeError: boom" in result.stderr
    # the command to run again for the details: --debug before the command's name, where ppgen reads it
    # (the message said "run with --debug", and `ppgen build --debug` is refused: "No such option")
    result = call_ppgen("build", "--lang", "en")
    assert "`ppgen --debug build --lang en` shows the details" in result.stderr, result.stderr
    monkeypatch.setattr(ppgen.cli, "_register", crash)
    result = call_ppgen("--version")
    assert result.returncode == 1 and "Traceback" in result.stderr and "RuntimeError: boom" in result.stderr
