"""`ppgen cards`: list the card database as designers and translators want to see it."""
from __future__ import annotations

import json

import click

from . import main_group
from .options import show_fallbacks
from .ui import plural


def terminal_columns() -> int | None:
    """The width to fit the table to: the terminal's when standard output is one (COLUMNS, or
    what the terminal says); None when it is piped, so files and scripts get the same lines."""
    import shutil
    import sys

    return shutil.get_terminal_size().columns if sys.stdout.isatty() else None


@main_group.command("cards")
@click.option("--lang", "-l", default="en", show_default=True, help="Language of names, types and effects.")
@click.option("--faction", "-f", "factions", multiple=True, metavar="FACTION",
              help="Only this faction: its id, code or name in any language (rome, ROM, ローマ); repeat for several.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.pass_obj
def cards_command(ui, lang, factions, fmt):
    """List every card: code, name, stats, copies, type and effect.

    On a terminal the table fits its width: effects are wrapped in their column,
    or under their card's row when the terminal is narrow. Piped into a file or
    a program, every card is one line (effects cut at 70 characters).

    The JSON form is a stable interface for scripts: one object per card with
    id, code, faction, kind, name, type, level, atk, def, energy, copies,
    commander, terrain, bonus and effect (words localized, numbers from
    cards.yaml). Unit-only fields are null for Doctrines and Tactics.

    \b
    Examples:
      ppgen cards
      ppgen cards --lang ja --faction rome
      ppgen cards -f rome -f sparta
      ppgen cards --format json | jq '.[] | select(.commander)'
    """
    from ..project import load
    from ..termtable import card_table

    project = load(ui.root)
    project.check_language(lang)
    factions = list(dict.fromkeys(project.check_faction(f) for f in factions))  # ("" is no faction: refused, as build refuses it)
    rows = project.card_rows(lang, tuple(factions))
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        click.echo(card_table(rows, project, lang, terminal_columns()))
    show_fallbacks(ui, project.locale(lang))
    shown = " and ".join(project.locale(lang).get(f"faction.{f}") for f in factions)
    ui.summary(plural(len(rows), "card") + (f" of {shown}" if factions else "") + f" ({lang})")
