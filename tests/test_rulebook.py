"""The rulebook, read back from the PDF: outline, card tables, rule constants, fonts, fallbacks, layout."""
from __future__ import annotations

import re

import pytest

from pdftools import frame_texts, page_texts, printed_lines, read_on_problems, rule_texts, texts

LANGS = ["en", "ja", "ko", "zh"]


@pytest.fixture(scope="module")
def rulebooks(full_set):
    """The rulebook of every language on A4 (ppgen.yaml's paper), as the full build wrote it
    (the same bytes as write_part(project, lang, "rulebook", path, "a4")): {lang: (path,
    the warnings of that language's build)}."""
    result, _ = full_set
    assert {f.path.name for f in result.files if f.part == "rulebook"} == {f"rulebook-{lang}.pdf" for lang in LANGS}
    return {f.lang: (f.path, [w for w in result.report.warnings if w.lang == f.lang]) for f in result.files if f.part == "rulebook"}


@pytest.fixture(scope="module")
def letter_rulebooks(rulebook_files):
    """write_part(project, lang, "rulebook", path, "letter") of every language: {lang: (path, [])}."""
    return {lang: (rulebook_files[lang, "letter"][0], []) for lang in LANGS}


def _reader(source):
    """A PdfReader of a path or an in-memory PDF."""
    from pypdf import PdfReader

    return PdfReader(source if hasattr(source, "read") else str(source))


def _flat_outline(reader):
    """[(level, title, page index)] in document order."""
    out = []

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, item.title, reader.get_destination_page_number(item)))

    walk(reader.outline, 0)
    return out


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _phrases(pdf) -> str:
    """Every page's text, squashed, as PDFium reads it: for the checks that look for a phrase."""
    return _squash(" ".join(texts(pdf)))


def _structure(project):
    from ppgen.read.rulebook import load_structure

    return load_structure(project)


@pytest.mark.parametrize("lang", LANGS)
def test_outline_has_every_section_and_faction(project, rulebooks, lang):
    reader = _reader(rulebooks[lang][0])
    texts = page_texts(rulebooks[lang][0])
    outline = _flat_outline(reader)
    loc = project.locale(lang)
    structure = _structure(project)
    titles = [(level, title) for level, title, _ in outline]
    expected = [(0, loc.get("rules.subtitle"))]
    expected += [(1, loc.get(s.heading)) for s in structure.sections]
    expected += [(1, loc.get("rules.reference.heading"))]
    expected += [(2, loc.get(f"faction.{f}")) for f in project.game.factions]
    expected += [(1, loc.get(structure.back_page.heading))]  # the quick reference, the last page
    assert titles == expected
    assert outline[0][2] == 0  # the rulebook entry opens the title page
    # every bookmark opens the page its heading is printed on
    for level, title, page in outline[1:]:
        assert _squash(title) in _squash(texts[page]), (lang, title, page)


def _card_rows_in_pdf(project, pdf, lang):
    text = _squash("".join(page_texts(pdf)))
    missing = []
    for row in project.card_rows(lang):
        card = project.game.card(row["id"])
        mark = "\u265a" if card.commander else ""
        if card.is_unit:
            stats = f"{card.level}{card.atk}{card.def_}{card.energy}{card.copies}"
        else:
            stats = _squash(row["bonus"] or "\u2014") + str(card.copies)
        expected = _squash(row["name"]) + mark + card.code + stats + _squash(row["type"])
        if expected not in text:
            missing.append((card.code, expected))
    return missing


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "zh"])
def test_card_tables_equal_the_card_database(project, rulebooks, lang):
    """Every card's row reads: name (♚ for Commanders), code, then Lv ATK DEF Energy Copies / Bonus Copies, type."""
    assert _card_rows_in_pdf(project, rulebooks[lang][0], lang) == []


def test_card_table_check_can_fail(project, rulebooks):
    """The row check notices a changed number (it compares real values, it is not vacuous)."""
    from dataclasses import replace

    card = project.game.card("hastati-line")
    changed = replace(card, atk=card.atk % 6 + 1)
    cards = tuple(changed if c.id == card.id else c for c in project.game.cards)
    original = project.game.cards
    try:
        project.game.cards = cards
        project.game.__post_init__()
        missing = _card_rows_in_pdf(project, rulebooks["en"][0], "en")
    finally:
        project.game.cards = original
        project.game.__post_init__()
    assert [code for code, _ in missing] == [card.code]


@pytest.mark.parametrize("lang", LANGS)
def test_tables_break_across_pages_with_the_header_repeated(project, rulebooks, lang):
    reader = _reader(rulebooks[lang][0])
    texts = page_texts(rulebooks[lang][0])
    loc = project.locale(lang)
    units = _squash("".join(loc.get(f"label.{k}") for k in ("card", "level-short", "atk", "def", "energy", "copies", "type", "effect")))
    others = _squash("".join(loc.get(f"label.{k}") for k in ("card", "bonus", "copies", "type", "effect")))
    headers = 0
    outline = _flat_outline(reader)
    reference = next(page for _, title, page in outline if title == loc.get("rules.reference.heading"))
    quick = outline[-1][2]  # the pictures before the reference show cards with their codes; the quick reference none
    for page in texts[reference:quick]:
        text = _squash(page)
        here = text.count(units) + text.count(others)
        if re.search(r"[A-Z]{3}-\d\d", text):
            assert here >= 1, "a page with card rows has a header row"
        headers += here
    tables = 2 * len(project.game.factions)
    assert headers >= tables  # every table has its header; one that continues on another page has it again there
    if lang != "ko":  # (the Korean tables happen to end where pages do)
        assert headers > tables


def test_rulebook_states_the_rule_constants_from_cards_yaml(game_copy, tmp_path):
    import ppgen
    from ppgen.write.standalone import write_part

    def text_of(root, name):
        project = ppgen.load(root)
        return _phrases(write_part(project, "en", "rulebook", tmp_path / name, "a4").path)

    before = text_of(game_copy, "before.pdf")
    cards = (game_copy / "cards.yaml").read_text(encoding="utf-8")
    cards = cards.replace("starting_life: 20", "starting_life: 25").replace("hand_limit: 5", "hand_limit: 7")
    (game_copy / "cards.yaml").write_text(cards, encoding="utf-8")
    after = text_of(game_copy, "after.pdf")
    assert _squash("Each player starts with 20 life points") in before
    assert _squash("Each player starts with 25 life points") in after and _squash("starts with 20 life points") not in after
    assert _squash("discard down to 7") in after and _squash("discard down to 5") in before
    assert _squash("rotate it to 25.") in after and _squash("rotate it to 20.") in before


def test_missing_translation_falls_back_to_english_and_is_reported(game_copy, tmp_path):
    import ppgen
    from ppgen.write.report import BuildReport
    from ppgen.write.standalone import write_part

    path = game_copy / "locales" / "ja.yaml"
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(r"rules\.goal\.2:\n  text: .*\n  src: .*\n", "", text)
    assert n == 1
    path.write_text(text, encoding="utf-8")
    project = ppgen.load(game_copy)
    report = BuildReport()
    out = write_part(project, "ja", "rulebook", tmp_path / "ja.pdf", "a4", report).path
    assert [(w.code, w.lang, w.subject) for w in report.warnings] == [("fallback", "ja", "rules.goal.2")]
    english = project.locale("en").get("rules.goal.2")
    assert _squash(english) in _phrases(out)


def test_fallback_is_reported_even_when_looked_up_before(game_copy, tmp_path):
    """A key that fell back earlier in the process (e.g. while drawing cards) is still reported for the rulebook."""
    import ppgen
    from ppgen.write.report import BuildReport
    from ppgen.write.standalone import write_part

    path = game_copy / "locales" / "ko.yaml"
    text = re.sub(r"card\.hastati-line\.name:\n  text: .*\n  src: .*\n", "", path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    project = ppgen.load(game_copy)
    project.card_name(project.game.card("hastati-line"), "ko")  # an earlier stage used it
    report = BuildReport()
    write_part(project, "ko", "rulebook", tmp_path / "ko.pdf", "a4", report)
    assert [w.subject for w in report.warnings] == ["card.hastati-line.name"]


@pytest.mark.parametrize("paper, size", [("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))])
def test_page_size_and_numbers(rulebooks, letter_rulebooks, paper, size):
    path = (rulebooks if paper == "a4" else letter_rulebooks)["ko"][0]  # write_part(project, "ko", "rulebook", …, paper)
    reader = _reader(path)
    for page in reader.pages:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == size
    last = len(reader.pages)
    # page numbers: every page but the title page shows its own number on its last line of folio text
    for i, lines in enumerate(printed_lines(path)[1:], 2):
        assert re.search(rf"(^|\n){i}(\n|$)", "\n".join(line.text for line in lines)), (paper, i)
    assert last > 8


def test_fonts_are_embedded_and_rebuilds_are_byte_identical(project, rulebooks, tmp_path):
    from ppgen.write.standalone import write_part

    base14 = {"Helvetica", "Times-Roman", "Courier", "Symbol", "ZapfDingbats"}
    for lang in LANGS:
        reader = _reader(rulebooks[lang][0])
        seen = set()
        for page in reader.pages:
            fonts = page["/Resources"].get_object().get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                name = str(font["/BaseFont"])
                seen.add(name)
                assert not any(b in name for b in base14), (lang, name)
                descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
                assert "/FontFile2" in descendant["/FontDescriptor"].get_object(), (lang, name)
        assert seen
    again = write_part(project, "zh", "rulebook", tmp_path / "again.pdf", "a4").path
    assert again.read_bytes() == rulebooks["zh"][0].read_bytes()


def test_no_warnings_for_the_shipped_game(rulebooks):
    for lang in LANGS:
        assert rulebooks[lang][1] == [], lang


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_heading_never_ends_a_page(project, rulebooks, letter_rulebooks, paper):
    """Keep-with-next: below every section heading, on its page, the section's text begins."""
    import pypdfium2 as pdfium

    from ppgen.draw.style import mm

    rulebooks = rulebooks if paper == "a4" else letter_rulebooks
    for lang in LANGS:
        loc = project.locale(lang)
        structure = _structure(project)
        headings = [loc.get(s.heading) for s in structure.all_sections] + [loc.get("rules.reference.heading")]
        pdf = pdfium.PdfDocument(str(rulebooks[lang][0]))
        found = 0
        for i in range(1, len(pdf)):
            page = pdf[i]
            width, _ = page.get_size()
            text = page.get_textpage()
            for heading in headings:
                searcher = text.search(heading, match_case=True)
                hit = searcher.get_next()
                while hit:
                    index, count = hit
                    boxes = [text.get_charbox(index + k) for k in range(count)]
                    bottom = min(b[1] for b in boxes)
                    if max(b[3] - b[1] for b in boxes) > 11:  # set in the heading size, not a mention in body text
                        below = text.get_text_bounded(0, mm(21), width, bottom - 6).strip()
                        assert below, (lang, i + 1, heading)
                        found += 1
                    hit = searcher.get_next()
        assert found >= len(headings), (lang, found)  # some are also the headings of the quick reference's panels


def test_bad_structure_is_reported_with_its_position(game_copy):
    import ppgen
    from ppgen.errors import DataError
    from ppgen.read.rulebook import load_structure

    path = game_copy / "templates" / "rulebook.yaml"
    text = path.read_text(encoding="utf-8").replace("{paragraph: rules.kamikaze.1}", "{paragraf: rules.kamikaze.1}")
    text = text.replace("heading: rules.energy.heading", "heading: rules.energy.headline")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_structure(ppgen.load(game_copy))
    messages = [str(p) for p in exc.value.problems]
    assert any(re.match(r"templates/rulebook\.yaml:\d+:\d+: .*'paragraf'.*did you mean 'paragraph'", m) for m in messages), messages
    assert any("rules.energy.headline" in m and re.match(r"templates/rulebook\.yaml:\d+:\d+:", m) for m in messages), messages


def test_bad_style_value_is_reported_with_its_position(game_copy, tmp_path):
    import ppgen
    from ppgen.errors import DataError
    from ppgen.write.standalone import write_part

    path = game_copy / "templates" / "rulebook-style.yaml"
    text = path.read_text(encoding="utf-8").replace('heading: "#7A2E1C"', 'heading: "oxblood"').replace("  body: 9.5", "  bodi: 9.5")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as exc:
        write_part(ppgen.load(game_copy), "en", "rulebook", tmp_path / "x.pdf")
    messages = "\n".join(str(p) for p in exc.value.problems)
    assert re.search(r"templates/rulebook-style\.yaml:\d+:\d+: .*'heading' must be a colour", messages), messages
    assert re.search(r"templates/rulebook-style\.yaml:\d+:\d+: .*'bodi'.*did you mean 'body'", messages), messages
    assert not (tmp_path / "x.pdf").exists()


# ── structure: contents, what to print, pages that are full ──────────────
@pytest.mark.parametrize("lang", LANGS)
def test_contents_page_numbers_match_the_outline(project, rulebooks, letter_rulebooks, lang):
    """Each entry of the printed table of contents carries the page its bookmark opens (and whose
    folio prints that number), on A4 and on Letter (where the pages fall differently)."""
    loc = project.locale(lang)
    for books in (rulebooks, letter_rulebooks):
        reader = _reader(books[lang][0])
        pages = printed_lines(books[lang][0])  # each page's lines, top to bottom; a contents entry's title and page apart
        outline = _flat_outline(reader)
        entries = [(title, page) for level, title, page in outline if level >= 1 and title != loc.get("rules.contents.heading")]
        assert len(entries) > 20
        contents = next(page for _, title, page in outline if title == loc.get("rules.contents.heading"))
        lines = [line.text.strip() for line in pages[contents]]
        start = next(i for i, line in enumerate(pages[contents])  # the heading (16 pt), not the running head (7.5 pt)
                     if lines[i] == loc.get("rules.contents.heading") and line.size > 11)
        printed = list(zip(lines[start + 1::2], lines[start + 2::2]))[:len(entries)]
        assert printed == [(title, str(page + 1)) for title, page in entries], lang
        for title, page in entries:  # the folio at the foot of that page says the same number
            assert pages[page][-1].text.strip() == str(page + 1)


def _empty_below(path, top_mm=17.0, bottom_mm=16.0):
    """For each page: the share of its text frame left empty under the last ink (rendered at 50 dpi)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    out = []
    for page in doc:
        img = page.render(scale=50 / 72).to_pil().convert("L")
        w, h = img.size
        px = h / (page.get_height() / 72 * 25.4)
        top, bottom = int(top_mm * px), h - int(bottom_mm * px)
        data = img.crop((0, top, w, bottom)).load()
        last = next((y for y in range(bottom - top - 1, -1, -1) if any(data[x, y] < 200 for x in range(w))), 0)
        out.append((bottom - top - 1 - last) / (bottom - top))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_is_more_than_a_third_empty(project, rulebooks, letter_rulebooks, lang):
    """Page breaks leave no page more than a third empty, unless what follows must start a new page
    (the quick reference, the last page); the title page aside."""
    for books in (rulebooks, letter_rulebooks):
        path = books[lang][0]
        outline = _flat_outline(_reader(path))
        last = outline[-1][2]  # the quick reference
        empty = _empty_below(path)
        assert len(empty) > 10
        for n, share in enumerate(empty[1:], 2):
            if n == last:  # the page before the quick reference's own page
                continue
            assert share <= 1 / 3, (lang, n, round(share, 2))


@pytest.mark.parametrize("lang", LANGS)
def test_the_short_what_to_print_table_is_never_split(project, rulebooks, letter_rulebooks, lang):
    """The four rows of "What to print" stand on one page, header and all (on A4 the en, ko and zh
    rulebooks split them two and two, the header printed twice for them), as a short list is kept."""
    import re

    loc = project.locale(lang)
    first, last = (re.sub(r"\s+", "", loc.get(k)) for k in ("rules.components.column-what", "rules.components.cards.paper"))
    for paper, books in (("a4", rulebooks), ("letter", letter_rulebooks)):
        pages = [re.sub(r"\s+", "", t) for t in page_texts(books[lang][0])]
        holding = [n for n, t in enumerate(pages, 1) if first in t or last in t]
        both = [n for n, t in enumerate(pages, 1) if first in t and last in t]
        assert both and len([n for n in holding if n <= both[0] + 1]) == 1, (lang, paper, holding)


@pytest.mark.parametrize("lang", LANGS)
def test_a_paragraph_reads_on_across_a_page_break_with_no_figure_between(project, rulebooks, letter_rulebooks, lang):
    """A paragraph split at a page break goes on at the top of the next page: no figure is set
    between its halves (a page of only a picture, or one at the top of the next page), on A4 and
    on Letter. Read back as the text in the pages' text frames, page after page: every paragraph
    and list item is found there whole, on one page or two, and every list's items one after the
    other (no figure between them)."""
    from pdftools import list_texts
    from ppgen.draw.style import mm
    from ppgen.read.styles import rulebook_style

    page = rulebook_style(project, "pages").page
    texts, lists = rule_texts(project, lang), list_texts(project, lang)
    assert len(texts) > 50 and len(lists) >= 5
    for paper, books in (("a4", rulebooks), ("letter", letter_rulebooks)):
        pages = frame_texts(books[lang][0], mm(page.head_offset + 3), mm(page.foot_offset + 4))
        assert read_on_problems(pages, texts) == [], (lang, paper)
        assert read_on_problems(pages, lists) == [], (lang, paper)


@pytest.mark.parametrize("lang", LANGS)
def test_no_developer_wording_and_the_tagline_reads_as_a_sentence(project, rulebooks, lang):
    text = _squash(" ".join(page_texts(rulebooks[lang][0])))
    for words in ("generated from the card database", "カードデータベースから生成", "카드 데이터베이스에서 생성", "由卡牌数据库生成",
                  "card database", "database"):
        assert _squash(words) not in text, (lang, words)
    if lang == "en":
        assert project.locale("en").get("rules.tagline").startswith("A ")


def _rulebook_text(project, lang, **options):
    from ppgen.write.build import BuildOptions
    from ppgen.write.parts import rulebook_part
    from ppgen.write.report import BuildReport

    opts = BuildOptions.resolve(project, lang=lang, **options)
    part = rulebook_part(project, opts, lang, [], BuildReport())
    return _phrases(part.data)


def test_what_to_print_and_how_follows_the_build(project):
    """The components table and the print page state this build's numbers and choices."""
    from ppgen.write.build import BuildOptions
    from ppgen.write.parts import mat_plan

    a4 = _rulebook_text(project, "en")
    sheets = len(mat_plan(project, BuildOptions.resolve(project, lang="en"))[1])
    assert sheets == 2
    assert _squash("4 sheets: 2 for each player’s mat") in a4
    assert _squash("280 cards and 2 quick-reference cards on 64 pages") in a4
    assert _squash("flip on the long edge") in a4 and _squash("Cut sheet 2 along its dashed line") in a4
    for die in ("d20", "d12", "two d6", "green and 3 red d6"):
        assert _squash(die) in a4, die
    assert _squash("The mat’s card zones (67 × 92 mm) hold sleeved cards") in a4
    short = _rulebook_text(project, "en", duplex="short", mat="large", sleeves=False)
    assert _squash("flip on the short edge") in short and _squash("flip on the long edge") not in short
    assert _squash("Cut sheet 2 along its dashed line") not in short and _squash("2 sheets: 1 for each player’s mat") in short
    assert _squash("(64 × 89 mm)") in short and _squash("Each player mat is one A3 sheet") in short
    rome = _rulebook_text(project, "en", factions=["rome"], parts="rulebook,cards")  # no quick-reference cards printed
    assert _squash("40 cards on 10 pages") in rome and _squash("2 quick-reference cards") not in rome
    assert _squash("カード40枚、10ページ") in _rulebook_text(project, "ja", factions=["rome"], parts="rulebook,cards")


def test_the_pictures_follow_the_card_data(game_copy, tmp_path):
    """The combat example and its walkthrough are drawn from the cards `templates/rulebook.yaml`
    names: another ATK on the archer's card changes the example's numbers, the card drawn in the
    walkthrough and the dice (the d20 after the first attack); cards that cannot tell the story are refused."""
    import ppgen
    from ppgen.errors import DataError
    from ppgen.write.standalone import write_part

    def text_of(root, name):
        return _phrases(write_part(ppgen.load(root), "en", "rulebook", tmp_path / name, "a4").path)

    before = text_of(game_copy, "before.pdf")
    assert _squash("Archer attacks: 2 vs 6 → the archer is destroyed, you take 4 LP damage") in before
    assert _squash("you lose 4 LP (your d20: 16)") in before
    cards = game_copy / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    block = re.compile(r"(- id: spartan-archer\n(?:        .*\n)*?        atk: )2\n")
    cards.write_text(block.sub(r"\g<1>3\n", text, count=1), encoding="utf-8")
    after = text_of(game_copy, "after.pdf")
    assert _squash("Archer attacks: 3 vs 6 → the archer is destroyed, you take 3 LP damage") in after
    assert _squash("you lose 3 LP (your d20: 17)") in after and _squash("3 vs 6") in after
    cards.write_text(block.sub(r"\g<1>6\n", text, count=1), encoding="utf-8")  # as strong as the boss: no story
    with pytest.raises(DataError, match="cannot tell the combat example"):
        ppgen.load(game_copy) and text_of(game_copy, "broken.pdf")


@pytest.mark.parametrize("lang", LANGS)
def test_contents_leaders_are_even_dots_from_the_title_to_the_page_number(rulebooks, lang):
    """Each contents entry's leader: round dots, evenly spaced, from just after its title to just
    before its page number, on the entry's baseline (one stroked path, not a circle per dot)."""
    import numpy as np

    from pdftools import glyphs, render

    path, _ = rulebooks[lang]
    page, dpi = 1, 200  # the contents: the second page
    rows: dict[float, list] = {}
    for g in glyphs(path, pages=[page])[0]:
        if not g.ch.isspace():
            rows.setdefault(round(g.baseline, 1), []).append(g)
    entries = []
    for base in sorted(rows, reverse=True):  # top to bottom: title glyphs, a wide gap, the page number
        row = sorted(rows[base], key=lambda g: g.x0)
        cut = max(range(1, len(row)), key=lambda k: row[k].x0 - row[k - 1].x1, default=0)
        if cut and row[cut].x0 - row[cut - 1].x1 > 60 and all(g.ch.isdigit() for g in row[cut:]):
            entries.append((row[:cut], row[cut:]))
    assert len(entries) >= 15, len(entries)
    image = np.asarray(render(path, page, dpi).convert("L"))
    px = dpi / 72
    for title, number in entries[:4]:
        size = max(g.size for g in title)
        row = int(round((image.shape[0] / px - title[0].baseline - size * 0.07) * px))
        band = image[row - 2:row + 3, int(title[-1].x1 * px):int(number[0].x0 * px)].min(axis=0) < 200
        starts = np.flatnonzero(band[1:] & ~band[:-1])
        assert len(starts) >= 5, (lang, "".join(g.ch for g in title))
        gaps = np.diff(starts) / px
        assert gaps.max() - gaps.min() < 1.0 and abs(gaps.mean() - size * 0.45) < 0.6, (lang, gaps)
        first_dot, last_dot = title[-1].x1 + starts[0] / px, title[-1].x1 + starts[-1] / px
        # the dots start within a step of the title's end (plus its 0.4 em of air) and stop 0.4 em before the number
        assert first_dot - title[-1].x1 < size * (0.4 + 0.45) + 1 and number[0].x0 - last_dot < size * 0.4 + 1.5, (lang, first_dot, last_dot)


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "zh"])
def test_the_energy_tables_last_number_keeps_clear_of_its_frame(rulebook_files, project, lang):
    """The quick reference's energy table: "12", in the last cell, touched the table's right rule
    while the row labels keep an inset from its left one. On the rendered page, the gap from the
    last number to the frame is at least the label's (2.2–2.7 pt against 3.8–5.1 before)."""
    import pypdfium2 as pdfium

    path, _ = rulebook_files[(lang, "a4")]
    pdf = pdfium.PdfDocument(str(path))
    page = pdf[len(pdf) - 1]  # the quick reference is the back page
    text = page.get_textpage()
    chars = text.get_text_range()
    label_at = chars.rindex(project.locale(lang).get("mat.energy-max"))  # the row's label, "Max energy"
    at = chars.index("12", label_at)  # its last number
    _, bottom, right, top = text.get_charbox(at + 1)
    scale = 8
    image = page.render(scale=scale).to_pil().convert("L")
    height = page.get_height()
    y = int((height - (bottom + top) / 2) * scale)
    background = image.getpixel((int(right * scale) + 2, y))

    def frame_from(x0, step):
        x = x0
        while abs(image.getpixel((x, y)) - background) < 40:
            x += step
        return x

    gap_right = (frame_from(int(right * scale) + 2, 1) - right * scale) / scale
    left, lbottom, _, ltop = text.get_charbox(label_at)
    y = int((height - (lbottom + ltop) / 2) * scale)
    gap_left = (left * scale - frame_from(int(left * scale) - 2, -1)) / scale
    assert gap_right >= gap_left, (gap_left, gap_right)


@pytest.mark.parametrize("lang", LANGS)
def test_card_anatomy_leaders_end_on_a_panels_edge_never_on_its_text(project, lang):
    """'Reading a card': each callout's leader ends halfway along the edge of what it names that
    faces the callout — the panel a text is set in (a justified effect's lines run to its own box's
    edge, so a dot inside that box lands on words), a disc's rim, just clear of a text without a
    panel (the collector code) — and on the card."""
    from ppgen.draw import anatomy
    from ppgen.draw.faces import CardGeometry, front_face
    from ppgen.draw.style import mm
    from ppgen.read.rulebook import load_structure

    roles = load_structure(project).anatomy
    geometry = CardGeometry.named("poker")
    for role in ("unit", "other"):
        face = front_face(project, project.game.card(roles[role]), lang, geometry)
        marks = anatomy.callouts(face, role == "unit")
        assert {m.element for m in marks} >= {"effect", "type_line"}
        for m in marks:
            ax, ay = anatomy.anchor(face, m, 0.0, 0.0, 1.0)
            ex, ey, ew, eh = face.box(face.elements[m.element])
            panel = anatomy.PANELS.get(m.element)
            px, py, pw, ph = face.box(face.elements[panel]) if panel in face.elements else (ex, ey, ew, eh)
            assert 0 <= ax <= geometry.width and 0 <= ay <= geometry.height, (role, m)
            if m.side == "below":
                assert ax == pytest.approx(ex + ew / 2) and ay <= ey + 1e-6, (role, m)
                continue
            assert ay == pytest.approx(ey + eh / 2), (role, m)
            edge = px + pw if m.side == "right" else px
            clear = mm(anatomy.OUTSIDE) if m.element in anatomy.BARE_TEXTS else 0.0
            assert ax == pytest.approx(edge + clear if m.side == "right" else edge - clear), (role, m)
            assert (ax >= ex + ew) if m.side == "right" else (ax <= ex), (role, m)  # outside the text's own box


def _two_line_breaks(pdf_path, texts: list[str], lang: str) -> list[tuple[str, str, bool]]:
    """Each of `texts` (with a comma) as the PDF prints it on two lines: (first line, second line,
    whether the break is at a space of a language that breaks at spaces)."""
    import pypdfium2 as pdfium
    from pdftools import across_lines

    pdf = pdfium.PdfDocument(str(pdf_path))
    text = "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf))).replace("\r", "")
    out = []
    for term in texts:
        if not any(c in term for c in ",、，"):
            continue
        found = re.search(across_lines(term), text)
        assert found, (lang, term)
        printed = found.group()
        if printed.count("\n") == 1:
            before, after = printed.split("\n")
            at_a_space = lang in ("en", "ko") and term.replace("\n", " ").find(f"{before.rstrip()} {after.lstrip()[:1]}") == 0
            out.append((before.rstrip(), after, at_a_space))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_card_term_that_takes_two_lines_breaks_after_its_comma(project, rulebook_files, lang, paper):
    """The card terms table: a term cell listing several words ("コントロールする、自分フィールドの")
    that needs two lines breaks after a comma, never inside a word ("自分フィー / ルドの") — read back
    from the PDF, every such cell in every language and paper. (English and Korean, which break at
    spaces, may break between two words where no break after a comma gives two lines that fit.)"""
    from ppgen.read.rulebook import load_structure, term_keys
    from ppgen.typeset.text import plain

    loc = project.locale(lang)
    terms = [plain(loc.get(term_keys(t)[0])) for t in load_structure(project).term_ids()]
    breaks = _two_line_breaks(rulebook_files[lang, paper][0], terms, lang)
    assert breaks, (lang, paper)
    for before, after, at_a_space in breaks:
        assert before[-1] in ",、，" or at_a_space, (lang, paper, before, after)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_card_name_on_two_lines_in_the_card_reference_breaks_after_its_comma(project, rulebook_files, lang, paper):
    """The card reference: a name with a comma ("汉尼拔·巴卡，机动大师") that takes two lines in its
    cell breaks after the comma, as on the card — not inside the title ("机动 / 大师")."""
    names = [project.card_name(c, lang) for c in project.game.cards]
    for before, after, at_a_space in _two_line_breaks(rulebook_files[lang, paper][0], names, lang):
        assert before[-1] in ",、，" or at_a_space, (lang, paper, before, after)


@pytest.mark.parametrize("width_mm", [100, 112, 124, 136, 150, 180, 200])
def test_the_example_on_the_table_leaves_room_between_your_dice_and_the_enemy_card(width_mm):
    """The walkthrough's row at any width (the booklet's A5 column to A4's): your two cards, your
    dice, an arrow at least 8 mm long, the enemy's card and its life die, each clear of the next and
    inside the picture (on A5 the enemy's card covered your dice and the attack's "2 vs 6")."""
    from ppgen.draw.faces import CardGeometry
    from ppgen.draw.style import mm
    from ppgen.draw.walkthrough import LARGEST, table_row

    g = CardGeometry.named("poker")
    row = table_row(g.width, g.height, 0.0, mm(width_mm))
    cw = g.width * row["scale"]
    assert 0 < row["scale"] <= LARGEST
    assert row["units"][0] >= mm(3) and row["units"][1] >= row["units"][0] + cw
    dice_left, dice_right = row["dice"] - row["die"] / 2, row["dice"] + row["die"] / 2
    assert dice_left >= row["units"][1] + cw + mm(3)
    arrow = (row["boss"] - mm(1.5)) - (dice_right + mm(2))
    assert arrow >= mm(8), (width_mm, arrow / mm(1))
    assert row["boss"] + cw <= row["opponent_die"] - row["die"] / 2 and row["opponent_die"] + row["die"] / 2 <= row["right"]
