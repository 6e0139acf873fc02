"""The four locales: complete card names, equal to the seeds, English rewritten to the newer edition."""
from __future__ import annotations

import re

import pytest

from ppgen.read.locale import source_hash

LANGS = ["en", "ja", "ko", "zh"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_locale_names_all_141_cards(project, lang):
    loc = project.locale(lang)
    for card in project.game.cards:
        assert loc.is_translated(f"card.{card.id}.name"), (lang, card.id)
        assert loc.is_translated(f"card.{card.id}.effect"), (lang, card.id)


@pytest.mark.parametrize("lang", ["ja", "ko", "zh"])
def test_cjk_names_and_effects_equal_the_seeds(project, seed_cards, lang):
    for seed in seed_cards:
        card = project.game.card(seed["id"].split("/")[1])
        printed = seed["langs"][lang]["name"]
        assert project.card_name(card, lang) == printed.replace("♚", "").strip()
        assert ("♚" in printed) == card.commander
        assert project.card_effect(card, lang) == seed["langs"][lang]["effect"]


def test_english_names_equal_the_seed(project, seed_cards):
    for seed in seed_cards:
        card = project.game.card(seed["id"].split("/")[1])
        assert project.card_name(card, "en") == seed["langs"]["en"]["name"].replace("♚", "").strip()


def test_english_effects_are_rewritten_to_the_newer_edition(project, seed_cards):
    """The 19 meaning changes (seed_diff.md (b)) are applied, and no shorthand is left."""
    changed = [s for s in seed_cards if s["review"]["effect_meaning_differs"]]
    assert len(changed) == 19
    for seed in changed:
        card = project.game.card(seed["id"].split("/")[1])
        assert project.card_effect(card, "en") != seed["langs"]["en"]["effect"], card.id
    for card in project.game.cards:
        text = re.sub(r"“[^”]*”", "", project.card_effect(card, "en"))  # quoted card names may say Archer
        assert not re.search(r"\bGY\b|Once/turn|\bsearch\b|\bSet card\b|\bArcher\b", text), (card.id, text)
    assert "2 ATK" in project.card_effect(project.game.card("nubian-archers"), "en")
    assert "discard 1 card" in project.card_effect(project.game.card("leonidas-voice-of-defiance"), "en")


@pytest.mark.parametrize("lang", ["ja", "ko", "zh"])
def test_translations_record_their_english_source(project, lang):
    loc, en = project.locale(lang), project.locale("en")
    for key, entry in loc.entries.items():
        assert entry.src == source_hash(en.entries[key].text), key


def test_missing_key_falls_back_to_english_and_is_recorded(game_copy):
    import ppgen

    text = (game_copy / "locales" / "ja.yaml").read_text(encoding="utf-8")
    text = re.sub(r"card\.hastati-line\.name:\n  text: .*\n  src: .*\n", "", text)
    (game_copy / "locales" / "ja.yaml").write_text(text, encoding="utf-8")
    project = ppgen.load(game_copy)
    card = project.game.card("hastati-line")
    assert project.card_name(card, "ja") == "Hastati Line"
    assert project.locale("ja").fallbacks == {"card.hastati-line.name"}


def test_officer_and_satrap_are_translated(project):
    assert project.locale("ja").get("type.officer") == "士官"
    assert project.locale("ko").get("type.satrap") == "사트라프"
    assert project.locale("zh").get("type.satrap") == "总督"


def _rulebook_keys(project):
    from ppgen.draw.rulebook import printed_keys
    from ppgen.read.rulebook import load_structure

    return printed_keys(load_structure(project))


def _rulebook_values(project, lang):
    """Rule constants and what a default build prints (pages, files, the combat example's numbers)."""
    from ppgen.write.parts import rulebook_values

    per_attack = {"attacker": 2, "defender": 6}  # the walkthrough fills these for each attack it draws
    return {**project.game.rules.placeholders(project.game.factions), **rulebook_values(project, lang), **per_attack}


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_prose_is_complete_and_fills_from_game_data(project, lang):
    keys = _rulebook_keys(project)
    assert len(keys) > 80
    loc = project.locale(lang)
    values = _rulebook_values(project, lang)
    for key in keys:
        assert loc.is_translated(key), (lang, key)
        text = loc.format(key, **values)
        assert "{" not in text and not re.search(r"<[A-Za-z/]", text), (lang, key)  # no placeholder, no markup ("Level < 5" is a card's words)
    phase_names = {f"rules.phases.{i}" for i in range(1, 7)}  # the mat's turn track prints the six names alone
    assert {k for k in loc.keys() if k.startswith("rules.")} == set(k for k in keys if k.startswith("rules.")) | phase_names


@pytest.mark.parametrize("lang", LANGS)
def test_one_set_of_phase_names_everywhere(project, lang):
    """The six phases of Advanced Rules: the turn's steps (each with its plain description), the
    quick reference and the mat print the same names, and no other name of a phase is printed."""
    loc = project.locale(lang)
    values = _rulebook_values(project, lang)
    names = [loc.get(f"rules.phases.{i}") for i in range(1, 7)]
    assert len(set(names)) == 6
    for i, name in enumerate(names, 1):
        for key in (f"rules.turn.{i}", f"rules.quick.phase.{i}"):
            text = loc.format(key, **values)
            assert text.startswith(f"**{name}**"), (lang, key, text[:40])
            assert len(text.split("**", 2)[2].strip(" —-:：")) > 3, (lang, key, "the name comes with its plain description")
    old_names = {"en": ["Refill Energy", "Second Main Phase"], "ja": ["エネルギーの回復**", "2回目のメインフェイズ"],
                 "ko": ["에너지 충전**", "두 번째 메인 페이즈"], "zh": ["补充能量**", "第二主要阶段"]}[lang]  # the older names
    every_text = " ".join(loc.format(k, **values) for k in _rulebook_keys(project)) + " ".join(
        loc.get(k) for k in loc.keys() if k.startswith(("mat.", "sheet.")))
    for old in old_names:
        assert old not in every_text, (lang, old)


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_states_the_union_rules(project, lang):
    """decisions.md §3: the newer edition's four rules and the dice instructions, in every language."""
    values = _rulebook_values(project, lang)
    loc = project.locale(lang)
    text = " ".join(loc.format(k, **values) for k in loc.keys() if k.startswith("rules."))
    assert "12" in loc.format("rules.kamikaze.1", **values)
    assert "d20" in text and "d12" in text and "d6" in text
    marker = {"en": "no notepad", "ja": "メモ帳", "ko": "메모장", "zh": "记事本"}[lang]
    assert marker not in text


def test_one_name_for_life_and_die_in_the_singular_in_english(project):
    """Life is "life points" (LP, as cards print it) — never "points", "score" or "life total" —
    and one die is a die, in the rulebook, on the mats and on the score sheet."""
    loc = project.locale("en")
    values = _rulebook_values(project, "en")
    text = " ".join([loc.format(k, **values) for k in _rulebook_keys(project)] +
                    [loc.get(k) for k in loc.keys() if k.startswith(("mat.", "sheet."))])
    assert "life points" in text
    assert not re.search(r"life total|\bscore\b(?![ -]sheet)|\b(?:lose|loses|lost|starts? with \d+) points\b", text, re.I)
    assert not re.search(r"\b(?:one|a|1)\s+(?:[\w-]+\s+){0,2}dice\b", text)
    assert not re.search(r"\bLP\b(?! damage)", loc.get("rules.goal.1").replace("(LP)", ""))


def test_a_reacting_tactic_is_explained_in_every_language(project):
    """How a Tactic that reacts ("When your opponent declares an attack:") is played: set it, turn
    it face-up when its moment comes, its effect at once — a paragraph and three steps, in every language."""
    from ppgen.read.rulebook import load_structure

    (section,) = [s for s in load_structure(project).sections if s.id == "doctrines-tactics"]
    keys = [k for b in section.blocks for k in b.keys]
    assert {"rules.doctrines-tactics.react", "rules.doctrines-tactics.react.1", "rules.doctrines-tactics.react.3"} <= set(keys)
    assert "When your opponent declares an attack:" in project.locale("en").get("rules.doctrines-tactics.react")
    for lang in LANGS:
        assert all(project.locale(lang).is_translated(k) for k in keys), lang
