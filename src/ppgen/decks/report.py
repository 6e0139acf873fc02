"""The validation report: verdict, issues, summary; shown as text or stable JSON, in any language.

Message templates are `deck.<code>` keys in locales/<lang>.yaml; hints are
`deck.hint.*`. A template has a `.one` variant (e.g. `deck.hint.remove-cards.one`)
used when its number (`n`) is 1. Values in `params` are turned into words here:
a `Ref` becomes the card's or faction's name in the reader's language; lists are
joined with `deck.list-separator`; (faction, number) pairs use the part template
named in `PAIRS` below.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import Problem, printable
from ..read.model import format_amount
from .deck import Deck, Issue, Ref
from .rules import Context, deck_shapes

JSON_VERSION = 1

# params holding (Ref, number) pairs: the part template, and the locale key of the joiner.
PAIRS = {
    "expected": ("deck.part.split", "deck.part.split-separator"),
    "actual": ("deck.part.split", "deck.part.split-separator"),
    "counts": ("deck.part.faction-count", "deck.list-separator"),
    "factions": ("deck.part.unlock", "deck.list-separator"),
    "changes": ("deck.part.change", "deck.list-separator"),
}
JOINERS = {"choices": "deck.part.choice-separator", "cards": "deck.part.card-separator"}  # other lists: deck.list-separator
MAX_CITED_LINES = 6  # an issue about more lines names its cards or counts them instead of listing every line


@dataclass
class Report:
    """The outcome of validating one decklist."""

    deck: Deck
    issues: list[Issue]
    primary: str | None
    primary_source: str | None
    games: int | None
    games_source: str | None
    deck_type: str | None
    summary: dict
    skipped: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "error"]

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "warning"]

    @property
    def legal(self) -> bool:
        return not self.errors


def summarise(ctx: Context) -> dict:
    """Deck type, cards per faction and kind, Commanders, Terrain, level and energy curves of the units."""
    rules = ctx.rules
    roles = _roles(ctx)
    factions = []
    for faction, n in (ctx.ordered_factions() if ctx.primary else sorted(ctx.faction_counts().items(), key=lambda x: -x[1])):
        row = {"faction": faction, "role": roles.get(faction), "cards": n}
        for kind in ("unit", "doctrine", "tactic"):
            row[kind] = sum(c for i, c in ctx.cards.items() if ctx.card(i).faction == faction and ctx.card(i).kind == kind)
        factions.append(row)
    span = range(rules.printed_stat_min, rules.printed_stat_max + 1)
    units = [(ctx.card(i), n) for i, n in ctx.cards.items() if ctx.card(i).is_unit]
    return {
        "type": ctx.deck_type(),
        "total": ctx.deck.total,
        "unknown": sum(e.count for e in ctx.deck.unresolved),
        "factions": factions,
        "kinds": {k: sum(r[k] for r in factions) for k in ("unit", "doctrine", "tactic")},
        "commanders": sum(n for i, n in ctx.cards.items() if ctx.card(i).commander),
        "terrain": sum(n for i, n in ctx.cards.items() if ctx.card(i).terrain),
        "level_curve": {str(v): sum(n for c, n in units if c.level == v) for v in span},
        "energy_curve": {str(v): sum(n for c, n in units if c.energy == v) for v in span},
    }


def _roles(ctx: Context) -> dict[str, str]:
    if not ctx.primary:
        return {}
    ordered = [f for f, _ in ctx.ordered_factions()]
    kind = deck_shapes(ctx.rules).get(len(ordered), (None,))[0]
    names = {"standard": ["primary"], "allied": ["primary", "ally"], "coalition": ["primary", "secondary", "tertiary"]}
    return dict(zip(ordered, names.get(kind, ["primary"])))


class Words:
    """Turns issues and summaries into one language's words."""

    def __init__(self, project, lang: str):
        self.project = project
        self.lang = lang
        self.loc = project.locale(lang)

    def text(self, key: str, **params) -> str:
        """The template `key` filled with `params` (Refs, lists and pairs turned into words).

        When the number (`n`, else `count`, else `total`) is 1 and the language has `key.one`,
        that variant is used; when it is 0, `key.zero`.
        """
        number = params.get("n", params.get("count", params.get("total")))
        variant = {1: ".one", 0: ".zero"}.get(number) if isinstance(number, int) else None
        if variant and self.loc.has(key + variant) and (self.loc.is_translated(key + variant) or not self.loc.is_translated(key)):
            key += variant  # (not an English variant over this language's own text: a locale that lacks the .one says "1 cards" its way)
        return korean_particles(self.loc.format(key, **{k: self.value(k, v) for k, v in params.items()}))

    def ref(self, ref: Ref) -> str:
        if ref.kind == "card":
            card = self.project.game.card(ref.id)
            name = self.project.card_name(card, ref.lang or self.lang)
            if ref.with_code:
                name = self.text("deck.part.card-code", card=name, code=card.code)
            if ref.count > 1:
                name = self.loc.format("deck.part.card-count", card=name, count=ref.count)
            if ref.with_faction:
                name = self.loc.format("deck.part.card-faction", card=name, faction=self.loc.get(f"faction.{card.faction}"))
            return name
        if ref.kind == "faction":
            return self.loc.get(f"faction.{ref.id}")
        if ref.kind == "deck-type":
            return self.loc.get(f"deck.type.{ref.id}")
        return ref.id

    def value(self, name: str, value) -> str:
        if isinstance(value, Ref):
            return self.ref(value)
        if isinstance(value, (list, tuple)):
            part, joiner = PAIRS.get(name, (None, JOINERS.get(name, "deck.list-separator")))
            items = []
            for item in value:
                if part and isinstance(item, tuple):
                    ref, number = item
                    shown = format_amount(number) if name == "changes" else number
                    items.append(self.text(part, faction=self.ref(ref), count=shown))
                else:
                    items.append(self.value(name, item))
            return self.loc.get(joiner).join(items)
        return printable(str(value), limit=80)

    def message(self, issue: Issue) -> str:
        text = self.text(issue.key, **issue.params)
        if 1 < len(issue.lines) <= MAX_CITED_LINES and "lines" not in issue.params:
            text += self.text("deck.part.lines", lines=self.loc.get("deck.list-separator").join(map(str, issue.lines)))
        return text

    def hint(self, issue: Issue) -> str | None:
        return self.text(issue.hint, **issue.hint_params) if issue.hint else None

    def problem(self, problem: Problem) -> str:
        """The message of a problem found reading a file (errors.MESSAGES), in this language."""
        if problem.key and self.loc.has(problem.key):
            return korean_particles(self.loc.format(problem.key, **dict(problem.params)))
        return problem.message


_PARTICLES = re.compile(r"([\uac00-\ud7a3])(이\(가\)|은\(는\)|을\(를\)|과\(와\))")


def korean_particles(text: str) -> str:
    """Pick the Korean particle a filled-in name needs: 로마은(는) → 로마는, 전열이(가) → 전열이.

    Templates write both forms ("{card}이(가)"); after a Hangul syllable the right one is chosen
    by whether it ends in a consonant. Any other text is left alone.
    """
    def pick(m):
        with_final = (ord(m[1]) - 0xAC00) % 28 != 0
        pair = m[2]
        return m[1] + (pair[0] if with_final else pair[2])

    return _PARTICLES.sub(pick, text)


# ── JSON ──────────────────────────────────────────────────────────────────
def _plain(value):
    if isinstance(value, Ref):
        return value.id
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def issue_dict(issue: Issue, words: Words, file: str) -> dict:
    return {
        "code": issue.code,
        "severity": issue.severity,
        "message": words.message(issue),
        "hint": words.hint(issue),
        "file": file,
        "line": issue.line,
        "col": issue.col,
        "lines": list(issue.lines),
        "cards": list(issue.cards),
        "params": {k: _plain(v) for k, v in issue.params.items()},
        "hint_params": {k: _plain(v) for k, v in issue.hint_params.items()},
    }


def report_dict(report: Report, project, lang: str) -> dict:
    """The stable JSON form of a report (`ppgen validate --format json`, one item of "decks")."""
    words = Words(project, lang)
    deck = report.deck
    return {
        "file": deck.file,
        "readable": True,
        "legal": report.legal,
        "format": deck.format,
        "name": deck.name,
        "type": report.deck_type,
        "primary": report.primary,
        "primary_source": report.primary_source,
        "games": report.games,
        "games_source": report.games_source,
        "errors": len(report.errors),
        "warnings": len(report.warnings),
        "problems": [issue_dict(i, words, deck.file) for i in report.issues],
        "cards": [
            {"id": c.id, "code": c.code, "faction": c.faction, "count": n, "name": project.card_name(c, lang),
             "lines": list(deck.lines_of(c.id))}
            for c, n in deck.card_list(project.game)
        ],
        "summary": report.summary,
        "skipped": [{"check": name, "needs": needs} for name, needs in report.skipped],
    }


def unreadable_dict(file: str, problems: list[Problem], words: Words) -> dict:
    """The JSON of a decklist that could not be read (exit code 2), its messages in the words' language."""
    return {
        "file": file,
        "readable": False,
        "legal": False,
        "errors": len(problems),
        "warnings": 0,
        "problems": [p.as_dict() | {"message": words.problem(p), "hint": None, "lines": [p.line] if p.line else [], "cards": [],
                                    "params": dict(p.params), "hint_params": {}} for p in problems],
    }


# ── text ──────────────────────────────────────────────────────────────────
def report_lines(report: Report, project, lang: str) -> list[str]:
    """The report as a player reads it: a headline, one GNU-style line per issue (+ hint), the summary."""
    from ..termtable import render  # plain-text tables, CJK-width aware

    words = Words(project, lang)
    deck, s = report.deck, report.summary
    kind = words.loc.get(f"deck.type.{report.deck_type}") if report.deck_type else words.loc.get("deck.type.none")
    verdict = words.text("deck.verdict.legal") if report.legal else words.text("deck.verdict.illegal", n=len(report.errors))
    title = f"{printable(deck.name, limit=80)} — " if deck.name else ""
    out = [words.text("deck.headline", file=deck.file, name=title, type=kind, verdict=verdict)]
    for issue in report.issues:
        out.append(issue_line(issue, words, deck.file))
        hint = words.hint(issue)
        if hint:
            out.append(f"    {words.loc.get('deck.label.hint')}: {hint}")
    if report.skipped and deck.entries:
        checks = [words.loc.get(f"deck.check.{name}") for name, _ in report.skipped]
        out.append(words.text("deck.skipped", checks=words.loc.get("deck.list-separator").join(checks)))
    rows = [[words.loc.get(f"faction.{r['faction']}"), words.loc.get(f"deck.role.{r['role']}") if r["role"] else "",
             str(r["cards"]), str(r["unit"]), str(r["doctrine"]), str(r["tactic"])] for r in s["factions"]]
    if s["unknown"]:
        rows.append([words.loc.get("deck.label.unknown"), "", str(s["unknown"]), "", "", ""])
    rows.append([words.loc.get("deck.label.total"), "", str(s["total"]), *(str(s["kinds"][k]) for k in ("unit", "doctrine", "tactic"))])
    headers = [words.loc.get("deck.label.faction"), words.loc.get("deck.label.role"), words.loc.get("deck.label.cards"),
               words.loc.get("kind.unit"), words.loc.get("kind.doctrine"), words.loc.get("kind.tactic")]
    out.append("")
    out += ["  " + line for line in render(headers, rows).split("\n")]
    out.append("  " + words.text("deck.summary-line", commanders=s["commanders"], terrain=s["terrain"]))
    curve_rows = [[words.loc.get("label.level"), *map(str, s["level_curve"].values())],
                  [words.loc.get("label.energy"), *map(str, s["energy_curve"].values())]]
    out.append("  " + words.loc.get("deck.label.curve"))
    out += ["  " + line for line in render([""] + list(s["level_curve"]), curve_rows).split("\n")]
    return out


def issue_line(issue: Issue, words: Words, file: str) -> str:
    where = f"{file}:{issue.line}:{issue.col or 1}" if issue.line else file
    return f"{where}: {issue.severity}[{issue.code}] {words.message(issue)}"


def unreadable_lines(file: str, problems: list[Problem], words: Words) -> list[str]:
    return [words.text("deck.unreadable", file=file)] + [
        f"{p.where()}: {p.severity}[{p.code}] {printable(words.problem(p))}" for p in problems]
