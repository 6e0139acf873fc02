"""Player mats and the score sheet, read back from the PDF: page size, real-size zones, rule numbers, words."""
from __future__ import annotations

import io
import re

import pytest

LANGS = ["en", "ja", "ko", "zh"]
PAPERS = {"a4": (841.89, 595.28), "letter": (792.0, 612.0)}
PX_PER_MM_300DPI = 300 / 25.4


def _mat(project, lang, paper, report=None):
    """(zones, pdf bytes) of one mat."""
    from ppgen.draw.mat import draw_mat
    from ppgen.units import PAPERS
    from ppgen.write.parts import new_document
    from ppgen.write.report import BuildReport

    size = PAPERS[paper].turned().size
    from ppgen.write.report import fallbacks_reported

    report = report if report is not None else BuildReport()
    doc = new_document(project, lang, "mat")
    with fallbacks_reported(project.locale(lang), report):  # what a build does around each part
        zones = draw_mat(doc.canvas, project, lang, size, report)
    return zones, doc.data()


def _text(pdf: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", LANGS)
def test_mat_is_landscape_with_zones_at_their_stated_sizes(project, lang, paper):
    from pypdf import PdfReader

    zones, pdf = _mat(project, lang, paper)
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    assert (round(w, 2), round(h, 2)) == PAPERS[paper]
    by_kind = {}
    for z in zones:
        by_kind.setdefault(z.kind, []).append(z)
        # every zone lies on the page, at least 6 mm from the edge
        assert z.x >= 6 - 1e-6 and z.y >= 6 - 1e-6, z
        assert z.x + z.w <= w / 72 * 25.4 - 6 + 1e-6 and z.y + z.h <= h / 72 * 25.4 - 6 + 1e-6, z
    names = {z.name for z in zones}
    assert {"unit-1", "unit-2", "unit-3", "deck", "graveyard"} <= names
    for z in by_kind["card"]:
        assert (round(z.w, 3), round(z.h, 3)) == (63.0, 88.0), z
    (d20,) = by_kind["d20"]
    assert round(d20.h, 3) == 22.0
    (d12,) = by_kind["d12"]
    assert round(d12.h, 3) == 20.0
    assert len(by_kind["d6"]) == 3 * 2 + 2  # a green and a red spot per unit slot, two for energy
    assert all((round(z.w, 3), round(z.h, 3)) == (16.0, 16.0) for z in by_kind["d6"])
    # no two zones overlap
    for i, a in enumerate(zones):
        for b in zones[i + 1 :]:
            assert a.x + a.w <= b.x + 1e-6 or b.x + b.w <= a.x + 1e-6 or a.y + a.h <= b.y + 1e-6 or b.y + b.h <= a.y + 1e-6, (a, b)


def _render(pdf: bytes, dpi: int = 300):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    return doc[0].render(scale=dpi / 72).to_pil().convert("L")


def _dark_runs(values, threshold=130):
    """Centres of the runs of dark pixels in a line of grey values."""
    runs, start = [], None
    for i, v in enumerate(list(values) + [255]):
        if v < threshold and start is None:
            start = i
        elif v >= threshold and start is not None:
            runs.append((start + i - 1) / 2)
            start = None
    return runs


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_unit_slots_measure_63_by_88_mm_on_the_rendered_page(project, paper):
    """Pixel analysis at 300 dpi: the distance between a slot's outline strokes is 63 × 88 mm (±0.3 mm)."""
    zones, pdf = _mat(project, "en", paper)
    img = _render(pdf)
    width_px, height_px = img.size
    page_h_mm = height_px / PX_PER_MM_300DPI
    for z in [z for z in zones if z.kind == "card"]:
        cy = round((page_h_mm - (z.y + z.h * 0.15)) * PX_PER_MM_300DPI)  # a row clear of the centred label
        cx = round((z.x + z.w / 2) * PX_PER_MM_300DPI)
        row = [img.getpixel((x, cy)) for x in range(round((z.x - 2) * PX_PER_MM_300DPI), round((z.x + z.w + 2) * PX_PER_MM_300DPI))]
        col = [img.getpixel((cx, y)) for y in range(round((page_h_mm - z.y - z.h - 2) * PX_PER_MM_300DPI),
                                                     round((page_h_mm - z.y + 2) * PX_PER_MM_300DPI))]
        xs, ys = _dark_runs(row), _dark_runs(col)
        assert len(xs) >= 2 and len(ys) >= 2, z
        measured_w = (xs[-1] - xs[0]) / PX_PER_MM_300DPI
        measured_h = (ys[-1] - ys[0]) / PX_PER_MM_300DPI
        assert abs(measured_w - 63) <= 0.3 and abs(measured_h - 88) <= 0.3, (z.name, measured_w, measured_h)


def test_dice_outlines_measure_their_stated_size(project):
    """The d20 is 22 mm corner to corner and a d6 16 mm wide on the rendered page (stroke included, ±0.6 mm)."""
    zones, pdf = _mat(project, "en", "a4")
    img = _render(pdf)
    page_h_mm = img.size[1] / PX_PER_MM_300DPI
    for z in zones:
        if z.kind not in ("d20", "d6"):
            continue
        if z.kind == "d20":  # vertical extent through the centre: vertex to vertex
            cx = round((z.x + z.w / 2) * PX_PER_MM_300DPI)
            line = [img.getpixel((cx, y)) for y in range(round((page_h_mm - z.y - z.h - 3) * PX_PER_MM_300DPI),
                                                          round((page_h_mm - z.y + 3) * PX_PER_MM_300DPI))]
            expected = z.h
        else:  # horizontal extent through the middle of the upper half
            y = round((page_h_mm - z.y - z.h * 0.62) * PX_PER_MM_300DPI)
            line = [img.getpixel((x, y)) for x in range(round((z.x - 1) * PX_PER_MM_300DPI), round((z.x + z.w + 1) * PX_PER_MM_300DPI))]
            expected = z.w
        dark = [i for i, v in enumerate(line) if v < 200]
        measured = (dark[-1] - dark[0]) / PX_PER_MM_300DPI
        assert abs(measured - expected) <= 0.6, (z.name, measured)


def test_mat_prints_the_energy_schedule_and_starting_life_from_the_rules(project, game_copy):
    import ppgen

    text = _squash(_text(_mat(project, "en", "a4")[1]))
    assert _squash("Turn 1 2 3 4 5 6 7 8+") in text
    assert _squash("Max energy 6 6 7 8 9 10 11 12") in text
    assert _squash("start at 20") in text
    cards = (game_copy / "cards.yaml").read_text(encoding="utf-8")
    cards = cards.replace("energy_start: 6", "energy_start: 4").replace("energy_growth_turn: 3", "energy_growth_turn: 2")
    cards = cards.replace("energy_max: 12", "energy_max: 8").replace("starting_life: 20", "starting_life: 25")
    (game_copy / "cards.yaml").write_text(cards, encoding="utf-8")
    changed = ppgen.load(game_copy)
    text = _squash(_text(_mat(changed, "en", "a4")[1]))
    assert _squash("Turn 1 2 3 4 5+") in text and _squash("Max energy 4 5 6 7 8") in text
    assert _squash("start at 25") in text


@pytest.mark.parametrize("lang", LANGS)
def test_mat_words_are_localized(project, lang):
    text = _squash(_text(_mat(project, lang, "letter")[1]))
    loc = project.locale(lang)
    for key in ("mat.title", "mat.unit", "mat.deck", "mat.graveyard", "mat.life", "mat.energy", "rules.fighting.heading",
                "rules.phases.1", "rules.phases.6", "rules.turn.first-turn"):
        assert _squash(loc.get(key)) in text, (lang, key)
    if lang != "en":
        assert "Graveyard" not in text and "Deck" not in text


def test_mat_fallback_is_reported(game_copy):
    import ppgen
    from ppgen.write.report import BuildReport

    path = game_copy / "locales" / "zh.yaml"
    text, n = re.subn(r"mat\.graveyard:\n  text: .*\n  src: .*\n", "", path.read_text(encoding="utf-8"))
    assert n == 1
    path.write_text(text, encoding="utf-8")
    report = BuildReport()
    zones, pdf = _mat(ppgen.load(game_copy), "zh", "a4", report)
    assert [(w.code, w.lang, w.subject) for w in report.warnings] == [("fallback", "zh", "mat.graveyard")]
    assert "Graveyard" in _text(pdf)


def test_a_mat_that_does_not_fit_the_paper_is_refused(game_copy):
    import ppgen
    from ppgen.errors import UsageError

    path = game_copy / "templates" / "mat-style.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("unit_slots: 3", "unit_slots: 4"), encoding="utf-8")
    with pytest.raises(UsageError, match=r"does not fit .* mm margins"):
        _mat(ppgen.load(game_copy), "en", "letter")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", LANGS)
def test_score_sheet_rows_carry_the_energy_maximum_per_turn(project, lang, paper, tmp_path):
    from pypdf import PdfReader

    from ppgen.write.report import BuildReport
    from ppgen.write.standalone import write_part

    report = BuildReport()
    path = write_part(project, lang, "score-sheet", tmp_path / "sheet.pdf", paper, report).path
    reader = PdfReader(str(path))
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert float(page.mediabox.height) > float(page.mediabox.width)  # portrait
    lines = [line.strip() for line in page.extract_text().split("\n")]
    rules = project.game.rules
    rows = []
    for a, b in zip(lines, lines[1:]):
        if a.isdigit() and b.isdigit() and int(a) == len(rows) + 1:
            rows.append((int(a), int(b)))
    assert len(rows) >= 20
    assert all(value == rules.energy_max_on(turn) for turn, value in rows), rows
    assert [v for _, v in rows[:8]] == [6, 6, 7, 8, 9, 10, 11, 12]
    loc = project.locale(lang)
    text = _squash(page.extract_text())
    for key in ("sheet.title", "sheet.notes", "sheet.winner", "mat.energy-max"):
        assert _squash(loc.get(key)) in text, key
    assert text.count(str(rules.starting_life)) >= 2
    assert report.warnings == []


def test_mats_embed_their_fonts_and_rebuild_byte_identically(project, tmp_path):
    from pypdf import PdfReader

    from ppgen.write.standalone import write_part

    for part in ("mats", "score-sheet"):
        a = write_part(project, "ja", part, tmp_path / f"{part}-a.pdf", "letter").path
        b = write_part(project, "ja", part, tmp_path / f"{part}-b.pdf", "letter").path
        assert a.read_bytes() == b.read_bytes()
        for ref in PdfReader(str(a)).pages[0]["/Resources"]["/Font"].values():
            font = ref.get_object()
            assert "Helvetica" not in str(font["/BaseFont"])
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            assert "/FontFile2" in descendant["/FontDescriptor"].get_object()
