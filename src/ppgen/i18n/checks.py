"""The checks of `ppgen i18n check`: every problem a translator must fix, at file:line:col.

A check is a small function registered in `CHECKS` with `@check(...)`. It gets a
`Context` for one language and reports problems with `ctx.report(key, ...)`,
which places them at the entry's line and column and drops those a translator
acknowledged on the entry (`checked: [numbers]`). `run_checks` runs every
registered check on every language and returns one `Report`.

Adding a check is adding one function here; adding a language is adding a
locale file and its fonts in ppgen.yaml (no code).
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..errors import DataError, PpgenError, Problem
from ..read.locale import ACKNOWLEDGEABLE, Entry, Locale, placeholders, source_hash
from ..read.schema import suggest
from ..typeset.phrases import leading_clauses
from ..read.glossary import Glossary, answering, blank_spans, used_terms
from .states import is_untranslated, stale_reason

NUMBER = re.compile(r"\d+")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
# Font roles a text is drawn in, by key pattern (first match wins); **bold** spans also use "bold".
FONT_ROLES = ((re.compile(r"^card\.[^.]+\.name$"), ("title", "bold")), (re.compile(r""), ("body",)))


@dataclass(frozen=True)
class Finding:
    """A problem, with the language and key it concerns (None: the whole file)."""

    lang: str
    key: str | None
    problem: Problem

    def as_dict(self) -> dict:
        return {**self.problem.as_dict(), "lang": self.lang, "key": self.key}


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    infos: list[str] = field(default_factory=list)
    acknowledged: int = 0
    languages: list[str] = field(default_factory=list)
    unreadable: bool = False  # a file could not be read as data (or is missing): the command exits 2, as any other does

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.problem.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.problem.severity == "warning"]

    def sorted(self) -> list[Finding]:
        return sorted(self.findings, key=lambda f: (f.problem.file, f.problem.line, f.problem.col, f.problem.code, f.problem.message))

    def info(self, message: str) -> None:
        if message not in self.infos:
            self.infos.append(message)


@dataclass
class Context:
    """One language being checked, and where its problems go."""

    project: object
    lang: str
    source: Locale
    locale: Locale
    glossary: Glossary
    results: Report
    found: set = field(default_factory=set)  # (key, check) that reported something

    @property
    def is_source(self) -> bool:
        return self.locale is self.source

    def english(self, key: str) -> str:
        return self.source.entries[key].text

    def content(self) -> Iterator[tuple[str, Entry, str]]:
        """(key, entry, English) for every entry that holds a translation to check."""
        for key, entry in self.locale.entries.items():
            en = self.source.entries.get(key)
            if en is not None and (self.is_source or entry.status != "needs-translation"):
                yield key, entry, en.text

    def report_at(self, key: str | None, line: int, col: int, check: str, message: str, severity: str = "error") -> None:
        entry = self.locale.entries.get(key) if key else None
        self.found.add((key, check))
        if entry is not None and check in entry.checked:
            self.results.acknowledged += 1
            return
        self.results.findings.append(Finding(self.lang, key, Problem(self.locale.file, line, col, message, check, severity)))

    def report(self, key: str, check: str, message: str, severity: str = "error", at: str | None = None) -> None:
        """A problem with the entry `key`, at its text's line and column — at the character `at`
        (its first occurrence) where the file shows it on the text's first line as the text has it."""
        line, col = self.locale.position(key)
        if at is not None and line:
            col = self._column_of(key, line, col, at)
        self.report_at(key, line, col, check, message, severity)

    def _column_of(self, key: str, line: int, col: int, ch: str) -> int:
        """The column of `ch` in the file, on the line where `key`'s text starts at `col`: counted
        from the text's start (past an opening quote), and only where that column holds `ch`
        (an escape or a line break before it: the text's start, as before)."""
        if not hasattr(self, "_lines"):
            try:
                self._lines = (self.project.dir.root / self.locale.file).read_text(encoding="utf-8-sig").split("\n")
            except (OSError, UnicodeDecodeError):
                self._lines = []
        index = self.locale.entries[key].text.find(ch)
        if index < 0 or line > len(self._lines):
            return col
        raw = self._lines[line - 1]
        start = col - 1 + (1 if raw[col - 1:col] in ("'", '"') else 0)
        return start + index + 1 if raw[start + index:start + index + 1] == ch else col

    def info(self, message: str) -> None:
        self.results.info(message)


@dataclass(frozen=True)
class Check:
    name: str
    summary: str
    run: Callable[[Context], None]
    source: bool = False  # also run on the source language
    glossary: bool = False  # needs the glossary (skipped while the glossary has errors)


CHECKS: list[Check] = []


def check(name: str, summary: str, source: bool = False, glossary: bool = False):
    """Register a check function under `name` (the code shown as error[name])."""

    def register(fn: Callable[[Context], None]):
        CHECKS.append(Check(name, summary, fn, source, glossary))
        return fn

    return register


def check_names() -> list[str]:
    return [c.name for c in CHECKS]


def shorten(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ── the checks ───────────────────────────────────────────────────────────

@check("missing", "a key English has and this language lacks, or an entry still marked needs-translation")
def check_missing(ctx: Context) -> None:
    edit = None
    previous = None  # the nearest earlier English key this language has
    for key, en in ctx.source.entries.items():
        entry = ctx.locale.entries.get(key)
        where = f"{ctx.source.file}:{en.line}"
        if entry is None:
            if edit is None:
                edit = _locale_text(ctx)
            line = edit.insertion_line(previous) if edit else 0
            ctx.report_at(key, line, 1 if line else 0, "missing",
                          f"'{key}' is missing (English at {where}: \"{shorten(en.text)}\"); `ppgen i18n sync` adds it here")
            continue
        previous = key
        if entry.status == "needs-translation":
            ctx.report(key, "missing", f"'{key}' is not translated yet (status: needs-translation); English: \"{shorten(en.text)}\"")


@check("orphan", "a key this language has and English does not")
def check_orphan(ctx: Context) -> None:
    absent = [k for k in ctx.source.entries if k not in ctx.locale.entries]
    for key in ctx.locale.entries:
        if key not in ctx.source.entries:
            close = suggest(key, absent, 1)
            hint = f"; did you mean '{close[0]}'?" if close else "; delete it, or run `ppgen i18n sync --prune`"
            line, col = ctx.locale.doc.key_mark((key,)) if ctx.locale.doc else ctx.locale.position(key)
            ctx.report_at(key, line, col, "orphan", f"'{key}' is not in English ({ctx.source.file}){hint}")


@check("stale", "the English changed since the entry was translated (or the entry cannot tell, or is marked needs-review)")
def check_stale(ctx: Context) -> None:
    """The English a stale entry is to be checked against is given whole, with its line: it is
    what the translator reads next (a shortened one hid the words that changed)."""
    for key, entry, english in ctx.content():
        reason = stale_reason(english, entry)
        now = source_hash(english)
        source = ctx.source.entries.get(key)
        at = f"{ctx.source.file}:{source.line}" if source is not None else str(ctx.source.file)
        whole = " ".join(english.split())
        if reason == "needs-review":
            tail = f" and set `src: {now}`" if entry.src != now else ""
            ctx.report(key, "stale", f"'{key}' is marked needs-review: check it against the English at {at}, \"{whole}\", then delete the status line{tail}")
        elif reason == "no-src":
            ctx.report(key, "stale", f"'{key}' has no src, so nobody can tell whether the English changed since it was translated; run `ppgen i18n sync` (it records src and marks the entry needs-review)")
        elif reason == "changed":
            ctx.report(key, "stale", f"'{key}': the English changed since this was translated (src {entry.src}, English at {at} now {now}: \"{whole}\"); review the text, then set `src: {now}`")


@check("untranslated", "identical to English where words are expected", glossary=True)
def check_untranslated(ctx: Context) -> None:
    for key, entry, english in ctx.content():
        if is_untranslated(english, entry, ctx.glossary):
            ctx.report(key, "untranslated", f"'{key}' is identical to English (\"{shorten(english)}\"); translate it, or add `checked: [untranslated]` if it stays English")


def prose(text: str) -> str:
    """`text` NFKC-normalised, its {placeholders} blanked (positions kept).

    What glossary terms and idioms are looked for in: a placeholder's name
    ({faction}, {field}) is not a word of the text, nor its digits numbers.
    """
    return PLACEHOLDER.sub(lambda m: " " * len(m.group()), unicodedata.normalize("NFKC", text))


def numbers_in(text: str) -> Counter:
    """The numbers of a text as a multiset (full-width digits normalised, placeholders ignored)."""
    return Counter(int(n) for n in NUMBER.findall(unicodedata.normalize("NFKC", PLACEHOLDER.sub(" ", text))))


def comparable_numbers(english: str, translation: str, lang: str, glossary: Glossary) -> tuple[Counter, Counter]:
    """The numbers of both texts once glossary terms and idioms are taken out of both.

    A glossary entry found in the English (e.g. "Once per turn") removes itself
    from the English and its translations (e.g. "1ターンに1度") from the
    translation, so the numbers an idiom writes are expected, not reported —
    as many times as the English says it: "two d6" once answers one 2個, not
    every 2個 of the translation. An idiom with a number slot
    ("{n} ATK and {n} DEF" → "ATKとDEFが{n}") counts its number once on each
    side, so a wrong number is still caught. {placeholders} are no part of
    either text here.
    """
    english, translation = prose(english), prose(translation)
    en_found = glossary.find(english, [t for t in glossary.terms + glossary.idioms if t.forms.get(lang)])
    tr_found = glossary.find_translated(translation, lang, used_terms(en_found))
    tr_found = answering(en_found, tr_found)
    slots = lambda found: Counter(m.n for m in found if m.n is not None)  # noqa: E731
    return (numbers_in(blank_spans(english, en_found)) + slots(en_found),
            numbers_in(blank_spans(translation, tr_found)) + slots(tr_found))


@check("numbers", "the numbers in the translation differ from the English (as multisets; glossary idioms allowed)", glossary=True)
def check_numbers(ctx: Context) -> None:
    if ctx.is_source:
        return
    for key, entry, english in ctx.content():
        en, tr = comparable_numbers(english, entry.text, ctx.lang, ctx.glossary)
        if en != tr:
            lacking, extra = en - tr, tr - en
            parts = []
            if lacking:
                parts.append(f"lacks {', '.join(map(str, sorted(lacking.elements())))}")
            if extra:
                parts.append(f"has extra {', '.join(map(str, sorted(extra.elements())))}")
            # a number both have, as often as each has it: "1 twice in English, once here"
            counted = [f"{n} {_times(en[n])} in English, {_times(tr[n])} here" for n in sorted(set(lacking) | set(extra)) if en[n] and tr[n]]
            said = f" ({'; '.join(counted)})" if counted else ""
            ctx.report(key, "numbers", f"'{key}': numbers differ from English \"{shorten(english)}\": the translation {' and '.join(parts)}{said}")


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


@check("terms", "the English uses a glossary term and the translation does not use that language's term", glossary=True)
def check_terms(ctx: Context) -> None:
    if ctx.is_source or not ctx.glossary.terms:
        return
    for key, entry, english in ctx.content():
        if ctx.glossary.skips_terms(key):
            continue
        terms = [t for t in ctx.glossary.terms if t.forms.get(ctx.lang) and t.applies_to(key)]
        used = used_terms(ctx.glossary.find(prose(english), terms))
        if not used:
            continue
        present = {id(m.term) for m in ctx.glossary.find_translated(prose(entry.text), ctx.lang, used)}
        for term in used:
            if id(term) not in present:
                want = " or ".join(term.forms[ctx.lang])
                ctx.report(key, "terms", f"'{key}': the English says \"{term.label()}\"; the {ctx.lang} glossary term is {want} ({ctx.glossary.file}:{term.line})")


def markup_of(text: str) -> tuple[list[str], int, list[str]]:
    """(placeholder names, number of **bold** spans, syntax problems) of a text."""
    problems = []
    try:
        names = placeholders(text)
    except ValueError as exc:
        names = []
        problems.append(f"braces do not parse ({exc}); write {{name}} for a placeholder and {{{{ or }}}} for a brace")
    if text.count("**") % 2:
        problems.append("has an odd number of ** (bold is **like this**)")
    return names, text.count("**") // 2, problems


@check("markup", "placeholders or **bold** differ from the English, or do not parse; a card text with braces", source=True)
def check_markup(ctx: Context) -> None:
    for key, entry, english in ctx.content():
        if key.startswith("card.") and ("{" in entry.text or "}" in entry.text):  # printed as written: "{bogus}" on the card
            ctx.report(key, "markup", f"'{key}' has braces: a card's texts take no {{placeholders}} and are printed as written, "
                                      "braces and all")
            continue
        names, bold, problems = markup_of(entry.text)
        for message in problems:
            ctx.report(key, "markup", f"'{key}' {message}")
        if ctx.is_source or problems:
            continue
        en_names, en_bold, en_problems = markup_of(english)
        if en_problems:
            continue
        here, there = Counter(names), Counter(en_names)
        if here != there:
            fewer = sorted(n for n in there if here[n] < there[n])
            more = sorted(n for n in here if here[n] > there[n])
            parts = [_placeholder_difference(name, here[name], there[name], there) for name in fewer + more]
            ctx.report(key, "markup", f"'{key}': placeholders differ from English: the translation {' and '.join(parts)}")
        if bold != en_bold:
            ctx.report(key, "markup", f"'{key}': English sets {en_bold} term(s) in **bold**, the translation {bold}")


def _placeholder_difference(name: str, here: int, there: int, english=()) -> str:
    """How often a translation has {name} against the English: "lacks {n}", "has unknown {x}" (with
    the English placeholder it may mean: `english`, the names the English has), or, where both
    have it, "has {starting_life} twice where English has it once" (it said "unknown")."""
    def times(n: int) -> str:
        return {1: "once", 2: "twice"}.get(n, f"{n} times")

    shown = "{" + name + "}"
    if not here:
        return f"lacks {shown}"
    if not there:
        from ..read.schema import suggest

        meant = suggest(name, list(english), 1)
        return f"has unknown {shown}" + (f" (did you mean {{{meant[0]}}}?)" if meant else "")
    return f"has {shown} {times(here)} where English has it {times(there)}"


def _clause_form(text: str) -> str:
    """A clause as the key-word check compares it: NFKC (： is :), spaces collapsed, any case."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


@check("keywords", "the English opens a clause with a glossary key word and the translation spells it otherwise", glossary=True)
def check_keywords(ctx: Context) -> None:
    if ctx.is_source or not ctx.glossary.keywords:
        return
    for key, entry, english in ctx.content():
        opens = {_clause_form(english[a:b]) for a, b in leading_clauses(english)}
        wanted = [t for t in ctx.glossary.keywords if t.forms.get(ctx.lang) and opens & {_clause_form(f) for f in t.en}]
        if not wanted:
            continue
        clauses = [entry.text[a:b].strip() for a, b in leading_clauses(entry.text)]
        have = {_clause_form(c) for c in clauses}
        for term in wanted:
            forms = term.forms[ctx.lang]
            if have & {_clause_form(f) for f in forms}:
                continue
            found = f"it opens {', '.join(clauses)}" if clauses else "it opens no clause with a colon"
            ctx.report(key, "keywords",
                       f"'{key}': the English opens a clause with the key word \"{term.label()}\"; the {ctx.lang} glossary spells it "
                       f"{' or '.join(forms)} ({ctx.glossary.file}:{term.line}), {found}: spell it as the glossary does, so that "
                       "it reads the same on every card and is never broken across lines", "warning")


STRAIGHT_QUOTES, CURLY_QUOTES = "'\"", "‘’“”"


def smart_quotes(text: str) -> str:
    """`text` with its straight quotes and apostrophes made curly: don’t, players’, “word”, ‘word’,
    ‘{name}’, ‘: ’ (a quote opens after a space or an opening mark, and the next one closes it)."""
    out = []
    open_single = open_double = False
    for i, ch in enumerate(text):
        before = text[i - 1] if i else " "
        after = text[i + 1 : i + 2]
        opening = before.isspace() or before in "([{—–-‘“/"
        if ch == "'":
            if before.isalnum() and after.isalnum():  # an apostrophe inside a word
                out.append("’")
            elif opening and not open_single and after and not after.isspace():
                out.append("‘")
                open_single = True
            else:
                out.append("’")
                open_single = False
        elif ch == '"':
            out.append("”" if open_double else "“")
            open_double = not open_double
        else:
            out.append(ch)
    return "".join(out)


def straight_quotes(text: str) -> str:
    return text.translate(str.maketrans("‘’“”", "''\"\""))


@check("punctuation", "a straight quote or apostrophe where the language's style (ppgen.yaml quotes:) uses curly ones, or the reverse", source=True)
def check_punctuation(ctx: Context) -> None:
    language = ctx.project.config.languages.get(ctx.lang)
    style = language.quotes if language else "any"
    if style == "any":
        return
    wrong = STRAIGHT_QUOTES if style == "curly" else CURLY_QUOTES
    marks = "’ ‘ “ ”" if style == "curly" else "' \""
    for key, entry, _ in ctx.content():
        bad = "".join(dict.fromkeys(ch for ch in PLACEHOLDER.sub("", entry.text) if ch in wrong))
        if bad:
            fixed = smart_quotes(entry.text) if style == "curly" else straight_quotes(entry.text)
            kind = "straight" if style == "curly" else "curly"
            ctx.report(key, "punctuation",
                       f"'{key}' has {kind} {' '.join(bad)} in \"{shorten(entry.text)}\"; the {ctx.lang} style is {marks} "
                       f"({ctx.project.config.file}: quotes: {style}): write \"{shorten(fixed)}\"")


@check("glyphs", "a character no font of the language's font chain can draw", source=True)
def check_glyphs(ctx: Context) -> None:
    try:
        chains = {}
        for key, entry, _ in ctx.content():
            text = PLACEHOLDER.sub("", entry.text)
            parts = [(role, text.replace("**", "")) for role in next(r for p, r in FONT_ROLES if p.search(key))]
            parts += [("bold", span) for span in BOLD.findall(text)]
            missing: dict[tuple, tuple[list, list]] = {}  # chain files -> (roles, characters)
            for role, part in parts:
                if role not in chains:
                    chains[role] = ctx.project.fonts.chain(ctx.lang, role)
                files = tuple(f.path.name for f in chains[role].fonts)
                roles, chars = missing.setdefault(files, ([], []))
                if role not in roles:
                    roles.append(role)
                chars += [ch for ch in chains[role].missing(part) if ch not in chars]
            for files, (roles, chars) in missing.items():
                if chars:
                    shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in chars)
                    ctx.report(key, "glyphs", f"'{key}': no {'/'.join(roles)} font of {ctx.lang} draws {shown} (fonts: {', '.join(files)})",
                               at=chars[0])
    except PpgenError as exc:  # no fonts configured, a font file missing or unusable
        ctx.report_at(None, 0, 0, "glyphs", f"cannot check glyphs: {exc}")


@check("fit", "a card's name or effect does not fit its box at the template's minimum size", source=True, glossary=True)
def check_fit(ctx: Context) -> None:
    from .fit import check_fit as fit_problems

    if not ctx.project.dir.template("card").is_file():
        ctx.info(f"fit check skipped: the game directory has no {ctx.project.dir.show(ctx.project.dir.template('card'))}")
        return
    for problem in fit_problems(ctx.project, ctx.lang):
        key = _key_at(ctx.locale, problem.line)
        entry = ctx.locale.entries.get(key) if key else None
        ctx.found.add((key, "fit"))
        if entry is not None and "fit" in entry.checked:
            ctx.results.acknowledged += 1
        else:
            ctx.results.findings.append(Finding(ctx.lang, key, problem))


def _key_at(loc: Locale, line: int) -> str | None:
    return next((k for k, e in loc.entries.items() if e.line == line), None)


# ── running ──────────────────────────────────────────────────────────────

def _locale_text(ctx: Context):
    """The locale file's text with entry positions (for where a missing key belongs)."""
    from .edit import LocaleText

    path = ctx.project.dir.locale(ctx.lang)
    try:
        return LocaleText(path.read_text(encoding="utf-8").replace("\r\n", "\n"), ctx.locale.file)
    except (OSError, PpgenError):
        return None


def load_project_glossary(project) -> Glossary:
    return project.glossary


def _unused_acknowledgements(ctx: Context, ran: set[str]) -> None:
    for key, entry in ctx.locale.entries.items():
        for name in entry.checked:
            if name in ran and (key, name) not in ctx.found:
                line, col = ctx.locale.doc.mark((key, "checked")) if ctx.locale.doc else ctx.locale.position(key)
                ctx.results.findings.append(Finding(ctx.lang, key, Problem(
                    ctx.locale.file, line, col,
                    f"'{key}' acknowledges '{name}', but that check finds nothing here any more; remove it from `checked:`",
                    "checked", "warning")))


def _keys_the_templates_name(project, report: Report) -> None:
    """The rulebook's structure (templates/rulebook.yaml) names the source locale's keys it prints:
    a key deleted from English that it still names stops every build — an error here too, at the
    template's line (i18n check passed while the build could not read the game)."""
    from ..read.rulebook import load_structure

    if not project.dir.template("rulebook").is_file():  # a game without a rulebook (a test's, a cards-only one)
        return
    try:
        load_structure(project)
    except DataError as exc:
        report.unreadable = True
        report.findings += [Finding(project.config.source_language, None, p) for p in exc.problems]


def run_checks(project, langs: list[str] | None = None, only: list[str] | None = None) -> Report:
    """Run the registered checks (or `only` those) on `langs` (default: every language)."""
    report = Report()
    src = project.config.source_language
    if not langs:
        for lang in project.missing_locales():  # a file gone (deleted, not checked out): its language is not silently skipped
            shown = project.dir.show(project.dir.locale(lang))
            report.findings.append(Finding(lang, None, Problem(shown, 0, 0, project.missing_locale(lang), "missing")))
            report.unreadable = True
    langs = langs or project.languages
    report.languages = list(langs)
    glossary_ok = True
    try:
        glossary = load_project_glossary(project)
        if not glossary.file:
            report.info(f"no glossary ({project.dir.show(project.dir.glossary)}): terms are not checked")
    except DataError as exc:
        glossary, glossary_ok, report.unreadable = Glossary(file=""), False, True
        report.findings += [Finding("", None, p) for p in exc.problems]
        skipped = ", ".join(c.name for c in CHECKS if c.glossary)
        report.info(f"the glossary has errors: checks {skipped} wait until they are fixed")
    try:
        source = project.locale(src)
    except DataError as exc:
        report.unreadable = True
        report.findings += [Finding(src, None, p) for p in exc.problems]
        report.info(f"the source language ({src}) has errors: other languages were not checked")
        return report
    if src in langs and not only:
        _keys_the_templates_name(project, report)
    for lang in langs:
        try:
            loc = project.locale(lang)
        except DataError as exc:
            report.unreadable = True
            report.findings += [Finding(lang, None, p) for p in exc.problems]
            continue
        ctx = Context(project, lang, source, loc, glossary, report)
        ran = set()
        for c in CHECKS:
            if (only and c.name not in only) or (ctx.is_source and not c.source) or (c.glossary and not glossary_ok):
                continue
            c.run(ctx)
            ran.add(c.name)
        if not (only and "checked" not in only):
            _unused_acknowledgements(ctx, ran & set(ACKNOWLEDGEABLE))
    return report
