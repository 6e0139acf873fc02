"""uniseg's line break units of the shipped texts, recorded: the reference test_linebreak compares
ppgen.linebreak with, without asking uniseg (pure Python, 0.14 ms a character) about the same
110,000 characters on every run.

The record (tests/data/linebreak-reference.json.gz) maps a digest of each text to the lengths
of uniseg's units of it; it holds only what uniseg said, for the uniseg version it names. A text
the record does not hold (a translation edited since) is asked of uniseg itself, so the tests
stay exact whatever the locales say; test_linebreak re-asks uniseg about a share of the record
on every run, and all of it with PPGEN_FULL_REFERENCE=1. After editing many texts, record again:

    .venv/bin/python tests/linebreak_reference.py
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import json
from importlib.metadata import version
from pathlib import Path

RECORD = Path(__file__).resolve().parent / "data" / "linebreak-reference.json.gz"
LANGS = ("en", "ja", "ko", "zh")


def digest(s: str) -> str:
    return hashlib.sha256(s.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def uniseg_units(s: str) -> tuple[str, ...]:
    from uniseg.linebreak import line_break_units

    return tuple(line_break_units(s))


def shipped_texts(project) -> list[str]:
    """Every text the shipped-text tests ask about: each locale entry as written and as printed
    (markup taken out), and each paragraph of each card's effect as printed, in ja and zh."""
    from ppgen.typeset import text

    texts = {}
    for lang in LANGS:
        for entry in project.locale(lang).entries.values():
            for s in (entry.text, text.plain(text.clean(entry.text))):
                texts[s] = None
    for lang in ("ja", "zh"):
        for card in project.game.cards:
            for paragraph in text.plain(text.clean(project.card_effect(card, lang))).split("\n"):
                texts[paragraph] = None
    return list(texts)


@functools.lru_cache(maxsize=1)
def recorded() -> dict[str, tuple[int, ...]]:
    """{digest of a text: the lengths of uniseg's units of it}; empty when there is no record,
    or it was made with another uniseg than the one installed."""
    if not RECORD.exists():
        return {}
    record = json.loads(gzip.decompress(RECORD.read_bytes()))
    if record["uniseg"] != version("uniseg"):
        return {}
    return {key: tuple(lengths) for key, lengths in record["units"].items()}


def units_of(s: str, lengths: tuple[int, ...]) -> tuple[str, ...]:
    out, at = [], 0
    for n in lengths:
        out.append(s[at:at + n])
        at += n
    return tuple(out)


def record(project) -> int:
    """Ask uniseg about every shipped text and write the record (gzip's time stamp left out, so
    the same texts give the same bytes); the number of texts."""
    units = {digest(s): [len(u) for u in uniseg_units(s)] for s in shipped_texts(project)}
    data = json.dumps({"uniseg": version("uniseg"), "units": dict(sorted(units.items()))}, separators=(",", ":"))
    RECORD.parent.mkdir(exist_ok=True)
    part = RECORD.with_suffix(".part")
    part.write_bytes(gzip.compress(data.encode(), compresslevel=9, mtime=0))
    part.replace(RECORD)
    return len(units)


if __name__ == "__main__":
    import ppgen

    count = record(ppgen.load(Path(__file__).resolve().parent.parent))
    print(f"recorded uniseg {version('uniseg')}'s units of {count} texts in {RECORD} ({RECORD.stat().st_size:,} bytes)")
