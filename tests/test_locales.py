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


def _rulebook_keys(root):
    import yaml

    structure = yaml.safe_load((root / "templates" / "rulebook.yaml").read_text(encoding="utf-8"))
    keys = [structure[k] for k in ("title", "subtitle", "tagline", "intro", "colophon")]
    keys += list(structure["reference"].values())
    for section in structure["sections"]:
        keys.append(section["heading"])
        for block in section["blocks"]:
            (items,) = block.values()
            keys += items if isinstance(items, list) else [items]
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_prose_is_complete_and_fills_from_game_data(project, lang):
    from conftest import ROOT

    keys = _rulebook_keys(ROOT)
    assert len(keys) == len(set(keys)) > 80
    loc = project.locale(lang)
    values = project.game.rules.placeholders(project.game.factions)
    for key in keys:
        assert loc.is_translated(key), (lang, key)
        text = loc.format(key, **values)
        assert "{" not in text and "<" not in text, (lang, key)
    assert {k for k in loc.keys() if k.startswith("rules.")} == set(keys)


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_states_the_union_rules(project, lang):
    """decisions.md §3: the newer edition's four rules and the dice instructions, in every language."""
    values = project.game.rules.placeholders(project.game.factions)
    loc = project.locale(lang)
    text = " ".join(loc.format(k, **values) for k in loc.keys() if k.startswith("rules."))
    assert "12" in loc.format("rules.kamikaze.1", **values)
    assert "d20" in text and "d12" in text and "d6" in text
    marker = {"en": "no notepad", "ja": "メモ帳", "ko": "메모장", "zh": "记事本"}[lang]
    assert marker not in text
