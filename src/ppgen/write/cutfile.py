"""Cut files for print-and-cut sheets: every card's outline, in mm at 1:1, for a cutting
machine's software (Silhouette Studio, Cricut Design Space, Brother CanvasWorkspace).

One file per printed side of a sheet, beside the PDF: `<pdf>-sheet-01-front.svg`,
`<pdf>-sheet-01-back.svg` (and `.dxf` with --cut-file dxf). The drawing is the paper,
so an outline lies exactly where the PDF puts the card's trim (the slot's trim box);
for software that prints from an uploaded picture (write/upload.py) it is that picture's
rectangle of the page instead (a `frame`), with the picture's edge drawn too, so the cut
file has the picture's size whatever a program measures (the page or what is drawn).
Each outline is one closed path with true arcs for rounded corners:

- SVG: `<path d="M … H … A r r 0 0 1 … Z">`, y down from the paper's top-left corner,
  `width`/`height` in mm and a viewBox in mm.
- DXF: R12 (AC1009, the oldest and most widely imported version), one closed POLYLINE
  per card on layer CUT, y up from the paper's bottom-left corner, each corner a vertex
  bulge of tan(90°/4) (a quarter circle). Written here rather than with a DXF library:
  R12 is a few dozen lines of group codes, and ppgen's install stays small; the tests
  read it back with ezdxf, an independent reader.

Deterministic: the same sheet gives the same bytes.
"""
from __future__ import annotations

import math

from ..impose.geometry import Rect
from ..units import MM

QUARTER_BULGE = math.tan(math.radians(90) / 4)  # DXF bulge of a 90° arc, counter-clockwise


def _n(value: float) -> str:
    """A length in mm, at most 4 decimals, no trailing zeros (0.0001 mm is far below any blade)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _drawing(side, frame: Rect | None) -> Rect:
    """What a cut file covers, in points on the page: `frame`, or the whole paper."""
    return frame if frame is not None else Rect(0.0, 0.0, side.width, side.height)


def outlines_mm(side, frame: Rect | None = None) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1, y1) in mm, y up from the bottom-left corner of the paper (or of `frame`),
    of every card on `side`."""
    d = _drawing(side, frame)
    return [((t.x - d.x) / MM, (t.y - d.y) / MM, (t.x1 - d.x) / MM, (t.y1 - d.y) / MM) for t in (s.trim_box for s in side.slots)]


def sheet_file_suffix(page, sides: int) -> str:
    """`-sheet-01-front`: which sheet of paper and which side of it a page is."""
    return f"-sheet-{(page.number - 1) // sides + 1:02d}-{page.side.kind}"


def svg_path(x0: float, y0: float, x1: float, y1: float, r: float) -> str:
    """One closed outline in SVG coordinates (y down, y0 < y1), clockwise from the top edge."""
    if r <= 0:
        return f"M{_n(x0)} {_n(y0)}H{_n(x1)}V{_n(y1)}H{_n(x0)}Z"
    a = f"A{_n(r)} {_n(r)} 0 0 1 "
    return (f"M{_n(x0 + r)} {_n(y0)}H{_n(x1 - r)}{a}{_n(x1)} {_n(y0 + r)}V{_n(y1 - r)}{a}{_n(x1 - r)} {_n(y1)}"
            f"H{_n(x0 + r)}{a}{_n(x0)} {_n(y1 - r)}V{_n(y0 + r)}{a}{_n(x0 + r)} {_n(y0)}Z")


def cut_svg(side, radius: float, title: str, frame: Rect | None = None) -> bytes:
    """The SVG cut file of one printed side: the paper (or `frame`, with its edge) at 1:1 in
    mm, one path per card."""
    from xml.sax.saxutils import escape, quoteattr

    d = _drawing(side, frame)
    W, H = d.w / MM, d.h / MM
    paths = []
    for n, (x0, y0, x1, y1) in enumerate(outlines_mm(side, frame), 1):
        paths.append(f'    <path id="card-{n}" d="{svg_path(x0, H - y1, x1, H - y0, radius)}"/>')
    body = "\n".join(paths)
    edge = (f'  <path id="edge" fill="none" stroke="#808080" stroke-width="0.25" d="{svg_path(0, 0, W, H, 0)}"/>\n'
            if frame is not None else "")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(W)}mm" height="{_n(H)}mm" viewBox="0 0 {_n(W)} {_n(H)}">\n'
        f"  <title>{escape(title)}</title>\n"
        f"{edge}"
        f'  <g id="cut" fill="none" stroke="#E4002B" stroke-width="0.25" data-corner-radius={quoteattr(_n(radius))}>\n'
        f"{body}\n"
        "  </g>\n"
        "</svg>\n"
    ).encode("utf-8")


def dxf_vertices(x0: float, y0: float, x1: float, y1: float, r: float) -> list[tuple[float, float, float]]:
    """(x, y, bulge) of one closed outline, y up, counter-clockwise from the bottom edge;
    a vertex's bulge shapes the segment to the next vertex."""
    if r <= 0:
        return [(x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0)]
    b = QUARTER_BULGE
    return [(x0 + r, y0, 0.0), (x1 - r, y0, b), (x1, y0 + r, 0.0), (x1, y1 - r, b),
            (x1 - r, y1, 0.0), (x0 + r, y1, b), (x0, y1 - r, 0.0), (x0, y0 + r, b)]


def cut_dxf(side, radius: float, frame: Rect | None = None) -> bytes:
    """The DXF (R12) cut file of one printed side: mm, y up, one closed POLYLINE per card
    (layer CUT); with `frame`, relative to it, and its edge on layer EDGE."""
    d = _drawing(side, frame)
    W, H = d.w / MM, d.h / MM
    out: list[str] = []

    def g(code: int, value) -> None:
        out.extend((str(code), value if isinstance(value, str) else _n(value)))

    g(0, "SECTION"), g(2, "HEADER")
    g(9, "$ACADVER"), g(1, "AC1009")
    g(9, "$INSUNITS"), g(70, "4")  # millimetres
    g(9, "$MEASUREMENT"), g(70, "1")  # metric
    g(9, "$EXTMIN"), g(10, 0.0), g(20, 0.0), g(30, 0.0)
    g(9, "$EXTMAX"), g(10, W), g(20, H), g(30, 0.0)
    g(0, "ENDSEC")
    g(0, "SECTION"), g(2, "TABLES")
    g(0, "TABLE"), g(2, "LTYPE"), g(70, "1")
    g(0, "LTYPE"), g(2, "CONTINUOUS"), g(70, "0"), g(3, "Solid line"), g(72, "65"), g(73, "0"), g(40, 0.0)
    g(0, "ENDTAB")
    g(0, "TABLE"), g(2, "LAYER"), g(70, "1")
    g(0, "LAYER"), g(2, "CUT"), g(70, "0"), g(62, "1"), g(6, "CONTINUOUS")
    if frame is not None:
        g(0, "LAYER"), g(2, "EDGE"), g(70, "0"), g(62, "8"), g(6, "CONTINUOUS")
    g(0, "ENDTAB")
    g(0, "ENDSEC")
    g(0, "SECTION"), g(2, "ENTITIES")
    shapes = [("CUT", dxf_vertices(*box, radius)) for box in outlines_mm(side, frame)]
    if frame is not None:
        shapes.append(("EDGE", dxf_vertices(0.0, 0.0, W, H, 0.0)))
    for layer, vertices in shapes:
        g(0, "POLYLINE"), g(8, layer), g(66, "1"), g(10, 0.0), g(20, 0.0), g(30, 0.0), g(70, "1")  # closed
        for x, y, bulge in vertices:
            g(0, "VERTEX"), g(8, layer), g(10, x), g(20, y), g(30, 0.0)
            if bulge:
                g(42, f"{bulge:.10f}")  # a bulge's rounding error is the arc's: keep it far below 0.001 mm
        g(0, "SEQEND"), g(8, layer)
    g(0, "ENDSEC")
    g(0, "EOF")
    return ("\r\n".join(out) + "\r\n").encode("ascii")


def cut_files(pages, sides: int, radius: float, formats: tuple[str, ...], title: str) -> list[tuple[str, bytes]]:
    """(file-name suffix, bytes) of every page's cut files, in page order."""
    return [file for page in pages for file in page_cut_files(page, sides, radius, formats, title)]


def page_cut_files(page, sides: int, radius: float, formats: tuple[str, ...], title: str,
                   frame: Rect | None = None) -> list[tuple[str, bytes]]:
    """(file-name suffix, bytes) of one page's cut files: the paper, or `frame` of it."""
    suffix = sheet_file_suffix(page, sides)
    side = filled_side(page)
    files = []
    if "svg" in formats:
        files.append((f"{suffix}.svg", cut_svg(side, radius, f"{title} — {suffix[1:]}", frame)))
    if "dxf" in formats:
        files.append((f"{suffix}.dxf", cut_dxf(side, radius, frame)))
    return files


def filled_side(page):
    """The page's side with only the slots that hold a card (the last sheet may be part-filled)."""
    from dataclasses import replace

    return replace(page.side, slots=tuple(slot for _, slot in page.placements()))
