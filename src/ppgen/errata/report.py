"""The errata as words: a plain-text changelog per language, and JSON for scripts.

Every word comes from the language's locale (`errata.*`, and the card labels the
rulebook uses: label.atk, label.copies, …); changed words in a text are marked as
wdiff marks them, `kept [-removed-]{+added+}`.
"""
from __future__ import annotations

from .compare import CardChange, Errata, FieldChange, LanguageErrata, inline, text_diff

NONE = "\u2014"  # an empty value: a card without a bonus, a field a version did not have
ARROW = " \u2192 "
TEXT_FIELDS = ("name", "type", "bonus", "effect", "level-label", "small-print")

FIELD_LABELS = {
    "name": "errata.field.name",
    "level": "label.level",
    "atk": "label.atk",
    "def": "label.def",
    "energy": "label.energy",
    "copies": "label.copies",
    "type": "label.type",
    "bonus": "label.bonus",
    "effect": "label.effect",
    "level-label": "errata.field.level-label",
    "small-print": "errata.field.small-print",
    "art": "errata.field.art",
    "design": "errata.field.design",
}


def field_label(loc, name: str) -> str:
    return loc.get(FIELD_LABELS[name])


def value_text(value) -> str:
    if value is None or value == "":
        return NONE
    if isinstance(value, bool):
        return "\u2713" if value else NONE
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def line_break(project, lang: str) -> str:
    return project.config.languages[lang].line_break if lang in project.config.languages else "words"


# ── headings shared by the text and the changelog page ─────────────────────
def title(project, lang: str) -> str:
    loc = project.locale(lang)
    return loc.format("errata.document-title", game=project.config.game, language=loc.get("language.name"))


def row(loc, label: str, value: str) -> str:
    """"ATK: 4 → 5" in the language's punctuation (ja "ATK：4 → 5")."""
    return loc.format("errata.row", label=label, value=value)


def subtitle(project, errata: Errata, lang: str) -> str:
    loc = project.locale(lang)
    old, new = errata.versions
    if new and old != new:
        return loc.format("errata.since-versions", since=errata.since, old=old or NONE, new=new)
    return loc.format("errata.since", since=errata.since)


def summary(project, changes: LanguageErrata) -> str:
    return project.locale(changes.lang).format(
        "errata.summary", changed=len(changes.of("changed")), added=len(changes.of("added")),
        removed=len(changes.of("removed")), rules=len(changes.rules))


def printed_note(loc, change: CardChange) -> str:
    """What the sheets do with a changed card: how many copies they print, or that none."""
    if change.status == "removed":
        return loc.get("errata.removed.note")
    if change.printed:
        return loc.format("errata.printed", n=change.printed)
    return loc.get("errata.not-printed")


def stale_subject(change) -> str:
    return f"{change.code} {change.name}" if change.code else change.name


# ── text ───────────────────────────────────────────────────────────────────
def text_report(project, errata: Errata) -> str:
    """Every language's changelog as plain text, one after the other."""
    return "\n\n".join(language_text(project, errata, changes) for changes in errata.languages) + "\n"


def language_text(project, errata: Errata, changes: LanguageErrata) -> str:
    lang = changes.lang
    loc = project.locale(lang)
    lines = [title(project, lang), subtitle(project, errata, lang)]
    if changes.new_language:
        return "\n".join(lines + [loc.format("errata.new-language", since=errata.since)])
    if changes.empty:
        return "\n".join(lines + [loc.format("errata.nothing", since=errata.since)])
    lines.append(summary(project, changes))
    mode = line_break(project, lang)
    for status, heading in (("changed", "errata.changed.heading"), ("added", "errata.added.heading"), ("removed", "errata.removed.heading")):
        cards = changes.of(status)
        if not cards:
            continue
        lines += ["", loc.get(heading)]
        for change in cards:
            lines.append(f"- {change.code} {change.name}")
            lines += [f"  {line}" for line in field_lines(loc, change.fields, mode, status == "added")]
            lines.append(f"  {printed_note(loc, change)}")
    if changes.rules or changes.constants:
        lines += ["", loc.get("errata.rules.heading")]
        for rule in changes.rules:
            mark = {"added": f" ({loc.get('errata.rules.added')})", "removed": f" ({loc.get('errata.rules.removed')})"}.get(rule.status, "")
            lines.append(f"- {rule.heading}{mark}")
            for text in rule.texts:
                lines.append(f"  {inline(text_diff(text.old or '', text.new or '', mode))}")
        if changes.constants:
            numbers = ", ".join(f"{c.name} {value_text(c.old)}{ARROW}{value_text(c.new)}" for c in changes.constants)
            lines.append(f"- {row(loc, loc.get('errata.rules.numbers'), numbers)}")
    if changes.stale:
        lines += ["", loc.get("errata.stale.heading")]
        for stale in changes.stale:
            lines.append(f"- {row(loc, f'{stale_subject(stale)} ({stale.key})', loc.get('errata.stale'))}")
    return "\n".join(lines)


def field_lines(loc, fields: list[FieldChange], mode: str, new_card: bool = False) -> list[str]:
    """One line per changed field: `ATK: 4 → 5`, `Effect: … [-old-]{+new+} …`, design inputs by name."""
    out = []
    for f in fields:
        label = field_label(loc, f.field)
        if new_card:
            value = value_text(f.new)
        elif f.field == "design":
            value = f"{f.path} {value_text(f.old)}{ARROW}{value_text(f.new)}"
        elif f.field in TEXT_FIELDS and isinstance(f.old, str) and isinstance(f.new, str):
            value = inline(text_diff(f.old, f.new, mode))
        else:
            value = f"{value_text(f.old)}{ARROW}{value_text(f.new)}"
        out.append(row(loc, label, value))
        if f.fallback:
            out[-1] += f" ({loc.get('errata.fallback')})"
    return out


# ── JSON ───────────────────────────────────────────────────────────────────
def json_report(project, errata: Errata, files: list[dict] | None = None) -> dict:
    """The stable JSON form: {"version": 1, "since", "game_version", "languages": [...], "warnings", "files"}."""
    languages = []
    for changes in errata.languages:
        languages.append({
            "lang": changes.lang,
            "new_language": changes.new_language,
            "changed": not changes.empty,
            "cards": [c.as_dict() for c in changes.cards],
            "rules": [r.as_dict() for r in changes.rules],
            "rule_constants": [{"name": c.name, "old": c.old, "new": c.new} for c in changes.constants],
            "stale": [{**s.as_dict(), "message": project.locale(changes.lang).get("errata.stale")} for s in changes.stale],
        })
    old, new = errata.versions
    return {
        "version": 1,
        "since": errata.since,
        "game_version": {"old": old, "new": new},
        "nothing_changed": errata.nothing_changed,
        "languages": languages,
        "warnings": errata.report.as_dict()["warnings"],
        "files": files or [],
    }
