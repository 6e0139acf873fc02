"""Exports: card PNGs, Tabletop Simulator sheets, contact sheets and previews, read back as pixels."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from clitools import call_ppgen
from pdftools import form_key
from ppgen import export
from ppgen.errors import UsageError
from ppgen.export import tts

LANGS = ("en", "ja", "ko", "zh")
HOME_CARD = (63.0, 88.0)  # the build's card size (ppgen.yaml build.card_size: poker)
KINDS = {"unit": "hastati-line", "doctrine": "roman-road", "tactic": "pilum-volley"}


def png(path) -> Image.Image:
    with Image.open(path) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.fixture(scope="module")
def full_png(project, tmp_path_factory):
    """Every card of the game in English, poker with 1/8 in bleed at 100 dpi, on two workers: a
    file for each, of its size (the same path at any resolution; at 300 dpi, 142 pictures took
    a tenth of the suite's time: the pixels at 300 dpi are kinds_png's)."""
    folder = tmp_path_factory.mktemp("png") / "en"
    image = export.card_image("poker", export.US_BLEED_MM, 100)
    result = export.export_png(project, "en", folder, image, jobs=2)
    return folder, result


@pytest.fixture(scope="module")
def kinds_png(project, tmp_path_factory):
    """A card of each kind (KINDS) and the back in English, poker with 1/8 in bleed at 300 dpi, on two workers."""
    folder = tmp_path_factory.mktemp("png") / "en"
    image = export.card_image("poker", export.US_BLEED_MM, 300)
    result = export.export_png(project, "en", folder, image, [project.game.card(i) for i in KINDS.values()], jobs=2)
    return folder, result


# ── sizes ──────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("size, bleed, dpi, pixels", [
    ("poker", 3.175, 300, (825, 1125)),
    ("poker", 0, 300, (750, 1050)),
    ("poker", 3.175, 600, (1650, 2250)),
    ("poker", 0, 72, (180, 252)),
    ("poker", 3.175, 150, (413, 563)),  # 412.5 × 562.5: half up
    ("bridge", 3.175, 300, (750, 1125)),
    ("mini", 0, 300, (525, 750)),
    ("tarot", 3.175, 300, (900, 1500)),
    ("63x88", 0, 300, (744, 1039)),  # the home-print card, exactly
    ("63x88", 3, 300, (815, 1110)),
])
def test_card_image_pixel_sizes(size, bleed, dpi, pixels):
    image = export.card_image(size, bleed, dpi)
    assert image.size.pixels == pixels
    assert f"{pixels[0]} × {pixels[1]} px" in image.label


@pytest.mark.parametrize("size, bleed, dpi, message", [
    ("huge", 0, 300, "unknown card size"),
    ("poker", 11, 300, "--bleed"),
    ("poker", -1, 300, "--bleed"),
    ("poker", 0, 10, "--dpi"),
    ("poker", 0, 5000, "--dpi"),
])
def test_card_image_refuses_bad_values(size, bleed, dpi, message):
    with pytest.raises(UsageError, match=message):
        export.card_image(size, bleed, dpi)


# ── card PNGs ──────────────────────────────────────────────────────────────
def test_png_export_one_file_per_card_and_back(project, full_png):
    folder, result = full_png
    codes = {f"{c.code}.png" for c in project.game.cards}
    assert len(codes) == 141
    assert {p.name for p in folder.iterdir()} == codes | {"back.png"}
    assert result.images == 142 and len(result.files) == 142
    for path in folder.iterdir():
        with Image.open(path) as image:
            assert image.size == (275, 375), path.name  # 69.85 × 95.25 mm at 100 dpi
            assert round(image.info["dpi"][0]) == 100
    assert not result.report.warnings  # English: nothing falls back, everything fits


def test_png_export_at_300_dpi(kinds_png):
    folder, result = kinds_png
    assert result.images == 4 and {p.name for p in folder.iterdir()} == {"ROM-01.png", "ROM-14.png", "ROM-18.png", "back.png"}
    for path in folder.iterdir():
        with Image.open(path) as image:
            assert image.size == (825, 1125), path.name
            assert round(image.info["dpi"][0]) == 300
    assert not result.report.warnings


def test_png_front_kinds_differ_from_back_and_each_other(kinds_png):
    folder, _ = kinds_png
    back = png(folder / "back.png")
    fronts = [png(folder / f"ROM-{n:02d}.png") for n in (1, 14, 18)]  # a unit, a doctrine, a tactic
    for front in fronts:
        assert mean_difference(front, back) > 20
        assert len(front.getcolors(1 << 20)) > 500  # drawn, anti-aliased: not a flat picture
    assert mean_difference(fronts[0], fronts[1]) > 3


def test_png_equals_the_builds_pdf_form(project, kinds_png):
    """The same drawing path: the form the build places on its card sheets, rasterised at the
    same size, gives the very same pixels as the exported PNG."""
    import pypdf

    from ppgen.write.build import BuildOptions
    from ppgen.write.parts import cards_part
    from ppgen.write.report import BuildReport

    folder, _ = kinds_png
    cards = [project.game.card(i) for i in KINDS.values()]
    options = BuildOptions.resolve(project, lang="en", card_size="63.5x88.9", bleed=3.175, layout="fronts-only")
    part = cards_part(project, options, "en", cards, BuildReport())
    reader = pypdf.PdfReader(io.BytesIO(part.data))
    names = list(reader.pages[0]["/Resources"]["/XObject"])
    assert len(names) == 3
    for name in names:
        card = next(c for c in cards if form_key(name) == f"front-en-{c.id}")
        rendered = export.render_images(form_alone(reader, name), export.card_image("poker", 3.175, 300).size)[0]
        assert ImageChops.difference(rendered, png(folder / f"{card.code}.png")).getbbox() is None, card.code


def form_alone(reader, name) -> bytes:
    """A PDF of one page showing only the form XObject `name` of the reader's first page, at its BBox."""
    import pypdf
    from pypdf.generic import DecodedStreamObject, RectangleObject

    writer = pypdf.PdfWriter(clone_from=reader)
    page = writer.pages[0]
    bbox = [float(v) for v in page["/Resources"]["/XObject"][name].get_object()["/BBox"]]
    stream = DecodedStreamObject()
    stream.set_data(f"q {name} Do Q".encode())
    page.replace_contents(stream)
    page.mediabox = RectangleObject(bbox)
    for box in ("/TrimBox", "/BleedBox"):
        if box in page:
            del page[box]
    while len(writer.pages) > 1:
        writer.remove_page(1)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_png_bytes_are_reproducible_and_independent_of_the_run(project, kinds_png, tmp_path):
    folder, _ = kinds_png
    cards = [project.game.card(i) for i in KINDS.values()]
    export.export_png(project, "en", tmp_path, export.card_image("poker", 3.175, 300), cards, jobs=1)
    for card in cards:
        assert (tmp_path / f"{card.code}.png").read_bytes() == (folder / f"{card.code}.png").read_bytes()
    assert (tmp_path / "back.png").read_bytes() == (folder / "back.png").read_bytes()


def test_png_every_language(project, tmp_path):
    """A front of each kind in every language: the language changes the face, never the back."""
    cards = [project.game.card(i) for i in KINDS.values()]
    image = export.card_image("poker", 0, 100)
    fronts, backs = {}, {}
    for lang in LANGS:
        result = export.export_png(project, lang, tmp_path / lang, image, cards)
        assert not result.report.warnings, (lang, result.report.lines())
        fronts[lang] = [png(tmp_path / lang / f"{c.code}.png") for c in cards]
        backs[lang] = (tmp_path / lang / "back.png").read_bytes()
        assert all(f.size == (250, 350) for f in fronts[lang])
    assert len(set(backs.values())) == 1  # backs carry no language (decisions §1)
    for lang in LANGS[1:]:
        for en, other in zip(fronts["en"], fronts[lang]):
            assert 0.5 < mean_difference(en, other) < 25  # other words, same card


def test_png_nothing_written_when_rendering_fails(project, tmp_path, monkeypatch):
    from ppgen.export import raster

    calls = []
    real = raster.render_page

    def failing(pdf, index, size):
        calls.append(index)
        if len(calls) == 3:
            raise RuntimeError("forced failure")
        return real(pdf, index, size)

    monkeypatch.setattr(raster, "render_page", failing)
    cards = [project.game.card(i) for i in KINDS.values()]
    with pytest.raises(RuntimeError, match="forced"):
        export.export_png(project, "en", tmp_path / "png", export.card_image("poker", 0, 72), cards, jobs=1)
    assert list((tmp_path / "png").iterdir()) == []


def test_png_no_partial_file_when_writing_fails(project, tmp_path, monkeypatch):
    import os

    from ppgen.write import atomic as files

    renames = []
    real = os.replace

    def failing(src, dst):
        renames.append(dst)
        if len(renames) == 3:
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(files.os, "replace", failing)
    cards = [project.game.card(i) for i in KINDS.values()]
    with pytest.raises(UsageError, match=r"cannot write .*: No space left on device.*\(2 complete files"):
        export.export_png(project, "en", tmp_path, export.card_image("poker", 0, 72), cards, jobs=1)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(Path(p).name for p in renames[:2])  # two complete files, no .part left
    for name in written:
        assert png(tmp_path / name).size == (180, 252)


def test_out_folder_problems(project, tmp_path):
    image = export.card_image("poker", 0, 72)
    card = [project.game.card("hastati-line")]
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    with pytest.raises(UsageError, match="is a file, not a folder"):
        export.export_png(project, "en", blocker / "png", image, card)
    with pytest.raises(UsageError, match="is a file, not a folder"):
        export.export_png(project, "en", blocker, image, card)
    with pytest.raises(UsageError, match="cannot create folder"):
        export.export_png(project, "en", Path("/proc/ppgen-test/png"), image, card)
    deep = tmp_path / "a" / "b" / "c"
    export.export_png(project, "en", deep, image, card)  # missing parents are created
    assert (deep / "ROM-01.png").is_file()


# ── Tabletop Simulator ─────────────────────────────────────────────────────
@pytest.mark.parametrize("cards", range(1, tts.CARDS_PER_SHEET + 1))
def test_tts_grid_fits(cards):
    grid = export.plan_grid(cards, 63, 88, max_cell_w=744)
    assert grid.cells >= cards + 1  # every card and the back
    assert grid.columns <= 10 and grid.rows <= 7
    assert grid.width <= 4096 and grid.height <= 4096
    assert grid.cell_w <= 744
    assert abs(grid.cell_h - grid.cell_w * 88 / 63) <= 0.5  # the card's proportions
    assert export.plan_grid(cards, 63, 88, 744) == grid  # deterministic


def test_tts_grid_examples():
    full = export.plan_grid(69, 63, 88, 744)
    assert (full.columns, full.rows, full.cell_w, full.cell_h) == (10, 7, 409, 571)
    assert (full.width, full.height) == (4090, 3997)
    assert full.hidden_cell == 69 and full.box(69) == (9 * 409, 6 * 571, 4090, 3997)
    starter = export.plan_grid(20, 63, 88, 744)
    assert (starter.columns, starter.rows, starter.cell_w, starter.cell_h) == (6, 4, 682, 953)
    assert export.split_sheets(141) == [69, 69, 3]
    assert export.split_sheets(20) == [20]
    assert export.split_sheets(69) == [69]
    assert export.split_sheets(70) == [69, 1]
    with pytest.raises(ValueError):
        export.plan_grid(70, 63, 88, 744)


@pytest.fixture(scope="module")
def rome_tts(project, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tts") / "starter-rome"
    result = export.export_tts(project, "ja", "starter-rome", "ローマ", project.game.starter_deck("rome"), folder, HOME_CARD)
    return folder, result


@pytest.fixture(scope="module")
def rome_cards_300dpi(project):
    """Each Rome card (ja) and the back, alone, at 300 dpi: the standalone pictures cells must match."""
    from ppgen.draw.faces import CardGeometry, back_face, front_face

    geometry = CardGeometry.from_mm(*HOME_CARD)
    cards = project.game.cards_of("rome")
    faces = [front_face(project, c, "ja", geometry) for c in cards] + [back_face(project, geometry)]
    images = export.render_images(export.faces_pdf(project, faces, geometry, "ja"), export.card_raster(geometry, 300))
    return dict(zip([c.code for c in cards] + ["back"], images))


def test_tts_files_and_json(project, rome_tts):
    folder, result = rome_tts
    assert sorted(p.name for p in folder.iterdir()) == ["back.png", "sheets.json", "starter-rome-ja-1.png", "starter-rome-ja.json"]
    manifest = json.loads((folder / "sheets.json").read_text(encoding="utf-8"))
    assert manifest["cards"] == 40 and manifest["distinct"] == 20 and manifest["lang"] == "ja"
    (sheet,) = manifest["sheets"]
    image = png(folder / sheet["file"])
    assert image.size == (sheet["width"], sheet["height"]) == (sheet["columns"] * sheet["card_width"], sheet["rows"] * sheet["card_height"])
    assert max(image.size) <= 4096 and sheet["columns"] <= 10 and sheet["rows"] <= 7
    assert [c["code"] for c in sheet["cells"]] == [c.code for c in project.game.cards_of("rome")]
    assert sum(c["copies"] for c in sheet["cells"]) == 40
    assert {c["name"] for c in sheet["cells"]} >= {"ハスタティ戦列", "ローマ街道"}
    assert sheet["hidden_cell"] == sheet["columns"] * sheet["rows"] - 1
    assert png(folder / "back.png").size == (sheet["card_width"], sheet["card_height"])


def test_tts_cells_hold_the_cards_the_json_names(rome_tts, rome_cards_300dpi):
    """Every cell, cut out of the sheet, is the standalone picture of the card the JSON names
    (resized), and looks like no other card of the deck as much."""
    folder, _ = rome_tts
    manifest = json.loads((folder / "sheets.json").read_text(encoding="utf-8"))
    (sheet,) = manifest["sheets"]
    image = png(folder / sheet["file"])
    w, h = sheet["card_width"], sheet["card_height"]
    small = {code: im.resize((w, h), Image.LANCZOS) for code, im in rome_cards_300dpi.items()}

    def cell_image(cell):
        col, row = cell % sheet["columns"], cell // sheet["columns"]
        return image.crop((col * w, row * h, col * w + w, row * h + h))

    for cell in sheet["cells"]:
        assert (cell["x"], cell["y"]) == ((cell["cell"] % sheet["columns"]) * w, (cell["cell"] // sheet["columns"]) * h)
        cut = cell_image(cell["cell"])
        differences = {code: mean_difference(cut, im) for code, im in small.items()}
        assert differences[cell["code"]] < 3, (cell["code"], differences[cell["code"]])
        assert min(differences, key=differences.get) == cell["code"]
    hidden = cell_image(sheet["hidden_cell"])
    assert mean_difference(hidden, small["back"]) < 3
    assert mean_difference(hidden, png(folder / "back.png")) < 1
    empty = cell_image(len(sheet["cells"]))  # cells between the last card and the back stay empty
    assert empty.getcolors() == [(w * h, tts.EMPTY_CELL)]


def test_tts_saved_object(rome_tts):
    folder, _ = rome_tts
    manifest = json.loads((folder / "sheets.json").read_text(encoding="utf-8"))
    saved = json.loads((folder / "starter-rome-ja.json").read_text(encoding="utf-8"))
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "ローマ"
    (sheet,) = manifest["sheets"]
    entry = deck["CustomDeck"]["1"]
    assert (entry["NumWidth"], entry["NumHeight"]) == (sheet["columns"], sheet["rows"])
    assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
    assert Path(entry["FaceURL"].removeprefix("file://")) == (folder / sheet["file"]).resolve()
    assert Path(entry["BackURL"].removeprefix("file://")) == (folder / "back.png").resolve()
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == 40
    for cell in sheet["cells"]:
        assert deck["DeckIDs"].count(100 + cell["cell"]) == cell["copies"]
    names = {o["CardID"]: o["Nickname"] for o in deck["ContainedObjects"]}
    assert names[100] == "ハスタティ戦列"


def test_tts_reproducible_and_base_url(project, rome_tts, tmp_path):
    folder, _ = rome_tts
    again = tmp_path / "starter-rome"
    export.export_tts(project, "ja", "starter-rome", "ローマ", project.game.starter_deck("rome"), again, HOME_CARD,
                      base_url="https://example.org/tts/")
    for name in ("starter-rome-ja-1.png", "back.png", "sheets.json"):
        assert (again / name).read_bytes() == (folder / name).read_bytes(), name
    saved = json.loads((again / "starter-rome-ja.json").read_text(encoding="utf-8"))
    entry = saved["ObjectStates"][0]["CustomDeck"]["1"]
    assert entry["FaceURL"] == "https://example.org/tts/starter-rome-ja-1.png"
    assert entry["BackURL"] == "https://example.org/tts/back.png"


def test_tts_more_than_one_sheet(project, tmp_path):
    """Every card of the game once: 69 + 69 + 3 on three sheets, each its own CustomDeck entry."""
    cards = [(c, 1) for c in project.game.cards]
    export.export_tts(project, "en", "all", "All cards", cards, tmp_path, HOME_CARD)
    manifest = json.loads((tmp_path / "sheets.json").read_text(encoding="utf-8"))
    assert [len(s["cells"]) for s in manifest["sheets"]] == [69, 69, 3]
    first = manifest["sheets"][0]
    assert (first["columns"], first["rows"], first["width"], first["height"]) == (10, 7, 4090, 3997)
    for sheet in manifest["sheets"]:
        assert png(tmp_path / sheet["file"]).size == (sheet["width"], sheet["height"])
        assert max(sheet["width"], sheet["height"]) <= 4096
    codes = [c["code"] for s in manifest["sheets"] for c in s["cells"]]
    assert codes == [c.code for c in project.game.cards]
    deck = json.loads((tmp_path / "all-en.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert sorted(deck["CustomDeck"]) == ["1", "2", "3"]
    assert deck["DeckIDs"][68:71] == [168, 200, 201]


def test_tts_empty_deck_refused(project, tmp_path):
    with pytest.raises(UsageError, match="holds no cards"):
        export.export_tts(project, "en", "none", "None", [(project.game.card("testudo"), 0)], tmp_path / "none", HOME_CARD)
    assert not (tmp_path / "none").exists()


def test_tts_one_card_is_a_card_not_a_deck(project, tmp_path):
    export.export_tts(project, "en", "one", "One", [(project.game.card("testudo"), 1)], tmp_path, HOME_CARD)
    saved = json.loads((tmp_path / "one-en.json").read_text(encoding="utf-8"))
    (obj,) = saved["ObjectStates"]
    assert obj["Name"] == "Card" and obj["CardID"] == 100


# ── contact sheets ─────────────────────────────────────────────────────────
def test_contact_sheet(project, tmp_path, rome_cards_300dpi):
    result = export.export_contact(project, "ja", ["rome"], tmp_path, HOME_CARD, dpi=150)
    (path,) = result.files
    assert path.name == "contact-rome-ja.png"
    image = png(path)
    card_w, card_h = 372, 520  # 63 × 88 mm at 150 dpi
    assert image.size == (24 + 5 * (card_w + 24), 64 + 4 * (card_h + 34 + 24) + 24)
    # the first card sits below the header, at the gap; the fifth ends the first row
    first = image.crop((24, 64, 24 + card_w, 64 + card_h))
    reference = rome_cards_300dpi["ROM-01"].resize((card_w, card_h), Image.LANCZOS)
    assert mean_difference(first, reference) < 3
    label = image.crop((24, 64 + card_h, 24 + card_w, 64 + card_h + 34))
    assert len(label.getcolors()) > 2  # the code is printed under the card


# ── preview ────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("name, card_id", [
    ("로마 가도", "roman-road"),
    ("로마가도", "roman-road"),  # spacing ignored
    ("ローマ街道", "roman-road"),
    ("rom-14", "roman-road"),
    ("roman-road", "roman-road"),
    ("Roman Road", "roman-road"),
])
def test_find_card_in_any_language(project, name, card_id):
    assert export.find_card(project, name).id == card_id


def test_find_card_unknown_and_ambiguous(project):
    with pytest.raises(UsageError, match=r'unknown card “Trajan”; did you mean .*\(ROM-09\).*\(ROM-10\)\?'):
        export.find_card(project, "Trajan")
    with pytest.raises(UsageError, match=r"로마 가도 \(ROM-14\)"):  # the messages are the decklist's, in Korean
        export.find_card(project, "로마 가로", "ko")
    with pytest.raises(UsageError, match=r"不明なカード「Trajan」"):
        export.find_card(project, "Trajan", "ja")
    with pytest.raises(UsageError, match=r"could be any of several cards: Hastati Line \(ROM-01\).*Testudo \(ROM-15\)"):
        export.find_card(project, "Testudo (ROM-01)")


def test_preview_korean_name(project, tmp_path):
    card, path, result = export.preview(project, "로마 가도", "ko", tmp_path, HOME_CARD, dpi=300)
    assert card.id == "roman-road" and path == tmp_path / "ROM-14.png"
    image = png(path)
    assert image.size == (744, 1039)
    _, en_path, _ = export.preview(project, "ROM-14", "en", tmp_path / "en.png", HOME_CARD, dpi=300)
    assert en_path == tmp_path / "en.png"
    assert 0.5 < mean_difference(image, png(en_path)) < 25  # the same card, other words
    assert not result.report.warnings


def test_preview_cli(game_copy):
    run = call_ppgen("preview", "로마", "가도", "--lang", "ko", "--dpi", "100", cwd=game_copy)
    assert run.returncode == 0, run.stderr
    path = Path(run.stdout.strip())
    assert path == (game_copy / "out" / "ko" / "preview" / "ROM-14.png").resolve()
    assert png(path).size == (248, 346)
    assert "ROM-14 로마 가도" in run.stderr
    run = call_ppgen("preview", "Legionary Cohortt", cwd=game_copy)
    assert run.returncode == 2 and run.stdout == ""
    assert "unknown card “Legionary Cohortt”; did you mean" in run.stderr and "ROM-04" in run.stderr


def test_preview_to_a_file_that_is_not_a_png_is_refused(tmp_path):
    """`preview ROM-01 -o x.jpg` made a folder named x.jpg with ROM-01.png in it. The preview is a
    PNG: another picture's (or a PDF's) name is refused, nothing made; a .png is the file."""
    run = call_ppgen("preview", "ROM-01", "--dpi", "50", "-o", str(tmp_path / "x.jpg"))
    assert run.returncode == 2 and "a preview is a PNG: name the file .png, or give a folder" in run.stderr, run.stderr
    assert not (tmp_path / "x.jpg").exists()
    run = call_ppgen("preview", "ROM-01", "--dpi", "50", "-o", str(tmp_path / "x.png"))
    assert run.returncode == 0 and png(tmp_path / "x.png").size[0] > 0, run.stderr


def test_preview_cli_shows_untranslated_text(game_copy):
    ko = game_copy / "locales" / "ko.yaml"
    text = ko.read_text(encoding="utf-8")
    start = text.index("card.roman-road.effect:")
    end = text.index("\ncard.", start + 1)
    ko.write_text(text[:start] + text[end + 1:], encoding="utf-8")
    run = call_ppgen("preview", "ROM-14", "--lang", "ko", "--dpi", "72", cwd=game_copy)
    assert run.returncode == 0, run.stderr
    assert "ko card.roman-road.effect: fallback" in run.stderr
    assert "1 warning" in run.stderr


# ── the command line ───────────────────────────────────────────────────────
def test_export_cli_png_tts_contact(project, game_copy):
    out = game_copy / "pictures"
    n = len(project.game.cards_of("sparta"))
    run = call_ppgen("export", "png", "--lang", "ko", "-f", "sparta", "--bleed", "--dpi", "100", "-o", str(out), cwd=game_copy)
    assert run.returncode == 0, run.stderr
    folder = out / "ko" / "png-bleed-100dpi"
    sparta = [p for p in folder.iterdir() if p.name.startswith("SPA-")]
    assert len(sparta) == n and (folder / "back.png").is_file()
    assert png(sparta[0]).size == (275, 375)
    assert f"wrote {n + 1} PNGs (275 × 375 px" in run.stderr
    run = call_ppgen("export", "png", "-f", "rome", "--bleed", "3", "--dpi", "50", "-o", str(out), cwd=game_copy)
    assert run.returncode == 0, run.stderr
    assert png(out / "en" / "png-bleed-3mm-50dpi" / "ROM-01.png").size == (137, 187)  # (2.5 in + 6 mm) × 50 dpi
    run = call_ppgen("export", "tts", "--lang", "zh", "-f", "egypt", "-o", str(out), cwd=game_copy)
    assert run.returncode == 0, run.stderr
    assert (out / "zh" / "tts" / "starter-egypt" / "starter-egypt-zh-1.png").is_file()
    run = call_ppgen("export", "contact", "--lang", "en", "-f", "dacia", "--dpi", "60", "-o", str(out), cwd=game_copy)
    assert run.returncode == 0, run.stderr
    assert (out / "en" / "contact" / "contact-dacia-en.png").is_file()


def test_export_cli_tts_deck(game_copy):
    run = call_ppgen("export", "tts", "--deck", "decks/allied-rome-sparta.txt", "--lang", "ja", cwd=game_copy)
    assert run.returncode == 0, run.stderr
    folder = game_copy / "out" / "ja" / "tts" / "allied-rome-sparta"
    manifest = json.loads((folder / "sheets.json").read_text(encoding="utf-8"))
    assert manifest["cards"] == 40
    assert {c["code"][:3] for s in manifest["sheets"] for c in s["cells"]} == {"ROM", "SPA"}


@pytest.mark.parametrize("args, message", [
    (["export", "png", "--bleed", "lots"], "--bleed: 'lots' is not a length"),
    (["export", "png", "--dpi", "5"], "--dpi"),
    (["export", "png", "--card-size", "jumbo"], "unknown card size"),
    (["export", "png", "--lang", "fr"], "unknown language 'fr'"),
    (["export", "tts", "-f", "atlantis"], "atlantis"),
    (["export", "tts", "--deck", "x.txt", "-f", "rome"], "cannot be combined"),
    (["export", "tts", "-f", "rome", "--base-url", "example.org/ad"], "'example.org/ad' is not a web address: start it with https://"),
    # (the names were put after the query or fragment: "https://example.org/a?x=1/starter-rome-en-1.png")
    (["export", "tts", "-f", "rome", "--base-url", "https://example.org/ad?x=1"], "has a query ('?'): the pictures' names are added after the address"),
    (["export", "tts", "-f", "rome", "--base-url", "https://example.org/ad#top"], "has a fragment ('#')"),
    (["export", "tts", "-f", "rome", "--base-url", "https://example.org/a d"], "has a space (' ')"),
    (["export", "png", "-o", "cards.yaml"], "'cards.yaml' is a file"),
    (["export", "png", "-o", "cards.yaml/pictures"], "cards.yaml is a file, not a folder"),
    (["preview", "ROM-01", "--lang", "en,ja"], "one language"),
])
def test_export_cli_errors(game_copy, args, message):
    run = call_ppgen(*args, cwd=game_copy)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_export_help_has_examples():
    for args in (["export", "--help"], ["export", "png", "--help"], ["export", "tts", "--help"],
                 ["export", "contact", "--help"], ["preview", "--help"]):
        run = call_ppgen(*args)
        assert run.returncode == 0 and "Examples:" in run.stdout, args


def test_png_variants_go_to_folders_of_their_own_and_the_summary_says_where(game_copy):
    """Issue 13, item 12: `--bleed` wrote the same names as without it, over the plain pictures."""
    out = game_copy / "pictures"
    common = ("export", "png", "-f", "sparta", "--dpi", "50", "-o", str(out))
    runs = {name: call_ppgen(*common, *extra, cwd=game_copy) for name, extra in [
        ("png-50dpi", []), ("png-bleed-50dpi", ["--bleed"]), ("png-bleed-3mm-50dpi", ["--bleed", "3"]),
        ("png-bridge-50dpi", ["--card-size", "bridge"])]}
    sizes = {}
    for name, run in runs.items():
        assert run.returncode == 0, run.stderr
        assert f"in pictures/en/{name}" in run.stderr, (name, run.stderr)
        sizes[name] = png(out / "en" / name / "SPA-01.png").size
    assert sorted(p.name for p in (out / "en").iterdir()) == sorted(runs)
    assert sizes == {"png-50dpi": (125, 175), "png-bleed-50dpi": (138, 188), "png-bleed-3mm-50dpi": (137, 187),
                     "png-bridge-50dpi": (113, 175)}
    assert png(out / "en" / "png-bleed-50dpi" / "back.png").size == (138, 188)
    assert export.png_folder() == "png" and export.png_folder("63x88", 0, 600) == "png-63x88-600dpi"
    assert export.png_folder("63.0x88.0") == export.png_folder("63 × 88") == "png-63x88"  # one size, one folder (63.0x88.0 had its own)
    every = call_ppgen(*common, "--bleed", "--lang", "ja,ko", cwd=game_copy)
    assert every.returncode == 0, every.stderr
    assert "in 2 folders: pictures/ja/png-bleed-50dpi, pictures/ko/png-bleed-50dpi" in every.stderr
