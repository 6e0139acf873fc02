"""uniseg's line break units, recorded: the reference test_linebreak compares ppgen.linebreak with,
without asking uniseg (pure Python: 0.14 ms a character, 0.2 ms a call) about the same strings on
every run — the shipped texts (110,000 characters) and the alphabet's 22,000 short strings.

The record (tests/data/linebreak-reference.json.gz) holds only what uniseg said, for the uniseg
version it names: for each shipped text, by a digest of it, the lengths of its units; for each
list of strings made from ALPHABET (LISTS), a digest of the list and each string's unit lengths.
A text the record does not hold (a translation edited since), or a list made differently, is
asked of uniseg itself, so the tests stay exact whatever the locales and the alphabet say;
test_linebreak re-asks uniseg about a sixteenth of the record on every run, and all of it with
PPGEN_FULL_REFERENCE=1. After editing many texts, or the alphabet, record again:

    .venv/bin/python tests/linebreak_reference.py
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import itertools
import json
from importlib.metadata import version
from pathlib import Path

RECORD = Path(__file__).resolve().parent / "data" / "linebreak-reference.json.gz"
LANGS = ("en", "ja", "ko", "zh")

# Characters for the generated strings: every Line_Break class (mostly from CJK,
# Latin, digits, punctuation, spaces and symbols), plus the characters rules
# single out (U+2010 in LB20a, ◌ in LB28a, Pi/Pf quotation marks in LB15/LB19,
# unassigned Extended_Pictographic in LB30b, Thai combining marks in LB1).
ALPHABET = (
    "aZ#=@&*§①♂"  # AL, AI
    "漢字あアｱ😀🏳\U0001F02C１＋"  # ID (incl. fullwidth digit and plus, unassigned pictographic)
    "ぁっゃッーㇰ々・‼〜"  # CJ, NS
    "0179٣"  # NU
    ",.:;"  # IS
    "/"  # SY
    "!?！？"  # EX
    "([{「『（［【〝¿"  # OP
    "}」』）］】、。〟"  # CL
    ")]"  # CP
    "\"'«»“”‘’„"  # QU (Pi, Pf and neither)
    "$+¥€±−＄"  # PR
    "%°¢％‰"  # PO
    "-"  # HY
    "|\u00ad\u2010\u3000\t"  # BA (soft hyphen, hyphen, ideographic space, tab)
    "´"  # BB
    "—\u2e3a"  # B2
    "…‥"  # IN
    " "  # SP
    "\u00a0\u202f\u2007\u034f"  # GL
    "\u200b"  # ZW
    "\u2060\ufeff"  # WJ
    "\u200d"  # ZWJ
    "\u0301\u3099\ufe0f\u20dd"  # CM
    "\n\r\x85\u2028\x0c"  # LF, CR, NL, BK
    "\ufffc"  # CB
    "👍☝🏻🏽"  # EB, EM
    "\U0001F1EF\U0001F1F5\U0001F1E8"  # RI
    "가각\u1100\u1161\u11a8"  # H2, H3, JL, JV, JT
    "אב"  # HL
    "กข\u0e31\u0e48"  # SA (letters and marks)
    "\u1b05\u1b50\u1bf2\u1b44\U00011003\u25cc"  # AK, AS, VF, VI, AP, dotted circle
    "\u0378\ud800"  # XX, SG
)


def every_pair() -> list[str]:
    """Every two characters of the alphabet."""
    return [a + b for a, b in itertools.product(ALPHABET, repeat=2)]


def two_alike_after_each() -> list[str]:
    """Two ideographs or two letters after each character of the alphabet: at the start, with a
    mark and a joiner on the first of the two, and after a space, the character again after."""
    same = [a + b for group in ("漢ア😀", "a§") for a in group for b in group]
    return [s for x in ALPHABET for pair in same
            for s in (x + pair, x + pair[0] + "\u0301\u200d" + pair[1:], x + " " + pair + x)]


LISTS = {"pairs": every_pair, "two-alike": two_alike_after_each}


def digest(s: str) -> str:
    return hashlib.sha256(s.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def uniseg_units(s: str) -> tuple[str, ...]:
    from uniseg.linebreak import line_break_units

    return tuple(line_break_units(s))


def units_of(s: str, lengths) -> tuple[str, ...]:
    out, at = [], 0
    for n in lengths:
        out.append(s[at:at + n])
        at += n
    return tuple(out)


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
def recorded() -> dict:
    """{"texts": {digest of a text: its unit lengths}, "lists": {name: {"digest", "units"}}};
    empty when there is no record, or it was made with another uniseg than the one installed."""
    empty = {"texts": {}, "lists": {}}
    if not RECORD.exists():
        return empty
    record = json.loads(gzip.decompress(RECORD.read_bytes()))
    return record if record["uniseg"] == version("uniseg") else empty


def units_of_text(s: str) -> tuple[str, ...]:
    """uniseg's units of `s`: recorded, or asked."""
    lengths = recorded()["texts"].get(digest(s))
    if lengths is not None and sum(lengths) == len(s):
        return units_of(s, lengths)
    return uniseg_units(s)


def units_of_list(name: str, strings: list[str]) -> list[tuple[str, ...]]:
    """uniseg's units of each of `strings` (LISTS[name]()): recorded when the record holds this
    very list, else asked."""
    kept = recorded()["lists"].get(name)
    if kept is not None and kept["digest"] == digest("\0".join(strings)):
        return [units_of(s, lengths) for s, lengths in zip(strings, kept["units"], strict=True)]
    return [uniseg_units(s) for s in strings]


def record(project) -> int:
    """Ask uniseg about every shipped text and every list, and write the record (gzip's time
    stamp left out: the same strings give the same bytes); the number of strings."""
    texts = {digest(s): [len(u) for u in uniseg_units(s)] for s in shipped_texts(project)}
    lists = {}
    for name, make in LISTS.items():
        strings = make()
        lists[name] = {"digest": digest("\0".join(strings)), "units": [[len(u) for u in uniseg_units(s)] for s in strings]}
    data = json.dumps({"uniseg": version("uniseg"), "texts": dict(sorted(texts.items())), "lists": lists}, separators=(",", ":"))
    RECORD.parent.mkdir(exist_ok=True)
    part = RECORD.with_suffix(".part")
    part.write_bytes(gzip.compress(data.encode(), compresslevel=9, mtime=0))
    part.replace(RECORD)
    recorded.cache_clear()
    return len(texts) + sum(len(kept["units"]) for kept in lists.values())


if __name__ == "__main__":
    import ppgen

    count = record(ppgen.load(Path(__file__).resolve().parent.parent))
    print(f"recorded uniseg {version('uniseg')}'s units of {count:,} strings in {RECORD} ({RECORD.stat().st_size:,} bytes)")
