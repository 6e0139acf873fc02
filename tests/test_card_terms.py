"""The rulebook's card terms (templates/rulebook.yaml `terms:`): every word a card prints that
the rules give a meaning is listed with it, in every language; words no edition defines are
played "as the card says" (decisions.md §6)."""
from __future__ import annotations

import re

import pytest

LANGS = ["en", "ja", "ko", "zh"]
# the words the issue names, printed on cards and unexplained before
NAMED = ["Graveyard", "Equipped", "Damage Step", "damage calculation", "sacrifice", "immune", "inflict", "Protect", "Revive"]


def _structure(project):
    from ppgen.read.rulebook import load_structure

    return load_structure(project)


def uncovered(project, term_ids) -> list[str]:
    """The words English cards print that no card term of `term_ids` lists: the glossary's key words
    and terms found on a card, and every capitalised game word inside a sentence (faction, type and
    card names aside); a plural or third person ("destroys") counts as its base word."""
    loc = project.locale("en")
    listed = " | ".join(loc.get(f"rules.term.{t}") for t in term_ids).lower()
    names = [loc.get(k) for k in loc.keys() if k.startswith(("type.", "faction.")) or re.fullmatch(r"card\.[^.]+\.name", k)]
    names += [w for n in list(names) for w in n.split()]  # "War Elephant": Elephant is a type's word

    def known(word: str) -> bool:
        w = word.rstrip(":").lower()
        return w in listed or (w.endswith("s") and w[:-1] in listed) or word in names

    effects = [project.card_effect(card, "en") or "" for card in project.game.cards]
    everything = " || ".join(effects)
    words = []
    g = project.glossary
    for term in g.keywords + g.terms:
        for form in term.en:
            if re.search(r"(?<![A-Za-z])" + re.escape(form) + r"(?![A-Za-z])", everything):
                words.append(form)
    for effect in effects:
        for name in sorted(names, key=len, reverse=True):
            effect = effect.replace(name, " ")
        words += re.findall(r"(?<=[a-z,;:] )[A-Z][a-z]+(?: [A-Z][a-z]+)*", effect)
    return sorted({w for w in words if not known(w)})


def test_every_word_a_card_prints_is_a_card_term(project):
    assert uncovered(project, _structure(project).term_ids()) == []
    listed = " ".join(project.locale("en").get(f"rules.term.{t}") for t in _structure(project).term_ids()).lower()
    for word in NAMED + ["On Deploy", "When destroyed:", "While face-up", "Once per turn"]:
        assert word.lower() in listed, word


@pytest.mark.parametrize("term, words", [("sacrifice", {"sacrifice"}), ("destroy", {"When destroyed:", "destroys"}),
                                         ("revive", {"Revive"})])
def test_the_check_fails_when_a_card_word_is_not_listed(project, term, words):
    ids = [t for t in _structure(project).term_ids() if t != term]
    assert words <= set(uncovered(project, ids))


def test_a_card_with_a_new_word_fails_the_check(game_copy):
    import ppgen

    path = game_copy / "locales" / "en.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^(card\.hastati-line\.effect: ).*$", r'\1"Once per turn: Banish 1 unit your opponent controls."', text, count=1, flags=re.MULTILINE)
    path.write_text(text, encoding="utf-8")
    changed = ppgen.load(game_copy)
    assert "Banish" in uncovered(changed, _structure(changed).term_ids())


@pytest.mark.parametrize("lang", LANGS)
def test_every_term_has_words_and_a_meaning_in_every_language(project, lang):
    from ppgen.read.rulebook import term_keys

    loc = project.locale(lang)
    for term in _structure(project).term_ids():
        for key in term_keys(term):
            assert loc.is_translated(key) and loc.get(key).strip(), (lang, key)
    if lang != "en":  # the terms as that language's cards print them (the glossary's words)
        assert loc.get("rules.term.graveyard") != project.locale("en").get("rules.term.graveyard")


@pytest.mark.parametrize("lang", LANGS)
def test_terms_no_edition_defines_are_played_as_the_card_says(project, lang):
    """decisions.md §6: Equip and Revive (and Protect) are defined by no edition — no invented rule."""
    loc = project.locale(lang)
    revive, protect, equipped = (loc.get(f"rules.term.{t}.meaning") for t in ("revive", "protect", "equipped"))
    assert revive == protect
    if lang == "en":
        for text in (revive, equipped):
            assert "as the card says" in text and "No edition" in text
    # the meaning says no more than that: no mechanics (no numbers, no zones)
    for text in (revive, protect, equipped):
        assert not re.search(r"\d", text)
