"""Problems found in user data, and the exception that carries them.

Every stage that reads a file a person wrote reports `Problem`s with a
`file:line:col` position. A stage collects all of them and raises one
`DataError`, so the user sees every problem at once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path


# Problems found while reading a file, before any locale is loaded: their English, by locale
# key. locales/en.yaml holds the same texts (a test checks), and every other locale their
# translation, so `ppgen validate --lang ja` shows them in Japanese (Problem.key, .params).
MESSAGES = {
    "file.not-found": "file not found",
    "file.no-folder": "file not found: there is no folder {folder}",
    "file.is-folder": "is a folder, not a file",
    "file.cannot-read": "cannot read: {reason}",
    "file.too-large": "file is larger than {mb} MB; refusing to read it",
    "file.binary": "this is a binary file, not UTF-8 text",
    "file.utf16": "this is UTF-16 text; save the file as UTF-8",
    "file.not-utf8": "invalid UTF-8 byte 0x{byte}; save the file as UTF-8",
    "yaml.syntax": "invalid YAML: {problem}",
    "yaml.syntax-tabs": "invalid YAML: indent with spaces, not tabs",
    "yaml.syntax-long-key": "invalid YAML: a key may be at most 1024 characters long",
    "yaml.unclosed-quote": "invalid YAML: a quoted text is not closed; add the closing quote",
    "yaml.unclosed-bracket": "invalid YAML: a list or mapping in brackets is not closed, or its items are not separated by commas",
    "yaml.colon": "invalid YAML: a ‘: ’ inside a value, or a line indented under a value; put a text holding ‘: ’ in quotes",
    "yaml.start-character": "invalid YAML: a value cannot start with this character; put the value in quotes",
    "yaml.indentation": "invalid YAML: the indentation does not fit; line up the keys of a mapping and the items (‘- ’) of a list",
    "yaml.character": "character U+{char} is not allowed in YAML; remove it",
    "yaml.alias": "YAML anchors and aliases (&name, *name) are not allowed in ppgen files",
    "yaml.nesting": "nesting deeper than {max} levels",
    "yaml.key-not-text": "a key must be plain text",
    "yaml.duplicate-key": "duplicate key ‘{name}’ (first defined on line {first})",
    "yaml.tag": "YAML tag ‘{tag}’ is not allowed in ppgen files; write the value without it",
    "yaml.tag-glued": "YAML tag ‘{tag}’ is not allowed in ppgen files; write the value without it (a tag ends at a space)",
    "yaml.tag-on-list": "YAML tag ‘{tag}’ is not allowed on a list; remove it",
    "yaml.tag-on-mapping": "YAML tag ‘{tag}’ is not allowed on a mapping; remove it",
    "yaml.tag-value": "‘{value}’ is not a valid {tag} value",
    "deck.yaml-shape": "a YAML decklist is a mapping with the keys {keys}",
    "deck.yaml-cards": "‘cards’ must be a mapping of card name to count (e.g. ‘Hastati Line: 2’)",
    "deck.too-long": "more than {max} lines to read: a decklist lists a few dozen cards; is this the right file?",
}


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one place in a file."""

    file: str
    line: int  # 1-based; 0 when the problem concerns the whole file
    col: int  # 1-based; 0 when unknown
    message: str
    code: str = "data"
    severity: str = "error"  # "error" | "warning"
    key: str = field(default="", compare=False)  # a MESSAGES key: the message can be shown in any language
    params: tuple = field(default=(), compare=False)  # the key's values, as (name, value) pairs

    @classmethod
    def keyed(cls, file: str, line: int, col: int, key: str, code: str, /, **params) -> "Problem":
        """An error whose message is MESSAGES[key] filled with `params` (English here; any language
        where a locale is at hand, through `key` and `params`)."""
        return cls(file, line, col, MESSAGES[key].format(**params), code, "error", key, tuple(params.items()))

    def where(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col or 1}"
        return self.file

    def __str__(self) -> str:  # GNU style, understood by editors
        return f"{self.where()}: {self.severity}[{self.code}] {printable(self.message)}"

    def as_dict(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }


class PpgenError(Exception):
    """Base class of errors ppgen reports to the user without a traceback."""

    exit_code = 2

    def __reduce__(self):
        # Pickled whole (message and attributes, e.g. DataError.problems): a language built
        # in a worker process hands its error to the parent, which reports it like any other.
        return (_rebuild_error, (type(self), self.args, self.__dict__))


def _rebuild_error(cls, args, state):
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class DataError(PpgenError):
    """One or more problems in a file a person wrote (exit code 2)."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(PpgenError):
    """A request that cannot be carried out as asked (bad option, missing dir)."""


@dataclass
class ProblemList:
    """Collects problems for one file; raise them all at once with `raise_if_errors`."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    def add(self, line: int, col: int, message: str, code: str = "data", severity: str = "error") -> None:
        self.problems.append(Problem(self.file, line, col, message, code, severity))

    def at(self, mark, message: str, code: str = "data", severity: str = "error") -> None:
        line, col = mark if mark else (0, 0)
        self.add(line, col, message, code, severity)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise DataError(self.problems)


_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]")


def printable(text: str, limit: int | None = None) -> str:
    """Text a person wrote, as a terminal may show it in a message: control and bidirectional
    characters as visible escapes (never acted on: an ESC would restyle the terminal, a
    right-to-left override reverse the line), and at most `limit` characters."""
    text = _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def display_path(path: Path | str, root: Path | None = None) -> str:
    """A path as the user should read it: relative to the game directory when inside it."""
    p = Path(path)
    if root is not None:
        try:
            return str(p.resolve().relative_to(root.resolve()))
        except ValueError:
            pass
    return str(p)


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 page', '2 pages', '2 fuzzy entries' (with `many`)."""
    return f"{n} {word if n == 1 else many or word + 's'}"
