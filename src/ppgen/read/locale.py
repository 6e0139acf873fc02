"""Locales: every word ppgen prints, per language, with English fallback.

File format (`locales/<lang>.yaml`): a flat mapping of dotted keys.
The source language (English) maps each key to its text::

    card.hastati-line.name: Hastati Line

A translation maps each key to its text and the hash of the English text it
translates (`src`), so ppgen can tell when the English changed since::

    card.hastati-line.name:
      text: ハスタティ戦列
      src: 1f0c2a9b

Optional per entry:

- `status: needs-translation` — the text is an English placeholder (added by
  `ppgen i18n sync`); the build prints English. Counts as *missing*.
- `status: needs-review` — the English changed since this was translated (set by
  `ppgen i18n sync`, with `src` updated to the new English); the build prints
  the translation, `ppgen i18n check` reports it as *stale* until a person has
  reviewed it and deleted the status line.
- `note:` — a translator's note, never printed.
- `checked: [numbers, terms]` — a reviewed exception: the named checks of
  `ppgen i18n check` have been read by a person and the text is right as it is.

Texts may contain {placeholders} (filled from game data) and **bold**.
"""
from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, Problem
from .schema import Field, check_mapping, describe, one_of, suggest
from .yamlio import Doc, load_yaml

SOURCE_LANG = "en"
KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*(?:\.[a-z0-9][a-z0-9_-]*)+$")
STATUSES = ("translated", "needs-translation", "needs-review")
# Checks of `ppgen i18n check` a translator may acknowledge on one entry with `checked:`.
# (missing, stale, markup and glyphs cannot be waived: they print wrong or broken text.)
ACKNOWLEDGEABLE = ("numbers", "terms", "untranslated", "fit", "keywords", "punctuation")


def _check_names(value) -> str | None:
    bad = [v for v in value if not isinstance(v, str) or v not in ACKNOWLEDGEABLE]
    if bad:
        meant = [m for v in bad for m in suggest(str(v), ACKNOWLEDGEABLE, 1)]
        hint = f"; did you mean {', '.join(repr(m) for m in meant)}?" if meant else ""
        return f"lists checks that cannot be acknowledged: {', '.join(map(str, bad))}{hint} (choose from {', '.join(ACKNOWLEDGEABLE)})"
    return None


ENTRY_SPEC = {
    "text": Field(str, True),
    "src": Field(str, False, check=lambda v: None if re.fullmatch(r"[0-9a-f]{8}", v) else "must be 8 hex digits"),
    "status": Field(str, False, "translated", check=one_of(*STATUSES)),
    "note": Field(str, False),
    "checked": Field(list, False, [], check=_check_names),
}


# Curly and straight quotes are one mark to the fingerprint: making English's apostrophes
# and quotation marks typographic (don't → don’t) changes no meaning, so it marks no
# translation stale.
_QUOTES = str.maketrans("‘’“”", "''\"\"")


def source_hash(text: str) -> str:
    """The fingerprint of an English text that a translation records as `src` (quotes curly or
    straight alike)."""
    return hashlib.sha256(text.strip().translate(_QUOTES).encode("utf-8")).hexdigest()[:8]


def placeholders(text: str) -> list[str]:
    """Names of the {placeholders} in a text (raises ValueError on bad braces)."""
    return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]


class Where(str):
    """Where a printed text comes from, as messages show it (`locales/ja.yaml:12:3 rules.goal.1`)
    and as its parts (file, line, col, key): errors raised deep in the text engine carry it."""

    file: str
    line: int
    col: int
    key: str

    def __new__(cls, file: str, line: int, col: int, key: str) -> "Where":
        where = super().__new__(cls, f"{file}:{line}:{col} {key}" if line else f"{file} {key}")
        where.file, where.line, where.col, where.key = file, line, col, key
        return where

    def __getnewargs__(self):  # pickled into and out of worker processes
        return (self.file, self.line, self.col, self.key)


@dataclass(frozen=True)
class Entry:
    key: str
    text: str
    src: str | None
    status: str
    line: int
    col: int
    checked: tuple[str, ...] = ()
    note: str | None = None


@dataclass
class Locale:
    """One language's words; looks up English for what is missing and remembers it."""

    lang: str
    file: str
    entries: dict[str, Entry]
    source: "Locale | None" = None  # English, for fallback; None for English itself
    doc: Doc | None = field(default=None, repr=False)
    fallbacks: set[str] = field(default_factory=set, repr=False)
    broken: dict[str, str] = field(default_factory=dict, repr=False)  # key -> placeholder problem (English printed)

    def is_translated(self, key: str) -> bool:
        entry = self.entries.get(key)
        return entry is not None and entry.status != "needs-translation"

    def get(self, key: str) -> str:
        """The text for `key`; English (recorded in `fallbacks`) when this language lacks it."""
        if self.is_translated(key):
            return self.entries[key].text
        text = self.peek(key)  # English, or KeyError
        self.fallbacks.add(key)
        return text

    def peek(self, key: str) -> str:
        """The text `get(key)` prints, without recording a fallback: for showing it (`ppgen serve`),
        not for printing it."""
        if self.is_translated(key):
            return self.entries[key].text
        if self.source is not None and self.source.is_translated(key):
            return self.source.entries[key].text
        raise KeyError(f"no text for '{key}' in {self.lang} or {SOURCE_LANG}")

    def format(self, key: str, **values) -> str:
        """`get(key)` with {placeholders} filled. A translation whose placeholders do not work
        (a typo such as {amout}) is recorded in `broken` and the English text is used; broken
        English is a DataError at its file:line:col."""
        text = self.get(key)
        if "{" not in text:
            return text
        try:
            return text.format(**values)
        except KeyError as exc:
            problem = f"an unknown placeholder {{{exc.args[0]}}}"
        except (ValueError, IndexError, AttributeError):
            problem = "a malformed {placeholder}"
        if self.source is not None and key not in self.fallbacks and self.source.is_translated(key):
            self.broken[key] = problem
            return self.source.format(key, **values)
        owner = self.source if key in self.fallbacks else self
        line, col = owner.position(key)
        raise DataError([Problem(owner.file, line, col, f"'{key}' has {problem} (known: {', '.join(sorted(values))})", "placeholder")])

    def has(self, key: str) -> bool:
        return self.is_translated(key) or (self.source is not None and self.source.is_translated(key))

    def keys(self) -> list[str]:
        return list(self.entries)

    def locate(self, key: str) -> tuple[str, int, int]:
        """(file, line, col) of the text `get(key)` returns: English's entry when it falls back."""
        owner = self if self.is_translated(key) or self.source is None else self.source
        line, col = owner.position(key)
        return owner.file, line, col

    def where(self, key: str) -> "Where":
        """`locales/ja.yaml:12:3 rules.goal.1`: where a printed text comes from, for messages."""
        return Where(*self.locate(key), key)

    def position(self, key: str) -> tuple[int, int]:
        entry = self.entries.get(key)
        return (entry.line, entry.col) if entry else (0, 0)


def load_locale(path: Path, lang: str, root: Path | None = None, source: Locale | None = None) -> Locale:
    """Load one locale file; raise DataError with every structural problem at file:line:col."""
    return parse_locale(load_yaml(path, root, plain_strings=True), lang, source)


def _empty(doc: Doc, path_, key: str, is_source: bool) -> Problem:
    """An empty (or blank) text would print nothing where the words go: a card without a name."""
    remedy = "write its words" if is_source else "write its words, or delete the entry to print the English until it is translated"
    return doc.problem(path_, f"'{key}' has an empty text: {remedy}", "empty")


def parse_locale(doc: Doc, lang: str, source: Locale | None = None) -> Locale:
    """A locale from its YAML document (read with `plain_strings`), checked."""
    problems: list[Problem] = []
    entries: dict[str, Entry] = {}
    data = doc.data
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise DataError([doc.problem((), f"a locale file must be a mapping of keys to texts, not {describe(data)}")])
    is_source = source is None
    for key, value in data.items():
        path_ = (key,)
        if not KEY_RE.match(key):
            problems.append(
                doc.problem(path_, f"bad key '{key}': use dotted lowercase words, e.g. card.hastati-line.name", "key", key=True)
            )
            continue
        if isinstance(value, str):
            if not value.strip():
                problems.append(_empty(doc, path_, key, is_source))
                continue
            line, col = doc.mark(path_)
            entries[key] = Entry(key, value, None, "translated", line, col)
            continue
        if is_source:
            problems.append(doc.problem(path_, f"'{key}' must be a text in the source language, not {describe(value)}", "type"))
            continue
        e = check_mapping(doc, path_, value, ENTRY_SPEC, problems, f"entry '{key}'")
        if e is None:
            continue
        if e["text"] is None and value.get("text") is not None:  # a text of another kind (a list): its type error says so
            continue
        if e["text"] is None or not e["text"].strip():
            problems.append(_empty(doc, path_ + ("text",), key, is_source))
            continue
        line, col = doc.mark(path_ + ("text",))
        entries[key] = Entry(key, e["text"], e.get("src"), e.get("status") or "translated", line, col, tuple(e.get("checked") or ()), e.get("note"))
    if problems:
        raise DataError(problems)
    return Locale(lang, doc.file, entries, source, doc)
