"""Card art, proven from what ppgen writes: the built PDF's pixels and image XObjects, and
the command output. The pictures are made by tests/artgame.py (see there)."""
from __future__ import annotations

import io
import json
from functools import lru_cache
from pathlib import Path

import pytest

from artgame import CYAN_PRINTS_AS_LAB, MARKER, cmyk_profile, make_art_game, save, set_card_keys
from clitools import call_ppgen
from conftest import ROOT
from pdftools import placements, reader

MM = 72 / 25.4
DPI = 150
WINDOW = (4, 43.6, 55, 30.8)  # the unit art window (templates/card.yaml), mm from the card's bottom left


@pytest.fixture(scope="session")
def art_game(tmp_path_factory):
    return make_art_game(tmp_path_factory.mktemp("art") / "game", ROOT)


@pytest.fixture(scope="session")
def built(art_game):
    """Rome's cards with the rulebook, in English and Japanese (one build, shared)."""
    result = call_ppgen("--root", str(art_game), "build", "--lang", "en,ja", "-f", "rome", "--parts", "rulebook,cards")
    assert result.returncode == 0, result.stderr
    return art_game / "out", result


def images(pdf) -> list[dict]:
    """Every image XObject in a PDF file: width, height, filter, soft mask."""
    r = reader(pdf)
    out = []
    for num in range(1, r.trailer["/Size"]):
        try:
            obj = r.get_object(num)
        except Exception:
            continue
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            out.append({"w": int(obj["/Width"]), "h": int(obj["/Height"]), "filter": str(obj.get("/Filter")), "smask": "/SMask" in obj,
                        "is_mask": obj.get("/ColorSpace") == "/DeviceGray" and "/Decode" in obj})
    return out


@lru_cache(maxsize=None)
def _page(pdf: str, index: int):
    from pdftools import render

    return render(Path(pdf).read_bytes(), index, DPI)


def card_pixel(pdf: Path, key: str, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    """The colour at (x, y) mm from the bottom left of the first front `key` on the card sheets."""
    r = reader(pdf)
    for index, page in enumerate(r.pages):
        for placed in placements(page):
            if placed.form == key:
                height = float(page.mediabox.height)
                im = _page(str(pdf), index)
                k = DPI / 72
                return im.getpixel((round((placed.x + x_mm * MM) * k), round((height - placed.y - y_mm * MM) * k)))
    raise LookupError(key)


def near(a, b, tolerance=12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


# ── where a picture lies ───────────────────────────────────────────────────
def test_the_focus_point_stays_in_view(built):
    """hastati-line.png is 3:1 with a red marker at art_focus [0.75, 0.5]. Cover fills the
    55 × 30.8 mm window: the picture prints 92.4 mm wide; centring the focus would need it
    at x = 4 + 27.5 − 69.3 = −37.8 mm, the furthest it may go is 4 + 55 − 92.4 = −33.4 mm,
    so the marker lands at −33.4 + 69.3 = 35.9 mm. Without a focus it would be at 54.6 mm."""
    out, _ = built
    pdf = out / "en" / "cards-en-rome.pdf"
    assert near(card_pixel(pdf, "front-en-hastati-line", 35.9, 59.0), MARKER)
    assert near(card_pixel(pdf, "front-en-hastati-line", 54.6, 59.0), (128, 128, 128))
    assert near(card_pixel(pdf, "front-en-hastati-line", 20, 59.0), (128, 128, 128))


def test_a_language_has_its_own_picture(built):
    out, _ = built
    assert near(card_pixel(out / "ja" / "cards-ja-rome.pdf", "front-ja-hastati-line", 20, 59.0), (0, 200, 0))
    assert near(card_pixel(out / "en" / "cards-en-rome.pdf", "front-en-hastati-line", 20, 59.0), (128, 128, 128))


def test_exif_orientation_is_honoured(built):
    """Stored portrait, tagged orientation 6: shown landscape, left half red, right half blue."""
    pdf = built[0] / "en" / "cards-en-rome.pdf"
    assert near(card_pixel(pdf, "front-en-consular-cavalry", 10, 59), (230, 0, 0), 20)
    assert near(card_pixel(pdf, "front-en-consular-cavalry", 53, 59), (0, 0, 230), 20)


def test_cmyk_converts_through_its_profile(built):
    """The JPEG is CMYK cyan, and its profile says cyan prints green: the card shows the
    profile's green (what ImageCms makes of it), not the cyan of a plain conversion."""
    from PIL import Image, ImageCms

    profile = ImageCms.ImageCmsProfile(io.BytesIO(cmyk_profile()))
    expected = ImageCms.profileToProfile(Image.new("CMYK", (1, 1), (255, 0, 0, 0)), profile, ImageCms.createProfile("sRGB"),
                                         renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB").getpixel((0, 0))
    got = card_pixel(built[0] / "en" / "cards-en-rome.pdf", "front-en-roman-archer-auxilia", 30, 59)
    assert CYAN_PRINTS_AS_LAB[1] < 0 and expected[1] > expected[2] + 60  # the profile's colour is a green
    assert near(got, expected, 6), (got, expected)
    assert not near(got, (0, 255, 255), 60)


def test_transparency_shows_the_art_backdrop(built):
    """praetorian-guard.png is transparent but for a yellow square: around it, the window shows
    what a card without a picture shows there (the same faction and kind: Trajan)."""
    pdf = built[0] / "en" / "cards-en-rome.pdf"
    assert near(card_pixel(pdf, "front-en-praetorian-guard", 31.5, 59), (250, 220, 0))
    for x, y in ((6, 46), (57, 46), (6, 73)):
        assert card_pixel(pdf, "front-en-praetorian-guard", x, y) == card_pixel(pdf, "front-en-trajan-imperial-vanguard", x, y)
    assert any(i["smask"] and (i["w"], i["h"]) == (900, 500) for i in images(pdf))


def test_svg_prints_as_vectors_with_its_gradient_and_opacity(built):
    """triarii-reserve.svg: a red-to-blue gradient under a half-transparent green disc; no
    image is embedded for it (vectors), and its form keeps the graphics state and shading."""
    pdf = built[0] / "en" / "cards-en-rome.pdf"
    left, right = card_pixel(pdf, "front-en-triarii-reserve", 5, 50), card_pixel(pdf, "front-en-triarii-reserve", 58, 50)
    assert left[0] > 200 and left[2] < 60 and right[2] > 200 and right[0] < 60
    centre = card_pixel(pdf, "front-en-triarii-reserve", 31.5, 59)
    assert 90 < centre[1] < 170 and centre[0] < 160 and centre[2] < 160  # half green over the gradient's middle


# ── embedded once, at the size the print needs ────────────────────────────
def test_each_distinct_picture_is_embedded_once(built):
    """40 cards, 20 fronts, 8 pictures (one shared by two cards via art:, one SVG): 7 images
    and the transparent one's soft mask, in the card sheets and in the assembled set alike."""
    out, _ = built
    expected = sorted([(1800, 600), (800, 450), (400, 300), (60, 40), (1300, 975), (900, 500), (900, 500), (1100, 616)])
    for pdf in (out / "en" / "cards-en-rome.pdf", out / "ja" / "cards-ja-rome.pdf"):
        assert sorted((i["w"], i["h"]) for i in images(pdf)) == expected, pdf
    # the set: the card sheets' pictures, and those of the cards the rulebook's pictures show (its own part)
    (rulebook,) = (out / "en").glob("rulebook-en*.pdf")
    pictured = [(i["w"], i["h"]) for i in images(rulebook)]
    assert len(pictured) < len(expected)  # (the pictured cards that have a picture in this game)
    assert sorted((i["w"], i["h"]) for i in images(out / "en" / "ancient-duel-en-rome.pdf")) == sorted(expected + pictured)


def test_large_pictures_are_downsampled_to_art_max_dpi(built):
    """principes-line.jpg is 8000 × 6000 px: printed 55 mm wide (cover), 600 dpi needs
    ceil(55 / 25.4 × 600) = 1300 px; the PDF stays small."""
    pdf = built[0] / "en" / "cards-en-rome.pdf"
    big = [i for i in images(pdf) if i["w"] == 1300]
    assert len(big) == 1 and big[0]["h"] == 975 and "DCTDecode" in big[0]["filter"]
    assert pdf.stat().st_size < 600_000


def test_art_max_dpi_comes_from_ppgen_yaml(tmp_path):
    game = tmp_path / "game"
    make_small_game(game, {"principes-line.jpg": ("RGB", (4000, 3000))})
    text = (game / "ppgen.yaml").read_text(encoding="utf-8")
    (game / "ppgen.yaml").write_text(text.replace("  art_max_dpi: 600", "  art_max_dpi: 300"), encoding="utf-8")
    assert call_ppgen("--root", str(game), "build", "-f", "rome").returncode == 0
    assert [(i["w"], i["h"]) for i in images(game / "out" / "en" / "cards-en-rome.pdf")] == [(650, 488)]


def test_rebuilds_are_byte_identical(built, art_game, tmp_path):
    out, _ = built
    again = call_ppgen("--root", str(art_game), "build", "--lang", "en", "-f", "rome", "--parts", "rulebook,cards", "--out", str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "en" / "cards-en-rome.pdf").read_bytes() == (out / "en" / "cards-en-rome.pdf").read_bytes()


# ── preflight ──────────────────────────────────────────────────────────────
def test_build_warns_about_resolution_cropping(built):
    _, result = built
    err = result.stderr
    assert "art-blurry" in err and "art/legionary-cohort.png (60 × 40 px) prints at 28 dpi" in err
    assert "art-soft" in err and "art/consular-cavalry.jpg (400 × 300 px) prints at 185 dpi" in err
    assert "art-cropped" in err and "art/principes-line.jpg loses 25.3%" in err
    assert "art/hastati-line.png loses 40.5%" in err


def test_strict_fails_below_150_dpi_but_not_below_300(tmp_path):
    game = tmp_path / "game"
    make_small_game(game, {"consular-cavalry.jpg": ("RGB", (400, 224))})  # 185 dpi, the window's shape
    soft = call_ppgen("--root", str(game), "build", "-f", "rome", "--strict")
    assert soft.returncode == 0 and "art-soft" in soft.stderr, soft.stderr
    save(_image("RGB", (60, 34)), game / "art" / "hastati-line.png")  # 28 dpi
    blurry = call_ppgen("--root", str(game), "build", "-f", "rome", "--strict", "--out", str(tmp_path / "strict"))
    assert blurry.returncode == 1 and "art-blurry" in blurry.stderr and "not written" in blurry.stderr
    assert not (tmp_path / "strict" / "en" / "cards-en-rome.pdf").exists()


def test_a_full_art_card_warns_when_the_picture_misses_the_bleed(tmp_path):
    """A template that runs Tactics' art into the bleed: `contain` leaves slivers (warned);
    `cover` reaches the bleed's corner, which prints the picture."""
    game = tmp_path / "game"
    make_small_game(game, {"decisive-order.png": ("RGB", (900, 300))})
    template = game / "templates" / "card.yaml"
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace("tactic:\n", "tactic:\n  art:        {bleed: true, fit: contain}\n", 1), encoding="utf-8")
    result = call_ppgen("--root", str(game), "art", "--lang", "en", "-f", "rome", "--format", "json")
    entry = next(e for e in json.loads(result.stdout)["cards"] if e["id"] == "decisive-order")
    assert [p["code"] for p in entry["problems"]] == ["art-bleed"], entry
    template.write_text(text.replace("tactic:\n", "tactic:\n  art:        {bleed: true}\n", 1), encoding="utf-8")
    import ppgen
    from ppgen.draw.faces import CardGeometry
    from ppgen.write.faces import render_card_pdf

    project = ppgen.load(game)
    pdf = render_card_pdf(project, project.game.card("decisive-order"), "en", tmp_path / "c.pdf", CardGeometry.named("poker", 3))
    from pdftools import render

    im = render(pdf.read_bytes(), 0, DPI)
    assert near(im.getpixel((1, 1)), (40, 120, 200), 8) and near(im.getpixel((im.width - 2, im.height - 2)), (40, 120, 200), 8)


def test_ppgen_art_lists_every_card_and_language(built, art_game):
    result = call_ppgen("--root", str(art_game), "art", "-f", "rome", "--lang", "en,ja", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    entries = {(e["code"], e["lang"]): e for e in data["cards"]}
    assert len(entries) == 40
    assert entries[("ROM-01", "ja")]["file"] == "art/ja/hastati-line.png" and entries[("ROM-01", "ja")]["from"] == "language"
    assert entries[("ROM-08", "en")]["file"] == "art/shared/eagle.png" and entries[("ROM-08", "en")]["from"] == "cards.yaml"
    big = entries[("ROM-05", "en")]
    assert (big["width"], big["height"]) == (8000, 6000) and abs(big["dpi"] - 8000 / (55 / 25.4)) < 0.01  # 3694.55
    assert (big["embedded"]["width"], big["embedded"]["height"]) == (1300, 975)
    assert entries[("ROM-02", "en")]["embedded"]["as_is"] is False  # CMYK: converted
    assert entries[("ROM-06", "en")]["format"] == "SVG" and entries[("ROM-06", "en")]["dpi"] is None
    soft = entries[("ROM-03", "en")]["problems"]
    assert any(p["code"] == "art-soft" and not p["fails_strict"] for p in soft)
    assert any(p["code"] == "art-blurry" and p["fails_strict"] for p in entries[("ROM-04", "en")]["problems"])
    assert entries[("ROM-09", "en")]["file"] is None and data["summary"]["without_art"] == 22
    table = call_ppgen("--root", str(art_game), "art", "-f", "rome", "--lang", "en,ja")
    lines = table.stdout.splitlines()
    assert any(line.startswith("ROM-05") and "8000 × 6000" in line and "embedded 1300 × 975" in line for line in lines)
    assert any(line.startswith("ROM-02") and " en ja " in line for line in lines)  # one line for both languages
    assert "Without art (11 cards" in table.stdout and any(line.startswith("ROM-09  trajan-imperial-vanguard") for line in lines)
    assert "9 of 20 cards have art" in table.stderr
    strict = call_ppgen("--root", str(art_game), "art", "-f", "rome", "--strict")
    assert strict.returncode == 1
    missing = call_ppgen("--root", str(art_game), "art", "-f", "rome", "--missing")
    assert "ROM-01" not in missing.stdout and "ROM-20" in missing.stdout


def test_every_export_shows_the_same_art(art_game, tmp_path):
    """Preview and PNG export draw the fronts the PDF prints: the marker and the profile's green."""
    from PIL import Image

    preview = call_ppgen("--root", str(art_game), "preview", "ROM-01", "-o", str(tmp_path / "p.png"), "--dpi", "100")
    assert preview.returncode == 0, preview.stderr
    im = Image.open(tmp_path / "p.png").convert("RGB")
    k = 100 / 25.4
    assert near(im.getpixel((round(35.9 * k), round((88 - 59) * k))), MARKER)
    png = call_ppgen("--root", str(art_game), "export", "png", "-f", "rome", "--card-size", "63x88", "--dpi", "100", "--out", str(tmp_path))
    assert png.returncode == 0, png.stderr
    im = Image.open(tmp_path / "en" / "png-63x88-100dpi" / "ROM-01.png").convert("RGB")
    assert near(im.getpixel((round(35.9 * k), round((88 - 59) * k))), MARKER)
    green = Image.open(tmp_path / "en" / "png-63x88-100dpi" / "ROM-02.png").convert("RGB").getpixel((round(30 * k), round(29 * k)))
    assert green[1] > green[2] + 60


def test_an_unused_picture_is_named_with_a_did_you_mean(tmp_path):
    game = tmp_path / "game"
    make_small_game(game, {"hastati-lnie.png": ("RGB", (900, 504)), "road.png": ("RGB", (900, 504))})
    set_card_keys(game / "cards.yaml", "roman-road", {"art": "art/road.png"})
    result = call_ppgen("--root", str(game), "art", "-f", "rome")
    assert "art-unused: art/hastati-lnie.png is named for no card" in result.stderr and "did you mean 'hastati-line'" in result.stderr
    assert "art/road.png is named" not in result.stderr  # named by art: in cards.yaml: used


def test_a_picture_in_a_folder_naming_a_language_otherwise_is_pointed_at(tmp_path):
    """art/jp/testudo.png (ppgen.yaml's alias of ja) or art/jaa/ (misspelt) was ignored without a
    word, and the card listed as having no Japanese picture; art/sources/ (no language's name) is
    the designer's folder, left alone."""
    game = tmp_path / "game"
    make_small_game(game, {"jp/testudo.png": ("RGB", (900, 504)), "jaa/testudo.png": ("RGB", (900, 504)),
                           "sources/testudo.png": ("RGB", (900, 504))})
    result = call_ppgen("--root", str(game), "art", "-f", "rome")
    assert result.returncode == 0, result.stderr
    for folder in ("jp", "jaa"):
        assert (f"art-unused: art/{folder}/testudo.png is in art/{folder}/, no language's folder, so no card prints it; "
                "did you mean art/ja/?") in result.stderr, result.stderr
    assert "sources" not in result.stderr + result.stdout


# ── bad files ──────────────────────────────────────────────────────────────
def _chunk(kind: bytes, data: bytes) -> bytes:
    import zlib

    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")


# a PNG claiming 30000 × 30000 px (900 million) with ten bytes of pixels: only decoding would notice
BOMB_PNG = (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", (30000).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00")
            + _chunk(b"IDAT", __import__("zlib").compress(bytes(10))) + _chunk(b"IEND", b""))


def test_bad_files_are_errors_naming_card_and_file_and_nothing_is_written(tmp_path):
    from PIL import Image

    game = tmp_path / "game"
    make_small_game(game, {})
    art = game / "art"
    jpeg = io.BytesIO()
    Image.new("RGB", (600, 400), (10, 200, 30)).save(jpeg, "JPEG", quality=95)
    (art / "hastati-line.jpg").write_bytes(jpeg.getvalue()[: len(jpeg.getvalue()) // 2])  # truncated
    (art / "roman-archer-auxilia.png").write_bytes(b"not a picture at all " * 20)  # corrupt
    (art / "consular-cavalry.png").write_bytes(BOMB_PNG)
    (art / "legionary-cohort.png").write_bytes(b"")
    Image.new("RGB", (20, 20)).save(art / "principes-line.png", "GIF")  # a GIF called .png
    Image.new("RGB", (20, 20)).save(art / "triarii-reserve.bmp", "BMP")
    (art / "praetorian-guard.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><rect width="10" height="10"/></svg>')
    (art / "ordered-relief.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>fetch("x")</script></svg>')
    (art / "pilum-volley.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
                                          f'<image xlink:href="{(art / "secret.png").as_uri()}" width="10" height="10"/></svg>')
    save(_image("RGB", (10, 10)), art / "secret.png")
    (art / "reserve-rotation.svg").write_text('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
                                              '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><desc>&b;</desc></svg>')
    save(_image("RGB", (900, 504)), art / "eagle.png")
    set_card_keys(game / "cards.yaml", "eagle-standard", {"art": "art/egale.png"})
    result = call_ppgen("--root", str(game), "build", "-f", "rome")
    assert result.returncode == 2, result.stderr
    err = result.stderr
    expected = {
        "art/hastati-line.jpg": "card ROM-01 (hastati-line): art/hastati-line.jpg is damaged or truncated",
        "art/roman-archer-auxilia.png": "card ROM-02 (roman-archer-auxilia): art/roman-archer-auxilia.png is not a picture ppgen can read",
        "art/consular-cavalry.png": "art/consular-cavalry.png has 900 million pixels, more than Pillow's decompression-bomb limit",
        "art/legionary-cohort.png": "card ROM-04 (legionary-cohort): art/legionary-cohort.png is empty (0 bytes)",
        "art/principes-line.png": "art/principes-line.png is a GIF picture; ppgen reads PNG, JPEG, WebP, TIFF or SVG",
        "art/triarii-reserve.bmp": "card ROM-06 (triarii-reserve): art/triarii-reserve.bmp is not a picture ppgen reads",
        "art/praetorian-guard.svg": "art/praetorian-guard.svg has an event handler (onload=…), which is a script: refused",
        "art/ordered-relief.svg": "art/ordered-relief.svg holds a <script>: refused",
        "art/pilum-volley.svg": "outside itself: refused, never fetched",
        "art/reserve-rotation.svg": "declares the entity 'b', which is external or expands others: refused",
        "cards.yaml:": "card ROM-12 (eagle-standard): 'art/egale.png' (art: in cards.yaml) does not exist; did you mean 'art/eagle.png'?",
    }
    for where, message in expected.items():
        line = next((line for line in err.splitlines() if line.startswith(where) and "error[art]" in line), None)
        assert line is not None and message in line, (where, err)
    assert "11 problems found; nothing was written" in err
    assert "Traceback" not in err and not (game / "out").exists()
    art_cmd = call_ppgen("--root", str(game), "art")
    assert art_cmd.returncode == 2 and "art/ordered-relief.svg" in art_cmd.stderr


def test_svg_text_must_be_outlines_and_foreign_objects_are_refused():
    from ppgen.read.art import ArtError, check_svg

    ns = 'xmlns="http://www.w3.org/2000/svg"'
    for body, words in ((f"<svg {ns}><text>Hi</text></svg>", "convert it to paths"),
                        (f"<svg {ns}><foreignObject/></svg>", "foreignObject"),
                        (f'<svg {ns}><rect style="fill:url(http://x/y.svg#p)"/></svg>', "outside itself"),
                        (f"<svg {ns}><style>@import url(x.css);</style></svg>", "@import"),
                        (f'<?xml-stylesheet href="x.css"?><svg {ns}/>', "processing instruction"),
                        (f"<svg {ns}><rect></svg>", "not valid SVG"),
                        ("<html/>", "root element is <html>")):
        with pytest.raises(ArtError, match=words):
            check_svg(body.encode())
    check_svg(f'<svg {ns}><rect fill="url(#g)"/><use href="#r"/><image href="data:image/png;base64,AAAA"/></svg>'.encode())


def test_cards_yaml_checks_art_keys(game_copy):
    set_card_keys(game_copy / "cards.yaml", "hastati-line", {"art": "/etc/x.png", "art_focus": "[2, 0]", "art_fit": "stretch"})
    set_card_keys(game_copy / "cards.yaml", "testudo", {"art": "../x.png"})
    set_card_keys(game_copy / "cards.yaml", "roman-road", {"art": "art/road.bmp"})
    result = call_ppgen("--root", str(game_copy), "cards")
    assert result.returncode == 2
    err = result.stderr
    for words in ("must be relative to the game directory", "'art_focus' must be [x, y], two numbers from 0 to 1",
                  "'art_fit' must be one of cover, contain", "must stay inside the game directory", "'art/road.bmp' is not a picture ppgen reads"):
        assert words in err, err


def test_template_art_keys_are_checked(game_copy):
    template = game_copy / "templates" / "card.yaml"
    text = template.read_text(encoding="utf-8")
    text = text.replace("  header:     {x: 4,", "  header:     {fit: cover, x: 4,").replace("  art:        {x: 4,", "  art:        {fit: strech, x: 4,")
    template.write_text(text, encoding="utf-8")
    result = call_ppgen("--root", str(game_copy), "build", "-f", "rome")
    assert result.returncode == 2
    assert "'fit' is for the 'art' element only" in result.stderr and "did you mean 'stretch'" not in result.stderr
    assert "'fit' must be one of cover, contain, not 'strech'" in result.stderr


# ── helpers ────────────────────────────────────────────────────────────────
def _image(mode, size, colour=(40, 120, 200)):
    from PIL import Image

    return Image.new(mode, size, colour)


def make_small_game(dest: Path, pictures: dict) -> Path:
    """A game copy with flat-colour pictures {file name in art/: (mode, size)}."""
    from clitools import copy_game

    copy_game(dest, folders=("locales", "templates"))
    (dest / "art").mkdir()
    for name, (mode, size) in pictures.items():
        (dest / "art" / name).parent.mkdir(exist_ok=True)
        save(_image(mode, size), dest / "art" / name)
    return dest
