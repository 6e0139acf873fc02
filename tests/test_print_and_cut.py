"""Print-and-cut: the PDF and its cut files read back with independent readers.

For each cutting machine and paper: every card's outline in the SVG (read with svgelements)
and the DXF (read with ezdxf) lies on the card's trim in the PDF (read with pypdf) within
0.05 mm, as one closed path with arcs of the radius asked; the registration marks are where
templates/cutters.yaml says (read here with PyYAML, not ppgen's reader); no card and no
other mark enters a mark's exclusion zone, and nothing at all is printed in one (pixels).

For a machine whose software prints from uploads (Cricut Design Space): no marks at all;
per printed side a PNG (read with Pillow) whose pixels and dpi give the SVG's size in mm,
centred on the page's cards, within Design Space's 6.75 × 9.25 in; every outline of the
SVG on the card's trim as the PNG shows it (the edge between bleed colour and white gap,
found in the pixels, within 0.1 mm); backs mirrored; a card too large refused with sizes.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import yaml

from clitools import call_ppgen
from conftest import ROOT
from pdftools import MM, placements, reader, render

TOL = 0.05  # mm
CARD = (63.0, 88.0)
CASES = [("silhouette", "a4", 3.0), ("silhouette", "letter", 3.0), ("cricut", "a4", 3.0), ("cricut", "letter", 0.0),
         ("scanncut", "a4", 3.0), ("scanncut", "letter", 2.5)]
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@pytest.fixture(scope="session")
def machines():
    return yaml.safe_load((ROOT / "templates" / "cutters.yaml").read_text(encoding="utf-8"))


SMALL = 7  # cards of a build for software that prints from uploads: a full sheet of 4 and one of 3


def uploads(machine: dict) -> bool:
    return "upload" in machine


def small_deck(project, n: int = SMALL):
    """`n` cards of Rome's starter deck as (card, 1) pairs: few pictures to render."""
    return [(card, 1) for card, _ in project.game.starter_deck("rome")][:n]


@pytest.fixture(scope="session")
def builds(project, machines, tmp_path_factory):
    """One build per case: Rome's starter deck (a small deck of it where every side is rendered
    to a picture), SVG and DXF cut files."""
    from ppgen.write.build import BuildOptions, build

    out = {}
    for cutter, paper, radius in CASES:
        folder = tmp_path_factory.mktemp(f"{cutter}-{paper}")
        small = uploads(machines[cutter])
        options = BuildOptions.resolve(project, lang="en", out=folder, cutter=cutter, paper=paper, factions=[] if small else ["rome"],
                                       cut_file="dxf", corner_radius=radius, cards_only=small)
        result = build(project, options, cards=small_deck(project) if small else None, name="small" if small else None)
        pdf = next(f.path for f in result.files if f.path.suffix == ".pdf")
        out[(cutter, paper, radius)] = (pdf, options)
    return out


# ── reading the PDF ──────────────────────────────────────────────────────────
def pdf_trims(page, bleed: float) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(form, (x0, y0, x1, y1) mm, y up) of every card's trim on a PDF page."""
    out = []
    for p in placements(page):
        w, h = CARD if p.rotation % 180 == 0 else CARD[::-1]
        x, y = p.x / MM + bleed, p.y / MM + bleed
        out.append((p.form, (x, y, x + w, y + h)))
    return out


def pdf_marks(page) -> list[tuple[float, float, float, float]]:
    """Every filled rectangle the page itself draws (its registration marks), mm, y up."""
    from pdftools import operations

    ops = operations(page.get_contents())
    rects, pending = [], []
    for operands, op in ops:
        if op == b"re":
            pending.append([float(v) / MM for v in operands])
        elif op in (b"f", b"f*", b"B", b"b"):
            rects += [(x, y, x + w, y + h) for x, y, w, h in pending]
            pending = []
        elif op in (b"S", b"n"):
            pending = []
    return rects


# ── what cutters.yaml says, computed here ────────────────────────────────────
def expected_marks(machine: dict, paper: tuple[float, float]):
    """[(mark rectangles, exclusion zone)] in mm, y up, from the YAML numbers."""
    marks = machine.get("marks")
    if not marks:
        return []
    W, H = paper
    if "inset" in marks:
        x0, y0, x1, y1 = marks["inset"], marks["inset"], W - marks["inset"], H - marks["inset"]
    else:
        aw, ah = machine["area"]
        o = marks["outside"]
        x0, y0, x1, y1 = (W - aw) / 2 - o, (H - ah) / 2 - o, (W + aw) / 2 + o, (H + ah) / 2 + o
    out = []
    for corner, kind in marks["pattern"].items():
        cx = x0 if corner.endswith("left") else x1
        cy = y1 if corner.startswith("top") else y0
        sx, sy = (1 if corner.endswith("left") else -1), (-1 if corner.startswith("top") else 1)

        def box(dx, dy):
            return (min(cx, cx + dx), min(cy, cy + dy), max(cx, cx + dx), max(cy, cy + dy))

        if kind == "square":
            rects, side = [box(sx * marks["square"], sy * marks["square"])], max(marks["keep_out"], marks["square"])
        else:
            t, n = marks["thickness"], marks["length"]
            rects, side = [box(sx * n, sy * t), box(sx * t, sy * n)], max(marks["keep_out"], n)
        c = marks.get("clearance", 0)
        zone = (min(cx - sx * c, cx + sx * (side + c)), min(cy - sy * c, cy + sy * (side + c)),
                max(cx - sx * c, cx + sx * (side + c)), max(cy - sy * c, cy + sy * (side + c)))
        out.append((rects, zone))
    return out


def overlaps(a, b, eps=1e-6) -> bool:
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


# ── reading the cut files ────────────────────────────────────────────────────
def svg_size(path: Path) -> tuple[float, float]:
    """The SVG's width and height in mm, from its width/height attributes."""
    import xml.etree.ElementTree as ET

    root = ET.parse(path).getroot()
    w, h = root.get("width"), root.get("height")
    assert w.endswith("mm") and h.endswith("mm"), (w, h)
    return float(w[:-2]), float(h[:-2])


def svg_outlines(path: Path, origin=(0.0, 0.0)):
    """[(bbox mm y up, [(segment kind, data)])] of every card's path, read by svgelements at
    1 unit = 1 mm, placed on the page with the SVG's bottom-left corner at `origin` (mm, y up)."""
    import svgelements

    svg = svgelements.SVG.parse(str(path), ppi=25.4)
    H = svg_size(path)[1]
    ox, oy = origin  # where the SVG's bottom-left corner lies on the page, mm, y up
    out = []
    for element in svg.elements():
        if isinstance(element, svgelements.Path) and element.id != "edge":
            segs = list(element)
            x0, y0, x1, y1 = element.bbox()
            out.append(((ox + x0, oy + H - y1, ox + x1, oy + H - y0), segs))
    return out


def page_origin(machine: dict, page_cells, svg: Path) -> tuple[float, float]:
    """Where a cut file's bottom-left corner lies on the page (mm, y up): the paper's corner; for
    an upload picture, centred on the page's cards (the bounding box of their bleed)."""
    if not uploads(machine):
        return (0.0, 0.0)
    W, H = svg_size(svg)
    x0, y0 = min(c[0] for c in page_cells), min(c[1] for c in page_cells)
    x1, y1 = max(c[2] for c in page_cells), max(c[3] for c in page_cells)
    assert abs((x1 - x0) - W) < 25.4 / 300 and abs((y1 - y0) - H) < 25.4 / 300, "the picture is the cards, within a pixel"
    return ((x0 + x1 - W) / 2, (y0 + y1 - H) / 2)


def check_svg_outline(segs, trim_svg, radius: float) -> None:
    """One closed path on the trim: straight runs on its edges, corners arcs of `radius` centred
    `radius` inside the corners (trim_svg is x0, y0, x1, y1 with y down)."""
    import svgelements

    x0, y0, x1, y1 = trim_svg
    kinds = [type(s).__name__ for s in segs]
    assert kinds[0] == "Move" and kinds[-1] == "Close" and kinds.count("Move") == 1, kinds
    start, end = segs[0].end, segs[-1].end
    assert abs(start.x - end.x) < 1e-6 and abs(start.y - end.y) < 1e-6
    arcs = [s for s in segs if isinstance(s, svgelements.Arc)]
    assert len(arcs) == (4 if radius else 0)
    for arc in arcs:
        assert abs(arc.rx - radius) < 1e-3 and abs(arc.ry - radius) < 1e-3  # svgelements scales mm by 96/25.4 and back
        centres = [(x0 + radius, y0 + radius), (x1 - radius, y0 + radius), (x0 + radius, y1 - radius), (x1 - radius, y1 - radius)]
        assert min(math.dist((arc.center.x, arc.center.y), c) for c in centres) < TOL
        for t in (0.0, 0.25, 0.5, 0.75, 1.0):  # the arc bulges outward, to the corner, never past the trim
            p = arc.point(t)
            assert x0 - TOL <= p.x <= x1 + TOL and y0 - TOL <= p.y <= y1 + TOL
    for line in (s for s in segs if isinstance(s, (svgelements.Line, svgelements.Close))):
        a, b = line.start, line.end
        on_edge = (abs(a.x - b.x) < 1e-9 and min(abs(a.x - x0), abs(a.x - x1)) < TOL) or \
                  (abs(a.y - b.y) < 1e-9 and min(abs(a.y - y0), abs(a.y - y1)) < TOL)
        assert on_edge or math.dist((a.x, a.y), (b.x, b.y)) < 1e-9, (a, b, trim_svg)


def dxf_outlines(path: Path, origin=(0.0, 0.0), edge=None):
    """[(bbox mm y up, [(x, y, bulge)])] of every POLYLINE on layer CUT, read by ezdxf, moved
    to `origin` on the page; `edge` (W, H): there is also the picture's edge on layer EDGE."""
    import ezdxf

    doc = ezdxf.readfile(str(path))
    assert doc.dxfversion == "AC1009"
    out, edges = [], []
    for e in doc.modelspace():
        assert e.dxftype() == "POLYLINE" and e.dxf.layer in ("CUT", "EDGE")
        assert e.is_closed
        vertices = [(origin[0] + v.dxf.location.x, origin[1] + v.dxf.location.y, v.dxf.bulge) for v in e.vertices]
        xs, ys = [v[0] for v in vertices], [v[1] for v in vertices]
        (out if e.dxf.layer == "CUT" else edges).append(((min(xs), min(ys), max(xs), max(ys)), vertices))
    if edge is None:
        assert not edges
    else:
        (box, _), = edges
        assert all(abs(u - v) < 1e-3 for u, v in zip(box, (origin[0], origin[1], origin[0] + edge[0], origin[1] + edge[1])))
    return out


def match(trim, boxes, radius: float):
    """The box among `boxes` equal to `trim` (a rounded outline's vertices span the whole trim too)."""
    found = [b for b in boxes if all(abs(u - v) < TOL for u, v in zip(b[0], trim))]
    assert len(found) == 1, (trim, [b[0] for b in boxes])
    return found[0]


# ── the checks ───────────────────────────────────────────────────────────────
@pytest.mark.parametrize("case", CASES, ids=[f"{c}-{p}-r{r:g}" for c, p, r in CASES])
def test_cut_files_lie_on_the_pdf_trims(builds, machines, case):
    import ezdxf.math

    pdf, options = builds[case]
    cutter, paper, radius = case
    machine = machines[cutter]
    bleed = machine["bleed"]
    W, H = PAPER[paper]
    pages = reader(pdf).pages
    sides = 2
    checked = 0
    for number, page in enumerate(pages, 1):
        assert abs(float(page.mediabox.width) / MM - W) < 0.01 and abs(float(page.mediabox.height) / MM - H) < 0.01
        kind = "front" if number % 2 else "back"
        stem = f"{pdf.stem}-sheet-{(number - 1) // sides + 1:02d}-{kind}"
        trims = pdf_trims(page, bleed)
        assert trims and all(form.startswith("back-") == (kind == "back") for form, _ in trims)
        cells = [(t[0] - bleed, t[1] - bleed, t[2] + bleed, t[3] + bleed) for _, t in trims]
        ox, oy = page_origin(machine, cells, pdf.with_name(stem + ".svg"))
        top = oy + svg_size(pdf.with_name(stem + ".svg"))[1]  # the SVG's y = 0, on the page (mm, y up)
        svg = svg_outlines(pdf.with_name(stem + ".svg"), (ox, oy))
        dxf = dxf_outlines(pdf.with_name(stem + ".dxf"), (ox, oy), svg_size(pdf.with_name(stem + ".svg")) if uploads(machine) else None)
        assert len(svg) == len(dxf) == len(trims), stem
        for _, trim in trims:
            _, segs = match(trim, svg, radius)
            check_svg_outline(segs, (trim[0] - ox, top - trim[3], trim[2] - ox, top - trim[1]), radius)
            _, vertices = match(trim, dxf, radius)
            bulges = [b for _, _, b in vertices if b]
            assert len(bulges) == (4 if radius else 0) and len(vertices) == (8 if radius else 4)
            for i, (x, y, b) in enumerate(vertices):
                if b:
                    nx, ny, _ = vertices[(i + 1) % len(vertices)]
                    centre, _, _, r = ezdxf.math.bulge_to_arc((x, y), (nx, ny), b)
                    assert abs(r - radius) < 1e-3
                    assert trim[0] + radius - TOL <= centre.x <= trim[2] - radius + TOL
                checked += 1
    assert checked


@pytest.mark.parametrize("case", CASES, ids=[f"{c}-{p}-r{r:g}" for c, p, r in CASES])
def test_marks_where_the_software_expects_them_and_their_zones_stay_clear(builds, machines, case):
    pdf, _ = builds[case]
    cutter, paper, _ = case
    machine = machines[cutter]
    bleed = machine["bleed"]
    expected = expected_marks(machine, PAPER[paper])
    doc = reader(pdf)
    for number in (0, 1, len(doc.pages) - 1):  # first front, first back, last page
        page = doc.pages[number]
        drawn = pdf_marks(page)
        want = [r for rects, _ in expected for r in rects]
        assert len(drawn) == len(want)
        for r in want:
            assert any(all(abs(u - v) < 0.01 for u, v in zip(r, d)) for d in drawn), (r, drawn)
        cells = [(t[0] - bleed, t[1] - bleed, t[2] + bleed, t[3] + bleed) for _, t in pdf_trims(page, bleed)]
        for i, (rects, zone) in enumerate(expected):
            assert not any(overlaps(cell, zone) for cell in cells), (cutter, paper, number, zone)
            others = [r for j, (rs, _) in enumerate(expected) if j != i for r in rs]
            assert not any(overlaps(r, zone) for r in others)
    if expected:  # nothing printed in a zone but its own mark: the rendered first page
        dpi = 50
        image = render(str(pdf), 0, dpi)
        k = dpi / 25.4
        H = PAPER[paper][1]
        for rects, zone in expected:
            x0, y0, x1, y1 = zone
            zx0, zx1 = max(0, int(x0 * k)), int(x1 * k)
            zy0, zy1 = max(0, int((H - y1) * k)), int((H - y0) * k)
            for py in range(zy0, min(zy1, image.height)):
                for px in range(zx0, min(zx1, image.width)):
                    x, y = (px + 0.5) / k, H - (py + 0.5) / k
                    if any(r[0] - 1 <= x <= r[2] + 1 and r[1] - 1 <= y <= r[3] + 1 for r in rects):
                        continue
                    assert image.getpixel((px, py)) == (255, 255, 255), (cutter, paper, zone, (x, y))


def test_backs_are_mirrored_behind_their_fronts(builds, machines):
    pdf, _ = builds[("silhouette", "a4", 3.0)]
    W = PAPER["a4"][0]
    doc = reader(pdf)
    fronts, backs = pdf_trims(doc.pages[0], 1.0), pdf_trims(doc.pages[1], 1.0)
    assert len(fronts) == len(backs)
    mirrored = sorted((round(W - t[2], 3), round(t[1], 3)) for _, t in fronts)
    assert sorted((round(t[0], 3), round(t[1], 3)) for _, t in backs) == mirrored


def test_each_page_names_its_cut_file(builds):
    from pdftools import texts

    pdf, _ = builds[("scanncut", "a4", 3.0)]
    shown = texts(str(pdf))
    assert "sheet-01-front.svg" in shown[0] and "sheet-01-back.svg" in shown[1]
    assert "CanvasWorkspace" in shown[0]


# ── software that prints from uploads (Cricut Design Space) ─────────────────
UPLOAD_CASES = [c for c in CASES if c[0] == "cricut"]
DESIGN_SPACE_LIMIT_IN = (6.75, 9.25)  # Print Then Cut's largest image (templates/cutters.yaml cites its source)


@pytest.fixture(scope="session")
def bleedless(project, tmp_path_factory):
    """A Cricut build without bleed: each card's colour ends on its trim, the white gap begins there."""
    from ppgen.write.build import BuildOptions, build

    options = BuildOptions.resolve(project, lang="en", out=tmp_path_factory.mktemp("cricut-bleed0"), cutter="cricut",
                                   paper="letter", bleed="0", cards_only=True)
    result = build(project, options, cards=small_deck(project), name="small")
    return next(f.path for f in result.files if f.path.suffix == ".pdf"), options


def upload_sides(pdf: Path, sides: int = 2):
    """(PNG, SVG) of every printed side of an upload build, in page order."""
    out = []
    for number in range(1, len(reader(pdf).pages) + 1):
        kind = "front" if number % 2 else "back"
        stem = pdf.with_name(f"{pdf.stem}-sheet-{(number - 1) // sides + 1:02d}-{kind}")
        out.append((stem.with_suffix(".png"), stem.with_suffix(".svg")))
    return out


def svg_trims(svg: Path) -> list[tuple[float, float, float, float]]:
    """Every card outline's bounding box in the SVG's own mm, y down: the trim (rounded corners
    included, an outline's arcs never leave it)."""
    return [(b[0], H - b[3], b[2], H - b[1]) for H in [svg_size(svg)[1]] for b, _ in svg_outlines(svg)]


def is_ink(pixel) -> bool:
    """Card colour, not white paper: a channel darker than halfway to white (every card's
    bleed is a dark colour; antialiased edge pixels count by how much of them is covered)."""
    return min(pixel) < 160


def colour_edge(image, k: float, outward: tuple[int, int], start_mm: tuple[float, float]) -> float:
    """From a point on a card's border (mm, y down), step pixel by pixel in direction `outward`
    (±1 on one axis) until the pixels turn white: where that happens, in mm along that axis
    (the boundary between the last card pixel and the first white one, ±½ pixel)."""
    dx, dy = outward
    x, y = int(start_mm[0] * k), int(start_mm[1] * k)
    assert is_ink(image.getpixel((x, y))), ("not on a card", start_mm)
    for _ in range(int(3 * k)):
        if not (0 <= x < image.width and 0 <= y < image.height) or not is_ink(image.getpixel((x, y))):
            return ((x + (dx < 0)) / k) if dx else ((y + (dy < 0)) / k)
        x, y = x + dx, y + dy
    raise AssertionError(f"no white within 3 mm of {start_mm} going {outward}")


@pytest.mark.parametrize("case", UPLOAD_CASES, ids=[f"{c}-{p}-r{r:g}" for c, p, r in UPLOAD_CASES])
def test_each_side_has_a_picture_and_a_cut_file_of_one_size(builds, machines, case):
    from PIL import Image

    pdf, _ = builds[case]
    dpi = machines[case[0]]["upload"]["dpi"]
    limit = tuple(v * dpi for v in DESIGN_SPACE_LIMIT_IN)
    pairs = upload_sides(pdf)
    assert len(pairs) == 4  # 7 cards: two sheets, fronts and backs
    expected = {p.name for pair in pairs for p in pair} | {p.with_suffix(".dxf").name for _, p in pairs} | {pdf.name}
    assert {p.name for p in pdf.parent.iterdir()} == expected
    for png, svg in pairs:
        image = Image.open(png)
        assert image.mode == "RGB"  # opaque: Design Space cuts the picture out along its edge, not around each card
        assert all(abs(d - dpi) < 0.01 for d in image.info["dpi"])  # pHYs
        W, H = svg_size(svg)
        assert abs(image.width - W / 25.4 * dpi) < 1 and abs(image.height - H / 25.4 * dpi) < 1, (png.name, image.size, (W, H))
        assert abs(image.width / dpi * 25.4 - W) < 1e-3 and abs(image.height / dpi * 25.4 - H) < 1e-3  # exactly, in fact
        assert image.width <= limit[0] and image.height <= limit[1]
        assert W <= DESIGN_SPACE_LIMIT_IN[0] * 25.4 + 1e-9 and H <= DESIGN_SPACE_LIMIT_IN[1] * 25.4 + 1e-9
        import svgelements

        edge = [e for e in svgelements.SVG.parse(str(svg), ppi=25.4).elements() if isinstance(e, svgelements.Path) and e.id == "edge"]
        assert len(edge) == 1 and all(abs(u - v) < 1e-3 for u, v in zip(edge[0].bbox(), (0, 0, W, H)))  # the picture's edge


@pytest.mark.parametrize("which", ["cricut-a4-r3", "cricut-letter-r0", "cricut-letter-bleed0"])
def test_every_outline_lies_on_the_trim_the_picture_shows(builds, bleedless, which):
    """The picture's colour ends where the cut file says the card's trim is, plus the bleed: found
    in the pixels on every straight edge of every card, front and back, within 0.1 mm."""
    from PIL import Image

    pdf, options = bleedless if which.endswith("bleed0") else builds[{"cricut-a4-r3": ("cricut", "a4", 3.0),
                                                                      "cricut-letter-r0": ("cricut", "letter", 0.0)}[which]]
    b = options.bleed
    checked = 0
    for png, svg in upload_sides(pdf):
        image = Image.open(png).convert("RGB")
        k = image.info.get("dpi", (300,))[0] / 25.4  # pixels per mm
        trims = svg_trims(svg)
        assert trims
        for x0, y0, x1, y1 in trims:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            for t in (0.15, 0.3, 0.5, 0.7, 0.85):  # along each edge, away from the corners; from 0.5 mm inside the trim
                y, x = y0 + t * (y1 - y0), x0 + t * (x1 - x0)
                for found, want in ((colour_edge(image, k, (-1, 0), (x0 + 0.5, y)), x0 - b), (colour_edge(image, k, (1, 0), (x1 - 0.5, y)), x1 + b),
                                    (colour_edge(image, k, (0, -1), (x, y0 + 0.5)), y0 - b), (colour_edge(image, k, (0, 1), (x, y1 - 0.5)), y1 + b)):
                    assert abs(found - want) <= 0.1, (png.name, (x0, y0, x1, y1), found, want)
                    checked += 1
            # just inside the colour's edge: card; just beyond it, in a gap: white paper
            for px, py in ((x0 - b + 0.3, cy), (x1 + b - 0.3, cy), (cx, y0 - b + 0.3), (cx, y1 + b - 0.3)):
                assert is_ink(image.getpixel((int(px * k), int(py * k))))
            for px, py in ((x0 - b - 0.4, cy), (x1 + b + 0.4, cy), (cx, y0 - b - 0.4), (cx, y1 + b + 0.4)):
                if 0 <= px * k < image.width and 0 <= py * k < image.height:
                    assert image.getpixel((int(px * k), int(py * k))) == (255, 255, 255), (png.name, px, py)
    assert checked >= 7 * 2 * 5 * 4


def test_backs_are_mirrored_in_their_pictures(builds):
    """The part-filled sheet (3 cards): the back's outlines are the front's, mirrored in the
    picture for a flip on the long edge, and the back picture shows backs there."""
    pdf, _ = builds[("cricut", "a4", 3.0)]
    (_, front), (_, back) = upload_sides(pdf)[2:]
    W = svg_size(front)[0]
    assert svg_size(back) == svg_size(front)
    fronts, backs = svg_trims(front), svg_trims(back)
    assert len(fronts) == len(backs) == 3
    assert sorted((round(W - t[2], 3), round(t[1], 3)) for t in fronts) == sorted((round(t[0], 3), round(t[1], 3)) for t in backs)
    assert len({round(t[0], 3) for t in fronts}) == 2  # two columns: the mirroring shows


def test_each_page_names_its_picture_cut_file_and_size_and_prints_no_marks(builds):
    from pdftools import texts

    pdf, _ = builds[("cricut", "a4", 3.0)]
    shown = texts(str(pdf))
    for number, (png, svg) in enumerate(upload_sides(pdf)):
        W, H = svg_size(svg)
        text = shown[number]
        assert png.name.removeprefix(pdf.stem) in text and svg.name.removeprefix(pdf.stem) in text, text
        assert f"{W:.2f} × {H:.2f} mm" in text and "Cricut Design Space" in text
        assert pdf_marks(reader(pdf).pages[number]) == []


def test_upload_pictures_are_reproducible(project, tmp_path):
    from ppgen.write.build import BuildOptions, build

    made = []
    for n in (1, 2):
        options = BuildOptions.resolve(project, lang="en", out=tmp_path / str(n), cutter="cricut", cards_only=True)
        build(project, options, cards=small_deck(project, 1), name="one")
        made.append({p.name: p.read_bytes() for p in (tmp_path / str(n) / "en").iterdir()})
    assert made[0] == made[1] and len(made[0]) == 5  # the PDF, a PNG and an SVG per side


def test_the_largest_cards_fill_design_space_s_limit(project, tmp_path):
    """82 × 114 mm cards with 1 mm bleed, 2 × 2: 170 × 234 mm, just inside 6.75 × 9.25 in."""
    from PIL import Image

    from ppgen.write.build import BuildOptions, build

    options = BuildOptions.resolve(project, lang="en", out=tmp_path, cutter="cricut", paper="letter", card_size="82x114", cards_only=True)
    assert options.sheet_layout.per_page == 4
    build(project, options, cards=small_deck(project, 4), name="big")
    (png, _), _ = upload_sides(tmp_path / "en" / "big-en.pdf")
    image = Image.open(png)
    assert image.size == (round(170 / 25.4 * 300), round(234 / 25.4 * 300))
    assert image.width <= 6.75 * 300 and image.height <= 9.25 * 300


def test_a_card_larger_than_design_space_takes_is_refused_with_the_sizes(tmp_path):
    r = run("build", "--cutter", "cricut", "--card-size", "172x190", "--faction", "rome", "--out", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "1 card needs 174 × 192 mm" in r.stderr and "171.45 × 234.95 mm" in r.stderr and "6.75 × 9.25 in" in r.stderr, r.stderr
    assert not (tmp_path / "en").exists()


def test_bleed_and_gap_default_to_the_machine_and_yield_to_the_command_line(project):
    from ppgen.write.build import BuildOptions

    o = BuildOptions.resolve(project, lang="en", cutter="silhouette")
    assert (o.layout, o.bleed, o.gutter, o.corner_radius) == ("print-and-cut", 1.0, 2.0, 3.0)
    o = BuildOptions.resolve(project, lang="en", cutter="silhouette", bleed="2", gutter="0", corner_radius="0")
    assert (o.bleed, o.gutter, o.corner_radius) == (2.0, 0.0, 0.0)
    assert o.sheet_layout.per_page >= 1


def run(*args, cwd=ROOT):
    return call_ppgen(*args, cwd=cwd)


@pytest.mark.parametrize("args, message", [
    (["--cutter", "silhuette"], "did you mean 'silhouette'"),
    (["--layout", "print-and-cut"], "name your cutting machine with --cutter"),
    (["--cutter", "cricut", "--layout", "foldover"], "needs --layout print-and-cut"),
    (["--cutter", "cricut", "--corner-radius", "40"], "corner radius must be between 0 and 10"),
    (["--cutter", "cricut", "--cut-file", "pdf"], "unknown cut-file format 'pdf'"),
    (["--cutter", "cricut", "--card-size", "180x200"], "do not fit a Cricut"),
])
def test_bad_print_and_cut_options_are_refused_by_name(tmp_path, args, message):
    r = run("build", "--faction", "rome", "--out", str(tmp_path), *args)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("layout", ["", "  layout: print-and-cut\n"], ids=["duplex", "print-and-cut"])
def test_ppgen_yaml_s_cutter_misspelt_is_an_error_at_its_line_whatever_the_layout(game_copy, tmp_path, layout):
    """build.cutter names the machine of any print-and-cut build: misspelt, it is an error at its
    line of ppgen.yaml, "did you mean". (With the layout duplex it was never checked; with
    print-and-cut the error blamed --cutter, an option nobody typed.) Spelt right, a duplex build
    is a duplex build: the machine waits for a print-and-cut one."""
    config = game_copy / "ppgen.yaml"
    text = config.read_text(encoding="utf-8")
    text = text.replace("\nbuild:\n", "\nbuild:\n  cutter: silhouete\n" + layout, 1).replace("  layout: duplex ", "  # layout: duplex ", 1)
    config.write_text(text, encoding="utf-8")
    line = next(i + 1 for i, t in enumerate(text.splitlines()) if t.startswith("  cutter: silhouete"))
    r = run("build", "--faction", "rome", "--parts", "cards", "--out", str(tmp_path), cwd=game_copy)
    assert r.returncode == 2 and "internal error" not in r.stderr, r.stderr
    assert f"ppgen.yaml:{line}:" in r.stderr and "unknown cutting machine 'silhouete'; did you mean 'silhouette'" in r.stderr, r.stderr
    assert "--cutter" not in r.stderr
    config.write_text(text.replace("cutter: silhouete", "cutter: silhouette"), encoding="utf-8")
    r = run("build", "--faction", "rome", "--parts", "cards", "--out", str(tmp_path), cwd=game_copy)
    assert r.returncode == 0, r.stderr
    assert ("print and cut for Silhouette Studio" in r.stderr) == bool(layout), r.stderr


def test_a_mistake_in_cutters_yaml_is_reported_at_its_line(game_copy, tmp_path):
    path = game_copy / "templates" / "cutters.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("    pattern: {top-left: square, top-right: bracket, bottom-left: bracket}\n",
                        "    pattern: {top-left: squares, top-right: bracket, bottom-left: bracket}\n", 1)
    text = text.replace("    inset: 10\n", "    inset: -4\n", 1)
    path.write_text(text, encoding="utf-8")
    r = run("build", "--cutter", "silhouette", "--faction", "rome", "--out", str(tmp_path), cwd=game_copy)
    assert r.returncode == 2
    lines = {int(m.group(1)): m.group(0) for m in re.finditer(r"templates/cutters\.yaml:(\d+):\d+: error\[value\] [^\n]*", r.stderr)}
    wanted = {i + 1 for i, line in enumerate(text.splitlines()) if "squares" in line or "inset: -4" in line}
    assert set(lines) == wanted, r.stderr
    assert "did you mean 'square'" in r.stderr


@pytest.mark.parametrize("old, new, cutter", [
    ("top-right: bracket", "top-rigth: bracket", "silhouette"),  # a corner misspelt: the pattern left unread
    ("    square: 5\n", "    square: zzz\n", "silhouette"),
    ("    length: 20\n", "    length: []\n", "silhouette"),
    ("    thickness: 0.3\n", "    thickness: -1\n", "silhouette"),
    ("    keep_out: 20\n", "    keep_out: zzz\n", "cricut"),  # another machine's marks: every machine is read
], ids=["corner", "square", "length", "thickness", "keep_out"])
def test_a_bad_mark_value_is_an_error_at_its_line_not_a_crash(game_copy, tmp_path, old, new, cutter):
    """A mark's value that cannot be read (its problem reported) was then read anyway: exit 3,
    "internal error: AttributeError: 'NoneType' object has no attribute 'items'" or "float() …
    NoneType". Now the one problem, at its line, exit 2."""
    path = game_copy / "templates" / "cutters.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    r = run("build", "--cutter", cutter, "--faction", "rome", "--out", str(tmp_path), cwd=game_copy)
    assert r.returncode == 2 and "internal error" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    line = next(i + 1 for i, t in enumerate(text.splitlines()) if new.strip() in t)
    assert re.search(rf"templates/cutters\.yaml:{line}:\d+: error", r.stderr), r.stderr


def test_a_machine_printing_from_uploads_cannot_have_marks_too(game_copy, tmp_path):
    path = game_copy / "templates" / "cutters.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("  upload:\n", "  marks: {pattern: {top-left: square}, inset: 10, square: 5, length: 20, thickness: 0.3, keep_out: 20}\n  upload:\n", 1)
    path.write_text(text, encoding="utf-8")
    r = run("build", "--cutter", "cricut", "--faction", "rome", "--out", str(tmp_path), cwd=game_copy)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    line = next(i + 1 for i, t in enumerate(text.splitlines()) if t.startswith("  marks: {pattern: {top-left: square}"))
    assert f"templates/cutters.yaml:{line}:" in r.stderr and "prints from an upload" in r.stderr, r.stderr
