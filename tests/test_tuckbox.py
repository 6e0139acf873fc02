"""Tuck boxes: the PDF read back — panel sizes from its dashed fold lines against the formula,
the solid cut outline around them, the deck's name and card list in the build's language, the
boxes' place in the assembled PDF; a deck too thick for the paper refused by name."""
from __future__ import annotations

import pytest

from clitools import call_ppgen
from conftest import ROOT
from pdftools import MM, reader, texts


def strokes(page):
    """[(dashed?, closed?, [(x, y) mm])] of every stroked path the page draws (forms excluded)."""
    from pypdf.generic import ContentStream

    ops = ContentStream(page.get_contents(), page.pdf).operations
    ctm, stack, dash, out, path, closed = (1, 0, 0, 1, 0, 0), [], False, [], [], False

    def at(x, y):
        a, b, c, d, e, f = ctm
        return ((a * x + c * y + e) / MM, (b * x + d * y + f) / MM)

    for operands, op in ops:
        if op == b"q":
            stack.append((ctm, dash))
        elif op == b"Q":
            ctm, dash = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"d":
            dash = bool(list(operands[0]))
        elif op == b"m":
            if path:
                out.append((dash, closed, path))
            path, closed = [at(*map(float, operands))], False
        elif op == b"l":
            path.append(at(*map(float, operands)))
        elif op == b"c":
            path.append(at(*map(float, operands[-2:])))
        elif op == b"h":
            closed = True
        elif op in (b"S", b"s", b"B", b"b"):
            if path:
                out.append((dash, closed or op in (b"s", b"b"), path))
            path, closed = [], False
        elif op == b"n":
            path, closed = [], False
    return out


def panels(page):
    """(widths of the four body panels left to right, body height, lid depth) from the fold lines."""
    folds = [p for dashed, _, p in strokes(page) if dashed]
    vertical = sorted({round(p[0][0], 3) for p in folds if abs(p[0][0] - p[-1][0]) < 1e-6})
    horizontal = [p for p in folds if abs(p[0][1] - p[-1][1]) < 1e-6]
    left = min(min(x for x, _ in p) for p in horizontal)
    xs = [left] + vertical
    ys = sorted({round(p[0][1], 3) for p in horizontal})
    return [round(b - a, 2) for a, b in zip(xs, xs[1:])], round(ys[1] - ys[0], 2), round(ys[2] - ys[1], 2)


@pytest.fixture(scope="session")
def boxes(project):
    """The boxes part per language (starter decks), and two variants in English."""
    from ppgen.write.build import BuildOptions
    from ppgen.write.parts import boxes_part
    from ppgen.write.report import BuildReport

    def part(lang="en", **kw):
        options = BuildOptions.resolve(project, lang=lang, parts="boxes", **kw)
        report = BuildReport()
        return boxes_part(project, options, lang, [], report), report

    return {"langs": {lang: part(lang) for lang in ("en", "ja", "ko", "zh")},
            "sleeved": part(sleeves=True, card_thickness="0.5"),
            "bridge-letter": part(card_size="bridge", paper="letter", factions=["rome"])}


@pytest.mark.parametrize("variant, card, thickness, sleeved", [
    ("langs", (63, 88), 0.3, False), ("sleeved", (63, 88), 0.5, True), ("bridge-letter", (57, 89), 0.3, False)])
def test_panel_sizes_follow_the_formula(boxes, project, variant, card, thickness, sleeved):
    part, _ = boxes[variant]["en"] if variant == "langs" else boxes[variant]
    clearance = 2 + (3 if sleeved else 0)
    for page, faction in zip(reader(part.data).pages, project.game.factions if variant != "bridge-letter" else ["rome"]):
        n = sum(count for _, count in project.game.starter_deck(faction))
        depth = n * thickness + (n * 0.1 if sleeved else 0) + 2
        widths, height, lid = panels(page)
        want_w, want_h = card[0] + clearance, card[1] + clearance
        assert widths == [round(want_w, 2), round(depth, 2), round(want_w, 2), round(depth, 2)], (faction, widths)
        assert height == round(want_h, 2) and lid == round(depth, 2)


def test_one_solid_closed_cut_outline_encloses_the_folds(boxes):
    part, _ = boxes["langs"]["en"]
    for page in reader(part.data).pages:
        paths = strokes(page)
        cuts = [(closed, p) for dashed, closed, p in paths if not dashed and len(p) > 20]
        assert len(cuts) == 1 and cuts[0][0]
        outline = cuts[0][1]
        x0, x1 = min(x for x, _ in outline), max(x for x, _ in outline)
        y0, y1 = min(y for _, y in outline), max(y for _, y in outline)
        for dashed, _, p in paths:
            if dashed:
                assert all(x0 - 0.01 <= x <= x1 + 0.01 and y0 - 0.01 <= y <= y1 + 0.01 for x, y in p)
        w = float(page.mediabox.width) / MM
        assert x0 >= 5 - 0.01 and x1 <= w - 5 + 0.01  # within the printable margin


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "zh"])
def test_each_starter_deck_box_names_the_deck_and_lists_its_cards(boxes, project, lang):
    part, report = boxes["langs"][lang]
    loc = project.locale(lang)
    pages = texts(part.data)
    assert len(pages) == len(project.game.factions) == part.pages
    assert [t for t, _ in part.children] == [loc.format("box.starter-deck", faction=loc.get(f"faction.{f}")) for f in project.game.factions]
    for text, faction in zip(pages, project.game.factions):
        squeezed = text.replace(" ", "")
        title = loc.format("box.starter-deck", faction=loc.get(f"faction.{faction}")).replace(" ", "")
        assert squeezed.count(title) >= 4  # front, spine, lid, above the card list
        for card, count in project.game.starter_deck(faction):
            assert f"{count}×{project.card_name(card, lang).replace(' ', '')}{card.code}" in squeezed, (lang, card.code)
        assert loc.format("box.card-count", n=40).replace(" ", "") in squeezed
        assert loc.get("box.glue") in text
    assert not [w for w in report.warnings if w.code == "overflow"]


def run(*args):
    return call_ppgen(*args, cwd=ROOT)


def test_boxes_start_on_an_odd_page_of_the_set_each_with_a_blank_back(tmp_path):
    r = run("build", "--lang", "en", "--parts", "score-sheet,boxes", "--faction", "rome", "--faction", "sparta", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    pdf = reader(tmp_path / "en" / "ancient-duel-en-rome-sparta.pdf")
    shown = texts(str(tmp_path / "en" / "ancient-duel-en-rome-sparta.pdf"))
    assert len(pdf.pages) == 1 + 1 + 2 * 2  # score sheet, blank, (box, blank) × 2
    blank = "This page is intentionally left blank."  # the set's blank backs say so (issue 14)
    assert shown[1] == blank and "Rome" in shown[2] and shown[3] == blank and "Sparta" in shown[4] and shown[5] == blank
    top = {item.title: pdf.get_destination_page_number(item) + 1 for item in pdf.outline if not isinstance(item, list)}
    assert top["Tuck boxes"] == 3
    children = [(i.title, pdf.get_destination_page_number(i) + 1) for i in pdf.outline[-1]]
    assert children == [("Rome starter deck", 3), ("Sparta starter deck", 5)]
    assert "1 page" in r.stderr + r.stdout or (tmp_path / "en" / "boxes-en-rome-sparta.pdf").is_file()


def test_boxes_are_built_only_when_asked_for(project):
    from ppgen.write.build import BuildOptions

    assert "boxes" not in BuildOptions.resolve(project, lang="en").parts
    assert BuildOptions.resolve(project, lang="en", parts="cards,boxes").parts == ("cards", "boxes")


def test_a_deck_too_thick_for_one_sheet_is_refused_with_the_sizes(tmp_path):
    r = run("build", "--parts", "boxes", "--card-thickness", "2", "--faction", "rome", "--out", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "does not fit one A4 sheet" in r.stderr and "inside 65 × 90 × 82 mm" in r.stderr and "short by" in r.stderr
    assert not (tmp_path / "en").exists()


def test_a_decklist_box_takes_the_lists_name_and_primary_faction(tmp_path):
    deck = tmp_path / "legion.txt"
    deck.write_text("name: Legion of the Eagle\nprimary: Rome\n" + (ROOT / "decks" / "starter-rome.txt").read_text(encoding="utf-8")
                    .replace("name: Rome starter\n", "").replace("primary: Rome\n", ""), encoding="utf-8")
    r = run("build", "--deck", str(deck), "--parts", "boxes", "--lang", "ko", "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    shown = texts(str(tmp_path / "out" / "ko" / "legion-boxes-ko.pdf"))
    assert len(shown) == 1 and shown[0].count("Legion of the Eagle") >= 4 and "ROM-01" in shown[0]
