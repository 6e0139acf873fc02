"""write/join.py: PDFs ppgen drew, joined at the level of their bytes (the assembled set).

The set itself is checked in test_assembly.py and test_duplex.py (every part's pages in order,
outline, fonts, blank backs, qpdf, pixels); here, what a byte-level join could get wrong on
inputs the starter set does not hold: references written inside strings, comments, closed
outline entries, a page placed twice, and a file it must refuse rather than misread."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from pdftools import font_programs, outline, reader, texts
from ppgen.write.join import Join, JoinError, Source, parse_value, renumber


def _pdf(project, lang: str, title: str, lines: list[str], outline: list[tuple[str, int, bool]] = ()) -> bytes:
    """A PDF drawn as ppgen draws one (new_document: embedded fonts), a page per line, and
    outline entries (title, level, closed), the n-th going to the n-th page."""
    from ppgen.write.parts import new_document

    doc = new_document(project, lang, title)
    canvas = doc.canvas
    font = project.fonts.chain(lang, "body").primary
    for n, line in enumerate(lines):
        canvas.setFont(font, 14)
        canvas.drawString(72, 720, line)
        canvas.bookmarkPage(f"p{n}")
        canvas.showPage()
    for n, (entry, level, closed) in enumerate(outline):
        canvas.addOutlineEntry(entry, f"p{n}", level, closed)
    return doc.data()


def _joined(*parts: tuple[bytes, bool], items=()) -> bytes:
    join = Join()
    for data, with_outline in parts:
        join.append(data, outline=with_outline)
    for title, page in items:
        join.add_item(title, page)
    return join.write("Test — テスト", "en", "DuplexFlipLongEdge", b"".join(d for d, _ in parts))


def test_references_and_parentheses_inside_strings_are_left_as_written(project):
    """A title saying "3 0 R" (and nested, escaped parentheses) is text, not a reference."""
    tricky = "see 3 0 R (a (b) c) \\ 12 0 R)"
    first = _pdf(project, "en", tricky, ["one", "two"], [(tricky, 0, False), ("Two (2 0 R)", 1, False)])
    second = _pdf(project, "en", "second", ["three"])
    data = _joined((first, True), (second, False), items=[("Third 4 0 R", 2)])
    pdf = reader(data)
    assert [" ".join(t.split()) for t in texts(data)] == ["one", "two", "three"]
    assert outline(pdf) == [(0, tricky, 0), (1, "Two (2 0 R)", 1), (0, "Third 4 0 R", 2)]
    assert pdf.metadata.title == "Test — テスト"
    assert parse_value(b"(a (b) \\) 1 0 R) 2 0 R")[0] == b"(a (b) \\) 1 0 R)"
    assert renumber(b"<< /A (1 0 R) /B 1 0 R /C [ 11 0 R ] >>", lambda n: n + 100) == b"<< /A (1 0 R) /B 101 0 R /C [ 111 0 R ] >>"


def test_closed_outline_entries_stay_closed_and_counts_follow_the_tree(project):
    """ISO 32000-1 §12.3.3: an open entry counts the entries shown under it, a closed one the
    negative of those it would show; the outline's root counts every entry shown."""
    data = _pdf(project, "en", "book", list("abcdef"),
                [("A", 0, True), ("A.1", 1, False), ("A.2", 1, False), ("B", 0, False), ("B.1", 1, False), ("B.1.a", 2, False)])
    pdf = reader(_joined((data, True)))
    root = pdf.trailer["/Root"]["/Outlines"]
    first = root["/First"].get_object()
    second = first["/Next"].get_object()
    assert (first["/Title"], first["/Count"]) == ("A", -2)
    assert (second["/Title"], second["/Count"]) == ("B", 2)
    assert second["/First"]["/Count"] == 1
    assert root["/Count"] == 2 + 2  # A and B; B's two open descendants (A's are hidden)
    assert [(level, title) for level, title, _ in outline(pdf)] == [(0, "A"), (1, "A.1"), (1, "A.2"), (0, "B"), (1, "B.1"), (2, "B.1.a")]
    assert [page for _, _, page in outline(pdf)] == list(range(6))


def test_a_page_placed_twice_is_two_page_objects_sharing_one_drawing(project):
    blank = Source(_pdf(project, "en", "blank", ["blank"]))
    join = Join()
    join.append(_pdf(project, "en", "book", ["a", "b"]))
    join.add_page(blank.pages[0])
    join.insert_page(blank.pages[0], 1)
    data = join.write("t", "en", "Simplex", b"")
    pdf = reader(data)
    assert [" ".join(t.split()) for t in texts(data)] == ["a", "blank", "b", "blank"]
    pages = [page.indirect_reference.idnum for page in pdf.pages]
    assert len(set(pages)) == 4
    assert pdf.pages[1].raw_get("/Contents").idnum == pdf.pages[3].raw_get("/Contents").idnum


def test_one_subset_drawn_identically_by_two_parts_is_embedded_once(project):
    same = _pdf(project, "ja", "x", ["同じ文字"])
    other = _pdf(project, "ja", "y", ["違う文字です"])
    fonts = font_programs(_joined((same, False), (same, False), (other, False)))
    names = sorted(base for base, _, _ in fonts.values())
    assert len(names) == 2 and len({n[1:7] for n in names}) == 2, names
    assert all(base == name for base, name, _ in fonts.values())


def test_one_picture_placed_by_two_parts_is_embedded_once(project):
    """A card's art in the rulebook's pictures and on the card sheets: the same image, with its
    soft mask, kept once; a picture that differs is kept too."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    from ppgen.write.parts import new_document

    art = Image.new("RGBA", (40, 30), (200, 30, 30, 128))
    other = Image.new("RGB", (40, 30), (30, 30, 200))

    def drawn(*pictures) -> bytes:
        doc = new_document(project, "en", "pictures")
        for n, picture in enumerate(pictures):
            doc.canvas.drawImage(ImageReader(picture), 72 + 60 * n, 600, 40, 30, mask="auto")
        doc.canvas.showPage()
        return doc.data()

    data = _joined((drawn(art), False), (drawn(art, other), False))
    pdf = reader(data)
    found = [pdf.get_object(n) for n in range(1, pdf.trailer["/Size"])]
    pictures = [o for o in found if hasattr(o, "get") and o.get("/Subtype") == "/Image"]
    assert sorted((int(o["/Width"]), "/SMask" in o) for o in pictures) == [(40, False), (40, False), (40, True)]  # art, its mask, other
    first, second = (page["/Resources"]["/XObject"] for page in pdf.pages)
    assert list(first.values())[0].idnum in [ref.idnum for ref in second.values()]


def test_joining_is_deterministic(project):
    parts = ((_pdf(project, "ko", "a", ["하나", "둘"], [("하나", 0, False)]), True), (_pdf(project, "zh", "b", ["三"]), False))
    assert _joined(*parts) == _joined(*parts)


@pytest.mark.skipif(not shutil.which("qpdf"), reason="qpdf is not installed (apt-get install qpdf)")
def test_the_joined_file_passes_qpdf_check_and_a_file_of_another_writer_is_refused(project, tmp_path):
    data = _joined((_pdf(project, "en", "a", ["a"], [("A", 0, False)]), True), (_pdf(project, "ja", "b", ["い"]), False))
    path = tmp_path / "joined.pdf"
    path.write_bytes(data)
    check = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    assert check.returncode == 0 and "No syntax or stream encoding errors found" in check.stdout, check.stdout
    streams = tmp_path / "streams.pdf"  # the same file, its objects in object streams (a cross-reference stream)
    subprocess.run(["qpdf", "--object-streams=generate", str(path), str(streams)], check=True)
    with pytest.raises(JoinError, match="cross-reference"):
        Source(streams.read_bytes())


def test_a_part_whose_catalog_holds_more_than_the_join_makes_is_refused(project):
    """Named destinations (links), page labels, forms live in the catalog, which the join makes
    anew: a part with any of them is a JoinError, never a set that silently lost them."""
    from ppgen.write.parts import new_document

    doc = new_document(project, "en", "labels")
    doc.canvas.addPageLabel(0, "ROMAN_LOWER")
    doc.canvas.drawString(72, 720, "i")
    doc.canvas.showPage()
    with pytest.raises(JoinError, match="/PageLabels"):
        Join().append(doc.data())
