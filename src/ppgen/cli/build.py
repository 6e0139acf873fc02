"""`ppgen build`: card sheets as print-ready PDFs, one folder per language."""
from __future__ import annotations

import sys

import click

from ..units import DUPLEX_EDGES, LAYOUTS, MAT_SIZES, PAPERS, RULEBOOK_FORMS
from . import main_group
from .options import OutputFile, _apply, deck_options, faction_option, force_needs_deck, not_a_game_file, output_options, show_warnings
from .ui import plural

BESIDE_PARTS = ("cut-file", "print-image")  # files a build writes beside the card sheets' PDF (write/build.py BESIDE)


def sheet_options(f):
    """--lang, --out and the paper and duplex options `build` and `calibrate` share."""
    return output_options(_apply(f, [
        click.option("--paper", type=click.Choice(list(PAPERS), case_sensitive=False), help="Paper size (default a4)."),
        click.option("--duplex", type=click.Choice(list(DUPLEX_EDGES)), help="The edge your printer flips the sheet on (default long)."),
        click.option("--back-offset", metavar="X,Y", help="Shift back pages by X mm right and Y mm up, as seen on the back; read it from `ppgen calibrate`."),
    ]))


def card_options(f):
    """--card-size, --bleed, --gutter and --layout: how the cards sit on the sheets (`build`, `errata`)."""
    return _apply(f, [
        click.option("--card-size", metavar="SIZE", help="poker (63 × 88 mm, default), bridge, mini, tarot, or WxH in mm, e.g. 63x88."),
        click.option("--bleed", metavar="MM", help="Bleed printed around every card, in mm (e.g. 3); cards move apart to make room."),
        click.option("--gutter", metavar="MM", help="Extra space between neighbouring cards, in mm."),
        click.option("--layout", type=click.Choice(list(LAYOUTS)), help="duplex: front page then back page (default); foldover: fronts and backs side by side, fold and glue; fronts-only; print-and-cut: for a cutting machine (--cutter)."),
    ])


def cutter_options(f):
    """--cutter, --cut-file and --corner-radius: print-and-cut card sheets (`build`, `errata`)."""
    return _apply(f, [
        click.option("--cutter", metavar="MACHINE", help="print-and-cut for this cutting machine: silhouette, cricut or scanncut (templates/cutters.yaml); implies --layout print-and-cut. cricut: per sheet side a PNG and an SVG to upload to Design Space (Print Then Cut)."),
        click.option("--cut-file", metavar="FORMAT", help="print-and-cut: also write a DXF cut file per sheet side (dxf); an SVG is always written."),
        click.option("--corner-radius", metavar="MM", help="print-and-cut: the cut outlines' rounded corners in mm (default 3; 0 = square)."),
    ])


@main_group.command("build")
@sheet_options
@card_options
@cutter_options
@click.option("--back", metavar="NAME", help="The card back: a variant of templates/card.yaml `backs:` (dark, the default; light saves ink).")
@click.option("--printable-margin", metavar="MM", help="Nothing is printed this near the paper edge, in mm (default 5; raise it if your printer needs more).")
@click.option("--rulebook", "rulebook", type=click.Choice(list(RULEBOOK_FORMS)), help="pages: the paper's size (default); booklet: A5 pages two-up on landscape A4 (half-Letter on Letter), to fold and staple.")
@faction_option
@deck_options
@click.option("--for", "service_key", metavar="SERVICE",
              help="Files exactly as a print service asks: print-shop (PDF/X-4, one face per page, 3 mm bleed), drivethrucards "
                   "(PDF/X-1a, one PDF per deck), thegamecrafter, makeplayingcards, printerstudio (a PNG per face); preflighted, "
                   "with what to upload (templates/services.yaml).")
@click.option("--pdfx", type=click.Choice(("x1a", "x4")), help="With --for print-shop (alone, it implies it): PDF/X-1a:2001 or PDF/X-4 (default).")
@click.option("--parts", metavar="LIST", help="Parts to build, comma-separated: rulebook, mats, score-sheet, cards, boxes (default: all but boxes; with --deck or --faction: cards).")
@click.option("--mat", "mat", type=click.Choice(list(MAT_SIZES)), help="standard: the player mat on your paper — one sheet if it fits, else two sheets to glue together (default); large: one A3 sheet (Tabloid with --paper letter).")
@click.option("--sleeves/--unsleeved", default=None, help="--sleeves: tuck boxes with room for sleeved cards (+3 mm, 0.1 mm a sleeve). --unsleeved: mat zones sized for bare cards. Default: mat zones fit sleeved cards (67 × 92 mm for poker), boxes bare ones.")
@click.option("--card-thickness", metavar="MM", help="Tuck boxes: the thickness of one card in mm (default 0.3).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Parts (with --for, a print shop's decks) drawn at once, in parallel processes (default: one per CPU core; 1: all in this process).")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on any warning, and do not write that language's PDF.")
@click.option("--report-json", type=OutputFile("report.json"), help="Also write every warning and file written as JSON to this file.")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Draw every language afresh, even when nothing it is drawn from changed since the last build into OUT.")
@click.pass_obj
def build_command(ui, lang, out, paper, duplex, back_offset, card_size, bleed, gutter, layout, cutter, cut_file, corner_radius,
                  back, printable_margin, rulebook, factions, deck_path, force, service_key, pdfx, parts, mat, sleeves, card_thickness,
                  jobs, strict, report_json, no_cache):
    """Build the print-and-play set: rulebook, two player mats, score sheet and
    the card sheets (every card of the seven starter decks, repeated for its
    copies: 280 cards, fronts and backs), ready to print and cut.

    Writes OUT/LANG/ancient-duel-LANG.pdf (everything, with bookmarks) and each
    part alone: rulebook-LANG.pdf, mats-LANG.pdf, score-sheet-LANG.pdf,
    cards-LANG.pdf. With --faction or --deck only the cards are built, unless
    --parts says otherwise. Print at 100 % (actual size); cut along the crop
    marks. Unset options come from the `build:` section of ppgen.yaml.

    A language whose inputs (cards.yaml, ppgen.yaml, its locale and the English
    one, templates/, fonts/, art/, the options, ppgen itself) have not changed
    since the last build into OUT is not drawn again: its files are kept
    (records in OUT/.ppgen-cache/; --no-cache draws everything afresh).

    \b
    Examples:
      ppgen build --lang ja                     everything; cards 9 per A4 page, duplex
      ppgen build --lang all --paper letter
      ppgen build --lang ja --no-cache          draw again, even if nothing changed
      ppgen build --lang en --faction rome --faction sparta
      ppgen build --lang ko --layout foldover   no duplex printer needed
      ppgen build --deck my-deck.txt --lang ja  a decklist, validated first, printed in Japanese
      ppgen build --bleed 3 --card-size bridge
      ppgen build --back light                  ink-saving card backs
      ppgen build --rulebook booklet            the rulebook as an A5 booklet: duplex, short edge, fold, staple
      ppgen build --mat large                   each player mat on one A3 sheet instead of two A4 ones
      ppgen build --unsleeved                   mat zones for cards without sleeves
      ppgen build --back-offset 1.5,-0.5       after reading `ppgen calibrate`
      ppgen build --lang all --strict --report-json out/report.json
      ppgen build --lang ko --parts rulebook,mats
      ppgen build --cutter silhouette           print and cut: registration marks, an SVG per sheet side
      ppgen build --cutter cricut --faction rome  pictures (PNG) and cut files to upload to Cricut Design Space
      ppgen build --cutter scanncut --cut-file dxf --corner-radius 0
      ppgen build --parts boxes --lang ja       a tuck box for each starter deck
      ppgen build --deck my-deck.txt --parts cards,boxes --sleeves
      ppgen build --for print-shop --bleed 3    PDF/X-4, CMYK: one PDF per starter deck, one face per page
      ppgen build --for drivethrucards -f rome  PDF/X-1a:2001 (SWOP, ink ≤ 240 %), preflighted
      ppgen build --for thegamecrafter --deck my-deck.txt   825 × 1125 px PNGs and upload.txt
    """
    from ..project import load

    force_needs_deck(force, deck_path)
    if service_key or pdfx:
        from .press import build_for

        given = {"--no-cache": no_cache or None, "--paper": paper, "--duplex": duplex, "--back-offset": back_offset, "--gutter": gutter, "--layout": layout,
                 "--cutter": cutter, "--cut-file": cut_file, "--corner-radius": corner_radius, "--parts": parts,
                 "--sleeves": sleeves, "--card-thickness": card_thickness, "--strict": strict or None, "--report-json": report_json,
                 "--printable-margin": printable_margin, "--rulebook": rulebook}
        for option, value in given.items():
            if value is not None:
                raise click.UsageError(f"{option} is for home printing; --for {service_key or 'print-shop'} makes what the service asks for")
        build_for(ui, service_key, pdfx, lang=lang, out=out, card_size=card_size, bleed=bleed, factions=factions,
                  deck_path=deck_path, force=force, back=back, jobs=jobs)
        return
    from ..write.build import BuildOptions, build

    project = load(ui.root)
    if report_json:
        not_a_game_file(project, report_json, "--report-json")
    options = BuildOptions.resolve(
        project, lang=lang, out=out, paper=paper, card_size=card_size, bleed=bleed, gutter=gutter, duplex=duplex,
        back_offset=back_offset, layout=layout, back=back, printable_margin=printable_margin, rulebook=rulebook,
        factions=factions, strict=strict, parts=parts, jobs=jobs,
        cards_only=bool(deck_path), cutter=cutter, cut_file=cut_file, corner_radius=corner_radius,
        card_thickness=card_thickness, sleeves=sleeves, mat=mat,
    )
    cards, name, box_deck = (None, None, None)
    if deck_path:
        if factions:
            raise click.UsageError("--deck and --faction cannot be combined: the decklist says which cards to print")
        cards, name, box_deck = checked_deck(ui, project, deck_path, options.langs[0], force)
    if "cards" in options.parts:
        back = f"; {options.back} card backs" if options.back and options.sheet_layout.layout != "fronts-only" else ""
        ui.info(options.sheet_layout.describe() + back)
    if "rulebook" in options.parts and options.rulebook == "booklet":
        page = "A5" if options.paper.key == "a4" else "half-Letter"
        ui.info(f"rulebook: a booklet, {page} pages two to a landscape {options.paper.name} sheet, in rulebook-booklet-LANG.pdf "
                "(not in the set): print it double-sided, flip on short edge, fold and staple")
    result = build(project, options, cards=cards, name=name, progress=ui.progress, box_deck=box_deck, reuse=not no_cache)
    ui.end_progress()
    layout = options.sheet_layout if "cards" in options.parts else None
    note = f"{layout.per_page} cards per page: {layout.grid_note}" if layout and layout.grid_note else ""
    finish(ui, project, result, report_json, what="file", note=note)


def checked_deck(ui, project, path, lang: str, force: bool):
    """Load and validate a decklist; an illegal deck stops the build (exit 1) unless --force.
    Returns (card, count) pairs, the file stem (output names) and the deck for its tuck box."""
    from pathlib import Path

    from ..decks import load_deck, report_lines, validate
    from ..draw.tuckbox import BoxDeck

    deck = load_deck(project, Path(path))
    report = validate(project, deck)
    if not report.legal:
        for line in report_lines(report, project, lang):
            click.echo(line, err=True)
        if not force:
            ui.summary(f"{project.dir.show(Path(path))} is not a legal deck; nothing was printed (use --force to print it anyway)", ok=False)
            sys.exit(1)
        ui.warn(f"{project.dir.show(Path(path))} is not a legal deck; printing it anyway (--force)")
    card_list = deck.card_list(project.game)
    faction = report.primary or max(project.game.factions, key=lambda f: sum(n for c, n in card_list if c.faction == f))
    return card_list, Path(path).stem, BoxDeck(deck.name or Path(path).stem, faction, tuple(card_list))


def finish(ui, project, result, report_json, what: str, note: str = "") -> None:
    """Show warnings and files, write the JSON report, end with the one-line summary (and `note`,
    e.g. why the grid holds fewer cards); exit 1 when --strict refused a file."""
    show_warnings(ui, result.report, project)
    if report_json:
        not_a_game_file(project, report_json, "--report-json", [f.path for f in result.written])
        result.report.write_json(report_json, [f.as_dict(project.dir.show(f.path)) for f in result.files])
    written, refused = result.written, result.refused
    cut = [f for f in written if f.part == "cut-file"]
    images = [f for f in written if f.part == "print-image"]
    written = [f for f in written if f.part not in BESIDE_PARTS]
    for f in written:
        cards = f", {f.cards} cards" if f.cards else ""
        ui.info(f"  {project.dir.show(f.path)}: {plural(f.pages, 'page')}{cards}, {f.bytes / 1e6:.1f} MB")
    for folder in dict.fromkeys(f.path.parent for f in cut):
        here = [f for f in cut if f.path.parent == folder]
        kinds = "/".join(sorted({f.path.suffix[1:].upper() for f in here}, reverse=True))
        pictures = [f for f in images if f.path.parent == folder]
        upload = f"{plural(len(pictures), 'picture')} (PNG) to upload and " if pictures else ""
        ui.info(f"  {project.dir.show(folder)}/: {upload}{plural(len(here), 'cut file')} ({kinds}), one per printed side, beside the card sheets")
    for f in (f for f in refused if f.part not in BESIDE_PARTS):  # its cut files and pictures go unwritten with it
        n = len(result.report.failing(f.lang))
        ui.error(f"--strict: {f.lang} has {plural(n, 'warning')}; {project.dir.show(f.path)} was not written")
    if not written:  # ("no file written": --strict refused every language; it said "no card sheets" of a rulebook's build)
        ui.summary(f"no {what} written", ok=False)
    else:
        every = [f.lang for f in written]
        unchanged = sorted({f.lang for f in written if f.kept}, key=every.index)
        counted = [f for f in written if not f.kept] or written  # what this build wrote (every language kept: what is there)
        images, cut = ([f for f in files if f.lang in {c.lang for c in counted}] for files in (images, cut))  # (theirs too)
        main = [f for f in counted if f.part == "set"] or counted  # the assembled sets, when there are
        langs = sorted({f.lang for f in counted}, key=every.index)
        where = project.dir.show(main[0].path) if len(main) == 1 else f"{len(main)} PDFs in {project.dir.show(main[0].path.parent.parent)}"
        extra = len(counted) - len(main)
        cards = sum(f.cards for f in main)
        verb = "up to date:" if len(unchanged) == len(set(every)) else "wrote"
        if unchanged:
            kept = "nothing changed since the last build (--no-cache draws it again)" if verb != "wrote" else f"{', '.join(unchanged)} unchanged, kept"
            note = "; ".join(filter(None, [kept, note]))
        ui.summary(f"{verb} {where}: {plural(sum(f.pages for f in main), 'page')}" + (f", {cards} cards" if cards else "")
                   + (f" (+{extra} part files)" if extra else "")
                   + (f", {plural(len(images), 'picture')}" if images else "") + (f" and {plural(len(cut), 'cut file')}" if cut else "")
                   + ("" if len(langs) < 2 else f"; {', '.join(langs)}") + (f"; {note}" if note else ""),
                   ok=not refused)
    if refused:
        sys.exit(1)
