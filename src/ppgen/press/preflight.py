"""The preflight: does a file meet what a print service asks for? Every problem, with its page.

    profile = Profile.of(service)                 # from templates/services.yaml (or --pdfx)
    result = preflight(Path("deck.pdf"), profile)  # PDF: scan.py reads it, nothing converted
    result = preflight(Path("png-folder"), profile)
    result.passed, result.problems                 # Finding(page, code, message)

Each check is a small function over the scan (`PAGE_CHECKS`, `FILE_CHECKS`), one concern
each; their codes are stable (rgb-colour, image-dpi, font-not-embedded, no-trimbox,
text-near-trim, bleed-narrow, trim-size, transparency, total-ink, no-outputintent,
outputintent-profile, no-id, pdfx-version, xmp, pdf-version, encrypted; for pictures
image-size, image-mode, no-back). A folder is checked file by file: its PDFs, or its
pictures when the service takes pictures.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import plural
from ..read.services import PDFX_VERSIONS as VERSIONS
from ..units import MM, TRADE_SIZES_IN

TOLERANCE_PT = 0.5  # box and size comparisons (rounding in other programs' files)
DPI_TOLERANCE = 0.99  # 299 dpi for 300 asked is a rounding of the placement, not a problem
PICTURES = (".png", ".jpg", ".jpeg")
MAX_VERSION = {"x1a": "1.3", "x4": "1.6"}


def fmt_mm(value: float) -> str:
    """3, 3.175, 1.5: a length in mm as a service states it (to the micrometre), no useless zeros."""
    return f"{round(value, 3):g}"


@dataclass(frozen=True)
class Profile:
    """What a file must be: from a service (or `--pdfx` over the generic print shop)."""

    name: str  # "DriveThruCards", "a print shop (PDF/X)"
    file: str = "pdf"  # pdf | png
    pdfx: str | None = "x4"  # x1a | x4
    cmyk: bool = True
    bleed: float = 3.0  # mm
    dpi: float = 300.0
    safe: float = 3.0  # mm
    total_ink: float | None = None  # %
    trim_in: tuple[tuple[float, float], ...] = ()  # card sizes the service cuts (inches); () = any
    pixels: tuple[tuple[int, int], ...] = ()  # pictures: the pixel sizes the service takes

    @classmethod
    def of(cls, service, pdfx: str | None = None, bleed: float | None = None, size: str | None = None) -> "Profile":
        """The service's profile (`size`: one of its card sizes only; None: any it prints)."""
        from ..units import px

        sizes = tuple(TRADE_SIZES_IN[s] for s in service.sizes if s in TRADE_SIZES_IN and size in (None, s))
        b = service.bleed if bleed is None else bleed
        pixels = tuple((px((w + 2 * b / 25.4) * 72, service.dpi), px((h + 2 * b / 25.4) * 72, service.dpi)) for w, h in sizes)
        return cls(service.name, service.file, pdfx or service.pdfx, service.cmyk, b, service.dpi, service.safe,
                   service.condition.total_ink if service.condition else None, sizes, pixels)

    def of_faces(self) -> "Profile":
        """For a picture service, what the faces PDF the pictures are rendered from must meet:
        boxes, bleed, resolution, fonts, text inside the safe area (no PDF/X, any colour)."""
        from dataclasses import replace

        return replace(self, file="pdf", pdfx=None, cmyk=False, total_ink=None)

    def describe(self) -> str:
        if self.file == "png":
            sizes = ", ".join(f"{w} × {h} px" for w, h in self.pixels)
            return f"{self.name}: pictures of {sizes}"
        colour = f"CMYK{f', total ink ≤ {self.total_ink:g} %' if self.total_ink else ''}" if self.cmyk else "any colour"
        return (f"{self.name}: {VERSIONS.get(self.pdfx, 'PDF')}, {colour}, bleed {fmt_mm(self.bleed)} mm, "
                f"{self.dpi:g} dpi, text {fmt_mm(self.safe)} mm inside the trim")


@dataclass(frozen=True)
class Finding:
    page: int | None  # 1-based; None: the whole file
    code: str
    message: str


@dataclass
class FileResult:
    path: Path
    pages: int = 0
    problems: list[Finding] = field(default_factory=list)
    kind: str = "pdf"

    @property
    def passed(self) -> bool:
        return not self.problems


@dataclass
class Result:
    profile: Profile
    files: list[FileResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.files) and all(f.passed for f in self.files)

    @property
    def problems(self) -> list[Finding]:
        return [p for f in self.files for p in f.problems]

    def lines(self, show=str) -> list[str]:
        """The report: per file, pass or fail, then each problem once with the pages it is on."""
        out = []
        passed_pictures: dict[Path, int] = {}
        for f in self.files:
            if f.passed and f.kind == "picture":
                passed_pictures[f.path.parent] = passed_pictures.get(f.path.parent, 0) + 1
        for folder, n in passed_pictures.items():
            out.append(f"{show(folder)}/: pass ({plural(n, 'picture')})")
        for f in self.files:
            what = plural(f.pages, "page") if f.kind == "pdf" else f.kind
            if f.passed:
                if f.kind == "pdf":
                    out.append(f"{show(f.path)}: pass ({what})")
                continue
            out.append(f"{show(f.path)}: FAIL ({what}, {plural(len(f.problems), 'problem')})")
            for pages, code, message in grouped(f.problems):
                out.append(f"  {pages + ': ' if pages else ''}{message} [{code}]")
        return out

    def as_dict(self, show=str) -> dict:
        return {"profile": self.profile.describe(), "passed": self.passed,
                "files": [{"path": show(f.path), "passed": f.passed, "pages": f.pages,
                           "problems": [{"page": p.page, "code": p.code, "message": p.message} for p in f.problems]}
                          for f in self.files]}


def grouped(problems: list[Finding]) -> list[tuple[str, str, str]]:
    """Each (code, message) once, with its pages: 'page 3', 'pages 1–80', 'pages 2, 4, 6'."""
    order: dict[tuple[str, str], list[int]] = {}
    for p in problems:
        order.setdefault((p.code, p.message), [])
        if p.page is not None:
            order[(p.code, p.message)].append(p.page)
    return [(page_list(pages), code, message) for (code, message), pages in order.items()]


def page_list(pages: list[int]) -> str:
    if not pages:
        return ""
    pages = sorted(set(pages))
    runs, start, prev = [], pages[0], pages[0]
    for n in pages[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        runs.append(f"{start}" if start == prev else (f"{start}, {prev}" if prev == start + 1 else f"{start}–{prev}"))
        if n is not None:
            start = prev = n
    return ("page " if len(pages) == 1 else "pages ") + ", ".join(runs)


# ── running it ─────────────────────────────────────────────────────────────
def preflight(target: Path, profile: Profile) -> Result:
    """Check a PDF, a picture, or every PDF (or picture, for a picture service) in a folder."""
    target = Path(target)
    result = Result(profile)
    if target.is_dir():
        suffixes = PICTURES if profile.file == "png" else (".pdf",)
        files = sorted(p for p in target.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)
        if profile.file == "png":
            result.files.extend(check_pictures(files, profile, target))
        else:
            result.files.extend(check_pdf(p, profile) for p in files)
    elif target.suffix.lower() in PICTURES:
        if profile.file == "png":
            result.files.extend(check_pictures([target], profile, None))
        else:
            result.files.append(FileResult(target, 1, [Finding(None, "file-type", f"is a picture; {profile.name} takes PDF files")], "picture"))
    else:
        result.files.append(check_pdf(target, profile))
    return result


def check_pdf(path: Path, profile: Profile, data: bytes | None = None) -> FileResult:
    """One PDF (at `path`, or `data` named `path`) against `profile`; a file that cannot
    be read is one problem, not a crash."""
    from .scan import scan_pdf

    try:
        scan = scan_pdf(path, data)
    except (ValueError, OSError) as exc:
        return FileResult(path, 0, [Finding(None, "unreadable", f"{exc}")])
    found = FileResult(path, len(scan.pages))
    for check in FILE_CHECKS:
        found.problems.extend(Finding(None, code, message) for code, message in check(scan, profile))
    for page in scan.pages:
        for check in PAGE_CHECKS:
            found.problems.extend(Finding(page.number, code, message) for code, message in check(page, profile))
    return found


# ── file checks: PDF/X identification ──────────────────────────────────────
def _damaged(scan, profile):
    if scan.damage:
        more = f" (and {len(scan.damage) - 1} more)" if len(scan.damage) > 1 else ""
        yield "damaged", (f"the file is damaged and was read as far as it could be: {scan.damage[0]}{more}; "
                          "a print shop's RIP may refuse it or print it otherwise: export it again")


def _encrypted(scan, profile):
    if scan.encrypted:
        yield "encrypted", "the file is encrypted: print shops cannot open it (PDF/X forbids encryption)"


def _output_intent(scan, profile):
    if not profile.pdfx or scan.encrypted:
        return
    intents = [i for i in scan.output_intents if i["S"] == "/GTS_PDFX"]
    if not intents:
        yield "no-outputintent", "no PDF/X OutputIntent: the file does not say which printing condition its colours are for"
        return
    intent = intents[0]
    if not intent["identifier"]:
        yield "no-outputintent", "the OutputIntent has no OutputConditionIdentifier"
    if profile.pdfx == "x4" and intent["profile_n"] is None:
        yield "outputintent-profile", "the OutputIntent has no DestOutputProfile (PDF/X-4 needs the ICC output profile embedded)"
    if intent["profile_n"] not in (None, 4) and profile.cmyk:
        yield "outputintent-profile", f"the OutputIntent's profile has {intent['profile_n']} channels, not CMYK's 4"


def _identification(scan, profile):
    if not profile.pdfx or scan.encrypted:
        return
    wanted = VERSIONS[profile.pdfx]
    have = scan.info.get("/GTS_PDFXVersion")
    if have != wanted:
        yield "pdfx-version", f"GTS_PDFXVersion is {have!r} in the Info dictionary, not {wanted!r}" if have else \
            f"the Info dictionary has no GTS_PDFXVersion ({wanted})"
    if profile.pdfx == "x1a" and scan.info.get("/GTS_PDFXConformance") != wanted:
        yield "pdfx-version", f"the Info dictionary has no GTS_PDFXConformance {wanted!r}"
    if scan.info.get("/Trapped") not in ("/True", "/False"):
        yield "pdfx-version", "the Info dictionary has no Trapped key (True or False)"
    if f"GTS_PDFXVersion>{wanted}<" not in scan.xmp:
        yield "xmp", f"the XMP metadata does not say GTS_PDFXVersion {wanted}" if scan.xmp else "no XMP metadata"
    if scan.version > MAX_VERSION[profile.pdfx]:
        yield "pdf-version", f"PDF {scan.version}: {wanted} files are PDF {MAX_VERSION[profile.pdfx]} at most"


def _file_id(scan, profile):
    if profile.pdfx and not scan.file_id and not scan.encrypted:
        yield "no-id", "no document /ID in the trailer (PDF/X needs one)"


FILE_CHECKS = (_damaged, _encrypted, _output_intent, _identification, _file_id)


# ── page checks ────────────────────────────────────────────────────────────
def _trim(page):
    return page.boxes.get("TrimBox") or page.boxes.get("ArtBox")


def _boxes(page, profile):
    trim = _trim(page)
    if trim is None:
        yield "no-trimbox", "no TrimBox: the print shop cannot tell where the card is cut"
        return
    media = page.boxes.get("MediaBox")
    bleed = page.boxes.get("BleedBox") or media
    if profile.bleed > 0:
        if "BleedBox" not in page.boxes:
            yield "bleed-narrow", "no BleedBox: the bleed is not marked"
        sides = dict(zip(("left", "bottom", "right", "top"), (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])))
        narrow = {side: v for side, v in sides.items() if v < profile.bleed * MM - TOLERANCE_PT}
        if narrow:
            side, value = min(narrow.items(), key=lambda kv: round(kv[1], 2))  # the first side of the narrowest
            yield "bleed-narrow", f"bleed {fmt_mm(round(value / MM, 2))} mm at the {side}, narrower than the {fmt_mm(profile.bleed)} mm asked"
    if media and bleed and any(b < m - TOLERANCE_PT for b, m in ((bleed[0], media[0]), (bleed[1], media[1]))) or \
            media and bleed and any(b > m + TOLERANCE_PT for b, m in ((bleed[2], media[2]), (bleed[3], media[3]))):
        yield "bleed-narrow", "the BleedBox reaches outside the page (MediaBox)"


def _trim_size(page, profile):
    trim = _trim(page)
    if trim is None or not profile.trim_in:
        return
    w, h = trim[2] - trim[0], trim[3] - trim[1]
    for tw, th in profile.trim_in:
        if abs(w - tw * 72) <= TOLERANCE_PT and abs(h - th * 72) <= TOLERANCE_PT:
            return
    sizes = ", ".join(f"{tw:g} × {th:g} in" for tw, th in profile.trim_in)
    yield "trim-size", f"the card is {fmt_mm(round(w / MM, 1))} × {fmt_mm(round(h / MM, 1))} mm; {profile.name} cuts {sizes}"


def _colours(page, profile):
    if not profile.cmyk:
        return
    for (kind, use), op in sorted(page.colours.items()):
        base = kind.removeprefix("indexed-")
        if base in ("rgb", "lab", "unknown"):
            what = {"rgb": "RGB", "lab": "Lab", "unknown": "an unknown colour space's"}[base]
            yield "rgb-colour", f"{what} colour ({use}, {op}): {profile.name} prints CMYK only"
    for image in page.images:
        base = image.space.removeprefix("indexed-")
        if base in ("rgb", "lab", "unknown"):
            yield "rgb-colour", f"{_image_name(image)} is {base.upper() if base != 'unknown' else 'in an unknown colour space'}: {profile.name} prints CMYK only"


def _total_ink(page, profile):
    if not profile.total_ink:
        return
    limit = profile.total_ink / 100 + 0.005
    worst = max(page.inks, key=sum, default=None)
    if worst is not None and sum(worst) > limit:
        c, m, y, k = (round(v * 100) for v in worst)
        yield "total-ink", f"colour C{c} M{m} Y{y} K{k} has {sum(worst) * 100:.0f} % ink, more than {profile.total_ink:g} %"
    for image in page.images:
        if image.cmyk_data is None:
            continue
        pixels = image.cmyk_data()
        if pixels is None:
            continue
        most = _most_ink(pixels)
        if most > profile.total_ink + 0.5:
            yield "total-ink", f"{_image_name(image)} has up to {most:.0f} % ink, more than {profile.total_ink:g} %"


def _image_name(image) -> str:
    """'image Im1', or 'an image' when its resource name is a long generated one (FormXob.1ca7…)."""
    return f"image {image.name}" if len(image.name) <= 12 else "an image"


def _most_ink(im) -> float:
    from PIL import ImageMath

    c, m, y, k = im.split()
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    return total.getextrema()[1] / 255 * 100


def _image_dpi(page, profile):
    seen = set()
    for image in page.images:
        dpi = image.dpi
        if dpi < profile.dpi * DPI_TOLERANCE and (image.name, round(dpi)) not in seen:
            seen.add((image.name, round(dpi)))
            w, h = image.pixels
            yield "image-dpi", f"{_image_name(image)} ({w} × {h} px) at {dpi:.0f} dpi, under the {profile.dpi:g} dpi asked"


def _fonts(page, profile):
    for name, embedded in sorted(page.fonts.items()):
        if not embedded:
            yield "font-not-embedded", f"font {name} is not embedded"


def _text_near_trim(page, profile):
    trim = _trim(page)
    if trim is None or not page.text:
        return
    inner = (trim[0] + profile.safe * MM, trim[1] + profile.safe * MM, trim[2] - profile.safe * MM, trim[3] - profile.safe * MM)
    closest = None
    for text in page.text:
        x0, y0, x1, y1 = text.box
        if x1 < trim[0] or y1 < trim[1] or x0 > trim[2] or y0 > trim[3]:
            continue  # entirely in the bleed or off the card: cut away, not unsafe
        gaps = {"left": x0 - trim[0], "bottom": y0 - trim[1], "right": trim[2] - x1, "top": trim[3] - y1}
        side, gap = min(gaps.items(), key=lambda kv: kv[1])
        if x0 < inner[0] - 0.05 or y0 < inner[1] - 0.05 or x1 > inner[2] + 0.05 or y1 > inner[3] + 0.05:
            if closest is None or gap < closest[1]:
                closest = (side, gap, text.font)
    if closest:
        side, gap, font = closest
        where = f"{fmt_mm(round(max(gap, 0) / MM, 1))} mm from the trim" if gap >= 0 else f"{fmt_mm(round(-gap / MM, 1))} mm past the trim"
        yield "text-near-trim", f"text ({font}) {where} at the {side}, inside the {fmt_mm(profile.safe)} mm safe margin"


def _transparency(page, profile):
    if profile.pdfx != "x1a":
        return
    for what in dict.fromkeys(page.transparency):
        yield "transparency", f"transparency ({what}): PDF/X-1a allows none"


PAGE_CHECKS = (_boxes, _trim_size, _colours, _total_ink, _image_dpi, _fonts, _text_near_trim, _transparency)


# ── pictures ───────────────────────────────────────────────────────────────
def check_pictures(paths: list[Path], profile: Profile, folder: Path | None) -> list[FileResult]:
    """Each picture against the service's pixel sizes (all of one size), RGB or grey, opaque;
    in a folder, a back.png among them."""
    from PIL import Image

    results = []
    sizes = set()
    for path in paths:
        found = FileResult(path, 1, kind="picture")
        try:
            with Image.open(path) as im:
                size, mode, alpha = im.size, im.mode, im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
                im.load()  # every pixel decoded: a truncated or damaged file fails here, not at the service
        except Exception as exc:
            found.problems.append(Finding(None, "unreadable", f"cannot be read as a picture ({exc})"))
            results.append(found)
            continue
        sizes.add(size)
        if profile.pixels and size not in profile.pixels:
            wanted = " or ".join(f"{w} × {h}" for w, h in profile.pixels)
            found.problems.append(Finding(None, "image-size", f"{size[0]} × {size[1]} px; {profile.name} takes {wanted} px"))
        if alpha:
            found.problems.append(Finding(None, "image-mode", "has transparency (alpha): a printed card has none"))
        elif mode not in ("RGB", "L"):
            found.problems.append(Finding(None, "image-mode", f"is {mode}; {profile.name} takes RGB pictures"))
        results.append(found)
    if folder is not None and paths and not any(p.stem.lower() == "back" for p in paths):
        results.append(FileResult(folder, 0, [Finding(None, "no-back", "no back.png: the service needs the card back as a picture")], "folder"))
    if len(sizes) > 1 and results:
        results[0].problems.append(Finding(None, "image-size", f"the pictures have {len(sizes)} different sizes: one deck has one card size"))
    return results
