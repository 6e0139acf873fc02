"""Fuzzing the decklist readers (text and YAML) and everything after them: the rule checks
and the report in every language. Any input gives a report or a clean error (DataError);
nothing else may escape. Bounded and derandomized (see fuzzing.py)."""
from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from ppgen.decks import parse_deck, report_dict, report_lines, validate

from fuzzing import clean, fuzz, nasty, nasty_text, scalars

LANGS = ["en", "ja", "ko", "zh"]


@pytest.fixture(scope="module")
def words(project):
    """Pieces of real decklists: card names in every language, codes, faction names, field names."""
    names, factions, fields = [], [], ["name", "primary", "games", "Primary faction", "主勢力", "주 진영", "主阵营", "gmaes"]
    for lang in LANGS:
        loc = project.locale(lang)
        names += [loc.get(f"card.{c.id}.name") for c in project.game.cards[::7]]
        factions += [loc.get(f"faction.{f}") for f in project.game.factions]
    names += [c.code for c in project.game.cards[::11]] + [c.code.lower().replace("-", "") for c in project.game.cards[::13]]
    return names, factions, fields


def check(project, text: str, fmt: str, lang: str, games) -> None:
    """Read, validate and report a decklist; only DataError may stop it (a file unreadable as a deck)."""
    deck = clean(parse_deck, project, text, f"fuzz.{'yaml' if fmt == 'yaml' else 'txt'}", fmt)
    if deck is None:
        return
    report = validate(project, deck, games=games)
    lines = report_lines(report, project, lang)
    assert lines and all(isinstance(line, str) for line in lines)
    json.dumps(report_dict(report, project, lang), ensure_ascii=False)
    assert report.legal == (not report.errors)
    for issue in report.issues:
        assert issue.line >= 0 and issue.col >= 0


@st.composite
def deck_lines(draw, words):
    names, factions, fields = words
    name = st.one_of(st.sampled_from(names), nasty_text, st.builds(lambda a, b: a + b, st.sampled_from(names), nasty_text))
    count = st.one_of(st.integers(0, 12).map(str), st.sampled_from(["３", "99999", "-1", "1.5", "x", "0x10", "", "1e3"]))
    line = st.one_of(
        st.builds(lambda c, n: f"{c} {n}", count, name),
        st.builds(lambda c, n: f"{c}x {n}", count, name),
        st.builds(lambda c, n: f"{n} x{c}", count, name),
        st.builds(lambda c, u, n: f"{c}{u}{n}", count, st.sampled_from(["枚", "장", "张", "×", "*", " "]), name),
        st.builds(lambda f, v: f"{f}: {v}", st.sampled_from(fields), st.one_of(st.sampled_from(factions), nasty_text, count)),
        st.sampled_from(["", "# comment", "// comment", "Units:", "Doctrines (12)", "ローマ", "  ", "\t3 ROM-01"]),
        nasty_text,
    )
    return "\n".join(draw(st.lists(line, max_size=45)))


def test_fuzz_text_decklists(project, words):
    @fuzz(200)
    @given(text=deck_lines(words), lang=st.sampled_from(LANGS), games=st.one_of(st.none(), st.integers(0, 10**6)),
           newline=st.sampled_from(["\n", "\r\n", "\r"]))
    def run(text, lang, games, newline):
        check(project, text.replace("\n", newline), "text", lang, games)

    run()


def test_fuzz_text_decklists_any_characters(project):
    @fuzz(200)
    @given(text=st.one_of(st.text(max_size=300), nasty(300)), lang=st.sampled_from(LANGS))
    def run(text, lang):
        check(project, text, "text", lang, None)

    run()


@st.composite
def yaml_decks(draw, words):
    names, factions, _ = words
    value = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(nasty_text, scalars, max_size=3))
    cards = st.one_of(
        st.dictionaries(st.one_of(st.sampled_from(names), nasty_text), st.one_of(st.integers(-2, 5), value), max_size=25),
        value,
    )
    data = draw(st.fixed_dictionaries({}, optional={
        "name": value, "primary": st.one_of(st.sampled_from(factions), value), "games": st.one_of(st.integers(-1, 99), value),
        "cards": cards, "extra": value,
    }))
    return yaml.safe_dump(data, allow_unicode=True) if draw(st.booleans()) else yaml.safe_dump(data)


def test_fuzz_yaml_decklists(project, words):
    @fuzz(200)
    @given(text=yaml_decks(words), lang=st.sampled_from(LANGS))
    def run(text, lang):
        check(project, text, "yaml", lang, None)

    run()


def test_fuzz_yaml_decklists_any_text(project):
    @fuzz(200)
    @given(text=nasty(200))
    def run(text):
        check(project, text, "yaml", "en", None)

    run()
