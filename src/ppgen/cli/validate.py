"""`ppgen validate`: check decklists against the deck-building rules before printing."""
from __future__ import annotations

import json
from pathlib import Path

import click

from . import main_group
from .options import show_fallbacks

DECK_SUFFIXES = (".txt", ".yaml", ".yml", ".deck")


@main_group.command("validate")
@click.argument("decklists", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--games", "-g", type=click.IntRange(min=0), help="Games played (overrides the decklists' own 'games:'); unlocks apply.")
@click.option("--lang", "-l", default="en", show_default=True, help="Language of messages and card names in the report.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_obj
def validate_command(ui, decklists, games, lang, fmt):
    """Check decklists: every deck-building rule, every problem at once.

    A decklist is a text file (one card per line: "3 Hastati Line", "3x …", "… x3",
    "3枚 …"; names in any language, or collector codes like ROM-01; "#" comments;
    "primary: Rome", "games: 7", "name: …" at the top) or a YAML file with
    name, primary, games and cards (a mapping of name to count). A folder
    stands for every decklist in it.

    Exit codes: 0 every deck legal, 1 a deck breaks a rule, 2 a file cannot be
    read. The JSON form is stable for scripts: {"version": 1, "decks": [...]},
    each problem with code, severity, message, hint, line, lines and cards.

    \b
    Examples:
      ppgen validate my-deck.txt
      ppgen validate decks/                      every decklist in the folder
      ppgen validate my-deck.txt --games 4       are its factions unlocked after 4 games?
      ppgen validate デッキ.txt --lang ja
      ppgen validate a.txt b.yaml --format json | jq '.decks[].legal'
    """
    from ..decks import load_deck, report_dict, report_lines, unreadable_dict, unreadable_lines, validate, Words
    from ..errors import DataError
    from ..project import load

    project = load(ui.root)
    project.check_language(lang)
    words = ui.words = Words(project, lang)  # every message in the report's language
    files = _expand(decklists, project.dir.root, ui, words)
    results, legal, illegal, unreadable = [], 0, 0, 0
    for path, shown, problems in files:
        if problems is None:
            try:
                report = validate(project, load_deck(project, path), games)
            except DataError as exc:
                problems = exc.problems
            else:
                legal += report.legal
                illegal += not report.legal
                results.append(report_dict(report, project, lang) if fmt == "json" else report_lines(report, project, lang))
                continue
        unreadable += 1
        results.append(unreadable_dict(shown, problems, words) if fmt == "json" else unreadable_lines(shown, problems, words))
    if fmt == "json":
        click.echo(json.dumps({"version": 1, "decks": results}, ensure_ascii=False, indent=2))
    else:
        shown = [_problems_only(lines) for lines in results] if ui.quiet else results  # --quiet: errors and warnings only
        click.echo("\n\n".join("\n".join(lines) for lines in shown if lines), nl=any(shown))
    show_fallbacks(ui, project.locale(lang), getattr(project.config.languages.get(lang), "name", lang))
    n = legal + illegal + unreadable
    ui.summary(words.text("deck.checked", n=n, legal=legal, illegal=illegal, unreadable=unreadable), ok=not (illegal or unreadable))
    return 2 if unreadable else 1 if illegal else 0


def _expand(paths, root, ui, words):
    """Decklist files to check, each once: folders stand for the decklists inside them."""
    from ..errors import Problem, display_path

    out, seen = [], set()
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in DECK_SUFFIXES)
            if not inside:
                shown = display_path(path, root)
                out.append((path, shown, [Problem(shown, 0, 0, words.text("deck.folder-empty"), "io")]))
            candidates = inside
        else:
            candidates = [path]
        for p in candidates:
            key = p.resolve() if p.exists() else p.absolute()
            if key in seen:
                ui.warn(words.text("deck.named-twice", file=p))
                continue
            seen.add(key)
            out.append((p, display_path(p, root), None))
    return out


def _problems_only(lines: list[str]) -> list[str]:
    """A deck's report as --quiet shows it: its errors and warnings (each with its hint) under the
    deck's verdict line; nothing for a deck that has none (the summary counts it)."""
    import re

    kept, keep = [], False
    for line in lines[1:]:
        if not line.strip():
            break  # the tables follow
        if not line.startswith(" "):
            keep = re.search(r"\b(error|warning)\[", line) is not None
        if keep:
            kept.append(line)
    return lines[:1] + kept if kept else []
