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
    from pdftools import operations

    ops = operations(page.get_contents())
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
            "bridge-letter": part(card_size="bridge", paper="letter", factions=["rome"]),
            "turned": part(card_thickness="1", factions=["rome"])}  # a net that fits A4 only turned a quarter


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


# ── the folded box: which way each panel's text faces ─────────────────────────
# The fold model. The net is printed on the outside of the box and seen from its printed side.
# Its four long dashed folds cut it into five strips that wrap into a tube: every strip is one
# quarter turn further round than its neighbour (seen from above), so the two wide strips are
# the front and the back, opposite each other, with a narrow side between and beyond them; the
# fifth strip is the glue flap (glued inside). The back is the wide strip that carries the lid
# and, beyond it, the tuck flap: the lid folds over from the back's top edge, covers the top and
# its tuck flap goes down into the front (the strip with the thumb notch). So the lid side of
# the net is the box's top. Below the body the back's bottom flap is the box's outside bottom
# (the front's goes under it, glued: hidden). Box axes: X to the right and Z up as you face the
# front, Y away from you (into the box).
#
# Where each face reads upright (the viewer's up U and right R, R = U × outward normal):
#   front, back, sides  the box standing on its bottom, the face turned to you: U = Z;
#   a side's text set along the box's height (the spine's title), the box lying on its back
#                       (front up), the side turned to you — as a book's spine: U = the front's normal;
#   the lid             seen from above with the front towards you: U = towards the back;
#   the bottom          the box tipped back (top away from you) to show it: U = the front's normal,
#                       i.e. lid, front and bottom read as one column, as on a carton.


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(v):
    n = _dot(v, v) ** 0.5
    return tuple(x / n for x in v)


def net_frame(page):
    """The net read back from the page's fold lines and cut outline, in its own frame (mm,
    x along the strips, y towards the lid; right-handed, seen from the printed side): a
    function page point -> net point, page direction -> net direction, the strips' edges,
    the body's bottom and top, the tuck fold's y, the back strip's index and the outline's points."""
    paths = strokes(page)
    folds = [(p[0], p[-1]) for dashed, _, p in paths if dashed]
    outline = max((p for dashed, _, p in paths if not dashed), key=len)
    longest = max(_dot(_sub(b, a), _sub(b, a)) for a, b in folds) ** 0.5
    body = [(a, b) for a, b in folds if abs(_dot(_sub(b, a), _sub(b, a)) ** 0.5 - longest) < 0.01]
    assert len(body) == 4, "four folds between the five strips"
    for flip in (1, -1):
        uy = _unit(_sub(*body[0][::-1]))
        uy = (flip * uy[0], flip * uy[1])
        ux = (uy[1], -uy[0])  # a quarter turn clockwise from y: x right, y up, seen from the printed side

        def to(p, ux=ux, uy=uy):
            return (_dot(p, ux), _dot(p, uy))

        y0 = min(to(p)[1] for s in body for p in s)
        y1 = max(to(p)[1] for s in body for p in s)
        cross = [sorted((to(a), to(b))) for a, b in folds if abs(to(a)[1] - to(b)[1]) < 1e-6]
        beyond = [s for s in cross if s[0][1] > y1 + 0.5 or s[0][1] < y0 - 0.5]
        assert len(beyond) == 1, "one tuck fold, beyond the lid"
        if beyond[0][0][1] > y1:
            break
    xs = sorted(to(a)[0] for a, _ in body)
    edges = [min(to(p)[0] for p in outline)] + xs + [max(to(p)[0] for p in outline)]
    tuck = beyond[0]
    back = [i for i in range(5) if abs(edges[i] - tuck[0][0]) < 0.01 and abs(edges[i + 1] - tuck[1][0]) < 0.01]
    assert len(back) == 1, "the tuck fold spans one strip: the back"
    return to, edges, (y0, y1, tuck[0][1]), back[0], [to(p) for p in outline]


def folded_faces(page):
    """{face: (net rectangle (x0, y0, x1, y1), T, V, outward normal)} for every face a reader
    sees on the folded box: where the net's x and y directions go on the box (box vectors)."""
    to, edges, (y0, y1, yt), back, outline = net_frame(page)
    width = [edges[i + 1] - edges[i] for i in range(5)]
    front = [i for i in range(5) if i != back and abs(width[i] - width[back]) < 0.01]
    assert len(front) == 1 and abs(front[0] - back) == 2, "front and back: the wide strips, opposite in the tube"
    front = front[0]
    ends = [i for i in (0, 4) if i not in (front, back)]
    glue = min(ends, key=lambda i: width[i])  # an end strip, glued inside
    up = (0, 0, 1)
    faces = {}
    for i in range(5):
        if i == glue:
            continue
        T = {0: (1, 0, 0), 1: (0, 1, 0), 2: (-1, 0, 0), 3: (0, -1, 0)}[(i - front) % 4]  # a quarter turn a strip
        name = "front" if i == front else "back" if i == back else "spine" if abs(i - front) == 1 and abs(i - back) == 1 else "side"
        faces[name] = ((edges[i], y0, edges[i + 1], y1), T, up, _cross(T, up))
    assert sorted(faces) == ["back", "front", "side", "spine"]
    _, T_back, _, n_back = faces["back"]
    faces["lid"] = ((edges[back], y1, edges[back + 1], yt), T_back, tuple(-v for v in n_back), up)
    faces["bottom"] = ((edges[back], min(y for _, y in outline), edges[back + 1], y0), T_back, n_back, (0, 0, -1))
    # the tuck flap goes down into the front: the strip with the thumb notch in its top edge
    fx0, fx1 = edges[front], edges[front + 1]
    assert any(fx0 + 1 < x < fx1 - 1 and y0 < y < y1 - 1 for x, y in outline), "the front has the thumb notch"
    return to, faces


def shown_texts(page):
    """[(text, origin (x, y) mm, baseline direction, glyphs' up direction)] of every piece of
    text the page shows, from its text matrix times the transformation in force (page frame)."""
    out = []

    def visit(text, cm, tm, font, size):
        if not text.strip():
            return
        a, b, c, d, e, f = tm
        A, B, C, D, E, F = cm
        m = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        out.append((text.strip(), (m[4] / MM, m[5] / MM), _unit((m[0], m[1])), _unit((m[2], m[3]))))

    page.extract_text(visitor_text=visit)
    return out


def upright_from(name, n, T_text, faces):
    """The viewer's up for text on face `name` running along box vector T_text (see the fold model)."""
    n_front, n_back = faces["front"][3], faces["back"][3]
    if name == "lid":
        return n_back
    if name == "bottom":
        return n_front
    if name in ("spine", "side") and abs(T_text[2]) > 0.99:
        return n_front  # along the height: read lying on its back, as a book's spine
    return (0, 0, 1)


def folded_reading(page):
    """[(text, face, reads upright?, (baseline · viewer's right, up · viewer's up))] for every
    text on the net (the page's how-to line beyond it left out); face None off the seen faces."""
    to, faces = folded_faces(page)
    _, edges, (y0, y1, yt), _, outline = net_frame(page)
    xs, ys = [x for x, _ in outline], [y for _, y in outline]
    out = []
    for text, origin, base, glyph_up in shown_texts(page):
        x, y = to(origin)
        if not (min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)):
            continue
        face = next((k for k, (r, *_) in faces.items() if r[0] < x < r[2] and r[1] < y < r[3]), None)
        if face is None:
            out.append((text, None, None, None))
            continue
        _, T, V, n = faces[face]
        (bx, by), (ux, uy) = to(base), to(glyph_up)
        b3 = tuple(bx * t + by * v for t, v in zip(T, V))
        u3 = tuple(ux * t + uy * v for t, v in zip(T, V))
        U = upright_from(face, n, b3, faces)
        R = _cross(U, n)
        score = (round(_dot(b3, R), 3), round(_dot(u3, U), 3))
        out.append((text, face, score == (1.0, 1.0), score))
    return out


@pytest.mark.parametrize("variant", ["en", "ja", "ko", "zh", "sleeved", "bridge-letter", "turned"])
def test_every_face_of_the_folded_box_reads_upright(boxes, project, variant):
    part, _ = boxes["langs"][variant] if variant in boxes["langs"] else boxes[variant]
    lang = variant if variant in boxes["langs"] else "en"
    loc = project.locale(lang)
    for page, faction in zip(reader(part.data).pages, project.game.factions if variant not in ("bridge-letter", "turned") else ["rome"]):
        title = loc.format("box.starter-deck", faction=loc.get(f"faction.{faction}")).replace(" ", "")
        seen = folded_reading(page)
        wrong = [(text, face, score) for text, face, ok, score in seen if face and not ok]
        assert not wrong, (variant, faction, wrong)
        on = {face: "".join(t for t, f, *_ in seen if f == face).replace(" ", "") for face in
              ("front", "spine", "back", "lid", "bottom")}
        assert all(title in on[face] for face in ("front", "spine", "back", "lid")), on
        assert on["bottom"].endswith("mm") and on["spine"] == title, on  # the inner size
        hidden = {t for t, f, *_ in seen if f is None}
        assert hidden == {loc.get("box.glue")}, hidden  # only the glue flaps' label, off the faces

