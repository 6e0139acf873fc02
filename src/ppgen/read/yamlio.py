"""YAML in, with positions: the one place a bad YAML file becomes `file:line:col` problems.

`load_yaml` returns a `Doc`: the plain data (dicts, lists, scalars) and the
line/column of every key and value, addressed by path
(e.g. ``("factions", 0, "cards", 3, "atk")``). It refuses what PyYAML would
silently accept or explode on: duplicate keys (PyYAML keeps the last),
aliases (the "billion laughs" bomb), nesting deeper than any real file,
explicit tags other than YAML's own plain types (``!foo``, ``!!binary``), and a
value its tag does not fit (``!!int seven``).
Mapping keys are always strings (``yes:`` stays the key "yes").

libyaml reads the files when PyYAML has it; ``PPGEN_PURE_YAML=1`` forces PyYAML's
pure-Python loader (what a machine without libyaml runs), which gives the same data
and the same problems. The parsing itself is read/yamlparse.py's, loaded with PyYAML
only for a text not kept parsed (here, or in the cache folder).
"""
from __future__ import annotations

import marshal
import os
import sys
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Problem, display_path
from .files import read_text

MAX_DEPTH = 64

Path_ = tuple  # a path into the document: keys and list indexes


YAML_TAG = "tag:yaml.org,2002:"
# The explicit tags a ppgen file may use: YAML's plain types, on the node kind they fit.
# (An implicit value resolves to one of these too; `!` alone means "by its kind".)
SCALAR_TAGS = {YAML_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
KIND_TAGS = {"list": YAML_TAG + "seq", "mapping": YAML_TAG + "map"}
_NULLS = ("", "~", "null", "Null", "NULL")
_FLOW_INDICATORS = ",]}"


@dataclass
class Doc:
    """A loaded YAML document: data plus positions."""

    file: str
    data: Any
    value_marks: dict = field(default_factory=dict)
    key_marks: dict = field(default_factory=dict)

    def mark(self, path: Path_) -> tuple[int, int]:
        """(line, col) of the value at `path`, or of its nearest ancestor."""
        path = tuple(path)
        while path and path not in self.value_marks:
            path = path[:-1]
        return self.value_marks.get(path, (1, 1))

    def key_mark(self, path: Path_) -> tuple[int, int]:
        """(line, col) of the key naming `path` (falls back to the value)."""
        path = tuple(path)
        return self.key_marks.get(path) or self.mark(path)

    def problem(self, path: Path_, message: str, code: str = "data", severity: str = "error", key: bool = False) -> Problem:
        line, col = self.key_mark(path) if key else self.mark(path)
        return Problem(self.file, line, col, message, code, severity)


def loader_class():
    """libyaml's loader, or PyYAML's pure-Python one when PPGEN_PURE_YAML is set (to 1)."""
    from .yamlparse import loader_class

    return loader_class()


def _pure() -> bool:
    return os.environ.get("PPGEN_PURE_YAML", "") not in ("", "0")


def _loader_name() -> str:
    """The name of `loader_class()`, without loading PyYAML when nothing has yet (a text kept
    parsed needs none of it): libyaml's loader when PyYAML has its C extension."""
    if _pure():
        return "SafeLoader"
    if "yaml" in sys.modules:  # PyYAML loaded (by a parse, or anyone): it knows whether its C extension loads
        return loader_class().__name__
    return _default_loader_name()


@lru_cache(maxsize=1)
def _default_loader_name() -> str:
    from importlib.machinery import EXTENSION_SUFFIXES
    from importlib.util import find_spec

    spec = find_spec("yaml")
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    has_c = any((Path(folder) / f"_yaml{suffix}").is_file() for folder in folders for suffix in EXTENSION_SUFFIXES)
    return "CSafeLoader" if has_c else "SafeLoader"


def load_yaml(path: Path, root: Path | None = None, plain_strings: bool = False) -> Doc:
    """Load one YAML file; raise DataError with file:line:col on any problem.

    plain_strings: every scalar value is returned as the text written (no
    booleans, numbers or nulls) — right for files of words, like locales.
    """
    shown = display_path(path, root)
    return parse_yaml(read_text(path, root), shown, plain_strings)


_PARSED: OrderedDict = OrderedDict()  # (text, shown, plain_strings, loader's name) -> the Doc it gave, marshalled
_PARSED_KEPT = 64


def parse_yaml(text: str, shown: str, plain_strings: bool = False) -> Doc:
    """`text` (the file `shown`) as a Doc; DataError with file:line:col on any problem.

    A text parsed before is not parsed again: in this process (a long-lived one — the workbench,
    the tests — reads the same files again and again) the Doc is a fresh copy of what it gave,
    and on this machine it is read back from the cache folder (read/cache.py: `yaml-….bin`, one
    per file name, holding the last text parsed for it, its digest and ppgen's code checked;
    every command starts by reading the card database and a locale or two: 0.1 s of parsing)."""
    loader = _loader_name()
    key = (text, shown, plain_strings, loader)
    kept = _PARSED.get(key)
    entry = None
    if kept is None:
        entry = _entry(text, shown, plain_strings, loader)
        kept = _recall(*entry)
    if kept is not None:
        try:
            doc = Doc(*marshal.loads(kept))
        except (ValueError, EOFError, TypeError):  # a damaged entry is parsed again, never trusted
            doc = None
        if doc is not None:
            _PARSED[key] = kept
            _PARSED.move_to_end(key)
            return doc
    doc = _parse_yaml(text, shown, plain_strings)
    try:
        kept = marshal.dumps((doc.file, doc.data, doc.value_marks, doc.key_marks))
    except ValueError:  # a value marshal cannot hold (a date): parsed again next time
        return doc
    _PARSED[key] = kept
    if len(_PARSED) > _PARSED_KEPT:
        _PARSED.popitem(last=False)
    if entry is not None:
        _keep(*entry, kept)
    return doc


def _entry(text: str, shown: str, plain_strings: bool, loader: str) -> tuple[str, bytes]:
    """(the cache folder's file for this file name and way of reading, the digest of what it holds)."""
    import hashlib

    from .cache import code_digest

    name = hashlib.sha256(f"{shown}\0{plain_strings}\0{loader}".encode()).hexdigest()[:20]
    digest = hashlib.sha256(f"{code_digest()}\0".encode() + text.encode("utf-8", "surrogatepass")).digest()
    return f"yaml-{name}.bin", digest


def _recall(name: str, digest: bytes) -> bytes | None:
    """The marshalled Doc the cache folder's entry `name` keeps for the text of `digest`, or None."""
    from .cache import stored

    data = stored(name)
    return data[32:] if data is not None and data[:32] == digest else None


def _keep(name: str, digest: bytes, kept: bytes) -> None:
    from .cache import store

    store(name, digest + kept)


def _parse_yaml(text: str, shown: str, plain_strings: bool) -> Doc:
    from .yamlparse import parse

    return parse(text, shown, plain_strings)


def shown_tag(tag: str) -> str:
    """'tag:yaml.org,2002:int' → '!!int', as it is written in a file."""
    return "!!" + tag[len(YAML_TAG):] if tag.startswith(YAML_TAG) else tag

