"""Card fronts and backs, read back from the PDFs they make (pypdf text, pypdfium2 pixels)."""
from __future__ import annotations

import statistics

import pytest

import ppgen
from ppgen.draw.card_front import bold_keywords
from ppgen.draw.faces import CardGeometry, back_face, card_size_mm, front_face
from ppgen.errors import UsageError
from ppgen.i18n.fit import check_fit
from ppgen.read.templates import load_card_template
from ppgen.typeset.text import NO_LINE_START, GlyphError
from ppgen.units import MM
from ppgen.write.faces import render_back_pdf, render_card_pdf, render_faces_pdf

LANGS = ("en", "ja", "ko", "zh")
BASE14 = {"Helvetica", "Times-Roman", "Courier", "Symbol", "ZapfDingbats"}


class Report:
    """Collects warnings like the build's report does."""

    def __init__(self):
        self.items = []

    def warning(self, code, message, lang=None, key=None):
        self.items.append((code, message, lang, key))

    def codes(self):
        return [c for c, *_ in self.items]


@pytest.fixture(scope="session")
def poker():
    return CardGeometry.named("poker")


@pytest.fixture(scope="session")
def all_fronts(project, poker):
    """Every card in every language, laid out once: {lang: (faces, report)}."""
    out = {}
    for lang in LANGS:
        report = Report()
        out[lang] = ([front_face(project, card, lang, poker, report) for card in project.game.cards], report)
    return out


def pdf_text(path, page=0):
    from pypdf import PdfReader

    return PdfReader(str(path)).pages[page].extract_text()


def placed_texts(path, page=0):
    """(text, x, y, font) of every text run on a page, in points."""
    from pypdf import PdfReader

    out = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
            y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            out.append((text.strip(), x, y, font.get("/BaseFont") if font else None))

    PdfReader(str(path)).pages[page].extract_text(visitor_text=visit)
    return out


def pixels(path, page=0, dpi=150):
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return pdf[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        pdf.close()


def card_of(project, kind, **flags):
    for card in project.game.cards:
        if card.kind == kind and all(getattr(card, k) == v for k, v in flags.items()):
            return card
    raise LookupError(kind)


# ── everything fits ────────────────────────────────────────────────────────
def test_every_card_fits_in_every_language(project, all_fronts):
    template = load_card_template(project)
    effect_min = template.style("effect").min_size
    assert effect_min >= 6, "the effect text's minimum must stay readable"
    for lang, (faces, report) in all_fronts.items():
        assert len(faces) == 141
        assert "overflow" not in report.codes(), report.items
        for face in faces:
            assert face.problems == []
            effect = face.texts["effect"].layout
            assert effect.fits and effect.size >= effect_min
            assert face.texts["name"].layout.fits
        assert check_fit(project, lang) == []


def test_effect_sizes_stay_large(all_fronts):
    """The shipped text is set near its preferred size, not squeezed to the floor."""
    for lang, (faces, _) in all_fronts.items():
        sizes = [f.texts["effect"].layout.size for f in faces]
        assert statistics.median(sizes) == 8.5, lang
        assert min(sizes) >= 7.0, lang


# ── what a front prints ────────────────────────────────────────────────────
@pytest.mark.parametrize("lang", LANGS)
def test_front_prints_name_code_and_stats(project, tmp_path, poker, lang):
    card = project.game.card("hannibal-barca-master-of-maneuver")
    path = render_card_pdf(project, card, lang, tmp_path / "card.pdf")
    text = pdf_text(path)
    flat = "".join(text.split())
    assert "".join(project.card_name(card, lang).split()) in flat
    assert card.code in text and lang.upper() in text
    assert "♚" in text
    # each stat is printed inside its own badge
    face = front_face(project, card, lang, poker)
    runs = placed_texts(path)
    for stat, value in (("atk", card.atk), ("def", card.def_), ("energy", card.energy)):
        x, y, w, h = face.box(face.elements[stat])
        inside = [t for t, tx, ty, _ in runs if x <= tx <= x + w and y <= ty <= y + h]
        assert inside == [str(value)], (stat, inside)
    x, y, w, h = face.box(face.elements["level"])
    assert str(card.level) in [t for t, tx, ty, _ in runs if x <= tx <= x + w and y <= ty <= y + h]


@pytest.mark.parametrize("lang", LANGS)
def test_doctrine_prints_terrain_and_two_part_bonus(project, tmp_path, lang):
    card = project.game.card("desert-routes")  # Terrain Doctrine: +1 ATK; opponent −1 DEF
    assert card.terrain and len(card.bonus) == 2
    text = pdf_text(render_card_pdf(project, card, lang, tmp_path / "card.pdf"))
    loc = project.locale(lang)
    assert loc.get("label.terrain") in text
    bonus = project.bonus_text(card, lang)
    assert "".join(bonus.split()) in "".join(text.split())
    assert "+1" in bonus and "\u22121" in bonus  # numbers come from cards.yaml, with a real minus


def test_tactic_without_bonus_prints_no_badge(project, tmp_path, poker):
    card = card_of(project, "tactic", bonus=())
    face = front_face(project, card, "en", poker)
    assert "bonus" not in face.texts
    text = pdf_text(render_card_pdf(project, card, "en", tmp_path / "card.pdf"))
    assert project.locale("en").get("kind.tactic") in text


def test_key_words_set_in_bold_by_one_rule():
    def em(s):
        return len(s) * 0.55  # a rough Latin width

    def em_cjk(s):
        return float(len(s))

    assert bold_keywords("On Deploy: draw 1 card.", 9, em) == "**On Deploy:** draw 1 card."
    assert (
        bold_keywords("Gains 1 ATK. Once per turn: draw 1 card.", 9, em)
        == "Gains 1 ATK. **Once per turn:** draw 1 card."
    )
    long = "When an Infantry you control would be destroyed by battle: negate it."
    assert bold_keywords(long, 9, em) == long  # a whole condition is not a key word
    assert bold_keywords("配備時：カードを1枚引く。1ターンに1度：自分", 9, em_cjk) == "**配備時：**カードを1枚引く。**1ターンに1度：**自分"
    assert bold_keywords("部署时：抽 1 张卡。", 9, em_cjk) == "**部署时：**抽 1 张卡。"
    assert bold_keywords("배치 시: 카드 1장을 뽑습니다.", 9, em) == "**배치 시:** 카드 1장을 뽑습니다."
    assert bold_keywords("Ratio 1:2 stays.", 9, em) == "Ratio 1:2 stays."  # a colon inside a word is no clause end
    assert bold_keywords("Your **own** words: stay.", 9, em) == "Your **own** words: stay."  # translator's markup wins
    assert bold_keywords("On Deploy: x.", 0, em) == "On Deploy: x."  # keyword_max 0 = off


BOLD_KEY_WORDS = {  # the five trigger words, and nothing longer, in every language
    "en": {"On Deploy:", "On Normal Deploy:", "Once per turn:", "When destroyed:", "While face-up:"},
    "ja": {"配備時：", "通常配備時：", "1ターンに1度：", "破壊された時：", "表側である限り："},
    "ko": {"배치 시:", "일반 배치 시:", "1턴에 1번:", "파괴되었을 때:"},  # "While face-up" is 11 ems in Korean
    "zh": {"部署时：", "通常部署时：", "每回合一次：", "被消灭时：", "正面朝上时："},
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_same_key_words_are_bold_in_every_language(project, lang):
    import re

    from ppgen.draw.card_front import marked_effect

    style = load_card_template(project).style("effect")
    bold = set()
    for card in project.game.cards:
        marked = marked_effect(project, card, lang, style).replace("\u00a0", " ")
        bold |= set(re.findall(r"\*\*(.+?)\*\*", marked))
    assert bold == BOLD_KEY_WORDS[lang]


@pytest.mark.parametrize("lang,keyword", [("en", "On Deploy:"), ("ja", "配備時："), ("ko", "배치 시:"), ("zh", "部署时：")])
def test_key_word_drawn_in_bold_font(project, tmp_path, lang, keyword):
    card = project.game.card("hannibal-barca-master-of-maneuver")
    path = render_card_pdf(project, card, lang, tmp_path / "card.pdf")
    runs = [(t.replace("\u00a0", " "), x, y, font) for t, x, y, font in placed_texts(path)]
    bold = [t for t, _, _, font in runs if font and "Bold" in font]
    regular = [t for t, _, _, font in runs if font and "Regular" in font]
    assert any(t.startswith(keyword.rstrip(":：")) for t in bold), bold
    assert not any(keyword in t for t in regular)


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_kinsoku_in_rendered_effect_text(project, tmp_path, lang):
    card = project.game.card("hannibal-barca-master-of-maneuver")
    path = render_card_pdf(project, card, lang, tmp_path / "card.pdf")
    lines = [line for line in pdf_text(path).split("\n") if line.strip()]
    effect = "".join(project.card_effect(card, lang).split())
    effect_lines = [line for line in lines if line.strip() and "".join(line.split()) in effect]
    assert len(effect_lines) >= 4, lines
    for line in effect_lines:
        assert line.strip()[0] not in NO_LINE_START, line
    # the lines join back into the whole text, nothing lost at the breaks
    assert "".join("".join(effect_lines).split()) == effect


def test_user_text_printed_literally(project, game_copy, tmp_path):
    en = game_copy / "locales" / "en.yaml"
    text = en.read_text(encoding="utf-8")
    old = "card.numidian-cavalry.effect: After this card attacks, change it to Defense."
    assert old in text
    en.write_text(text.replace(old, 'card.numidian-cavalry.effect: "Use <b>this</b> & <i>that</i> &amp; 3 < 5."'), encoding="utf-8")
    copy = ppgen.load(game_copy)
    path = render_card_pdf(copy, copy.game.card("numidian-cavalry"), "en", tmp_path / "card.pdf")
    flat = " ".join(pdf_text(path).split())
    assert "Use <b>this</b> & <i>that</i> &amp; 3 < 5." in flat


def test_character_no_font_has_names_key_and_position(game_copy):
    ja = game_copy / "locales" / "ja.yaml"
    lines = ja.read_text(encoding="utf-8").split("\n")
    i = lines.index("card.numidian-cavalry.name:")
    assert lines[i + 1].startswith("  text: ")
    lines[i + 1] = "  text: ヌミディア騎兵\U00010000"  # LINEAR B SYLLABLE B008 A: in no shipped font
    ja.write_text("\n".join(lines), encoding="utf-8")
    copy = ppgen.load(game_copy)
    with pytest.raises(GlyphError) as exc:
        front_face(copy, copy.game.card("numidian-cavalry"), "ja", CardGeometry.named())
    message = str(exc.value)
    assert f"locales/ja.yaml:{i + 2}:9 card.numidian-cavalry.name" in message
    assert "U+10000" in message
    problems = check_fit(copy, "ja")
    assert [(p.file, p.line, p.col, p.code) for p in problems] == [("locales/ja.yaml", i + 2, 9, "glyph")]


def test_overflow_reported_and_never_drawn_outside_the_box(project, game_copy, tmp_path, poker):
    en = game_copy / "locales" / "en.yaml"
    text = en.read_text(encoding="utf-8")
    old = "card.numidian-cavalry.effect: After this card attacks, change it to Defense."
    en.write_text(text.replace(old, "card.numidian-cavalry.effect: " + "Draw 1 card, then discard 1 card. " * 20), encoding="utf-8")
    line = next(n for n, l in enumerate(en.read_text(encoding="utf-8").split("\n"), 1) if l.startswith("card.numidian-cavalry.effect:"))
    copy = ppgen.load(game_copy)
    card = copy.game.card("numidian-cavalry")
    report = Report()
    face = front_face(copy, card, "en", poker, report)
    overflow = [item for item in report.items if item[0] == "overflow"]
    assert len(overflow) == 1
    code, message, lang, key = overflow[0]
    assert lang == "en" and key == "card.numidian-cavalry.effect"
    assert "CAR-02" in message and "(en)" in message and " mm" in message
    mm = face.problems[0][2]
    assert mm > 5 and f"{mm:.1f} mm" in message
    problems = check_fit(copy, "en")
    assert [(p.file, p.line, p.col, p.code) for p in problems] == [("locales/en.yaml", line, 31, "fit")]
    assert f"{mm:.1f} mm" in problems[0].message
    # clipped: below the effect box the card is exactly the card without the long text
    long_png = pixels(render_card_pdf(copy, card, "en", tmp_path / "long.pdf"), dpi=200)
    short_png = pixels(render_card_pdf(project, card, "en", tmp_path / "short.pdf"), dpi=200)
    x, y, w, h = face.box(face.elements["effect"])
    scale = 200 / 72
    below = (0, round(long_png.height - y * scale) + 2, long_png.width, long_png.height)
    above = (0, 0, long_png.width, round(long_png.height - (y + h) * scale) - 2)
    for region in (below, above):
        assert long_png.crop(region).tobytes() == short_png.crop(region).tobytes()
    # its start shows, its end is cut: the first line at the box's top (centred, both ends were cut)
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(str(tmp_path / "long.pdf"))[0]
    chars = page.get_textpage()
    text = chars.get_text_range(0, chars.count_chars())
    first = chars.get_charbox(text.index("Draw 1 card"))
    dy = page.get_height() - poker.height  # (the page may hold the card with a margin: its top is the card's)
    assert y + dy < first[1] and first[3] <= y + h + dy + 0.5, (first, y + dy, y + h + dy)


def test_a_text_that_does_not_fit_is_pointed_at_where_the_translator_edits_it(game_copy, tmp_path):
    """`build` and `preview` say where the text that overflows is — `locales/ja.yaml:LINE:COL:` first,
    as `i18n check` says it (an editor's terminal opens the file there) — not only its key."""
    from clitools import call_ppgen

    ja = game_copy / "locales" / "ja.yaml"
    lines = ja.read_text(encoding="utf-8").split("\n")
    at = lines.index("card.roman-archer-auxilia.effect:") + 1
    lines[at] = lines[at].replace("  text: ", "  text: " + "長い" * 120)
    ja.write_text("\n".join(lines), encoding="utf-8")
    where = f"locales/ja.yaml:{at + 1}:9: ja card.roman-archer-auxilia.effect: overflow: ROM-02 (ja)"
    build = call_ppgen("--root", str(game_copy), "build", "--lang", "ja", "--parts", "cards", "--out", str(tmp_path / "out"))
    assert f"warning: {where}" in build.stderr, build.stderr
    preview = call_ppgen("--root", str(game_copy), "preview", "ROM-02", "--lang", "ja", "-o", str(tmp_path / "p.png"))
    assert f"warning: {where}" in preview.stderr, preview.stderr
    check = call_ppgen("--root", str(game_copy), "i18n", "check", "--lang", "ja", "--check", "fit")
    assert check.stdout.startswith(f"locales/ja.yaml:{at + 1}:9: error[fit] ROM-02")


# ── the back ───────────────────────────────────────────────────────────────
def test_back_is_the_same_in_every_language(project, tmp_path, poker):
    from pypdf import PdfReader

    forms, images = [], []
    for lang in LANGS:
        path = render_back_pdf(project, tmp_path / f"back-{lang}.pdf", lang=lang)
        page = PdfReader(str(path)).pages[0]
        assert page.extract_text().strip() == ""  # no text at all
        xobjects = page["/Resources"]["/XObject"]
        (name,) = list(xobjects)
        forms.append(xobjects[name].get_object().get_data())
        images.append(pixels(path).tobytes())
    assert len(set(forms)) == 1
    assert len(set(images)) == 1
    assert back_face(project, poker).key == "back-dark"  # the default: the template's first back


@pytest.mark.parametrize("variant", ["dark", "light"])
def test_back_turned_round_looks_the_same(project, tmp_path, variant):
    from PIL import ImageChops

    image = pixels(render_back_pdf(project, tmp_path / "back.pdf", variant=variant), dpi=100)
    turned = image.rotate(180)
    diff = ImageChops.difference(image, turned).convert("L")
    histogram = diff.histogram()
    differing = sum(histogram[40:])  # anti-aliasing aside, no pixel differs
    assert differing < image.width * image.height * 0.002, differing


def test_the_light_back_saves_ink(project, tmp_path):
    """`--back light`: the same design (the same ornaments, in the same places) on a light field."""
    from PIL import ImageStat

    dark = pixels(render_back_pdf(project, tmp_path / "dark.pdf", variant="dark"), dpi=50)
    light = pixels(render_back_pdf(project, tmp_path / "light.pdf", variant="light"), dpi=50)

    def coverage(image):  # mean darkness, 0 (white paper) to 1 (black everywhere)
        return 1 - ImageStat.Stat(image.convert("L")).mean[0] / 255

    assert coverage(light) < 0.15 < 0.6 < coverage(dark), (coverage(light), coverage(dark))
    assert back_face(project, CardGeometry.named(), "light").key == "back-light"
    with pytest.raises(UsageError, match=r"unknown card back 'lite'.*did you mean 'light'.*dark, light"):
        back_face(project, CardGeometry.named(), "lite")


# ── the safe zone, rendered: only the background near the trim ───────────────
class _Only:
    """A face that paints only part of another: its background (fronts) or field (backs)."""

    def __init__(self, key, paint):
        self.key, self.draw = key, paint


SAFE_CARDS = ["leonidas-king-of-sparta", "hastati-line", "fortified-camp", "hill-fort"]  # Commander, unit, Terrain, Doctrine


def _nearest_difference(image, reference, bleed_px: int = 0) -> float:
    """The distance in px from the trim to the nearest pixel where the two images differ."""
    from PIL import ImageChops

    mask = ImageChops.difference(image, reference).convert("L").point(lambda v: 255 if v > 10 else 0)
    box = mask.getbbox()
    if box is None:
        return float("inf")
    w, h = mask.size
    return min(box[0], box[1], w - box[2], h - box[3]) - bleed_px


@pytest.mark.parametrize("size", ["poker", "bridge", "mini", "tarot", "50x70"])
def test_nothing_but_background_within_the_safe_margin_of_the_trim(project, size):
    """Every card size, mini included, every kind of card: rendered, the outer 3.2 mm of every
    front is exactly its background, and the outer 5.2 mm of every back (3.2 mm + a 2 mm duplex
    error) exactly its field: no frame or ornament near the edge to come out uneven."""
    from ppgen.draw.card_back import DUPLEX_ERROR
    from ppgen.write.faces import faces_pdf

    dpi = 300
    margin = load_card_template(project).safe_margin
    geometry = CardGeometry.named(size, bleed_mm=1)
    bleed_px = 1 * dpi / 25.4
    faces = []
    for lang, card_id in zip(("en", "ja", "ko", "zh"), SAFE_CARDS):
        front = front_face(project, project.game.card(card_id), lang, geometry)
        faces += [front, _Only(f"bg-{front.key}", front._background)]
    for variant in ("dark", "light"):
        back = back_face(project, geometry, variant)
        faces += [back, _Only(f"field-{back.key}", back.draw_field)]
    pdf = faces_pdf(project, faces, geometry)
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        images = [doc[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(faces))]
    finally:
        doc.close()
    for i in range(0, len(faces), 2):
        nearest_mm = _nearest_difference(images[i], images[i + 1], bleed_px) * 25.4 / dpi
        allowed = margin + (DUPLEX_ERROR if faces[i].key.startswith("back") else 0.0)
        assert nearest_mm >= allowed - 25.4 / dpi, (size, faces[i].key, round(nearest_mm, 2))


# ── fonts, determinism, forms ──────────────────────────────────────────────
def _fonts(obj, seen=None):
    """Every font dictionary reachable from a resources dictionary (forms included)."""
    seen = seen if seen is not None else set()
    out = []
    resources = obj.get("/Resources")
    if resources is None:
        return out
    resources = resources.get_object()
    for ref in (resources.get("/Font") or {}).values():
        font = ref.get_object()
        if id(font) not in seen:
            seen.add(id(font))
            out.append(font)
    for ref in (resources.get("/XObject") or {}).values():
        out += _fonts(ref.get_object(), seen)
    return out


def test_every_font_embedded_and_no_base14(project, tmp_path):
    from pypdf import PdfReader

    card = project.game.card("hannibal-barca-master-of-maneuver")
    paths = [render_card_pdf(project, card, lang, tmp_path / f"{lang}.pdf", back=True) for lang in LANGS]
    for path in paths:
        for page in PdfReader(str(path)).pages:
            fonts = _fonts(page)
            assert fonts
            for font in fonts:
                name = str(font["/BaseFont"]).lstrip("/").split("+")[-1]
                assert not any(name.startswith(b) for b in BASE14), name
                assert "/FontFile2" in font["/FontDescriptor"].get_object(), name


def test_same_card_drawn_twice_is_byte_identical(project, tmp_path):
    card = project.game.card("desert-routes")
    a = render_card_pdf(project, card, "ja", tmp_path / "a.pdf", back=True).read_bytes()
    b = render_card_pdf(project, card, "ja", tmp_path / "b.pdf", back=True).read_bytes()
    assert a == b


def test_face_drawn_in_a_form_looks_as_drawn_on_the_page(project, tmp_path, poker):
    """Forms lose transparency and shadings in ReportLab: faces must not rely on them."""
    from reportlab.pdfgen.canvas import Canvas

    card = project.game.card("darius-great-king")
    face = front_face(project, card, "en", poker)
    direct = tmp_path / "direct.pdf"
    c = Canvas(str(direct), pagesize=(poker.width, poker.height), invariant=1, initialFontName=project.fonts.chain("en").primary)
    face.draw_flat(c)
    c.showPage()
    c.save()
    formed = render_faces_pdf(project, [face], poker, tmp_path / "form.pdf")
    assert pixels(direct).tobytes() == pixels(formed).tobytes()


# ── sizes and geometry ─────────────────────────────────────────────────────
def test_card_sizes():
    assert card_size_mm("poker") == (63, 88)
    assert card_size_mm("63x88") == (63, 88)
    assert card_size_mm("70 × 120") == (70, 120)
    with pytest.raises(UsageError, match="unknown card size 'pokr'"):
        card_size_mm("pokr")
    g = CardGeometry.named("bridge", bleed_mm=3)
    assert g.trim_w == pytest.approx(57 * MM) and g.width == pytest.approx(63 * MM)


@pytest.mark.parametrize("size", ["bridge", "mini", "tarot"])
def test_other_card_sizes_fit(project, tmp_path, size):
    geometry = CardGeometry.named(size)
    for lang in LANGS:
        assert check_fit(project, lang, geometry) == [], (size, lang)
    card = project.game.card("alexander-king-of-macedon")
    path = render_card_pdf(project, card, "ko", tmp_path / f"{size}.pdf", geometry=geometry)
    from pypdf import PdfReader

    box = PdfReader(str(path)).pages[0].mediabox
    w, h = card_size_mm(size)
    assert float(box.width) == pytest.approx(w * MM, abs=0.01) and float(box.height) == pytest.approx(h * MM, abs=0.01)
    assert "".join(project.card_name(card, "ko").split()) in "".join(pdf_text(path).split())


def test_bleed_is_background_and_trim_is_exact(project, tmp_path):
    geometry = CardGeometry.named("poker", bleed_mm=3)
    card = project.game.card("leonidas-king-of-sparta")
    path = render_card_pdf(project, card, "en", tmp_path / "bleed.pdf", geometry=geometry)
    from pypdf import PdfReader

    page = PdfReader(str(path)).pages[0]
    assert [round(float(v) / MM, 2) for v in page.trimbox] == [3, 3, 66, 91]
    assert [round(float(v) / MM, 2) for v in page.mediabox] == [0, 0, 69, 94]
    image = pixels(path, dpi=100)
    faction = project.game.factions[card.faction].colour
    expect = tuple(int(faction[i : i + 2], 16) for i in (1, 3, 5))
    # the outermost 2 mm (all bleed) hold only the background: faction colour and its texture
    band = round(2 * 100 / 25.4)
    edge = [image.getpixel((x, y)) for x in range(image.width) for y in list(range(band)) + list(range(image.height - band, image.height))]
    near = sum(1 for px in edge if max(abs(a - b) for a, b in zip(px, expect)) < 60)
    assert near == len(edge)


@pytest.mark.parametrize(
    "lang,text",
    [
        # 17 full-width characters fill a line of the effect box at 8.5 pt; the 18th is "。" or "，"
        ("ja", "あいうえおかきくけこさしすせそたち。つてとなにぬねのはひふへほまみむめもや。"),
        ("zh", "一二三四五六七八九十百千万甲乙丙丁，戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥。"),
    ],
)
def test_kinsoku_moves_the_character_before_a_closing_mark(game_copy, tmp_path, lang, text):
    path = game_copy / "locales" / f"{lang}.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    i = lines.index("card.numidian-cavalry.effect:")
    lines[i + 1] = f"  text: {text}"
    path.write_text("\n".join(lines), encoding="utf-8")
    copy = ppgen.load(game_copy)
    card = copy.game.card("numidian-cavalry")
    face = front_face(copy, card, lang, CardGeometry.named())
    assert face.texts["effect"].layout.size == 8.5
    printed = [line.strip() for line in pdf_text(render_card_pdf(copy, card, lang, tmp_path / "k.pdf")).split("\n")]
    first = next(n for n, line in enumerate(printed) if line.startswith(text[:5]))
    assert printed[first] == text[:16]  # not 17: the 17th character goes down with the mark after it
    assert printed[first + 1].startswith(text[16:18])
    assert not any(line and line[0] in NO_LINE_START for line in printed[first : first + 3])


def test_names_prefer_one_line_then_wrap(project, poker):
    long_en = project.game.card("hannibal-barca-master-of-envelopment")
    face = front_face(project, long_en, "en", poker)
    assert len(face.texts["name"].layout.lines) == 2  # too long for one line at 10 pt: wrapped at a space
    assert all(line.runs for line in face.texts["name"].layout.lines)
    for lang in ("ja", "zh"):
        for card in project.game.cards:
            lay = front_face(project, card, lang, poker).texts["name"].layout
            assert len(lay.lines) == 1, (lang, card.id, lay.text)  # never broken inside a word


def test_bad_character_in_a_type_name_names_that_entry(game_copy):
    ja = game_copy / "locales" / "ja.yaml"
    lines = ja.read_text(encoding="utf-8").split("\n")
    i = lines.index("type.cavalry:")
    lines[i + 1] = "  text: 騎兵\U00010000"
    ja.write_text("\n".join(lines), encoding="utf-8")
    copy = ppgen.load(game_copy)
    with pytest.raises(GlyphError, match=rf"locales/ja\.yaml:{i + 2}:9 type\.cavalry: no font"):
        front_face(copy, copy.game.card("numidian-cavalry"), "ja", CardGeometry.named())


def test_unbalanced_bold_markup_names_the_entry(game_copy):
    from ppgen.typeset.text import MarkupError

    en = game_copy / "locales" / "en.yaml"
    text = en.read_text(encoding="utf-8")
    old = "card.numidian-cavalry.effect: After this card attacks, change it to Defense."
    en.write_text(text.replace(old, "card.numidian-cavalry.effect: After this card **attacks, change it to Defense."), encoding="utf-8")
    line = next(n for n, l in enumerate(en.read_text(encoding="utf-8").split("\n"), 1) if l.startswith("card.numidian-cavalry.effect:"))
    copy = ppgen.load(game_copy)
    with pytest.raises(MarkupError, match=rf"locales/en\.yaml:{line}:31 card\.numidian-cavalry\.effect: unbalanced"):
        front_face(copy, copy.game.card("numidian-cavalry"), "en", CardGeometry.named())
    assert [(p.line, p.code) for p in check_fit(copy, "en")] == [(line, "markup")]


def test_key_words_never_split_across_lines(project, all_fronts):
    """In languages that break between words; Japanese and Chinese may break between any two
    characters (kinsoku aside), inside key words too, as their typesetting does."""
    import re

    from ppgen.draw.card_front import marked_effect

    style = load_card_template(project).style("effect")
    checked = 0
    for lang in ("en", "ko"):
        faces, _ = all_fronts[lang]
        for face in faces:
            lines = face.texts["effect"].layout.text.split("\n")
            for clause in re.findall(r"\*\*(.+?)\*\*", marked_effect(project, face.card, lang, style)):
                assert any(clause in line for line in lines), (lang, face.card.id, clause, lines)
                checked += 1
    assert checked > 80


def test_card_sheets_lay_out_each_front_once_and_keep_no_layout(project, monkeypatch, tmp_path):
    """Memory must not grow with the card count by layouts: each distinct front is laid out
    when its form is drawn, once, and let go after."""
    import gc
    import weakref

    from ppgen.draw import faces
    from ppgen.write import parts
    from ppgen.write.build import BuildOptions, select_cards
    from ppgen.write.report import BuildReport

    made, alive = [], []
    real = faces.front_face

    def held() -> int:
        return sum(ref() is not None for ref in made)

    def counted(*args, **kwargs):
        if len(made) % 8 == 0:  # a layout kept beyond its drawing survives a full collection
            if held():
                gc.collect()  # (every 8th front: a collection per front cost 9 s, and finds nothing more)
            alive.append(held())  # layouts still held when another is made
        face = real(*args, **kwargs)
        made.append(weakref.ref(face))
        return face

    monkeypatch.setattr(faces, "front_face", counted)
    run = select_cards(project, ["rome", "dacia"])
    options = BuildOptions.resolve(project, lang="ja", out=tmp_path, jobs=1)
    part = parts.cards_part(project, options, "ja", run, BuildReport())
    template = load_card_template(project)
    kind = {c.id: "commander" if c.commander else "terrain" if c.terrain else c.kind for c in run}
    motif = {c.id: template.motif(c.type if c.is_unit else "terrain" if c.terrain else c.kind) for c in run}
    looks = {(c.faction, kind[c.id]) for c in run}
    illustrations = {(c.faction, kind[c.id], motif[c.id]) for c in run}
    # a background and a frame per faction and kind of card, an art window per faction, an illustration per motif
    shared = 2 * len(looks) + 2 + len(illustrations)
    assert (len(looks), len(illustrations)) == (10, 16)
    assert len(made) == len({card.id for card in run}) == part.faces - 1 - shared  # fronts = forms - the back - shared layers
    gc.collect()
    assert len(alive) >= len(made) // 8 and max(alive) == 0 and held() == 0
