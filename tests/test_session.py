"""write/session.py and Project.reloaded: the game kept in memory while it is edited, and only
what an edit changed read and drawn again (the library piece under `ppgen serve`)."""
from __future__ import annotations

import pytest
from servetools import copy_game, edit_text, save

CARD = "leonidas-king-of-sparta"
EFFECT = f"card.{CARD}.effect"


@pytest.fixture
def game(tmp_path):
    return copy_game(tmp_path / "game")


@pytest.fixture
def session(game):
    from ppgen.read.gamedir import GameDir
    from ppgen.write.session import Session

    s = Session(GameDir(game.resolve()), langs="en,ja", parts=())
    yield s
    s.close()


def test_a_locale_edit_rereads_that_file_and_keeps_the_rest(game):
    import ppgen

    project = ppgen.load(game)
    for lang in ("en", "ja", "ko"):
        project.locale(lang)
    fonts, glossary = project.fonts, project.glossary
    from ppgen.read.templates import load_card_template

    template = load_card_template(project)
    edit_text(game / "locales" / "ja.yaml", EFFECT, "新しい効果。")
    again = project.reloaded({game / "locales" / "ja.yaml"})
    assert again.game is project.game and again.config is project.config
    assert again.locale("en") is project.locale("en") and again.locale("ko") is project.locale("ko")
    assert again.locale("ja") is not project.locale("ja") and again.card_effect(project.game.card(CARD), "ja") == "新しい効果。"
    assert again.fonts is fonts and again.glossary is glossary and load_card_template(again) is template


@pytest.mark.parametrize("edited, kept", [
    ("cards.yaml", ["fonts", "glossary"]),  # the card database: locales are checked against it, so read again
    ("locales/en.yaml", ["fonts", "template:card"]),  # English: every translation falls back to it
    ("templates/card.yaml", ["fonts", "glossary"]),
    ("locales/glossary.yaml", ["fonts", "template:card"]),
])
def test_what_a_reload_keeps_depends_on_what_was_edited(game, edited, kept):
    import ppgen
    from ppgen.read.templates import load_card_template

    project = ppgen.load(game)
    project.locale("ja"), project.fonts, project.glossary, load_card_template(project)
    again = project.reloaded({game / edited})
    assert again.locale("ja") is not project.locale("ja") or edited not in ("cards.yaml", "locales/en.yaml")
    for name in kept:
        assert again._derived[name] is project._derived[name]
    dropped = {"cards.yaml": "template:card", "locales/en.yaml": None, "templates/card.yaml": "template:card",
               "locales/glossary.yaml": "glossary"}[edited]
    if dropped:
        assert dropped not in again._derived
    if edited == "cards.yaml":
        assert again.game is not project.game


def test_ppgen_yaml_or_a_new_language_reloads_everything(game):
    import shutil

    import ppgen

    project = ppgen.load(game)
    project.fonts
    assert "fonts" not in project.reloaded({game / "ppgen.yaml"})._derived
    shutil.copy(game / "locales" / "ko.yaml", game / "locales" / "xx.yaml")
    again = project.reloaded({game / "locales" / "xx.yaml"})
    assert "xx" in again.languages and "fonts" not in again._derived


def test_a_twin_records_its_own_fallbacks(game):
    import ppgen

    project = ppgen.load(game)
    text = (game / "locales" / "ja.yaml").read_text(encoding="utf-8")
    save(game / "locales" / "ja.yaml", text.replace(f"card.{CARD}.name:\n", f"card.{CARD}.name:\n  status: needs-translation\n", 1))
    project = ppgen.load(game)
    project.locale("ja")
    twin = project.twin()
    twin.card_name(project.game.card(CARD), "ja")
    assert f"card.{CARD}.name" in twin.locale("ja").fallbacks and not project.locale("ja").fallbacks
    assert twin.locale("ja").entries is project.locale("ja").entries and twin.locale("ja").source is twin.locale("en")
    assert project.locale("ja").peek(f"card.{CARD}.name") == project.locale("en").entries[f"card.{CARD}.name"].text
    assert not project.locale("ja").fallbacks  # peek records nothing


def test_one_cards_edit_changes_one_face_and_redraws_only_it(session, game, monkeypatch):
    from ppgen.write import faces

    assert session.error is None and session.langs == ("en", "ja") and len(session.fingerprints) == 2 * len(session.project.game.cards)
    keys = [(c.id, lang) for c in session.project.game.cards[:20] for lang in ("en", "ja")] + [(CARD, "en"), (CARD, "ja")]
    session.draw_fronts(keys)
    before = {k: session.drawn(*k) for k in keys}
    calls = []
    real = faces.card_fronts
    monkeypatch.setattr(faces, "card_fronts", lambda project, cards, lang, *a, **k: calls.append((lang, [c.id for c in cards])) or real(project, cards, lang, *a, **k))
    edit_text(game / "locales" / "ja.yaml", EFFECT, "自分フィールドの歩兵ユニットのATKが1上がる。")
    update = session.reload({game / "locales" / "ja.yaml"})
    assert update.fronts == [(CARD, "ja")] and update.languages == {"ja"} and not update.cards and update.error is None
    assert {p for p, _ in update.parts} == set() and session.generation == 1
    session.draw_fronts(keys)
    assert calls == [("ja", [CARD])]
    assert all(session.drawn(*k) is before[k] for k in keys if k != (CARD, "ja"))
    assert session.drawn(CARD, "ja") is not before[CARD, "ja"]
    assert session.reload({game / "locales" / "ja.yaml"}).changed is False  # saved again unchanged: nothing to do


def test_pictures_are_kept_by_what_they_show(session, game):
    first = session.front_picture(CARD, "ja", 72)
    assert first.data.startswith(b"\x89PNG") and session.front_picture(CARD, "ja", 72).data is first.data
    jpeg = session.front_picture(CARD, "ja", 72, "jpeg")
    assert jpeg.data.startswith(b"\xff\xd8") and jpeg.fingerprint == first.fingerprint
    old = edit_text(game / "locales" / "ja.yaml", EFFECT, "別の効果。")
    session.reload({game / "locales" / "ja.yaml"})
    changed = session.front_picture(CARD, "ja", 72)
    assert changed.fingerprint != first.fingerprint and changed.data != first.data
    save(game / "locales" / "ja.yaml", old)
    session.reload({game / "locales" / "ja.yaml"})
    back = session.front_picture(CARD, "ja", 72)
    assert back.fingerprint == first.fingerprint and back.data is first.data  # the same content: the same picture, not redrawn


def test_a_picture_asked_for_while_an_edit_is_read_is_the_face_as_it_is_now(session, game, monkeypatch):
    """An edit read between the question and the drawing: the answer is the new face, not nothing."""
    first = session.front_picture(CARD, "ja", 72)
    real = session.paint_fronts

    def edited_meanwhile(keys, dpi, kind="png"):
        monkeypatch.setattr(session, "paint_fronts", real)
        edit_text(game / "locales" / "ja.yaml", EFFECT, "その間に直した効果。")
        session.reload({game / "locales" / "ja.yaml"})
        return real(keys, dpi, kind)

    monkeypatch.setattr(session, "paint_fronts", edited_meanwhile)
    session._pictures.clear()  # (not made yet: it is drawn)
    picture = session.front_picture(CARD, "ja", 72)
    assert picture is not None and picture.fingerprint == session.fingerprints[CARD, "ja"] != first.fingerprint


def test_a_file_that_cannot_be_read_keeps_the_last_good_state(session, game):
    cards = game / "cards.yaml"
    good = cards.read_text(encoding="utf-8")
    fingerprints = session.fingerprints
    save(cards, good.replace("factions:", "factions: [", 1))
    update = session.reload({cards})
    assert update.error is not None and session.error is update.error
    assert update.error.problems[0].file == "cards.yaml" and update.error.problems[0].line > 0
    assert session.fingerprints is fingerprints and session.front_picture(CARD, "en", 50) is not None
    other = game / "locales" / "ja.yaml"
    edit_text(other, EFFECT, "直した後も読まれる。")  # edited while cards.yaml is broken
    assert session.reload({other}).error is not None
    save(cards, good)
    update = session.reload({cards})
    assert update.recovered and update.error is None and session.error is None
    assert (CARD, "ja") in update.fronts  # the edit made meanwhile is read too


def test_an_unknown_language_is_refused_at_once(game):
    from ppgen.errors import UsageError
    from ppgen.read.gamedir import GameDir
    from ppgen.write.session import Session

    with pytest.raises(UsageError, match="did you mean 'ja'"):
        Session(GameDir(game.resolve()), langs="en,jp")


def test_a_face_that_cannot_be_drawn_says_why(session, game):
    edit_text(game / "locales" / "ja.yaml", EFFECT, "描けない字：\u16a0")  # a runic letter: no font of ppgen.yaml has it
    session.reload({game / "locales" / "ja.yaml"})
    drawn = session.front(CARD, "ja")
    assert drawn.pdf is None and drawn.error is not None and "locales/ja.yaml" in str(drawn.error)
    assert session.front_picture(CARD, "ja", 50) is None
    assert session.front_picture(CARD, "en", 50) is not None


def test_pictures_rasterised_in_worker_processes_are_the_same(game):
    from ppgen.read.gamedir import GameDir
    from ppgen.write.session import Session

    here = Session(GameDir(game.resolve()), langs="ja", parts=())
    pool = Session(GameDir(game.resolve()), langs="ja", parts=(), workers=1)
    try:
        keys = [(c.id, "ja") for c in here.project.game.cards[:6]]
        for s in (here, pool):
            for future in s.paint_fronts(keys, 60):
                future.result(60)
        assert not pool._raster.broken
        assert [here.front_picture(*k, 60).data for k in keys] == [pool.front_picture(*k, 60).data for k in keys]
    finally:
        here.close()
        pool.close()
