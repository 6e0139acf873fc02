"""The card database: consistency with the seeds' newer edition, and the starter decks."""
from __future__ import annotations

import pytest

FIELDS = {"lvl": "level", "atk": "atk", "def": "def_", "energy": "energy", "copies": "copies"}


def test_all_141_cards_in_seven_factions(project):
    game = project.game
    assert len(game.cards) == 141
    assert list(game.factions) == ["carthage", "dacia", "egypt", "macedonia", "persia", "rome", "sparta"]
    assert sum(c.kind == "unit" for c in game.cards) == 65
    assert sum(c.kind == "doctrine" for c in game.cards) == 42
    assert sum(c.kind == "tactic" for c in game.cards) == 34


def test_stats_equal_newer_edition(project, seed_cards):
    """Every number equals the ja/ko/zh seeds (the newer edition, decisions.md §2)."""
    for seed in seed_cards:
        card = project.game.card(seed["id"].split("/")[1])
        newer = seed["langs"]["ja"]
        assert seed["langs"]["ko"]["copies"] == newer["copies"] == seed["langs"]["zh"]["copies"]
        assert card.faction == seed["faction"].lower()
        assert card.kind == seed["kind"]
        for field, attr in FIELDS.items():
            assert getattr(card, attr) == newer[field], (card.id, field)


def test_the_six_changed_cards_use_the_newer_values(project):
    g = project.game
    assert (g.card("numidian-cavalry").level, g.card("numidian-cavalry").def_) == (4, 3)
    assert g.card("comati-raiders").atk == 3
    assert (g.card("sarmatian-allies").def_, g.card("sarmatian-allies").energy) == (4, 4)
    assert g.card("egyptian-chariot-corps").atk == 5
    assert g.card("royal-messenger").copies == 1
    assert g.card("scythed-chariot").copies == 3


def test_bonus_is_structured_data(project, seed_cards):
    """The bonus badge text is rebuilt from data and equals the seeds' Bonus column in English."""
    for seed in seed_cards:
        card = project.game.card(seed["id"].split("/")[1])
        if card.is_unit:
            continue
        expected = seed["langs"]["en"]["bonus"]
        text = project.bonus_text(card, "en") or "—"
        normalised = text.replace("\u2212", "-").replace("; +1 DEF", " / +1 DEF") if card.id in {
            "elephant-armor", "king-of-kings-decree", "standard-of-the-immortals", "eagle-standard"} else text.replace("\u2212", "-")
        assert normalised == expected, card.id


@pytest.mark.parametrize("faction", ["carthage", "dacia", "egypt", "macedonia", "persia", "rome", "sparta"])
def test_starter_deck(project, faction):
    deck = project.game.starter_deck(faction)
    assert sum(n for _, n in deck) == 40
    commanders = [(c, n) for c, n in deck if c.commander]
    assert 1 <= len(commanders) <= 2 and all(n == 1 for _, n in commanders)
    assert sum(n for c, n in deck if c.terrain) == 2


def test_commanders_and_terrain_as_decided(project, seed_cards):
    marked = {s["id"].split("/")[1] for s in seed_cards if s["commander_mark"]}
    assert {c.id for c in project.game.cards if c.commander} == marked
    assert {c.id for c in project.game.cards if c.terrain} == {
        "desert-routes", "forest-paths", "floodplain-of-the-nile", "engineers-bridges",
        "oasis-encampment", "fortified-camp", "narrow-pass"}
    assert not project.game.card("hill-fort").terrain


def test_traits(project):
    g = project.game
    assert g.card("balearic-slingers").traits == ("mercenary",)
    assert g.card("iberian-mercenaries").traits == ("mercenary",)
    assert g.card("falx-warriors").traits == ("falxmen",)
    assert project.type_line(g.card("iberian-mercenaries"), "en") == "Infantry · Mercenary"
    assert project.type_line(g.card("iberian-mercenaries"), "ja") == "歩兵・傭兵"


def test_codes_are_unique_and_prefixed(project):
    codes = [c.code for c in project.game.cards]
    assert len(set(codes)) == 141
    for c in project.game.cards:
        assert c.code.startswith(project.game.factions[c.faction].code + "-")
