"""Odd text in names, effects, translations and decklists: markup-like characters, control and
bidirectional characters, emoji, very long words. Checked in built PDFs and on the command line.
(The text engine's own unit tests are in test_text.py; one-card checks in test_faces.py.)"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import ppgen
from clitools import assert_clean_error, assert_no_crash, call_ppgen, located
from pdftools import texts

MARKUP = "<font name=x> & &amp; <b>"


def set_text(game: Path, lang: str, key: str, text: str) -> int:
    """Replace the text of `key` in locales/<lang>.yaml (a double-quoted YAML string); return its line."""
    path = game / "locales" / f"{lang}.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    quoted = json.dumps(text, ensure_ascii=False)  # JSON strings are YAML double-quoted strings
    if lang == "en":
        i = next(i for i, l in enumerate(lines) if l.startswith(f"{key}: "))
        lines[i] = f"{key}: {quoted}"
    else:
        i = lines.index(f"{key}:") + 1
        assert lines[i].startswith("  text: ")
        lines[i] = f"  text: {quoted}"
    path.write_text("\n".join(lines), encoding="utf-8")
    return i + 1


def pdf_text(path: Path) -> str:
    return " ".join(texts(path))


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


# ── markup-like characters print as themselves ─────────────────────────────
def test_markup_characters_print_literally_in_a_built_pdf(game_copy, tmp_path):
    set_text(game_copy, "ja", "card.hastati-line.name", f"ハスタティ{MARKUP}")
    set_text(game_copy, "ja", "rules.goal.2", f"攻撃{MARKUP}が通ると、相手のポイントが減ります。")
    set_text(game_copy, "en", "card.legionary-cohort.name", f"Cohort {MARKUP}")
    out = tmp_path / "out"
    for lang, parts in (("ja", "rulebook,cards"), ("en", "cards")):  # the parts each language's checks read
        result = call_ppgen("build", "--lang", lang, "--faction", "rome", "--parts", parts, "--out", out, root=game_copy)
        assert result.returncode == 0, result.stderr
    ja_cards = squeeze(pdf_text(out / "ja" / "cards-ja-rome.pdf"))
    assert squeeze(f"ハスタティ{MARKUP}") in ja_cards
    assert squeeze(f"攻撃{MARKUP}が通ると") in squeeze(pdf_text(out / "ja" / "rulebook-ja.pdf"))
    en = pdf_text(out / "en" / "cards-en-rome.pdf")
    assert f"Cohort {MARKUP}" in en
    assert "&amp;amp;" not in en and "&lt;" not in en  # never escaped twice, never shown escaped


# ── control and bidirectional characters are dropped ───────────────────────
CONTROL = "\u0007\u001b[31m\u200f\u202e\u2066\u061c"


def test_control_and_bidi_characters_are_dropped_in_a_built_pdf(game_copy, tmp_path):
    set_text(game_copy, "en", "card.hastati-line.name", f"Hast{CONTROL}ati Line")
    set_text(game_copy, "ja", "card.hastati-line.effect", f"通常配備時：{CONTROL}このターン、歩兵ユニット1体のATKが1上がる。")
    out = tmp_path / "out"
    for lang in ("en", "ja"):
        result = call_ppgen("build", "--lang", lang, "--faction", "rome", "--out", out, root=game_copy)
        assert result.returncode == 0, result.stderr
    en, ja = pdf_text(out / "en" / "cards-en-rome.pdf"), pdf_text(out / "ja" / "cards-ja-rome.pdf")
    assert "Hast[31mati Line" in en  # ESC dropped; what follows it is ordinary text
    assert "通常配備時：[31mこのターン" in squeeze(ja)
    for ch in CONTROL.replace("[31m", ""):
        assert ch not in en + ja, f"U+{ord(ch):04X} reached the PDF"


def test_a_raw_control_character_in_a_locale_is_located(game_copy):
    path = game_copy / "locales" / "ko.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    i = lines.index("card.hastati-line.name:") + 1
    col = lines[i].index(":") + 3  # inside the text
    lines[i] = lines[i][: col - 1] + "\u0007" + lines[i][col - 1:]
    path.write_text("\n".join(lines), encoding="utf-8")
    result = call_ppgen("cards", "--lang", "ko", root=game_copy)
    assert_clean_error(result, "U+0007", where=rf"locales/ko\.yaml:{i + 1}:{col}: error\[yaml\]")


def test_control_characters_in_a_message_are_shown_escaped_never_sent_to_the_terminal(game_copy):
    """A YAML key like "\\e[2J" (clear screen) in an error message reaches the terminal as text."""
    path = game_copy / "ppgen.yaml"
    path.write_text(path.read_text(encoding="utf-8") + '"evil\\e[2J\\u202e": 1\n', encoding="utf-8")
    result = call_ppgen("cards", root=game_copy)
    err = assert_clean_error(result, "unknown key 'evil\\u001b[2J\\u202e'", where=located("ppgen.yaml"))
    assert "\x1b" not in err and "\u202e" not in err


# ── a character no font has ────────────────────────────────────────────────
UNICORN = "\U0001F984"  # in none of the shipped fonts (DejaVu Sans has 😀, not 🦄)


@pytest.mark.parametrize("jobs", ["1", "2"], ids=["in-process", "in-workers"])
def test_emoji_no_font_has_fails_the_build_naming_the_entry(game_copy, tmp_path, jobs):
    """Exit 2, the locale key and file:line:col; drawn in a worker process, the same error
    (it used to be 'internal error: BrokenProcessPool')."""
    line = set_text(game_copy, "ja", "card.hastati-line.name", f"ハスタティ{UNICORN}")
    out = tmp_path / "out"
    result = call_ppgen("build", "--lang", "en,ja", "--jobs", jobs, "--faction", "rome", "--out", out, root=game_copy)
    assert_clean_error(result, "U+1F984", "card.hastati-line.name", where=rf"locales/ja\.yaml:{line}:9 ")
    assert not (out / "ja").exists()


def test_emoji_in_a_rulebook_text_names_its_entry(game_copy, tmp_path):
    line = set_text(game_copy, "ko", "rules.goal.2", f"공격 {UNICORN}")
    result = call_ppgen("build", "--lang", "ko", "--parts", "rulebook", "--out", tmp_path / "out", root=game_copy)
    assert_clean_error(result, "U+1F984", "rules.goal.2", where=rf"locales/ko\.yaml:{line}:9 ")


def test_emoji_a_font_has_is_printed(game_copy, tmp_path):
    set_text(game_copy, "en", "card.hastati-line.name", "Hastati \U0001F600 Line")
    out = tmp_path / "out"
    result = call_ppgen("build", "--lang", "en", "--faction", "rome", "--out", out, root=game_copy)
    assert result.returncode == 0, result.stderr
    assert "Hastati \U0001F600 Line" in pdf_text(out / "en" / "cards-en-rome.pdf")


# ── very long words are broken, never drawn outside their box ──────────────
def char_boxes(pdf: Path, chars: str, page: int | None = None) -> list[tuple[str, float, float, float, float]]:
    """(char, left, bottom, right, top) in points of every character of `chars` drawn in the PDF."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    found = []
    try:
        for i in range(len(doc)) if page is None else [page]:
            tp = doc[i].get_textpage()
            for j in range(tp.count_chars()):
                ch = tp.get_text_range(j, 1)
                if ch and ch in chars:
                    found.append((ch, *tp.get_charbox(j)))
            tp.close()
    finally:
        doc.close()
    return found


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_very_long_words_on_a_card_are_broken_inside_their_boxes(game_copy, tmp_path, lang):
    from ppgen.draw.faces import CardGeometry, front_face
    from ppgen.write.faces import render_card_pdf
    from ppgen.write.report import BuildReport

    name, effect = "Ж" * 40, "Щ" * 240  # one word each, letters nothing else on the card uses
    set_text(game_copy, lang, "card.hastati-line.name", name)
    set_text(game_copy, lang, "card.hastati-line.effect", ("通常配備時：" if lang == "ja" else "On Deploy: ") + effect)
    project = ppgen.load(game_copy)
    card = project.game.card("hastati-line")
    report = BuildReport()
    face = front_face(project, card, lang, CardGeometry.named("poker"), report)
    pdf = render_card_pdf(project, card, lang, tmp_path / "card.pdf", report=report)
    assert len(face.texts["name"].layout.lines) >= 2 and len(face.texts["effect"].layout.lines) >= 5
    boxes = char_boxes(pdf, "ЖЩ")
    assert sum(1 for b in boxes if b[0] == "Ж") == 40 and sum(1 for b in boxes if b[0] == "Щ") == 240
    for element, letter in (("name", "Ж"), ("effect", "Щ")):
        x, y, w, h = face.box(face.elements[element])
        for _, left, bottom, right, top in (b for b in boxes if b[0] == letter):
            assert x - 0.5 <= left and right <= x + w + 0.5, (element, left, right, x, x + w)
            if not face.problems:  # (text that does not fit even at the minimum size is clipped and reported)
                assert y - 0.5 <= bottom and top <= y + h + 0.5, (element, bottom, top, y, y + h)


def test_a_very_long_word_in_the_rulebook_stays_inside_the_text_frame(game_copy, tmp_path):
    from ppgen.draw.style import mm
    from ppgen.read.styles import RULEBOOK_STYLE_SPEC, load_template
    from ppgen.write.standalone import write_part

    set_text(game_copy, "en", "rules.goal.2", "Ж" * 600)
    project = ppgen.load(game_copy)
    pdf = tmp_path / "rulebook.pdf"
    write_part(project, "en", "rulebook", pdf)
    look = load_template(project, "rulebook-style", RULEBOOK_STYLE_SPEC)
    import pypdf

    width = float(pypdf.PdfReader(pdf).pages[0].mediabox.width)
    boxes = char_boxes(pdf, "Ж")
    assert len(boxes) == 600
    lines = {round(b[2]) for b in boxes}
    assert len(lines) >= 5  # broken over several lines
    for _, left, _, right, _ in boxes:
        assert mm(look.page.margin_side) - 0.5 <= left and right <= width - mm(look.page.margin_side) + 0.5


# ── the same characters in a decklist ──────────────────────────────────────
ODD_LINES = {
    f"3 Hastati {MARKUP}Line": "Hastati Line",
    "2 Legionary & Cohort &amp;": "Legionary Cohort",
    "1 Triarii\u202eReserve\u202c\u0007X": "Triarii Reserve",
    "1 " + "Consular" * 50: None,
    f"1 {UNICORN}": None,
}
RECOGNISED = {  # control, bidi and symbol characters inside a real name are ignored like punctuation
    f"1 Praetorian{UNICORN} Guard": "praetorian-guard",
    "2 Principes\u200fLine\u0007": "principes-line",
}


def test_odd_names_in_a_decklist_are_unknown_cards_with_suggestions(project, tmp_path):
    deck = tmp_path / "odd.txt"
    deck.write_text("primary: Rome\n" + "\n".join([*ODD_LINES, *RECOGNISED]) + "\n", encoding="utf-8")
    result = call_ppgen("validate", deck, "--format", "json", root=project.dir.root)
    assert_no_crash(result)
    assert result.returncode == 1
    (report,) = json.loads(result.stdout)["decks"]
    unknown = [i for i in report["problems"] if i["code"] == "unknown-card"]
    assert [i["line"] for i in unknown] == [2, 3, 4, 5, 6]
    for issue, expected in zip(unknown, ODD_LINES.values()):
        if expected:
            assert expected in issue["hint"], issue
    from ppgen.decks import load_deck

    entries = load_deck(project, deck).entries
    assert [e.card for e in entries[len(ODD_LINES):]] == list(RECOGNISED.values())
    text = call_ppgen("validate", deck.name, root=project.dir.root, cwd=tmp_path)  # a short path: only the name may be long
    assert_no_crash(text)
    assert text.returncode == 1
    assert "\u202e" not in text.stdout and "\x07" not in text.stdout  # shown escaped: \u202e, \u0007
    assert "Triarii\\u202eReserve" in text.stdout
    assert max(len(line) for line in text.stdout.split("\n")) < 200  # a 400-letter name is shortened


def test_odd_names_in_a_yaml_decklist(project, tmp_path):
    deck = tmp_path / "odd.yaml"
    cards = "\n".join(f"  {json.dumps(line.split(' ', 1)[1], ensure_ascii=False)}: {line.split(' ', 1)[0]}" for line in ODD_LINES)
    deck.write_text(f"primary: Rome\nname: {json.dumps(MARKUP + CONTROL, ensure_ascii=False)}\ncards:\n{cards}\n", encoding="utf-8")
    result = call_ppgen("validate", deck, root=project.dir.root)
    assert_no_crash(result)
    assert result.returncode == 1
    assert result.stdout.count("error[unknown-card]") == len(ODD_LINES)
    assert "did you mean Hastati Line" in result.stdout
    assert "\x1b" not in result.stdout


def test_a_yaml_key_longer_than_yaml_allows_is_explained(project, tmp_path):
    deck = tmp_path / "long.yaml"
    deck.write_text("cards:\n  " + "Consular" * 300 + ": 1\n", encoding="utf-8")
    result = call_ppgen("validate", deck, root=project.dir.root)
    assert_clean_error(result, "a key may be at most 1024 characters long", where=r"long\.yaml:2:\d+: error\[yaml\]")
