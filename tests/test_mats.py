"""Player mats and the score sheet, read back from the PDF: page size, real-size zones, rule numbers, words."""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, replace

import pytest

from pdftools import MM

LANGS = ["en", "ja", "ko", "zh"]
PAPERS = {"a4": (841.89, 595.28), "letter": (792.0, 612.0)}
PX_PER_MM_300DPI = 300 / 25.4


@dataclass
class Mats:
    """A build's mats part read back: its PDF, its sheets (impose.tiles.Tile, player 1's first)
    and the zones the mat's design drew (mm, from the design's corner)."""

    pdf: bytes
    tiles: list
    zones: list
    report: object

    def on_sheets(self):
        """(sheet index, zone in mm on that sheet's page) of every zone that lies wholly on one sheet."""
        out = []
        for z in self.zones:
            box = [v * MM for v in (z.x, z.y, z.w, z.h)]
            for k, tile in enumerate(self.tiles):
                p = tile.part
                if p.x - 1e-6 <= box[0] and box[0] + box[2] <= p.x + p.w + 1e-6 and p.y - 1e-6 <= box[1] and box[1] + box[3] <= p.y + p.h + 1e-6:
                    ox, oy = tile.origin
                    out.append((k, replace(z, x=z.x + ox / MM, y=z.y + oy / MM)))
        return out


def _mats(project, lang, paper, report=None, **options):
    """The mats part of a build (`options`: BuildOptions.resolve's, e.g. mat="large", sleeves=False)."""
    from reportlab.pdfgen.canvas import Canvas

    from ppgen.draw.mat import paint_mat
    from ppgen.write.build import BuildOptions
    from ppgen.write.parts import mat_plan, mats_part
    from ppgen.write.report import BuildReport, fallbacks_reported

    opts = BuildOptions.resolve(project, lang=lang, paper=paper, parts=["mats"], **options)
    report = report if report is not None else BuildReport()
    with fallbacks_reported(project.locale(lang), report):  # what a build does around each part
        part = mats_part(project, opts, lang, [], report)
    geo, tiles = mat_plan(project, opts)
    zones = paint_mat(Canvas(io.BytesIO()), project, lang, geo, BuildReport())
    return Mats(part.data, tiles, zones, report)


def _text(pdf: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


SPOTS = {"d6": 19, "d20": 24, "d12": 22}  # mm, the least a die's spot may measure (the numbers)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", LANGS)
def test_mat_has_a_zone_for_every_card_in_play_sized_for_sleeves(project, lang, paper):
    from pypdf import PdfReader

    mats = _mats(project, lang, paper)
    pages = PdfReader(io.BytesIO(mats.pdf)).pages
    assert len(pages) == 2 * len(mats.tiles)  # both players' mats
    short, long_ = sorted(PAPERS[paper])
    for page in pages:
        assert sorted((round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2))) == [short, long_]
    names = {z.name for z in mats.zones}
    assert {"terrain", "unit-1", "unit-2", "unit-3", "row-1", "row-2", "row-3", "deck", "graveyard", "life-track"} <= names
    by_kind = {}
    for z in mats.zones:
        by_kind.setdefault(z.kind, []).append(z)
    assert len(by_kind["card"]) == 3 + 3 + 3  # terrain, units, graveyard; the Doctrine and Tactic row; deck
    for z in by_kind["card"]:
        assert z.w >= 67 - 1e-6 and z.h >= 92 - 1e-6, z  # a sleeved poker card (66 × 91 mm) and room
    for kind, least in SPOTS.items():
        assert by_kind[kind] and all(min(z.w, z.h) >= least - 1e-6 for z in by_kind[kind]), kind
    assert len(by_kind["d6"]) == 3 * 2 + 2  # a green and a red spot per unit zone, two for energy
    # no two zones overlap
    for i, a in enumerate(mats.zones):
        for b in mats.zones[i + 1:]:
            assert a.x + a.w <= b.x + 1e-6 or b.x + b.w <= a.x + 1e-6 or a.y + a.h <= b.y + 1e-6 or b.y + b.h <= a.y + 1e-6, (a, b)
    # every die spot on one sheet (never cut by a join), every zone on a sheet inside the printable margin
    placed = mats.on_sheets()
    whole = {z.name for _, z in placed}
    assert all(z.name in whole for z in mats.zones if z.kind in SPOTS), "a die spot is cut by the join"
    pw, ph = [v / MM for v in mats.tiles[0].page]
    for _, z in placed:
        assert z.x >= 6 - 1e-6 and z.y >= 6 - 1e-6 and z.x + z.w <= pw - 6 + 1e-6 and z.y + z.h <= ph - 6 + 1e-6, z


def test_unsleeved_mats_have_zones_for_bare_cards(project):
    mats = _mats(project, "en", "a4", sleeves=False)
    cards = [z for z in mats.zones if z.kind == "card"]
    assert cards and all((round(z.w, 3), round(z.h, 3)) == (64.0, 89.0) for z in cards)  # 63 × 88 mm and 1 mm of room


@pytest.mark.parametrize("paper, large", [("a4", (297.0, 420.0)), ("letter", (279.4, 431.8))])
def test_mat_large_puts_each_mat_on_one_a3_or_tabloid_sheet(project, paper, large):
    from pypdf import PdfReader

    mats = _mats(project, "ko", paper, mat="large")
    pages = PdfReader(io.BytesIO(mats.pdf)).pages
    assert len(mats.tiles) == 1 and len(pages) == 2
    for page in pages:
        size = sorted(float(v) / MM for v in (page.mediabox.width, page.mediabox.height))
        assert size == pytest.approx(sorted(large), abs=0.01)
    assert len(mats.on_sheets()) == len(mats.zones)
    assert _squash(project.locale("ko").get("mat.glue").split("{")[0]) not in _squash(_text(mats.pdf))


@pytest.mark.parametrize("lang", LANGS)
def test_two_sheets_join_along_a_marked_glue_edge(project, lang):
    """On A4 the mat is two sheets: sheet 1 with the glue strip, sheet 2 with its cut line, each
    saying so in the language; the seam's triangles meet; bookmarks open each player's first sheet."""
    from pypdf import PdfReader

    from ppgen.write.build import BuildOptions
    from ppgen.write.parts import mats_part
    from ppgen.write.report import BuildReport

    mats = _mats(project, lang, "a4")
    assert [t.number for t in mats.tiles] == [1, 2]
    one, two = mats.tiles
    assert one.glue is not None and two.waste is not None
    assert one.glue.w == pytest.approx(10 * MM) or one.glue.h == pytest.approx(10 * MM)  # mat-style.yaml layout.glue
    reader = PdfReader(io.BytesIO(mats.pdf))
    loc = project.locale(lang)
    texts = [_squash(page.extract_text()) for page in reader.pages]
    for n, text in enumerate(texts):
        glue, cut = _squash(loc.get("mat.glue")), _squash(loc.get("mat.cut"))
        assert (glue in text) == (n % 2 == 0) and (cut in text) == (n % 2 == 1), (lang, n)
        assert _squash(loc.get("mat.sheet").format(n=n % 2 + 1, total=2)) in text
    # the two parts of the drawing meet exactly at the seam
    axis = one.axis
    assert axis in ("x", "y")
    if axis == "x":
        assert one.part.x + one.part.w == pytest.approx(two.part.x) and one.seam - one.origin[0] == pytest.approx(two.seam - two.origin[0])
    else:
        assert two.part.y + two.part.h == pytest.approx(one.part.y) and one.seam - one.origin[1] == pytest.approx(two.seam - two.origin[1])
    part = mats_part(project, BuildOptions.resolve(project, lang=lang, paper="a4", parts=["mats"]), lang, [], BuildReport())
    assert part.children == [(loc.format("sheet.player", n=1), 0), (loc.format("sheet.player", n=2), 2)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_letter_is_cut_by_the_seam_between_the_two_sheets(project, lang, paper):
    """No glyph on either sheet comes within 1.5 mm of the seam (sheet 1's glue line, sheet 2's
    cut line): the seam ran through the middle unit zone's label ("UN|IT", "DOCTRINE / TA|CTIC")
    and the combat reference's third column ("your unit is de|stroyed"), and a sheet glued half a
    millimetre off left those words unreadable. Each word still prints, on one sheet or the other."""
    import pypdfium2 as pdfium

    mats = _mats(project, lang, paper)
    assert len(mats.tiles) == 2
    doc = pdfium.PdfDocument(mats.pdf)
    printed = ""
    for k, tile in enumerate(mats.tiles):
        chars = doc[k].get_textpage()
        cut = []
        for i in range(chars.count_chars()):
            char = chars.get_text_range(i, 1)
            if not char.strip():
                continue
            left, bottom, right, top = chars.get_charbox(i)
            low, high = (left, right) if tile.axis == "x" else (bottom, top)
            if low < tile.seam + 1.5 * MM and high > tile.seam - 1.5 * MM:
                cut.append(char)
        assert not cut, (lang, paper, tile.number, "".join(cut))
        printed += _squash(chars.get_text_range())
    loc = project.locale(lang)
    for key in ("mat.unit", "mat.doctrine-tactic", "mat.combat.3"):
        assert _squash(loc.get(key))[:12] in printed, key


def test_a_box_the_seam_leaves_no_room_beside_keeps_its_text_whole(project):
    """A life-track cell the seam's band covers most of (a game of 50 or 99 life points): its number
    stays whole in the cell, across the seam, rather than squeezed into the sliver beside the band
    ("2" over "3"); a box with room beside the band is cut to that side."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from ppgen.draw.mat import MatPainter, mm
    from ppgen.read.styles import mat_style

    painter = MatPainter(Canvas(io.BytesIO()), project, "en", mat_style(project), None, None, seam=("x", mm(100)))
    cell = (mm(95), 0.0, mm(7), mm(9))  # the band (97.5–102.5 mm) covers all but 2.5 mm of it
    assert painter.clear(cell) == cell
    zone = (mm(60), 0.0, mm(60), mm(20))
    assert painter.clear(zone) == (mm(60), 0.0, mm(37.5), mm(20))  # the larger side, clear of the band


def _render(pdf: bytes, page: int = 0, dpi: int = 300):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    return doc[page].render(scale=dpi / 72).to_pil().convert("L")


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
def test_zones_and_die_spots_measure_their_sizes_on_the_rendered_sheets(project, paper):
    """Pixel analysis at 300 dpi: the distance between a zone's (or spot's) outline strokes, across
    and along, is the size the design states (±0.3 mm; a spot's heavier outline ±0.35 mm) — at least 67 × 92 mm, d6 19, d20 24, d12 22 mm."""
    mats = _mats(project, "en", paper)
    px = 300 / 25.4
    measured = {}
    images = {}
    for sheet, z in mats.on_sheets():
        if z.kind not in ("card", *SPOTS):
            continue
        img = images.setdefault(sheet, _render(mats.pdf, sheet))
        page_h = img.size[1] / px
        frac = 0.15 if z.kind == "card" else 0.5  # a card zone: a row clear of its centred label
        cy = round((page_h - (z.y + z.h * frac)) * px)
        cx = round((z.x + (z.w * 0.5 if z.kind == "card" else z.w * 0.2)) * px)  # a spot: clear of the die inside
        out = 1.5 if z.kind == "card" else 0.5  # (a d6 spot's label stands 1 mm beside it)
        row = [img.getpixel((x, cy)) for x in range(round((z.x - out) * px), round((z.x + z.w + out) * px))]
        col = [img.getpixel((cx, y)) for y in range(round((page_h - z.y - z.h - out) * px), round((page_h - z.y + out) * px))]
        xs, ys = _dark_runs(row), _dark_runs(col)
        assert len(xs) >= 2 and len(ys) >= 2, z
        measured[z.name] = ((xs[-1] - xs[0]) / px, (ys[-1] - ys[0]) / px)
        if z.kind == "d6":  # a rounded square: its full width through the middle, its full height off it
            assert abs(measured[z.name][0] - z.w) <= 0.35 and abs(measured[z.name][1] - z.h) <= 0.35, (z.name, measured[z.name])
        elif z.kind == "card":
            assert abs(measured[z.name][0] - z.w) <= 0.3 and abs(measured[z.name][1] - z.h) <= 0.3, (z.name, measured[z.name])
            assert measured[z.name][0] >= 67 - 0.3 and measured[z.name][1] >= 92 - 0.3
        else:  # a circle: its diameter through the centre (the die's outline lies inside it)
            assert abs(measured[z.name][0] - z.w) <= 0.35, (z.name, measured[z.name])
    kinds = {z.kind for _, z in mats.on_sheets() if z.name in measured}
    assert kinds == {"card", "d6", "d20", "d12"}
    assert sum(1 for _, z in mats.on_sheets() if z.kind == "card" and z.name in measured) >= 7


@pytest.mark.parametrize("lang", LANGS)
def test_the_bonus_and_wounds_labels_stand_clear_beside_their_spots(project, lang):
    """Read back from the PDF (each character's box): beside every unit zone's pair of d6 spots,
    "Bonus" ends and "Wounds" starts SPOT_LABEL_GAP (1 mm) from its spot's outline, level with it —
    on no spot's outline or inside it (the wounds label started inside the red spot)."""
    import pypdfium2 as pdfium

    from ppgen.draw.mat import SPOT_LABEL_GAP

    mats = _mats(project, lang, "a4")
    loc = project.locale(lang)
    doc = pdfium.PdfDocument(mats.pdf)
    spots: dict[int, list] = {}
    for sheet, z in mats.on_sheets():
        if z.kind == "d6":
            spots.setdefault(sheet, []).append(z)
    gaps = {"bonus": [], "wounds": []}
    for sheet, zones in spots.items():
        page = doc[sheet].get_textpage()
        text = page.get_text_range(0, page.count_chars())
        for which in gaps:
            word = loc.get(f"mat.{which}")
            at = text.find(word)
            while at >= 0:
                boxes = [page.get_charbox(k) for k in range(at, at + len(word)) if not text[k].isspace()]
                left, right = min(b[0] for b in boxes) / MM, max(b[2] for b in boxes) / MM
                middle = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2 / MM
                # its spot: level with it, the nearest on its side (bonus: to its right; wounds: to its left),
                # within a spot's width (the word elsewhere, or a spot cut by the seam, is not one of these)
                level = [z.x - right if which == "bonus" else left - (z.x + z.w) for z in zones if z.y < middle < z.y + z.h]
                near = [g for g in level if -SPOTS["d6"] < g < SPOTS["d6"]]
                if near:
                    gaps[which].append(min(near, key=abs))
                at = text.find(word, at + 1)
    assert len(gaps["bonus"]) >= 3 and len(gaps["wounds"]) >= 3, gaps  # the spots the seam cuts are left out
    for which, found in gaps.items():  # the glyphs' own side bearings leave a few tenths of a millimetre more
        assert all(SPOT_LABEL_GAP - 0.05 <= g <= SPOT_LABEL_GAP + 0.6 for g in found), (which, found)


def test_mat_prints_the_energy_schedule_starting_life_and_life_track_from_the_rules(project, game_copy):
    import ppgen

    text = _squash(_text(_mats(project, "en", "a4").pdf))
    assert _squash("Turn 1 2 3 4 5 6 7 8+") in text
    assert _squash("Max energy 6 6 7 8 9 10 11 12") in text
    assert _squash("start at 20") in text
    assert _squash(" ".join(str(n) for n in range(1, 21)) + " 1 Draw Phase") in text  # the life track, then the turn track
    cards = (game_copy / "cards.yaml").read_text(encoding="utf-8")
    cards = cards.replace("energy_start: 6", "energy_start: 4").replace("energy_growth_turn: 3", "energy_growth_turn: 2")
    cards = cards.replace("energy_max: 12", "energy_max: 8").replace("starting_life: 20", "starting_life: 25")
    (game_copy / "cards.yaml").write_text(cards, encoding="utf-8")
    changed = ppgen.load(game_copy)
    mats = _mats(changed, "en", "a4")
    text = _squash(_text(mats.pdf))
    assert _squash("Turn 1 2 3 4 5+") in text and _squash("Max energy 4 5 6 7 8") in text
    assert _squash("start at 25") in text
    assert _squash(" ".join(str(n) for n in range(1, 26)) + " 1 Draw Phase") in text


@pytest.mark.parametrize("lang", LANGS)
def test_mat_words_are_localized(project, lang):
    text = _squash(_text(_mats(project, lang, "letter").pdf))
    loc = project.locale(lang)
    for key in ("mat.title", "mat.unit", "mat.deck", "mat.graveyard", "mat.terrain", "mat.doctrine-tactic", "mat.face-down",
                "mat.life", "mat.energy", "mat.life-track", "rules.fighting.heading", "rules.phases.1", "rules.phases.6",
                "rules.turn.first-turn"):
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
    mats = _mats(ppgen.load(game_copy), "zh", "a4", report)
    assert [(w.code, w.lang, w.subject) for w in report.warnings] == [("fallback", "zh", "mat.graveyard")]
    assert "Graveyard" in _text(mats.pdf)


def test_a_mat_that_does_not_fit_the_paper_is_refused(game_copy):
    import ppgen
    from ppgen.errors import UsageError

    path = game_copy / "templates" / "mat-style.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("unit_slots: 3", "unit_slots: 6"), encoding="utf-8")
    changed = ppgen.load(game_copy)
    with pytest.raises(UsageError, match=r"does not fit one sheet of Letter .* nor two joined ones.*--mat large"):
        _mats(changed, "en", "letter")
    with pytest.raises(UsageError, match=r"--mat large: the player mat .* does not fit one Tabloid sheet"):
        _mats(changed, "en", "letter", mat="large")


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", LANGS)
def test_score_sheet_tracks_each_players_energy_life_and_bonuses_per_turn(project, lang, paper, tmp_path):
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
    loc = project.locale(lang)
    # the header: each player, then their energy, life and bonus columns
    columns = [loc.get(k) for k in ("sheet.energy", "sheet.life", "sheet.bonuses")]
    for n in (1, 2):
        at = lines.index(loc.format("sheet.player", n=n), lines.index(loc.get("mat.turn")))
        assert lines[at + 1: at + 4] == columns, (lang, lines[at: at + 4])
    # the Start row: both players' starting life; then a row per turn: its number and each player's energy maximum
    start = lines.index(loc.get("sheet.start"))
    assert lines[start + 1: start + 3] == [str(rules.starting_life)] * 2
    rows = []
    k = start + 3
    while k + 2 < len(lines) and lines[k] == str(len(rows) + 1) and lines[k + 1].isdigit():
        rows.append((int(lines[k]), int(lines[k + 1]), int(lines[k + 2])))
        k += 3
    assert len(rows) >= 20
    assert all(a == b == rules.energy_max_on(turn) for turn, a, b in rows), rows
    assert [a for _, a, _ in rows[:8]] == [6, 6, 7, 8, 9, 10, 11, 12]
    text = _squash(page.extract_text())
    for key in ("sheet.title", "sheet.winner", "rules.turn.first-turn"):
        assert _squash(loc.get(key)) in text, key
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
