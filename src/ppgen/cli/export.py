"""`ppgen export png|tts|contact` and `ppgen preview`: card pictures for screens and print services."""
from __future__ import annotations

from pathlib import Path

import click

from . import PpgenGroup, main_group
from .options import deck_options, faction_option, force_needs_deck, not_a_game_file, output_options, show_warnings
from .ui import plural


@main_group.group("export", cls=PpgenGroup)
def export_group():
    """Card pictures for screens and print services, rendered from the PDF drawing.

    \b
    Examples:
      ppgen export png --lang ja --bleed        print-service PNGs: out/ja/png-bleed/ROM-01.png … back.png
      ppgen export tts --lang en                Tabletop Simulator sheets per starter deck
      ppgen export contact --lang ko -f rome    every Rome card on one picture, to proofread
    """


@export_group.command("png")
@output_options
@click.option("--card-size", default="poker", show_default=True, metavar="SIZE",
              help="poker (2.5 × 3.5 in), bridge (2.25 × 3.5 in), mini (1.75 × 2.5 in), tarot (2.75 × 4.75 in), or WxH in mm, e.g. 63x88.")
@click.option("--dpi", type=float, default=300, show_default=True, help="Resolution (not 300: the folder says it, e.g. png-600dpi).")
@click.option("--bleed", metavar="[MM]", is_flag=False, flag_value="3.175", default=None,
              help="Add bleed around every card: 1/8 in (3.175 mm) alone, or MM millimetres; written to OUT/LANG/png-bleed/ (png-bleed-3mm/ …), beside the plain pictures.")
@faction_option
@deck_options
@click.option("--for", "service_key", metavar="SERVICE",
              help="Pictures exactly as this service asks (size, bleed, dpi), per deck, with upload.txt, preflighted: "
                   "thegamecrafter, makeplayingcards, printerstudio.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Worker processes rendering at once (default: one per CPU core).")
@click.pass_obj
def png_command(ui, lang, out, card_size, dpi, bleed, factions, deck_path, force, service_key, jobs):
    """One PNG per distinct card face, named by collector code, and one of the
    card back, at print-service sizes: OUT/LANG/png/ROM-01.png … back.png.
    Each variant has a folder of its own: png-bleed/ with --bleed, png-bleed-3mm/
    with --bleed 3, png-bridge/, png-600dpi/, so no variant overwrites another.

    \b
    At 300 dpi a poker card is 750 × 1050 px, and 825 × 1125 px with --bleed
    (1/8 in on every side), as The Game Crafter and other services ask. The
    card is laid out for the size the service cuts (2.5 × 3.5 in is 63.5 ×
    88.9 mm); --card-size 63x88 renders the home-print card exactly.
    Every picture is rendered from the same drawing as the PDF.

    \b
    Examples:
      ppgen export png --lang ja                  out/ja/png/: 141 fronts + back.png, 750 × 1050 px
      ppgen export png --lang all --bleed         out/LANG/png-bleed/: 825 × 1125 px, every language
      ppgen export png --bleed 3 --dpi 600        out/en/png-bleed-3mm-600dpi/
      ppgen export png --card-size 63x88 -f rome  out/en/png-63x88/: the 63 × 88 mm card, Rome only
      ppgen export png --for makeplayingcards     out/en/makeplayingcards/starter-rome/ … 822 × 1122 px
      ppgen export png --for thegamecrafter --deck my-deck.txt   a decklist's pictures (--deck goes with --for)
    """
    from ..export import card_image, export_png, png_folder
    from ..export.raster import default_jobs

    force_needs_deck(force, deck_path)
    if service_key:
        from .press import build_for

        if bleed is not None or dpi != 300:
            raise click.UsageError(f"--for {service_key} sets the bleed and resolution the service asks for: leave out --bleed and --dpi")
        build_for(ui, service_key, None, lang=lang, out=out, card_size=None if card_size == "poker" else card_size, bleed=None,
                  factions=factions, deck_path=deck_path, force=force, want="png")
        return
    if deck_path:
        raise click.UsageError("--deck goes with --for SERVICE (a deck's pictures for a print service)")

    project, options = _load(ui, lang, out, factions)
    bleed_mm = _parse_bleed(bleed)
    bleed_mm = bleed_mm if bleed_mm is not None else 0.0
    image = card_image(card_size, bleed_mm, dpi)
    cards = [c for c in project.game.cards if not options.factions or c.faction in options.factions]
    ui.info(f"{len(cards)} cards + back, {image.label}")
    total = _each_language(ui, options, png_folder(card_size, bleed_mm, dpi), "rendering",
                           lambda lang, folder, progress: export_png(project, lang, folder, image, cards,
                                                                     jobs=jobs or default_jobs(), progress=progress))
    _finish(ui, project, total, f"{image.size.width} × {image.size.height} px")


def _web_address(value: str | None) -> str | None:
    """--base-url: a web address Tabletop Simulator can load pictures from (it took "example.org/ad"
    and wrote FaceURLs that no table could load)."""
    if value is not None and not value.lower().startswith(("http://", "https://", "file://")):
        raise click.BadParameter(f"'{value}' is not a web address: start it with https:// (or http://), "
                                 "where the uploaded pictures can be loaded from (file:/// for a folder on the table's computer)")
    odd = next((ch for ch in (value or "") if ch in "?# " or ch.isspace()), None)
    if odd is not None:  # each picture's name is put after it: "…/a d?x=1#f/starter-rome-en-1.png" loads nothing
        what = {"?": "a query", "#": "a fragment"}.get(odd, "a space")
        raise click.BadParameter(f"'{value}' has {what} ('{odd}'): the pictures' names are added after the address, "
                                 "so it must end with the folder they were uploaded to (spaces written %20)")
    return value


@export_group.command("tts")
@output_options
@faction_option
@deck_options
@click.option("--base-url", metavar="URL", callback=lambda ctx, param, value: _web_address(value),
              help="Where you will upload the images (https://…); the saved object's image URLs start with it (default: file:/// paths to the files written).")
@click.pass_obj
def tts_command(ui, lang, out, factions, deck_path, force, base_url):
    """Tabletop Simulator deck sheets: per deck, sheets of at most 10 × 7 cards
    within 4096 × 4096 px, a back image, sheets.json (which card sits in which
    cell of which sheet) and a ready TTS saved object, in OUT/LANG/tts/DECK/.

    \b
    One set per starter deck (or --faction), or for --deck FILE. The last cell
    of every sheet holds the card back: TTS shows it for cards in a hidden
    hand. Copy DECK-LANG.json into "Tabletop Simulator/Saves/Saved Objects";
    for multiplayer, upload the PNGs and pass --base-url with their address.

    \b
    Examples:
      ppgen export tts --lang en                    seven starter decks
      ppgen export tts --lang ja -f rome -f sparta
      ppgen export tts --deck my-deck.txt --lang ko
      ppgen export tts --base-url https://example.org/ad/tts/starter-rome
    """
    from ..export import export_tts

    force_needs_deck(force, deck_path)
    if deck_path and factions:
        raise click.UsageError("--deck and --faction cannot be combined: the decklist says which cards to export")
    project, options = _load(ui, lang, out, factions)
    card_mm = (options.card_size.width, options.card_size.height)
    if deck_path:
        from .build import checked_deck

        cards, name, _ = checked_deck(ui, project, deck_path, options.langs[0], force)
        decks = [(name, cards, None)]
    else:
        decks = [(f"starter-{f}", project.game.starter_deck(f), f) for f in (options.factions or project.game.factions)]
    total = _Total()
    for lang in options.langs:
        for name, cards, faction in decks:
            title = project.locale(lang).get(f"faction.{faction}") if faction else name
            folder = options.out / lang / "tts" / name
            result = export_tts(project, lang, name, title, cards, folder, card_mm, base_url,
                                progress=lambda d, t, what=f"{lang}: {name}": ui.progress(d, t, what))
            ui.end_progress()
            total.add(result, folder)
    _finish(ui, project, total, plural(len(decks) * len(options.langs), "deck"))


@export_group.command("contact")
@output_options
@faction_option
@click.option("--dpi", type=float, default=150, show_default=True, help="Resolution of the cards on the sheet.")
@click.pass_obj
def contact_command(ui, lang, out, factions, dpi):
    """Contact sheets for proofreading: every card of a faction on one picture,
    with collector codes and copies, OUT/LANG/contact/contact-FACTION-LANG.png.

    \b
    Cards keep their proportions at 150 dpi (legible on a screen), five to a
    row; one picture per faction (default: every faction).

    \b
    Examples:
      ppgen export contact --lang ja -f rome
      ppgen export contact --lang all            7 factions × 4 languages
    """
    from ..export import export_contact

    project, options = _load(ui, lang, out, factions)
    card_mm = (options.card_size.width, options.card_size.height)
    chosen = list(options.factions or project.game.factions)
    total = _each_language(ui, options, "contact", "contact sheets",
                           lambda lang, folder, progress: export_contact(project, lang, chosen, folder, card_mm, dpi,
                                                                         progress=progress))
    _finish(ui, project, total, plural(len(chosen), "faction"))


@main_group.command("preview")
@click.argument("card", nargs=-1, required=True)
@click.option("--lang", "-l", help="Language of the card (default: the source language).")
@click.option("--dpi", type=float, default=300, show_default=True, help="Resolution.")
@click.option("--out", "-o", type=click.Path(), help="A .png file, or a folder (default: OUT/LANG/preview/CODE.png).")
@click.pass_obj
def preview_command(ui, card, lang, dpi, out):
    """Render one card to a PNG and print its path: the quickest way to see an edit.

    CARD is the card's name in any language (quotes around a name with spaces
    are optional), its collector code or its id.
    The card is laid out at the build's card size, exactly as the PDF prints it;
    warnings (a text in English because a translation is missing, a text that
    does not fit) are shown.

    \b
    Examples:
      ppgen preview ROM-01 --lang ja
      ppgen preview "Hastati Line"
      ppgen preview 로마 가도 --lang ko
      open "$(ppgen preview テストゥド --lang ja)"     macOS: show it
    """
    from ..export import preview
    from ..project import load
    from ..write.build import BuildOptions

    if out and Path(out).suffix and Path(out).suffix.lower() != ".png" and not Path(out).is_dir():  # (x.jpg became a folder of that name)
        raise click.BadParameter(f"{out}: a preview is a PNG: name the file .png, or give a folder", param_hint="--out")
    project = load(ui.root)
    if out and Path(out).suffix.lower() == ".png":
        not_a_game_file(project, out, "--out")  # (art/hastati-line.png is the card's own picture)
    options = BuildOptions.resolve(project, lang=lang)
    if len(options.langs) != 1:
        raise click.UsageError("--lang: preview takes one language")
    lang = options.langs[0]
    target = Path(out) if out else options.out / lang / "preview"
    found, path, result = preview(project, " ".join(card), lang, target, (options.card_size.width, options.card_size.height), dpi)
    show_warnings(ui, result.report, project)
    click.echo(str(path.resolve()))
    ui.summary(f"{found.code} {project.card_name(found, lang)} → {project.dir.show(path)}")


# ── shared ──────────────────────────────────────────────────────────────────
def _load(ui, lang, out, factions):
    """The project and the build's view of --lang, --out, --faction and the card size."""
    from ..project import load
    from ..write.build import BuildOptions

    project = load(ui.root)
    return project, BuildOptions.resolve(project, lang=lang, out=out, factions=factions)


def _parse_bleed(value) -> float | None:
    if value is None:
        return None
    try:
        return float(str(value).strip().removesuffix("mm").strip())
    except ValueError:
        raise click.UsageError(f"--bleed: '{value}' is not a length in mm (e.g. 3, or --bleed alone for 1/8 in)") from None


class _Total:
    """Everything an export wrote, over languages and decks."""

    def __init__(self):
        from ..export import ExportResult

        self.result = ExportResult()
        self.folders: list[Path] = []

    def add(self, result, folder: Path) -> None:
        self.result.add(result)
        self.folders.append(folder)


def _each_language(ui, options, subfolder: str, what: str, export) -> _Total:
    """`export(lang, folder, progress)` for every chosen language, into OUT/LANG/SUBFOLDER,
    with progress shown as "LANG: WHAT"."""
    total = _Total()
    for lang in options.langs:
        folder = options.out / lang / subfolder
        result = export(lang, folder, lambda d, t, lang=lang: ui.progress(d, t, f"{lang}: {what}"))
        ui.end_progress()
        total.add(result, folder)
    return total


def _finish(ui, project, total: _Total, what: str) -> None:
    show_warnings(ui, total.result.report, project)
    folders = total.folders
    if len(folders) == 1:
        where = project.dir.show(folders[0])
    elif len(folders) <= 4:
        where = f"{len(folders)} folders: {', '.join(project.dir.show(f) for f in folders)}"
    else:
        where = f"{len(folders)} folders under {project.dir.show(_common(folders))}"
    n = total.result.images
    ui.summary(f"wrote {plural(n, 'PNG')} ({what}, {total.result.bytes / 1e6:.1f} MB) in {where}")


def _common(folders: list[Path]) -> Path:
    import os

    return Path(os.path.commonpath([str(f) for f in folders]))
