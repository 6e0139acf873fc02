"""ppgen.linebreak gives exactly uniseg's line break opportunities (uniseg is the reference)."""
from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uniseg.linebreak import LineBreak, line_break

import linebreak_reference
from ppgen.typeset import text
from ppgen.typeset.linebreak import break_units


@functools.lru_cache(maxsize=None)
def _reference(s: str) -> tuple[tuple[str, ...], bool]:
    return linebreak_reference.units_of_text(s)


def reference(s: str) -> list[str]:
    """uniseg's units of `s`: as recorded for a shipped text (linebreak_reference.py; uniseg
    takes 0.14 ms a character), else asked of uniseg, once per string in this module."""
    return list(_reference(s)[0])


def whence(s: str) -> str:
    """Where reference(s) came from, for a failure's message."""
    return linebreak_reference.FROM_THE_RECORD if _reference(s)[1] else "uniseg's units, asked"


ALPHABET = linebreak_reference.ALPHABET


def test_alphabet_covers_every_line_break_class():
    assert {line_break(c) for c in ALPHABET} == set(LineBreak)


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "zh"])
def test_same_as_uniseg_on_every_shipped_text(project, lang):
    checked = 0
    for entry in project.locale(lang).entries.values():
        for s in {entry.text, text.plain(text.clean(entry.text))}:
            assert break_units(s) == reference(s), (lang, entry.key, s, whence(s))
            checked += len(s)
    assert checked > 2000


def test_the_record_is_what_uniseg_says(project):
    """The recorded units (linebreak_reference.py) are uniseg's: a sixteenth of the record's texts
    and of each list (the same every run) is asked of uniseg again, all of it with
    PPGEN_FULL_REFERENCE=1. A record holding few of the shipped texts, or not the lists as made
    now, is said in a warning: the tests then ask uniseg, and are only slower."""
    import os
    import warnings

    share = 1 if os.environ.get("PPGEN_FULL_REFERENCE") else 16
    record = linebreak_reference.recorded()
    texts = {linebreak_reference.digest(s): s for s in linebreak_reference.shipped_texts(project)}
    held = sorted(key for key in texts if key in record["texts"])
    if len(held) < 0.8 * len(texts):
        warnings.warn(f"the line break record holds {len(held)} of {len(texts)} shipped texts: "
                      "run tests/linebreak_reference.py to record them again")
    asked = [key for key in held if int(key, 16) % share == 0]
    assert len(asked) >= len(held) / share / 2  # the digests spread evenly: about a sixteenth
    for key in asked:
        s = texts[key]
        assert linebreak_reference.units_of(s, record["texts"][key]) == linebreak_reference.uniseg_units(s), s
    for name, make in linebreak_reference.LISTS.items():
        strings = make()
        kept = record["lists"].get(name)
        if kept is None or kept["digest"] != linebreak_reference.list_digest(strings):
            warnings.warn(f"the line break record does not hold the list {name!r} as made now: "
                          "run tests/linebreak_reference.py to record it again")
            continue
        pairs = list(zip(strings, kept["units"], strict=True))[::share]
        assert pairs
        for s, lengths in pairs:
            assert linebreak_reference.units_of(s, lengths) == linebreak_reference.uniseg_units(s), ascii(s)


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_text_engine_pieces_unchanged(project, lang):
    """text._break_units (cjk) = uniseg's units + kinsoku, on every card effect."""
    for card in project.game.cards:
        effect = text.plain(text.clean(project.card_effect(card, lang)))
        for paragraph in effect.split("\n"):
            assert text._break_units(paragraph, "cjk") == text._kinsoku(reference(paragraph)), (card.id, whence(paragraph))


CRAFTED = [
    # quotation marks (LB15a, LB15b, LB19, LB19a)
    '"Hello," she said.', "it's 'quoted' text", "(“brown”) fox", "«Bonjour» dit-il",
    "「テスト」です。", "“引用”と‘単引’", "日“本”語", "「“あ”」", " “x” ", "a “ b", "“ x", "x ”",
    "„Anführung“ zeichen", "“”", "”“", "日” 本", "。” ", "\u3000“日”\u3000",
    "a“日", "1“日", "x ” y", "x ”\u0301", "x ”\u0301 ",
    # brackets and opening/closing punctuation (LB13, LB14, LB16, LB30)
    "（超過分は相手のLPへ）", "[ATK] {x}", "【注意】効果", "( a", "（ 日", ") ー", "」 ー", "」」ー",
    "a(b)c", "日(本)語", "x（y）z", "f(1)", "(1)a", "a [b", "[ [", "〝引〟",
    # numbers with prefixes and postfixes (LB23–LB25)
    "+2", "−1", "12%", "(3)", "ATK+2", "ATK−1", "DEF-1", "$5.00", "¥1,000", "3.14", "1/2", "1-2", "-5",
    "2.", "(12)%", "12)%", "€(3)", "$(.5)", "1,000,000円", "Lv.3", "No.1", "第3ターン", "３０％", "＋２", "+(1)",
    "1 ATK", "1\u00a0ATK", "a .5", "x ,3", "1.2.3", "1/2/3%", "12°", "±5", "50¢", "2‰", "5%)", "x%", "$x",
    "1.%", "1,$", "1/%", "1.)%",
    "攻撃力+2、防御力−1。（3枚まで）", "LP−500、ATK+1/DEF+1", "1d6", "20+", "+-1",
    # URLs and paths
    "https://example.com/a-b/c?d=1&e=2", "www.ancient-duel.jp/rules#3", "C:\\cards\\ja.yaml", "a@b.c",
    # emoji: ZWJ sequences, skin tones, variation selectors (LB8a, LB9, LB30b)
    "👍🏽", "👍🏽👍🏽", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "a👍b", "☝🏻x", "🏽🏽", "x🏽", "\U0001F02C🏻",
    "😀😀", "😀\u200d", "\u200d😀", "a\u200db", "日\u200d本", " \u200d",
    # regional indicators (LB30a)
    "\U0001F1EF\U0001F1F5\U0001F1E8\U0001F1F3", "\U0001F1EF\U0001F1F5\U0001F1E8", "x\U0001F1EF\U0001F1F5y",
    "\U0001F1EF\u0301\U0001F1F5\U0001F1E8", "\U0001F1EF \U0001F1F5\U0001F1E8",
    # combining marks (LB9, LB10)
    "e\u0301", " \u0301a", "\u0301\u0301", "\u0301a", "か\u3099", "日\u20dd本", "a\u0301\u0301b", "\n\u0301",
    "(\u0301a", "“\u0301日”", "1\u0301%", "\u200b\u0301x", "-\u0301a", "\ufe0f",
    # Hangul (LB26, LB27)
    "한국어 텍스트", "\u1100\u1161\u11a8", "가\u11a8", "각\u1161", "100원", "$가", "가%", "\u1100\u1100가",
    # Thai is SA: uniseg makes it AL (letters) or CM (marks), so a Thai run is one piece
    "ภาษาไทยง่าย", "ภาษา ไทย", "ก\u0e31", "\u0e31ก",
    # glue, no-break spaces (LB12, LB12a)
    "a\u00a0 b", " \u00a0x", "-\u00a0x", "\u3000\u00a0x", "\u202fx", "a\u2007b", "日\u00a0本",
    # zero width space, word joiner (LB8, LB11)
    "a\u200bb", "a\u200b  b", "a\u200b )", "\u200b 。", "\u200b\u00a0x", "\u200b", "a \u200b b", "\u200b\u200b", "a\u2060b", "日\u2060本", "\ufeffx",
    # hyphens and dashes (LB20a, LB21, LB21a, LB17)
    "face-up", "twenty\u2010one", "-x", " -x", "a - b", "日-本", "e-mail", "x\u00ady", "אב-גד", "א-a", "א-日", "א-1", "א\u00adב",
    "a—b", "a——b", "日本——中国", "x — y", "— —", "—  —", "a--b", "\u2010a", "\u3000-a",
    # line ends (LB4–LB7)
    "a\nb", "a\r\nb", "a\rb", "a\u2028b", "a\x85b", "a\x0cb", "\n\n", "a \nb", "\r\n\r\n", "a\r \nb",
    # contingent break, inseparable, non-starters (LB20, LB21, LB22)
    "a\ufffcb", "a…b", "日……本", "‥", "ちょっと待って", "ーー", "々々", "日・本", "？！", "a!?",
    # Brahmic aksaras (LB28a)
    "\u1b05\u1b44\u1b05", "\u1b05\u1bf2", "\U00011003\u1b05", "\u25cc\u1b44\u25cc", "\u1b05\u1b05\u1bf2",
    # assorted Japanese, Chinese, Korean and English sentences
    "自分の場のユニット1体を選ぶ。そのユニットのATKを2上げる（このターンのみ）。",
    "选择己方场上1个单位。该单位的攻击力+2（仅限本回合）。",
    "Once per turn: target 1 face-up unit; it loses 1 ATK this turn.",
]


@pytest.mark.parametrize("s", CRAFTED, ids=[ascii(s)[1:-1][:40] for s in CRAFTED])
def test_same_as_uniseg_on_crafted_strings(s):
    assert break_units(s) == reference(s)


@pytest.mark.parametrize(
    "s, pieces",
    [
        ("ATK+2 DEF−1 12% (3) $5.00", ["ATK+2 ", "DEF−1 ", "12% ", "(3) ", "$5.00"]),
        ("「テスト」です。", ["「テ", "ス", "ト」", "で", "す。"]),
        ("ちょっと待って", ["ちょっ", "と", "待っ", "て"]),  # small kana (CJ) taken as non-starters
        ("“引用”と「括弧」", ["“引", "用”", "と", "「括", "弧」"]),
        ("ภาษาไทย ง่าย", ["ภาษาไทย ", "ง่าย"]),  # SA: no breaks inside Thai, only at spaces
        ("\U0001F1EF\U0001F1F5\U0001F1E8\U0001F1F3\U0001F1F0", ["\U0001F1EF\U0001F1F5", "\U0001F1E8\U0001F1F3", "\U0001F1F0"]),
        ("👨\u200d👩\u200d👧 👍🏽👍🏽", ["👨\u200d👩\u200d👧 ", "👍🏽", "👍🏽"]),
        ("face-up twenty\u2010one", ["face-", "up ", "twenty\u2010", "one"]),
        ("1\u00a0ATK x\u200by", ["1\u00a0ATK ", "x\u200b", "y"]),
        ("a\r\nb\nc", ["a\r\n", "b\n", "c"]),
        ("", []),
    ],
)
def test_pieces(s, pieces):
    assert break_units(s) == pieces


@pytest.mark.parametrize("name", list(linebreak_reference.LISTS))
def test_the_alphabets_strings(name):
    """pairs: every two characters of the alphabet. two-alike: two ID clusters (÷) or two AL
    clusters (×), which linebreak decides at once, after every character of the alphabet, at
    the start and later, with a mark or a joiner on the first of the two."""
    strings, units, from_record = linebreak_reference.units_of_list(name)
    for s, expected in zip(strings, units, strict=True):
        assert break_units(s) == list(expected), (ascii(s), linebreak_reference.FROM_THE_RECORD if from_record else "")


@st.composite
def mixed_strings(draw):
    """Strings over a few characters of the alphabet at a time, so that the
    sequences rules look for (NU IS NU %, QU SP* …, RI RI RI) actually occur."""
    letters = draw(st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=8, unique=True))
    return "".join(draw(st.lists(st.sampled_from(letters), max_size=24)))


@settings(max_examples=500, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_strings())
def test_same_as_uniseg_on_generated_strings(s):
    assert break_units(s) == reference(s)
