"""Cut files for print-and-cut sheets: every card's outline, in mm at 1:1, for a cutting
machine's software (Silhouette Studio, Cricut Design Space, Brother CanvasWorkspace).

One file per printed side of a sheet, beside the PDF: `<pdf>-sheet-01-front.svg`,
`<pdf>-sheet-01-back.svg` (and `.dxf` with --cut-file dxf). The drawing is the paper,
so an outline lies exactly where the PDF puts the card's trim (the slot's trim box).
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

from ..units import MM

QUARTER_BULGE = math.tan(math.radians(90) / 4)  # DXF bulge of a 90° arc, counter-clockwise



def _n(value: float) -> str:
    """A length in mm, at most 4 decimals, no trailing zeros (0.0001 mm is far below any blade)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def outlines_mm(side) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1, y1) in mm, y up from the paper's bottom-left, of every card on `side`."""
    return [(s.trim_box.x / MM, s.trim_box.y / MM, s.trim_box.x1 / MM, s.trim_box.y1 / MM) for s in side.slots]


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


def cut_svg(side, radius: float, title: str) -> bytes:
    """The SVG cut file of one printed side: the paper at 1:1 in mm, one path per card."""
    from xml.sax.saxutils import escape, quoteattr

    W, H = side.width / MM, side.height / MM
    paths = []
    for n, (x0, y0, x1, y1) in enumerate(outlines_mm(side), 1):
        d = svg_path(x0, H - y1, x1, H - y0, radius)
        paths.append(f'    <path id="card-{n}" d="{d}"/>')
    body = "\n".join(paths)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(W)}mm" height="{_n(H)}mm" viewBox="0 0 {_n(W)} {_n(H)}">\n'
        f"  <title>{escape(title)}</title>\n"
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


def cut_dxf(side, radius: float) -> bytes:
    """The DXF (R12) cut file of one printed side: mm, y up, one closed POLYLINE per card."""
    W, H = side.width / MM, side.height / MM
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
    g(0, "ENDTAB")
    g(0, "ENDSEC")
    g(0, "SECTION"), g(2, "ENTITIES")
    for box in outlines_mm(side):
        g(0, "POLYLINE"), g(8, "CUT"), g(66, "1"), g(10, 0.0), g(20, 0.0), g(30, 0.0), g(70, "1")  # closed
        for x, y, bulge in dxf_vertices(*box, radius):
            g(0, "VERTEX"), g(8, "CUT"), g(10, x), g(20, y), g(30, 0.0)
            if bulge:
                g(42, f"{bulge:.10f}")  # a bulge's rounding error is the arc's: keep it far below 0.001 mm
        g(0, "SEQEND"), g(8, "CUT")
    g(0, "ENDSEC")
    g(0, "EOF")
    return ("\r\n".join(out) + "\r\n").encode("ascii")


def cut_files(pages, sides: int, radius: float, formats: tuple[str, ...], title: str) -> list[tuple[str, bytes]]:
    """(file-name suffix, bytes) of every page's cut files, in page order."""
    files = []
    for page in pages:
        suffix = sheet_file_suffix(page, sides)
        if "svg" in formats:
            files.append((f"{suffix}.svg", cut_svg(_filled(page), radius, f"{title} — {suffix[1:]}")))
        if "dxf" in formats:
            files.append((f"{suffix}.dxf", cut_dxf(_filled(page), radius)))
    return files


def _filled(page):
    """The page's side with only the slots that hold a card (the last sheet may be part-filled)."""
    from dataclasses import replace

    return replace(page.side, slots=tuple(slot for _, slot in page.placements()))
