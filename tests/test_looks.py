"""Cards without pictures that look like a game: an illustration per unit type, Doctrine,
Terrain and Tactic, a frame and background per kind of card; all of it from templates/card.yaml,
read back as rendered pixels."""
from __future__ import annotations

import pytest

from pdftools import render

DPI = 100
K = DPI / 25.4  # px per mm
EMBLEM = (16.5, 46, 30, 26)  # the unit illustration's box (templates/card.yaml `emblem`), mm


def front_image(project, card, lang="en", bleed=0.0):
    from ppgen.draw.faces import CardGeometry
    from ppgen.write.faces import card_fronts, faces_pdf

    geometry = CardGeometry.named("poker", bleed)
    return render(faces_pdf(project, card_fronts(project, [card], lang, geometry), geometry, lang), 0, DPI)


def box_pixels(im, box, bleed=0.0):
    x, y, w, h = box
    top = im.height - (y + h + bleed) * K
    return im.crop((round((x + bleed) * K), round(top), round((x + w + bleed) * K), round(top + h * K)))


def signature(im, box, accent="#E6C36A"):
    """The illustration as a silhouette: the pixels of the faction's accent colour (its fill)."""
    target = tuple(int(accent[i:i + 2], 16) for i in (1, 3, 5))
    raw = box_pixels(im, box).convert("RGB").tobytes()
    return bytes(255 if sum(abs(raw[i + j] - target[j]) for j in range(3)) < 60 else 0 for i in range(0, len(raw), 3))


def test_every_motif_the_template_names_can_be_drawn():
    from ppgen.draw.illustrations import ALL_MOTIFS
    from ppgen.read.templates import MOTIFS

    assert set(MOTIFS) == set(ALL_MOTIFS)


def test_units_of_different_types_look_different(project):
    """One card of each unit type of Persia and Egypt: every silhouette in the art window differs;
    two cards of one type share theirs (and its form)."""
    seen = {}
    for faction in ("persia", "egypt"):
        for card in project.game.cards_of(faction):
            if card.is_unit and not card.commander:
                seen.setdefault((faction, card.type), card)
    shapes = {}
    for (faction, kind), card in seen.items():
        accent = project.game.factions[faction].accent
        shapes.setdefault(faction, {})[kind] = signature(front_image(project, card), EMBLEM, accent)
    for faction, by_type in shapes.items():
        assert len(by_type) >= 5
        assert all(sum(s) > 255 * 500 for s in by_type.values())  # a shape of the accent colour is there
        assert len(set(by_type.values())) == len(by_type), faction
    a, b = [c for c in project.game.cards_of("rome") if c.type == "infantry"][:2]
    assert signature(front_image(project, a), EMBLEM) == signature(front_image(project, b), EMBLEM)


def test_kinds_of_card_are_told_apart_by_background_frame_and_motif(project):
    """Commander, unit, Doctrine, Terrain and Tactic of one faction: the background in the margin
    (2 mm from the left edge) is a different colour on each."""
    rome = {c.id: c for c in project.game.cards_of("rome")}
    picks = [rome["hastati-line"], rome["trajan-imperial-vanguard"], rome["testudo"], rome["fortified-camp"], rome["pilum-volley"]]
    margins = []
    for card in picks:
        im = front_image(project, card)
        strip = box_pixels(im, (0.5, 20, 1.5, 40))
        margins.append(tuple(sorted(strip.getcolors(10_000))[-1][1]))  # the strip's commonest colour: the background
    assert len(set(margins)) == 5, margins
    commander = front_image(project, rome["trajan-imperial-vanguard"])
    unit = front_image(project, rome["hastati-line"])
    gold_header = box_pixels(commander, (20, 76, 10, 1)).getpixel((2, 1))
    plain_header = box_pixels(unit, (20, 76, 10, 1)).getpixel((2, 1))
    assert gold_header != plain_header and gold_header[2] < plain_header[2]  # the Commander's plaque is gold


def test_a_terrain_card_keeps_its_factions_colour(project):
    """Sorting a deck by colour: each faction's Terrain Doctrine has, in the margin, a background
    nearer its own faction's unit cards than any other faction's (mixed with the terrain colour,
    but not so far that Carthage's turned olive like Dacia's)."""
    def background(card):
        strip = box_pixels(front_image(project, card), (0.5, 20, 1.5, 40))
        return tuple(sorted(strip.getcolors(10_000))[-1][1])

    units, terrains = {}, {}
    for faction in project.game.factions:
        cards = project.game.cards_of(faction)
        unit = next(c for c in cards if c.kind == "unit" and not c.commander)
        terrain = next((c for c in cards if c.terrain), None)
        units[faction] = background(unit)
        if terrain is not None:
            terrains[faction] = background(terrain)
    assert len(terrains) >= 5

    def distance(a, b):
        return sum((x - y) ** 2 for x, y in zip(a, b))

    nearest = {f: min(units, key=lambda u: distance(colour, units[u])) for f, colour in terrains.items()}
    assert nearest == {f: f for f in terrains}, (nearest, terrains, units)


def test_nothing_but_background_within_the_safe_zone(project, game_copy):
    """With the background switched off, every kind of front is white within 3.2 mm of the trim
    (frames, small print and badges stay inside) on the poker card the template is drawn for.
    (Smaller sizes scale the margins down with the boxes: issue 14's safe-margin work.)"""
    import ppgen
    from ppgen.draw.faces import CardGeometry
    from ppgen.write.faces import card_fronts, faces_pdf

    template = game_copy / "templates" / "card.yaml"
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace("  background: {fill: faction}", "  background: {fill: faction, show: false}"), encoding="utf-8")
    copy = ppgen.load(game_copy)
    picks = [copy.game.card(i) for i in ("hastati-line", "trajan-imperial-vanguard", "testudo", "fortified-camp", "pilum-volley")]
    geometry = CardGeometry.named("poker")
    pdf = faces_pdf(copy, card_fronts(copy, picks, "en", geometry), geometry, "en")
    for page in range(len(picks)):
        im = render(pdf, page, 300)
        m = int(3.2 * 300 / 25.4) - 1
        w, h = im.size
        for band in ((0, 0, w, m), (0, h - m, w, h), (0, 0, m, h), (w - m, 0, w, h)):
            colours = im.crop(band).getcolors(10)
            assert colours is not None and {c for _, c in colours} == {(255, 255, 255)}, (picks[page].id, band, colours)


def test_illustrations_and_frames_can_be_switched_off_or_replaced(game_copy):
    """`illustrations:` infantry → emblem puts the faction's emblem back; none leaves the glow;
    a frame style none draws no frame."""
    import ppgen

    template = game_copy / "templates" / "card.yaml"
    text = template.read_text(encoding="utf-8")
    project = ppgen.load(game_copy)
    card = project.game.card("hastati-line")
    shield = signature(front_image(project, card), EMBLEM)
    template.write_text(text.replace("  infantry: shield", "  infantry: emblem"), encoding="utf-8")
    emblem = signature(front_image(ppgen.load(game_copy), card), EMBLEM)
    template.write_text(text.replace("  infantry: shield", "  infantry: none"), encoding="utf-8")
    nothing = front_image(ppgen.load(game_copy), card)
    assert len({shield, emblem, signature(nothing, EMBLEM)}) == 3
    assert max(box_pixels(nothing, EMBLEM).convert("L").getextrema()) < 150  # the glow alone: no accent-coloured shape
    template.write_text(text.replace("  unit:      {style: single,", "  unit:      {style: none,"), encoding="utf-8")
    bare = front_image(ppgen.load(game_copy), card)
    framed = front_image(project, card)
    assert box_pixels(bare, (3.3, 30, 0.3, 10)).getcolors(100) != box_pixels(framed, (3.3, 30, 0.3, 10)).getcolors(100)


@pytest.mark.parametrize("old, new, words", [
    ("  cavalry: horse", "  cavalry: hrose", "unknown motif 'hrose'; did you mean 'horse'"),
    ("  cavalry: horse", "  cavlary: horse", "unknown unit type 'cavlary' in illustrations; did you mean 'cavalry'"),
    ("  tactic:    {style: bevel,", "  tactic:    {style: bevelled,", "'style' must be one of single, double, corners, bevel, band, none"),
    ("  tactic:    {style: bevel,", "  tactics:   {style: bevel,", "unknown card kind 'tactics'; did you mean 'tactic'"),
    ("  terrain:   {style: band, colour: terrain,", "  terrain:   {style: band, colour: terrian,", "unknown colour 'terrian'"),
])
def test_template_looks_are_checked_with_positions(game_copy, old, new, words):
    from clitools import call_ppgen

    template = game_copy / "templates" / "card.yaml"
    text = template.read_text(encoding="utf-8")
    assert old in text
    template.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = call_ppgen("--root", str(game_copy), "build", "-f", "rome")
    assert result.returncode == 2 and words in result.stderr and "templates/card.yaml:" in result.stderr, result.stderr



def face_alone(project, face, geometry) -> bytes:
    """A PDF of one page: `face` alone, at its size."""
    from ppgen.write.pdf import Document

    doc = Document(project.fonts.chain("en", "body").primary, "t")
    doc.define_face(face, geometry.width, geometry.height)
    doc.begin_page(geometry.width, geometry.height)
    doc.place_form(face.key, (1, 0, 0, 1, 0, 0))
    doc.end_page()
    return doc.data()


def test_the_small_print_stands_clear_of_every_frame(project):
    """The collector code and the language, read back as glyphs, keep at least 0.2 mm above the
    frame's inner edge on a card of every kind: on a Terrain, whose band is 0.75 mm wide, the code
    stood on it (0.04 mm)."""
    import io

    import pypdfium2 as pdfium

    from ppgen.draw.card_front import frame_kind
    from ppgen.draw.faces import CardGeometry, front_face
    from ppgen.units import MM

    geometry = CardGeometry.named("poker")
    one_of_each = {}
    for card in project.game.cards:
        one_of_each.setdefault(frame_kind(card), card)
    assert set(one_of_each) == {"unit", "commander", "doctrine", "terrain", "tactic"}
    for kind, card in one_of_each.items():
        face = front_face(project, card, "en", geometry)
        fx, fy, fw, fh = face.box(face.elements["frame"])
        inner = fy + face.frame.width * MM * face.scale
        chars = pdfium.PdfDocument(io.BytesIO(face_alone(project, face, geometry)))[0].get_textpage()
        printed = chars.get_text_range()
        at = printed.index(card.code)
        bottoms = [chars.get_charbox(i)[1] for i in range(at, at + len(card.code))] + \
                  [chars.get_charbox(printed.rindex("EN") + i)[1] for i in range(2)]
        assert min(bottoms) - inner >= 0.2 * MM, (kind, card.code, round((min(bottoms) - inner) / MM, 2))


def test_a_bevelled_frames_cut_corners_run_clear_of_the_name_plate_and_the_small_print(project):
    """Rendered at 600 dpi, every Tactic (bevelled frame): along each of the four cut corners — a
    straight rule BEVEL_CUT in from the frame's corner — the pixels are the frame's colour, as on
    the frame's straight rules: the name plate does not cover part of the cut (the deeper cut ran
    under its rounded corner, leaving two stubs), the collector code and the language do not sit on it."""
    import io

    import pypdfium2 as pdfium

    from ppgen.draw.faces import CardGeometry, front_face
    from ppgen.draw.frames import BEVEL_CUT
    from ppgen.units import MM

    geometry = CardGeometry.named("poker")
    faces = [f for f in (front_face(project, c, "en", geometry) for c in project.game.cards) if f.frame.style == "bevel"]
    assert len(faces) >= 10
    k = 600 / 72  # 600 dpi
    for face in faces[:6]:
        image = pdfium.PdfDocument(io.BytesIO(face_alone(project, face, geometry)))[0].render(scale=k).to_pil().convert("RGB")
        fx, fy, fw, fh = face.box(face.elements["frame"])
        half = face.frame.width * MM * face.scale / 2
        x0, y0, x1, y1 = fx + half, fy + half, fx + fw - half, fy + fh - half  # the rule's centre line
        cut = BEVEL_CUT * MM

        def pixel(x, y):
            return image.getpixel((round(x * k), round((geometry.height - y) * k)))

        rule = pixel((x0 + x1) / 2, y0)  # the bottom rule's middle
        for cx, cy, sx, sy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
            for t in (0.2, 0.35, 0.5, 0.65, 0.8):  # along the cut, short of its two ends
                px, py = cx + sx * cut * t, cy + sy * cut * (1 - t)
                got = pixel(px, py)
                assert max(abs(a - b) for a, b in zip(got, rule)) <= 40, (face.card.id, (cx, cy), t, got, rule)
