"""Every rule message of the card database (read/game.py), each at its `cards.yaml:line:col`.

One test per message: a real cards.yaml with one card (or one list) broken the way a
designer would break it, loaded by `ppgen cards` as a user runs it. The message, its
code and its position are asserted exactly: exit 2, no traceback.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from clitools import Break, assert_clean_error, call_ppgen, located


def add(after: str, line: str, **kw) -> Break:
    """`line` added to a card, after its `copies:` line."""
    return Break(after, "        copies: 2\n", "        copies: 2\n" + line + "\n", needle=line.strip(), **kw)


UNIT, DOCTRINE, TACTIC = "- id: hastati-line", "- id: testudo", "- id: decisive-order"
CARDS = (Path(__file__).resolve().parent.parent / "cards.yaml").read_text(encoding="utf-8").splitlines()


def line_of(text: str) -> int:
    """The line of the real cards.yaml that holds `text` (the first one)."""
    return next(n for n, line in enumerate(CARDS, 1) if text in line)

RULES = {
    # _card: every card
    "copies-range": Break(UNIT, "copies: 2", "copies: 4", "value", "'copies' must be between 1 and 3, not 4", "copies: 4", "4"),
    "unknown-trait": add(UNIT, "        traits: [mercenry]", code="unknown-ref",
                         message="unknown trait 'mercenry'; did you mean 'mercenary'?", at="mercenry"),
    # _card: units
    "unit-needs-stat": Break(UNIT, "        atk: 3\n", "", "missing-key", "card 'hastati-line' is a unit and needs 'atk'", UNIT, "id"),
    "unit-stat-range": Break(UNIT, "level: 2", "level: 7", "range", "'level' must be between 1 and 6, not 7", "level: 7", "7"),
    "unit-needs-type": Break(UNIT, "        type: infantry\n", "", "missing-key", "card 'hastati-line' is a unit and needs a 'type'", UNIT, "id"),
    "unit-unknown-type": Break(UNIT, "type: infantry", "type: infantri", "unknown-ref",
                               "unknown type 'infantri'; did you mean 'infantry'?", "type: infantri", "infantri"),
    "unit-has-no-bonus": add(UNIT, "        bonus: [{stat: def, amount: +1}]", code="data",
                             message="card 'hastati-line': only Doctrines and Tactics have a bonus", at="["),
    "unit-is-no-terrain": add(UNIT, "        terrain: true", code="data", message="card 'hastati-line': only Doctrines can be Terrain", at="true"),
    "commander-type": add(UNIT, "        commander: true", code="data",
                          message="card 'hastati-line': a Commander must have type commander", at="true"),
    # _card: doctrines and tactics
    "doctrine-has-no-stat": add(DOCTRINE, "        atk: 2", code="data", message="card 'testudo': a doctrine has no 'atk'", at="2"),
    "tactic-has-no-type": add(TACTIC, "        type: infantry", code="data", message="card 'decisive-order': a tactic has no 'type'", at="infantry"),
    "only-units-command": add(DOCTRINE, "        commander: true", code="data", message="card 'testudo': only units can be Commanders", at="true"),
    "tactic-is-no-terrain": add(TACTIC, "        terrain: true", code="data", message="card 'decisive-order': only Doctrines can be Terrain", at="true"),
    # load_game: factions and the cards together
    "duplicate-faction": Break("code: CAR\n", "  - id: dacia\n", "  - id: carthage\n", "duplicate", "duplicate faction id 'carthage'",
                               "  - id: carthage", "carthage"),
    "duplicate-card-id": Break("code: ROM-01", "- id: roman-archer-auxilia", "- id: hastati-line", "duplicate",
                               f"duplicate card id 'hastati-line' (first used on line {line_of(UNIT)})", "- id: hastati-line", "hastati-line"),
    "duplicate-card-code": Break("- id: roman-archer-auxilia", "code: ROM-02", "code: ROM-01", "duplicate",
                                 f"duplicate card code 'ROM-01' (first used on line {line_of('code: ROM-01')})", "code: ROM-01", "ROM-01"),
    "code-of-faction": Break(UNIT, "code: ROM-01", "code: CAR-99", "data", "code 'CAR-99' must start with the faction code ROM-", "code: CAR-99", "CAR-99"),
    "starter-deck-total": Break(UNIT, "copies: 2", "copies: 1", "starter-deck",
                                "faction 'rome': starter copies total 39, must be 40 (add 1)", "  - id: rome", "rome", needle_after=""),
    # load_game: the rules together (each was valid alone; together no Allied deck, or no energy, could be played)
    "allied-total": Break("rules:", "allied: [30, 10]", "allied: [30, 9]", "value",
                          "'allied' adds up to 30 + 9 = 39 cards, but 'deck_size' is 40: no Allied deck could be legal", "allied:", "["),
    "coalition-total": Break("rules:", "coalition: [26, 8, 6]", "coalition: [26, 8, 8]", "value",
                             "'coalition' adds up to 26 + 8 + 8 = 42 cards, but 'deck_size' is 40: no Coalition deck could be legal",
                             "coalition:", "["),
    "energy-max-below-start": Break("rules:", "energy_max: 12", "energy_max: 2", "value", "'energy_max' (2) is below 'energy_start' (6)",
                                    "energy_max:", "2"),
    # load_game: the lists of types and traits
    "duplicate-type": Break("types:", "[infantry, missile-infantry", "[infantry, infantry", "duplicate", "duplicate type 'infantry'",
                            "types:", "infantry, cavalry"),
    "trait-id": Break("traits:", "traits: [mercenary, falxmen]", "traits: [mercenary, falxmen, Horse Archers]", "data",
                      "trait ids must be lowercase words with hyphens, not 'Horse Archers'", "traits:", "Horse Archers"),
}


@pytest.mark.parametrize("rule", RULES.values(), ids=RULES.keys())
def test_card_rule_message_and_position(game_copy, rule):
    expected = rule.apply(game_copy / "cards.yaml", "cards.yaml")
    assert_clean_error(call_ppgen("cards", root=game_copy), expected, where=located("cards.yaml"))


def test_two_malformed_codes_are_not_a_duplicate(game_copy):
    cards = game_copy / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("code: ROM-01", "code: rom 1").replace("code: ROM-02", "code: rom 2"), encoding="utf-8")
    out = assert_clean_error(call_ppgen("cards", root=game_copy), where=located("cards.yaml"))
    assert "duplicate" not in out, out
    assert out.count("error[") == 2, out  # each malformed code once, where it is written
