"""`ppgen build --deck`: validate first; a legal deck prints exactly its cards, in the build language."""
from __future__ import annotations

from collections import Counter

from clitools import call_ppgen
from conftest import ROOT
from pdftools import placements, reader


def run_cli(*args):
    return call_ppgen(*args, root=ROOT)


def printed_fronts(path, lang):
    pdf = reader(path)
    fronts = Counter()
    for page in pdf.pages:
        for p in placements(page):
            if p.form.startswith("front-"):
                assert p.form.startswith(f"front-{lang}-")
                fronts[p.form.removeprefix(f"front-{lang}-")] += 1
    return fronts


def test_legal_deck_written_in_japanese_prints_exactly_its_cards_in_korean(project, tmp_path):
    from ppgen.decks import load_deck

    deck_file = ROOT / "decks" / "allied-rome-sparta.txt"
    result = run_cli("build", "--deck", str(deck_file), "--lang", "ko", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    pdf = tmp_path / "ko" / "allied-rome-sparta-ko.pdf"
    expected = {card.id: n for card, n in load_deck(project, deck_file).card_list(project.game)}
    assert sum(expected.values()) == 40
    assert printed_fronts(pdf, "ko") == expected
    assert len(reader(pdf).pages) == 10  # 40 cards: 5 front pages, each with its back page


def test_illegal_deck_is_not_printed_unless_forced(tmp_path):
    deck = tmp_path / "short.txt"
    deck.write_text("primary: Rome\n3 Hastati Line\n2 ハスタティ戦列\n", encoding="utf-8")
    result = run_cli("build", "--deck", str(deck), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "error[deck-size]" in result.stderr and "error[copies]" in result.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))
    forced = run_cli("build", "--deck", str(deck), "--lang", "en", "--out", str(tmp_path / "out"), "--force")
    assert forced.returncode == 0, forced.stderr
    assert printed_fronts(tmp_path / "out" / "en" / "short-en.pdf", "en") == {"hastati-line": 5}
    # the summary counts the warning it printed ("not a legal deck; printing it anyway"): the build's count replaced it
    assert "printing it anyway (--force)" in forced.stderr and forced.stderr.rstrip().split("\n")[-1].startswith("ok: wrote ")
    assert ", 1 warning (" in forced.stderr.rstrip().split("\n")[-1], forced.stderr


def test_unreadable_deck_exits_2(tmp_path):
    result = run_cli("build", "--deck", str(tmp_path / "missing.txt"), "--out", str(tmp_path))
    assert result.returncode == 2 and "not found" in result.stderr and "Traceback" not in result.stderr
