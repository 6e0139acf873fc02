"""`ppgen build --rulebook booklet`: the rulebook laid out for A5 (half-Letter) pages, imposed
two-up on landscape sheets in saddle-stitch order, checked from the folios printed on them."""
from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

import pytest

from pdftools import print_hints, reader, render
from ppgen.impose.booklet import booklet_pages, booklet_sides
from ppgen.write.build import BuildOptions, build
from ppgen.write.parts import rulebook_part
from ppgen.write.report import BuildReport

MM = 72 / 25.4


# ── the order, alone ─────────────────────────────────────────────────────────
@pytest.mark.parametrize("pages", range(1, 42))
def test_saddle_stitch_order(pages):
    n = booklet_pages(pages)
    assert n % 4 == 0 and pages <= n < pages + 4
    sides = booklet_sides(pages)
    assert len(sides) == n // 2  # two sides per sheet, two pages per side
    assert sides[0] == (n, 1) and sides[1] == (2, n - 1)  # sheet 1 front: last | first; its back: 2 | last - 1
    assert all(left + right == n + 1 for left, right in sides)
    assert sorted(p for side in sides for p in side) == list(range(1, n + 1))
    for k in range(0, len(sides), 2):  # flipped on the short edge, each back page lands behind its front neighbour
        (fl, fr), (bl, br) = sides[k], sides[k + 1]
        assert bl == fr + 1 and br == fl - 1


# ── the booklet, built ───────────────────────────────────────────────────────
@pytest.fixture(scope="module")
def every_booklet(project, tmp_path_factory):
    """`ppgen build --lang all --parts rulebook --rulebook booklet` on ppgen.yaml's paper (A4),
    every language drawn afresh in worker processes: its BuildResult."""
    options = BuildOptions.resolve(project, lang="all", out=tmp_path_factory.mktemp("booklets"), parts="rulebook", rulebook="booklet")
    assert options.paper.key == "a4"
    return build(project, options, reuse=False)


@dataclass(frozen=True)
class Booklet:
    data: bytes
    pages: int


@pytest.fixture(scope="module")
def booklet(project, every_booklet):
    """(the booklet, the same rulebook in pages) of a language on a paper, each drawn once: the
    A4 booklets are those `every_booklet` wrote, the Letter ones drawn here."""
    built: dict = {}
    a4 = {f.lang: f for f in every_booklet.files}

    def get(lang, paper):
        if (lang, paper) not in built:
            options = BuildOptions.resolve(project, lang=lang, paper=paper, rulebook="booklet", parts="rulebook")
            pages = BuildOptions.resolve(project, lang=lang, paper=paper, parts="rulebook")
            book = (Booklet(a4[lang].path.read_bytes(), a4[lang].pages) if paper == "a4"
                    else rulebook_part(project, options, lang, [], BuildReport()))
            built[(lang, paper)] = (book, rulebook_part(project, pages, lang, [], BuildReport()))
        return built[(lang, paper)]

    return get


def folios(pdf_bytes) -> list[tuple[int | None, int | None]]:
    """The page numbers printed at the foot of the left and the right half of every sheet side."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        out = []
        for page in doc:
            w, h = page.get_size()
            tp = page.get_textpage()
            halves = []
            for x0 in (0, w / 2):
                text = tp.get_text_bounded(left=x0, bottom=0, right=x0 + w / 2, top=14 * MM).strip()
                halves.append(int(text) if re.fullmatch(r"\d+", text) else None)
            out.append(tuple(halves))
        return out
    finally:
        doc.close()


CASES = [("en", "a4"), ("ja", "letter"), ("zh", "a4"), ("ko", "letter")]


@pytest.mark.parametrize("lang,paper", CASES)
def test_sheets_hold_the_pages_in_saddle_stitch_order_by_their_printed_folios(project, booklet, lang, paper):
    book, _ = booklet(lang, paper)
    found = folios(book.data)
    count = max(n for side in found for n in side if n)  # the last page carries a folio (the colophon's)
    n = booklet_pages(count)
    assert len(found) == n // 2 == book.pages
    expected = [tuple(p if 2 <= p <= count else None for p in side) for side in booklet_sides(count)]
    assert found == expected  # the title page (1) and the blank pages at the end carry none
    assert found[0] == ((n if n == count else None), None) and found[1][0] == 2


@pytest.mark.parametrize("lang,paper", CASES)
def test_the_booklet_is_laid_out_for_its_page_not_scaled(project, booklet, lang, paper):
    """Landscape sheets of the paper, half of one per page; body type at the booklet's own size
    (9 pt, not 9.5 × 0.7), so the A5 book has more pages than the A4 one."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    from ppgen.read.styles import rulebook_style

    book, pages = booklet(lang, paper)
    pdf = reader(book.data)
    size = {"a4": (841.89, 595.28), "letter": (792.0, 612.0)}[paper]
    for page in pdf.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(size, abs=0.01)
    a5_pages = max(n for side in folios(book.data) for n in side if n)
    assert a5_pages > pages.pages
    doc = pdfium.PdfDocument(book.data)
    marker = "".join(project.locale(lang).get("rules.fighting.1").split())[:8]  # body text (not the contents' line)
    sizes = []
    try:  # the half sheet (one A5 page) that holds the Fighting section: body text
        for page in doc:
            tp = page.get_textpage()
            width, height = page.get_size()
            for x0 in (0, width / 2):
                if marker in "".join(tp.get_text_bounded(x0, 0, x0 + width / 2, height).split()):
                    sizes = [round(raw.FPDFText_GetFontSize(tp.raw, i), 2) for i in range(tp.count_chars())
                             if x0 <= tp.get_charbox(i)[0] < x0 + width / 2]
                    break
            if sizes:
                break
    finally:
        doc.close()
    assert statistics.mode(sizes) == rulebook_style(project, "booklet").type.body == 9


@pytest.mark.parametrize("lang,paper", CASES[:2])
def test_booklet_sheets_print_duplex_on_the_short_edge_inside_the_printable_area(project, booklet, lang, paper):
    from PIL import ImageChops

    book, _ = booklet(lang, paper)
    assert print_hints(book.data) == {"PrintScaling": "None", "Duplex": "DuplexFlipShortEdge", "PickTrayByPDFSize": True}
    band = int(5 * 72 / 25.4)
    for index in range(book.pages):
        image = render(book.data, index, 72).convert("L")
        w, h = image.size
        for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
            assert ImageChops.invert(image.crop(box)).point(lambda v: 255 if v > 3 else 0).getbbox() is None, (index, box)


def test_booklet_outline_points_at_the_sheet_side_a_section_starts_on(project, booklet):
    book, _ = booklet("en", "a4")
    pdf = reader(book.data)
    found = folios(book.data)
    loc = project.locale("en")

    def walk(items):
        for item in items:
            if isinstance(item, list):
                yield from walk(item)
            else:
                yield item.title, pdf.get_destination_page_number(item)

    entries = dict(walk(pdf.outline))
    side = entries[loc.get("rules.deck.heading")]
    text = pdf.pages[side].extract_text()
    assert loc.get("rules.deck.heading") in text
    assert entries[loc.get("rules.subtitle")] == 0  # the title page: sheet 1 front, right
    assert any(found[side])


def test_build_writes_the_booklet_beside_a_set_without_it(project, tmp_path, every_booklet):
    """`--rulebook booklet`: rulebook-booklet-<lang>.pdf, printed on its own; the set holds the rest."""
    options = BuildOptions.resolve(project, lang="en", out=tmp_path, rulebook="booklet", parts="rulebook,mats,score-sheet")
    result = build(project, options)
    files = {f.part: f.path.name for f in result.files}
    name = "ancient-duel-en-rulebook-mats-score-sheet.pdf"  # (a set of some parts is named by them: it is not the whole set)
    assert files == {"set": name, "rulebook": "rulebook-booklet-en.pdf", "mats": "mats-en.pdf", "score-sheet": "score-sheet-en.pdf"}
    whole = reader(tmp_path / "en" / name)
    mats = len(reader(tmp_path / "en" / "mats-en.pdf").pages)
    assert len(whole.pages) == 2 * mats + 2  # each mat sheet and the score sheet with a blank back: no rulebook pages
    again = next(f for f in every_booklet.files if f.lang == "en")  # another build of the English booklet alone
    assert again.path.name == "rulebook-booklet-en.pdf"
    assert again.path.read_bytes() == (tmp_path / "en" / "rulebook-booklet-en.pdf").read_bytes()  # deterministic


def test_a_mistake_in_the_booklet_section_is_reported_at_its_line(game_copy):
    import ppgen
    from ppgen.errors import DataError
    from ppgen.read.styles import rulebook_style

    path = game_copy / "templates" / "rulebook-style.yaml"
    text = path.read_text(encoding="utf-8")
    assert "    margin_side: 13 " in text
    path.write_text(text.replace("    margin_side: 13 ", "    margin_sid: 13 ").replace("    body: 9\n", "    body: 1\n"), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        rulebook_style(ppgen.load(game_copy), "booklet")
    lines = path.read_text(encoding="utf-8").split("\n")
    shown = [str(p) for p in exc.value.problems]
    typo = next(n for n, line in enumerate(lines, 1) if "margin_sid:" in line)
    body = next(n for n, line in enumerate(lines, 1) if line == "    body: 1")
    assert any(p.line == typo and "did you mean 'margin_side'" in p.message for p in exc.value.problems), shown
    assert any(p.line == body and "between 3 and 200" in p.message for p in exc.value.problems), shown


def test_the_booklet_of_every_language_prints_without_a_warning(every_booklet):
    """The quick reference takes a page of its own where the end of the A5 book leaves it too
    little room (it overflowed its box in Korean and Chinese)."""
    result = every_booklet
    assert len(result.files) == 4
    assert [str(w) for w in result.report.warnings] == []


def test_the_energy_maxima_keep_their_digits_together_in_every_language(project, every_booklet, full_set):
    """The quick reference's energy row in the narrow cells of the A5 booklet (Chinese broke "10"
    digit by digit onto two lines) and on the A4 page (Korean and Chinese ran "101112" together):
    every maximum on one baseline, each a word of its own."""
    from pdftools import glyphs, text_lines, texts

    from ppgen.draw.mat import energy_schedule

    expected = " ".join(str(value) for _, value in energy_schedule(project.game.rules))
    a4 = [f.path for f in full_set[0].files if f.part == "rulebook"]
    for path in [f.path for f in every_booklet.files] + a4:
        pages = [i for i, text in enumerate(texts(path)) if "8+" in text]  # the turn row "1 … 7 8+": the quick reference
        rows = [line.text for page in glyphs(path, pages=pages) for line in text_lines(page) if "6 6 7 8" in line.text or "667" in line.text]
        assert rows and all(row.endswith(expected) for row in rows), (path.name, rows)


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "zh"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_paragraph_reads_on_across_a_page_break_with_no_figure_between(project, booklet, lang, paper):
    """The booklet's pages are poured by the same flow as the rulebook's (test_rulebook): a split
    paragraph goes on at the top of the next page, no figure between its halves; a list split at a
    page break too, no figure between its items (on the booklet's A5 pages 'Reading a card' came
    between the turn's phases 3 and 4, in ko between 2 and 3). Its pages read back from the sheets'
    halves, put in page order."""
    from pdftools import frame_texts, list_texts, read_on_problems, rule_texts
    from ppgen.draw.style import mm
    from ppgen.read.styles import rulebook_style

    book, _ = booklet(lang, paper)
    look = rulebook_style(project, "booklet").page
    halves = frame_texts(book.data, mm(look.head_offset + 3), mm(look.foot_offset + 4), halves=True)
    sides = booklet_sides(len(halves))
    pages = [""] * len(halves)
    for (left, right), k in zip(sides, range(0, len(halves), 2)):
        pages[left - 1], pages[right - 1] = halves[k], halves[k + 1]
    texts = rule_texts(project, lang)
    assert read_on_problems(pages, texts) == [], (lang, paper)
    lists = list_texts(project, lang)
    assert len(lists) >= 5 and read_on_problems(pages, lists) == [], (lang, paper)


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "zh"])
def test_the_text_after_a_figure_keeps_the_figures_space_below_it(project, every_booklet, lang):
    """The booklet's 'Reading a card' figure, set at the top of a page with the text running on under
    it: its legend and the first line below keep the figure's space after it (≥ 1.2 mm ink to ink) — they
    touched ("⑥ ATK" over "④ Battle Phase": the float dropped the figure's space after)."""
    import pypdfium2 as pdfium
    from pdftools import across_lines

    from ppgen.draw import anatomy

    import re

    from ppgen.typeset.text import plain

    loc = project.locale(lang)
    legend = [plain(loc.get(key)) for key in anatomy.KEYS]
    (path,) = [f.path for f in every_booklet.files if f.lang == lang]
    pdf = pdfium.PdfDocument(str(path))
    for i in range(len(pdf)):
        page = pdf[i].get_textpage()
        text = page.get_text_range(0, page.count_chars())
        def spans(item):  # where the PDF prints it, across line breaks
            return [m.span() for m in re.finditer(across_lines(item), text)]

        if not spans(legend[-1]):
            continue
        at = spans(legend[-1])[0][0]
        boxes = [page.get_charbox(k) for k in range(page.count_chars())]
        half = pdf[i].get_width() / 2
        left_half = boxes[at][0] < half
        legend_chars = set()
        for item in legend:
            for a, b in spans(item)[:1]:
                legend_chars.update(range(a, b))
        mine = [k for k in range(len(boxes)) if (boxes[k][0] < half) == left_half and not text[k].isspace()]
        bottom = min(boxes[k][1] for k in mine if k in legend_chars)
        below = [boxes[k][3] for k in mine if k not in legend_chars and boxes[k][3] < bottom]
        if below:  # the text that runs on under the figure
            assert (bottom - max(below)) / 72 * 25.4 >= 1.2, (lang, i, (bottom - max(below)) / 72 * 25.4)  # ink to ink
        return
    pytest.fail(f"no page of the {lang} booklet holds the anatomy legend")
