"""Print-and-cut: the PDF and its cut files read back with independent readers.

For each cutting machine and paper: every card's outline in the SVG (read with svgelements)
and the DXF (read with ezdxf) lies on the card's trim in the PDF (read with pypdf) within
0.05 mm, as one closed path with arcs of the radius asked; the registration marks are where
templates/cutters.yaml says (read here with PyYAML, not ppgen's reader); no card and no
other mark enters a mark's exclusion zone, and nothing at all is printed in one (pixels).
"""
from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

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


@pytest.fixture(scope="session")
def builds(project, tmp_path_factory):
    """One build per case: Rome's starter deck, SVG and DXF cut files."""
    from ppgen.write.build import BuildOptions, build

    out = {}
    for cutter, paper, radius in CASES:
        folder = tmp_path_factory.mktemp(f"{cutter}-{paper}")
        options = BuildOptions.resolve(project, lang="en", out=folder, cutter=cutter, paper=paper, factions=["rome"],
                                       cut_file="dxf", corner_radius=radius)
        result = build(project, options)
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
    from pypdf.generic import ContentStream

    ops = ContentStream(page.get_contents(), page.pdf).operations
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
def svg_outlines(path: Path, paper_h: float):
    """[(bbox mm y up, [(segment kind, data)])] of every path, read by svgelements at 1 unit = 1 mm."""
    import svgelements

    svg = svgelements.SVG.parse(str(path), ppi=25.4)
    assert abs(svg.width - 0) > 0
    out = []
    for element in svg.elements():
        if isinstance(element, svgelements.Path):
            segs = list(element)
            x0, y0, x1, y1 = element.bbox()
            out.append(((x0, paper_h - y1, x1, paper_h - y0), segs))
    return out


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


def dxf_outlines(path: Path):
    """[(bbox mm y up, [(x, y, bulge)])] of every POLYLINE, read by ezdxf."""
    import ezdxf

    doc = ezdxf.readfile(str(path))
    assert doc.dxfversion == "AC1009"
    out = []
    for e in doc.modelspace():
        assert e.dxftype() == "POLYLINE" and e.dxf.layer == "CUT"
        assert e.is_closed
        vertices = [(v.dxf.location.x, v.dxf.location.y, v.dxf.bulge) for v in e.vertices]
        xs, ys = [v[0] for v in vertices], [v[1] for v in vertices]
        out.append(((min(xs), min(ys), max(xs), max(ys)), vertices))
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
    bleed = machines[cutter]["bleed"]
    W, H = PAPER[paper]
    pages = reader(pdf).pages
    sides = 2
    checked = 0
    for number, page in enumerate(pages, 1):
        assert abs(float(page.mediabox.width) / MM - W) < 0.01 and abs(float(page.mediabox.height) / MM - H) < 0.01
        kind = "front" if number % 2 else "back"
        stem = f"{pdf.stem}-sheet-{(number - 1) // sides + 1:02d}-{kind}"
        trims = pdf_trims(page, bleed)
        assert trims and all((form == "back") == (kind == "back") for form, _ in trims)
        svg = svg_outlines(pdf.with_name(stem + ".svg"), H)
        dxf = dxf_outlines(pdf.with_name(stem + ".dxf"))
        assert len(svg) == len(dxf) == len(trims), stem
        for _, trim in trims:
            _, segs = match(trim, svg, radius)
            check_svg_outline(segs, (trim[0], H - trim[3], trim[2], H - trim[1]), radius)
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


def test_bleed_and_gap_default_to_the_machine_and_yield_to_the_command_line(project):
    from ppgen.write.build import BuildOptions

    o = BuildOptions.resolve(project, lang="en", cutter="silhouette")
    assert (o.layout, o.bleed, o.gutter, o.corner_radius) == ("print-and-cut", 1.0, 2.0, 3.0)
    o = BuildOptions.resolve(project, lang="en", cutter="silhouette", bleed="2", gutter="0", corner_radius="0")
    assert (o.bleed, o.gutter, o.corner_radius) == (2.0, 0.0, 0.0)
    assert o.sheet_layout.per_page >= 1


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "ppgen", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


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
