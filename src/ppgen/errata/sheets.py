"""The errata PDF of each language: `<out>/<lang>/errata-<lang>.pdf`.

It is assembled like every set (write/parts.py `assemble`): the changelog page (draw/
changelog.py), then the card sheets of the cards to reprint, drawn by the build's own
`cards_part` with a print run of only those cards — fronts and backs, marks, duplex
and layout as `BuildOptions` say. A language with nothing changed gets no file.
"""
from __future__ import annotations

from ..draw.changelog import Changelog, Entry, Row, Section
from ..write.build import BuildResult, BuiltFile
from ..write.report import BuildReport, fallbacks_reported
from .compare import CardChange, Errata, LanguageErrata, marked, text_diff
from .report import (TEXT_FIELDS, field_label, line_break, printed_note, row, stale_subject, subtitle, summary, title,
                     value_text)

STALE_FIELDS = (("card.", ".name", "name"), ("card.", ".effect", "effect"), ("type.", "", "type"), ("trait.", "", "type"),
                ("kind.", "", "type"), ("label.terrain", "", "type"), ("label.type-separator", "", "type"),
                ("bonus.", "", "bonus"), ("stat.", "", "bonus"), ("label.level-short", "", "level-label"),
                ("label.code-revised", "", "small-print"))


def errata_file(options, lang: str):
    return options.out / lang / f"errata-{lang}.pdf"


def build_errata(project, errata: Errata, options, progress=None, report: BuildReport | None = None) -> BuildResult:
    """Write the errata PDF of every language of `errata` that has changes, and the cut files of
    its sheets when they are print-and-cut (each atomically; under --strict, nothing of a
    language with warnings)."""
    from ..write.atomic import write_atomic

    result = BuildResult(report=report if report is not None else BuildReport())
    todo = [changes for changes in errata.languages if not changes.empty and not changes.new_language]
    for done, changes in enumerate(todo, 1):
        lang = changes.lang
        part_report = BuildReport()
        data, pages, cards, files = draw_errata(project, errata, changes, options, part_report)
        for w in part_report.warnings:
            result.report.warning(w.code, w.message, w.lang, w.subject)
        path = errata_file(options, lang)
        refuse = options.strict and bool(result.report.for_lang(lang))
        outputs = [(path, data, pages, cards, "errata")] + [(path.with_name(path.stem + suffix), blob, 0, 0, "cut-file")
                                                           for suffix, blob in files]
        for where, blob, n_pages, n_cards, part in outputs:
            if not refuse:
                write_atomic(where, blob)
            result.files.append(BuiltFile(lang, where, n_pages, n_cards, 0, len(blob), not refuse, part))
        if progress:
            progress(done, len(todo), f"{lang}: done")
    return result


def draw_errata(project, errata: Errata, changes: LanguageErrata, options, report) -> tuple[bytes, int, int, list]:
    """One language's errata PDF as bytes: (data, pages, cards on its sheets, cut files beside it).

    The changelog fills whole sheets when card sheets follow it (a blank back after an odd
    last page), so that in duplex printing every card front starts a sheet of paper."""
    from ..draw.changelog import draw_changelog
    from ..write.build import PrintRun
    from ..write.parts import REFERENCE_CARDS, PartPDF, assemble, cards_part, new_document
    from ..write.pdf import duplex_hint

    lang = changes.lang
    loc = project.locale(lang)
    run = PrintRun(project.game.card(c.id) for c in changes.printed for _ in range(c.printed))
    if changes.references:  # their texts changed (a rule constant they print: the hand limit): one for each player again
        run.references = REFERENCE_CARDS
    sheets = bool(run) or bool(run.references)  # card sheets follow the changelog
    with fallbacks_reported(loc, report):
        log = changelog(project, errata, changes, sheets)
        doc = new_document(project, lang, title(project, lang), subtitle(project, errata, lang))
        if draw_changelog(doc.canvas, project, lang, options.paper.size, log, report) % 2 and sheets:
            doc.canvas.showPage()  # the changelog's blank back
        parts = [PartPDF("changelog", doc.data(), doc.pages, loc.get("errata.title"))]
        if sheets:
            parts.append(cards_part(project, options, lang, run, report))
    data, pages = assemble(parts, title(project, lang), lang, duplex=duplex_hint(options.duplex))  # printed as the cards are
    return data, pages, len(run) + run.references, parts[-1].files if sheets else []


# ── the changelog's words ──────────────────────────────────────────────────
def changelog(project, errata: Errata, changes: LanguageErrata, has_sheets: bool) -> Changelog:
    loc = project.locale(changes.lang)
    lines = [subtitle(project, errata, changes.lang), summary(project, changes), loc.get("errata.intro" if has_sheets else "errata.no-sheets")]
    sections = []
    for status, heading in (("changed", "errata.changed.heading"), ("added", "errata.added.heading"), ("removed", "errata.removed.heading")):
        cards = changes.of(status)
        if cards:
            sections.append(Section(loc.get(heading), [card_entry(project, changes.lang, c) for c in cards], heading))
    if changes.rules or changes.constants:
        sections.append(Section(loc.get("errata.rules.heading"), rule_entries(project, changes), "errata.rules.heading"))
    if changes.stale:
        sections.append(Section(loc.get("errata.stale.heading"), stale_entries(project, changes), "errata.stale.heading"))
    return Changelog(title(project, changes.lang), lines, sections, loc.get("errata.old"), loc.get("errata.new"),
                     loc.get("errata.title"), "errata.document-title")


def faction_colour(project, card_id: str | None) -> str | None:
    """The colour of a card's faction (None for a card the game no longer has: the heading colour)."""
    game = project.game
    return game.factions[game.card(card_id).faction].colour if card_id and game.has_card(card_id) else None


def card_entry(project, lang: str, change: CardChange) -> Entry:
    loc = project.locale(lang)
    mode = line_break(project, lang)
    rows = []
    for f in change.fields:
        label = field_label(loc, f.field)
        if change.status == "added":
            rows.append(Row(label, None, value_text(f.new)))
        elif f.field == "design":
            rows.append(Row(label, f"{f.path}: {value_text(f.old)}", f"{f.path}: {value_text(f.new)}"))
        elif f.field in TEXT_FIELDS and isinstance(f.old, str) and isinstance(f.new, str):
            pieces = text_diff(f.old, f.new, mode)
            new = marked(pieces, "+") + (f" ({loc.get('errata.fallback')})" if f.fallback else "")
            rows.append(Row(label, marked(pieces, "-"), new))
        else:
            rows.append(Row(label, value_text(f.old), f"**{value_text(f.new)}**"))
    return Entry(f"{change.code} {change.name}", rows, [printed_note(loc, change)], faction_colour(project, change.id))


def rule_entries(project, changes: LanguageErrata) -> list[Entry]:
    loc = project.locale(changes.lang)
    mode = line_break(project, changes.lang)
    out = []
    for rule in changes.rules:
        mark = {"added": loc.get("errata.rules.added"), "removed": loc.get("errata.rules.removed")}.get(rule.status)
        rows = []
        for text in rule.texts:
            pieces = text_diff(text.old or "", text.new or "", mode)
            rows.append(Row("", marked(pieces, "-") if text.old is not None else "", marked(pieces, "+") if text.new is not None else ""))
        out.append(Entry(f"{rule.heading} ({mark})" if mark else rule.heading, rows))
    if changes.constants:
        rows = [Row(c.name, value_text(c.old), f"**{value_text(c.new)}**") for c in changes.constants]
        out.append(Entry(loc.get("errata.rules.numbers"), rows))
    return out


def stale_entries(project, changes: LanguageErrata) -> list[Entry]:
    loc = project.locale(changes.lang)
    entries: dict[str, Entry] = {}
    for stale in changes.stale:
        subject = stale_subject(stale)
        entry = entries.setdefault(subject, Entry(subject, colour=faction_colour(project, stale.card)))
        what = stale_field(stale.key)
        line = loc.get("errata.stale")
        entry.notes.append(row(loc, field_label(loc, what), line) if what else line)
    return list(entries.values())


def stale_field(key: str) -> str | None:
    """The card field a locale key prints in (None for a rules text)."""
    for start, end, name in STALE_FIELDS:
        if key.startswith(start) and key.endswith(end):
            return name
    return None

