"""Sheet geometry alone: grids, duplex mirroring, fold-over, offsets, crop marks, calibration."""
from __future__ import annotations

import itertools

import pytest

from ppgen.errors import UsageError
from ppgen.impose.calibration import calibration_sheet
from ppgen.impose.geometry import Rect
from ppgen.impose.layout import BACK_REACH, behind, plan_sheets
from ppgen.impose.marks import MARK_MIN, MARK_ROOM, cut_lines
from ppgen.units import CARD_SIZES, MM, PAPERS, PRINTABLE_MARGIN, parse_card_size, parse_offset

A4, LETTER, POKER = PAPERS["a4"], PAPERS["letter"], CARD_SIZES["poker"]


def close(a: float, b: float, tol: float = 1e-6) -> bool:
    return abs(a - b) <= tol


def same_rect(a: Rect, b: Rect, tol: float = 1e-6) -> bool:
    return all(close(p, q, tol) for p, q in zip(a.box(), b.box()))


# ── parsing what people type ─────────────────────────────────────────────────
@pytest.mark.parametrize("text,size", [("poker", (63, 88)), ("Tarot", (70, 120)), ("63x88", (63, 88)),
                                       ("63.5 × 88.9 mm", (63.5, 88.9)), ("44X63", (44, 63))])
def test_card_sizes_by_name_or_millimetres(text, size):
    card = parse_card_size(text)
    assert (card.width, card.height) == size


def test_a_named_size_typed_in_mm_keeps_its_name():
    assert parse_card_size("63x88").name == "poker"


@pytest.mark.parametrize("text,needle", [("huge", "unknown card size 'huge'"), ("5x88", "between 10 and 400"), ("63x", "unknown card size")])
def test_bad_card_sizes_say_what_is_accepted(text, needle):
    with pytest.raises(ValueError) as exc:
        parse_card_size(text)
    assert needle in str(exc.value)


def test_back_offset_parsing():
    assert parse_offset("1.5,-0.5") == (1.5, -0.5)
    assert parse_offset([2, 0]) == (2.0, 0.0)
    for bad, needle in (("1", "two numbers"), ("a,b", "number"), ("20,0", "between")):
        with pytest.raises(ValueError) as exc:
            parse_offset(bad)
        assert needle in str(exc.value)


# ── grids ────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("paper", [A4, LETTER])
def test_nine_poker_cards_per_page_at_exact_size(paper):
    layout = plan_sheets(paper, POKER)
    assert (layout.cols, layout.rows, layout.per_page) == (3, 3, 9)
    front = layout.sides[0]
    assert (front.width, front.height) == pytest.approx(paper.size)
    for slot in front.slots:
        assert close(slot.trim_box.w, 63 * MM) and close(slot.trim_box.h, 88 * MM)
        assert slot.trim_box == slot.bleed_box  # no bleed asked
    box = front.trim_box
    assert close(box.x, front.width - box.x1) and close(box.y, front.height - box.y1)  # centred
    room = (PRINTABLE_MARGIN + MARK_ROOM) * MM  # the printable margin, then room for a 2 mm crop mark
    assert box.x >= room - 1e-6 and box.y >= room - 1e-6
    # reading order: slot 0 top left, slot 2 top right, slot 3 starts the second row
    s = front.slots
    assert s[0].trim_box.x < s[1].trim_box.x < s[2].trim_box.x and close(s[0].trim_box.y, s[2].trim_box.y)
    assert s[3].trim_box.y1 <= s[0].trim_box.y + 1e-6 and close(s[3].trim_box.x, s[0].trim_box.x)


def test_bleed_moves_cards_apart_and_can_reduce_the_grid():
    layout = plan_sheets(A4, POKER, bleed=3, allow_turn=False)
    assert (layout.cols, layout.rows) == (2, 3)  # 3 × 69 mm + 2 × 7.5 mm margins > 210 mm
    slots = layout.sides[0].slots
    for slot in slots:
        assert same_rect(slot.bleed_box.inset(3 * MM), slot.trim_box)
    for a, b in itertools.combinations(slots, 2):
        assert not a.bleed_box.overlaps(b.bleed_box)
    gutter = plan_sheets(A4, POKER, bleed=3, gutter=4).sides[0].slots
    assert close(gutter[1].bleed_box.x - gutter[0].bleed_box.x1, 4 * MM)


def test_cards_lie_sideways_when_more_of_them_fit():
    layout = plan_sheets(A4, POKER, bleed=3)
    assert layout.turned and (layout.cols, layout.rows) == (2, 4) and layout.per_page == 8  # not 6
    assert "cards turned sideways" in layout.describe()
    front, back = layout.sides
    for slot in front.slots:
        assert slot.rotation == 90
        assert close(slot.trim_box.w, 88 * MM) and close(slot.trim_box.h, 63 * MM)
    assert {s.rotation for s in back.slots} == {270}
    assert {s.rotation for s in plan_sheets(A4, POKER, bleed=3, duplex="short").sides[1].slots} == {90}
    assert not plan_sheets(A4, POKER).turned  # 9 either way: upright wins the tie


def test_a_combination_that_does_not_fit_says_by_how_much():
    with pytest.raises(UsageError) as exc:
        plan_sheets(LETTER, parse_card_size("200x270"), bleed=3)
    message = str(exc.value)
    assert "200 × 270 mm cards with 3 mm bleed do not fit on Letter" in message
    assert "1 card needs 206 × 276 mm" in message and "200.9 × 264.4 mm for cards" in message
    assert "5 mm along each edge the printer cannot print, then 2.5 mm for crop marks" in message
    assert "short by 5.1 mm in width and 11.6 mm in height" in message


def test_a_card_that_fits_but_cannot_be_marked_is_refused_with_the_sizes():
    """It would fit the printable area (205.9 × 269.4 mm), but leave no room for a crop mark."""
    with pytest.raises(UsageError) as exc:
        plan_sheets(LETTER, parse_card_size("200x266"))
    message = str(exc.value)
    assert "200 × 266 mm cards fit the printable area but leave no room for crop marks on Letter" in message
    assert "1 card needs 200 × 266 mm" in message and "short by 1.6 mm in height" in message


@pytest.mark.parametrize("paper,card,bleed,gutter,before,after", [
    (A4, "bridge", 0, 0, "2 × 5 sideways", (3, 3, False)),  # sideways rows 6 mm from the edge: marks in the unprintable band
    (LETTER, "bridge", 0, 0, "3 × 3", (2, 4, True)),  # 6.2 mm above and below the grid
    (LETTER, "poker", 0, 2, "3 × 3", (2, 4, True)),  # with gutters the grid is 268 mm tall: 5.7 mm left
    (A4, "mini", 3, 0, "4 × 4", (3, 4, False)),
])
def test_a_grid_that_leaves_no_room_for_marks_gives_way_to_one_that_does(paper, card, bleed, gutter, before, after):
    layout = plan_sheets(paper, CARD_SIZES[card], bleed=bleed, gutter=gutter)
    assert (layout.cols, layout.rows, layout.turned) == after, before
    more = int(before.split()[0]) * int(before.split()[2])
    assert f"; {more} would fit, but would leave no room for crop marks outside the 5 mm border a printer cannot print" in layout.describe()
    assert plan_sheets(A4, POKER).grid_note == ""  # nothing to say where nothing gave way


def test_tarot_with_bleed_fits_letter_and_fills_it_sensibly():
    layout = plan_sheets(LETTER, CARD_SIZES["tarot"], bleed=3)
    assert layout.per_page == 4


# ── duplex ───────────────────────────────────────────────────────────────────
def land(rect: Rect, width: float, height: float, duplex: str, error=(0.0, 0.0)) -> Rect:
    """Where something drawn on the back page physically lands, in front page coordinates,
    when the printer flips on `duplex` and shifts the back by `error` (points, back page axes)."""
    return behind(rect.moved(*error), width, height, duplex)  # mirroring is its own inverse


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("paper", [A4, LETTER])
def test_each_back_lands_behind_its_front(paper, duplex):
    layout = plan_sheets(paper, POKER, bleed=2, layout="duplex", duplex=duplex)
    front, back = layout.sides
    assert (front.kind, back.kind) == ("front", "back")
    W, H = paper.size
    by_item = {s.item: s for s in back.slots}
    for slot in front.slots:
        twin = by_item[slot.item]
        assert twin.face == "back"
        assert same_rect(land(twin.trim_box, W, H, duplex), slot.trim_box)
        assert same_rect(land(twin.bleed_box, W, H, duplex), slot.bleed_box)


def test_long_edge_mirrors_columns_and_short_edge_mirrors_rows():
    long_back = plan_sheets(A4, POKER, duplex="long").sides[1].slots
    short_back = plan_sheets(A4, POKER, duplex="short").sides[1].slots
    front = plan_sheets(A4, POKER).sides[0].slots
    # item 0 (top left on the front): top right on a long-edge back, bottom left on a short-edge back
    assert same_rect(long_back[0].trim_box, front[2].trim_box)
    assert same_rect(short_back[0].trim_box, front[6].trim_box)


def test_back_offset_moves_back_pages_only():
    plain = plan_sheets(A4, POKER)
    shifted = plan_sheets(A4, POKER, back_offset=(1.5, -0.5))
    for a, b in zip(plain.sides[0].slots, shifted.sides[0].slots):
        assert a == b
    assert plain.sides[0].marks == shifted.sides[0].marks
    for a, b in zip(plain.sides[1].slots, shifted.sides[1].slots):
        assert same_rect(b.trim_box, a.trim_box.moved(1.5 * MM, -0.5 * MM))


def test_fronts_only_has_no_back_pages():
    layout = plan_sheets(A4, POKER, layout="fronts-only")
    assert [s.kind for s in layout.sides] == ["front"]
    assert layout.page_count(280) == 32


def test_pages_alternate_front_and_back_and_the_last_sheet_is_partial():
    layout = plan_sheets(A4, POKER)
    pages = layout.pages(280)
    assert len(pages) == 64 == layout.page_count(280)
    assert [p.side.kind for p in pages[:4]] == ["front", "back", "front", "back"]
    assert pages[-1].items == pages[-2].items == (279,)
    assert [item for item, _ in pages[0].placements()] == list(range(9))
    assert all(p.total == 64 for p in pages) and [p.number for p in pages] == list(range(1, 65))


def apply(m, point):
    a, b, c, d, e, f = m
    return (a * point[0] + c * point[1] + e, b * point[0] + d * point[1] + f)


def flip_point(point, width, height, flip):
    return (width - point[0], point[1]) if flip == "long" else (point[0], height - point[1])


@pytest.mark.parametrize("paper,card,bleed,layout,duplex", [
    (A4, POKER, 0, "duplex", "long"), (A4, POKER, 0, "duplex", "short"),
    (A4, POKER, 3, "duplex", "long"), (LETTER, POKER, 3, "duplex", "short"),  # cards sideways
    (A4, POKER, 0, "foldover", "long"), (A4, CARD_SIZES["mini"], 3, "foldover", "long"),  # vertical / horizontal fold
])
def test_every_back_reads_upright_behind_its_front(paper, card, bleed, layout, duplex):
    """Any point of a card's front has, right behind it, the point of the back that a player sees
    there after turning the cut card over like a book page (about its own vertical axis)."""
    plan = plan_sheets(paper, card, bleed=bleed, layout=layout, duplex=duplex)
    sides = plan.sides
    fronts = [s for side in sides for s in side.slots if s.face == "front"]
    backs = {s.item: s for side in sides for s in side.slots if s.face == "back"}
    W, H = sides[0].width, sides[0].height
    w, h = (card.width + 2 * bleed) * MM, (card.height + 2 * bleed) * MM  # a face's own drawing size
    if layout == "foldover":
        fold = sides[0].folds[0]
        flip = "long" if close(fold.x0, fold.x1) else "short"
    else:
        flip = duplex
    for f in fronts:
        b = backs[f.item]
        for u in ((0, 0), (w, 0), (0, h), (w * 0.2, h * 0.9)):
            on_front = apply(f.matrix(), u)
            seen_on_back = (b.reach + w - u[0], b.reach + u[1])  # the card turned over about its vertical axis (a spread back drawn larger)
            on_back_page = apply(b.matrix(), seen_on_back)
            if layout == "foldover":  # the back half folds over onto the front half
                landed = flip_point(on_back_page, 2 * fold.x0 if flip == "long" else W, 2 * fold.y0 if flip == "short" else H, flip)
            else:
                landed = flip_point(on_back_page, W, H, flip)
            assert landed == pytest.approx(on_front, abs=1e-6), (f.item, u)


# ── fold-over ────────────────────────────────────────────────────────────────
def test_foldover_puts_backs_mirrored_across_the_fold():
    layout = plan_sheets(A4, POKER, layout="foldover")
    (side,) = layout.sides
    assert side.kind == "foldover" and layout.per_page == 4 and not layout.paper.landscape
    (fold,) = side.folds
    assert close(fold.x0, fold.x1) and close(fold.x0, side.width / 2)  # a vertical fold down the middle
    fronts = [s for s in side.slots if s.face == "front"]
    backs = {s.item: s for s in side.slots if s.face == "back"}
    assert len(fronts) == len(backs) == 4
    for f in fronts:
        b = backs[f.item]
        assert f.bleed_box.x1 <= fold.x0 <= b.bleed_box.x  # fronts left of the fold, backs right
        assert same_rect(b.trim_box.mirrored_x(fold.x0), f.trim_box)
    for m in side.marks:  # crop marks are for the fronts, never across the fold
        assert max(m.x0, m.x1) < fold.x0


def test_foldover_with_a_horizontal_fold_mirrors_rows():
    layout = plan_sheets(A4, CARD_SIZES["mini"], layout="foldover")  # 3 × 3 on a portrait page
    (side,) = layout.sides
    (fold,) = side.folds
    assert close(fold.y0, fold.y1) and not layout.paper.landscape
    backs = {s.item: s for s in side.slots if s.face == "back"}
    for f in (s for s in side.slots if s.face == "front"):
        assert same_rect(backs[f.item].trim_box.mirrored_y(fold.y0), f.trim_box)
        assert f.bleed_box.y >= fold.y0 >= backs[f.item].bleed_box.y1


# ── crop marks ───────────────────────────────────────────────────────────────
@pytest.mark.parametrize("layout", ["duplex", "foldover", "fronts-only"])
@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("printable", [PRINTABLE_MARGIN, 8.0])
def test_every_cut_line_has_a_mark_of_2_mm_inside_the_printable_area_at_both_ends(paper, layout, printable):
    """Every card size, bleed 0/3, gutter 0/2: nothing within the printable margin of the paper
    edge, and at both ends of every cut line a crop mark at least 2 mm long inside it."""
    edge = printable * MM
    for card, bleed, gutter in itertools.product(CARD_SIZES.values(), (0, 3), (0, 2)):
        sheet = plan_sheets(paper, card, bleed=bleed, gutter=gutter, layout=layout, printable_margin=printable)
        side = sheet.sides[0]
        fronts = [s for s in side.slots if s.face == "front"]
        xs, ys = cut_lines([s.trim_box for s in fronts])
        for m in side.marks:
            assert min(m.x0, m.x1) >= edge - 1e-6 and max(m.x0, m.x1) <= side.width - edge + 1e-6, (card, bleed, gutter)
            assert min(m.y0, m.y1) >= edge - 1e-6 and max(m.y0, m.y1) <= side.height - edge + 1e-6, (card, bleed, gutter)
        for slot in side.slots:  # the cards themselves, bleed included, print completely
            box = slot.bleed_box
            assert box.x >= edge - 1e-6 and box.y >= edge - 1e-6 and box.x1 <= side.width - edge + 1e-6 and box.y1 <= side.height - edge + 1e-6
        for note in side.note_slots + side.fold_slots:
            b = note.box
            assert b.x >= edge - 1e-6 and b.y >= edge - 1e-6 and b.x1 <= side.width - edge + 1e-6 and b.y1 <= side.height - edge + 1e-6
        for x in xs:
            lengths = [abs(m.y1 - m.y0) for m in side.marks if close(m.x0, x) and close(m.x1, x)]
            assert len(lengths) == 2 and min(lengths) >= MARK_MIN * MM - 1e-6, (card, bleed, gutter, x)
        for y in ys:
            lengths = [abs(m.x1 - m.x0) for m in side.marks if close(m.y0, y) and close(m.y1, y)]
            assert len(lengths) == 2 and min(lengths) >= MARK_MIN * MM - 1e-6, (card, bleed, gutter, y)
        for fold in side.folds:  # marks keep clear of a fold line
            for m in side.marks:
                if close(fold.x0, fold.x1):
                    assert max(m.x0, m.x1) <= fold.x0 - 0.9 * MM
                else:
                    assert min(m.y0, m.y1) >= fold.y0 + 0.9 * MM


def test_default_letter_poker_keeps_a_2_2_mm_mark_above_and_below():
    """The issue's worked example: 7.7 mm above and below the grid, a mark from 0.5 mm off the
    cards to the 5 mm border."""
    side = plan_sheets(LETTER, POKER).sides[0]
    vertical = [abs(m.y1 - m.y0) / MM for m in side.marks if close(m.x0, m.x1)]
    assert min(vertical) == pytest.approx(2.2, abs=1e-6)


@pytest.mark.parametrize("paper,card,bleed,layout", [(A4, POKER, 0, "duplex"), (LETTER, POKER, 0, "duplex"),
                                                    (A4, POKER, 3, "duplex"), (A4, CARD_SIZES["mini"], 2, "foldover")])
def test_crop_marks_sit_at_every_cut_line_in_the_margin(paper, card, bleed, layout):
    side = plan_sheets(paper, card, bleed=bleed, layout=layout).sides[0]
    fronts = [s for s in side.slots if s.face == "front"]
    xs, ys = cut_lines([s.trim_box for s in fronts])
    vertical = [m for m in side.marks if close(m.x0, m.x1)]
    horizontal = [m for m in side.marks if close(m.y0, m.y1)]
    for x in xs:  # a mark above and below the grid
        assert sum(close(m.x0, x) for m in vertical) == 2, x
    for y in ys:
        assert sum(close(m.y0, y) for m in horizontal) == 2, y
    assert len(side.marks) == 2 * (len(xs) + len(ys))
    for m in side.marks:
        seg = Rect(min(m.x0, m.x1), min(m.y0, m.y1), abs(m.x1 - m.x0), abs(m.y1 - m.y0))
        assert seg.w + seg.h >= 2 * MM  # long enough to use
        assert 0 < seg.x and seg.x1 < side.width and 0 < seg.y and seg.y1 < side.height
        for slot in side.slots:
            grown = slot.bleed_box.inset(-0.49 * MM)  # (about) half a millimetre of paper between
            assert not grown.overlaps(seg), "a crop mark crosses or touches a card"


def test_note_slots_avoid_cards_marks_and_folds():
    for layout in (plan_sheets(A4, POKER), plan_sheets(LETTER, POKER, layout="foldover")):
        side = layout.sides[0]
        assert side.note_slots
        lines = [Rect(min(m.x0, m.x1), min(m.y0, m.y1), abs(m.x1 - m.x0) or 1e-3, abs(m.y1 - m.y0) or 1e-3)
                 for m in side.marks + side.folds]
        for slot in side.note_slots + side.fold_slots:
            assert slot.box.w > 0 and slot.box.h > 0
            for s in side.slots:
                assert not slot.box.overlaps(s.bleed_box)
            for line in lines:
                assert not slot.box.overlaps(line)


# ── calibration ──────────────────────────────────────────────────────────────
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("paper", [A4, LETTER])
@pytest.mark.parametrize("printed_with", [(0.0, 0.0), (1.0, -2.0)])
def test_the_box_whose_lines_meet_names_the_back_offset(paper, duplex, printed_with):
    """Simulate printers that shift the back; the box a user reads gives the offset that
    makes card backs land exactly behind their fronts."""
    W, H = paper.size
    cal = calibration_sheet(paper, duplex, printed_with)
    for error in ((0.0, 0.0), (1.5, -1.0), (-2.5, 3.0), (-0.5, 0.5)):  # mm, as the printer shifts the back page
        e = (error[0] * MM, error[1] * MM)
        read = {}
        for box in cal.boxes:
            back = Rect(min(box.back.x0, box.back.x1), min(box.back.y0, box.back.y1),
                        abs(box.back.x1 - box.back.x0), abs(box.back.y1 - box.back.y0))
            landed = land(back, W, H, duplex, e)
            if box.axis == "x" and close(landed.x, box.front.x0, 1e-3):
                read["x"] = box.value
            if box.axis == "y" and close(landed.y, box.front.y0, 1e-3):
                read["y"] = box.value
        offset = (printed_with[0] + read["x"], printed_with[1] + read["y"])
        layout = plan_sheets(paper, POKER, duplex=duplex, back_offset=offset)
        front, back = layout.sides
        for f, b in zip(front.slots, back.slots):
            assert same_rect(land(b.trim_box, W, H, duplex, e), f.trim_box, 1e-3)


def test_calibration_boxes_cannot_be_confused_with_their_neighbours():
    cal = calibration_sheet(A4, "long")
    values = sorted({b.value for b in cal.boxes})
    assert values[0] == -5 and values[-1] == 5 and len(values) == 21
    for axis in "xy":
        boxes = [b for b in cal.boxes if b.axis == axis]
        for a, b in itertools.combinations(boxes, 2):
            assert not a.box.overlaps(b.box)
    W, H = A4.size
    for b in cal.boxes:
        assert 10 * MM < b.box.x and b.box.x1 < W - 10 * MM
        assert not b.box.overlaps(cal.text_box)


# ── backs spread past the cards' edge ─────────────────────────────────────
@pytest.mark.parametrize("paper,gutter,offset", [(A4, 0, (0, 0)), (LETTER, 0, (0, 0)), (A4, 4, (0, 0)), (A4, 0, (1.5, -1))])
def test_duplex_backs_without_bleed_spread_into_the_margin_and_gutters(paper, gutter, offset):
    """Each back is printed past its card: BACK_REACH into the margin (less where the printable area
    ends: Letter leaves 2.7 mm), halfway into a gutter; never over another card's back, never within
    the printable margin, never short of its own card; the back page's BleedBox and note follow."""
    plan = plan_sheets(paper, POKER, gutter=gutter, back_offset=offset)
    front, back = plan.sides
    edge = PRINTABLE_MARGIN * MM
    printable = Rect(edge, edge, back.width - 2 * edge, back.height - 2 * edge)
    grid = back.slots[0].bleed_box
    for s in back.slots:
        grid = grid.union(s.bleed_box)
    assert plan.back_reach == BACK_REACH
    for s in back.slots:
        sp, b = s.spread, s.bleed_box
        assert s.reach == pytest.approx(BACK_REACH * MM)
        assert sp.x <= b.x and sp.y <= b.y and sp.x1 >= b.x1 and sp.y1 >= b.y1  # the whole card
        assert sp.x >= printable.x - 1e-6 and sp.y >= printable.y - 1e-6 and sp.x1 <= printable.x1 + 1e-6 and sp.y1 <= printable.y1 + 1e-6
        for side, grown, at_edge, room in (("left", b.x - sp.x, close(b.x, grid.x), b.x - printable.x),
                                           ("right", sp.x1 - b.x1, close(b.x1, grid.x1), printable.x1 - b.x1),
                                           ("bottom", b.y - sp.y, close(b.y, grid.y), b.y - printable.y),
                                           ("top", sp.y1 - b.y1, close(b.y1, grid.y1), printable.y1 - b.y1)):
            if at_edge:  # the grid's border: into the margin, as far as it may
                assert grown == pytest.approx(min(BACK_REACH * MM, room), abs=1e-6), (s.item, side)
            else:  # between two cards: up to the middle of the gutter
                assert grown == pytest.approx(gutter * MM / 2, abs=1e-6), (s.item, side)
    for a, b in itertools.combinations(back.slots, 2):
        assert not a.spread.inset(1e-6).overlaps(b.spread.inset(1e-6)), (a.item, b.item)  # butted cards share an edge
    bleed = back.bleed_box
    assert bleed.x < grid.x and bleed.y < grid.y and bleed.x1 > grid.x1 and bleed.y1 > grid.y1
    for note in back.note_slots:
        assert not any(note.box.overlaps(s.spread) for s in back.slots)
    assert all(s.spread is None and s.reach == 0 for s in front.slots)


@pytest.mark.parametrize("bleed,layout", [(3, "duplex"), (0, "foldover"), (0, "fronts-only")])
def test_backs_with_bleed_or_folded_are_not_spread(bleed, layout):
    """Cards with bleed carry their own; a fold-over's backs must not cross the fold; no backs, nothing."""
    plan = plan_sheets(A4, POKER, bleed=bleed, layout=layout)
    assert plan.back_reach == 0
    assert all(s.spread is None and s.reach == 0 for side in plan.sides for s in side.slots)


@pytest.mark.parametrize("layout,n", [("duplex", 2), ("duplex", 4), ("foldover", 1), ("duplex", 9)])
def test_the_last_sheet_has_crop_marks_only_for_the_cut_lines_of_its_cards(layout, n):
    """A print run's last sheet, partly filled: each crop mark lies on a cut line one of its cards
    has, and each such line keeps its marks at both ends; the rows (and columns) left empty get none.
    A full sheet keeps every mark of the grid."""
    plan = plan_sheets(A4, POKER, layout=layout)
    full = plan.sides[0]
    (page, *_) = plan.pages(n)
    side = page.side
    filled = [s for s in side.slots if s.item < n]
    xs, ys = cut_lines([s.trim_box for s in filled])
    assert side.marks, layout
    for m in side.marks:
        vertical = close(m.x0, m.x1)
        assert any(close(m.x0 if vertical else m.y0, v) for v in (xs if vertical else ys)), m
    for x in xs:  # both ends of every vertical cut line, as on the full grid
        assert len([m for m in side.marks if close(m.x0, m.x1) and close(m.x0, x)]) == len(
            [m for m in full.marks if close(m.x0, m.x1) and close(m.x0, x)])
    assert len(side.marks) >= 2 * (len(xs) + len(ys)) - 4  # a fold-over's cut lines along the fold have marks at one end
    for y in ys:
        assert len([m for m in side.marks if close(m.y0, m.y1) and close(m.y0, y)]) == len(
            [m for m in full.marks if close(m.y0, m.y1) and close(m.y0, y)])
    if n == plan.per_page:
        assert side.marks == full.marks
    else:
        assert len(side.marks) < len(full.marks)


@pytest.mark.parametrize("n,duplex", [(1, "long"), (7, "long"), (2, "short")])
def test_on_the_last_sheet_the_backs_spread_towards_the_empty_slots_too(n, duplex):
    """A partly filled last sheet: a back whose neighbour slot is empty goes on past its edge there,
    as at the grid's border (an empty slot is paper: the same white strip if the sheet feeds off);
    never into another card's back."""
    plan = plan_sheets(A4, POKER, duplex=duplex)
    back = next(p for p in plan.pages(n) if p.side.kind == "back").side
    filled = [s for s in back.slots if s.item < n]
    reach = BACK_REACH * MM
    grown_into_empty = 0
    for s in filled:
        b, sp = s.bleed_box, s.spread
        for o in back.slots:
            if o is s or o.item < n:
                continue
            ob = o.bleed_box  # an empty slot right beside it: the back reaches BACK_REACH into it
            if close(ob.x, b.x1) and ob.y < b.y1 and b.y < ob.y1:
                assert sp.x1 == pytest.approx(b.x1 + reach); grown_into_empty += 1
            if close(ob.y1, b.y) and ob.x < b.x1 and b.x < ob.x1:
                assert sp.y == pytest.approx(b.y - reach); grown_into_empty += 1
            if close(ob.y, b.y1) and ob.x < b.x1 and b.x < ob.x1:
                assert sp.y1 == pytest.approx(b.y1 + reach); grown_into_empty += 1
            if close(ob.x1, b.x) and ob.y < b.y1 and b.y < ob.y1:
                assert sp.x == pytest.approx(b.x - reach); grown_into_empty += 1
    assert grown_into_empty >= 1
    for a, b in itertools.permutations(filled, 2):  # (two may share a corner of an empty slot: paper cut away)
        assert not a.spread.inset(1e-6).overlaps(b.bleed_box.inset(1e-6))
