"""`ppgen preflight`, and what `ppgen build --for` and `ppgen export png --for` run: files for a
print service, checked, with what to upload."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from . import main_group
from .options import show_warnings
from .ui import plural

SERVICES_HELP = "print-shop, drivethrucards, thegamecrafter, makeplayingcards, printerstudio (templates/services.yaml)"
PDFX_CHOICES = ("x1a", "x4")


def build_for(ui, service_key: str | None, pdfx: str | None, *, lang, out, card_size, bleed, factions, deck_path, force,
              back: str | None = None, want: str = "build", jobs: int | None = None) -> None:
    """Files for a print service (`--for`; `--pdfx` alone means --for print-shop): build them,
    preflight them, show the report and what to upload; exit 1 when the preflight fails."""
    from ..press.order import Order, decklist_deck, make, starter_decks
    from ..project import load
    from ..read.services import service
    from ..write.build import BuildOptions

    project = load(ui.root)
    chosen = service(project, service_key or "print-shop")
    if want == "png" and chosen.file != "png":
        raise click.UsageError(f"--for {chosen.key}: {chosen.name} takes a PDF, not pictures: run `ppgen build --for {chosen.key}`")
    options = BuildOptions.resolve(project, lang=lang, out=out, factions=factions, back=back)
    if deck_path:
        if factions:
            raise click.UsageError("--deck and --faction cannot be combined: the decklist says which cards to print")
        from .build import checked_deck

        cards, name, _ = checked_deck(ui, project, deck_path, options.langs[0], force)
        decks = [decklist_deck(name, cards)]
    else:
        decks = starter_decks(project, options.factions)
    order = Order.plan(project, chosen, options.langs, options.out, decks, card_size, bleed, pdfx, options.back)
    ui.info(order.describe())
    result = make(project, order, progress=ui.progress, jobs=jobs)
    ui.end_progress()
    show_warnings(ui, result.report, project)
    ui.info(f"preflight ({result.preflight.profile.describe()}):")
    for line in result.preflight.lines(project.dir.show):
        ui.info(f"  {line}")
    for note in result.notes:
        ui.warn(note)
    ui.info(f"To upload to {chosen.name}: {order.upload}:")
    for path in result.uploads:
        ui.info(f"  {project.dir.show(path)}{'/' if path.is_dir() else ''}")
    what = plural(len(result.uploads), "PDF" if chosen.file == "pdf" else "deck folder")
    if not result.preflight.passed:
        n = len(result.preflight.problems)
        ui.summary(f"wrote {what} for {chosen.name}; the preflight found {plural(n, 'problem')}: fix them before you upload", ok=False)
        sys.exit(1)
    ui.summary(f"wrote {what} for {chosen.name} ({result.bytes / 1e6:.1f} MB), preflight passed")


@main_group.command("preflight")
@click.argument("target", type=click.Path(exists=True))
@click.option("--for", "service_key", metavar="SERVICE", help=f"Check against what this service asks for: {SERVICES_HELP} (default print-shop).")
@click.option("--pdfx", type=click.Choice(PDFX_CHOICES), help="The PDF/X standard to check (default: the service's; print-shop: x4).")
@click.option("--bleed", metavar="MM", help="The bleed asked for, in mm (default: the service's).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_obj
def preflight_command(ui, target, service_key, pdfx, bleed, as_json):
    """Check a PDF (ours or anyone's), a picture, or every PDF or picture in a
    folder, against what a print service asks for, and list every problem with
    its page: RGB colour, images under the service's dpi, fonts not embedded,
    missing TrimBox or BleedBox, bleed narrower than asked, text within the
    safe margin of the trim, transparency in PDF/X-1a, too much ink, a missing
    OutputIntent, GTS_PDFXVersion or document /ID. Nothing is converted: the
    file's pages are read as they are. Exit 0: it passes; 1: it does not; 2: a
    file cannot be read at all (not a PDF, cut short).

    \b
    Examples:
      ppgen preflight out/en/drivethrucards/starter-rome-en.pdf --for drivethrucards
      ppgen preflight out/en/print-shop/                   every PDF in the folder, PDF/X-4
      ppgen preflight out/en/cards-en.pdf --pdfx x1a       the home build: RGB, no OutputIntent
      ppgen preflight out/en/thegamecrafter/starter-rome --for thegamecrafter
      ppgen preflight deck.pdf --for print-shop --bleed 5 --json
    """
    from ..press.preflight import Profile, preflight
    from ..project import load
    from ..read.services import service
    from ..units import MAX_BLEED, check_length

    project = load(ui.root)
    chosen = service(project, service_key or "print-shop")
    try:
        asked = None if bleed is None else check_length(str(bleed).removesuffix("mm").strip(), "--bleed", 0, MAX_BLEED)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if pdfx is not None and chosen.file != "pdf":
        raise click.UsageError(f"--pdfx: {chosen.name} takes pictures, not a PDF")
    profile = Profile.of(chosen, pdfx, asked)
    result = preflight(Path(target), profile)
    show = project.dir.show
    if as_json:
        click.echo(json.dumps(result.as_dict(show), ensure_ascii=False, indent=2))
    else:
        click.echo(f"checked against {profile.describe()}")
        for line in result.lines(show):
            click.echo(line)
    if not result.files:
        ui.summary(f"nothing to check in {show(Path(target))}: no {'pictures' if profile.file == 'png' else 'PDFs'}", ok=False)
        sys.exit(1)
    n = len(result.problems)
    files = plural(len(result.files), "file")
    if result.passed:
        ui.summary(f"{files} {'passes' if len(result.files) == 1 else 'pass'} the preflight for {chosen.name}")
    else:
        failed = sum(not f.passed for f in result.files)
        ui.summary(f"{failed} of {files} {'fails' if failed == 1 else 'fail'} the preflight for {chosen.name}: {plural(n, 'problem')}", ok=False)
        sys.exit(2 if any(p.code == "unreadable" for p in result.problems) else 1)  # (a file that cannot be read: 2, as everywhere)
