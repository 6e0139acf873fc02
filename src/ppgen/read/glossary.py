"""The glossary (`locales/glossary.yaml`): the game's terms in every language, as data.

It feeds the typesetting of every page (read here, below the text engine, so
that drawing can use it):

- **keywords** — the key words a card text opens a clause with ("On Deploy:",
  "Once per turn:" → ja 1ターンに1度：); set in bold by the card's key-word
  rule, never broken across lines, and checked by `ppgen i18n check`
  (check `keywords`: a translation that spells one differently);
- **unbreakable** — per language (and `all`), phrases a line never breaks
  inside: "Level < {n}", "{n} ATK", "{word} ♚" ({n} a signed number, {word}
  a word: in ja/zh the one character before);
- **breaks** — per language, compounds written solid with the place a
  two-line label or name should break ("スタンバイ|フェイズ").

and three checks of `ppgen i18n check`:

- **terms** — when an English text uses a term, the translation must use one of
  that language's forms of it (en "Missile Infantry" → ja 射撃歩兵).
- **numbers** — a term or *idiom* whose translation writes numbers the English
  does not (en "Once per turn" → ja "1ターンに1度") makes those numbers expected:
  the matched phrases are taken out of both texts before their numbers are compared,
  each English occurrence answering one translated occurrence.
- **untranslated** — `same_as_source` lists texts that may legitimately stay
  English (ATK, LP, the brand name).

English forms match case-insensitively on word boundaries, longest first, so
"Missile Infantry" is not also counted as "Infantry". Translated forms match as
substrings (Japanese and Chinese have no spaces; Korean attaches particles).
Both are looked for in texts whose {placeholders} are blanked: "{faction}" is
not the word "faction".
"""
from __future__ import annotations

import fnmatch
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..errors import DataError, Problem, display_path
from .files import read_text
from .schema import Field, check_mapping, describe, did_you_mean
from .yamlio import Doc, parse_yaml


@dataclass(frozen=True)
class Term:
    """One glossary row: English forms and, per language, the accepted translations."""

    en: tuple[str, ...]
    forms: dict  # lang -> tuple of accepted forms
    keys: tuple[str, ...] = ()  # where the terms check applies (fnmatch patterns); () = everywhere
    exclude_keys: tuple[str, ...] = ()  # where it never applies (the word means something else there)
    note: str | None = None
    idiom: bool = False  # idioms only feed the numbers check
    keyword: bool = False  # a key word (section `keywords`): bold, unbreakable, checked by `keywords`
    line: int = 0
    col: int = 0

    def label(self) -> str:
        return self.en[0]

    def applies_to(self, key: str) -> bool:
        if any(fnmatch.fnmatchcase(key, p) for p in self.exclude_keys):
            return False
        return not self.keys or any(fnmatch.fnmatchcase(key, p) for p in self.keys)


@dataclass(frozen=True)
class Match:
    """One occurrence of a glossary form in a text; `n` is the number in its {n} slot, if any."""

    term: Term
    start: int
    end: int
    n: int | None = None


SLOT = "{n}"


def form_regex(form: str, english: bool) -> re.Pattern:
    """A glossary form as a regex. `{n}` is a number slot (repeated slots must hold the same number).

    English forms match whole words, any run of spaces between words; translated
    forms match anywhere, spaces optional (ja/zh write "1体", ko "1장", both "1 장"),
    except that a number at a form's edge is never part of a longer number
    (the form 1枚 does not match the end of 11枚).
    """
    form = unicodedata.normalize("NFKC", form)
    space = r"\s+" if english else r"\s*"
    pieces = []
    for i, piece in enumerate(form.split(SLOT)):
        if i:
            pieces.append(r"(?P<n>\d+)" if i == 1 else r"(?P=n)")
        pieces.append(space.join(re.escape(w) for w in piece.split(" ")) if piece else "")
    body = "".join(pieces)
    if english:
        body = rf"(?<![\w-]){body}(?![\w-])"
    else:
        if form[:1].isdigit() or form.startswith(SLOT):
            body = rf"(?<!\d){body}"
        if form[-1:].isdigit() or form.endswith(SLOT):
            body = rf"{body}(?!\d)"
    return re.compile(body, re.IGNORECASE)


# The characters beyond ASCII that a case-insensitive regular expression matches to an ASCII letter
# (re's simple case folding: dotless ı and İ to i, long ſ to s, the Kelvin sign to k). In a text
# without them, an ASCII word matches exactly where the lowercased text holds it lowercased.
FOLDS_TO_ASCII = frozenset("\u0131\u0130\u017f\u212a")


@lru_cache(maxsize=4096)
def _ascii_words(form: str) -> tuple[str, ...] | None:
    """The words (lowercased) every match of `form_regex(form)` holds, or None when one is not
    ASCII (a text's case-insensitive match of it may then not be found by lower())."""
    words = tuple(w.lower() for piece in unicodedata.normalize("NFKC", form).split(SLOT) for w in piece.split(" ") if w)
    return words if all(w.isascii() for w in words) else None


_FOUND_KEPT = 20_000  # texts' matches a Glossary keeps (the workbench checks for hours)


@dataclass
class Glossary:
    file: str
    terms: list[Term] = field(default_factory=list)
    idioms: list[Term] = field(default_factory=list)
    keywords: list[Term] = field(default_factory=list)
    same_as_source: tuple[str, ...] = ()
    terms_skip: tuple[str, ...] = ()
    unbreakable: dict = field(default_factory=dict)  # lang or "all" -> phrase patterns
    breaks: dict = field(default_factory=dict)  # lang -> compounds with "|" where they break
    _regex: dict = field(default_factory=dict, repr=False)
    _found: dict = field(default_factory=dict, repr=False)  # (text, (lang, the items' ids)) -> matches (at most _FOUND_KEPT)
    _ordered: dict = field(default_factory=dict, repr=False)  # (lang, the items' ids) -> (the items, their forms longest first)

    def keyword_forms(self, lang: str, source: str = "en") -> tuple[str, ...]:
        """Every form of every key word in `lang` (the English forms for the source language)."""
        return tuple(f for t in self.keywords for f in (t.en if lang == source else t.forms.get(lang, ())))

    def unbreakable_in(self, lang: str, source: str = "en") -> tuple[str, ...]:
        """The phrases a line never breaks inside, in `lang`: its own, every language's, its key words."""
        return tuple(dict.fromkeys(self.unbreakable.get(lang, ()) + self.unbreakable.get("all", ()) + self.keyword_forms(lang, source)))

    def skips_terms(self, key: str) -> bool:
        return any(fnmatch.fnmatchcase(key, p) for p in self.terms_skip)

    def find(self, english: str, items: list[Term]) -> list[Match]:
        """The given terms or idioms used in an English text."""
        return self._match(english, items, None)

    def find_translated(self, text: str, lang: str, items: list[Term]) -> list[Match]:
        """The `lang` forms of the given terms or idioms used in a translated text."""
        return self._match(text, items, lang)

    def _match(self, text: str, items: list[Term], lang: str | None) -> list[Match]:
        """Occurrences of the items' forms (English ones for `lang` None), longest form first,
        never overlapping. Kept for the same text and items: each language's checks look for
        the terms in the same English texts (terms are frozen: a changed glossary is another
        Glossary)."""
        which = (lang, tuple(map(id, items)))
        key = (text, which)
        if key not in self._found:
            if len(self._found) >= _FOUND_KEPT or len(self._ordered) >= _FOUND_KEPT:
                self._found.clear()  # together: every id in a kept key belongs to a term `_ordered` keeps alive
                self._ordered.clear()
            self._found[key] = self._matched(text, self._candidates(which, items, lang), lang is None)
        return list(self._found[key])

    def _candidates(self, which: tuple, items: list[Term], lang: str | None) -> list[tuple[Term, str]]:
        """The items' (term, form) pairs, longest form first; kept with the terms themselves (their
        ids, in `which`, stay theirs while they are kept)."""
        kept = self._ordered.get(which)
        if kept is None:
            pairs = [(t, form) for t in items for form in (t.en if lang is None else t.forms.get(lang, ()))]
            kept = self._ordered[which] = (tuple(items), sorted(pairs, key=lambda tf: (-len(tf[1]), tf[1])))
        return kept[1]

    def _matched(self, text: str, candidates: list[tuple[Term, str]], english: bool) -> list[Match]:
        found: list[Match] = []
        lowered = text.lower() if text.isascii() or not FOLDS_TO_ASCII.intersection(text) else None  # then IGNORECASE ≡ lower()
        for term, form in candidates:
            words = _ascii_words(form) if lowered is not None else None
            if words is not None and not all(w in lowered for w in words):
                continue  # a word every match of the form holds is not in the text
            key = (form, english)
            if key not in self._regex:
                self._regex[key] = form_regex(form, english)
            for m in self._regex[key].finditer(text):
                if m.end() == m.start():
                    continue
                clash = [f for f in found if m.start() < f.end and f.start < m.end()]
                if clash and not all((f.start, f.end) == m.span() for f in clash):
                    continue  # inside a longer form (two terms may share one form: both count)
                n = int(m.group("n")) if "n" in self._regex[key].groupindex else None
                found.append(Match(term, m.start(), m.end(), n))
        return sorted(found, key=lambda f: f.start)


def used_terms(matches: list[Match]) -> list[Term]:
    """The distinct terms of some matches, in order of first use."""
    seen: dict[int, Term] = {}
    for m in matches:
        seen.setdefault(id(m.term), m.term)
    return list(seen.values())


def answering(english: list[Match], translated: list[Match]) -> list[Match]:
    """The translated matches that answer an English one, in text order.

    Each English occurrence of a term or idiom accounts for one occurrence of
    its translation: English "one d20 … two d6" makes one 2個 expected, and a
    second 2個 is a number of its own.
    """
    budget = Counter(id(m.term) for m in english)
    kept = []
    for m in translated:
        if budget[id(m.term)] > 0:
            budget[id(m.term)] -= 1
            kept.append(m)
    return kept


def blank_spans(text: str, matches: list[Match]) -> str:
    """`text` with the matched spans replaced by spaces (positions are kept)."""
    chars = list(text)
    for m in matches:
        chars[m.start:m.end] = " " * (m.end - m.start)
    return "".join(chars)


# ── loading ──────────────────────────────────────────────────────────────

def _texts(value) -> str | None:
    items = [value] if isinstance(value, str) else value
    if not items or not all(isinstance(v, str) and v.strip() for v in items):
        return "must be a text or a list of texts, none of them empty"
    return None


TOP_SPEC = {
    "same_as_source": Field(list, False, [], check=_texts, help="texts any language may leave in English"),
    "terms_skip": Field(list, False, [], check=_texts, help="keys the terms check skips (patterns like card.*.name)"),
    "terms": Field(list, False, []),
    "idioms": Field(list, False, []),
    "keywords": Field(list, False, []),
    "unbreakable": Field(dict, False, {}, help="per language (or all): phrases a line never breaks inside"),
    "breaks": Field(dict, False, {}, help="per language: compounds with | where a two-line label breaks"),
}

SECTIONS = {"terms": "term", "idioms": "idiom", "keywords": "keyword"}
PHRASE_SLOTS = re.compile(r"\{(?:n|word)\}")


def _term_spec(languages: list[str]) -> dict:
    spec = {
        "en": Field((str, list), True, check=_texts, help="the English term (or a list of its forms)"),
        "keys": Field(list, False, [], check=_texts, help="only check the term in these keys (patterns)"),
        "exclude_keys": Field(list, False, [], check=_texts, help="never check the term in these keys (patterns)"),
        "note": Field(str, False),
    }
    for lang in languages:
        spec[lang] = Field((str, list), False, check=_texts)
    return spec


def _as_tuple(value) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def load_glossary(path: Path, root: Path | None, languages: list[str], source: str = "en") -> Glossary:
    """Read the glossary; raise DataError with every problem at file:line:col. Missing file: empty glossary.

    The same file text read again in this process gives the same Glossary (its terms are never
    changed once read), and with it the matches it has already found: every game loaded in a
    long-lived process (the tests, a script comparing versions) checks its texts against the
    terms without finding them again."""
    if not Path(path).is_file():
        return Glossary(file="")
    return _glossary_of(read_text(path, root), display_path(path, root), tuple(languages), source)


@lru_cache(maxsize=4)  # (a text with problems raises, and is not kept)
def _glossary_of(text: str, shown: str, languages: tuple[str, ...], source: str) -> Glossary:
    return _read_glossary(parse_yaml(text, shown, plain_strings=True), list(languages), source)


def _read_glossary(doc: Doc, languages: list[str], source: str) -> Glossary:
    problems: list[Problem] = []
    data = doc.data if doc.data is not None else {}
    top = check_mapping(doc, (), data, TOP_SPEC, problems, "the glossary")
    if top is None:
        raise DataError(problems)
    langs = [lang for lang in languages if lang != source]
    glossary = Glossary(
        file=doc.file,
        same_as_source=_as_tuple(top["same_as_source"] or ()),
        terms_skip=_as_tuple(top["terms_skip"] or ()),
    )
    seen: dict[str, int] = {}
    for section in SECTIONS:
        for i, item in enumerate(top[section] or []):
            term = _load_term(doc, (section, i), item, langs, section, problems)
            if term is None:
                continue
            for form in term.en:
                k = f"{section}:{form.casefold()}"
                if k in seen:
                    problems.append(doc.problem((section, i, "en"), f"'{form}' is already in the glossary's {section} (line {seen[k]})", "duplicate"))
                seen.setdefault(k, term.line)
            getattr(glossary, section).append(term)
    glossary.unbreakable = _per_language(doc, "unbreakable", top["unbreakable"] or {}, [source, *langs, "all"], _phrase_problem, problems)
    glossary.breaks = _per_language(doc, "breaks", top["breaks"] or {}, [source, *langs], _break_problem, problems)
    if problems:
        raise DataError(problems)
    return glossary


def _phrase_problem(text: str) -> str | None:
    if "{" in PHRASE_SLOTS.sub("", text) or "}" in PHRASE_SLOTS.sub("", text):
        return f"'{text}': the only braces a phrase may hold are the slots {{n}} (a number) and {{word}} (a word)"
    if not PHRASE_SLOTS.sub("", text).strip():
        return f"'{text}' is only slots: a phrase needs some words of its own"
    return None


def _break_problem(text: str) -> str | None:
    parts = text.split("|")
    if len(parts) < 2 or not all(parts):
        return f"'{text}' must mark where it breaks with | between two parts, e.g. スタンバイ|フェイズ"
    return None


def _per_language(doc: Doc, section: str, data: dict, allowed: list[str], problem, problems: list[Problem]) -> dict:
    """A section `{lang: [texts]}` (`unbreakable`, `breaks`): languages known, every text checked."""
    out: dict[str, tuple[str, ...]] = {}
    for lang, value in data.items():
        path = (section, lang)
        if lang not in allowed:
            problems.append(doc.problem(path, f"unknown language '{lang}' in {section}{did_you_mean(str(lang), allowed)} (languages: {', '.join(allowed)})", "unknown-key", key=True))
            continue
        bad = _texts(value)
        if bad:
            problems.append(doc.problem(path, f"{section} of '{lang}' {bad}"))
            continue
        texts = _as_tuple(value)
        messages = [m for m in map(problem, texts) if m]
        problems.extend(doc.problem(path, m) for m in messages)
        if not messages:
            out[lang] = texts
    return out


def _load_term(doc: Doc, path: tuple, item, langs: list[str], section: str, problems: list[Problem]) -> Term | None:
    idiom = section == "idioms"
    what = f"{SECTIONS[section]} {path[1] + 1}"
    if isinstance(item, dict) and isinstance(item.get("en"), str):
        what = f"{SECTIONS[section]} '{item['en']}'"
    if not isinstance(item, dict):
        problems.append(doc.problem(path, f"each {path[0][:-1]} is a mapping (en: ..., ja: ...), not {describe(item)}"))
        return None
    spec = _term_spec(langs)
    before = len(problems)
    value = check_mapping(doc, path, item, spec, problems, what)
    if value is None or len(problems) > before:
        return None
    forms = {lang: _as_tuple(value[lang]) for lang in langs if value.get(lang)}
    for name, texts in [("en", _as_tuple(value["en"])), *forms.items()]:
        for text in texts:
            slots = text.count(SLOT)
            if slots and not idiom:
                problems.append(doc.problem(path + (name,), f"'{text}': number slots {SLOT} are for idioms, not terms"))
                return None
            if "{" in text.replace(SLOT, "") or "}" in text.replace(SLOT, ""):
                problems.append(doc.problem(path + (name,), f"'{text}': the only braces a glossary form may hold are the number slot {SLOT}"))
                return None
    if idiom:
        en_slots = {t.count(SLOT) > 0 for t in _as_tuple(value["en"])}
        tr_slots = {t.count(SLOT) > 0 for texts in forms.values() for t in texts}
        if en_slots | tr_slots != en_slots or len(en_slots) > 1:
            problems.append(doc.problem(path, f"{what}: either every form has a number slot {SLOT} or none has"))
            return None
    if idiom and not forms:
        problems.append(doc.problem(path, f"{what} gives no translation in any language"))
        return None
    line, col = doc.mark(path)
    return Term(_as_tuple(value["en"]), forms, _as_tuple(value["keys"] or ()), _as_tuple(value["exclude_keys"] or ()),
                value["note"], idiom, section == "keywords", line, col)
