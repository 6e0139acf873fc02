"""Imposed sheets as PDFs, read back: page boxes, forms, fonts, and pixels of test faces
whose colours the test controls."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from PIL import ImageDraw, ImageOps

from pdftools import MM, colours, fonts, form_key, placements, px_box, reader, render
from ppgen.impose.geometry import Rect
from ppgen.impose.layout import behind, plan_sheets
from ppgen.impose.sheets import SheetText, draw_pages
from ppgen.units import CARD_SIZES, PAPERS
from ppgen.write.pdf import Document

RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)
DPI = 100


@dataclass(frozen=True)
class Solid:
    """A test face: its whole box in one colour."""

    key: str
    rgb: tuple
    size: tuple

    def draw(self, c) -> None:
        c.setFillColorRGB(*(v / 255 for v in self.rgb))
        c.rect(0, 0, self.size[0], self.size[1], stroke=0, fill=1)


def sheet_pdf(project, layout, n_items: int, front_rgb=RED, back_rgb=BLUE, distinct: int = 1) -> bytes:
    """A PDF of `n_items` solid cards; `distinct` different front drawings, cycled."""
    w = layout.card.width * MM + 2 * layout.bleed * MM
    h = layout.card.height * MM + 2 * layout.bleed * MM
    fronts = [Solid(f"front-{i % distinct}", front_rgb, (w, h)) for i in range(n_items)]
    reach = layout.back_reach * MM  # backs without bleed spread past the cards' edge: drawn that much larger
    back = Solid("back", back_rgb, (w + 2 * reach, h + 2 * reach))
    chain = project.fonts.chain("en", "body")
    doc = Document(chain.primary, "test")
    draw_pages(doc, layout.pages(n_items), fronts, back, (w, h), SheetText(chain, "Print at 100 %", "Fold here"))
    return doc.data()


# ── page sizes, boxes, forms ─────────────────────────────────────────────────
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_have_the_paper_size_and_trim_and_bleed_boxes(project, paper):
    layout = plan_sheets(PAPERS[paper], CARD_SIZES["poker"], bleed=1)
    pdf = reader(sheet_pdf(project, layout, 12))
    assert len(pdf.pages) == 4
    W, H = PAPERS[paper].size
    for page, side in zip(pdf.pages, [s for _ in range(2) for s in layout.sides]):
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, W, H], abs=0.01)
        assert [float(v) for v in page.cropbox] == pytest.approx([0, 0, W, H], abs=0.01)  # viewers show the whole sheet
        assert [float(v) for v in page.trimbox] == pytest.approx(list(side.trim_box.box()), abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx(list(side.bleed_box.box()), abs=0.01)
        trim, bleed = page.trimbox, page.bleedbox
        assert bleed.left < trim.left and bleed.top > trim.top


def test_each_distinct_face_is_drawn_once_and_placed_for_every_copy(project):
    layout = plan_sheets(PAPERS["a4"], CARD_SIZES["poker"])
    pdf = reader(sheet_pdf(project, layout, 20, distinct=3))
    names = [p.form for page in pdf.pages for p in placements(page)]
    assert len(names) == 40  # 20 fronts + 20 backs
    assert len(set(names)) == 4  # 3 fronts + 1 back
    xobjects = set()
    for page in pdf.pages:
        xobjects |= {form_key(k) for k in page["/Resources"]["/XObject"]}
    assert xobjects == set(names)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_placed_backs_mirror_their_fronts(project, duplex):
    """Read the positions back from the content streams: front item i on page 2k+1, its back on 2k+2."""
    layout = plan_sheets(PAPERS["letter"], CARD_SIZES["poker"], duplex=duplex)
    n = 11  # a full sheet and a sheet with 2 cards
    pdf = reader(sheet_pdf(project, layout, n, distinct=n))
    W, H = PAPERS["letter"].size
    w, h = 63 * MM, 88 * MM
    reach = layout.back_reach * MM  # a back's drawing starts that far before its trim
    assert reach > 0
    for sheet in range(2):
        fronts = placements(pdf.pages[2 * sheet])
        backs = placements(pdf.pages[2 * sheet + 1])
        assert len(fronts) == len(backs) == (9 if sheet == 0 else 2)
        assert {b.form for b in backs} == {"back"}
        for f, b in zip(fronts, backs):
            expected = (W - f.x - w, f.y) if duplex == "long" else (f.x, H - f.y - h)
            assert (b.x + reach, b.y + reach) == pytest.approx(expected, abs=0.01)


# ── pixels ───────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("paper,bleed", [("a4", 0), ("letter", 0), ("a4", 3)])
def test_crop_marks_never_cross_a_card(project, paper, bleed):
    """Inside every card only the card's colour; marks only outside, at the cut lines."""
    dpi = 200
    layout = plan_sheets(PAPERS[paper], CARD_SIZES["poker"], bleed=bleed)
    pdf = sheet_pdf(project, layout, layout.per_page)
    image = render(pdf, 0, dpi)
    side = layout.sides[0]
    H = side.height
    for slot in side.slots:
        assert colours(image, px_box(slot.bleed_box, H, dpi, inset_px=1)) == {RED}
    # a moat of blank paper half a millimetre wide all round the cards: no mark reaches them
    grid = side.bleed_box
    moat = [grid.inset(-0.5 * MM), grid]
    outer, inner = (px_box(r, H, dpi) for r in moat)
    for strip in ((outer[0], outer[1], outer[2], inner[1] - 2), (outer[0], inner[3] + 2, outer[2], outer[3]),
                  (outer[0], outer[1], inner[0] - 2, outer[3]), (inner[2] + 2, outer[1], outer[2], outer[3])):
        assert colours(image, strip) == {WHITE}, strip
    # blank the cards out: what is left is marks and the note, never card colour
    rest = image.copy()
    draw = ImageDraw.Draw(rest)
    for slot in side.slots:
        draw.rectangle(px_box(slot.bleed_box, H, dpi, inset_px=-1), fill=WHITE)
    left = colours(rest, (0, 0, rest.width, rest.height))
    assert RED not in left and any(c != WHITE for c in left)
    # every mark is visible: a dark pixel on it, half way along
    k = dpi / 72
    for m in side.marks:
        x, y = (m.x0 + m.x1) / 2 * k, (H - (m.y0 + m.y1) / 2) * k
        patch = image.crop((int(x) - 1, int(y) - 1, int(x) + 2, int(y) + 2)).convert("L")
        assert patch.getextrema()[0] < 160, (m, "crop mark not drawn")


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_turning_the_sheet_puts_each_back_behind_its_front(project, duplex):
    """Render the last sheet (2 cards), flip the back image as the printer turns the paper,
    and compare: blue exactly where the front is red."""
    layout = plan_sheets(PAPERS["a4"], CARD_SIZES["poker"], duplex=duplex)
    pdf = sheet_pdf(project, layout, 11)
    front, back = render(pdf, 2, DPI), render(pdf, 3, DPI)
    turned = ImageOps.mirror(back) if duplex == "long" else ImageOps.flip(back)
    side = layout.sides[0]
    spread = round(layout.back_reach * DPI / 25.4) + 1  # a back goes on this far into an empty slot beside it
    for slot in side.slots:
        box = px_box(slot.trim_box, side.height, DPI, inset_px=2)
        if slot.item < 2:
            assert colours(front, box) == {RED} and colours(turned, box) == {BLUE}
        else:
            inner = px_box(slot.trim_box, side.height, DPI, inset_px=2 + spread)
            assert colours(front, box) == {WHITE} and colours(turned, inner) == {WHITE}


def test_back_offset_moves_the_backs_and_nothing_on_the_fronts(project):
    base = plan_sheets(PAPERS["a4"], CARD_SIZES["poker"])
    moved = plan_sheets(PAPERS["a4"], CARD_SIZES["poker"], back_offset=(2.0, -1.0))
    a, b = reader(sheet_pdf(project, base, 9)), reader(sheet_pdf(project, moved, 9))
    assert placements(a.pages[0]) == placements(b.pages[0])
    for p, q in zip(placements(a.pages[1]), placements(b.pages[1])):
        assert (q.x - p.x, q.y - p.y) == pytest.approx((2 * MM, -1 * MM), abs=0.01)
    front_a, front_b = render(sheet_pdf(project, base, 9), 0, 50), render(sheet_pdf(project, moved, 9), 0, 50)
    assert front_a.tobytes() == front_b.tobytes()


def test_foldover_sheet_pixels(project):
    """Fronts left of the fold, backs right of it, each back the mirror image position of its front."""
    layout = plan_sheets(PAPERS["a4"], CARD_SIZES["poker"], layout="foldover")
    pdf = sheet_pdf(project, layout, 4)
    assert len(reader(pdf).pages) == 1
    image = render(pdf, 0, DPI)
    folded = ImageOps.mirror(image)  # folding on the vertical middle line
    side = layout.sides[0]
    for slot in side.slots:
        if slot.face == "front":
            box = px_box(slot.trim_box, side.height, DPI, inset_px=2)
            assert colours(image, box) == {RED} and colours(folded, box) == {BLUE}
    # the fold line is drawn, between the halves, outside every card
    k = DPI / 72
    x = int(side.width / 2 * k)
    column = image.crop((x - 1, 0, x + 2, image.height)).convert("L")
    assert column.getextrema()[0] < 200


# ── determinism and fonts ────────────────────────────────────────────────────
def test_same_input_same_bytes(project):
    layout = plan_sheets(PAPERS["letter"], CARD_SIZES["bridge"], bleed=2)
    assert sheet_pdf(project, layout, 30, distinct=5) == sheet_pdf(project, layout, 30, distinct=5)


def test_pdf_text_is_encoded_as_reportlabs_codec_does(project):
    """write/pdf.py encodes ASCII text directly instead of through ReportLab's PDFDocEncoding
    codec: the same bytes for every character the codec maps, the codec's error for the eight
    it does not (U+0018–U+001F), and the codec itself for anything else."""
    from reportlab.pdfbase import pdfdoc

    Document(project.fonts.chain("en", "body").primary, "t")  # a document made: the encoder in place
    fast = pdfdoc.pdfdocEnc

    def codec(x):
        return x.encode("extpdfdoc")

    texts = [chr(i) for i in range(128)] + ["/Resources << /Font 3 0 R >>", "0 0 m 12.5 3 l S\n", "é ˘ “q”", "a\x1fb", ""]
    for text in texts:
        try:
            expected = codec(text)
        except UnicodeError:
            with pytest.raises(UnicodeError):
                fast(text)
        else:
            assert fast(text) == expected, repr(text)
    assert fast(b"\x80 bytes") == b"\x80 bytes"


def test_a_forms_drawing_digest_is_the_same_whenever_it_is_asked_for(project):
    """Document.drawing: equal for the same paths and colours in two documents, asked for at once
    or after pages of another size began (the canvas's preamble changes with them); None for a
    form that names a font; an empty form has one too."""
    font = project.fonts.chain("en", "body").primary

    def square(c):
        c.setFillColor("#aa3300")
        c.rect(1, 2, 30, 40, stroke=0, fill=1)

    def words(c):
        c.setFont(font, 9)
        c.drawString(2, 2, "Rome")

    first, second = Document(font, "a"), Document(font, "b")
    for doc in (first, second):
        doc.define_form("square", 50, 60, square)
        doc.define_form("words", 50, 60, words)
        doc.define_form("empty", 50, 60, lambda c: None)
    asked_at_once = {key: first.drawing(key) for key in ("square", "words", "empty")}
    second.begin_page(400, 300)
    second.place_form("square", (1, 0, 0, 1, 0, 0))
    second.end_page()
    assert {key: second.drawing(key) for key in ("square", "words", "empty")} == asked_at_once
    assert asked_at_once["words"] is None and asked_at_once["square"] and asked_at_once["empty"]
    assert asked_at_once["square"] != asked_at_once["empty"]


def test_sheet_fonts_are_all_embedded(project):
    layout = plan_sheets(PAPERS["a4"], CARD_SIZES["poker"])
    found = fonts(sheet_pdf(project, layout, 3))
    assert found and all(found.values()), found
    assert not any("Helvetica" in name for name in found)


@dataclass(frozen=True)
class Halves:
    """A test face whose left half and right half differ, to see which way up it was drawn."""

    key: str
    left: tuple
    right: tuple
    size: tuple

    def draw(self, c) -> None:
        w, h = self.size
        for x, rgb in ((0, self.left), (w / 2, self.right)):
            c.setFillColorRGB(*(v / 255 for v in rgb))
            c.rect(x, 0, w / 2, h, stroke=0, fill=1)


@pytest.mark.parametrize("bleed,duplex", [(0, "long"), (0, "short"), (3, "long"), (3, "short")])
def test_turned_over_cards_show_their_back_the_right_way_round(project, bleed, duplex):
    """Front: left half red, right half green. Back: left half blue, right half yellow.
    A card turned over like a book page shows its back's right half behind its front's left half —
    upright cards and sideways ones (bleed 3 turns poker cards on A4), either flip edge."""
    layout = plan_sheets(PAPERS["a4"], CARD_SIZES["poker"], bleed=bleed, duplex=duplex)
    assert layout.turned == (bleed == 3)
    w, h = (63 + 2 * bleed) * MM, (88 + 2 * bleed) * MM
    n = layout.per_page
    chain = project.fonts.chain("en", "body")
    doc = Document(chain.primary, "test")
    fronts = [Halves("front", RED, (0, 160, 0), (w, h))] * n
    reach = layout.back_reach * MM  # backs without bleed are drawn larger, past the cards' edge
    back = Halves("back", BLUE, (255, 255, 0), (w + 2 * reach, h + 2 * reach))
    draw_pages(doc, layout.pages(n), fronts, back, (w, h), SheetText(chain, "Print at 100 %"))
    pdf = doc.data()
    front, back = render(pdf, 0, DPI), render(pdf, 1, DPI)
    turned = ImageOps.mirror(back) if duplex == "long" else ImageOps.flip(back)
    side = layout.sides[0]
    for slot in side.slots:
        a, b, c, d, e, f = slot.matrix()
        corners = [(a * x + c * y + e, b * x + d * y + f) for x in (0, w / 2) for y in (0, h)]  # the card's left half
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        left_half = Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        box = px_box(left_half, side.height, DPI, inset_px=2)
        assert colours(front, box) == {RED}
        assert colours(turned, box) == {(255, 255, 0)}


# ── the printable area: real card sheets, every size, bleed and gutter ─────────
PRINTABLE_COMBOS = [(paper, card, bleed, gutter) for paper in ("a4", "letter") for card in ("poker", "bridge", "mini", "tarot")
                    for bleed in (0, 3) for gutter in (0, 2)]
_printable_sheets: dict = {}


def printable_sheet(project, combo):
    """One sheet (front and back page) of the real card part for `combo`, drawn once per session."""
    if combo not in _printable_sheets:
        from ppgen.write.build import BuildOptions
        from ppgen.write.parts import cards_part
        from ppgen.write.report import BuildReport

        paper, card, bleed, gutter = combo
        options = BuildOptions.resolve(project, paper=paper, card_size=card, bleed=bleed, gutter=gutter, parts="cards")
        layout = options.sheet_layout
        run = [project.game.card("leonidas-king-of-sparta")] * layout.per_page
        _printable_sheets[combo] = (layout, cards_part(project, options, "en", run, BuildReport()).data)
    return _printable_sheets[combo]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_back_page_prints_past_the_cards_edge_so_a_sheet_fed_off_shows_no_paper(project, paper):
    """Rendered: on a duplex back page without bleed the backs go on past the grid's border —
    a band around it, as wide as the printable area allows up to BACK_REACH, is the back's colour
    where the front page is bare paper — and stop there: beyond it the paper stays white. So a
    sheet that goes through the printer a millimetre or two off when turned over still shows the
    back, not white, along the edges of the outer cards."""
    from ppgen.impose.layout import BACK_REACH

    layout = plan_sheets(PAPERS[paper], CARD_SIZES["poker"])
    pdf = sheet_pdf(project, layout, layout.per_page)
    front_side, back_side = layout.sides
    front, back = render(pdf, 0, DPI), render(pdf, 1, DPI)
    H = back_side.height
    grid = back_side.slots[0].bleed_box
    for slot in back_side.slots:
        grid = grid.union(slot.bleed_box)
    edge = 5.0 * MM
    room = min(BACK_REACH * MM, grid.x - edge, back_side.width - edge - grid.x1, grid.y - edge, H - edge - grid.y1)
    assert room >= 2.5 * MM  # A4 keeps the full 3 mm, Letter 2.7 mm above and below the grid
    reach = min(BACK_REACH * MM, room)
    for band in (Rect(grid.x - reach, grid.y, reach, grid.h), Rect(grid.x1, grid.y, reach, grid.h),
                 Rect(grid.x, grid.y - reach, grid.w, reach), Rect(grid.x, grid.y1, grid.w, reach)):
        box = px_box(band, H, DPI, inset_px=1)
        assert colours(back, box) == {BLUE}, band
        front_box = px_box(behind(band, back_side.width, H, layout.duplex), H, DPI, inset_px=1)
        assert WHITE in colours(front, front_box)  # the fronts are not spread: there it is paper (and crop marks)
    beyond = BACK_REACH * MM + 1.5
    for band in (Rect(grid.x - beyond - 2, grid.y, 2, grid.h), Rect(grid.x1 + beyond, grid.y, 2, grid.h)):
        assert colours(back, px_box(band, H, DPI)) == {WHITE}, band


@pytest.mark.parametrize("combo", PRINTABLE_COMBOS, ids=["-".join(map(str, c)) for c in PRINTABLE_COMBOS])
def test_no_ink_within_5_mm_of_the_paper_edge(project, combo):
    """Rendered: the outer 5 mm of every card sheet, front and back, is blank paper (cards,
    bleed, crop marks and the print note all lie in the printable area)."""
    from PIL import ImageChops

    layout, pdf = printable_sheet(project, combo)
    dpi = 72
    band = int(5.0 * dpi / 25.4)  # pixels lying wholly within 5 mm of the edge
    for index in (0, 1):
        image = render(pdf, index, dpi).convert("L")
        w, h = image.size
        for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
            ink = ImageChops.invert(image.crop(box)).point(lambda v: 255 if v > 3 else 0).getbbox()
            assert ink is None, (combo, index, box, ink)
        assert image.getextrema()[0] < 100  # and the page is not blank


@pytest.mark.parametrize("combo", PRINTABLE_COMBOS, ids=["-".join(map(str, c)) for c in PRINTABLE_COMBOS])
def test_every_cut_line_keeps_a_2_mm_mark_inside_the_printable_area(project, combo):
    """Read from the PDF: at both ends of every cut line, a stroked mark at least 2 mm long lies
    between the cards and the printable area's edge, 5 mm from the paper edge."""
    from pdftools import page_lines
    from ppgen.impose.marks import cut_lines

    layout, pdf = printable_sheet(project, combo)
    page = reader(pdf).pages[0]
    side = layout.sides[0]
    W, H, edge = side.width, side.height, 5.0 * MM
    lines = page_lines(page)
    cards = side.bleed_box

    def inside(a, b, lo, hi):  # length of [a, b] inside [lo, hi]
        a, b = sorted((a, b))
        return max(0.0, min(b, hi) - max(a, lo))

    xs, ys = cut_lines([s.trim_box for s in side.slots])
    for x in xs:
        marks = [l for l in lines if abs(l[0] - x) < 0.01 and abs(l[2] - x) < 0.01]
        above = [inside(l[1], l[3], cards.y1, H - edge) for l in marks if min(l[1], l[3]) >= cards.y1]
        below = [inside(l[1], l[3], edge, cards.y) for l in marks if max(l[1], l[3]) <= cards.y]
        assert above and below and min(max(above), max(below)) >= 2 * MM - 0.01, (combo, x / MM, above, below)
    for y in ys:
        marks = [l for l in lines if abs(l[1] - y) < 0.01 and abs(l[3] - y) < 0.01]
        left = [inside(l[0], l[2], edge, cards.x) for l in marks if max(l[0], l[2]) <= cards.x]
        right = [inside(l[0], l[2], cards.x1, W - edge) for l in marks if min(l[0], l[2]) >= cards.x1]
        assert left and right and min(max(left), max(right)) >= 2 * MM - 0.01, (combo, y / MM, left, right)
