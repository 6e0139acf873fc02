"""The page flow alone, on small made-up documents: page breaks, keep-with-next, widows, tables, groups."""
from __future__ import annotations

import io

import pytest

from ppgen.typeset import flow as fl


@pytest.fixture
def styles(project):
    from ppgen.draw.style import text_style

    return text_style(project, "en", "body", 10, leading=1.2), text_style(project, "en", "bold", 14, leading=1.2)


def _run(project, blocks, height=300.0):
    """Flow blocks into 200 × `height` pt pages; return each page's text lines."""
    from pypdf import PdfReader

    from ppgen.write.parts import new_document

    doc = new_document(project, "en", "flow")
    c = doc.canvas
    c.setPageSize((300, height + 100))
    flow = fl.PageFlow(c, lambda page: fl.Frame(50, 50, 200, height))
    flow.run(blocks)
    flow.finish()
    pages = PdfReader(io.BytesIO(doc.data())).pages
    return [[line for line in p.extract_text().split("\n") if line.strip()] for p in pages]


def _lines(n, word="line"):
    return "\n".join(f"{word} {i}" for i in range(1, n + 1))


def test_a_heading_moves_to_the_page_where_its_text_starts(project, styles):
    body, bold = styles
    # 10 pt at 1.2 leading = 12 pt a line: a paragraph of n lines is 12n - 0.4 pt tall, on 300 pt pages
    filler = fl.Paragraph(_lines(23, "filler"), body)
    pages = _run(project, [filler, fl.Paragraph("Heading", bold, keep_with_next=True, space_before=6),
                           fl.Paragraph(_lines(3, "text"), body)])
    assert pages[0][-1] == "filler 23"
    assert pages[1][:2] == ["Heading", "text 1"]


def test_a_heading_stays_with_a_list_that_moves_whole(project, styles):
    body, bold = styles
    items = [fl.Paragraph(f"item {i}", body) for i in range(1, 5)]
    pages = _run(project, [fl.Paragraph(_lines(21, "filler"), body), fl.Paragraph("Heading", bold, keep_with_next=True),
                           fl.Group(items, prefer_whole=True)])
    # the heading and two items would fit, but the list keeps together: the heading goes with it
    assert pages[0][-1] == "filler 21" and pages[1] == ["Heading", "item 1", "item 2", "item 3", "item 4"]


def test_paragraphs_split_between_lines_leaving_two_on_each_side(project, styles):
    body, _ = styles
    pages = _run(project, [fl.Paragraph(_lines(20, "a"), body), fl.Paragraph(_lines(6, "b"), body)])
    # 24 lines fit a page: "b" splits 4 + 2
    assert pages[0][-4:] == ["b 1", "b 2", "b 3", "b 4"] and pages[1] == ["b 5", "b 6"]
    pages = _run(project, [fl.Paragraph(_lines(23, "a"), body), fl.Paragraph(_lines(3, "b"), body)])
    # 2 lines of room, but a 3-line paragraph cannot leave two on each side: it moves whole
    assert pages[0][-1] == "a 23" and pages[1] == ["b 1", "b 2", "b 3"]


def test_a_table_repeats_its_header_on_every_page_and_keeps_its_column_widths(project, styles):
    body, bold = styles
    header = [fl.Cell("Name", bold), fl.Cell("N", bold)]
    rows = [[fl.Cell(f"row {i}", body), fl.Cell(str(i * 111), body)] for i in range(1, 41)]
    table = fl.Table([fl.Column(weight=1), fl.Column(fit=True, align="right")], header, rows, fl.TableStyle(pad_x=2, pad_y=2))
    widths = table.column_widths(200)
    pages = _run(project, [table])
    assert len(pages) > 2
    seen = []
    for page in pages:
        assert page[:2] == ["Name", "N"]
        seen += [line for line in page[2:] if line.startswith("row")]
    assert seen == [f"row {i}" for i in range(1, 41)]
    first, rest = table.split(200, 100)
    assert first.column_widths(200) == rest.column_widths(200) == widths


def test_a_list_group_never_leaves_one_item_alone(project, styles):
    body, _ = styles
    items = [fl.Paragraph(f"item {i}", body) for i in range(1, 4)]
    pages = _run(project, [fl.Paragraph(_lines(23, "a"), body), fl.Group(items)])
    # room for 2 of the 3 items, but that would leave 1 alone on the next page: the list moves
    assert pages[0][-1] == "a 23" and pages[1] == ["item 1", "item 2", "item 3"]
    items = [fl.Paragraph(f"item {i}", body) for i in range(1, 7)]
    pages = _run(project, [fl.Paragraph(_lines(22, "a"), body), fl.Group(items)])
    assert pages[0][-3:] == ["item 1", "item 2", "item 3"] and pages[1] == ["item 4", "item 5", "item 6"]


def test_page_breaks_and_markers(project, styles):
    body, _ = styles
    landed = []
    pages = _run(project, [
        fl.Paragraph("one", body),
        fl.PageBreak(),
        fl.PageBreak(),  # on an empty page: no blank page
        fl.Marker(lambda flow, x, top: landed.append(flow.page)),
        fl.Paragraph("two", body),
    ])
    assert pages == [["one"], ["two"]] and landed == [2]


def _figure(height, label="FIGURE"):
    """A float `height` pt tall whose only text is `label`."""
    return fl.Float(fl.Figure(height, lambda c, x, top, width, h: c.drawString(x, top - 10, label)))


def test_a_paragraph_moves_whole_past_a_waiting_float_when_that_leaves_little_room(project, styles):
    body, _ = styles
    # 20 lines leave 60 pt (a fifth of the page): the figure waits; the paragraph after it would
    # split 4 + 2 around it, so it follows it to the next page whole
    pages = _run(project, [fl.Paragraph(_lines(20, "a"), body), _figure(200), fl.Paragraph(_lines(6, "b"), body)])
    assert pages[0] == [f"a {i}" for i in range(1, 21)]
    assert pages[1] == ["FIGURE"] + [f"b {i}" for i in range(1, 7)]


def test_a_split_paragraph_runs_on_before_a_waiting_float(project, styles):
    body, _ = styles
    # 10 lines leave 180 pt, too much to leave empty: the paragraph splits 15 + 5, its rest starts
    # the next page and the figure follows where it ends (it fits there), then the text goes on
    pages = _run(project, [fl.Paragraph(_lines(10, "a"), body), _figure(190), fl.Paragraph(_lines(20, "b"), body),
                           fl.Paragraph(_lines(3, "c"), body)])
    assert pages[0][-1] == "b 15"
    assert pages[1] == [f"b {i}" for i in range(16, 21)] + ["FIGURE", "c 1", "c 2", "c 3"]
    # a figure the rest of that page cannot hold waits for the next page; the text fills this one
    pages = _run(project, [fl.Paragraph(_lines(10, "a"), body), _figure(250), fl.Paragraph(_lines(30, "b"), body),
                           fl.Paragraph(_lines(3, "c"), body)])
    assert pages[1] == [f"b {i}" for i in range(16, 31)] + ["c 1", "c 2", "c 3"] and pages[2] == ["FIGURE"]
