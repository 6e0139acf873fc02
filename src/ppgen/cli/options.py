"""Options several commands share, declared once (defaults come from ppgen.yaml `build:`)."""
from __future__ import annotations

import click

from .ui import plural

SHOWN_WARNINGS = 20  # warnings listed on the terminal; --report-json lists them all


class OutputFile(click.Path):
    """A file a command writes: a value ending in a slash names a folder, and is refused (the
    slash was dropped, and `-o out/i18n/` wrote a file named `i18n`)."""

    def __init__(self, example: str, **kwargs):
        super().__init__(dir_okay=False, **kwargs)
        self.example = example

    def convert(self, value, param, ctx):
        import os

        if isinstance(value, str) and value.endswith(("/", os.sep)):
            self.fail(f"'{value}' ends in '{value[-1]}': it names a folder; name the file to write, e.g. {value}{self.example}", param, ctx)
        return super().convert(value, param, ctx)


def _apply(f, options):
    for option in reversed(options):
        f = option(f)
    return f


def output_options(f):
    """--lang and --out."""
    return _apply(f, [
        click.option("--lang", "-l", help="Language code, several separated by commas, or 'all' (default: the source language)."),
        click.option("--out", "-o", type=click.Path(file_okay=False),
                     help="Output folder; one subfolder per language (default: build.out in ppgen.yaml, 'out')."),
    ])


def faction_option(f):
    return click.option("--faction", "-f", "factions", multiple=True, metavar="FACTION",
                        help="Only this faction's starter deck: its id, code or name in any language (rome, ROM, ローマ); "
                             "repeat for several (default: every faction).")(f)


def deck_options(f):
    """--deck FILE and --force."""
    return _apply(f, [
        click.option("--deck", "deck_path", type=click.Path(dir_okay=False),
                     help="Exactly the cards of this decklist (any language) instead of the starter decks; validated first."),
        click.option("--force", is_flag=True, help="With --deck: go on even if the deck breaks deck-building rules."),
    ])


def force_needs_deck(force: bool, deck_path) -> None:
    """--force without --deck would do nothing: refused (as every option that would do nothing)."""
    if force and not deck_path:
        raise click.UsageError("--force prints a decklist that breaks the rules: it goes with --deck")


def show_fallbacks(ui, locale, language: str = "") -> None:
    """A warning when texts of `locale` were shown in English (untranslated); in the language of
    `ui.words` when the command speaks one (`language`: its name, e.g. 日本語)."""
    n = len(locale.fallbacks)
    if n and ui.words:
        ui.warn(ui.words.text("deck.fallbacks", n=n, language=language or locale.lang))
    elif n:
        ui.warn(f"{plural(n, 'text')} not translated into {locale.lang}; shown in English")


def show_warnings(ui, report, project=None) -> None:
    """The report's warnings on the terminal (at most SHOWN_WARNINGS, then how many more); a
    warning about a text of a locale file starts with where it is, `locales/ja.yaml:808:9:`, as
    `i18n check` says it (an editor's terminal opens the file there)."""
    before = ui.warnings  # warnings said already (a decklist printed with --force): counted too
    for line in report.lines(limit=SHOWN_WARNINGS, locate=(lambda w: text_position(project, w)) if project is not None else None):
        ui.warn(line)
    ui.warnings = before + len(report)  # (every warning, also those past SHOWN_WARNINGS)


def text_position(project, warning) -> str:
    """`locales/ja.yaml:808:9` of the text a build warning is about ("" when it is not a locale key
    of its language: a card id, a sheet, a picture)."""
    if not (warning.lang and warning.subject) or warning.lang not in project.languages:
        return ""
    try:
        file, line, col = project.locale(warning.lang).locate(warning.subject)
    except Exception:  # a locale that cannot be read now: the warning as it is
        return ""
    return f"{file}:{line}:{col}" if line else ""


def not_a_game_file(project, path, option: str, written=()) -> None:
    """Refuse an output file that is one of the game's own (cards.yaml, a locale, a template…: an
    `--report-json cards.yaml` replaced the card database with JSON and said "ok") or a file this
    command has just written (`written`: the report over a PDF it built)."""
    import os
    from pathlib import Path

    from ..errors import UsageError

    if project.dir.is_input(path):
        raise UsageError(f"{option} {path}: that is one of the game's own files, or would be read as one "
                         f"({project.dir.show(Path(path))}); choose another path")
    real = os.path.realpath(path)
    for file in written:
        if os.path.realpath(file) == real:
            raise UsageError(f"{option} {path}: this command has just written {project.dir.show(Path(file))} there; choose another path")
