"""Decklists: reading (text, YAML, any language) and the deck-building rules (decisions §5)."""
from __future__ import annotations

import re

import pytest

import ppgen
from conftest import ROOT
from ppgen import decks
from ppgen.errors import DataError
from ppgen.read.locale import placeholders


# ── helpers ─────────────────────────────────────────────────────────────────
def starter(project, faction: str) -> dict[str, int]:
    return {c.id: n for c, n in project.game.starter_deck(faction)}


def listed(project, path: str) -> dict[str, int]:
    """The cards of a shipped decklist, by id."""
    return dict(decks.load_deck(project, ROOT / path).cards)


def text_of(project, cards: dict[str, int], primary: str | None = None, games: int | None = None, lang: str = "en") -> str:
    lines = [f"primary: {primary}"] if primary else []
    if games is not None:
        lines.append(f"games: {games}")
    lines += [f"{n} {project.card_name(project.game.card(i), lang)}" for i, n in cards.items() if n]
    return "\n".join(lines) + "\n"


def check(project, text: str, fmt: str = "text", games: int | None = None):
    return decks.validate(project, decks.parse_deck(project, text, "test.txt", fmt), games)


def errors(report) -> set[str]:
    return {i.code for i in report.errors}


def issue(report, code):
    found = [i for i in report.issues if i.code == code]
    assert found, [i.code for i in report.issues]
    return found[0]


def moved(cards: dict[str, int], **changes: int) -> dict[str, int]:
    """A copy of `cards` with counts changed (keyword names use _ for -)."""
    out = dict(cards)
    for key, delta in changes.items():
        card_id = key.replace("_", "-")
        out[card_id] = out.get(card_id, 0) + delta
    return out


def words(project, lang="en"):
    return decks.Words(project, lang)


# ── the shipped decks ─────────────────────────────────────────────────────────
def shipped():
    return sorted(p.name for p in (ROOT / "decks").iterdir() if p.is_file())


def test_decks_folder_has_seven_starters_an_allied_and_a_coalition_deck(project):
    names = shipped()
    assert [n for n in names if n.startswith("starter-")] == [f"starter-{f}.txt" for f in project.game.factions]
    types = {decks.validate(project, decks.load_deck(project, ROOT / "decks" / n)).deck_type for n in names}
    assert {"standard", "allied", "coalition"} <= types


@pytest.mark.parametrize("name", shipped())
def test_every_shipped_deck_is_legal(project, name):
    report = decks.validate(project, decks.load_deck(project, ROOT / "decks" / name))
    assert report.legal, [(i.code, words(project).message(i)) for i in report.errors]
    assert not report.warnings


@pytest.mark.parametrize("faction", ["carthage", "dacia", "egypt", "macedonia", "persia", "rome", "sparta"])
def test_starter_decklists_hold_exactly_the_starter_copies(project, faction):
    assert listed(project, f"decks/starter-{faction}.txt") == starter(project, faction)


# ── one rule broken at a time ───────────────────────────────────────────────
def test_legal_base_decks(project):
    assert check(project, text_of(project, starter(project, "rome"), "Rome")).legal
    assert check(project, text_of(project, listed(project, "decks/allied-rome-sparta.txt"), "Rome")).legal
    assert check(project, text_of(project, listed(project, "decks/coalition-macedonia.yaml"), "Macedonia")).legal


def test_deck_size(project):
    report = check(project, text_of(project, moved(starter(project, "rome"), hastati_line=-1), "Rome"))
    assert errors(report) == {"deck-size"}
    found = issue(report, "deck-size")
    assert (found.params["total"], found.params["size"]) == (39, 40)
    assert words(project).hint(found) == "add 1 card"
    report = check(project, text_of(project, moved(starter(project, "rome"), hastati_line=+1, testudo=+1), "Rome"))
    assert words(project).hint(issue(report, "deck-size")) == "remove 2 cards"
    assert words(project).message(found) == "the deck has 39 cards; it must have exactly 40"
    one = check(project, "1 Hastati Line\n")  # one card: "1 card", not "1 cards", in every language's way
    said = {lang: words(project, lang).message(issue(one, "deck-size")) for lang in ("en", "ja", "ko", "zh")}
    assert said == {"en": "the deck has 1 card; it must have exactly 40", "ja": "デッキは1枚です。ちょうど40枚でなければなりません",
                    "ko": "덱이 1장입니다. 덱은 정확히 40장이어야 합니다", "zh": "牌组有 1 张牌；必须恰好 40 张"}


def test_max_copies(project):
    report = check(project, text_of(project, moved(starter(project, "rome"), legionary_cohort=+1, hastati_line=-1), "Rome"))
    assert errors(report) == {"copies"}
    found = issue(report, "copies")
    assert found.cards == ("legionary-cohort",) and found.params["count"] == 4
    assert words(project).message(found) == "4 copies of Legionary Cohort; at most 3 of any card"
    assert words(project).hint(found) == "remove 1 copy"


def test_allied_split(project):
    cards = moved(listed(project, "decks/allied-rome-sparta.txt"), roman_archer_auxilia=+1, spartan_hoplite=-1)
    report = check(project, text_of(project, cards, "Rome"))
    assert errors(report) == {"deck-split"}
    found = issue(report, "deck-split")
    assert words(project).message(found) == "Allied deck: exactly 30 Rome + 10 Sparta; this deck has 31 Rome + 9 Sparta"
    assert words(project).hint(found) == "change the counts: Rome \u22121, Sparta +1"
    assert report.deck_type == "allied"


def test_coalition_split(project):
    cards = moved(listed(project, "decks/coalition-macedonia.yaml"), egyptian_chariot_corps=-1, scythed_chariot=+1)
    report = check(project, text_of(project, cards, "Macedonia"))
    assert errors(report) == {"deck-split"}
    found = issue(report, "deck-split")
    assert [n for _, n in found.params["actual"]] == [26, 9, 5]
    assert [n for _, n in found.params["expected"]] == [26, 8, 6]


def test_too_many_factions(project):
    cards = moved(listed(project, "decks/coalition-macedonia.yaml"), medjay_guard=-1, hastati_line=+1)
    report = check(project, text_of(project, cards, "Macedonia"))
    assert errors(report) == {"too-many-factions"}
    assert issue(report, "too-many-factions").params["count"] == 4
    assert report.deck_type is None


def test_no_commander(project):
    cards = moved(starter(project, "rome"), trajan_imperial_vanguard=-1, trajan_builder_of_provinces=-1,
                  consular_cavalry=+1, principes_line=+1)
    report = check(project, text_of(project, cards, "Rome"))
    assert errors(report) == {"commanders"}
    found = issue(report, "commanders")
    assert found.params["count"] == 0
    assert words(project).hint(found) == "add a Commander of your primary faction, e.g. Trajan, Imperial Vanguard"


def test_two_copies_of_one_commander(project):
    cards = moved(starter(project, "rome"), trajan_imperial_vanguard=+1, trajan_builder_of_provinces=-1)
    report = check(project, text_of(project, cards, "Rome"))
    assert errors(report) == {"commander-copies"}
    assert issue(report, "commander-copies").cards == ("trajan-imperial-vanguard",)


def test_commander_from_another_faction(project):
    cards = moved(listed(project, "decks/allied-rome-sparta.txt"), trajan_builder_of_provinces=-1,
                  leonidas_king_of_sparta=+1, spartan_hoplite=-1, roman_archer_auxilia=+1)
    report = check(project, text_of(project, cards, "Rome"))
    assert errors(report) == {"commander-faction"}
    found = issue(report, "commander-faction")
    assert found.cards == ("leonidas-king-of-sparta",)
    assert "Commanders must belong to your primary faction, Rome" in words(project).message(found)


def test_three_terrain_cards(project):
    report = check(project, text_of(project, moved(starter(project, "rome"), fortified_camp=+1, hastati_line=-1), "Rome"))
    assert errors(report) == {"terrain-count"}
    assert issue(report, "terrain-count").params["count"] == 3


# ── messages name the cards they are about (issue 13, items 2 and 3) ─────────
def test_too_many_terrain_cards_are_named(project):
    report = check(project, text_of(project, moved(starter(project, "rome"), roman_road=-1, narrow_pass=+1), "Rome"))
    found = issue(report, "terrain-count")
    assert words(project).message(found).startswith("3 Terrain cards (Fortified Camp ×2; Narrow Pass); at most 2 per deck")
    assert words(project, "ja").message(found).startswith("地形カードが3枚あります（要塞野営地×2、狭き山道）")


def test_terrain_without_a_primary_one_names_the_terrain_cards_held(project):
    cards = {k: v for k, v in moved(starter(project, "rome"), fortified_camp=-2, narrow_pass=+1, desert_routes=+1).items() if v}
    report = check(project, text_of(project, cards, "Rome"))
    found = issue(report, "terrain-primary")
    message = words(project).message(found)
    assert "Rome" in message and "Desert Routes (Carthage); Narrow Pass (Sparta)" in message, message
    assert "砂漠の道（カルタゴ）、狭き山道（スパルタ）" in words(project, "ja").message(found)


def test_a_locked_faction_is_named_with_its_cards_counted_not_every_line_listed(project):
    report = check(project, text_of(project, starter(project, "macedonia"), "Macedonia", games=1))
    found = issue(report, "faction-locked")
    message = words(project).message(found)
    assert message == "Macedonia unlocks at 3 games; you have 1 (this deck has 40 Macedonia cards)", message
    assert "lines" not in message
    assert len(found.lines) == len(starter(project, "macedonia"))  # the JSON still cites every line


def test_too_many_commanders_are_named(project):
    three = moved(listed(project, "decks/allied-rome-sparta.txt"), spartan_hoplite=-1, leonidas_king_of_sparta=+1)
    found = issue(check(project, text_of(project, three, "Rome")), "commanders")
    assert words(project).message(found).startswith(
        "3 Commanders (Trajan, Imperial Vanguard; Trajan, Builder of Provinces; Leonidas, King of Sparta); a deck has 1 to 2")
    none = moved(starter(project, "rome"), trajan_imperial_vanguard=-1, trajan_builder_of_provinces=-1, hastati_line=+1)
    assert words(project).message(issue(check(project, text_of(project, none, "Rome")), "commanders")) == \
        "no Commander; a deck has 1 to 2"


@pytest.mark.parametrize("extra, total", [("leonidas-king-of-sparta", 41), ("narrow-pass", 41)])
def test_one_card_of_another_faction_is_the_odd_one_out_not_a_rebuild(project, extra, total):
    """A Standard deck plus one card of another faction became an "Allied deck" with the hint
    "Rome −10, Sparta +9"; the fix is to remove that card."""
    cards = dict(starter(project, "rome"), **{extra: 1})
    report = check(project, text_of(project, cards, "Rome"))
    assert report.deck.total == total
    found = issue(report, "deck-split")
    name = project.card_name(project.game.card(extra), "en")
    assert words(project).hint(found) == f"remove {name} (Sparta)"
    ja = project.card_name(project.game.card(extra), "ja")
    assert words(project, "ja").hint(found) == f"{ja}（スパルタ）を抜いてください"


def test_an_odd_card_in_a_full_deck_is_replaced_by_a_card_of_the_faction_short_of_cards(project):
    standard = moved(starter(project, "rome"), legionary_cohort=-1)
    standard["leonidas-king-of-sparta"] = 1
    assert words(project).hint(issue(check(project, text_of(project, standard, "Rome")), "deck-split")) == \
        "replace Leonidas, King of Sparta (Sparta) with a card of Rome"
    coalition = moved(listed(project, "decks/coalition-macedonia.yaml"), medjay_guard=-1, hastati_line=+1)
    report = check(project, text_of(project, coalition, "Macedonia"))
    assert words(project).hint(issue(report, "too-many-factions")) == "replace Hastati Line (Rome) with a card of Egypt"


def test_a_real_split_still_gets_the_count_changes(project):
    cards = moved(listed(project, "decks/allied-rome-sparta.txt"), roman_archer_auxilia=+2, spartan_hoplite=-2)
    report = check(project, text_of(project, cards, "Rome"))
    assert words(project).hint(issue(report, "deck-split")) == "change the counts: Rome \u22122, Sparta +2"


def test_terrain_without_a_primary_one(project):
    cards = moved(listed(project, "decks/allied-rome-sparta.txt"), fortified_camp=-2, narrow_pass=+2,
                  shield_bearer_youth=-2, roman_archer_auxilia=+1, roman_road=+1)
    cards = {k: v for k, v in cards.items() if v}
    report = check(project, text_of(project, cards, "Rome"))
    assert errors(report) == {"terrain-primary"}
    found = issue(report, "terrain-primary")
    assert found.cards == ("narrow-pass",)
    assert words(project).hint(found) == "include Fortified Camp"


def test_locked_faction(project):
    report = check(project, text_of(project, starter(project, "persia"), "Persia", games=4))
    assert errors(report) == {"faction-locked"}
    found = issue(report, "faction-locked")
    assert words(project).message(found).startswith("Persia unlocks at 6 games; you have 4")
    assert words(project).hint(found) == "play 2 more games"
    assert len(found.lines) == len(starter(project, "persia"))  # every Persia line is cited
    assert check(project, text_of(project, starter(project, "persia"), "Persia", games=6)).legal


def test_coalition_needs_enough_unlocked_factions(game_copy, project):
    rules = game_copy / "cards.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("coalition_unlocked: 3", "coalition_unlocked: 4"), encoding="utf-8")
    copy = ppgen.load(game_copy)
    mac = {i: n for i, n in listed(project, "decks/coalition-macedonia.yaml").items() if project.game.card(i).faction == "macedonia"}
    rome = {"hastati-line": 2, "legionary-cohort": 3, "testudo": 3}
    sparta = {"spartan-hoplite": 3, "hold-the-line": 3}
    report = check(copy, text_of(copy, mac | rome | sparta, "Macedonia", games=3))
    assert errors(report) == {"coalition-locked"}
    found = issue(report, "coalition-locked")
    assert (found.params["count"], found.params["need"], found.params["games"]) == (4, 6, 3)
    assert check(copy, text_of(copy, mac | rome | sparta, "Macedonia", games=6)).legal


def test_undeclared_primary_is_inferred_only_from_a_strict_majority(project):
    allied = listed(project, "decks/allied-rome-sparta.txt")
    report = check(project, text_of(project, allied))
    assert report.legal and report.primary == "rome" and report.primary_source == "inferred"
    assert issue(report, "primary-inferred").severity == "info"
    half_rome = {"trajan-imperial-vanguard": 1, "trajan-builder-of-provinces": 1, "hastati-line": 3, "legionary-cohort": 3,
                 "praetorian-guard": 3, "fortified-camp": 2, "testudo": 3, "pilum-volley": 2, "roman-road": 2}
    half_sparta = {"spartan-hoplite": 3, "shield-bearer-youth": 3, "hold-the-line": 3, "counter-thrust": 3,
                   "iron-resolve": 3, "no-step-back": 3, "agoge-training": 2}
    assert sum(half_rome.values()) == sum(half_sparta.values()) == 20
    report = check(project, text_of(project, half_rome | half_sparta))
    assert errors(report) == {"primary-unknown"}
    skipped = {name for name, _ in report.skipped}
    assert {"deck-type", "commander-faction", "terrain-primary"} <= skipped
    assert words(project).hint(issue(report, "primary-unknown")) == "add a line “primary: Rome”"


def test_declared_primary_with_no_cards(project):
    report = check(project, text_of(project, starter(project, "rome"), "Sparta"))
    assert errors(report) == {"primary-absent"}
    found = issue(report, "primary-absent")
    assert found.line == 1
    assert {"deck-type", "commander-faction"} <= {name for name, _ in report.skipped}


def test_unknown_primary_faction(project):
    report = check(project, text_of(project, starter(project, "rome"), "Romee"))
    assert errors(report) == {"unknown-faction"}
    found = issue(report, "unknown-faction")
    assert (found.line, found.col) == (1, 10)
    assert words(project).hint(found) == "did you mean Rome?"


def test_games_unknown_means_unlocked_with_a_note(project):
    report = check(project, text_of(project, starter(project, "dacia"), "Dacia"))
    assert report.legal
    note = issue(report, "unlock-note")
    assert note.severity == "info" and note.params["games"] == 15
    coalition = check(project, text_of(project, listed(project, "decks/coalition-macedonia.yaml"), "Macedonia"))
    assert issue(coalition, "unlock-note").params["games"] == 12
    assert "unlock-note" not in {i.code for i in check(project, text_of(project, starter(project, "rome"), "Rome")).issues}


def test_games_option_overrides_the_list(project):
    text = text_of(project, starter(project, "persia"), "Persia", games=2)
    assert errors(check(project, text)) == {"faction-locked"}
    report = check(project, text, games=9)
    assert report.legal and report.games == 9 and report.games_source == "option"
    assert issue(report, "games-override").params == {"games": 9, "listed": 2}


def test_rule_numbers_come_from_the_card_database(game_copy):
    cards = game_copy / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("max_copies: 3", "max_copies: 2"), encoding="utf-8")
    copy = ppgen.load(game_copy)
    report = check(copy, text_of(copy, starter(copy, "rome"), "Rome"))
    assert errors(report) == {"copies"}
    assert {i.params["max"] for i in report.errors} == {2}
    assert {i.cards[0] for i in report.errors} == {"legionary-cohort", "praetorian-guard"}


def test_several_broken_rules_are_all_reported(project):
    cards = moved(starter(project, "rome"), legionary_cohort=+2, fortified_camp=+1, leonidas_king_of_sparta=+1,
                  darius_great_king=+1)
    report = check(project, text_of(project, cards, "Rome", games=2))
    assert errors(report) == {"deck-size", "copies", "commanders", "commander-faction", "terrain-count",
                              "deck-split", "faction-locked", "coalition-locked"}
    assert len([i for i in report.errors if i.code == "commander-faction"]) == 2


# ── reading ─────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("line", [
    "3 Hastati Line", "3x Hastati Line", "3 x Hastati Line", "3X Hastati Line", "3× Hastati Line", "x3 Hastati Line",
    "Hastati Line x3", "Hastati Line ×3", "Hastati Line x 3", "３ Hastati Line", "３ｘ Ｈａｓｔａｔｉ Ｌｉｎｅ",
    "3枚 ハスタティ戦列", "3枚ハスタティ戦列", "ハスタティ戦列 3枚", "3장 하스타티 전열", "3张 青年兵战列",
    "ハスタティ戦列x3", "ハスタティ戦列X3", "ハスタティ戦列ｘ３", "3xハスタティ戦列", "하스타티 전열x3", "青年兵战列x3", "x3ハスタティ戦列",
    "  3 Hastati Line   # my comment", "3 Hastati Line // comment", "3 hastati line", "3 HASTATI  LINE",
    "3 hastatiline", "3 hastati-line", "3 ROM-01", "3 rom-1", "3 Rom 01",
])
def test_count_forms_and_name_forms(project, line):
    deck = decks.parse_deck(project, line + "\n")
    assert deck.cards == {"hastati-line": 3}, deck.issues
    assert not deck.issues


def test_names_in_every_language_with_punctuation_and_spacing_ignored(project):
    leonidas = project.game.card("leonidas-king-of-sparta")
    for lang in ("en", "ja", "ko", "zh"):
        name = project.card_name(leonidas, lang)
        for form in (name, name.upper(), name.replace(" ", ""), re.sub(r"[,，·・、]", " ", name), f"{name} ♚"):
            deck = decks.parse_deck(project, f"1 {form}\n")
            assert deck.cards == {"leonidas-king-of-sparta": 1}, (lang, form, deck.issues)


def test_comments_blank_lines_headers_and_fields(project):
    text = (
        "// exported from the forum\n"
        "# a comment\n"
        "name: Rome #1 deck\n"
        "Primary faction: ROM\n"
        "games: ７\n"
        "\n"
        "Units:\n"
        "Commanders (2)\n"
        "1 Trajan, Imperial Vanguard\n"
        "ユニット\n"
        "2 Hastati Line   # two\n"
    )
    deck = decks.parse_deck(project, text)
    assert not deck.issues, deck.issues
    assert (deck.name, deck.primary, deck.games) == ("Rome #1 deck", "rome", 7)
    assert deck.cards == {"trajan-imperial-vanguard": 1, "hastati-line": 2}
    assert [e.line for e in deck.entries] == [9, 11]


@pytest.mark.parametrize("line,faction", [("主勢力: ローマ", "rome"), ("주 진영: 로마", "rome"), ("主阵营：罗马", "rome"),
                                          ("primary: sparta", "sparta"), ("PRIMARY: Ｍａｃｅｄｏｎｉａ", "macedonia")])
def test_field_names_and_faction_names_in_any_language(project, line, faction):
    deck = decks.parse_deck(project, line + "\n1 Hastati Line\n")
    assert deck.primary == faction and not deck.issues


def test_mixed_languages_are_summed_and_every_line_cited(project):
    text = "primary: Rome\n2 Hastati Line\n1 ハスタティ戦列\n1 ROM-01\n"
    deck = decks.parse_deck(project, text)
    assert deck.cards == {"hastati-line": 4}
    assert deck.lines_of("hastati-line") == (2, 3, 4)
    report = decks.validate(project, deck)
    found = issue(report, "copies")
    assert found.lines == (2, 3, 4) and found.line == 2
    assert words(project).message(found).endswith("(lines 2, 3, 4)")
    assert issue(report, "merged").params["count"] == 4
    assert words(project, "ja").message(found) == "ハスタティ戦列が4枚あります。同じカードは3枚までです（2、3、4行目）"


def test_unknown_name_gets_suggestions_never_a_guess(project):
    deck = decks.parse_deck(project, "3 Hastati Lin\n2 テストゥト\n1 Zzyzx Qwerty\n")
    assert deck.cards == {}
    assert [e.card for e in deck.entries] == [None, None, None]
    first, second, third = [i for i in deck.issues if i.code == "unknown-card"]
    assert [r.id for r in first.hint_params["choices"]][0] == "hastati-line"
    assert 1 <= len(first.hint_params["choices"]) <= 3
    assert words(project).hint(first).startswith("did you mean Hastati Line (ROM-01)")
    assert words(project).hint(second) == "did you mean テストゥド (ROM-15)?"  # suggested in the language it was written in
    assert third.hint == "deck.hint.no-match"
    report = decks.validate(project, deck)
    assert not report.legal
    assert report.summary["unknown"] == 6


def test_ambiguous_name_lists_every_candidate(game_copy):
    zh = game_copy / "locales" / "zh.yaml"
    text = zh.read_text(encoding="utf-8")
    zh_name = re.search(r"card\.hastati-line\.name:\n  text: (.*)\n", text).group(1)
    zh.write_text(text.replace(f"  text: {zh_name}\n", "  text: テストゥド\n", 1), encoding="utf-8")
    project = ppgen.load(game_copy)
    deck = decks.parse_deck(project, "2 テストゥド\n")
    assert deck.cards == {}
    (found,) = deck.issues
    assert found.code == "ambiguous-card" and set(found.cards) == {"hastati-line", "testudo"}
    message = words(project).message(found)
    assert "Hastati Line (ROM-01)" in message and "Testudo (ROM-15)" in message
    assert decks.parse_deck(project, "2 ROM-15\n").cards == {"testudo": 2}


def test_lines_that_are_not_cards(project):
    deck = decks.parse_deck(project, "Hastati Line\nwhat is this?\n0 Testudo\nprimery: Rome\ngames: many\nname: a\nname: b\n")
    codes = [(i.code, i.line, i.severity) for i in deck.issues]
    assert codes == [("no-count", 1, "error"), ("bad-line", 2, "error"), ("zero-count", 3, "warning"),
                     ("unknown-field", 4, "error"), ("bad-games", 5, "error"), ("duplicate-field", 7, "error")]
    assert words(project).hint(deck.issues[0]) == "write “1 Hastati Line”"
    assert words(project).hint(deck.issues[3]) == "did you mean primary?"
    report = decks.validate(project, deck)
    assert "deck-size" in {name for name, _ in report.skipped}  # a line without a count: the size is unknown


def test_empty_decklist(project):
    report = decks.validate(project, decks.parse_deck(project, "# nothing yet\n\nprimary: Rome\n"))
    assert errors(report) == {"empty"}


@pytest.mark.parametrize("lang, says", [("en", "games played must be a whole number (0 or more), not “-3”"),
                                         ("ja", "試合数は0以上の整数で書いてください（「-3」ではなく）")])
def test_a_negative_number_of_games_is_named_for_its_sign(tmp_path, lang, says):
    """`games: -3` said "must be a whole number" (it is one): the sign is what is wrong."""
    from clitools import call_ppgen

    deck = tmp_path / "d.txt"
    deck.write_text("games: -3\n3 Hastati Line\n", encoding="utf-8")
    result = call_ppgen("validate", deck, "--lang", lang, root=ROOT)
    assert result.returncode == 1 and f"error[bad-games] {says}" in result.stdout, result.stdout


@pytest.mark.parametrize("text, kind", [("0 Hastati Line\n0 Testudo\n", "text"), ("cards: {Hastati Line: 0}\n", "yaml")])
def test_a_decklist_of_zero_copies_is_empty_not_legal(project, text, kind):
    """Lines that each count 0 copies add no card: the list is empty (it was "no deck type, legal",
    exit 0, beside "not checked until the errors above are fixed" with no error above)."""
    report = decks.validate(project, decks.parse_deck(project, text, f"d.{'yaml' if kind == 'yaml' else 'txt'}", kind))
    assert errors(report) == {"empty"} and not report.legal


# ── YAML decklists ──────────────────────────────────────────────────────────
def test_yaml_decklist(project):
    text = "name: Test\nprimary: ローマ\ngames: 3\ncards:\n  Hastati Line: 2\n  ハスタティ戦列: 1\n  ROM-15: \"３\"\n"
    deck = decks.parse_deck(project, text, "d.yaml", "yaml")
    assert (deck.name, deck.primary, deck.games) == ("Test", "rome", 3)
    assert deck.cards == {"hastati-line": 3, "testudo": 3}
    assert [(e.line, e.col) for e in deck.entries] == [(5, 3), (6, 3), (7, 3)]


def test_yaml_entry_problems_are_reported_with_positions(project):
    text = "primary: Rome\nformat: standard\ncards:\n  Hastati Line: three\n  Testudo: 2\n  Roman Road: -1\n  Pilum Volley: true\n"
    deck = decks.parse_deck(project, text, "d.yaml", "yaml")
    assert [(i.code, i.line, i.col) for i in deck.issues] == [
        ("unknown-field", 2, 1), ("bad-count", 4, 17), ("bad-count", 6, 15), ("bad-count", 7, 17)]
    assert deck.cards == {"testudo": 2}


@pytest.mark.parametrize("text,where", [
    ("cards:\n  Hastati Line: 3\n  - Testudo\n", (3, 3)),  # broken YAML
    ("- 3 Hastati Line\n", (1, 1)),                        # not a mapping
    ("cards:\n  - 3 Hastati Line\n", (2, 3)),              # cards is a list
    ("cards:\n  Testudo: 2\n  Testudo: 1\n", (3, 3)),      # duplicate key
])
def test_unreadable_yaml(project, text, where):
    with pytest.raises(DataError) as exc:
        decks.parse_deck(project, text, "d.yaml", "yaml")
    (problem,) = exc.value.problems
    assert (problem.line, problem.col) == where and problem.file == "d.yaml"


# ── reports ─────────────────────────────────────────────────────────────────
def test_summary_counts_and_curves(project):
    report = decks.validate(project, decks.load_deck(project, ROOT / "decks" / "allied-rome-sparta.txt"))
    s = report.summary
    cards = [(project.game.card(i), n) for i, n in report.deck.cards.items()]
    assert s["type"] == "allied" and s["total"] == 40
    assert [(r["faction"], r["role"], r["cards"]) for r in s["factions"]] == [("rome", "primary", 30), ("sparta", "ally", 10)]
    assert s["kinds"]["unit"] == sum(n for c, n in cards if c.is_unit)
    assert (s["commanders"], s["terrain"]) == (2, 2)
    for level in range(1, 7):
        assert s["level_curve"][str(level)] == sum(n for c, n in cards if c.is_unit and c.level == level)
        assert s["energy_curve"][str(level)] == sum(n for c, n in cards if c.is_unit and c.energy == level)
    assert sum(s["level_curve"].values()) == s["kinds"]["unit"]


def test_card_list_for_printing_is_in_database_order(project):
    deck = decks.load_deck(project, ROOT / "decks" / "coalition-macedonia.yaml")
    printed = deck.card_list(project.game)
    order = [c.id for c in project.game.cards]
    assert [order.index(c.id) for c, _ in printed] == sorted(order.index(c.id) for c, _ in printed)
    assert sum(n for _, n in printed) == 40


@pytest.mark.parametrize("lang", ["ja", "ko", "zh"])
def test_reports_in_every_language_use_the_glossary(project, lang):
    cards = moved(listed(project, "decks/allied-rome-sparta.txt"), roman_archer_auxilia=+1, spartan_hoplite=-1)
    report = check(project, text_of(project, cards, "Rome", lang=lang))
    text = "\n".join(decks.report_lines(report, project, lang))
    term = {"ja": "同盟デッキ", "ko": "동맹 덱", "zh": "同盟牌组"}[lang]
    rome = project.locale(lang).get("faction.rome")
    assert term in text and rome in text
    assert not project.locale(lang).fallbacks & {k for k in project.locale("en").keys() if k.startswith("deck.")}


def test_every_deck_key_is_translated_with_the_same_placeholders(project):
    en = project.locale("en")
    keys = [k for k in en.keys() if k.startswith("deck.")]
    assert len(keys) > 60
    for lang in ("ja", "ko", "zh"):
        loc = project.locale(lang)
        for key in keys:
            assert loc.is_translated(key), (lang, key)
            assert sorted(placeholders(loc.entries[key].text)) == sorted(placeholders(en.entries[key].text)), (lang, key)


def test_every_issue_code_and_hint_has_a_message(project):
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "src" / "ppgen" / "decks").glob("*.py"))
    en = project.locale("en")
    hints = set(re.findall(r'"(deck\.hint\.[a-z-]+)"', source))
    assert len(hints) > 10
    for key in hints:
        assert en.has(key), key
    for code in re.findall(r'(?:issue\(|Issue\()"([a-z-]+)"', source):
        assert en.has(f"deck.{code}"), code
    for check_ in decks.CHECKS:
        assert en.has(f"deck.check.{check_.name}"), check_.name


def test_korean_particles_follow_the_name(project):
    from ppgen.decks.report import korean_particles

    assert korean_particles("로마은(는) 전열이(가) 가도이(가) 군주을(를)") == "로마는 전열이 가도가 군주를"
    assert korean_particles("“Trajan”을(를)") == "“Trajan”을(를)"  # not after Hangul: both forms stay
    report = check(project, text_of(project, moved(starter(project, "rome"), legionary_cohort=+1, hastati_line=-1), "Rome"))
    assert words(project, "ko").message(issue(report, "copies")) == "군단병 코호르스가 4장입니다. 같은 카드는 최대 3장까지입니다"


def test_name_with_its_code_as_ppgen_prints_it(project):
    assert decks.parse_deck(project, "2 Hastati Line (ROM-01)\n1 テストゥド（ROM-15）\n").cards == {"hastati-line": 2, "testudo": 1}
    deck = decks.parse_deck(project, "2 Hastati Line (ROM-15)\n")
    (found,) = deck.issues
    assert found.code == "ambiguous-card" and set(found.cards) == {"hastati-line", "testudo"}


def test_part_of_a_name_suggests_the_cards_it_belongs_to(project):
    deck = decks.parse_deck(project, "1 Trajan\n1 レオニダス\n")
    trajan, leonidas = deck.issues
    assert {r.id for r in trajan.hint_params["choices"]} == {"trajan-imperial-vanguard", "trajan-builder-of-provinces"}
    assert {r.id for r in leonidas.hint_params["choices"]} == {"leonidas-king-of-sparta", "leonidas-voice-of-defiance"}
    assert {r.lang for r in leonidas.hint_params["choices"]} == {"ja"}


# ── the name index kept between runs (read/cache.py) ─────────────────────────
def test_a_second_run_reads_names_without_parsing_the_locale_files(game_copy, monkeypatch, tmp_path):
    monkeypatch.setenv("PPGEN_CACHE_DIR", str(tmp_path / "cache"))
    text = "Primary faction: Rome\n3 하스타티 전열\n2 ハスタティ戦列\n"
    first = decks.parse_deck(ppgen.load(game_copy), text)
    assert [e.card for e in first.entries] == ["hastati-line", "hastati-line"] and first.primary == "rome"
    assert len(list((tmp_path / "cache").glob("names-*.json"))) == 1

    def no_locale(self, lang):
        raise AssertionError(f"{lang}.yaml parsed although the name index was kept")

    with monkeypatch.context() as m:
        m.setattr(ppgen.project.Project, "locale", no_locale)
        again = decks.parse_deck(ppgen.load(game_copy), text)
    assert [(e.card, e.count) for e in again.entries] == [(e.card, e.count) for e in first.entries]
    assert again.primary == "rome"

    ko = game_copy / "locales" / "ko.yaml"  # a translator renames the card: the kept index is not trusted
    ko.write_text(ko.read_text(encoding="utf-8").replace("text: 하스타티 전열", "text: 하스타티 방진"), encoding="utf-8")
    renamed = decks.parse_deck(ppgen.load(game_copy), "Primary faction: Rome\n3 하스타티 방진\n3 하스타티 전열\n")
    assert renamed.entries[0].card == "hastati-line"
    assert [i.code for i in renamed.issues] == ["unknown-card"]
    assert len(list((tmp_path / "cache").glob("names-*.json"))) == 1  # the new index replaced this game's old one

    for entry in (tmp_path / "cache").glob("names-*.json"):  # a damaged entry is made again
        entry.write_text('{"key": "x", "value": ', encoding="utf-8")
    assert decks.parse_deck(ppgen.load(game_copy), "3 하스타티 방진").entries[0].card == "hastati-line"


def test_a_yaml_decklist_is_quoted_as_it_was_written(tmp_path):
    """Messages about a YAML decklist's values quoted Python's spelling of them (True, None,
    ['x']); they quote the YAML the player wrote: true, null, [3], ["x"]."""
    from clitools import call_ppgen

    deck = tmp_path / "deck.yaml"
    deck.write_text("name: [x]\ncards:\n  Hastati Line: true\n  Pilum Volley: null\n  Testudo: [3]\n  Hold the Line: [2024-01-01]\n",
                    encoding="utf-8")
    result = call_ppgen("validate", str(deck))
    shown = result.stdout + result.stderr
    assert result.returncode == 1, shown  # (a date in a list: quoted too, not an internal error)
    for written in ("“true” is not a number of copies", "“null” is not a number of copies", "“[3]” is not a number of copies", '["x"]',
                    '“["2024-01-01"]” is not a number of copies'):
        assert written in shown, shown
    assert "True" not in shown and "None" not in shown and "['x']" not in shown


def test_a_utf16_decklist_is_told_to_be_saved_as_utf8(tmp_path):
    """Windows Notepad's "Unicode" (UTF-16 with its byte order mark) was called "a binary file";
    it is named for what it is, with what to do."""
    from clitools import call_ppgen

    deck = tmp_path / "deck.txt"
    deck.write_bytes("Hastati Line x2\n".encode("utf-16"))
    result = call_ppgen("validate", str(deck))
    assert result.returncode == 2 and "this is UTF-16 text; save the file as UTF-8" in result.stdout + result.stderr


def test_a_language_without_the_one_variant_says_it_its_own_way(project, game_copy):
    """A locale that lacks deck.deck-size.one (another game's, say) keeps its own deck.deck-size: the
    English variant was taken over it ("the deck has 1 card" in a Korean report)."""
    import ppgen

    ko = game_copy / "locales" / "ko.yaml"
    text = ko.read_text(encoding="utf-8")
    start = text.index("deck.deck-size.one:\n")
    ko.write_text(text[:start] + text[text.index("\ndeck.", start + 1) + 1:], encoding="utf-8")
    edited = ppgen.load(game_copy)
    one = check(edited, "1 Hastati Line\n")
    assert words(edited, "ko").message(issue(one, "deck-size")) == "덱이 1장입니다. 덱은 정확히 40장이어야 합니다"

