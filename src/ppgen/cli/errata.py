"""`ppgen errata`: what changed since an earlier version, and the cards to reprint."""
from __future__ import annotations

import json
import sys

import click

from . import main_group
from .build import card_options, cutter_options, sheet_options
from .options import show_warnings
from .ui import plural


@main_group.command("errata")
@click.option("--since", "ref", required=True, metavar="REF",
              help="The earlier version: a git revision of the game directory's repository (HEAD~1, v1.0, a commit), "
                   "read with git, nothing checked out; or the path of another game directory.")
@sheet_options
@card_options
@cutter_options
@click.option("--copies", type=click.IntRange(min=1), metavar="N",
              help="Print N of each card to reprint (e.g. --copies 1) instead of as many as its starter deck holds.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "text", "json"]), default="pdf", show_default=True,
              help="pdf: write out/LANG/errata-LANG.pdf; text: print the changelog (a forum post, a commit message); "
                   "json: print the comparison for scripts. text and json write no file.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on any warning (a revised: not bumped, a stale translation); write nothing of that language.")
@click.pass_obj
def errata_command(ui, ref, lang, out, paper, duplex, back_offset, card_size, bleed, gutter, layout, cutter, cut_file, corner_radius,
                   copies, fmt, strict):
    """Compare the game with an earlier version and print only what changed.

    A card has changed in a language when its printed face there differs — a
    number, its name, type line, effect or bonus as printed (English fallback
    included), the card template or fonts that draw it — or when its starter
    copies do. Cards added and removed count too; rules are compared by section.

    Writes OUT/LANG/errata-LANG.pdf: a changelog page in that language (old →
    new, what changed in bold), then card sheets of only the cards to reprint,
    fronts and backs like `ppgen build`. A card whose face is unchanged but whose
    copies rose is printed for the extra copies; one that lost copies is not
    printed. Warns when a changed card's `revised:` in cards.yaml was not bumped,
    and names translations whose English changed but that were not updated.
    Nothing changed: says so, writes nothing, exit 0.

    \b
    Examples:
      ppgen errata --since HEAD~1                 English errata since the last commit
      ppgen errata --since v1.0 --lang all        every language, since the tag v1.0
      ppgen errata --since ../ancient-duel-1e     against another game directory
      ppgen errata --since v1.0 --format text     a changelog to paste in a forum post
      ppgen errata --since main --format json | jq '.languages[].cards[].code'
      ppgen errata --since v1.0 --copies 1 --lang ja --paper letter
      ppgen errata --since v1.0 --cutter silhouette   print and cut: an SVG cut file per sheet side
    """
    from ..errata.compare import errata_since
    from ..errata.report import json_report, text_report
    from ..project import load
    from ..write.build import BuildOptions

    project = load(ui.root)
    options = BuildOptions.resolve(project, lang=lang, out=out, paper=paper, card_size=card_size, bleed=bleed, gutter=gutter,
                                   duplex=duplex, back_offset=back_offset, layout=layout, strict=strict, parts="cards",
                                   cutter=cutter, cut_file=cut_file, corner_radius=corner_radius)
    errata = errata_since(project, ref, options.langs, copies)
    if fmt == "json":
        click.echo(json.dumps(json_report(project, errata), ensure_ascii=False, indent=2))
    elif fmt == "text":
        click.echo(text_report(project, errata), nl=False)
    what = changed_words(errata)
    if errata.nothing_changed:
        ui.summary(f"nothing changed since {ref}" + ("" if len(options.langs) < 2 else f" ({', '.join(options.langs)})"))
        return
    for changes in errata.languages:
        if changes.new_language:
            ui.info(f"{changes.lang}: new since {ref}; nothing to compare (build the whole set)")
        elif changes.empty:
            ui.info(f"{changes.lang}: nothing changed")
    if fmt != "pdf":
        show_warnings(ui, errata.report, project)
        ui.summary(f"since {ref}: {what}", ok=not (strict and len(errata.report)))
        if strict and len(errata.report):
            sys.exit(1)
        return
    from ..errata.sheets import build_errata

    ui.info(options.sheet_layout.describe())
    result = build_errata(project, errata, options, progress=ui.progress, report=errata.report)
    ui.end_progress()
    show_warnings(ui, result.report, project)
    written = [f for f in result.written if f.part != "cut-file"]
    cut = len(result.written) - len(written)
    for f in written:
        ui.info(f"  {project.dir.show(f.path)}: {plural(f.pages, 'page')}, {plural(f.cards, 'card')} to reprint, {f.bytes / 1e6:.1f} MB")
    for f in result.refused:
        ui.error(f"--strict: {f.lang} has {plural(len(result.report.for_lang(f.lang)), 'warning')}; {project.dir.show(f.path)} was not written")
    where = project.dir.show(written[0].path) if len(written) == 1 else f"{len(written)} errata PDFs"
    where += f" (+{plural(cut, 'cut file')})" if cut else ""
    ui.summary(f"since {ref}: {what}; wrote {where}" if written else f"since {ref}: {what}; no errata PDF written",
               ok=not result.refused)
    if result.refused:
        sys.exit(1)


def changed_words(errata) -> str:
    """'3 cards changed, 1 added, 1 rules section' over every language compared."""
    cards = {status: set() for status in ("changed", "added", "removed")}
    sections, stale = set(), 0
    for changes in errata.languages:
        for change in changes.cards:
            cards[change.status].add(change.id)
        sections |= {rule.section for rule in changes.rules}
        stale += len(changes.stale)
    parts = [plural(len(cards["changed"]), "card") + " changed"]
    parts += [f"{len(cards[s])} {s}" for s in ("added", "removed") if cards[s]]
    if sections:
        parts.append(f"{plural(len(sections), 'rules section')} changed")
    if stale:
        parts.append(f"{plural(stale, 'stale translation')}")
    return ", ".join(parts)
