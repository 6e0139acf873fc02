"""Frozen value objects hashed often (styles, font chains, phrase lists: every layout looked up
in typeset/memo.py hashes its style) compute their hash once."""
from __future__ import annotations

from dataclasses import fields


def hash_once(obj) -> int:
    """A frozen dataclass's hash by its fields, computed on first use and kept on the object.
    Use as `__hash__ = hash_once` in the class body (so @dataclass does not write its own)."""
    known = obj.__dict__.get("_hash")
    if known is None:
        names = _FIELDS.get(type(obj))
        if names is None:
            names = _FIELDS[type(obj)] = tuple(f.name for f in fields(obj))
        known = hash(tuple(getattr(obj, name) for name in names))
        object.__setattr__(obj, "_hash", known)
    return known


_FIELDS: dict[type, tuple[str, ...]] = {}  # a class's field names (dataclasses.fields builds them anew on every call)
