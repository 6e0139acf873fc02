"""The parts of a print-and-play set, each drawn into a PDF of its own.

    rulebook     the rules and the card reference (draw/rulebook.py)
    mats         one player mat per player, landscape (draw/mat.py)
    score-sheet  for play without dice (draw/score_sheet.py)
    cards        the card sheets: fronts and backs imposed on pages (sheets.py)

Each function takes the project, the build options, the language, the print
run and a report, and returns a `PartPDF`: the finished bytes and what the
assembled PDF needs to know (pages, outline). Nothing here writes files.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from .pdf import Document

PART_ORDER = ("rulebook", "mats", "score-sheet", "cards")  # the order in the assembled PDF
PLAYERS = 2


@dataclass
class PartPDF:
    name: str  # a PART_ORDER name
    data: bytes
    pages: int
    title: str  # its entry in the assembled PDF's outline ("" = the part brings its own)
    children: list[tuple[str, int]] = field(default_factory=list)  # (title, page within the part)
    cards: int = 0
    faces: int = 0


def new_document(project, lang: str, title: str, subject: str = "") -> Document:
    """A Document whose canvas starts in the language's embedded body font (never Helvetica)."""
    return Document(project.fonts.chain(lang, "body").primary, title, lang, subject)


def rulebook_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    from ..draw import rulebook

    loc = project.locale(lang)
    doc = new_document(project, lang, f"{project.config.game} — {loc.get('rules.subtitle')}")
    entries = rulebook.draw_rulebook(doc.canvas, project, lang, options.paper.size, report)
    rulebook.add_outline(doc.canvas, entries)
    doc.canvas.showOutline()
    return PartPDF("rulebook", doc.data(), doc.pages, "")


def mats_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    from ..draw import mat

    loc = project.locale(lang)
    title = loc.get("mat.title")
    doc = new_document(project, lang, f"{project.config.game} — {title}")
    landscape = options.paper.turned() if not options.paper.landscape else options.paper
    for _ in range(PLAYERS):
        mat.draw_mat(doc.canvas, project, lang, landscape.size, report, options.paper.name)
    players = [(loc.format("sheet.player", n=n), n - 1) for n in range(1, PLAYERS + 1)]
    return PartPDF("mats", doc.data(), doc.pages, title, players)


def score_sheet_part(project, options, lang: str, run, report, progress=None) -> PartPDF:
    from ..draw import score_sheet

    title = project.locale(lang).get("sheet.title")
    doc = new_document(project, lang, f"{project.config.game} — {title}")
    score_sheet.draw_score_sheet(doc.canvas, project, lang, options.paper.size, report)
    return PartPDF("score-sheet", doc.data(), doc.pages, title)


def cards_part(project, options, lang: str, run, report, progress: Callable[[int, int], None] | None = None) -> PartPDF:
    """The card sheets: each distinct face laid out and drawn once (when first placed), placed for every copy."""
    from ..draw.faces import CardGeometry, LazyFront, back_face
    from ..impose.sheets import SheetText, draw_pages

    layout = options.sheet_layout
    loc = project.locale(lang)
    body = project.fonts.chain(lang, "body")
    trim_w, trim_h = layout.trim_pt
    geometry = CardGeometry(trim_w, trim_h, layout.bleed_pt)
    faces: dict = {}
    for card in run:
        if card.id not in faces:
            faces[card.id] = LazyFront(project, card, lang, geometry, report)
    fronts = [faces[card.id] for card in run]
    back = back_face(project, geometry) if layout.layout != "fronts-only" else None
    text = SheetText(body, loc.get("sheet.print-note"), loc.get("sheet.fold-note") if layout.layout == "foldover" else "", loc.where)
    title = loc.get("part.cards")
    doc = new_document(project, lang, f"{project.config.game} — {title} ({loc.get('language.name')})", layout.describe())
    draw_pages(doc, layout.pages(len(run)), fronts, back, (geometry.width, geometry.height), text, report, lang, progress)
    return PartPDF("cards", doc.data(), doc.pages, title, cards=len(run), faces=doc.form_count)


PARTS = {
    "rulebook": rulebook_part,
    "mats": mats_part,
    "score-sheet": score_sheet_part,
    "cards": cards_part,
}


def assemble(parts: list[PartPDF], title: str, lang: str) -> bytes:
    """One PDF of every part, in order, with an outline: the rulebook's own, then one entry per
    other part (and its children). Deterministic: the same parts give the same bytes.

    Each part numbers its font subsets from AAAAAA again, so the merged file gets a tag of its
    own for every subset (ISO 32000-1 §9.6.4), and a file identifier (§14.4) computed from the
    parts, so a rebuild from the same inputs is byte-identical."""
    import hashlib
    import io

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, ByteStringObject, NameObject, TextStringObject

    writer = PdfWriter()
    for part in parts:
        start = len(writer.pages)
        writer.append(PdfReader(io.BytesIO(part.data)), import_outline=not part.title)
        if part.title:
            parent = writer.add_outline_item(title=part.title, page_number=start)
            for child, page in part.children:
                writer.add_outline_item(title=child, page_number=start + page, parent=parent)
    writer.add_metadata({"/Title": title, "/Producer": "ppgen", "/Creator": "ppgen"})
    writer.page_mode = "/UseOutlines"
    writer._root_object[NameObject("/Lang")] = TextStringObject(lang)
    merge_font_subsets(writer)
    identifier = ByteStringObject(hashlib.md5(b"".join(p.data for p in parts) + title.encode("utf-8") + lang.encode()).digest())
    writer._ID = ArrayObject([identifier, identifier])  # pypdf's own is random (generate_file_identifiers)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


_SUBSET_NAME = re.compile(r"^/([A-Z]{6})\+(.+)$")
_DEPTH = 3  # font dictionary → descriptor and ToUnicode CMap → font program


def merge_font_subsets(writer) -> None:
    """Font subsets of the merged parts, each once and with a tag of its own (ISO 32000-1 §9.6.4).

    Every part numbers its subsets from AAAAAA again, so the same tag stood for several
    different subsets. A subset two parts embed identically (same program, widths and
    ToUnicode map: the title font's few letters) is kept once; every other subset gets six
    letters from a hash of its name and program, so a rebuild gives the same tags, and the
    next hash in line when two would share one.
    """
    from pypdf.generic import NameObject

    kept: dict[tuple, object] = {}  # what a subset is → the font object kept for it
    replaced: dict[int, object] = {}  # object number of a dropped duplicate → the one kept
    done: set[int] = set()  # object numbers of the fonts kept (and tagged)
    used: set[str] = set()
    for fonts, key, ref in _font_entries(writer.pages):
        if ref.idnum in replaced:
            fonts[NameObject(key)] = replaced[ref.idnum]
            continue
        font = ref.get_object()
        match = _SUBSET_NAME.match(str(font.get("/BaseFont", "")))
        if not match or ref.idnum in done:
            continue
        name, program, identity = _subset_identity(font, match[2])
        if identity in kept:
            replaced[ref.idnum] = kept[identity]
            fonts[NameObject(key)] = kept[identity]
            continue
        kept[identity] = ref
        done.add(ref.idnum)
        n, tag = 0, _tag(name.encode() + program, 0)
        while tag in used:
            n += 1
            tag = _tag(name.encode() + program, n)
        used.add(tag)
        font[NameObject("/BaseFont")] = NameObject(f"/{tag}+{name}")
        font["/FontDescriptor"].get_object()[NameObject("/FontName")] = NameObject(f"/{tag}+{name}")
    if replaced:
        for _ in range(_DEPTH):  # a dropped font's descriptor, CMap and program become unreferenced in turn
            try:
                writer.compress_identical_objects(remove_duplicates=False, remove_unreferenced=True)
            except TypeError:  # pypdf before 7 names them remove_identicals, remove_orphans
                writer.compress_identical_objects(remove_identicals=False, remove_orphans=True)


def _subset_identity(font, name: str) -> tuple[str, bytes, tuple]:
    """(name, font program, what makes two subsets the same subset)."""
    def data(ref) -> bytes:
        return ref.get_object().get_data() if ref is not None else b""

    descriptor = font["/FontDescriptor"].get_object()
    program = data(descriptor.get("/FontFile2") or descriptor.get("/FontFile") or descriptor.get("/FontFile3"))
    widths = tuple(float(w) for w in font.get("/Widths", []))
    return name, program, (name, program, widths, int(font.get("/FirstChar", 0)), data(font.get("/ToUnicode")))


def _tag(seed: bytes, n: int) -> str:
    """Six capital letters from a hash of `seed` and `n`."""
    import hashlib

    value = int.from_bytes(hashlib.sha256(seed + n.to_bytes(4, "big")).digest()[:8], "big")
    letters = []
    for _ in range(6):
        value, digit = divmod(value, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(letters)


def _font_entries(pages):
    """(font resource dictionary, name, font reference) for every font the pages use, directly
    or inside form XObjects, in page order; each resource dictionary once."""
    seen: set[int] = set()
    stack = list(reversed(list(pages)))
    while stack:
        resources = stack.pop().get_object().get("/Resources")
        if resources is None:
            continue
        resources = resources.get_object()
        fonts = resources.get("/Font")
        if fonts is not None:
            fonts = fonts.get_object()
            if id(fonts) not in seen:
                seen.add(id(fonts))
                for key in list(fonts):
                    yield fonts, key, fonts.raw_get(key)
        for ref in reversed(list((resources.get("/XObject") or {}).values())):
            number = getattr(ref, "idnum", None)
            if number is None or ("x", number) not in seen:
                seen.add(("x", number))
                stack.append(ref)
