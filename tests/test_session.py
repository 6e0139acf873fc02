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


def expected_picture(game, lang: str, dpi: float, kind: str = "png", card_fronts=None):
    """card id → its face in `lang` as the game is on disk now, drawn as `ppgen preview` draws it."""
    import ppgen
    from ppgen.draw.faces import CardGeometry
    from ppgen.write import faces
    from ppgen.write.faces import faces_pdf
    from ppgen.write.raster import RasterSize, render_pictures

    card_fronts = card_fronts or faces.card_fronts
    project = ppgen.load(game)
    geometry = CardGeometry.named("poker")
    return lambda card_id: render_pictures(faces_pdf(project, card_fronts(project, [project.game.card(card_id)], lang, geometry),
                                                     geometry, lang), [(0, RasterSize.at(geometry.width, geometry.height, dpi))], kind)[0]


def process_and_effect(project, card_id: str, lang: str) -> tuple[int, str]:
    """(Session.beside's work in the test: which process ran it, on which text.)"""
    import os

    return os.getpid(), project.card_effect(project.game.card(card_id), lang)


def test_faces_laid_out_in_forked_workers_are_the_builds_drawing_and_see_the_edits(game, monkeypatch):
    """Workers forked with the session lay faces out and rasterise them; after an edit they read the
    file again before they draw; a face whose file was saved again since the session read it (so
    a worker cannot reach the fingerprint asked for) is drawn in the session's own process. The
    same for the longer work done beside the drawing (Session.beside: checks, parts)."""
    import os

    from ppgen.read.gamedir import GameDir
    from ppgen.write import faces
    from ppgen.write.session import Session

    session = Session(GameDir(game.resolve()), langs="ja", parts=(), workers=2)
    try:
        session.start_workers()
        assert session._raster.forked
        here = []
        real = faces.card_fronts  # (the workers were forked before this: they draw with the real one)
        monkeypatch.setattr(faces, "card_fronts", lambda project, cards, lang, *a, **k: here.append([c.id for c in cards]) or real(project, cards, lang, *a, **k))
        keys = [(c.id, "ja") for c in session.project.game.cards[:5]] + [(CARD, "ja")]
        for future in session.paint_fronts(keys, 60):
            future.result(60)
        expected = expected_picture(game, "ja", 60, card_fronts=real)
        assert here == [] and all(session.drawn(*k) is not None for k in keys)  # laid out in the workers
        assert [session.front_picture(*k, 60).data for k in keys] == [expected(c) for c, _ in keys]
        assert session.front(CARD, "ja").pdf is not None  # the PDF came with them (here == []: not laid out again)

        locale = game / "locales" / "ja.yaml"
        edit_text(locale, EFFECT, "自分フィールドの歩兵ユニットのATKが1上がる。")
        session.reload({locale})
        assert session.front_picture(CARD, "ja", 60).data == expected_picture(game, "ja", 60, card_fronts=real)(CARD) and here == []  # a worker read the edit
        pid, effect = session.beside(process_and_effect, "ja", CARD, "ja")  # the longer work (checks, parts): there too
        assert pid != os.getpid() and effect == "自分フィールドの歩兵ユニットのATKが1上がる。"

        edit_text(locale, EFFECT, "もう一度直した効果。")
        session.reload({locale})
        asked = session.fingerprints[CARD, "ja"]
        wanted = expected_picture(game, "ja", 60, card_fronts=real)(CARD)
        edit_text(locale, EFFECT, "まだ読まれていない効果。")  # saved again: the workers read this one, the session has not
        picture = session.front_picture(CARD, "ja", 60)
        assert picture.fingerprint == asked and picture.data == wanted and here == [[CARD]]  # drawn here, as the session read it
        assert session.beside(process_and_effect, "ja", CARD, "ja") == (os.getpid(), "もう一度直した効果。")
    finally:
        session.close()


def test_a_session_started_again_reads_its_pictures_back_from_the_store(game, tmp_path, monkeypatch):
    from ppgen.read.gamedir import GameDir
    from ppgen.write import faces
    from ppgen.write.picture_store import PictureStore
    from ppgen.write.session import Session

    locale = game / "locales" / "ja.yaml"
    edit_text(locale, EFFECT, "長い効果。" * 40)  # too long for its box: a warning to keep with the picture
    store = PictureStore(tmp_path / "pictures")
    first = Session(GameDir(game.resolve()), langs="en,ja", parts=(), store=store)
    keys = [(c.id, lang) for c in first.project.game.cards[:4] for lang in ("en", "ja")] + [(CARD, "ja")]
    for future in first.paint_fronts(keys, 60, "jpeg"):
        future.result()
    warnings = first.drawn(CARD, "ja").warnings
    assert any(w.code == "overflow" for w in warnings)

    laid_out = []
    real = faces.card_fronts
    monkeypatch.setattr(faces, "card_fronts", lambda project, cards, lang, *a, **k: laid_out.append(lang) or real(project, cards, lang, *a, **k))
    again = Session(GameDir(game.resolve()), langs="en,ja", parts=(), store=PictureStore(tmp_path / "pictures"))
    assert again.kept(keys, 60, "jpeg") == [] and laid_out == []
    assert [again.front_picture(*k, 60, "jpeg").data for k in keys] == [first.front_picture(*k, 60, "jpeg").data for k in keys]
    assert again.drawn(CARD, "ja").warnings == warnings and again.drawn(CARD, "ja").kept and laid_out == []
    assert again.kept([(CARD, "ja")], 72, "jpeg") == [(CARD, "ja")]  # another size: not kept, drawn when asked for
    assert again.front_picture(CARD, "ja", 72, "jpeg") is not None and laid_out == ["ja"]

    edit_text(locale, EFFECT, "別の効果。")  # another text: another fingerprint, nothing read back for it
    again.reload({locale})
    assert again.kept([(CARD, "ja")], 60, "jpeg") == [(CARD, "ja")] and again.drawn(CARD, "ja") is None
    assert again.kept(keys[:2], 60, "jpeg") == []  # the other faces: still read back


def test_the_picture_store_is_bounded_atomic_and_shared(tmp_path):
    import os
    import threading
    import time

    from ppgen.write.picture_store import PictureStore

    folder = tmp_path / "pictures"
    store = PictureStore(folder, limit=100_000)
    keys = [store.key("front", i) for i in range(30)]
    assert len(set(keys)) == 30 and store.key("front", 1) == keys[1] != store.key("front", "1")
    for i, key in enumerate(keys[:10]):
        store.put(key, "jpg", bytes([i]) * 9_000)
        os.utime(store._path(key, "jpg"), (1000 + i, 1000 + i))  # written long ago, in this order
    assert store.get(keys[0], "jpg") == bytes([0]) * 9_000  # read now: used last
    other = PictureStore(folder, limit=100_000)  # another server on the same folder
    for i, key in enumerate(keys[10:14], 10):
        other.put(key, "jpg", bytes([i]) * 9_000)
    on_disk = sum(f.stat().st_size for f in folder.rglob("*.jpg"))
    assert on_disk <= 100_000
    assert store.get(keys[0], "jpg") is not None and store.get(keys[13], "jpg") is not None  # the last used are kept
    assert store.get(keys[1], "jpg") is None  # the least recently used went first
    assert other.get(keys[5], "jpg") is None or store.get(keys[5], "jpg") == bytes([5]) * 9_000

    leftover = folder / keys[20][:2] / f".{keys[20]}.jpg.x.tmp"  # a writer that died half-way
    leftover.parent.mkdir(parents=True, exist_ok=True)
    leftover.write_bytes(b"half")
    os.utime(leftover, (time.time() - 7200, time.time() - 7200))
    store.prune()
    assert not leftover.exists()

    values = [bytes([n]) * 50_000 for n in range(4)]  # many writers of one entry, and a reader: it sees one whole value
    big = PictureStore(folder, limit=10**9)
    seen = []

    def write(value):
        for _ in range(20):
            big.put(keys[25], "png", value)

    writers = [threading.Thread(target=write, args=(v,)) for v in values]
    for t in writers:
        t.start()
    while any(t.is_alive() for t in writers):
        data = big.get(keys[25], "png")
        if data is not None:
            seen.append(data)
    for t in writers:
        t.join()
    assert seen and all(data in values for data in seen)
    assert not [f for f in folder.rglob("*.tmp")]

    unwritable = PictureStore(tmp_path / "file")
    (tmp_path / "file").write_text("not a folder")
    unwritable.put(keys[0], "jpg", b"x")  # nothing to keep it in: the picture is simply not kept
    assert unwritable.get(keys[0], "jpg") is None

    import shutil

    shutil.rmtree(folder)  # the cache cleared while a server runs: it goes on keeping pictures
    store.put(keys[1], "jpg", b"again")
    assert store.get(keys[1], "jpg") == b"again"


def test_a_glossary_phrase_changes_the_faces_whose_lines_it_keeps_together(session, game):
    """The glossary's unbreakable phrases and compound breaks decide where a face's lines break:
    they are inputs of the faces they occur in (and only those), so an edit of them draws those
    faces again — and no picture kept from before (in memory or on disk) is shown for them."""
    glossary = game / "locales" / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8")
    effect = session.project.card_effect(session.project.game.card(CARD), "ja")
    phrase = effect[2:6]
    save(glossary, text.replace('  ja: [1ターンに1度,', f'  ja: [{phrase}, 1ターンに1度,', 1))
    update = session.reload({glossary})
    assert update.error is None and (CARD, "ja") in update.fronts
    changed = {card_id for card_id, lang in update.fronts}
    assert {lang for _, lang in update.fronts} == {"ja"}
    assert changed == {c.id for c in session.project.game.cards if phrase in session.project.card_effect(c, "ja").replace("**", "")
                       or phrase in session.project.card_name(c, "ja") or phrase in session.project.type_line(c, "ja")}


def test_a_face_painted_over_its_underlay_is_the_face_rasterised_whole(game):
    """The session's pictures: each distinct underlay (backdrop and glow) rasterised once and the
    rest of the front over it (write/faces.py picture_pdf) — pixel for pixel the pictures of the
    build's own PDF of the faces, rasterised whole: every kind of frame, pictures in the window
    (transparent, vectors), with a bleed and without, at the gallery's and the print size."""
    import ppgen
    from artgame import SVG, save, transparent_png
    from ppgen.draw.card_front import frame_kind
    from ppgen.draw.faces import CardGeometry
    from ppgen.write.faces import card_fronts, faces_pdf, picture_pdf
    from ppgen.write.raster import RasterSize, render_pictures

    save(transparent_png(), game / "art" / "praetorian-guard.png")
    (game / "art" / "triarii-reserve.svg").write_bytes(SVG)
    project = ppgen.load(game)
    looks = {}
    for card in project.game.cards:
        looks.setdefault(frame_kind(card), card)
    cards = [*looks.values(), project.game.card("praetorian-guard"), project.game.card("triarii-reserve")]
    for lang, bleed, dpi in (("ja", 0.0, 96), ("en", 3.0, 192)):
        geometry = CardGeometry.named("poker", bleed_mm=bleed)
        faces = card_fronts(project, cards, lang, geometry)
        assert faces[-1].art is not None and faces[-2].art is not None  # (the pictures are printed)
        layered, pages = picture_pdf(project, faces, geometry, lang)
        assert all(under is not None for _, under in pages)
        size = RasterSize.at(geometry.width, geometry.height, dpi)
        assert render_pictures(layered, [(page, size, under) for page, under in pages], "png") == \
            render_pictures(faces_pdf(project, faces, geometry, lang), [(i, size) for i in range(len(faces))], "png"), lang
    assert len({under for _, under in pages}) < len(pages)  # the cards of a faction and kind share theirs (Rome's units)


def test_a_font_subset_read_from_the_font_in_place_is_the_same(project):
    """ReportLab copies a font's whole glyf table for every subset; ppgen lets it read the glyphs
    in place (typeset/fonts.py): the subset embedded is the same, composite glyphs included."""
    import struct

    from reportlab.pdfbase import pdfmetrics, ttfonts

    chain = project.fonts.chain("en", "body")
    face = pdfmetrics.getFont(chain.primary).face
    start = face.get_table_pos("glyf")[0]
    composite = [code for code, glyph in face.charToGlyph.items() if face.glyphPos[glyph + 1] - face.glyphPos[glyph] > 2
                 and struct.unpack(">h", face._ttf_data[start + face.glyphPos[glyph]:start + face.glyphPos[glyph] + 2])[0] < 0]
    assert composite  # (é, ü …: accented letters are built of two glyphs)
    subset = [0, *range(32, 127), *composite[:40]]
    assert isinstance(face.get_table("glyf"), memoryview)
    in_place = face.makeSubset(subset)
    def copied_table(self, tag):  # as ReportLab reads a table: a copy of its bytes
        pos, length = self.get_table_pos(tag)
        return self._ttf_data[pos:pos + length]

    patched = ttfonts.TTFontParser.get_table
    try:
        ttfonts.TTFontParser.get_table = copied_table
        assert face.makeSubset(subset) == in_place
    finally:
        ttfonts.TTFontParser.get_table = patched


def test_workers_end_with_the_process_that_owns_them():
    """A server killed outright (SIGKILL, a crash) cannot stop its workers: they end by themselves
    instead of waiting for work for ever, each holding a copy of the game."""
    import os
    import subprocess
    import sys
    import time

    if not os.path.isdir("/proc"):
        pytest.skip("needs /proc to see which processes live")
    script = ("import os, signal\nfrom ppgen.write.raster import RasterPool\n"
              "pool = RasterPool(2, fork=True)\npool.start()\n"
              "print(*[p.pid for p in pool._pool._processes.values()], flush=True)\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    owner = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    workers = [int(pid) for pid in owner.stdout.split()]
    assert owner.returncode == -9 and len(workers) == 2, owner.stderr
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")]
