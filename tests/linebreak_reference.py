"""uniseg's line break units, recorded: the reference test_linebreak compares ppgen.linebreak with,
without asking uniseg (pure Python: 0.14 ms a character, 0.2 ms a call) about the same strings on
every run — the shipped texts (110,000 characters) and the alphabet's 25,700 short strings.

The record (tests/data/linebreak-reference.json.gz, 54 KB) holds only what uniseg said, for the
uniseg version and the Unicode character data it names (uniseg reads unicodedata2 if installed,
else Python's own unicodedata: a newer Python assigns new emoji): for each shipped text, by a
digest of it, the lengths of its units; for each list of strings made from ALPHABET (LISTS), a
digest of the list and each string's unit lengths. A text the record does not hold (a
translation edited since), a list made differently, or any string under other uniseg or Unicode
data, is asked of uniseg itself, so the tests stay exact whatever the locales and the alphabet
say; test_linebreak re-asks uniseg about a sixteenth of the record on every run, and all of it
with PPGEN_FULL_REFERENCE=1. After editing many texts, or the alphabet, record again:

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


def list_digest(strings: list[str]) -> str:
    return digest("\0".join(strings))


def made_with() -> str:
    """What uniseg's answers depend on: its version (its Line_Break tables) and the Unicode data
    it reads categories and widths from."""
    from uniseg.unicodedatawrapper import unidata_version

    return f"uniseg {version('uniseg')}, Unicode {unidata_version}"


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
    empty when there is no record, or it was made with another uniseg or Unicode data than this
    Python's (made_with)."""
    empty = {"texts": {}, "lists": {}}
    if not RECORD.exists():
        return empty
    record = json.loads(gzip.decompress(RECORD.read_bytes()))
    return record if record.get("made with") == made_with() else empty


def units_of_text(s: str) -> tuple[tuple[str, ...], bool]:
    """uniseg's units of `s`, and whether they were read from the record (else asked)."""
    lengths = recorded()["texts"].get(digest(s))
    if lengths is not None and sum(lengths) == len(s):
        return units_of(s, lengths), True
    return uniseg_units(s), False


def units_of_list(name: str) -> tuple[list[str], list[tuple[str, ...]], bool]:
    """The strings of LISTS[name], uniseg's units of each, and whether those were read from the
    record (it holds this very list) or asked."""
    strings = LISTS[name]()
    kept = recorded()["lists"].get(name)
    if kept is not None and kept["digest"] == list_digest(strings):
        return strings, [units_of(s, lengths) for s, lengths in zip(strings, kept["units"], strict=True)], True
    return strings, [uniseg_units(s) for s in strings], False


FROM_THE_RECORD = ("uniseg's units as recorded (tests/linebreak_reference.py): if ppgen is right, the "
                   "record is wrong — PPGEN_FULL_REFERENCE=1 re-asks uniseg about all of it")


def record(project) -> int:
    """Ask uniseg about every shipped text and every list, and write the record (gzip's time
    stamp left out: the same strings give the same bytes); the number of strings."""
    texts = {digest(s): [len(u) for u in uniseg_units(s)] for s in shipped_texts(project)}
    lists = {}
    for name, make in LISTS.items():
        strings = make()
        lists[name] = {"digest": list_digest(strings), "units": [[len(u) for u in uniseg_units(s)] for s in strings]}
    data = json.dumps({"made with": made_with(), "texts": dict(sorted(texts.items())), "lists": lists}, separators=(",", ":"))
    RECORD.parent.mkdir(exist_ok=True)
    part = RECORD.with_suffix(".part")
    part.write_bytes(gzip.compress(data.encode(), compresslevel=9, mtime=0))
    part.replace(RECORD)
    recorded.cache_clear()
    return len(texts) + sum(len(kept["units"]) for kept in lists.values())


if __name__ == "__main__":
    import sys

    ROOT = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(ROOT / "src"))  # this checkout's ppgen (what the tests import), not an installed copy
    import ppgen

    count = record(ppgen.load(ROOT))
    print(f"recorded the units of {count:,} strings ({made_with()}) in {RECORD} ({RECORD.stat().st_size:,} bytes)")
