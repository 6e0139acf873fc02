"""Print-shop and print-on-demand output, and the preflight: read back with pypdf, checked by
Ghostscript and qpdf, and broken on purpose to see the preflight name each problem."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from clitools import Break, assert_clean_error, call_ppgen
from ppgen.press.order import Order, make, starter_decks
from ppgen.press.preflight import Profile, preflight
from ppgen.read.services import DeckSizes, load_services
from ppgen.units import MM

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ("print-shop", "drivethrucards", "thegamecrafter", "makeplayingcards", "printerstudio")
PIXELS = {"thegamecrafter": (825, 1125), "makeplayingcards": (822, 1122), "printerstudio": (822, 1122)}


@pytest.fixture(scope="module")
def services(project):
    return load_services(project)


@pytest.fixture(scope="module")
def built(project, services, tmp_path_factory):
    """Every preset, the Rome starter deck in English (and the print shop in X-1a too)."""
    out = tmp_path_factory.mktemp("press")
    results = {}
    for key in SERVICES:
        order = Order.plan(project, services[key], ["en"], out / key, starter_decks(project, ["rome"]))
        results[key] = (order, make(project, order))
    order = Order.plan(project, services["print-shop"], ["en"], out / "x1a", starter_decks(project, ["rome"]), pdfx="x1a")
    results["print-shop-x1a"] = (order, make(project, order))
    return results


@pytest.fixture(scope="module")
def home_cards(tmp_path_factory):
    out = tmp_path_factory.mktemp("home")
    result = call_ppgen("build", "--lang", "en", "--faction", "rome", "--out", out, root=ROOT)
    assert result.returncode == 0, result.stderr
    return out / "en" / "cards-en-rome.pdf"


def pdf_of(built, key) -> Path:
    return built[key][1].uploads[0]


def operators(page) -> list[str]:
    """Every operator of a page's content and of the forms it places."""
    from pdftools import operations

    found, seen = [], set()

    def walk(obj, resources):
        for operands, op in operations(obj):
            found.append(op.decode("latin-1") if isinstance(op, bytes) else op)
            if op == b"Do":
                xobjects = resources.get_object()["/XObject"].get_object()
                ref = xobjects.raw_get(operands[0])
                form = ref.get_object()
                if form["/Subtype"] == "/Form" and ref.idnum not in seen:
                    seen.add(ref.idnum)
                    walk(form, form.get("/Resources") or resources)

    walk(page.get_contents(), page["/Resources"])
    return found


# ── the presets pass, and are what they say ────────────────────────────────
@pytest.mark.parametrize("key", SERVICES + ("print-shop-x1a",))
def test_every_preset_passes_the_preflight(built, key):
    order, result = built[key]
    assert result.preflight.passed, result.preflight.lines()
    assert result.uploads and all(p.exists() for p in result.uploads)


@pytest.mark.parametrize("key, standard, identifier, bleed", [
    ("print-shop", "PDF/X-4", "CGATS TR 006", 3.0),
    ("print-shop-x1a", "PDF/X-1a:2001", "CGATS TR 006", 3.0),
    ("drivethrucards", "PDF/X-1a:2001", "CGATS TR 003", 3.175),
])
def test_pdfx_files_read_back_with_pypdf(built, key, standard, identifier, bleed):
    from pypdf import PdfReader

    path = pdf_of(built, key)
    data = path.read_bytes()
    reader = PdfReader(path)
    root = reader.trailer["/Root"]
    intent = root["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == identifier
    assert intent["/RegistryName"] == "http://www.color.org"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4
    shipped = (ROOT / "templates" / "icc" / ("ppgen-swop-tr003-240.icc" if "003" in identifier else "ppgen-gracol-tr006-320.icc")).read_bytes()
    assert profile.get_data() == shipped
    info = reader.trailer["/Info"]
    assert info["/GTS_PDFXVersion"] == standard and info["/Trapped"] == "/False"
    assert (info.get("/GTS_PDFXConformance") == standard) == (standard != "PDF/X-4")
    assert f"GTS_PDFXVersion>{standard}<" in root["/Metadata"].get_object().get_data().decode()
    assert len(reader.trailer["/ID"]) == 2
    assert data.startswith(b"%PDF-1.3" if "X-1a" in standard else b"%PDF-1.6")
    card = (63.0, 88.0) if key.startswith("print-shop") else (2.5 * 25.4, 3.5 * 25.4)
    assert len(reader.pages) == 80  # 40 cards, front and back
    for page in reader.pages:
        trim, bleed_box, media = (tuple(float(v) for v in page[k]) for k in ("/TrimBox", "/BleedBox", "/MediaBox"))
        assert bleed_box == media
        assert trim[2] - trim[0] == pytest.approx(card[0] * MM, abs=0.01) and trim[3] - trim[1] == pytest.approx(card[1] * MM, abs=0.01)
        assert trim[0] - bleed_box[0] == pytest.approx(bleed * MM, abs=0.01)
        assert media[2] == pytest.approx((card[0] + 2 * bleed) * MM, abs=0.01)


@pytest.mark.parametrize("key", ["print-shop", "drivethrucards", "print-shop-x1a"])
def test_every_colour_is_cmyk_and_x1a_has_no_transparency(built, key):
    from pypdf import PdfReader

    reader = PdfReader(pdf_of(built, key))
    ops = set()
    for page in reader.pages[:4]:  # a front and a back, twice: every distinct form is walked
        ops |= set(operators(page))
    assert {"k", "K"} <= ops
    assert not ops & {"rg", "RG", "g", "G", "sc", "scn", "SC", "SCN", "sh", "INLINE IMAGE"}, ops  # (an inline image: BI … EI)
    data = pdf_of(built, key).read_bytes()
    assert b"/DeviceRGB" not in data and b"/ICCBased" not in data.replace(b"/DestOutputProfile", b"")
    if key != "print-shop":
        assert not re.search(rb"/(ca|CA) 0?\.\d", data) and b"/SMask" not in data


def test_pages_are_in_the_services_order(built):
    """DriveThruCards: front of card 1, its back, front of card 2 … (the back is one form)."""
    from pypdf import PdfReader

    reader = PdfReader(pdf_of(built, "drivethrucards"))
    placed = [tuple(sorted(page["/Resources"]["/XObject"].keys())) for page in reader.pages]
    backs, fronts = set(placed[1::2]), placed[0::2]
    assert len(backs) == 1 and not backs & set(fronts)
    assert len(set(fronts)) == 20  # Rome's 20 distinct cards, each front as often as its copies
    assert fronts[0] == fronts[1]  # copies side by side, as the deck lists them (ROM-01 × 2)


def test_total_ink_is_capped_for_drivethrucards(built):
    from ppgen.press.scan import scan_pdf

    scan = scan_pdf(pdf_of(built, "drivethrucards"))
    inks = [sum(i) for p in scan.pages for i in p.inks]
    assert max(inks) <= 2.4 + 1e-6 and max(inks) > 1.5  # rich colours, capped at 240 %
    black = [i for p in scan.pages for i in p.inks if i[3] > 0.99]
    assert all(i[:3] == (0, 0, 0) for i in black)  # black is black ink alone


@pytest.mark.skipif(not shutil.which("gs") or not shutil.which("qpdf"), reason="Ghostscript and qpdf are not installed")
@pytest.mark.parametrize("key", ["print-shop", "drivethrucards", "print-shop-x1a"])
def test_ghostscript_and_qpdf_run_clean(built, key):
    path = pdf_of(built, key)
    qpdf = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
    assert qpdf.returncode == 0 and "No syntax or stream encoding errors" in qpdf.stdout, qpdf.stdout + qpdf.stderr
    gs = subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dPDFSTOPONERROR", "-dPDFSTOPONWARNING", "-sDEVICE=nullpage", str(path)],
                        capture_output=True, text=True)
    assert gs.returncode == 0 and not gs.stdout.strip() and not gs.stderr.strip(), gs.stdout + gs.stderr


@pytest.mark.skipif(not shutil.which("gs"), reason="Ghostscript is not installed")
def test_cmyk_page_looks_like_the_rgb_one(built, project, tmp_path):
    """A printer's shift, not a wild one: the CMYK front, rendered by Ghostscript through its
    embedded OutputIntent profile, stays close to the home (RGB) front of the same card."""
    from ppgen.draw.faces import CardGeometry
    from ppgen.write.faces import card_fronts, faces_pdf

    card = project.game.card("hastati-line")
    geometry = CardGeometry(2.5 * 72, 3.5 * 72, 3.175 * MM)
    (tmp_path / "rgb.pdf").write_bytes(faces_pdf(project, card_fronts(project, [card], "en", geometry), geometry, "en"))

    def render(pdf: Path, *options) -> Image.Image:
        png = tmp_path / f"{pdf.stem}.png"
        subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=png16m", "-r100", *options, "-dFirstPage=1", "-dLastPage=1",
                        f"-sOutputFile={png}", str(pdf)], check=True)
        return Image.open(png).convert("RGB")

    from PIL import ImageChops, ImageStat

    rgb = render(tmp_path / "rgb.pdf")
    cmyk = render(pdf_of(built, "drivethrucards"), "-dUsePDFX3Profile")
    assert rgb.size == cmyk.size
    shift = ImageStat.Stat(ImageChops.difference(rgb, cmyk)).mean
    assert max(shift) < 20, shift  # out-of-gamut reds and blues dull a little; nothing turns another colour
    assert max(shift) > 0.5, shift  # and it is a separation, not the RGB file again


# ── pictures for the print-on-demand services ──────────────────────────────
@pytest.mark.parametrize("key", ["thegamecrafter", "makeplayingcards", "printerstudio"])
def test_picture_services_get_their_pixel_sizes_and_quantities(built, project, key):
    order, result = built[key]
    folder = result.uploads[0]
    pictures = sorted(folder.glob("*.png"))
    assert len(pictures) == 21 and (folder / "back.png").exists()  # Rome's 20 distinct fronts + the back
    for p in pictures:
        with Image.open(p) as im:
            assert im.size == PIXELS[key] and im.mode == "RGB"
    manifest = (folder / "upload.txt").read_text(encoding="utf-8")
    counts = {line.split()[0]: int(line.split()[1]) for line in manifest.splitlines() if re.match(r"ROM-\d\d\.png\s+\d", line)}
    assert counts == {f"{c.code}.png": n for c, n in project.game.starter_deck("rome")} and sum(counts.values()) == 40


def test_the_upload_instructions_name_the_card_size_ordered(project, services, tmp_path):
    """The Game Crafter's instructions say which deck to make: a tarot order said "make a poker
    deck" (its upload.txt and the summary)."""
    from ppgen.press.order import Deck

    rome = starter_decks(project, ["rome"])[0]
    for size in ("poker", "tarot"):
        order = Order.plan(project, services["thegamecrafter"], ["en"], tmp_path / size, [Deck("small", rome.cards[:1])], card_size=size)
        assert order.upload.startswith(f"make a {size} deck, upload each front PNG")
    manifest = make(project, order, jobs=1).uploads[0] / "upload.txt"
    assert "To upload: make a tarot deck," in manifest.read_text(encoding="utf-8")


def test_deck_sizes_name_the_nearest_tier(built):
    _, mpc = built["makeplayingcards"]
    assert mpc.notes == ["starter-rome: 40 cards is not a deck size MakePlayingCards sells (18, 36, 54 … 612); the nearest is 36: "
                         "order 54 (14 blank or extra cards to fill) or 36 (4 cards too many: leave them out)"]
    assert built["thegamecrafter"][1].notes == []  # sold by the card
    sizes = DeckSizes(step=18, max=612)
    assert sizes.fit(54) is None and sizes.fit(55) == (72, 17) and sizes.fit(700) == (612, -88) and sizes.nearest(45) == 54


# ── the preflight catches what it lists ────────────────────────────────────
@pytest.fixture(scope="module")
def dtc(services):
    return Profile.of(services["drivethrucards"])


def test_home_build_fails_with_the_right_reasons(home_cards, services):
    result = preflight(home_cards, Profile.of(services["print-shop"]))
    codes = {p.code for p in result.problems}
    assert {"no-outputintent", "pdfx-version", "xmp", "rgb-colour", "bleed-narrow"} <= codes, codes
    rgb = [p for p in result.problems if p.code == "rgb-colour"]
    assert {p.page for p in rgb} == set(range(1, result.files[0].pages + 1))  # every sheet, each with its page


def make_card_pdf(path: Path, fonts, page_drawers, standard="x1a", boxes=None, finish=True) -> Path:
    """A 3-page DriveThruCards-sized PDF whose pages are drawn by `page_drawers` (canvas, trim) in
    explicit CMYK; `boxes(page) → (trim, bleed)` may change a page's boxes."""
    from ppgen.read.services import Condition
    from ppgen.write.pdf import Document
    from ppgen.write.pdfx import pdfx

    b = 3.175 * MM
    w, h = 2.5 * 72 + 2 * b, 3.5 * 72 + 2 * b
    doc = Document(fonts, "test")
    c = doc.canvas
    for n, draw in enumerate(page_drawers, 1):
        trim, bleed = (b, b, w - b, h - b), (0, 0, w, h)
        if boxes:
            trim, bleed = boxes(n, trim, bleed)
        doc.begin_page(w, h, trim, bleed)
        c.setFillColorCMYK(0.1, 0.2, 0.3, 0.1)
        c.rect(0, 0, w, h, fill=1, stroke=0)
        c.setFillColorCMYK(0, 0, 0, 1)
        c.setFont(fonts, 9)
        c.drawString(w / 2 - 20, h / 2, "Hastati")
        if draw:
            draw(c, (b, b, w - b, h - b))
        doc.end_page()
    data = doc.data()
    if finish:
        icc = ROOT / "templates" / "icc" / "ppgen-swop-tr003-240.icc"
        condition = Condition("swop-240", "CGATS TR 003", "http://www.color.org", "SWOP", icc, 240)
        data = pdfx(data, standard, condition, icc.read_bytes(), "test")
    path.write_bytes(data)
    return path


def without(path: Path, what: str) -> Path:
    """The PDF at `path` with its OutputIntent, /ID or GTS_PDFXVersion removed."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    data = path.read_bytes()
    if what == "id":  # blank the trailer's /ID entry in place (byte offsets stay right)
        data = re.sub(rb"/ID \[ ?<[0-9a-fA-F]+> ?<[0-9a-fA-F]+> ?\]", lambda m: b" " * len(m.group(0)), data)
        assert b"/ID [" not in data
    else:
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
        if what == "intent":
            del writer._root_object[NameObject("/OutputIntents")]
        elif what == "xmp":
            del writer._root_object[NameObject("/Metadata")]
        else:
            del writer._info.get_object()[NameObject("/GTS_PDFXVersion")]
        out = io.BytesIO()
        writer.write(out)
        data = out.getvalue()
    path.write_bytes(data)
    return path


def low_res_picture(c, trim):
    from reportlab.lib.utils import ImageReader

    im = Image.new("CMYK", (450, 630), (30, 60, 90, 10))  # 2.5 × 3.5 in at 180 dpi
    c.drawImage(ImageReader(im), trim[0], trim[1], trim[2] - trim[0], trim[3] - trim[1])


BROKEN = {  # case: (drawer of page 3, boxes, what to remove) → (page, code, words in the message)
    "rgb": (lambda c, t: (c.setFillColorRGB(1, 0, 0), c.rect(30, 30, 20, 20, fill=1)), None, None, (3, "rgb-colour", "RGB colour (fill, rg)")),
    "dpi": (low_res_picture, None, None, (3, "image-dpi", "at 180 dpi, under the 300 dpi")),
    "font": (lambda c, t: (c.setFont("Helvetica", 8), c.drawString(40, 60, "Legion")), None, None, (3, "font-not-embedded", "font Helvetica")),
    "trimbox": (None, lambda n, trim, bleed: (None, bleed) if n == 3 else (trim, bleed), None, (3, "no-trimbox", "no TrimBox")),
    "near-trim": (lambda c, t: c.drawString(t[0] + 1 * MM, 100, "ROM-01"), None, None,
                  (3, "text-near-trim", "1 mm from the trim at the left, inside the 3.175 mm safe margin")),
    "bleed": (None, lambda n, trim, bleed: (trim, (trim[0] - MM, trim[1] - MM, trim[2] + MM, trim[3] + MM)) if n == 3 else (trim, bleed),
              None, (3, "bleed-narrow", "bleed 1 mm at the left, narrower than the 3.175 mm asked")),
    "transparency": (lambda c, t: (c.setFillAlpha(0.5), c.rect(30, 30, 40, 40, fill=1)), None, None,
                     (3, "transparency", "fill opacity 0.5): PDF/X-1a allows none")),
    "ink": (lambda c, t: (c.setFillColorCMYK(1, 1, 1, 1), c.rect(30, 30, 40, 40, fill=1)), None, None,
            (3, "total-ink", "C100 M100 Y100 K100 has 400 % ink, more than 240 %")),
    "intent": (None, None, "intent", (None, "no-outputintent", "no PDF/X OutputIntent")),
    "id": (None, None, "id", (None, "no-id", "no document /ID")),
    "version": (None, None, "version", (None, "pdfx-version", "no GTS_PDFXVersion")),
    "xmp": (None, None, "xmp", (None, "xmp", "no XMP metadata")),
    "trim-size": (None, lambda n, trim, bleed: ((trim[0] + 9, trim[1] + 9, trim[2] - 9, trim[3] - 9), bleed) if n == 3 else (trim, bleed),
                  None, (3, "trim-size", "the card is 57.1 × 82.5 mm; DriveThruCards cuts 2.5 × 3.5 in, 2.25 × 3.5 in")),
}


def test_a_good_fixture_passes(project, dtc, tmp_path):
    fonts = project.fonts.chain("en", "body").primary
    result = preflight(make_card_pdf(tmp_path / "good.pdf", fonts, [None, None, None]), dtc)
    assert result.passed, result.lines()


@pytest.mark.parametrize("case", list(BROKEN))
def test_the_preflight_catches_each_problem_on_a_broken_fixture(project, dtc, tmp_path, case):
    draw, boxes, remove, (page, code, words) = BROKEN[case]
    fonts = project.fonts.chain("en", "body").primary
    path = make_card_pdf(tmp_path / f"{case}.pdf", fonts, [None, None, draw], boxes=boxes)
    if remove:
        without(path, remove)
    result = preflight(path, dtc)
    assert not result.passed
    found = [(p.page, p.code) for p in result.problems]
    assert found == [(page, code)], result.lines()  # that problem, on that page, and nothing else
    assert words in result.problems[0].message, result.problems[0].message


def test_preflight_of_pictures(dtc, services, tmp_path):
    tgc = Profile.of(services["thegamecrafter"])
    Image.new("RGB", (825, 1125), "white").save(tmp_path / "ROM-01.png")
    Image.new("RGBA", (825, 1125), (0, 0, 0, 0)).save(tmp_path / "ROM-02.png")
    Image.new("RGB", (750, 1050), "white").save(tmp_path / "ROM-03.png")
    result = preflight(tmp_path, tgc)
    codes = sorted((f.path.name, p.code) for f in result.files for p in f.problems)
    assert codes == [("ROM-01.png", "image-size"), ("ROM-02.png", "image-mode"), ("ROM-03.png", "image-size"), (tmp_path.name, "no-back")]


def test_a_truncated_picture_fails_and_a_picture_is_not_a_print_shops_pdf(dtc, services, tmp_path):
    """A PNG cut short (a failed download: its header and size intact) passed the preflight for
    The Game Crafter, and any picture passed a PDF service's; the first is now decoded whole and
    fails, the second is the wrong kind of file."""
    import io

    tgc = Profile.of(services["thegamecrafter"])
    picture = io.BytesIO()
    Image.effect_noise((825, 1125), 80).convert("RGB").save(picture, "PNG")
    (tmp_path / "ROM-01.png").write_bytes(picture.getvalue()[:30000])
    (tmp_path / "back.png").write_bytes(picture.getvalue())
    result = preflight(tmp_path, tgc)
    failed = {f.path.name: [(p.code, p.message) for p in f.problems] for f in result.files if not f.passed}
    assert list(failed) == ["ROM-01.png"] and "truncated" in failed["ROM-01.png"][0][1], result.lines()
    assert "ROM-01.png: FAIL (picture, 1 problem)" in "\n".join(result.lines(show=lambda p: p.name))
    wrong = preflight(tmp_path / "back.png", dtc)
    assert [p.code for p in wrong.problems] == ["file-type"] and "takes PDF files" in wrong.problems[0].message


# ── the command line ───────────────────────────────────────────────────────
def test_preflight_command_exit_codes_and_report(built, home_cards):
    good = call_ppgen("preflight", pdf_of(built, "drivethrucards"), "--for", "drivethrucards", root=ROOT)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "pass (80 pages)" in good.stdout and "1 file passes the preflight for DriveThruCards" in good.stderr
    bad = call_ppgen("preflight", home_cards, "--pdfx", "x1a", root=ROOT)
    assert bad.returncode == 1
    assert "no PDF/X OutputIntent" in bad.stdout and "RGB colour (fill, rg)" in bad.stdout and "pages 1–" in bad.stdout
    as_json = call_ppgen("preflight", home_cards, "--json", root=ROOT)
    import json

    report = json.loads(as_json.stdout)
    assert report["passed"] is False and any(p["code"] == "rgb-colour" and p["page"] == 1 for p in report["files"][0]["problems"])


@pytest.mark.parametrize("key", SERVICES + ("print-shop-x1a",))
def test_the_preflight_command_passes_every_preset(built, key):
    order, result = built[key]
    target = result.uploads[0]
    args = ["preflight", target, "--for", order.service.key] + (["--pdfx", "x1a"] if key.endswith("x1a") else [])
    ran = call_ppgen(*args, root=ROOT)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ": pass (" in ran.stdout and "FAIL" not in ran.stdout


def test_build_for_says_what_to_upload(tmp_path):
    result = call_ppgen("build", "--for", "drivethrucards", "--faction", "sparta", "--lang", "ja", "--out", tmp_path, root=ROOT)
    assert result.returncode == 0, result.stderr
    assert "To upload to DriveThruCards" in result.stderr and "starter-sparta-ja.pdf" in result.stderr
    assert "preflight passed" in result.stderr
    assert (tmp_path / "ja" / "drivethrucards" / "starter-sparta-ja.pdf").exists()


def test_build_for_is_reproducible(project, services, tmp_path):
    decks = starter_decks(project, ["dacia"])
    a = make(project, Order.plan(project, services["drivethrucards"], ["en"], tmp_path / "a", decks)).uploads[0].read_bytes()
    b = make(project, Order.plan(project, services["drivethrucards"], ["en"], tmp_path / "b", decks)).uploads[0].read_bytes()
    assert a == b


def test_decks_drawn_in_worker_processes_are_the_same_files_warnings_and_preflight(game_copy, tmp_path):
    """A print shop's decks are drawn two at a time in worker processes (--jobs): the same bytes,
    the same warnings (here a Japanese text missing, printed in English) and the same preflight,
    in the same order, as drawn one after the other in this process."""
    import ppgen

    ja = game_copy / "locales" / "ja.yaml"
    text = ja.read_text(encoding="utf-8")
    start = text.index("card.roman-road.effect:")
    ja.write_text(text[:start] + text[text.index("\ncard.", start + 1) + 1:], encoding="utf-8")
    project = ppgen.load(game_copy)
    service = load_services(project)["drivethrucards"]
    made = {jobs: make(project, Order.plan(project, service, ["ja", "en"], tmp_path / str(jobs), starter_decks(project, ["rome", "dacia"])), jobs=jobs)
            for jobs in (1, 2)}
    one, two = made[1], made[2]
    assert [p.relative_to(tmp_path / "1") for p in one.files] == [p.relative_to(tmp_path / "2") for p in two.files]
    assert [p.name for p in one.files] == ["starter-rome-ja.pdf", "starter-dacia-ja.pdf", "starter-rome-en.pdf", "starter-dacia-en.pdf"]
    for a, b in zip(one.files, two.files):
        assert a.read_bytes() == b.read_bytes(), a.name
    assert one.report.warnings == two.report.warnings
    assert any(w.code == "fallback" and w.lang == "ja" for w in one.report.warnings), one.report.warnings
    assert [(f.path.name, f.pages, f.problems) for f in one.preflight.files] == [(f.path.name, f.pages, f.problems) for f in two.preflight.files]
    assert one.preflight.passed and one.bytes == two.bytes


@pytest.mark.parametrize("args, needles", [
    (("build", "--for", "drivethrucard"), ("unknown print service 'drivethrucard'", "did you mean 'drivethrucards'")),
    (("build", "--for", "drivethrucards", "--paper", "a4"), ("--paper is for home printing",)),
    (("build", "--for", "drivethrucards", "--bleed", "5"), ("DriveThruCards asks for 3.175 mm",)),
    (("build", "--for", "thegamecrafter", "--pdfx", "x1a"), ("--pdfx: The Game Crafter takes pictures",)),
    # (a PDF/X-4 file for DriveThruCards was made, and its preflight at the build said "pass"; `ppgen
    # preflight --for drivethrucards` failed the same file)
    (("build", "--for", "drivethrucards", "--pdfx", "x4"), ("--pdfx: DriveThruCards asks for PDF/X-1a:2001; only --for print-shop takes another standard",)),
    (("build", "--for", "drivethrucards", "--card-size", "jumbo"), ("--card-size: DriveThruCards prints poker, bridge, tarot, mini cards",)),
    (("export", "png", "--for", "drivethrucards"), ("DriveThruCards takes a PDF", "ppgen build --for drivethrucards")),
    (("preflight", "README.md", "--for", "nope"), ("unknown print service 'nope'",)),
])
def test_bad_options_are_clear_errors(args, needles, tmp_path):
    assert_clean_error(call_ppgen(*args, "--out", tmp_path, root=ROOT) if args[0] != "preflight" else call_ppgen(*args, root=ROOT), *needles)


def test_preflight_of_something_not_a_pdf(built, tmp_path):
    """A file that cannot be read exits 2, as everywhere (1 is a readable file failing a check), and
    the report says what is wrong once: the reader's own log lines (pypdf's "invalid pdf header:
    b'not a'", "EOF marker not found"; qpdf's warnings) never land on the terminal. A real PDF cut
    short (a failed download) is not read as far as it goes, nor repaired: it cannot be read."""
    from clitools import run_ppgen

    (tmp_path / "x.pdf").write_text("not a pdf")
    whole = pdf_of(built, "drivethrucards").read_bytes()
    (tmp_path / "cut.pdf").write_bytes(whole[: len(whole) // 2])
    for name in ("x.pdf", "cut.pdf"):
        result = run_ppgen("preflight", tmp_path / name, root=ROOT)  # (a process: a reader logs to its stderr)
        assert result.returncode == 2 and "is not a PDF that can be read (" in result.stdout, (result.stdout, result.stderr)
        assert "Traceback" not in result.stderr and "BytesIO" not in result.stdout, result.stdout
        assert "invalid pdf header" not in result.stderr and "EOF marker" not in result.stderr, result.stderr
        assert "WARNING" not in result.stderr and "qpdf" not in result.stderr.lower(), result.stderr
        assert result.stderr.startswith("failed: 1 of 1 file fails the preflight"), result.stderr


@pytest.fixture(scope="module")
def small_deck(project, services, tmp_path_factory) -> bytes:
    """A real DriveThruCards deck of three cards: six pages, 120 KB — its fonts, colour profile,
    card drawings, page tree and cross-reference table — read in an eighth of the forty-card
    deck's time."""
    from ppgen.press.order import Deck

    rome = starter_decks(project, ["rome"])[0]
    order = Order.plan(project, services["drivethrucards"], ["en"], tmp_path_factory.mktemp("small-deck"), [Deck("small", rome.cards[:3])])
    result = make(project, order, jobs=1)
    assert result.preflight.passed and result.preflight.files[0].pages == 6, result.preflight.lines()
    return result.uploads[0].read_bytes()


def test_fuzz_damaged_pdfs_are_one_clear_problem_never_a_crash(small_deck, dtc):
    """A real deck with bytes changed, cut short, garbage spliced in or a piece cut out: the
    preflight reads it, or reports one "unreadable" problem in words (no name of the bytes in
    memory); nothing else is raised, and no warning of the reader's reaches the terminal."""
    import warnings

    from hypothesis import given
    from hypothesis import strategies as st

    from fuzzing import fuzz
    from ppgen.press.preflight import check_pdf

    whole = small_deck
    damage = st.tuples(st.sampled_from(["change", "cut", "splice", "remove"]), st.floats(0, 1), st.binary(min_size=1, max_size=64))

    @fuzz(80)  # (the profile is half the bytes: twice the forty-card deck's examples hit the drawings as often)
    @given(damage=damage)
    def run(damage):
        kind, where, junk = damage
        at = int(where * (len(whole) - 1))
        data = {"change": whole[:at] + junk + whole[at + len(junk):], "cut": whole[:at],
                "splice": whole[:at] + junk + whole[at:], "remove": whole[:at] + whole[at + 64 * len(junk):]}[kind]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            found = check_pdf(Path("damaged.pdf"), dtc, data)
        unreadable = [p for p in found.problems if p.code == "unreadable"]
        assert found.pages > 0 or unreadable
        for problem in unreadable:
            assert found.problems == [problem] and problem.message.startswith("is not a PDF that can be read (")
            assert "BytesIO" not in problem.message and "<" not in problem.message, problem.message
        for problem in found.problems:
            assert "BytesIO" not in problem.message, problem.message

    run()


# ── the services file ──────────────────────────────────────────────────────
SERVICE_BREAKS = {
    "unknown-key": Break("drivethrucards:", "    safe: 3.175\n", "    safe: 3.175\n    colour: cmyk\n", "unknown-key",
                         "unknown key 'colour' in service 'drivethrucards'", "colour: cmyk", "colour"),
    "condition": Break("drivethrucards:", "condition: swop-240", "condition: swop240", "value",
                       "'condition' names an unknown printing condition 'swop240'; did you mean 'swop-240'? (conditions: swop-240, gracol-320)",
                       "condition: swop240", "swop240"),
    "profile": Break("swop-240:", "icc/ppgen-swop-tr003-240.icc", "icc/swop.icc", "value",
                     "'profile' names icc/swop.icc, which is not in templates/ (an ICC output profile, e.g. icc/ppgen-swop-tr003-240.icc)",
                     "profile: icc/swop.icc", "icc/swop.icc"),
    "order": Break("makeplayingcards:", "order: faces", "order: front-back", "value",
                   "'order: faces' (one picture per face) goes with 'file: png', and only there", "order: front-back", "front-back"),
    "size": Break("drivethrucards:", "[poker, bridge, tarot, mini]", "[poker, jumbo]", "value",
                  "'sizes' names an unknown card size 'jumbo' (sizes: build, poker, bridge, mini, tarot)", "sizes: [poker, jumbo]", "[poker"),
}


@pytest.mark.parametrize("name", list(SERVICE_BREAKS))
def test_services_file_problems_have_file_line_col(game_copy, name):
    expected = SERVICE_BREAKS[name].apply(game_copy / "templates" / "services.yaml", "templates/services.yaml")
    result = call_ppgen("build", "--for", "drivethrucards", "--out", game_copy / "out", root=game_copy)
    assert_clean_error(result, expected)


# ── colour separation ──────────────────────────────────────────────────────
@pytest.fixture(scope="module")
def swop():
    from ppgen.write.separation import Separation

    return Separation((ROOT / "templates" / "icc" / "ppgen-swop-tr003-240.icc").read_bytes(), 240)


def test_greys_become_black_ink_and_ink_is_capped(swop):
    from reportlab.lib.colors import HexColor

    from ppgen.write.separation import cap_ink

    assert swop.cmyk(0, 0, 0) == (0, 0, 0, 1.0) and swop.cmyk(1, 1, 1) == (0, 0, 0, 0.0)
    c, m, y, k = swop.cmyk(0.5, 0.5, 0.5)
    assert (c, m, y) == (0, 0, 0) and 0.45 < k < 0.75  # mid grey: black ink alone, dot gain allowed for
    dark = swop.colour(HexColor("#1E1912"))  # the template's near-black ink: rich, under the cap
    assert dark.cyan + dark.magenta + dark.yellow + dark.black <= 2.4 + 1e-9 and dark.black > 0.8
    red = swop.colour(HexColor("#B02024"))
    assert red.magenta > 0.8 and red.yellow > 0.6 and red.cyan < 0.1  # a red stays red
    assert cap_ink((1, 1, 1, 1), 2.4) == (0.4667, 0.4667, 0.4667, 1)
    assert cap_ink((0.2, 0.3, 0.1, 0.5), 2.4) == (0.2, 0.3, 0.1, 0.5)


def test_pictures_are_separated_and_capped(swop):
    from PIL import ImageMath

    im = Image.new("RGB", (64, 64), (5, 0, 10))
    im.paste((200, 30, 40), (0, 0, 32, 64))
    rgba = im.convert("RGBA")
    rgba.putalpha(Image.new("L", im.size, 128))
    for picture in (im, rgba):
        out = swop.picture(picture)
        assert out.mode == "CMYK" and out.size == im.size
        c, m, y, k = out.split()
        total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
        assert total.getextrema()[1] <= 240 * 255 / 100 + 1


def _pdf_with(tmp_path, name: str, content: bytes, resources=lambda pdf: {}) -> Path:
    """A one-page PDF (200 × 100 pt) drawing `content` with `resources(pdf)`, written by pikepdf."""
    import pikepdf

    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(200, 100))
    page.obj.Resources = pikepdf.Dictionary(**resources(pdf))
    page.obj.Contents = pdf.make_stream(content)
    pdf.save(tmp_path / name)
    return tmp_path / name


def test_a_cmyk_image_over_the_total_ink_is_found(dtc, tmp_path):
    """The total ink of a CMYK picture is read from its pixels after the scan: 400 % (every ink
    full) is over DriveThruCards' 240 %. (The pixels were read from a file already closed, the
    check skipped without a word: no problem found.)"""
    import pikepdf

    from ppgen.press.preflight import check_pdf

    def image(pdf):
        return {"XObject": pikepdf.Dictionary(Im1=pikepdf.Stream(
            pdf, b"\xff" * 16, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2, Height=2,
            ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8))}

    path = _pdf_with(tmp_path, "ink.pdf", b"q 100 0 0 50 50 25 cm /Im1 Do Q", image)
    found = [(p.page, p.code, p.message) for p in check_pdf(path, dtc).problems if p.code == "total-ink"]
    assert found and found[0][0] == 1 and "400 %" in found[0][2], found


def test_a_damaged_file_is_read_as_far_as_it_goes_and_said_to_be_damaged(dtc, tmp_path):
    """Line endings converted (its cross-reference table then points beside its objects: viewers
    and qpdf repair it) or a page's content broken off inside a picture: the pages are still
    checked, and one `damaged` problem says so in qpdf's words; a stray number left at the end
    of a page's content draws nothing and is no damage."""
    from reportlab.pdfgen.canvas import Canvas

    from ppgen.press.preflight import check_pdf

    canvas = Canvas(str(tmp_path / "lf.pdf"), pagesize=(200, 100), invariant=1, pageCompression=0)
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(10, 10, 50, 50, fill=1)
    canvas.save()
    (tmp_path / "crlf.pdf").write_bytes((tmp_path / "lf.pdf").read_bytes().replace(b"\n", b"\r\n"))
    cut = _pdf_with(tmp_path, "cut.pdf", b"q 10 0 0 10 0 0 cm BI /W 2 /H 1 /CS /RGB /BPC 8 ID \x00\x00")
    stray = _pdf_with(tmp_path, "stray.pdf", b"0 0 1 rg 10 10 50 50 re f 0")
    for path in (tmp_path / "crlf.pdf", cut):
        result = check_pdf(path, dtc)
        codes = [p.code for p in result.problems]
        assert result.pages == 1 and codes.count("damaged") == 1 and "unreadable" not in codes, result.problems
        damaged = next(p for p in result.problems if p.code == "damaged")
        assert damaged.page is None and "BytesIO" not in damaged.message and "export it again" in damaged.message, damaged.message
    assert "rgb-colour" in [p.code for p in check_pdf(tmp_path / "crlf.pdf", dtc).problems]  # its page was read
    codes = [p.code for p in check_pdf(stray, dtc).problems]
    assert "damaged" not in codes and "unreadable" not in codes and "rgb-colour" in codes, codes


def test_odd_but_readable_pdfs_are_checked_not_a_crash_or_a_hang(dtc, tmp_path):
    """Other tools' PDFs the scan must get through: a colour space that names itself (an
    Indexed space over its own name: an "internal error" before), and a CID font whose widths
    give one width to CIDs 0 to 300 million (the preflight ran on for ever)."""
    import pikepdf

    from ppgen.press.preflight import check_pdf

    def named_itself(pdf):
        return {"ColorSpace": pikepdf.Dictionary(CS0=pikepdf.Array([pikepdf.Name.Indexed, pikepdf.Name.CS0, 1, pikepdf.String(b"\0" * 6)]))}

    def wide_cid_font(pdf):
        descendant = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2, BaseFont=pikepdf.Name("/Odd"),
                                        W=pikepdf.Array([0, 300_000_000, 500]))
        font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name("/Odd"),
                                  Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=pikepdf.Array([pdf.make_indirect(descendant)]))
        return {"Font": pikepdf.Dictionary(F1=pdf.make_indirect(font))}

    itself = _pdf_with(tmp_path, "itself.pdf", b"/CS0 cs 0 sc 10 10 50 50 re f", named_itself)
    wide = _pdf_with(tmp_path, "wide.pdf", b"BT /F1 10 Tf 20 20 Td <00010002> Tj ET", wide_cid_font)
    for path in (itself, wide):
        result = check_pdf(path, dtc)
        assert result.pages == 1 and "unreadable" not in [p.code for p in result.problems], result.problems
    shown = [p for p in check_pdf(wide, dtc).problems if p.code == "font-not-embedded"]
    assert shown and "Odd" in shown[0].message  # its text was measured: the font counts as showing text


def test_the_scan_tells_fonts_apart_that_are_written_in_place(tmp_path):
    """Two fonts written into the page's resources in place (not objects of their own, which the
    PDF format allows): each is its own font, with its own widths — a preflight of someone else's
    PDF names both, and measures each text by its own font."""
    import pikepdf

    from ppgen.press.scan import scan_pdf

    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(200, 100))
    narrow = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/Narrow"),
                                FirstChar=65, LastChar=65, Widths=[250])
    wide = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/Wide"),
                              FirstChar=65, LastChar=65, Widths=[1000])
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=narrow, F2=wide))
    page.obj.Contents = pdf.make_stream(b"BT /F1 10 Tf 10 10 Td (AAAA) Tj ET BT /F2 10 Tf 10 50 Td (AAAA) Tj ET")
    pdf.save(tmp_path / "direct.pdf")
    scanned = scan_pdf(tmp_path / "direct.pdf").pages[0]
    assert set(scanned.fonts) == {"Narrow", "Wide"}
    widths = {t.font: round(t.box[2] - t.box[0], 3) for t in scanned.text}
    assert widths == {"Narrow": 10.0, "Wide": 40.0}  # four A's of 250 and of 1000 thousandths at 10 pt


def test_the_cmyk_canvas_separates_greys_gradients_and_pictures(project, swop, tmp_path):
    """Whatever a drawing calls — a grey, RGB, a gradient, an RGB picture — lands in CMYK."""
    from reportlab.lib.colors import Color
    from reportlab.lib.utils import ImageReader

    from ppgen.press.scan import scan_pdf
    from ppgen.write.pdf import Document

    doc = Document(project.fonts.chain("en", "body").primary, "t", separation=swop, opaque=True)
    c = doc.canvas
    doc.begin_page(200, 200, (10, 10, 190, 190), (0, 0, 200, 200))
    c.setFillGray(0.4)
    c.setStrokeColorRGB(0, 0.5, 1)
    c.rect(20, 20, 50, 50, fill=1, stroke=1)
    c.linearGradient(0, 0, 200, 0, [Color(1, 0, 0), Color(0, 0, 1)])
    c.drawImage(ImageReader(Image.new("RGB", (300, 300), (0, 120, 255))), 100, 100, 72, 72)
    c.setFillColor(Color(0, 1, 0, alpha=0.5))  # PDF/X-1a: printed opaque, counted
    c.drawString(30, 150, "Hastati")
    doc.end_page()
    (tmp_path / "c.pdf").write_bytes(doc.data())
    page = scan_pdf(tmp_path / "c.pdf").pages[0]
    assert {kind for kind, _ in page.colours} == {"cmyk"}, page.colours
    assert [i.space for i in page.images] == ["cmyk"] and not page.transparency
    assert c.transparency_dropped == 1
    assert b"/DeviceRGB" not in (tmp_path / "c.pdf").read_bytes()


def test_a_library_quieted_once_it_has_logged_says_nothing(caplog):
    """read/quiet.py silenced() holds a logger that has already logged (Python's logging caches whether
    a level is shown: setting .level alone kept pypdf talking after its first message)."""
    import logging

    from ppgen.read.quiet import silenced

    log = logging.getLogger("ppgen-test-quiet")
    with caplog.at_level(logging.WARNING):
        log.warning("said before")
        with silenced("ppgen-test-quiet"):
            log.warning("never said")
        log.warning("said after")
    said = [r.getMessage() for r in caplog.records if r.name == "ppgen-test-quiet"]
    assert said == ["said before", "said after"]

