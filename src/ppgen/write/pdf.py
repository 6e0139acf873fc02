"""Writing PDFs: one canvas per output file, faces drawn once, written atomically.

- Every font is embedded: the canvas starts in a registered TrueType font
  (never ReportLab's default Helvetica, which is not embedded), and text is
  drawn in the fonts of a FontChain.
- Deterministic: `invariant=1`, so the same inputs give byte-identical files.
- A face (a card front, the card back) is a PDF form XObject, drawn once and
  placed for every copy, so 280 cards cost 142 drawings, not 280.
- Page boxes: MediaBox = the paper, TrimBox/BleedBox = the cards' trim and
  bleed (what print shops read); no CropBox, so viewers show the whole sheet.
- Print hints (`/ViewerPreferences`) on every PDF: actual size (`/PrintScaling /None`:
  Acrobat's default "Fit" prints cards at ≈ 96 %), the duplex setting the file is meant
  for (`/Simplex`, `/DuplexFlipLongEdge`, `/DuplexFlipShortEdge`) and the paper tray by
  page size (`/PickTrayByPDFSize`). `viewer_preferences` is the one place that says so;
  the booklet (pypdf) carries the same through `set_viewer_preferences`, the joined set
  (write/join.py) through `viewer_preferences` itself.
- Written with `files.write_atomic`: an interrupted build never leaves half a PDF.
- Streams are Flate-compressed binary (no ASCII85 layer); ReportLab's C accelerator
  (the rl_accel package) formats numbers and streams.
- CMYK (print-shop output, `separation=`): the canvas converts every colour a drawing sets
  and every picture it places through the printing condition's ICC transform
  (write/separation.py), so nothing drawn stays RGB; under PDF/X-1a it also drops
  transparency (and says how often). `write/pdfx.py` then makes the file PDF/X.
"""
from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable

from .. import __version__
from ..draw.faces import form_name
from .atomic import write_atomic


PRINT_DUPLEX = ("Simplex", "DuplexFlipLongEdge", "DuplexFlipShortEdge")  # the PDF /Duplex names


def duplex_hint(edge: str | None) -> str:
    """"long" / "short" (the edge the sheet is turned on) → the PDF /Duplex name; None → /Simplex."""
    return {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", None: "Simplex"}[edge]


def viewer_preferences(duplex: str) -> dict[str, str]:
    """The print hints every PDF ppgen writes carries (PDF names and booleans, without the slash)."""
    if duplex not in PRINT_DUPLEX:
        raise ValueError(f"unknown duplex hint {duplex!r}")
    return {"PrintScaling": "None", "Duplex": duplex, "PickTrayByPDFSize": "true"}


def page_count(data: bytes) -> int:
    """The pages of a finished PDF."""
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


def finished_pdf(writer, title: str, lang: str, duplex: str, made_from: bytes) -> bytes:
    """A pypdf PdfWriter's PDF (the booklet): its print hints, title, outline
    shown on opening, language, and a file identifier (ISO 32000-1 §14.4) computed from what it
    was `made_from` (pypdf's own is random), so a rebuild from the same inputs is byte-identical."""
    import hashlib

    from pypdf.generic import ArrayObject, ByteStringObject, NameObject, TextStringObject

    set_viewer_preferences(writer, duplex)
    writer.add_metadata({"/Title": title, "/Producer": "ppgen", "/Creator": "ppgen"})
    writer.page_mode = "/UseOutlines"
    writer._root_object[NameObject("/Lang")] = TextStringObject(lang)
    identifier = ByteStringObject(hashlib.md5(made_from + title.encode("utf-8") + lang.encode()).digest())
    writer._ID = ArrayObject([identifier, identifier])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def set_viewer_preferences(writer, duplex: str) -> None:
    """The same print hints on a pypdf PdfWriter (the booklet)."""
    from pypdf.generic import BooleanObject, DictionaryObject, NameObject

    prefs = DictionaryObject()
    for key, value in viewer_preferences(duplex).items():
        prefs[NameObject(f"/{key}")] = BooleanObject(value == "true") if value in ("true", "false") else NameObject(f"/{value}")
    writer._root_object[NameObject("/ViewerPreferences")] = prefs


class Document:
    """A PDF being drawn in memory; `save()` writes it atomically. `duplex`: the /Duplex print hint
    (Simplex, DuplexFlipLongEdge, DuplexFlipShortEdge) for how its pages are meant to be printed."""

    def __init__(self, initial_font: str, title: str, lang: str | None = None, subject: str = "", duplex: str = "Simplex",
                 separation=None, opaque: bool = False, compress: bool = True):
        """separation: a write.separation.Separation: every colour and picture in CMYK;
        opaque: no transparency (PDF/X-1a), and PDF 1.3; compress: Flate streams (False: a PDF
        only rasterised in memory, never written: compressing its fonts is a tenth of its cost)."""
        from reportlab import rl_config
        from reportlab.pdfgen.canvas import Canvas

        # Binary (Flate only) streams: ASCII85 on top makes files 25 % larger and costs time.
        rl_config.useA85 = 0
        _ascii_encoded_directly()

        self._buffer = io.BytesIO()
        options = dict(invariant=1, pageCompression=int(compress), initialFontName=initial_font, initialFontSize=10, lang=lang)
        if separation is None:
            self.canvas = Canvas(self._buffer, **options)
        else:
            from .separation import cmyk_canvas

            self.canvas = cmyk_canvas(self._buffer, separation, opaque, **options)
        _colours_parsed_once(self.canvas)
        self.canvas.setTitle(title)
        self.canvas.setSubject(subject)
        self.canvas.setCreator(f"ppgen {__version__}")
        self.canvas.setProducer(f"ppgen {__version__} (ReportLab)")
        _canvas_viewer_preferences(self.canvas, duplex)
        self._forms: dict[str, str] = {}
        self._drawings: dict[str, str | None] = {}  # form key → what it draws, as a digest (`drawing`)
        self._in_page = False
        self._saved_pages: int | None = None

    @property
    def pages(self) -> int:
        """Pages finished so far (by end_page or by a drawer calling canvas.showPage)."""
        if self._saved_pages is not None:
            return self._saved_pages
        return self.canvas.getPageNumber() - 1

    # ── forms: each distinct drawing once ────────────────────────────────
    def define_face(self, face, width: float, height: float) -> None:
        """Record a face (see draw/faces.py) once as a form; first its `layers`, the forms it
        places itself (e.g. a faction's backdrop shared by its cards), each also once."""
        if face.key in self._forms:
            return
        for layer in getattr(face, "layers", ()):
            self.define_face(layer, *getattr(layer, "size", (width, height)))
        self.define_form(face.key, width, height, face.draw)

    def define_form(self, key: str, width: float, height: float, draw: Callable) -> None:
        """Record `draw(canvas)` once as a form of `width` × `height` points (clipped to it).

        Call between pages (before `begin_page`): ReportLab keeps one stream at a time.
        """
        if key in self._forms:
            return
        if self._in_page:
            raise RuntimeError("define forms before begin_page()")
        name = form_name(key)
        c = self.canvas
        c.beginForm(name, 0, 0, width, height)
        c.saveState()
        draw(c)
        c.restoreState()
        shading = dict(c._shadingUsed)
        c.endForm()
        _give_form_its_resources(c, name, shading)
        self._forms[key] = name
        self._drawings[key] = None if shading else (width, height, len(c._preamble) + 1)  # its digest made when asked for (`drawing`)

    def place_form(self, key: str, matrix: tuple[float, float, float, float, float, float], clip: tuple | None = None) -> None:
        """Draw form `key` on the current page through `matrix` (PDF a, b, c, d, e, f); only
        within `clip` (x0, y0, x1, y1, page coordinates) when given."""
        c = self.canvas
        c.saveState()
        if clip is not None:
            x0, y0, x1, y1 = clip
            path = c.beginPath()
            path.rect(x0, y0, x1 - x0, y1 - y0)
            c.clipPath(path, stroke=0, fill=0)
        c.transform(*matrix)
        c.doForm(self._forms[key])
        c.restoreState()

    def drawing(self, key: str) -> str | None:
        """A digest of what form `key` draws — equal in any document exactly when it draws the
        same — for a form of paths and colours alone; None for one that names resources of this
        document (fonts, pictures, other forms, transparency, shadings: their names are its own)."""
        drawn = self._drawings.get(key)
        if isinstance(drawn, tuple):
            drawn = self._drawings[key] = _drawing(self.canvas, self._forms[key], *drawn)
        return drawn

    @property
    def form_count(self) -> int:
        return len(self._forms)

    # ── pages ────────────────────────────────────────────────────────────
    def begin_page(self, width: float, height: float, trim_box: tuple | None = None, bleed_box: tuple | None = None) -> None:
        """Start a page; boxes are (x0, y0, x1, y1) in points, or None for none."""
        c = self.canvas
        c.setPageSize((width, height))
        c.setTrimBox(_array(trim_box))
        c.setBleedBox(_array(bleed_box))
        self._in_page = True

    def end_page(self) -> None:
        self.canvas.showPage()
        self._in_page = False

    # ── output ───────────────────────────────────────────────────────────
    def data(self) -> bytes:
        """The finished PDF (the document cannot be drawn on afterwards)."""
        if self._saved_pages is None:
            self._saved_pages = self.pages
            self.canvas.save()
        return self._buffer.getvalue()

    def save(self, path: Path) -> int:
        """Write the PDF atomically; return its size in bytes."""
        data = self.data()
        write_atomic(Path(path), data)
        return len(data)


@lru_cache(maxsize=None)
def _ascii_encoded_directly() -> None:
    """ReportLab writes every object and content stream of a PDF through its PDFDocEncoding
    codec, a character map looked up character by character: 25 ns a character, 1.7 million
    characters for a language's card sheets (8 % of drawing them). What it writes is ASCII;
    ASCII text encodes to the same bytes directly, except the eight characters U+0018–U+001F,
    which PDFDocEncoding has no place for (its error stays: such text goes through the codec)."""
    from reportlab.pdfbase import pdfdoc

    codec = pdfdoc.pdfdocEnc
    unmapped = re.compile("[\x18-\x1f]").search

    def encoded(x):
        if isinstance(x, str) and x.isascii() and not unmapped(x):
            return x.encode("ascii")
        return codec(x)

    pdfdoc.pdfdocEnc = encoded


def _colours_parsed_once(canvas) -> None:
    """The drawing names its colours "#rrggbb"; ReportLab parses such a string again on every
    use (through its expression evaluator: 6 % of a build). Parse each once (draw.colours.rl)."""
    from ..draw.colours import rl

    for name in ("setFillColor", "setStrokeColor"):
        setter = getattr(canvas, name)
        setattr(canvas, name, lambda colour, alpha=None, _set=setter: _set(rl(colour) if _hex_colour(colour) else colour, alpha))


def _hex_colour(colour) -> bool:
    return isinstance(colour, str) and len(colour) == 7 and colour[0] == "#"


def _canvas_viewer_preferences(canvas, duplex: str) -> None:
    """ReportLab's viewer-preference dictionary checks its keys and lacks PickTrayByPDFSize
    (PDF 1.7): extend its list of keys, then set each hint through it."""
    from reportlab.pdfbase.pdfdoc import ViewerPreferencesPDFDictionary, checkPDFBoolean

    checks = {**ViewerPreferencesPDFDictionary.validate, "PickTrayByPDFSize": checkPDFBoolean}
    canvas._doc.Catalog.ViewerPreferences = ViewerPreferencesPDFDictionary(validate=checks)
    for key, value in viewer_preferences(duplex).items():
        canvas.setViewerPreference(key, value)
def _drawing(canvas, name: str, width: float, height: float, preamble: int) -> str | None:
    """The digest of form `name` of `canvas`, a form without shadings (see Document.drawing):
    of its size and its operators as recorded — its stream after the `preamble` characters the
    canvas put before them when the form was made (its preamble and a newline)."""
    import hashlib

    from reportlab.pdfbase import pdfdoc

    code = canvas._doc.idToObject[pdfdoc.xObjectName(name)].stream[preamble:]
    if _RESOURCE_OPERATOR.search(code):
        return None
    return hashlib.sha256(b"%r %r\n%s" % (width, height, code)).hexdigest()


_RESOURCE_OPERATOR = re.compile(rb"(?:^|\s)(?:Tf|Do|gs|BI|sh)(?:\s|$)")  # a font, an XObject, a graphics state, a picture, a shading


def _give_form_its_resources(canvas, name: str, shading: dict) -> None:
    """ReportLab writes a form's fonts and XObjects but drops its graphics states and shadings:
    transparency and gradients drawn in a form (an SVG picture's fill-opacity, its gradients)
    would come out opaque, or black. Give the form the resources a page would get."""
    from reportlab.pdfbase import pdfdoc

    form = canvas._doc.idToObject.get(pdfdoc.xObjectName(name))
    if form is None or not (form.ExtGState or shading):
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if form.ExtGState:
        resources.ExtGState = form.ExtGState
    resources.setShading(shading)
    resources.setColorSpace(getattr(form, "_colorsUsed", {}) or {})
    form.Resources = resources


def _array(box) -> list[float] | None:
    return None if box is None else [round(v, 4) for v in box]
