"""`ppgen i18n sync`: bring a language's locale file up to date with English.

- A key English has and the language lacks is added, in English order (after
  the nearest earlier English key the file has), as a block entry with the
  English text, its `src` and `status: needs-translation`.
- A stale entry (English changed, or no `src`) gets the current `src` and
  `status: needs-review`; its text is never rewritten.
- Orphans (keys English does not have) are listed, and removed only with
  `prune=True`, each one named.

Nothing else in the file changes: comments, order, quoting and blank lines stay
byte-identical (see `edit`). The file is written atomically, and only when
something changed; on any error it is left untouched.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from ..read.locale import load_locale, source_hash
from .edit import FileStyle, LocaleText, read_locale_file, write_locale_file
from .states import stale_reason


@dataclass
class SyncResult:
    lang: str
    file: str
    added: list[str] = field(default_factory=list)
    marked: list[str] = field(default_factory=list)
    orphans: list[tuple[str, int, int]] = field(default_factory=list)  # key, line, col
    pruned: list[str] = field(default_factory=list)
    created: bool = False
    written: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.added or self.marked or self.pruned or self.created)


def new_locale_text(project, lang: str) -> str:
    """The header of a locale file for a language configured in ppgen.yaml but without a file yet."""
    name = project.config.languages[lang].name
    return (
        f"# {project.config.game} — {name} ({lang})\n#\n"
        "# Each entry: text = the translation, src = fingerprint of the English text it\n"
        "# translates. See README: \"Locale files (for translators)\".\n"
    )


def target_languages(project, lang: str | None) -> list[str]:
    """The languages a sync/export concerns: `lang`, or every language but the source."""
    src = project.config.source_language
    if lang is None:
        return [code for code in project.languages if code != src]
    if lang == src:
        raise UsageError(f"'{lang}' is the source language: it is what the others are synced to")
    if lang not in project.languages and lang not in project.config.languages:
        project.check_language(lang)  # raises with "did you mean"
    return [lang]


def sync_language(project, lang: str, prune: bool = False, dry_run: bool = False) -> SyncResult:
    path = project.dir.locale(lang)
    shown = project.dir.show(path)
    source = project.locale(project.config.source_language)
    result = SyncResult(lang, shown)
    if path.is_file():
        text, style = read_locale_file(path, project.dir.root)
        loc = load_locale(path, lang, project.dir.root, source)  # refuses a broken file before any edit
        entries = loc.entries
    else:
        text, style, entries = new_locale_text(project, lang), FileStyle(), {}
        result.created = True
    edit = LocaleText(text, shown)
    previous = None
    for key, en in source.entries.items():
        entry = entries.get(key)
        now = source_hash(en.text)
        if entry is None:
            edit.insert_entry(previous, key, {"text": en.text, "src": now, "status": "needs-translation"})
            result.added.append(key)
            continue
        previous = key
        if entry.status == "needs-translation":
            continue
        reason = stale_reason(en.text, entry)
        if reason in ("changed", "no-src") or (reason == "needs-review" and entry.src != now):
            edit.set_field(key, "src", now)
            if entry.status != "needs-review":
                edit.set_field(key, "status", "needs-review")
            result.marked.append(key)
    for key, entry in entries.items():
        if key not in source.entries:
            line, col = loc.doc.key_mark((key,))
            result.orphans.append((key, line, col))
            if prune:
                edit.delete_entry(key)
                result.pruned.append(key)
    if result.changed and not dry_run:
        write_locale_file(path, edit.result(), style)
        result.written = True
    elif result.changed:
        edit.result()  # a dry run still proves the edit would come out right
    return result
