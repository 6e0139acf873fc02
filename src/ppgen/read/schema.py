"""A tiny schema checker for YAML documents: one mechanism for every file ppgen reads.

A `Field` says what one key holds. `check_mapping` reports unknown keys (with a
"did you mean"), missing required keys and wrong types, each at its own
line:col, and returns the values with defaults applied.
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import Problem
from .yamlio import Doc

_TYPE_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false", list: "a list", dict: "a mapping"}


@dataclass(frozen=True)
class Field:
    type: type | tuple = str
    required: bool = False
    default: Any = None
    check: Callable[[Any], str | None] | None = None  # returns an error message or None
    help: str = ""


def type_name(t) -> str:
    if isinstance(t, tuple):
        return " or ".join(type_name(x) for x in t)
    return _TYPE_NAMES.get(t, t.__name__)


def is_type(value, t) -> bool:
    types = t if isinstance(t, tuple) else (t,)
    if isinstance(value, bool):
        return bool in types
    if float in types and isinstance(value, int):
        return True
    return isinstance(value, types)


def suggest(word: str, choices, n: int = 3) -> list[str]:
    return difflib.get_close_matches(str(word), [str(c) for c in choices], n=n, cutoff=0.6)


def did_you_mean(word: str, choices) -> str:
    close = suggest(word, choices)
    return f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""


def check_mapping(doc: Doc, path: tuple, value, spec: dict[str, Field], problems: list[Problem], what: str) -> dict | None:
    """Check `value` (found at `path` in `doc`) against `spec`; return it with defaults, or None."""
    if not isinstance(value, dict):
        problems.append(doc.problem(path, f"{what} must be a mapping of keys to values, not {describe(value)}"))
        return None
    out = {}
    for key, item in value.items():
        kpath = path + (key,)
        field = spec.get(key)
        if field is None:
            problems.append(
                doc.problem(kpath, f"unknown key '{key}' in {what}{did_you_mean(key, spec)}", "unknown-key", key=True)
            )
            continue
        if item is None and not field.required:
            out[key] = field.default
            continue
        out[key] = field.default  # replaced below when the value is good
        if not is_type(item, field.type):
            problems.append(doc.problem(kpath, f"'{key}' must be {type_name(field.type)}, not {describe(item)}", "type"))
            continue
        if isinstance(item, float) and not math.isfinite(item):
            problems.append(doc.problem(kpath, f"'{key}' must be a finite number, not {describe(item)}", "value"))
            continue
        if field.check:
            message = field.check(item)
            if message:
                problems.append(doc.problem(kpath, f"'{key}' {message}", "value"))
                continue
        out[key] = item
    for key, field in spec.items():
        if key not in value:
            if field.required:
                problems.append(doc.problem(path, f"{what} is missing the required key '{key}'", "missing-key"))
            out[key] = field.default
    return out


def describe(value) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}'"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) < 30 else value[:27] + "…"
        return f"the text '{shown}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def in_range(lo: int, hi: int) -> Callable[[Any], str | None]:
    def check(v):
        return None if lo <= v <= hi else f"must be between {lo} and {hi}, not {v}"

    return check


def one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(v):
        return None if v in choices else f"must be one of {', '.join(choices)}, not '{v}'{did_you_mean(v, choices)}"

    return check
