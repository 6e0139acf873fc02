"""The quick-reference card (draw/quick_reference.py): its two faces as the card sheets print them."""
from __future__ import annotations

import io

import pytest
from reportlab.pdfgen.canvas import Canvas

from ppgen.draw.faces import CardGeometry
from ppgen.draw.quick_reference import ReferenceFace
from ppgen.write.report import BuildReport


def test_a_card_too_small_for_the_words_is_reported_to_the_builds_report(project):
    """On a mini card the quick reference does not fit even at its smallest size: the build's
    report hears of it, though it had no warning yet (an empty report is falsy: it was taken for
    none, and the overflow went unreported)."""
    g = CardGeometry.named("mini")
    for side in ("front", "back"):
        report = BuildReport()
        ReferenceFace(project, "en", g, side, report).draw(Canvas(io.BytesIO(), pagesize=(g.width, g.height)))
        assert [w.code for w in report.warnings] == ["overflow"], side


# ── both faces as the card sheets print them ─────────────────────────────
LANGS = ["en", "ja", "ko", "zh"]


def _faces(project, path) -> dict:
    """The quick-reference card's two faces on the last two pages of a card-sheet PDF (its fronts
    and their backs): side -> (heading size, body size, lowest baseline above the words' box, in
    mm), read back as PDFium reads the printed glyphs."""
    from pdftools import MM, glyphs, placements, reader, text_lines
    from ppgen.write.build import BuildOptions
    from ppgen.write.parts import card_geometry

    trim_h = card_geometry(BuildOptions.resolve(project, lang="en")).trim_h
    pdf = reader(path)
    last = [len(pdf.pages) - 2, len(pdf.pages) - 1]
    loc = project.locale(path.parent.name)
    out = {}
    for n, found in zip(last, glyphs(path, pages=last)):
        page = pdf.pages[n]
        forms = {str(k): v.get_object() for k, v in page["/Resources"]["/XObject"].items()}
        place = next(p for p in placements(page) if p.form.startswith("reference-"))
        side = place.form.rsplit("-", 1)[1]
        box = [float(v) for v in next(f for k, f in forms.items() if k.endswith(place.form))["/BBox"]]
        w, h = box[2] - box[0], box[3] - box[1]
        lines = text_lines(found, place.x, place.y, place.x + w, place.y + h)
        heading = "".join(loc.get("rules.quick.turn" if side == "front" else "rules.quick.combat").split())
        at = next(i for i, line in enumerate(lines) if "".join(line.text.split()) == heading)
        body = next(line for line in lines[at + 1:] if len(line.text) > 3)
        bottom = place.y + h / 2 - trim_h / 2 + (3.4 + 2.2) * MM  # the words' box: inside the frame, 3.4 mm in from the trim
        out[side] = (round(lines[at].size, 2), round(body.size, 2), (min(line.baseline for line in lines) - bottom) / MM)
    return out


def test_both_faces_share_one_body_and_one_heading_size_and_the_front_fills_its_card(full_set, project):
    """A typesetter sets both sides of the card as one design: the same body and heading size on
    turn-and-energy and on combat (the larger side's fit, not each side its own: 6.25 and 8.1 pt
    on the English front, 7 and 9.1 pt on its back), and the spare height shared out among the
    gaps, not left in one block under the last line (the front's words ended 3–6 mm above the
    bottom of their box)."""
    result, _ = full_set
    for f in (f for f in result.files if f.part == "cards"):
        faces = _faces(project, f.path)
        (front_heading, front_body, front_low), (back_heading, back_body, back_low) = faces["front"], faces["back"]
        assert (front_heading, front_body) == (back_heading, back_body), (f.lang, faces)
        assert 0 <= front_low < 2.0, (f.lang, faces)  # the last line's baseline: its descenders inside the box
        assert 0 <= back_low < 10.0, (f.lang, faces)


# ── the size that fits ───────────────────────────────────────────────────
@pytest.mark.parametrize("lang", LANGS)
def test_the_size_found_by_halving_is_the_largest_a_scan_from_the_top_finds(project, lang):
    """fit_size halves the sizes left to try (5 trial layouts instead of up to 30): it finds what
    trying every size from the largest down finds, for the rulebook's page (two columns, on
    panels) and the card's sides, in boxes from too small for anything to roomy."""
    from pdftools import MM
    from ppgen.draw.quick_reference import SIDES, STEP, _group_height, _groups, fit_size, look_for

    def scanned(columns, boxes, largest, smallest, panels):
        groups = _groups(project, lang, BuildReport(), columns, look_for(project, lang))
        size = largest
        while size > smallest and any(_group_height(cols, w, size, panels) > h for cols, (_, _, w, h) in zip(groups, boxes)):
            size -= STEP
        return size

    found = set()
    for columns, width, largest, smallest, panels in ((SIDES["page"], 80 * MM, 15.2, 7.1, True), (SIDES["front"], 50 * MM, 8.0, 5.0, False),
                                                      (SIDES["back"], 50 * MM, 8.0, 5.0, False)):
        for height in (20 * MM, 45 * MM, 70 * MM, 110 * MM, 180 * MM):
            boxes = [(0, height, width, height)] * len(columns)
            size = fit_size(project, lang, BuildReport(), boxes, columns, largest, smallest, panels)
            assert size == scanned(columns, boxes, largest, smallest, panels), (columns, height)
            found.add(size)
    assert len(found) >= 4  # the boxes make the sizes differ: the search is exercised, not its ends alone
