"""The PO round trip: translators may work in Poedit, Weblate or any CAT tool.

Export (one language → one PO file), per English key, in English order::

    #. area: cards
    #: locales/en.yaml:71
    #, python-brace-format          (when the text has {placeholders})
    msgctxt "card.hastati-line.name"
    msgid "Hastati Line"           ← the current English
    msgstr "ハスタティ戦列"          ← the translation ("" when missing or needs-translation)

A stale entry (English changed, no `src`, or `needs-review`) is exported
`#, fuzzy`. ppgen stores only a fingerprint of the English a text was
translated from, not the text, so a fuzzy entry has no `#| msgid` (previous
English); an extracted comment says that the English changed. The YAML `note:`
becomes the translator comment.

Import updates, per PO entry with a non-empty msgstr: the text (when it
differs), `src` (the fingerprint of the PO's msgid) and `status` (removed when
the entry is no longer fuzzy; `needs-review` when it is fuzzy and its text
changed). Each exported translation carries `#. exported: <fingerprint>` of the
text it was exported as: an entry whose text the locale file has changed since
is left as the file has it (a fix made in the YAML while the PO was out is not
undone), with a warning when the PO changed it too. Missing keys are added in English order. Everything else — notes,
`checked:`, comments, order, quoting — stays byte-identical; an export imported
back without edits changes nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__
from ..errors import DataError, Problem, UsageError
from ..read.locale import load_locale, placeholders, source_hash
from .edit import LocaleText, read_locale_file, write_locale_file
from .states import area_of, stale_reason


def _polib():
    try:
        import polib
    except ModuleNotFoundError:  # pragma: no cover - declared in pyproject
        raise UsageError("the PO round trip needs the 'polib' package: pip install polib") from None
    return polib


def export_po(project, lang: str) -> tuple[str, int]:
    """The PO text for `lang`, and how many entries in it are fuzzy."""
    polib = _polib()
    src = project.config.source_language
    source = project.locale(src)
    loc = load_locale(project.dir.locale(lang), lang, project.dir.root, source)
    po = polib.POFile(wrapwidth=78)
    po.header = (f"{project.config.game}: {lang} translation, exported by ppgen from {loc.file}.\n"
                 "Import it back with: ppgen i18n import FILE.po\n"
                 "ppgen records no translator or date: your CAT tool fills in Last-Translator and PO-Revision-Date.")
    po.metadata = po_header(project, lang)
    fuzzy = 0
    for key, en in source.entries.items():
        if not en.text:
            continue  # an empty msgid would be the PO header
        entry = loc.entries.get(key)
        item = polib.POEntry(msgctxt=key, msgid=en.text, msgstr="", occurrences=[(source.file, str(en.line))])
        comments = [f"area: {area_of(key)}"]
        try:
            if placeholders(en.text):
                item.flags.append("python-brace-format")
        except ValueError:
            pass
        if entry is not None and entry.status != "needs-translation":
            item.msgstr = entry.text
            comments.append(f"{EXPORTED} {source_hash(entry.text)}")
            if stale_reason(en.text, entry):
                item.flags.insert(0, "fuzzy")
                comments.append("the English changed since this was translated (or it was never checked against it): review it")
                fuzzy += 1
        if entry is not None and entry.note:
            item.tcomment = entry.note
        item.comment = "\n".join(comments)
        po.append(item)
    return str(po) + "\n", fuzzy


EXPORTED = "exported:"  # an extracted comment: the fingerprint of the locale file's text the msgstr was exported as
_EXPORTED = re.compile(rf"^{EXPORTED} ([0-9a-f]{{8}})$", re.M)


def exported_as(item) -> str | None:
    """The fingerprint of the text the locale file held when `item` was exported (None: a PO file
    that does not say: from an older ppgen, or its comments dropped by a tool)."""
    found = _EXPORTED.search(item.comment or "")
    return found.group(1) if found else None


def po_header(project, lang: str) -> dict[str, str]:
    """The header msgfmt --check, Poedit and Weblate expect; Language and Plural-Forms from
    ppgen.yaml (`po_language`, `plural_forms`). Deterministic: ppgen does not know who
    translated what or when, so Last-Translator and PO-Revision-Date are present and empty."""
    language = project.language(lang)
    header = {
        "Project-Id-Version": project.config.game,
        "PO-Revision-Date": "",
        "Last-Translator": "",
        "Language-Team": language.name,
        "Language": language.po_language or lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    if language.plural_forms:
        header["Plural-Forms"] = language.plural_forms
    header["X-Generator"] = f"ppgen {__version__}"
    header["X-Source-Language"] = project.config.source_language
    return header


@dataclass
class ImportResult:
    lang: str
    file: str
    updated: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    unchanged: int = 0
    empty: int = 0
    problems: list[Problem] = field(default_factory=list)  # warnings about PO entries skipped
    written: bool = False
    kept: list[str] = field(default_factory=list)  # keys whose text the locale file changed since the export: left as they are


_PO_LINE = re.compile(r'^(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"(?:[^"\\]|\\.)*"\s*$')


def check_po_syntax(text: str, shown: str) -> None:
    """Refuse what polib would read leniently (an unterminated string loses its last character)."""
    problems = []
    for n, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not _PO_LINE.match(stripped):
            col = len(line) - len(line.lstrip()) + 1
            problems.append(Problem(shown, n, col, "not a PO line: expected msgctxt/msgid/msgstr \"...\", a \"...\" continuation or a # comment", "po"))
    if problems:
        raise DataError(problems)


def read_po(path: Path, shown: str, root: Path | None = None):
    from ..read.files import read_text

    polib = _polib()
    text = read_text(path, root)
    check_po_syntax(text, shown)
    try:
        return polib.pofile(text, wrapwidth=78)
    except (OSError, ValueError) as exc:
        message = str(exc)
        m = re.search(r"line (\d+)", message)
        line = int(m.group(1)) if m else 0
        raise DataError([Problem(shown, line, 1 if line else 0, f"not a readable PO file: {message}", "po")]) from None


def import_po(project, po_path: Path, lang: str | None = None, dry_run: bool = False) -> ImportResult:
    """Apply a PO file's translations to the language's locale file (see module doc)."""
    po_path = Path(po_path)
    po_shown = project.dir.show(po_path)
    if not po_path.is_file():
        raise UsageError(f"{po_path} does not exist")
    po = read_po(po_path, po_shown, project.dir.root)
    written = po.metadata.get("Language", "").strip()
    named = (project.find_language(written) or written) if written else None  # zh_CN, zh_Hans, ja_JP: as CAT tools write it
    if not lang:
        if not named:
            raise UsageError(f"{po_shown} names no language (no 'Language:' header); pass --lang")
        lang = named
    elif named and named != (project.find_language(lang) or lang):  # a Japanese file into ko.yaml would replace every Korean text
        raise UsageError(f"{po_shown} is a translation into '{written}' (its Language header), not '{lang}': "
                         f"import it without --lang, or correct its header")
    src = project.config.source_language
    if lang == src:
        raise UsageError(f"'{lang}' is the source language; a PO file imports translations")
    project.check_language(lang)
    source = project.locale(src)
    path = project.dir.locale(lang)
    text, style = read_locale_file(path, project.dir.root)
    loc = load_locale(path, lang, project.dir.root, source)
    result = ImportResult(lang, project.dir.show(path))
    edit = LocaleText(text, result.file)
    order = {key: i for i, key in enumerate(source.entries)}
    items = []
    for item in po:
        if item.obsolete or not item.msgid:
            continue
        where = (po_shown, item.linenum or 0)
        if not item.msgctxt:
            result.problems.append(Problem(*where, 1, f"entry \"{item.msgid[:40]}\" has no msgctxt (the key); skipped", "po", "warning"))
        elif item.msgctxt not in order:
            result.problems.append(Problem(*where, 1, f"'{item.msgctxt}' is not an English key; skipped", "po", "warning"))
        elif item.msgid_plural:
            result.problems.append(Problem(*where, 1, f"'{item.msgctxt}' has plural forms, which ppgen does not use; skipped", "po", "warning"))
        else:
            items.append(item)
    items.sort(key=lambda it: order[it.msgctxt])
    seen = set()
    for item in items:
        key = item.msgctxt
        if key in seen:
            result.problems.append(Problem(po_shown, item.linenum or 0, 1, f"'{key}' appears twice; the second is skipped", "po", "warning"))
            continue
        seen.add(key)
        if not item.msgstr.strip():  # empty, or only spaces: not translated (an empty text is refused)
            result.empty += 1
            continue
        if _edited_since_export(loc, key, item, po_shown, result):
            continue
        if _apply(edit, loc, source, key, item, order):
            (result.updated if key in loc.entries else result.added).append(key)
        else:
            result.unchanged += 1
    if edit.changed:
        new = edit.result()
        if not dry_run:
            write_locale_file(path, new, style)
            result.written = True
    return result


def _edited_since_export(loc, key: str, item, po_shown: str, result: ImportResult) -> bool:
    """Is the locale file's text of `key` newer than the PO entry's? When the file changed since the
    export (its text is not the one the entry was exported as), the file's text is kept: quietly when
    the PO entry still holds what was exported (a fix made in the YAML while the PO was out for
    review), with a warning naming both when the PO changed it too."""
    exported = exported_as(item)
    entry = loc.entries.get(key)
    if exported is None or entry is None or source_hash(entry.text) == exported:
        return False
    result.kept.append(key)
    if source_hash(item.msgstr) != exported:
        result.problems.append(Problem(po_shown, item.linenum or 0, 1,
                                       f"'{key}' was changed in {loc.file} since the export and in this PO file: kept the file's "
                                       f"\"{entry.text}\"; the PO's is \"{item.msgstr}\"", "po", "warning"))
    return True


def _apply(edit: LocaleText, loc, source, key: str, item, order: dict) -> bool:
    """Ask `edit` for the changes one PO entry makes; return whether it changes anything."""
    english = source.entries[key].text
    fuzzy = "fuzzy" in item.flags
    current = item.msgid == english
    translated_from = source_hash(item.msgid)
    entry = loc.entries.get(key)
    if entry is None:
        fields = {"text": item.msgstr, "src": translated_from}
        if fuzzy or not current:
            fields["status"] = "needs-review"
        previous = None
        for k in source.entries:
            if k == key:
                break
            if k in loc.entries:
                previous = k
        edit.insert_entry(previous, key, fields)
        return True
    changes = {}
    text_changed = item.msgstr != entry.text
    if text_changed:
        changes["text"] = item.msgstr
    remove_status = False
    if not fuzzy and current:
        if entry.src != translated_from:
            changes["src"] = translated_from
        remove_status = entry.status != "translated"
    elif fuzzy and not text_changed and entry.status != "needs-translation":
        pass  # exported fuzzy, still fuzzy, same text: nothing to do
    else:  # fuzzy with a new text, or translated from an English that has changed since
        if entry.src != translated_from:
            changes["src"] = translated_from
        if entry.status != "needs-review":
            changes["status"] = "needs-review"
    for name, value in changes.items():
        edit.set_field(key, name, value)
    if remove_status:
        edit.remove_field(key, "status")
    return bool(changes) or remove_status
