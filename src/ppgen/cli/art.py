"""`ppgen art`: the card art checklist an artist works from (the build's own preflight)."""
from __future__ import annotations

import json
import sys

import click

from . import main_group
from .options import faction_option
from .ui import plural

SHORT = {"art-blurry": "blurry", "art-soft": "soft", "art-cropped": "cropped", "art-bleed": "misses the bleed",
         "art-colour": "colours guessed"}


@main_group.command("art")
@click.option("--lang", "-l", help="Language code, several separated by commas, or 'all' (default: all).")
@faction_option
@click.option("--card-size", metavar="SIZE", help="Check for this card size, as `ppgen build --card-size` (default: ppgen.yaml).")
@click.option("--bleed", metavar="MM", help="Check for this bleed in mm, as `ppgen build --bleed` (default: ppgen.yaml).")
@click.option("--missing", is_flag=True, help="List only the cards that have no picture yet.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="json: one entry per card and language, with every number and problem, for scripts.")
@click.option("--strict", is_flag=True, help="Exit 1 on any warning that fails `ppgen build --strict`.")
@click.pass_obj
def art_command(ui, lang, factions, card_size, bleed, missing, fmt, strict):
    """The card art checklist: for every card and language, the picture it prints
    (art/LANG/ID.*, then `art:` in cards.yaml, then art/ID.*), its size in pixels,
    the resolution it prints at, and what the preflight found; then the cards that
    have no picture yet. It checks exactly what `ppgen build` checks.

    \b
    Warnings: below 300 dpi "soft" (advice: --strict passes), below 150 dpi
    "blurry", more than 25 % "cropped", a full-art picture that "misses the
    bleed", "colours guessed" (CMYK without a colour profile). A file that
    cannot be used (missing, damaged, unsupported, too many pixels, an SVG
    with scripts or outside references) is an error: exit 2.

    \b
    Examples:
      ppgen art                          every card, every language
      ppgen art --lang ja -f rome        Rome's cards in Japanese
      ppgen art --missing                what is left to draw
      ppgen art --bleed 3 --card-size bridge
      ppgen art --format json | jq '.cards[] | select(.dpi != null and .dpi < 300)'
    """
    from ..project import load
    from ..write.art import art_book
    from ..write.build import BuildOptions
    from ..write.parts import card_geometry

    project = load(ui.root)
    options = BuildOptions.resolve(project, lang=lang or "all", card_size=card_size, bleed=bleed, factions=factions)
    cards = [c for c in project.game.cards if not options.factions or c.faction in options.factions]
    book = art_book(project, cards, options.langs, card_geometry(options), options.art_max_dpi)
    data = book.checklist(project)
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(checklist_text(data, missing))
    shown: dict = {}  # one line per problem, with the languages it concerns
    for row, problem in book.problems():
        shown.setdefault((row.card.code if row else "", problem.code, problem.message), []).append(row.lang if row else "")
    for (code, what, message), langs in shown.items():
        ui.warn(f"{code} {' '.join(langs)}: {what}: {message}" if code else f"{what}: {message}")
    s = data["summary"]
    drawn = len({e["id"] for e in data["cards"] if e["file"]})
    ui.summary(f"{drawn} of {plural(len(cards), 'card')} have art in {', '.join(options.langs)}"
               f" ({s['without_art']} of {s['placements']} card faces without)", ok=not (strict and s["failing_strict"]))
    if strict and s["failing_strict"]:
        sys.exit(1)


def checklist_text(data: dict, missing_only: bool = False) -> str:
    """The checklist as terminal tables: pictures used (languages sharing a picture on one line),
    then the cards without one, by faction."""
    from ..termtable import render

    out = []
    if not missing_only:
        groups: dict = {}
        for e in data["cards"]:
            if e["file"]:
                key = (e["code"], e["file"], e["dpi"], tuple(p["code"] for p in e["problems"]))
                groups.setdefault(key, []).append(e)
        rows = []
        for (code, file, dpi, codes), entries in groups.items():
            e = entries[0]
            size = f"{e['width']:g} × {e['height']:g}" if e["format"] != "SVG" else "vector"
            notes = ", ".join(dict.fromkeys(SHORT.get(c, c) for c in codes))
            embedded = e["embedded"]
            if embedded and e["format"] != "SVG" and embedded["width"] < e["width"]:
                notes = ", ".join(filter(None, [notes, f"embedded {embedded['width']:g} × {embedded['height']:g}"]))
            rows.append([code, e["name"], " ".join(x["lang"] for x in entries), file, size,
                         "—" if dpi is None else str(int(dpi + 0.5)), notes or "ok"])
        if rows:
            out.append(render(["Code", "Card", "Lang", "File", "Pixels", "dpi", "Check"], rows, {1: 28, 3: 44}))
        else:
            out.append("No card has a picture yet: put art/<card-id>.png (or .jpg, .webp, .tif, .svg) in the game directory.")
    langs = data["summary"]["languages"]
    without: dict = {}
    for e in data["cards"]:
        if not e["file"] and e["window"]:
            without.setdefault((e["faction"], e["code"], e["id"]), []).append(e)
    if without:
        out.append("")
        out.append(f"Without art ({len(without)} cards; art/<id>.png is picked up):")
        rows = []
        for (faction, code, card_id), entries in without.items():
            which = "" if len(entries) == len(langs) else " ".join(x["lang"] for x in entries)
            rows.append([code, card_id, entries[0]["name"], which or "all"])
        out.append(render(["Code", "File name (id)", "Card", "Lang"], rows, {2: 34}))
    for u in data["unused"]:
        out.append(f"not used: {u['file']} {u['message']}")
    return "\n".join(out)
