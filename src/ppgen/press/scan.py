"""What a PDF's pages draw, read with pikepdf (qpdf) and nothing converted: the facts a preflight judges.

    scan = scan_pdf(Path("deck.pdf"))
    scan.pages[2].colours      # {("rgb", "fill")}: RGB set for filling on page 3
    scan.pages[2].images       # each image placed: pixels, colour space, size on the page
    scan.pages[2].text         # each text shown: font, the box of its glyphs on the page
    scan.output_intents, scan.info, scan.xmp, scan.file_id

Every content stream is walked with its graphics state: the current transformation
matrix (`cm`, and each form's /Matrix), the colour spaces and colours set (`rg`, `k`,
`cs`/`scn` with the resources' /ColorSpace), ExtGStates (`gs`: opacity, soft masks,
blend modes), images (`Do` and inline `BI`: their pixels against the area the matrix
gives them), shadings (`sh`) and text (`Tf`, `Tm`, `Td`, `TJ` …: each string's advance from
the font's widths, its height from the font's ascent and descent). Form XObjects are
followed, with their matrices and resources, to any depth (a cycle stops). Nothing is
rendered.

pikepdf, not pypdf (which assembles the sets): qpdf's C++ parser reads a content stream ten
times quicker than pypdf's, and content streams are most of what a preflight reads — a print
shop's seven decks in 1.0 s instead of 2.7 s.
"""
from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
MAX_DEPTH = 24  # forms inside forms
MAX_CID = 0xFFFF  # a CID font's glyphs are numbered 0–65535


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point p maps to p·m·n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def box_of(m: Matrix, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    points = [apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


@dataclass(frozen=True)
class PlacedImage:
    name: str
    pixels: tuple[int, int]
    space: str  # cmyk | rgb | gray | lab | spot | indexed-rgb … (see `space_kind`)
    size: tuple[float, float]  # points on the page (the unit square through the CTM)
    soft_mask: bool
    cmyk_data: object = None  # a callable giving the decoded CMYK pixels (for the total ink), or None

    @property
    def dpi(self) -> float:
        w, h = self.size
        if w <= 0 or h <= 0:
            return math.inf
        return min(self.pixels[0] / (w / 72), self.pixels[1] / (h / 72))


@dataclass(frozen=True)
class ShownText:
    font: str
    box: tuple[float, float, float, float]  # page points: the glyphs' advance × ascent–descent


@dataclass
class PageScan:
    number: int  # 1-based
    boxes: dict  # MediaBox, TrimBox, BleedBox, ArtBox, CropBox → (x0, y0, x1, y1) in points, those present
    colours: dict = field(default_factory=dict)  # (space kind, "fill" | "stroke") → first operator seen, e.g. "rg"
    inks: list = field(default_factory=list)  # CMYK colours set (c, m, y, k), 0–1
    images: list = field(default_factory=list)  # PlacedImage
    text: list = field(default_factory=list)  # ShownText
    fonts: dict = field(default_factory=dict)  # font name → embedded? (True/False), of the fonts that show text
    transparency: list = field(default_factory=list)  # what makes it transparent, in words
    page_group: bool = False


@dataclass
class PdfScan:
    path: Path
    version: str
    pages: list[PageScan]
    info: dict
    xmp: str
    file_id: bool
    encrypted: bool
    output_intents: list[dict]  # each: S, identifier, info, registry, profile N (or None)
    damage: list[str] = field(default_factory=list)  # what qpdf had to repair or could read only in part, in its words


# ── colour spaces ──────────────────────────────────────────────────────────
DEVICE = {"/DeviceRGB": "rgb", "/RGB": "rgb", "/DeviceCMYK": "cmyk", "/CMYK": "cmyk", "/DeviceGray": "gray", "/G": "gray",
          "/CalRGB": "rgb", "/CalGray": "gray", "/Lab": "lab", "/Pattern": "pattern"}
OPERATOR_SPACE = {"rg": "rgb", "RG": "rgb", "k": "cmyk", "K": "cmyk", "g": "gray", "G": "gray"}


def space_kind(space, resources=None, depth: int = 0) -> str:
    """A colour space (a name, or an array such as [/ICCBased stream]) as rgb, cmyk, gray, lab,
    spot (Separation, DeviceN), pattern, or indexed-<base>; a name is looked up in `resources`
    (one that names itself, however far round, is unknown)."""
    from pikepdf import Array, Name

    if depth > MAX_DEPTH:
        return "unknown"
    if isinstance(space, (Name, str)):
        name = str(space)
        if name in DEVICE:
            return DEVICE[name]
        named = _resource(resources, "/ColorSpace", name)
        return space_kind(named, resources, depth + 1) if named is not None else "unknown"
    if isinstance(space, Array) and len(space):
        family = str(space[0])
        if family == "/ICCBased":
            n = int(space[1].get("/N", 0))
            return {1: "gray", 3: "rgb", 4: "cmyk"}.get(n, "unknown")
        if family in ("/Separation", "/DeviceN"):
            return "spot"
        if family in ("/Indexed", "/I"):
            return f"indexed-{space_kind(space[1], resources, depth + 1)}"
        if family == "/Pattern":
            return "pattern"
        return DEVICE.get(family, "unknown")
    return "unknown"


def _resource(resources, kind: str, name):
    """Resource `name` of `kind` (/Font, /XObject …) in a page's or form's resources, or None."""
    if resources is None:
        return None
    table = resources.get(kind)
    return table.get(str(name)) if table is not None else None


# ── reading a file ─────────────────────────────────────────────────────────
def scan_pdf(path: Path, data: bytes | None = None) -> PdfScan:
    """Every page of the PDF at `path` (or `data`, its bytes), walked. A file cut short (no
    %%EOF at its end) or one qpdf cannot open raises ValueError; one qpdf had to repair (its
    cross-reference table rebuilt: line endings converted, a hand edit) or could read only in
    part (a content stream broken off) is scanned as far as it goes, with `damage` saying what."""
    import pikepdf

    data = Path(path).read_bytes() if data is None else data
    if data.startswith(b"%PDF") and b"%%EOF" not in data[-1024:]:
        raise ValueError("is not a PDF that can be read (it is cut short: no %%EOF at its end)")
    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError:
        return PdfScan(Path(path), _version(data), [], {}, "", False, True, [])
    except (pikepdf.PdfError, ValueError, OSError) as exc:
        raise ValueError(f"is not a PDF that can be read ({_said(exc)})") from None
    try:
        return _scanned(path, data, pdf)
    except (pikepdf.PdfError, KeyError, TypeError, AttributeError, ValueError, IndexError, OSError, Warning) as exc:
        raise ValueError(f"is not a PDF that can be read ({_said(exc)})") from None


def _said(exc: Exception) -> str:
    """qpdf's message without the name it gives the bytes it read: "stream <_io.BytesIO object at
    0x…> (xref table, offset 265364): invalid xref entry" → "xref table, offset 265364: invalid xref entry"."""
    said = re.sub(r"stream <_io\.BytesIO object at 0x[0-9a-f]+>\s*", "", str(exc))
    return re.sub(r"^\(([^()]*)\):", r"\1:", said).removeprefix(": ")


def _scanned(path: Path, data: bytes, pdf) -> PdfScan:
    """The scan of a PDF pikepdf opened (its pages walked: a damaged one raises there)."""
    if pdf.is_encrypted:
        return PdfScan(Path(path), _version(data), [], {}, "", False, True, [])
    walker = _Walker(pdf)
    pages = [walker.page(i, page.obj) for i, page in enumerate(pdf.pages)]
    trailer, root = pdf.trailer, pdf.Root
    info = {str(k): str(v) for k, v in trailer.Info.items()} if "/Info" in trailer else {}
    metadata = root.get("/Metadata")
    xmp = metadata.read_bytes().decode("utf-8", "replace") if metadata is not None else ""
    intents = [_intent(i) for i in (root.get("/OutputIntents") or [])]
    file_id = "/ID" in trailer and len(trailer.ID) == 2
    damage = [_said(w) for w in pdf.get_warnings()]
    return PdfScan(Path(path), _version(data), pages, info, xmp, file_id, False, intents, damage)


def _version(data: bytes) -> str:
    head = data[:16]
    return head[5:8].decode("ascii", "replace") if head.startswith(b"%PDF-") else "?"


def _intent(intent) -> dict:
    profile = intent.get("/DestOutputProfile")
    n = int(profile.get("/N", 0)) if profile is not None else None
    return {"S": str(intent.get("/S", "")), "identifier": str(intent.get("/OutputConditionIdentifier", "")),
            "info": str(intent.get("/Info", "")), "registry": str(intent.get("/RegistryName", "")), "profile_n": n}


def _boxes(page) -> dict:
    out = {}
    for name in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
        box = page.get(name)  # set on the page itself (inherited only for MediaBox and CropBox)
        if box is None and name in ("/MediaBox", "/CropBox"):
            box = _inherited(page, name)
        if box is not None:
            x0, y0, x1, y1 = (float(v) for v in box)
            out[name[1:]] = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    return out


def _inherited(page, name: str):
    """An attribute a page takes from its page tree when it has none of its own (Resources,
    MediaBox, CropBox), or None."""
    node = page
    for _ in range(MAX_DEPTH):
        if name in node:
            return node[name]
        node = node.get("/Parent")
        if node is None:
            return None
    return None


# The operators the walk reads: the graphics state, colours, images, forms and text (a card's
# paths, most of its operators, are not: what they paint is judged by the colour they paint in).
WALKED = frozenset(("q", "Q", "cm", *OPERATOR_SPACE, "cs", "CS", "sc", "scn", "SC", "SCN", "gs", "sh", "Do", "INLINE IMAGE",
                    "BT", "Tf", "Tc", "Tw", "Tz", "Ts", "TL", "Tm", "Td", "TD", "T*", "Tj", "TJ", "'", '"'))


def _operations(stream) -> list:
    """A content stream (a page, a form, a tiling pattern) as (operands, operator) pairs, those
    of the operators the walk reads. What qpdf cannot read of it (a stream broken off) it notes
    in the document's warnings (the scan's `damage`); pikepdf's own warning about operands left
    at the end of a stream with no operator stays off the terminal (they draw nothing)."""
    import warnings

    import pikepdf

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = pikepdf.parse_content_stream(stream)
    ops = ((i.operands, str(i.operator)) for i in parsed)
    return [op for op in ops if op[1] in WALKED]


# ── walking content streams ────────────────────────────────────────────────
@dataclass
class _State:
    ctm: Matrix = IDENTITY
    fill: str = "gray"
    stroke: str = "gray"
    font: object = None
    size: float = 0.0
    char_space: float = 0.0
    word_space: float = 0.0
    scale: float = 1.0
    rise: float = 0.0
    leading: float = 0.0

    def copy(self) -> "_State":
        return _State(**self.__dict__)


class _Walker:
    """Walks pages and the forms they place, recording what each draws into its PageScan."""

    def __init__(self, pdf):
        self.pdf = pdf  # kept open while a CMYK image's pixels may still be asked for (the total ink)
        self._ops: dict[tuple[int, int], list] = {}  # parsed content of each form, by object number
        self._fonts: dict[tuple[int, int], "_Font"] = {}

    def page(self, index: int, page) -> PageScan:
        scan = PageScan(index + 1, _boxes(page))
        group = page.get("/Group")
        if group is not None and str(group.get("/S", "")) == "/Transparency":
            scan.page_group = True
            scan.transparency.append("a transparency group on the page")
        if "/Contents" in page:
            self._walk(_operations(page), _inherited(page, "/Resources"), _State(), scan, 0, set())
        return scan

    def _form_ops(self, number: tuple[int, int], xobject) -> list:
        if number not in self._ops:
            self._ops[number] = _operations(xobject)
        return self._ops[number]

    def _walk(self, ops, resources, state: _State, scan: PageScan, depth: int, active: set) -> None:
        from pikepdf import Name

        stack: list[_State] = []
        tm = tlm = IDENTITY
        for operands, op in ops:
            if op == "q":
                stack.append(state.copy())
            elif op == "Q":
                if stack:
                    state = stack.pop()
            elif op == "cm" and len(operands) == 6:
                state.ctm = multiply(tuple(float(v) for v in operands), state.ctm)
            elif op in OPERATOR_SPACE:
                self._colour(scan, OPERATOR_SPACE[op], "stroke" if op.isupper() else "fill", op, operands)
                if op.isupper():
                    state.stroke = OPERATOR_SPACE[op]
                else:
                    state.fill = OPERATOR_SPACE[op]
            elif op in ("cs", "CS") and operands:
                kind = space_kind(operands[0], resources)
                if op == "cs":
                    state.fill = kind
                else:
                    state.stroke = kind
                self._colour(scan, kind, "fill" if op == "cs" else "stroke", op, [])
            elif op in ("sc", "scn", "SC", "SCN"):
                kind = state.fill if op.islower() else state.stroke
                if kind == "pattern" and operands and isinstance(operands[-1], Name):
                    self._pattern(operands[-1], resources, state, scan, depth, active)
                elif kind == "cmyk" and len(operands) == 4:
                    scan.inks.append(tuple(float(v) for v in operands))
            elif op == "gs" and operands:
                self._ext_gstate(_resource(resources, "/ExtGState", operands[0]), scan)
            elif op == "sh" and operands:
                shading = _resource(resources, "/Shading", operands[0])
                if shading is not None:
                    self._colour(scan, space_kind(shading.get("/ColorSpace"), resources), "fill", "sh", [])
            elif op == "Do" and operands:
                self._xobject(operands[0], resources, state, scan, depth, active)
            elif op == "INLINE IMAGE":
                self._inline_image(operands, resources, state, scan)
            elif op == "BT":
                tm = tlm = IDENTITY
            elif op == "Tf" and len(operands) == 2:
                font = _resource(resources, "/Font", operands[0])
                state.font, state.size = (self._font(font) if font is not None else None), float(operands[1])
            elif op == "Tc" and operands:
                state.char_space = float(operands[0])
            elif op == "Tw" and operands:
                state.word_space = float(operands[0])
            elif op == "Tz" and operands:
                state.scale = float(operands[0]) / 100
            elif op == "Ts" and operands:
                state.rise = float(operands[0])
            elif op == "TL" and operands:
                state.leading = float(operands[0])
            elif op == "Tm" and len(operands) == 6:
                tm = tlm = tuple(float(v) for v in operands)
            elif op in ("Td", "TD") and len(operands) == 2:
                tx, ty = float(operands[0]), float(operands[1])
                if op == "TD":
                    state.leading = -ty
                tm = tlm = multiply((1, 0, 0, 1, tx, ty), tlm)
            elif op == "T*":
                tm = tlm = multiply((1, 0, 0, 1, 0, -state.leading), tlm)
            elif op in ("Tj", "TJ", "'", '"') and operands:
                if op in ("'", '"'):
                    if op == '"' and len(operands) == 3:
                        state.word_space, state.char_space = float(operands[0]), float(operands[1])
                    tm = tlm = multiply((1, 0, 0, 1, 0, -state.leading), tlm)
                tm = self._show(operands[-1], op == "TJ", state, tm, scan)

    def _colour(self, scan: PageScan, kind: str, use: str, op: str, operands) -> None:
        scan.colours.setdefault((kind, use), op)
        if kind == "cmyk" and len(operands) == 4:
            scan.inks.append(tuple(float(v) for v in operands))

    def _ext_gstate(self, gs, scan: PageScan) -> None:
        from pikepdf import Array

        if gs is None:
            return
        for key, words in (("/CA", "stroke opacity"), ("/ca", "fill opacity")):
            if key in gs and float(gs[key]) < 1:
                scan.transparency.append(f"{words} {float(gs[key]):g}")
        mask = gs.get("/SMask")
        if mask is not None and str(mask) != "/None":
            scan.transparency.append("a soft mask")
        blend = gs.get("/BM")
        if blend is not None:
            mode = str(blend[0] if isinstance(blend, Array) and len(blend) else blend)
            if mode not in ("/Normal", "/Compatible"):
                scan.transparency.append(f"blend mode {mode.lstrip('/')}")

    def _xobject(self, name, resources, state: _State, scan: PageScan, depth: int, active: set) -> None:
        xobject = _resource(resources, "/XObject", name)
        if xobject is None:
            return
        subtype = str(xobject.get("/Subtype", ""))
        if subtype == "/Image":
            self._image(str(name), xobject, resources, state, scan)
        elif subtype == "/Form":
            number = xobject.objgen
            if depth >= MAX_DEPTH or number in active:
                return
            group = xobject.get("/Group")
            if group is not None and str(group.get("/S", "")) == "/Transparency":
                scan.transparency.append(f"a transparency group in form {str(name).lstrip('/')}")
            inner = state.copy()
            matrix = tuple(float(v) for v in xobject.get("/Matrix", IDENTITY))
            inner.ctm = multiply(matrix, state.ctm)
            self._walk(self._form_ops(number, xobject), xobject.get("/Resources") or resources, inner, scan, depth + 1, active | {number})

    def _image(self, name: str, image, resources, state: _State, scan: PageScan) -> None:
        a, b, c, d, _, _ = state.ctm
        size = (math.hypot(a, b), math.hypot(c, d))
        pixels = (int(image.get("/Width", 0)), int(image.get("/Height", 0)))
        if bool(image.get("/ImageMask", False)):
            kind = state.fill  # a stencil mask paints in the fill colour
        else:
            kind = space_kind(image.get("/ColorSpace", "/DeviceGray"), resources)
        soft = image.get("/SMask") is not None
        if soft:
            scan.transparency.append("an image with a soft mask (alpha)")
        data = (lambda im=image, px=pixels, pdf=self.pdf: _cmyk_pixels(im, px)) if kind == "cmyk" else None
        scan.images.append(PlacedImage(name.lstrip("/"), pixels, kind, size, soft, data))

    def _inline_image(self, operands, resources, state: _State, scan: PageScan) -> None:
        image = operands[0]  # pikepdf's PdfInlineImage: its dictionary with the keys and names spelt out
        settings = image.obj
        w, h = int(settings.get("/Width", 0)), int(settings.get("/Height", 0))
        a, b, c, d, _, _ = state.ctm
        kind = state.fill if bool(settings.get("/ImageMask", False)) else space_kind(settings.get("/ColorSpace", "/DeviceGray"), resources)
        scan.images.append(PlacedImage("inline", (w, h), kind, (math.hypot(a, b), math.hypot(c, d)), False))

    def _pattern(self, name, resources, state: _State, scan: PageScan, depth: int, active: set) -> None:
        pattern = _resource(resources, "/Pattern", name)
        if pattern is None:
            return
        if int(pattern.get("/PatternType", 0)) == 2 and pattern.get("/Shading") is not None:
            self._colour(scan, space_kind(pattern["/Shading"].get("/ColorSpace"), resources), "fill", "scn", [])
        elif int(pattern.get("/PatternType", 0)) == 1 and depth < MAX_DEPTH:
            inner = state.copy()
            self._walk(self._form_ops(pattern.objgen, pattern), pattern.get("/Resources") or resources, inner, scan, depth + 1, active)

    def _font(self, font) -> "_Font":
        number = font.objgen  # (0, 0): a font dictionary written in place, not an object of its own
        if number == (0, 0):
            return _Font(font)
        if number not in self._fonts:
            self._fonts[number] = _Font(font)
        return self._fonts[number]

    def _show(self, text, spaced: bool, state: _State, tm: Matrix, scan: PageScan) -> Matrix:
        """Record the glyphs' box of one text-showing operator; return the text matrix after it."""
        font = state.font
        if font is None:
            return tm
        size, scale = state.size, state.scale
        advance = 0.0
        items = text if spaced else [text]
        for item in items:
            if isinstance(item, (int, float, Decimal)):
                advance -= float(item) / 1000 * size * scale
                continue
            for code in font.codes(bytes(item)):
                w = font.width(code) / 1000 * size + state.char_space + (state.word_space if code == 32 and font.simple else 0)
                advance += w * scale
        scan.fonts.setdefault(font.name, font.embedded)  # a font counts once it shows text, not when merely set
        if advance:
            m = multiply(tm, state.ctm)
            lo, hi = font.descent / 1000 * size + state.rise, font.ascent / 1000 * size + state.rise
            scan.text.append(ShownText(font.name, box_of(m, min(0.0, advance), lo, max(0.0, advance), hi)))
        return multiply((1, 0, 0, 1, advance, 0), tm)


class _Font:
    """What the scan needs of a font: its name, whether its program is embedded, widths, height."""

    def __init__(self, font):
        subtype = str(font.get("/Subtype", ""))
        self.simple = subtype != "/Type0"
        self.name = str(font.get("/BaseFont", "(unnamed)")).lstrip("/")
        descriptor = None
        self.default_width = 0.0
        self.widths: dict[int, float] = {}
        if self.simple:
            first = int(font.get("/FirstChar", 0))
            for i, w in enumerate(font.get("/Widths", []) or []):
                self.widths[first + i] = float(w)
            descriptor = font.get("/FontDescriptor")
        else:
            descendant = font["/DescendantFonts"][0]
            descriptor = descendant.get("/FontDescriptor")
            self.default_width = float(descendant.get("/DW", 1000))
            self._cid_widths(descendant.get("/W", []) or [])
        descriptor = descriptor if descriptor is not None else {}
        self.type3 = subtype == "/Type3"
        self.embedded = self.type3 or any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        self.ascent = float(descriptor.get("/Ascent", 800) or 800)
        self.descent = float(descriptor.get("/Descent", -200) or -200)
        if self.descent > 0:
            self.descent = -self.descent

    def _cid_widths(self, w) -> None:
        from pikepdf import Array

        w = list(w)
        i = 0
        while i + 1 < len(w):
            first = int(w[i])
            if isinstance(w[i + 1], Array):
                for n, width in enumerate(w[i + 1]):
                    self.widths[first + n] = float(width)
                i += 2
            elif i + 2 < len(w):
                for cid in range(first, min(int(w[i + 1]), MAX_CID) + 1):  # (a range past the last CID: no more)
                    self.widths[cid] = float(w[i + 2])
                i += 3
            else:
                break

    def codes(self, raw: bytes) -> list[int]:
        if self.simple:
            return list(raw)
        return [int.from_bytes(raw[i:i + 2], "big") for i in range(0, len(raw) - 1, 2)]

    def width(self, code: int) -> float:
        return self.widths.get(code, self.default_width)


def _cmyk_pixels(image, pixels: tuple[int, int]):
    """A DeviceCMYK image's pixels as a PIL CMYK image (8 bits per component), or None."""
    from PIL import Image

    if int(image.get("/BitsPerComponent", 8)) != 8:
        return None
    try:
        if str(image.get("/Filter", "")) == "/DCTDecode":
            return Image.open(io.BytesIO(image.read_raw_bytes())).convert("CMYK")
        return Image.frombytes("CMYK", pixels, image.read_bytes())
    except Exception:  # a filter qpdf cannot decode: no total-ink check for this image
        return None
