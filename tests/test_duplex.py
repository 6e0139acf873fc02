"""The complete set printed double-sided comes out right: parity, blank backs, print hints.

Read from the assembled PDFs: where each part starts (its outline entry), which pages are
card fronts and backs (the forms placed on them), which are intentionally blank (their text).
Every language × A4/Letter × layout; the parts are drawn once per language and paper (the
card sheets once per layout, one faction's deck) and assembled by the build's own `set_pdf`
for each selection of parts.
"""
from __future__ import annotations

import pytest

from pdftools import page_forms, print_hints, reader, texts
from ppgen.write.build import BuildOptions, select_cards
from ppgen.write.parts import PARTS, PartPDF, set_pdf
from ppgen.write.report import BuildReport

LANGS = ("en", "ja", "ko", "zh")
PAPERS = ("a4", "letter")
LAYOUTS = ("duplex", "foldover", "fronts-only")
ALL = ("rulebook", "mats", "score-sheet", "cards")
SELECTIONS = [ALL, ("rulebook", "cards"), ("mats", "cards"), ("rulebook", "score-sheet"), ("score-sheet", "cards"),
              ("rulebook", "mats"), ("rulebook", "boxes"), ("score-sheet", "cards", "boxes")]

_parts: dict = {}


@pytest.fixture(scope="module", autouse=True)
def drawn_rulebooks(rulebook_files):
    """The rulebooks, drawn once per test run (conftest rulebook_files, as write_part draws them):
    a rulebook part is its PDF alone, bringing its own outline (write/parts.py rulebook_part)."""
    for (lang, paper), (path, pages) in rulebook_files.items():
        _parts["rulebook", lang, paper, "", ""] = PartPDF("rulebook", path.read_bytes(), pages, "")


def part(project, name, lang, paper, layout="duplex", duplex="long"):
    """One part, drawn once per session (the card sheets: Rome's starter deck; the rulebooks: drawn_rulebooks)."""
    key = (name, lang, paper, layout if name == "cards" else "", duplex if name == "cards" else "")
    if key not in _parts:
        options = BuildOptions.resolve(project, lang=lang, paper=paper, layout=layout, duplex=duplex, parts=[name])
        run = select_cards(project, ["rome"]) if name == "cards" else []
        _parts[key] = PARTS[name](project, options, lang, run, BuildReport())
    return _parts[key]


def assembled(project, lang, paper, layout="duplex", selection=ALL, duplex="long"):
    options = BuildOptions.resolve(project, lang=lang, paper=paper, layout=layout, duplex=duplex, parts=list(selection))
    report = BuildReport()
    drawn = [part(project, name, lang, paper, layout, duplex) for name in options.parts]
    whole = set_pdf(project, options, lang, drawn, report)
    assert not report.warnings, report.warnings
    return whole, drawn


def outline_top(pdf, mats_title):
    """(title, 0-based page) of every top-level outline entry, and of the mats' players."""
    out, players = [], []
    for item in pdf.outline:
        if isinstance(item, list):
            if out and out[-1][0] == mats_title:
                players += [(child.title, pdf.get_destination_page_number(child)) for child in item if not isinstance(child, list)]
        else:
            out.append((item.title, pdf.get_destination_page_number(item)))
    return out, players


def check_parity(project, lang, layout, whole, drawn):
    """Every rule of write/duplex.py, read from the PDF; returns the 1-based page of the first card front."""
    pdf = reader(whole.data)
    page_texts = texts(whole.data)
    loc = project.locale(lang)
    blank_text = " ".join(loc.get("sheet.blank-page").split())
    blank = [t.strip() == blank_text for t in page_texts]
    n = len(pdf.pages)
    assert whole.pages == n
    assert n % 2 == 0 or not blank[-1], "no blank page at the very end unless it backs a single sheet"

    # every part starts on an odd page (0-based even), in the order of the build
    tops, players = outline_top(pdf, loc.get("mat.title"))
    titles = {"rulebook": loc.get("rules.subtitle"), "mats": loc.get("mat.title"), "score-sheet": loc.get("sheet.title"),
              "cards": loc.get("part.cards"), "boxes": loc.get("part.boxes")}
    starts = {}
    for p in drawn:
        (start,) = [page for title, page in tops if title == titles[p.name]]
        assert start % 2 == 0, (lang, layout, p.name, start + 1)
        starts[p.name] = start
    assert list(starts) == sorted(starts, key=starts.get)

    # which page is what
    forms = [page_forms(page) for page in pdf.pages]
    fronts = [i for i, f in enumerate(forms) if any(k.startswith("front-") for k in f)]
    backs = [i for i, f in enumerate(forms) if any(k.startswith("back-") for k in f)]
    single = set()
    if "mats" in starts:
        mats = [page for title, page in players]
        assert len(mats) == 2 and mats[0] == starts["mats"]
        sheets = next(p for p in drawn if p.name == "mats").pages // 2  # one or two (joined) sheets per mat
        single |= {m + 2 * k for m in mats for k in range(sheets)}
        assert mats[1] == mats[0] + 2 * sheets  # a mat's sheets are never the back of one another
    if "score-sheet" in starts:
        single.add(starts["score-sheet"])
    if "boxes" in starts:  # a tuck box per sheet
        single |= {starts["boxes"] + 2 * k for k in range(next(p for p in drawn if p.name == "boxes").pages)}
    if "cards" in starts:
        assert fronts and min(fronts) == starts["cards"]
        if layout == "duplex":
            assert len(backs) == len(fronts)
            for i in fronts:  # each front on an odd page, its back on the next
                assert i % 2 == 0 and i + 1 in backs, (lang, i + 1)
        else:
            single |= set(fronts)
    for i in single:  # single sheets: odd page, blank back of the same size
        assert i % 2 == 0 and blank[i + 1], (lang, layout, i + 1)
        assert pdf.pages[i + 1].mediabox == pdf.pages[i].mediabox
    # blank pages only where needed: the back of a single sheet, or the page before a part starts
    for i, is_blank in enumerate(blank):
        if is_blank:
            assert i % 2 == 1 and (i - 1 in single or i + 1 in starts.values()), (lang, layout, i + 1)
            assert pdf.pages[i].mediabox == pdf.pages[i - 1].mediabox
    assert sum(blank) == sum(1 for i in single) + sum(1 for p in drawn[:-1] if _ends_odd(p, layout))
    return min(fronts) + 1 if fronts else None


def _ends_odd(p, layout) -> bool:
    """A part that leaves the last sheet's back empty (single sheets bring their own blank backs)."""
    return not p.single_sided and p.pages % 2 == 1


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_whole_set_prints_right_double_sided(project, lang, paper, layout):
    whole, drawn = assembled(project, lang, paper, layout)
    first_front = check_parity(project, lang, layout, whole, drawn)
    assert first_front % 2 == 1
    # the set is a double-sided document in every layout: it says so, and asks for actual size
    assert print_hints(whole.data) == {"PrintScaling": "None", "Duplex": "DuplexFlipLongEdge", "PickTrayByPDFSize": True}


@pytest.mark.parametrize("selection", SELECTIONS[1:], ids=["+".join(s) for s in SELECTIONS[1:]])
@pytest.mark.parametrize("lang,paper", [("en", "a4"), ("zh", "a4"), ("ja", "letter")])  # rulebooks of 13, 12 and 14 pages
def test_every_selection_of_parts_prints_right_double_sided(project, lang, paper, selection):
    whole, drawn = assembled(project, lang, paper, "duplex", selection)
    check_parity(project, lang, "duplex", whole, drawn)


def test_short_edge_duplex_sets_and_cards_say_so(project):
    whole, drawn = assembled(project, "ja", "letter", "duplex", ("rulebook", "cards"), duplex="short")
    check_parity(project, "ja", "duplex", whole, drawn)
    assert print_hints(whole.data)["Duplex"] == "DuplexFlipShortEdge"
    cards = next(p for p in drawn if p.name == "cards")
    assert print_hints(cards.data)["Duplex"] == "DuplexFlipShortEdge"


def test_the_blank_pages_say_so_in_the_pages_language(project):
    for lang in LANGS:
        whole, drawn = assembled(project, lang, "a4", "duplex", ("mats", "cards"))
        said = [t for t in texts(whole.data) if t.strip() == " ".join(project.locale(lang).get("sheet.blank-page").split())]
        mat_sheets = next(p for p in drawn if p.name == "mats").pages
        assert mat_sheets == 4 and len(said) == mat_sheets, lang  # the back of each mat sheet (two joined sheets a mat)


# ── every PDF ppgen writes: print hints, and nothing near the paper edge ─────────
def test_every_pdf_ppgen_writes_carries_its_print_hints(project, tmp_path):
    """Build parts and set, the booklet, the calibration page, one-card PDFs: each asks for
    actual size and the paper tray by page size, and says how it is meant to be printed."""
    from ppgen.write.build import build, build_calibration
    from ppgen.write.faces import render_back_pdf, render_card_pdf

    build(project, BuildOptions.resolve(project, lang="ko", out=tmp_path, factions=["rome"], layout="foldover",
                                         parts="rulebook,mats,score-sheet,cards"))
    build(project, BuildOptions.resolve(project, lang="ko", out=tmp_path / "booklet", rulebook="booklet", parts="rulebook"))
    build_calibration(project, BuildOptions.resolve(project, lang="ko", out=tmp_path, duplex="short"))
    render_card_pdf(project, project.game.card("hastati-line"), "ko", tmp_path / "card.pdf", back=True)
    render_back_pdf(project, tmp_path / "back.pdf", variant="light")
    expected = {
        "ancient-duel-ko-rome.pdf": "DuplexFlipLongEdge",  # the set prints double-sided in every layout
        "rulebook-ko.pdf": "DuplexFlipLongEdge",
        "mats-ko.pdf": "Simplex",  # each mat a sheet of its own
        "score-sheet-ko.pdf": "Simplex",
        "cards-ko-rome.pdf": "Simplex",  # fold-over sheets print on one side
        "rulebook-booklet-ko.pdf": "DuplexFlipShortEdge",
        "calibrate-ko-a4-short.pdf": "DuplexFlipShortEdge",  # printed as the cards will be
        "card.pdf": "Simplex",
        "back.pdf": "Simplex",
    }
    written = {path.name: path for path in tmp_path.rglob("*.pdf")}
    assert set(written) == set(expected)
    for name, duplex in expected.items():
        assert print_hints(written[name]) == {"PrintScaling": "None", "Duplex": duplex, "PickTrayByPDFSize": True}, name


@pytest.mark.parametrize("lang,paper,layout", [("en", "a4", "duplex"), ("ja", "letter", "foldover"), ("zh", "letter", "fronts-only")])
def test_no_page_of_the_set_prints_within_5_mm_of_the_paper_edge(project, lang, paper, layout):
    """Rulebook pages, mats, score sheet, blank backs, card sheets: rendered, the outer 5 mm
    of every page is blank paper."""
    from PIL import ImageChops

    from pdftools import render

    whole, _ = assembled(project, lang, paper, layout)
    dpi = 40
    band = int(5 * dpi / 25.4)
    for index in range(whole.pages):
        image = render(whole.data, index, dpi).convert("L")
        w, h = image.size
        for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
            assert ImageChops.invert(image.crop(box)).point(lambda v: 255 if v > 3 else 0).getbbox() is None, (index + 1, box)


def test_the_printable_margin_moves_everything_further_in(project, tmp_path):
    """build.printable_margin (here 7 mm): cards, marks and notes, mats and score sheet keep it;
    a rulebook style that would print inside it (8 mm: the booklet's running head) is refused, naming the key."""
    from PIL import ImageChops

    from pdftools import render
    from ppgen.errors import UsageError

    options = BuildOptions.resolve(project, lang="en", paper="letter", printable_margin=7, parts="mats,score-sheet,cards")
    drawn = [PARTS[name](project, options, "en", select_cards(project, ["rome"]) if name == "cards" else [], BuildReport())
             for name in options.parts]
    dpi = 50
    band = int(7 * dpi / 25.4)
    for p in drawn:
        for index in range(p.pages):
            image = render(p.data, index, dpi).convert("L")
            w, h = image.size
            for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
                assert ImageChops.invert(image.crop(box)).point(lambda v: 255 if v > 3 else 0).getbbox() is None, (p.name, index, box)
    booklet = BuildOptions.resolve(project, lang="en", rulebook="booklet", printable_margin=8, parts="rulebook")
    with pytest.raises(UsageError, match=r"booklet: page\.head_offset .* inside the 8 mm printable margin"):
        PARTS["rulebook"](project, booklet, "en", [], BuildReport())
