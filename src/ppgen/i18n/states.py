"""What state each translated entry is in, and the per-language counts of `ppgen i18n status`.

Every key of the English locale is, in another language, exactly one of:

- **missing** — the key is absent, or its `status` is `needs-translation` (the
  text is an English placeholder; the build prints English);
- **stale** — the English changed since the entry was translated (`src` is not
  the fingerprint of the current English), the entry has no `src` (ppgen cannot
  tell), or its `status` is `needs-review` (the build prints the translation,
  but a person must check it against the new English);
- **untranslated** — the text is identical to English where words are expected;
- **translated** — everything else.

Keys a language has and English does not are **orphans** (counted apart).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ..read.locale import Entry, Locale, source_hash
from ..read.glossary import Glossary

# Areas of keys, first matching prefix wins: (area, key prefix). Used by `status`.
AREAS: tuple[tuple[str, str], ...] = (("cards", "card."), ("rules", "rules."), ("labels", ""))
STATES = ("translated", "missing", "stale", "untranslated")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def area_of(key: str) -> str:
    return next(area for area, prefix in AREAS if key.startswith(prefix))


def expects_words(text: str, glossary: Glossary) -> bool:
    """True when a text has words to translate: not only placeholders, numbers,
    punctuation, or texts the glossary lets stay English (ATK, LP, the brand)."""
    rest = _PLACEHOLDER.sub(" ", text)
    for same in sorted(glossary.same_as_source, key=len, reverse=True):
        rest = re.sub(rf"(?<!\w){re.escape(same)}(?!\w)", " ", rest)
    return any(unicodedata.category(ch).startswith("L") for ch in rest)


def is_untranslated(english: str, entry: Entry, glossary: Glossary) -> bool:
    return entry.text.strip() == english.strip() and expects_words(english, glossary)


def stale_reason(english: str, entry: Entry) -> str | None:
    """Why a (translated) entry is stale, or None: 'needs-review', 'no-src' or 'changed'."""
    if entry.status == "needs-review":
        return "needs-review"
    if entry.src is None:
        return "no-src"
    if entry.src != source_hash(english):
        return "changed"
    return None


def entry_state(english: str, entry: Entry | None, glossary: Glossary) -> str:
    if entry is None or entry.status == "needs-translation":
        return "missing"
    if stale_reason(english, entry):
        return "stale"
    if is_untranslated(english, entry, glossary) and "untranslated" not in entry.checked:
        return "untranslated"  # (`checked: [untranslated]`: reviewed, it stays English, as `check` says: translated)
    return "translated"


@dataclass
class Counts:
    total: int = 0
    translated: int = 0
    missing: int = 0
    stale: int = 0
    untranslated: int = 0

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0

    def add(self, state: str) -> None:
        self.total += 1
        setattr(self, state, getattr(self, state) + 1)

    def as_dict(self) -> dict:
        return {"total": self.total, **{s: getattr(self, s) for s in STATES}, "percent": round(self.percent, 1)}


@dataclass
class LanguageStatus:
    lang: str
    name: str
    file: str
    all: Counts = field(default_factory=Counts)
    areas: dict[str, Counts] = field(default_factory=dict)
    orphans: int = 0

    def as_dict(self) -> dict:
        return {
            "lang": self.lang,
            "name": self.name,
            "file": self.file,
            **self.all.as_dict(),
            "orphans": self.orphans,
            "areas": {area: c.as_dict() for area, c in self.areas.items()},
        }


def language_status(source: Locale, loc: Locale, glossary: Glossary, name: str = "") -> LanguageStatus:
    """Counts of every state, overall and per area, for one language."""
    status = LanguageStatus(loc.lang, name or loc.lang, loc.file)
    for area, _ in AREAS:
        status.areas[area] = Counts()
    for key, en in source.entries.items():
        if loc is source:
            state = "translated"
        else:
            state = entry_state(en.text, loc.entries.get(key), glossary)
        status.all.add(state)
        status.areas[area_of(key)].add(state)
    status.orphans = sum(1 for key in loc.entries if key not in source.entries)
    status.areas = {a: c for a, c in status.areas.items() if c.total}
    return status
