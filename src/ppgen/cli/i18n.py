"""`ppgen i18n`: the translator's toolkit — status, check, sync, export and import."""
from __future__ import annotations

import json
from pathlib import Path

import click

from . import PpgenGroup, main_group
from .options import OutputFile, not_a_game_file
from .ui import plural


@main_group.group("i18n", cls=PpgenGroup)
def i18n_group():
    """Translations: what is done, what is wrong, and keeping locale files in step with English.

    \b
    Examples:
      ppgen i18n status                      how far each language is, per area
      ppgen i18n check --lang ja             every problem, as locales/ja.yaml:LINE:COL
      ppgen i18n sync --lang ko              add new English keys, mark stale entries
      ppgen i18n export --lang zh            out/i18n/zh.po for Poedit or Weblate
      ppgen i18n import out/i18n/zh.po       bring the translations back
    """


def named_languages(project, given: tuple[str, ...], check: bool = True) -> list[str] | None:
    """The languages `--lang` names — repeated, several separated by commas, or `all` — each checked
    (unknown: an error with "did you mean"); None when it names none or `all` (the command's default).
    `check=False`: left for the command to check in its own words (sync starts a missing file)."""
    codes = [c.strip() for g in given for c in g.split(",") if c.strip()]
    if not codes or any(c.lower() == "all" for c in codes):
        return None
    return list(dict.fromkeys(project.check_language(c) if check else c for c in codes))


@i18n_group.command("status")
@click.option("--lang", "-l", "lang", multiple=True, help="Only these languages: a code, several separated by commas or repeated, or 'all' (default: every language).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_obj
def status_command(ui, lang, fmt):
    """How much of each language is translated: per language and per area (cards, rules, labels).

    A key is translated, missing (absent, or status needs-translation), stale
    (English changed since, no src, or status needs-review) or untranslated
    (identical to English where words are expected). Orphans are keys English
    does not have.

    \b
    Examples:
      ppgen i18n status
      ppgen i18n status --lang ja --format json
    """
    from ..i18n.checks import load_project_glossary
    from ..i18n.states import language_status
    from ..project import load
    from ..termtable import render

    project = load(ui.root)
    src = project.config.source_language
    langs = named_languages(project, lang) or [code for code in project.every_language() if code != src]
    glossary = load_project_glossary(project)
    source = project.locale(src)
    statuses = []
    for code in langs:
        name = project.config.languages[code].name if code in project.config.languages else code
        statuses.append(language_status(source, project.locale(code), glossary, name))
    if fmt == "json":
        click.echo(json.dumps([s.as_dict() for s in statuses], ensure_ascii=False, indent=2))
    else:
        rows = []
        for s in statuses:
            for area, c in [("all", s.all), *s.areas.items()]:
                rows.append([s.lang if area == "all" else "", s.name if area == "all" else "", area,
                             str(c.total), str(c.translated), str(c.missing), str(c.stale), str(c.untranslated),
                             f"{c.percent:5.1f} %", str(s.orphans) if area == "all" else ""])
        click.echo(render(["lang", "name", "area", "keys", "translated", "missing", "stale", "untranslated", "done", "orphans"], rows))
    done = sum(1 for s in statuses if s.all.translated == s.all.total and not s.orphans)
    ui.summary(f"{plural(len(statuses), 'language')}, {done} complete")


@i18n_group.command("check")
@click.option("--lang", "-l", "lang", multiple=True, help="Only these languages: a code, several separated by commas or repeated, or 'all' (default: every language, English included).")
@click.option("--check", "only", multiple=True, metavar="NAME", help="Only this check (repeatable): missing, orphan, stale, untranslated, numbers, terms, markup, keywords, punctuation, glyphs, fit.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_obj
def check_command(ui, lang, only, fmt):
    """Every problem in the translations at once, as FILE:LINE:COL: error[check] message.

    Checks: missing, orphan, stale, untranslated, numbers (the numbers differ from
    English; glossary idioms allowed), terms (the glossary term is not used),
    markup ({placeholders} or **bold** differ or do not parse), keywords (a key
    word spelled otherwise than the glossary's), punctuation (straight quotes where
    the language uses curly ones, or the reverse), glyphs (a character no font of
    the language draws), fit (text too long for its box).
    A reviewed exception is acknowledged on the entry: `checked: [numbers]`.

    Exit status: 0 when there is no error (warnings allowed), 1 when there is
    one, 2 when a file could not be read as data (a YAML error, a missing locale).

    \b
    Examples:
      ppgen i18n check
      ppgen i18n check --lang ja --check numbers --check terms
      ppgen i18n check --lang ja,ko
      ppgen i18n check --format json | jq '.problems[] | select(.code == "stale")'
    """
    from ..i18n.checks import check_names, run_checks
    from ..project import load

    names = check_names()
    for name in only:
        if name not in names:
            from ..read.schema import did_you_mean

            raise click.BadParameter(f"unknown check '{name}'{did_you_mean(name, names)} (checks: {', '.join(names)})", param_hint="--check")
    project = load(ui.root)
    report = run_checks(project, named_languages(project, lang), list(only) or None)
    findings = report.sorted()
    if fmt == "json":
        click.echo(json.dumps({
            "languages": report.languages,
            "errors": len(report.errors),
            "warnings": len(report.warnings),
            "acknowledged": report.acknowledged,
            "notes": report.infos,
            "problems": [f.as_dict() for f in findings],
        }, ensure_ascii=False, indent=2))
    else:
        for f in findings:
            click.echo(str(f.problem))
        for message in report.infos:
            ui.info(message)
    ui.warnings += len(report.warnings)
    acknowledged = f", {plural(report.acknowledged, 'acknowledged exception')}" if report.acknowledged else ""
    ui.summary(f"checked {plural(len(report.languages), 'language')}: {plural(len(report.errors), 'error')}{acknowledged}",
               ok=not report.errors)
    if report.errors:
        return 2 if report.unreadable else 1  # (a file that cannot be read is bad data, exit 2, as for every command)


@i18n_group.command("sync")
@click.option("--lang", "-l", "lang", multiple=True, help="Only these languages: a code, several separated by commas or repeated, or 'all' (default: every language but English).")
@click.option("--prune", is_flag=True, help="Also remove orphans (keys English does not have), naming each.")
@click.option("--dry-run", is_flag=True, help="Say what would change; write nothing.")
@click.pass_obj
def sync_command(ui, lang, prune, dry_run):
    """Bring locale files up to date with English, keeping everything the translator wrote.

    Adds each key English has and the file lacks, in English order, with the
    English text and `status: needs-translation`. Marks stale entries (English
    changed, or no src) `status: needs-review` and records the new src; their
    text is never rewritten. Lists orphans; removes them only with --prune.
    Comments, order and formatting stay byte-identical; files are written
    atomically, and only when something changed. A language configured in
    ppgen.yaml without a locale file gets a new one.

    \b
    Examples:
      ppgen i18n sync
      ppgen i18n sync --lang ja --dry-run
      ppgen i18n sync --lang ko --prune
    """
    from ..i18n.sync import sync_language, target_languages
    from ..project import load

    project = load(ui.root)
    written = []
    named = named_languages(project, lang, check=False)
    for code in [c for n in named for c in target_languages(project, n)] if named else target_languages(project, None):
        result = sync_language(project, code, prune, dry_run)
        for key, line, col in result.orphans:
            verb = "removed" if key in result.pruned and not dry_run else ("would remove" if key in result.pruned else "kept")
            ui.warn(f"{result.file}:{line}:{col}: orphan '{key}' (not in English) {verb}" + ("" if prune else "; --prune removes it"))
        parts = [f"{len(result.added)} added", f"{len(result.marked)} marked needs-review"]
        if result.pruned:
            parts.append(f"{len(result.pruned)} pruned")
        state = ("created" if result.created else "written") if result.written else ("would change" if result.changed else "up to date")
        if dry_run:
            _list_keys(ui, result.file, (("would add", result.added), ("would mark needs-review", result.marked)))
        ui.info(f"{result.file}: {', '.join(parts)} ({state})")
        if result.written:
            written.append(result.file)
    ui.summary(f"synced: {', '.join(written) if written else 'nothing written'}" + (" (dry run)" if dry_run else ""))


@i18n_group.command("export")
@click.option("--lang", "-l", required=True, help="The language to export.")
@click.option("--format", "fmt", type=click.Choice(["po"]), default="po", show_default=True)
@click.option("--output", "-o", type=OutputFile("ja.po", allow_dash=True), help="Where to write (default: out/i18n/LANG.po; - for standard output).")
@click.pass_obj
def export_command(ui, lang, fmt, output):
    """Export one language as a PO file for Poedit, Weblate or any CAT tool.

    msgctxt is the key, msgid the current English, msgstr the translation (empty
    when missing). Stale entries are marked fuzzy. Import the file back with
    `ppgen i18n import`; an unedited export imports as no change at all.

    \b
    Examples:
      ppgen i18n export --lang ja
      ppgen i18n export --lang ko -o ~/translations/ko.po
    """
    from ..i18n.po import export_po
    from ..i18n.sync import target_languages
    from ..project import load
    from ..write.atomic import write_atomic

    project = load(ui.root)
    project.check_language(lang)
    target_languages(project, lang)  # refuses the source language
    text, fuzzy = export_po(project, lang)
    if output == "-":
        click.echo(text, nl=False)
        ui.summary(f"exported {lang} to standard output ({plural(fuzzy, 'fuzzy entry', 'fuzzy entries')})")
        return
    path = Path(output) if output else project.dir.out / "i18n" / f"{lang}.po"
    not_a_game_file(project, path, "--output")
    write_atomic(path, text)
    ui.summary(f"wrote {project.dir.show(path)} ({fuzzy} fuzzy)")


@i18n_group.command("import")
@click.argument("po_file", type=click.Path(dir_okay=False))
@click.option("--lang", "-l", help="The language (default: the PO file's Language header).")
@click.option("--dry-run", is_flag=True, help="Say what would change; write nothing.")
@click.pass_obj
def import_command(ui, po_file, lang, dry_run):
    """Import a PO file's translations into the language's locale file.

    Per entry with a translation: updates the text, records src (the English it
    translates), and clears needs-translation / needs-review unless the entry is
    still fuzzy. Missing keys are added in English order. Comments, notes and
    formatting of the locale file stay byte-identical; it is written atomically.
    The entries it changed are then checked as `i18n check` does: their problems
    are listed, and the exit status is 1 when one is an error (the file is written).

    \b
    Examples:
      ppgen i18n import out/i18n/ja.po
      ppgen i18n import ko.po --lang ko --dry-run
    """
    from ..i18n.po import import_po
    from ..project import load

    project = load(ui.root)
    result = import_po(project, Path(po_file), lang, dry_run)
    for p in result.problems:
        ui.warn(f"{p.where()}: {p.message}")
    if dry_run:
        _list_keys(ui, result.file, (("would update", result.updated), ("would add", result.added)))
    errors = _check_imported(ui, result) if result.written else 0
    state = "written" if result.written else ("would change, dry run" if dry_run and (result.updated or result.added) else "unchanged")
    found = f"; {plural(errors, 'error')} in them: see above" if errors else ""
    kept = f", {len(result.kept)} kept as the file has them (changed since the export)" if result.kept else ""
    ui.summary(f"{result.file}: {len(result.updated)} updated, {len(result.added)} added, {result.unchanged} unchanged{kept}, "
               f"{result.empty} without translation ({state}){found}", ok=not errors)
    if errors:
        return 1  # written (nothing the translator did is lost), but `i18n check` fails on it: as check exits


def _list_keys(ui, file: str, groups) -> None:
    """A dry run names what it would change: one line per key (the counts alone said too little)."""
    for verb, keys in groups:
        for key in keys:
            ui.info(f"{file}: {verb} '{key}'")


def _check_imported(ui, result) -> int:
    """`i18n check` on the entries an import changed or added, as written: each finding listed
    (locales/ja.yaml:LINE:COL: error[markup] …), a PO entry that lost a {placeholder} or changed a
    number caught now rather than at the next check. The number of errors."""
    from ..i18n.checks import run_checks
    from ..project import load

    touched = set(result.updated) | set(result.added)
    report = run_checks(load(ui.root), [result.lang])
    mine = [f for f in report.sorted() if f.key in touched]
    for f in mine:
        click.echo(str(f.problem))
    ui.warnings += sum(1 for f in mine if f.problem.severity != "error")
    return sum(1 for f in mine if f.problem.severity == "error")
