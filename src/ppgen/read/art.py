"""Card pictures: finding them, opening and checking them, and preparing them for print.

Where a card's picture comes from (the first that applies wins):

    art/<lang>/<card-id>.<ext>   that language's picture (art with words in it)
    art: <path> in cards.yaml    a file named for the card, relative to the game directory
    art/<card-id>.<ext>          picked up automatically

`<ext>` is png, jpg/jpeg, webp, tif/tiff (read with Pillow) or svg (drawn as
vectors, converted with svglib). `ArtFolder` scans art/ once; `open_picture`
reads a file's header (size, format) and checks it, an SVG completely;
`Picture.prepared(width)` decodes a raster picture and makes what the PDF
embeds: EXIF orientation applied, CMYK and ICC-tagged colours converted to
sRGB through their profile (ImageCms), transparency kept, and the picture
downsampled to `width` pixels when it is larger. A JPEG that needs none of
this is embedded as it is, byte for byte.

Refused, each with an `ArtError` saying why: an empty or unreadable file, a
format ppgen does not read, a damaged or truncated picture, more pixels than
Pillow's decompression-bomb limit (refused from the header, before anything is
decoded), and an SVG with scripts, event handlers, entities that expand, or
references to anything outside itself (never fetched). Pillow, lxml and svglib
are imported inside the functions that use them.
"""
from __future__ import annotations

import hashlib
import io
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

ART_FITS = ("cover", "contain")
RASTER_EXTENSIONS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WebP", ".tif": "TIFF", ".tiff": "TIFF"}
VECTOR_EXTENSIONS = {".svg": "SVG"}
EXTENSIONS = {**RASTER_EXTENSIONS, **VECTOR_EXTENSIONS}
KINDS_TEXT = "PNG, JPEG, WebP, TIFF or SVG"
PILLOW_FORMATS = {"PNG": "PNG", "JPEG": "JPEG", "MPO": "JPEG", "WEBP": "WebP", "TIFF": "TIFF"}
LOSSY = {"JPEG", "WebP-lossy"}  # sources whose prepared picture is a JPEG again (no alpha)
MAX_ART_BYTES = 256 * 1024 * 1024
MAX_SVG_BYTES = 32 * 1024 * 1024
DEFAULT_MAX_PIXELS = 89_478_485  # Pillow's Image.MAX_IMAGE_PIXELS (a 9459 × 9459 picture)
JPEG_QUALITY = 92
IGNORED_NAMES = {"thumbs.db", "desktop.ini"}


class ArtError(Exception):
    """A picture that cannot be used; the message says why (the caller names card and file).
    `where` is (file, line, col) when the problem is best shown somewhere else than the picture."""

    def __init__(self, message: str, where: tuple[str, int, int] | None = None):
        super().__init__(message)
        self.where = where


def art_path_problem(value: str) -> str | None:
    """A schema check for `art:` in cards.yaml: a relative path to a picture ppgen reads."""
    path = PurePosixPath(value.replace("\\", "/"))
    if not value.strip():
        return "must name a picture file, e.g. art/legion.png"
    if path.is_absolute() or re.match(r"^[A-Za-z]:", value):
        return f"must be relative to the game directory (e.g. art/{path.name}), not '{value}'"
    if ".." in path.parts:
        return f"must stay inside the game directory: '{value}' has '..'"
    if path.suffix.lower() not in EXTENSIONS:
        return f"'{value}' is not a picture ppgen reads ({KINDS_TEXT}: .png .jpg .jpeg .webp .tif .tiff .svg)"
    return None


# ── finding ────────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class ArtSource:
    """A picture file chosen for a card (in a language)."""

    path: Path
    shown: str  # as the user reads it: art/legionary-cohort.png
    origin: str  # "language" (art/<lang>/), "cards.yaml" (art:) or "folder" (art/<id>.<ext>)
    where: tuple[str, int, int]  # where a problem with it is reported: cards.yaml:line:col for `art:`, else the file


@dataclass
class ArtFolder:
    """What art/ holds, scanned once: pictures by card id (per language folder) and every file."""

    root: Path
    folder: Path
    languages: tuple[str, ...]
    gamedir: object = None  # the GameDir scanned (a working tree, or a git revision for `ppgen errata`)
    by_stem: dict[tuple[str, str], list[Path]] = field(default_factory=dict)  # (lang or "", stem) -> files
    files: list[Path] = field(default_factory=list)  # every file under art/, sorted
    elsewhere: dict[str, list[Path]] = field(default_factory=dict)  # pictures in art/<folder>/ of no language, by folder

    @classmethod
    def scan(cls, gamedir, languages) -> "ArtFolder":
        found = cls(gamedir.root, gamedir.art, tuple(languages), gamedir)
        for path in (p for p in gamedir.files_under(found.folder) if not _ignored(p)):
            found.files.append(path)
            rel = path.relative_to(found.folder)
            lang = rel.parts[0] if len(rel.parts) == 2 and rel.parts[0] in found.languages else ("" if len(rel.parts) == 1 else None)
            if lang is not None:
                found.by_stem.setdefault((lang, path.stem.lower()), []).append(path)
            elif len(rel.parts) == 2 and path.suffix.lower() in EXTENSIONS:
                found.elsewhere.setdefault(rel.parts[0], []).append(path)
        return found

    def show(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def source(self, game, card, lang: str) -> ArtSource | None:
        """The picture `card` prints in `lang`, or None; ArtError for a file that cannot be one."""
        own = self._named(lang, card.id)
        if own is not None:
            return ArtSource(own, self.show(own), "language", (self.show(own), 0, 0))
        if card.art:
            where = game.where(card, "art")
            path = self.root / card.art
            if not self.gamedir.is_file(path):
                raise ArtError(f"'{card.art}' (art: in cards.yaml) {'is a folder' if self.gamedir.is_dir(path) else 'does not exist'}"
                               f"{self._did_you_mean(card.art)}", where)
            return ArtSource(path, self.show(path), "cards.yaml", where)
        auto = self._named("", card.id)
        if auto is not None:
            return ArtSource(auto, self.show(auto), "folder", (self.show(auto), 0, 0))
        return None

    def _named(self, lang: str, card_id: str) -> Path | None:
        files = self.by_stem.get((lang, card_id), [])
        pictures = [p for p in files if p.suffix.lower() in EXTENSIONS]
        if len(pictures) > 1:
            raise ArtError(f"two pictures for one card: {' and '.join(self.show(p) for p in pictures)}; keep one",
                           (self.show(pictures[0]), 0, 0))
        if not pictures and files:
            names = ", ".join(self.show(p) for p in files)
            raise ArtError(f"{names} is not a picture ppgen reads ({KINDS_TEXT}); export it as PNG or JPEG",
                           (self.show(files[0]), 0, 0))
        return pictures[0] if pictures else None

    def _did_you_mean(self, value: str) -> str:
        import difflib

        # stricter than schema.suggest: every path shares "art/" and ".png", which alone look alike
        close = difflib.get_close_matches(value, [self.show(p) for p in self.files], n=3, cutoff=0.8)
        if close:
            return f"; did you mean {', '.join(repr(c) for c in close)}?"
        return f" (art/ holds {len(self.files)} files)" if self.files else " (there is no art/ folder)"

    def unused(self, card_ids, named=(), find_language=None) -> list[tuple[str, str]]:
        """Pictures in art/ or art/<lang>/ named for no card (and not `named` by cards.yaml's
        `art:`), and pictures in a folder that names a language by another name or misspelt
        (art/jp/: `find_language` finds the language an alias names): (file, what is wrong with
        it, as the rest of a sentence after its name). Another folder (art/sources/) is the
        designer's, and left alone."""
        from .schema import did_you_mean, suggest

        ids = set(card_ids)
        named = {(self.root / n).resolve() for n in named}
        out = []
        for (lang, stem), files in sorted(self.by_stem.items()):
            if stem in ids:
                continue
            for path in files:
                if path.suffix.lower() in EXTENSIONS and path.resolve() not in named:
                    out.append((self.show(path), f"is named for no card, so no card prints it{did_you_mean(stem, sorted(ids))}"))
        for folder, files in sorted(self.elsewhere.items()):
            meant = find_language(folder) if find_language is not None else None
            close = [meant] if meant else suggest(folder, self.languages)
            if not close:
                continue
            hint = ", ".join(f"art/{code}/" for code in close)
            out += [(self.show(path), f"is in art/{folder}/, no language's folder, so no card prints it; did you mean {hint}?")
                    for path in files if path.resolve() not in named]
        return out


def _ignored(path: Path) -> bool:
    return path.name.startswith(".") or path.name.lower() in IGNORED_NAMES


# ── opening and checking ───────────────────────────────────────────────────
@dataclass(frozen=True)
class Prepared:
    """A picture as the PDF embeds it: `data` (JPEG or PNG bytes) or an SVG `drawing`."""

    key: str  # "art-<hash of what is embedded>": one form, and one image, per distinct picture in a PDF
    width: float  # pixels (raster) or points (SVG)
    height: float
    format: str  # JPEG | PNG | SVG
    data: bytes = b""
    drawing: object = None  # a reportlab.graphics Drawing
    notes: tuple[str, ...] = ()  # what a person should know (a CMYK picture without profile …)
    passthrough: bool = False  # the file's own bytes (a JPEG that needed nothing)


@dataclass
class Picture:
    """A picture file, checked: its size and format from the header (an SVG fully converted)."""

    source: ArtSource
    format: str  # PNG | JPEG | WebP | TIFF | SVG
    width: float  # pixels after EXIF orientation; points for SVG
    height: float
    mode: str = ""
    orientation: int = 1
    lossless: bool = True
    _prepared: dict = field(default_factory=dict, repr=False)
    _svg: Prepared | None = field(default=None, repr=False)

    @property
    def vector(self) -> bool:
        return self.format == "SVG"

    def prepared(self, max_width: int | None = None) -> Prepared:
        """What the PDF embeds, at most `max_width` pixels wide (None: as it is); made once per width."""
        if self._svg is not None:
            return self._svg
        width = None if max_width is None or max_width >= self.width else max(1, int(max_width))
        if width not in self._prepared:
            self._prepared[width] = _prepare_raster(self, width)
        return self._prepared[width]


def open_picture(source: ArtSource) -> Picture:
    """Check a picture file and read its size (raster: the header only; SVG: all of it)."""
    path = source.path
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ArtError(f"cannot be read: {exc.strerror}") from None
    if size == 0:
        raise ArtError("is empty (0 bytes)")
    ext = path.suffix.lower()
    if ext in VECTOR_EXTENSIONS:
        return _open_svg(source, size)
    if size > MAX_ART_BYTES:
        raise ArtError(f"is {size / 2**20:.0f} MB, more than the {MAX_ART_BYTES // 2**20} MB ppgen reads")
    with _opened(path) as im:
        fmt = PILLOW_FORMATS.get(im.format or "")
        if fmt is None:
            raise ArtError(f"is a {im.format or 'unknown'} picture; ppgen reads {KINDS_TEXT}")
        w, h = im.size
        if w < 1 or h < 1:
            raise ArtError(f"has no pixels ({w} × {h})")
        orientation = _orientation(im)
        if orientation in (5, 6, 7, 8):
            w, h = h, w
        lossless = fmt in ("PNG", "TIFF") or (fmt == "WebP" and _webp_lossless(path))
        return Picture(source, fmt, w, h, im.mode, orientation, lossless)


class _opened:
    """Image.open with the decompression-bomb limit enforced from the header, as an ArtError."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        from PIL import Image, UnidentifiedImageError

        limit = Image.MAX_IMAGE_PIXELS or DEFAULT_MAX_PIXELS
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                self.im = Image.open(self.path)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ArtError(_bomb_text(str(exc), limit)) from None
        except UnidentifiedImageError:
            raise ArtError(f"is not a picture ppgen can read (damaged, or not really {self.path.suffix.lower()}; ppgen reads {KINDS_TEXT})") from None
        except (OSError, SyntaxError, ValueError, EOFError) as exc:
            raise ArtError(f"is damaged: {exc}") from None
        w, h = self.im.size
        if w * h > limit:
            self.im.close()
            raise ArtError(_bomb_text(f"{w} × {h} px", limit))
        return self.im

    def __exit__(self, *exc):
        self.im.close()


def _bomb_text(detail: str, limit: int) -> str:
    m = re.search(r"\((\d+) pixels\)", detail)
    count = f"{int(m.group(1)) / 1e6:.0f} million pixels" if m else detail
    return (f"has {count}, more than Pillow's decompression-bomb limit of {limit / 1e6:.0f} million; "
            "refused without decoding it (scale it down: at 600 dpi a poker card needs under 4 million)")


def _orientation(im) -> int:
    try:
        value = im.getexif().get(0x0112, 1)
    except Exception:  # a damaged EXIF block: the picture itself may be fine
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _webp_lossless(path: Path) -> bool:
    with open(path, "rb") as fh:
        head = fh.read(4096)
    return b"VP8L" in head and b"VP8 " not in head


# ── preparing a raster picture ─────────────────────────────────────────────
def _prepare_raster(picture: Picture, width: int | None) -> Prepared:
    """Decode, orient, convert to sRGB, downsample to `width` px and encode, deterministically."""
    from PIL import Image, ImageOps

    path = picture.source.path
    height = None if width is None else max(1, round(picture.height * width / picture.width))
    with _opened(path) as im:
        icc = im.info.get("icc_profile")
        as_is = width is None and _embeds_as_is(picture, im, icc)
        if width is not None and picture.format == "JPEG":
            raw = (height, width) if picture.orientation in (5, 6, 7, 8) else (width, height)
            im.draft(im.mode, raw)  # decode at 1/2, 1/4 or 1/8 scale when that is still large enough
        try:
            im.load()  # always decoded: a truncated file is refused even when its bytes would go in as they are
        except Exception as exc:  # Pillow's decoders raise OSError, SyntaxError, ValueError …: all mean damaged
            raise ArtError(f"is damaged or truncated ({exc}); save it again") from None
        if as_is:
            data = path.read_bytes()
            return Prepared(_key(data), picture.width, picture.height, "JPEG", data, passthrough=True)
        im = ImageOps.exif_transpose(im)
        im, notes = to_srgb(im, icc)
        if width is not None and im.size != (width, height):
            if im.mode == "RGBA":
                im = im.convert("RGBa").resize((width, height), Image.Resampling.LANCZOS).convert("RGBA")
            else:
                im = im.resize((width, height), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    if im.mode != "RGBA" and (picture.format == "JPEG" or not picture.lossless):
        im.save(buffer, "JPEG", quality=JPEG_QUALITY, optimize=True)
        fmt = "JPEG"
    else:
        im.save(buffer, "PNG", compress_level=1)
        fmt = "PNG"
    data = buffer.getvalue()
    return Prepared(_key(data), im.size[0], im.size[1], fmt, data, notes=tuple(notes))


def _embeds_as_is(picture: Picture, im, icc) -> bool:
    """A JPEG in RGB or grey, upright, in sRGB (or untagged): its own bytes go into the PDF."""
    return (im.format == "JPEG" and im.mode in ("RGB", "L") and picture.orientation == 1
            and (not icc or _is_srgb(icc)) and not getattr(im, "is_animated", False))


def _key(data: bytes) -> str:
    return "art-" + hashlib.sha256(data).hexdigest()[:20]


def _is_srgb(icc: bytes) -> bool:
    from PIL import ImageCms

    try:
        return "srgb" in ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(icc))).lower()
    except Exception:
        return False


def to_srgb(im, icc: bytes | None):
    """`im` as L, RGB or RGBA in sRGB: through its ICC profile when it has one; transparency kept.
    Returns (image, notes): notes say when colours had to be guessed."""
    from PIL import ImageCms

    notes: list[str] = []
    if im.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I", "F"):
        im = im.convert("I").point(lambda v: v * (1 / 257)).convert("L") if im.mode != "F" else im.convert("L")
    elif im.mode == "1":
        im = im.convert("L")
    elif im.mode in ("P", "PA", "LA", "La", "RGBa") or (im.mode == "L" and "transparency" in im.info):
        im = im.convert("RGBA")
    elif im.mode in ("RGBX", "YCbCr", "LAB", "HSV") or (im.mode == "RGB" and "transparency" in im.info):
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    alpha = im.getchannel("A") if im.mode == "RGBA" else None
    if alpha is not None and alpha.getextrema() == (255, 255):
        alpha = None  # opaque everywhere: no mask to embed
    colour = im.convert("RGB") if im.mode == "RGBA" else im
    if icc and not _is_srgb(icc):
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            out_mode = "L" if colour.mode == "L" and _gray(source) else "RGB"
            colour = ImageCms.profileToProfile(colour, source, ImageCms.createProfile("sRGB"),
                                               renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode=out_mode)
        except Exception:  # ImageCms.PyCMSError, OSError: a profile lcms cannot use
            notes.append("its colour profile cannot be read; its colours were taken as sRGB and may print shifted")
            colour = colour.convert("RGB") if colour.mode == "CMYK" else colour
    elif colour.mode == "CMYK":
        notes.append("it is CMYK without a colour profile; converted by a plain formula, its colours may print shifted "
                     "(save it with the profile it was made for, or as RGB)")
        colour = colour.convert("RGB")
    if alpha is not None:
        colour = colour.convert("RGB")
        colour.putalpha(alpha)
    return colour, notes


def _gray(profile) -> bool:
    try:
        return profile.profile.xcolor_space.strip() == "GRAY"
    except AttributeError:
        return False


# ── SVG ────────────────────────────────────────────────────────────────────
_URL_RE = re.compile(r"url\(\s*['\"]?([^'\")]*)", re.IGNORECASE)
_DATA_IMAGE_RE = re.compile(r"^data:image/(png|jpe?g);base64,", re.IGNORECASE)
TEXT_TAGS = {"text", "tspan", "textPath", "tref"}


def _open_svg(source: ArtSource, size: int) -> Picture:
    if size > MAX_SVG_BYTES:
        raise ArtError(f"is {size / 2**20:.0f} MB, more than the {MAX_SVG_BYTES // 2**20} MB ppgen reads for an SVG")
    raw = source.path.read_bytes()
    check_svg(raw)
    drawing = _svg_drawing(raw)
    w, h = float(drawing.width or 0), float(drawing.height or 0)
    if w <= 0 or h <= 0:
        raise ArtError("has no size: give its <svg> element a viewBox, or a width and a height")
    prepared = Prepared(_key(raw), w, h, "SVG", drawing=drawing)
    return Picture(source, "SVG", w, h, _svg=prepared)


def check_svg(raw: bytes) -> None:
    """Refuse, before svglib sees it, an SVG that runs code or reaches outside itself.

    Parsed strictly with lxml, with no network, no DTD loading and no entity expansion:
    a script, an on… event attribute, a <foreignObject>, an href or CSS url() that is
    not local (#id) or an embedded PNG/JPEG (data:), @import, a processing instruction
    (<?xml-stylesheet?>), XInclude, and entities that are external or nest others
    are refused; text (which would print in a font nobody embedded) must be outlines."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=False)
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as exc:
        raise ArtError(f"is not valid SVG: {exc.msg} (line {exc.lineno})") from None
    tree = root.getroottree()
    dtd = tree.docinfo.internalDTD
    if dtd is not None:
        for entity in dtd.iterentities():
            content = entity.content or ""
            if entity.system_url or "&" in content or "%" in content or len(content) > 4096:
                raise ArtError(f"declares the entity '{entity.name}', which is external or expands others: refused")
    if _local(root.tag) != "svg":
        raise ArtError(f"is not an SVG picture: its root element is <{_local(root.tag)}>")
    if tree.xpath("//processing-instruction()"):
        raise ArtError("has a processing instruction (such as <?xml-stylesheet?>), which would load another file: refused")
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue  # comments, entity references (internal, checked above)
        tag = _local(node.tag)
        if tag == "script":
            raise ArtError("holds a <script>: refused (pictures for print run no code)")
        if tag == "foreignObject":
            raise ArtError("holds a <foreignObject> (HTML inside the SVG), which cannot be printed: refused")
        if tag == "include" or node.tag.startswith("{http://www.w3.org/2001/XInclude}"):
            raise ArtError("includes another file (XInclude): refused, never fetched")
        if tag in TEXT_TAGS:
            raise ArtError("holds text: convert it to paths (Inkscape: Path → Object to Path; Illustrator: Create Outlines), "
                           "so it prints in the shapes you drew")
        if tag == "style" and node.text:
            _check_css(node.text)
        for name, value in node.attrib.items():
            attr = _local(name)
            if attr.lower().startswith("on"):
                raise ArtError(f"has an event handler ({attr}=…), which is a script: refused")
            if attr == "href" and not _local_ref(value):
                raise ArtError(f"refers to '{_short(value)}' outside itself: refused, never fetched (embed it, or draw it in the SVG)")
            if "url(" in value.lower() or attr == "style":
                _check_css(value)


def _check_css(text: str) -> None:
    if "@import" in text.lower():
        raise ArtError("imports a style sheet (@import): refused, never fetched")
    for target in _URL_RE.findall(text):
        if not target.strip().startswith("#") and not _DATA_IMAGE_RE.match(target.strip()):
            raise ArtError(f"refers to '{_short(target)}' outside itself (url(…)): refused, never fetched")


def _local_ref(value: str) -> bool:
    value = value.strip()
    return value.startswith("#") or bool(_DATA_IMAGE_RE.match(value))


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _short(text: str) -> str:
    text = text.strip()
    return text if len(text) <= 60 else text[:57] + "…"


def _svg_drawing(raw: bytes):
    """svglib's Drawing of a checked SVG (its log messages kept off the terminal)."""
    from svglib.svglib import svg2rlg

    from .quiet import silenced

    try:
        with silenced("svglib.svglib"):
            drawing = svg2rlg(io.BytesIO(raw), resolve_entities=False)
    except Exception as exc:  # svglib's converters raise on shapes they cannot read
        raise ArtError(f"could not be converted ({type(exc).__name__}: {exc})") from None
    if drawing is None:
        raise ArtError("could not be converted (svglib read nothing from it)")
    return drawing
