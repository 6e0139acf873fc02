"""Reading PDFs back in tests: placements of form XObjects, fonts, rendered pixels."""
from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from pathlib import Path

MM = 72 / 25.4


def reader(pdf):
    import pypdf

    return pypdf.PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else str(pdf))


def operations(stream) -> list[tuple[list, bytes]]:
    """[(operands, operator)] of a content stream pypdf read (a page's `get_contents()`, a form
    XObject): its bytes, as pypdf decodes them, parsed by qpdf (pikepdf), ten times quicker than
    pypdf's own parser. Numbers are int or Decimal, names pikepdf.Name (equal to their str)."""
    import pikepdf

    parsed = pikepdf.parse_content_stream(pikepdf.Stream(_owner(), stream.get_data()))
    return [(list(i.operands), str(i.operator).encode("latin-1")) for i in parsed]


@functools.lru_cache(maxsize=None)
def _owner():
    """The empty PDF the parsed streams belong to (pikepdf wants one)."""
    import pikepdf

    return pikepdf.new()


@dataclass(frozen=True)
class Placed:
    form: str  # the face key (XObject name without ReportLab's prefix)
    x: float  # bottom-left corner of the drawn box on the page
    y: float
    rotation: int = 0  # degrees anticlockwise


def placements(page) -> list[Placed]:
    """Every form drawn on a page, with the translation in force when it was drawn."""
    xobjects = {k: v.get_object() for k, v in page["/Resources"].get("/XObject", {}).items()}
    out, m, stack = [], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), []
    for operands, op in operations(page.get_contents()):
        if op == b"q":
            stack.append(m)
        elif op == b"Q":
            m = stack.pop()
        elif op == b"cm":  # new CTM = operand matrix × current
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = m
            m = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"Do":
            a, b, c, d, e, f = m
            assert abs(a * d - b * c) == 1 and {abs(a), abs(b), abs(c), abs(d)} <= {0, 1}, "faces are placed at their size"
            x0, y0, x1, y1 = (float(v) for v in xobjects[operands[0]]["/BBox"])
            corners = [(a * x + c * y + e, b * x + d * y + f) for x in (x0, x1) for y in (y0, y1)]
            rotation = {(1, 0): 0, (0, 1): 90, (-1, 0): 180, (0, -1): 270}[(round(a), round(b))]
            out.append(Placed(form_key(operands[0]), min(p[0] for p in corners), min(p[1] for p in corners), rotation))
    return out


def form_key(name) -> str:
    """A form XObject's resource name without ReportLab's prefix: the face key."""
    return str(name)[1:].removeprefix("FormXob.")


def fonts(pdf) -> dict[str, bool]:
    """Every font used by any page or form: base font name -> embedded?"""
    found: dict[str, bool] = {}
    seen: set = set()

    def embedded(font) -> bool:
        font = font.get_object()
        if font.get("/Subtype") == "/Type0":
            font = font["/DescendantFonts"][0].get_object()
        desc = font.get("/FontDescriptor")
        if desc is None:
            return False
        desc = desc.get_object()
        return any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))

    def walk(obj) -> None:
        obj = obj.get_object()
        res = obj.get("/Resources")
        if res is None:
            return
        res = res.get_object()
        for font in (res.get("/Font") or {}).values():
            font = font.get_object()
            found[str(font["/BaseFont"])] = embedded(font)
        for xobj in (res.get("/XObject") or {}).values():
            ref = getattr(xobj, "idnum", id(xobj))
            if ref not in seen:
                seen.add(ref)
                walk(xobj)

    for page in reader(pdf).pages:
        walk(page)
    return found


def render(pdf, index: int, dpi: float = 100):
    """Page `index` as an RGB PIL image."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(Path(pdf)))
    try:
        return doc[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def px_box(rect, height_pt: float, dpi: float, inset_px: int = 0) -> tuple[int, int, int, int]:
    """A rectangle in points (origin bottom-left) as a PIL box (origin top-left) at `dpi`."""
    k = dpi / 72
    x0, x1 = rect.x * k, rect.x1 * k
    y0, y1 = (height_pt - rect.y1) * k, (height_pt - rect.y) * k
    import math

    return (math.ceil(x0) + inset_px, math.ceil(y0) + inset_px, math.floor(x1) - inset_px, math.floor(y1) - inset_px)


def colours(image, box, most: int = 4096) -> set:
    """The distinct colours inside a PIL box ({"many"} beyond `most`)."""
    found = image.crop(box).getcolors(maxcolors=most)
    return {"many"} if found is None else {c for _, c in found}


def texts(pdf) -> list[str]:
    """The text of every page (PDFium's extraction: fast, and it reads form XObjects too)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(Path(pdf)))
    try:
        out = []
        for page in doc:
            tp = page.get_textpage()
            out.append(" ".join(tp.get_text_range().split()))
            tp.close()
            page.close()
        return out
    finally:
        doc.close()


_READ_ONCE: dict[tuple[str, str], tuple] = {}


def _read_once(pdf, how: str, read) -> tuple:
    """`read(data)` of a PDF (a path, bytes or a binary file), once per distinct file content in
    this process: tests that read the same rulebook page by page, several times over, read it once."""
    import hashlib

    data = pdf if isinstance(pdf, bytes) else pdf.getvalue() if hasattr(pdf, "getvalue") else Path(pdf).read_bytes()
    key = (how, hashlib.sha256(data).hexdigest())
    if key not in _READ_ONCE:
        _READ_ONCE[key] = tuple(read(data))
    return _READ_ONCE[key]


def page_texts(pdf) -> tuple[str, ...]:
    """`texts(pdf)`, read once per distinct file content (PDFium's text in the order it is drawn:
    for checks that look for a phrase, whitespace aside)."""
    return _read_once(pdf, "texts", texts)


def printed_lines(pdf) -> tuple[tuple[TextLine, ...], ...]:
    """Every page's lines as printed (`text_lines` of its `glyphs`: top to bottom, one baseline
    each, columns apart), read once per distinct file content."""
    return _read_once(pdf, "lines", lambda data: (tuple(text_lines(page)) for page in glyphs(data)))


def page_lines(page) -> list[tuple[float, float, float, float]]:
    """Every straight line stroked in a page's own content (not inside forms), in page points:
    (x0, y0, x1, y1) for each `m … l … S` segment, through the CTM in force."""
    m, stack, path, out, at = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), [], [], [], None

    def apply(x, y):
        a, b, c, d, e, f = m
        return (a * x + c * y + e, b * x + d * y + f)

    for operands, op in operations(page.get_contents()):
        if op == b"q":
            stack.append(m)
        elif op == b"Q":
            m = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = m
            m = (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)
        elif op == b"m":
            at = apply(*(float(v) for v in operands))
        elif op == b"l" and at is not None:
            to = apply(*(float(v) for v in operands))
            path.append((*at, *to))
            at = to
        elif op in (b"S", b"s"):
            out += path
            path, at = [], None
        elif op in (b"n", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
            path, at = [], None
    return out


def outline(pdf) -> list[tuple[int, str, int]]:
    """(level, title, 0-based page) of every outline entry of a pypdf reader, depth first."""
    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                yield from walk(item, level + 1)
            else:
                yield level, item.title, pdf.get_destination_page_number(item)

    return list(walk(pdf.outline, 0))


def print_hints(pdf) -> dict:
    """A PDF's /ViewerPreferences as plain values: {"PrintScaling": "None", "Duplex": "Simplex", ...}."""
    prefs = reader(pdf).trailer["/Root"].get("/ViewerPreferences")
    if prefs is None:
        return {}
    return {str(k)[1:]: (bool(v) if isinstance(v, bool) or type(v).__name__ == "BooleanObject" else str(v).lstrip("/"))
            for k, v in prefs.get_object().items()}


def page_forms(page) -> set[str]:
    """The face keys of the forms a page's resources name (what it places), without parsing its content."""
    resources = page.get("/Resources")
    xobjects = resources.get_object().get("/XObject", {}) if resources is not None else {}
    return {form_key(name) for name in xobjects}
def font_programs(pdf) -> dict[int, tuple[str, str, str]]:
    """Every font object of the file: object number → (BaseFont, the descriptor's FontName,
    SHA-256 of the embedded font program)."""
    import hashlib

    pdf = reader(pdf)
    found, seen = {}, set()

    def walk(obj) -> None:
        res = obj.get_object().get("/Resources")
        if res is None:
            return
        res = res.get_object()
        for ref in (res.get("/Font") or {}).values():
            font = ref.get_object()
            desc = font["/FontDescriptor"].get_object()
            program = desc.get("/FontFile2") or desc.get("/FontFile") or desc.get("/FontFile3")
            digest = hashlib.sha256(program.get_object().get_data()).hexdigest() if program else ""
            found[ref.idnum] = (str(font["/BaseFont"]), str(desc["/FontName"]), digest)
        for xobj in (res.get("/XObject") or {}).values():
            if xobj.idnum not in seen:
                seen.add(xobj.idnum)
                walk(xobj)

    for page in pdf.pages:
        walk(page)
    return found


# ── text as printed: characters and lines with their positions ──────────────
@dataclass(frozen=True)
class Glyph:
    """One character as PDFium reads it from a page (forms included), in points."""

    ch: str
    x0: float  # the loose box: origin to origin + advance
    x1: float
    baseline: float
    size: float


def glyphs(pdf, upright: bool = False, pages=None) -> list[list[Glyph]]:
    """Every drawn character of every page (PDFium's generated spaces and line ends left out);
    `upright`: only those set the page's way up (not words along a glue strip, or a picture's
    upside-down opponent mat); `pages`: only those pages' (0-based indexes), in that order."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(Path(pdf)))
    out = []
    try:
        for page in (doc[i] for i in pages) if pages is not None else doc:
            tp = page.get_textpage()
            found = []
            x, y = ctypes.c_double(), ctypes.c_double()
            for i in range(tp.count_chars()):
                if raw.FPDFText_IsGenerated(tp, i):
                    continue
                ch = chr(raw.FPDFText_GetUnicode(tp, i))
                if ch in "\r\n" or (upright and abs(raw.FPDFText_GetCharAngle(tp, i)) > 1e-3):
                    continue
                left, _, right, _ = tp.get_charbox(i, loose=True)
                raw.FPDFText_GetCharOrigin(tp, i, x, y)
                found.append(Glyph(ch, left, right, y.value, raw.FPDFText_GetFontSize(tp, i)))
            out.append(found)
            tp.close()
            page.close()
    finally:
        doc.close()
    return out


@dataclass
class TextLine:
    glyphs: list[Glyph]

    @property
    def text(self) -> str:
        """The characters, with a space where two stand apart by more than 0.15 em and PDFium
        reports none (it loses some spaces drawn from another subset of a font)."""
        out = []
        for before, g in zip([None] + self.glyphs[:-1], self.glyphs):
            if before is not None and g.x0 - before.x1 > 0.15 * g.size and not (before.ch + g.ch).isspace():
                out.append(" ")
            out.append(g.ch)
        return "".join(out)

    @property
    def left(self) -> float:
        return self.glyphs[0].x0

    @property
    def right(self) -> float:
        return max(g.x1 for g in self.glyphs if not g.ch.isspace())

    @property
    def baseline(self) -> float:
        return self.glyphs[0].baseline

    @property
    def size(self) -> float:
        return max(g.size for g in self.glyphs)


def text_lines(found: list[Glyph], x0=-1e9, y0=-1e9, x1=1e9, y1=1e9) -> list[TextLine]:
    """The glyphs whose origin lies in the box, as lines top to bottom (one baseline each, left
    to right). Glyphs on one baseline further apart than two ems are separate lines (columns)."""
    inside = [g for g in found if x0 - 0.01 <= g.x0 <= x1 + 0.01 and y0 - 0.01 <= g.baseline <= y1 + 0.01]
    rows: dict[float, list[Glyph]] = {}
    for g in inside:
        rows.setdefault(round(g.baseline, 1), []).append(g)
    lines = []
    for base in sorted(rows, reverse=True):
        row = sorted(rows[base], key=lambda g: g.x0)
        current = [row[0]]
        for g in row[1:]:
            if g.x0 - current[-1].x1 > 2 * max(g.size, current[-1].size):
                lines.append(TextLine(current))
                current = []
            current.append(g)
        lines.append(TextLine(current))
    return [line for line in lines if line.text.strip()]


def frame_texts(pdf, top: float, bottom: float, halves: bool = False) -> list[str]:
    """Each page's text between `top` pt below its top edge and `bottom` pt above its foot (the text
    frame: no running head, no folio), whitespace removed, in the order it was drawn; with `halves`,
    each page's left and right half as two pages (a booklet's sheet side)."""
    import re

    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(Path(pdf)))
    try:
        out = []
        for page in doc:
            w, h = page.get_size()
            tp = page.get_textpage()
            for x0, x1 in ((0, w / 2), (w / 2, w)) if halves else ((0, w),):
                out.append(re.sub(r"\s+", "", tp.get_text_bounded(left=x0, bottom=bottom, right=x1, top=h - top)))
        return out
    finally:
        doc.close()


def list_texts(project, lang: str) -> dict[str, str]:
    """Each list of two items or more that every build sets, its items read as one text: {its
    first item's key: the items' printed patterns, a marker's number (or nothing) between them}
    — for `read_on_problems`: a list split at a page break reads on, no figure between its items."""
    from ppgen.read.rulebook import load_structure

    structure, locale = load_structure(project), project.locale(lang)
    return {block.keys[0]: ".{0,3}?".join(printed_pattern(locale.get(key)) for key in block.keys)
            for section in structure.all_sections for block in section.blocks
            if block.kind in ("bullets", "numbered") and not block.when and len(block.keys) > 1}


def printed_pattern(text: str) -> str:
    """A regular expression of a locale text as a page prints it, whitespace removed: its
    {placeholders} any short run of characters, its **bold** marks gone."""
    import re

    parts = re.split(r"\{[^}]*\}", text.replace("**", ""))
    return ".{1,60}?".join(re.escape(re.sub(r"\s+", "", p)) for p in parts)


def across_lines(text: str) -> str:
    """A regular expression of `text` as extracted text has it where lines break anywhere: any
    spaces and line breaks (or none) between its characters, its own spaces included — matched
    against the text as it was extracted, so its match's positions are the characters'."""
    import re

    return r"\s*".join(re.escape(c) for c in text.replace(" ", ""))


def read_on_problems(pages: list[str], texts: dict[str, str]) -> list[tuple]:
    """Where the texts ({name: printed_pattern}, in the order they are set) do not read on: a text
    not found whole, in order, in the pages' text read from page to page (something was set
    inside it: a figure between the halves of a paragraph), or one across more than two pages
    (a page between its halves). Each problem: (name, first page, last page) (1-based; None, None
    when not found)."""
    import bisect
    import re

    starts, total = [], 0
    for text in pages:
        starts.append(total)
        total += len(text)
    flow, at, problems = "".join(pages), 0, []
    for name, pattern in texts.items():
        found = re.compile(pattern).search(flow, at)
        if found is None:
            problems.append((name, None, None))
            continue
        at = found.end()
        first, last = (bisect.bisect_right(starts, i) for i in (found.start(), found.end() - 1))
        if last - first > 1:
            problems.append((name, first, last))
    return problems


def rule_texts(project, lang: str) -> dict[str, str]:
    """The rulebook's paragraphs and list items that every build sets (no `when:`), in the order
    they are set: {locale key: printed_pattern} — for `read_on_problems`."""
    from ppgen.read.rulebook import load_structure

    structure, locale = load_structure(project), project.locale(lang)
    keys = [structure.intro] + [key for section in structure.all_sections for block in section.blocks
                                if block.kind in ("paragraph", "bullets", "numbered") and not block.when for key in block.keys]
    return {key: printed_pattern(locale.get(key)) for key in keys}
