"""Reading decklists: the text players paste, and YAML.

Text, one card per line::

    # Rome, tuned for the first games
    name: Legion of the Eagle
    primary: Rome          # or ローマ, 로마, 罗马, ROM
    games: 7               # games played (optional)

    3 Legionary Cohort
    3x Praetorian Guard
    Hastati Line x2
    2枚 テストゥド            // ja, ko, zh names and collector codes mix freely
    1 ROM-09

Counts: ``3 Name``, ``3x Name``, ``x3 Name``, ``Name x3``, ``3枚/3장/3张 Name``,
``Name 3枚``, and for names in kana, hanzi/kanji or Hangul an x glued on (``テストゥドx2``,
``2xテストゥド``); full-width digits and letters are NFKC-normalised first.
``#`` and ``//`` start comments; blank lines and section headers
(``Units:``, ``Doctrines``) are skipped.

YAML: ``name``, ``primary``, ``games`` and ``cards`` (a mapping name → count).

Reading never stops at the first problem: unknown names, lines without a count,
bad metadata become `Issue`s on the `Deck`, reported with the rule checks.
Only a file that cannot be read as a decklist at all (missing, not UTF-8,
broken YAML, wrong YAML shape) raises DataError (exit code 2).
"""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import DataError, Problem, display_path
from ..read.files import read_text
from ..read.schema import suggest
from ..read.names import Names, names_for, nfkc, normalise
from ..read.yamlio import Doc, parse_yaml
from .deck import Deck, Entry, Issue, Ref

FIELDS = ("name", "primary", "games")
# Bounds that keep a pasted wall of text from taking minutes (the line patterns below are
# quadratic in a long run of spaces): a card line is a count and a name of a few dozen
# characters, and a decklist lists a few dozen cards.
MAX_LINE = 500  # characters; a longer line is reported as unreadable without being parsed
MAX_LINES = 2000  # lines naming something (cards, fields); more: not a decklist
YAML_KEYS = FIELDS + ("cards",)
YAML_SUFFIXES = (".yaml", ".yml")


def as_written(value) -> str:
    """A YAML value as the decklist wrote it, for a message or a field: `true`, `null`, `[x]`
    (not Python's True, None, ['x'])."""
    import json

    if value is None or isinstance(value, (bool, list, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)  # (a date inside a list: as YAML wrote it)
    return str(value)


_UNIT = "枚장张張"  # counters: ja/ko/zh
# Kana, CJK ideographs, Hangul: an x glued to such a name is a count ("テストゥドx2", "2xテストゥド"),
# as players type it; glued to a Latin name it may be part of the name, so a space is needed there.
_CJK = "\u1100-\u11ff\u3005-\u3007\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff"
_COUNT_LINES = (
    re.compile(rf"^(?P<count>\d{{1,4}})\s*(?:[x×*]|[{_UNIT}])?\s+(?P<name>\S.*)$", re.I),  # 3 Name, 3x Name, 3枚 Name
    re.compile(rf"^(?P<count>\d{{1,4}})\s*[{_UNIT}](?P<name>\S.*)$"),  # 3枚Name
    re.compile(rf"^(?P<count>\d{{1,4}})\s*[x×*](?P<name>[{_CJK}].*)$", re.I),  # 3xテストゥド
    re.compile(r"^[x×]\s*(?P<count>\d{1,4})\s+(?P<name>\S.*)$", re.I),  # x3 Name
    re.compile(rf"^[x×]\s*(?P<count>\d{{1,4}})(?P<name>[{_CJK}].*)$", re.I),  # x3テストゥド
    re.compile(r"^(?P<name>\S.*?)(?:(?<!\s)\s+[x×*]|×)\s*(?P<count>\d{1,4})$", re.I),  # Name x3
    re.compile(rf"^(?P<name>\S.*?[{_CJK}])[x*]\s*(?P<count>\d{{1,4}})$", re.I),  # テストゥドx3
    re.compile(rf"^(?P<name>\S.*?)(?<!\s)\s*(?P<count>\d{{1,4}})\s*[{_UNIT}]$"),  # Name 3枚
)
# (?<!\s) before a run of spaces: the run is tried from its start only, so a long run of
# spaces costs linear time, not quadratic (same matches: a match may always start there).
_FIELD_LINE = re.compile(r"^(?P<key>[^\d:#/](?:[^:]*[^:\s])?)\s*:\s*(?P<value>.*)$")
_FULL_COMMENT = re.compile(r"^\s*(?:#|//)")
_TRAILING_COMMENT = re.compile(r"(?<!\s)\s+(?:#|//).*$")
_NAME_COMMENT = re.compile(r"(?<!\s)\s+(?:#|//)(?:\s.*)?$")  # "name: Rome #1" keeps its "#1"
_HEADER_COUNT = re.compile(r"(?<!\s)\s*(?:[(\[]\s*\d+\s*[)\]]|:\s*\d*)\s*$")


def load_deck(project, path: Path | str) -> Deck:
    """Read one decklist file (YAML by its .yaml/.yml suffix, text otherwise).

    Raises DataError (file:line:col) when the file cannot be read as a decklist.
    """
    path = Path(path)
    root = project.dir.root
    shown = display_path(path, root)
    text = read_text(path, root)
    fmt = "yaml" if path.suffix.lower() in YAML_SUFFIXES else "text"
    return parse_deck(project, text, shown, fmt)


def parse_deck(project, text: str, file: str = "<deck>", fmt: str = "text") -> Deck:
    """Read a decklist given as a string (`fmt` "text" or "yaml")."""
    reader = _Reader(project, Deck(file=file, format=fmt))
    if fmt == "yaml":
        reader.yaml(parse_yaml(text, file))
    else:
        reader.text(text)
    return reader.finish()


class _Reader:
    def __init__(self, project, deck: Deck):
        self.project = project
        self.deck = deck
        self.names: Names = names_for(project)
        self.seen_fields: dict[str, int] = {}
        self._aliases: dict[str, str] | None = None
        self._headers: set[str] | None = None

    # ── text ────────────────────────────────────────────────────────────
    def text(self, text: str) -> None:
        read = 0
        for number, raw in enumerate(text.split("\n"), 1):
            line = nfkc(raw).rstrip() if len(raw) <= MAX_LINE else raw.rstrip()  # (a longer line is not read)
            if not line.strip() or _FULL_COMMENT.match(line):
                continue
            read += 1
            if read > MAX_LINES:
                self.too_long(number, 1)
            indent = len(line) - len(line.lstrip())
            self.text_line(number, indent, line.strip())

    def too_long(self, line: int, col: int) -> None:
        raise DataError([Problem.keyed(self.deck.file, line, col, "deck.too-long", "too-long", max=MAX_LINES)])

    def text_line(self, number: int, indent: int, line: str) -> None:
        if len(line) > MAX_LINE:
            self.issue("bad-line", number, indent + 1, text=line, hint="deck.hint.line-format",
                       hint_params={"example": self.example_line()})
            return
        field_match = _FIELD_LINE.match(line)
        if field_match:
            name = self.field_name(field_match["key"])
            if name is not None:
                value = field_match["value"]
                value = (_NAME_COMMENT if name == "name" else _TRAILING_COMMENT).sub("", value).strip()
                self.set_field(name, value, number, indent + field_match.start("value") + 1)
                return
        body = _TRAILING_COMMENT.sub("", line).strip()
        for pattern in _COUNT_LINES:
            m = pattern.match(body)
            if m:
                self.add_card(m["name"].strip(), int(m["count"]), number, indent + m.start("name") + 1)
                return
        if self.is_header(body):
            return
        if field_match and field_match["value"].strip():
            key = field_match["key"].strip()
            self.issue("unknown-field", number, indent + 1, field=key, **self.field_hint(key))
            return
        match = self.names.cards.lookup(body)
        if match.found:
            self.issue("no-count", number, indent + 1, cards=(match.found,), name=body,
                       hint="deck.hint.write-count", hint_params={"example": f"1 {body}"})
        else:
            self.issue("bad-line", number, indent + 1, text=body,
                       hint="deck.hint.line-format", hint_params={"example": self.example_line()})

    def is_header(self, body: str) -> bool:
        """'Units:', 'Doctrines (12)', 'Rome' and the like: section titles, not cards."""
        if body.endswith(":") and ":" not in body[:-1]:
            return True
        if self._headers is None:
            words: set[str] = set()
            keys = [f"kind.{k}" for k in ("unit", "doctrine", "tactic")]
            keys += ["label.commander", "label.terrain"] + [f"faction.{f}" for f in self.project.game.factions]
            for key in keys:
                for text in self.names.words.get(key, ()):  # in every language
                    word = normalise(text)
                    words.update({word, word + "s"})
            self._headers = words
        return normalise(_HEADER_COUNT.sub("", body)) in self._headers

    # ── YAML ────────────────────────────────────────────────────────────
    def yaml(self, doc: Doc) -> None:
        data = doc.data
        if data is None:
            return
        if not isinstance(data, dict):
            raise DataError([Problem.keyed(doc.file, *doc.mark(()), "deck.yaml-shape", "yaml", keys=", ".join(YAML_KEYS))])
        cards = data.get("cards")
        if cards is not None and not isinstance(cards, dict):
            raise DataError([Problem.keyed(doc.file, *doc.mark(("cards",)), "deck.yaml-cards", "yaml")])
        for key, value in data.items():
            line, col = doc.key_mark((key,))
            if key == "cards":
                continue
            if key not in FIELDS:
                self.issue("unknown-field", line, col, field=key, **self.field_hint(key, YAML_KEYS))
                continue
            vline, vcol = doc.mark((key,))
            self.set_field(key, "" if value is None else nfkc(as_written(value)).strip(), vline, vcol)
        if cards is not None and len(cards) > MAX_LINES:
            self.too_long(*doc.key_mark(("cards", list(cards)[MAX_LINES])))
        for name, value in (cards or {}).items():
            line, col = doc.key_mark(("cards", name))
            count = value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
            if count is None and isinstance(value, str) and nfkc(value).strip().isdigit():
                count = int(nfkc(value).strip())
            if count is None:
                vline, vcol = doc.mark(("cards", name))
                self.issue("bad-count", vline, vcol, value=as_written(value), name=name)
                continue
            self.add_card(nfkc(name).strip(), count, line, col)

    # ── shared ──────────────────────────────────────────────────────────
    def field_name(self, key: str) -> str | None:
        """'primary', 'Primary faction', '主勢力', '주 진영' → 'primary'."""
        if self._aliases is None:
            aliases = {f: f for f in FIELDS}
            for f in FIELDS:
                for text in self.names.words.get(f"deck.field.{f}", ()):  # in every language
                    aliases[normalise(text)] = f
            self._aliases = aliases
        return self._aliases.get(normalise(key))

    def field_hint(self, key: str, choices=FIELDS) -> dict:
        close = suggest(key, choices)
        if close:
            return {"hint": "deck.hint.did-you-mean", "hint_params": {"choices": close}}
        return {"hint": "deck.hint.fields", "hint_params": {"fields": list(choices)}}

    def set_field(self, name: str, value: str, line: int, col: int) -> None:
        if name in self.seen_fields:
            self.issue("duplicate-field", line, col, field=name, first=self.seen_fields[name])
            return
        self.seen_fields[name] = line
        deck = self.deck
        if name == "name":
            deck.name = value or None
        elif name == "games":
            if not re.fullmatch(r"[0-9]+", value):
                self.issue("bad-games", line, col, value=value)
            else:
                deck.games, deck.games_at = int(value), (line, col)
        elif name == "primary":
            deck.primary_declared, deck.primary_at = True, (line, col)
            match = self.names.factions.lookup(value) if value else None
            if match is not None and match.found:
                deck.primary = match.found
            else:
                factions = list(self.project.game.factions)
                close = match.suggestions if match else ()
                self.issue("unknown-faction", line, col, name=value,
                           hint="deck.hint.did-you-mean" if close else "deck.hint.factions",
                           hint_params={"choices": [Ref("faction", f) for f, _ in close]} if close
                           else {"factions": [Ref("faction", f) for f in factions]})

    def add_card(self, name: str, count: int, line: int, col: int) -> None:
        match = self.names.cards.lookup(name)
        self.deck.entries.append(Entry(line, col, name, count, match.found))
        if count == 0:
            self.issue("zero-count", line, col, severity="warning", name=name)
        if match.found:
            return
        if match.ids:
            self.issue("ambiguous-card", line, col, cards=match.ids, name=name,
                       choices=[Ref("card", i, with_code=True) for i in match.ids], hint="deck.hint.use-code")
        elif match.suggestions:
            self.issue("unknown-card", line, col, cards=(), name=name, hint="deck.hint.did-you-mean",
                       hint_params={"choices": [Ref("card", i, lang or None, with_code=True) for i, lang in match.suggestions]})
        else:
            self.issue("unknown-card", line, col, name=name, hint="deck.hint.no-match",
                       hint_params={"example": self.project.game.cards[0].code})

    def example_line(self) -> str:
        card = self.project.game.cards[0]
        return f"3 {card.code}"

    def issue(self, code: str, line: int, col: int, severity: str = "error", cards=(), hint=None, hint_params=None, **params) -> None:
        self.deck.issues.append(
            Issue(code, severity, params, line, col, (line,) if line else (), tuple(cards), hint, hint_params or {})
        )

    def finish(self) -> Deck:
        counted = any(e.count > 0 for e in self.deck.entries)  # (lines of 0 copies add no card: a list of them is empty too)
        if not counted and not any(i.code in ("bad-line", "no-count", "bad-count") for i in self.deck.issues):
            self.deck.issues.append(Issue("empty", "error", {}, hint="deck.hint.line-format", hint_params={"example": self.example_line()}))
        return self.deck


__all__ = ["load_deck", "parse_deck", "FIELDS"]
