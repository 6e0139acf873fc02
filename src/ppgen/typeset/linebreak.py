"""Unicode line breaking (UAX #14), fast, with exactly uniseg's results.

`break_units(text)` returns the same pieces as
`list(uniseg.linebreak.line_break_units(text))` — uniseg 0.10 stays the
reference (tests compare the two) and supplies the character data — but runs
about 50 times faster: uniseg walks a generic `Run` object, copying it for
every look-back; here each boundary is decided by a chain of plain functions
over two lists (cluster classes and characters) and a few integers of state.

The rules are uniseg's reading of UAX #14 for Unicode 16, quirks included;
where uniseg departs from the letter of the standard, this module follows
uniseg (noted at the rule). Character data comes from the same functions
uniseg calls: its own Line_Break and Extended_Pictographic tables, and
Python's `unicodedata` for General_Category and East_Asian_Width. Thai, Lao,
Khmer and Myanmar (class SA) get no dictionary: as in uniseg, their letters
count as AL, so a run of them breaks only at spaces. Order of work:

1. LB1: each character's class, remapped (AI, SG, XX → AL; SA → CM or AL;
   CJ → NS).
2. LB4–LB8a on the raw characters, and LB9/LB10: combining marks and ZWJ
   join the character before them into one cluster (or stand alone as AL).
3. LB11–LB31 over the clusters, in one pass. For each boundary the first rule
   that speaks decides (True = break allowed, False = no break, None = this
   rule group has nothing to say).
"""
from __future__ import annotations

from functools import lru_cache

from uniseg.emoji import extended_pictographic
from uniseg.linebreak import line_break
from uniseg.unicodedatawrapper import category, east_asian_width

BREAK, KEEP = True, False

_EAST_ASIAN = frozenset({"F", "W", "H"})
_HARD = frozenset({"BK", "CR", "LF", "NL"})
_MARKS = frozenset({"CM", "ZWJ"})
_NO_ATTACH = frozenset({"BK", "CR", "LF", "NL", "SP", "ZW"})  # LB9: marks after these stand alone
_HANGUL = frozenset({"JL", "JV", "JT", "H2", "H3"})
_AL_HL = frozenset({"AL", "HL"})
_PR_PO = frozenset({"PR", "PO"})
_HY_BA = frozenset({"HY", "BA"})
_SY_IS = frozenset({"SY", "IS"})


# ── character data (memoised: a text has few distinct characters) ──────────
@lru_cache(maxsize=None)
def _class(ch: str) -> str:
    """LB1: the character's Line_Break class, resolved for line breaking."""
    lb = line_break(ch).value
    if lb in ("AI", "SG", "XX"):
        return "AL"
    if lb == "SA":  # Thai, Lao, Khmer, Myanmar: no dictionary, so no breaks inside words
        return "CM" if category(ch) in ("Mn", "Mc") else "AL"
    if lb == "CJ":  # strict-style Japanese: small kana are non-starters
        return "NS"
    return lb


@lru_cache(maxsize=None)
def _cat(ch: str | None) -> str | None:
    return None if ch is None else category(ch).value


@lru_cache(maxsize=None)
def _wide(ch: str | None) -> bool:
    """East Asian width F, W or H (uniseg's test in LB19a and LB30)."""
    return ch is not None and east_asian_width(ch).value in _EAST_ASIAN


# ── LB4–LB10: on the characters themselves ────────────────────────────────
def _lb4_8a(prev: str | None, cur: str, before_spaces: str | None) -> bool | None:
    """Hard breaks, spaces, ZW, ZWJ. `prev` is the class of the character just
    before, `before_spaces` that of the last character before it that is not SP."""
    if prev == "BK":  # LB4: BK !
        return BREAK
    if prev == "CR" and cur == "LF":  # LB5: CR × LF
        return KEEP
    if prev in ("CR", "LF", "NL"):  # LB5: (CR | LF | NL) !
        return BREAK
    if cur in _HARD:  # LB6: × (BK | CR | LF | NL)
        return KEEP
    if cur == "SP" or cur == "ZW":  # LB7: × SP, × ZW
        return KEEP
    if before_spaces == "ZW":  # LB8: ZW SP* ÷
        return BREAK
    if prev == "ZWJ":  # LB8a: ZWJ ×
        return KEEP
    return None


def _clusters(text: str) -> tuple[list[str], list[str | None], list[int], list[bool | None]]:
    """LB9/LB10: classes, characters and start offsets of the clusters, and the
    LB4–LB8a decision at each cluster's start.

    LB9: X (CM | ZWJ)* → X unless X is BK, CR, LF, NL, SP or ZW; no break inside
    a cluster (LB4–LB8a never break there either). LB10: a CM or ZWJ that
    joins nothing counts as the letter "A" (AL). The class and character
    lists end with two None so that k+1, k+2 and -1, -2 read as "nothing".
    """
    classes: list[str | None] = []
    chars: list[str | None] = []
    starts: list[int] = []
    decisions: list[bool | None] = []
    prev = before_spaces = base = None  # last class; last non-SP class; last non-mark class
    for i, ch in enumerate(text):
        cls = _class(ch)
        if cls not in _MARKS:
            base = cls
            classes.append(cls)
            chars.append(ch)
        elif i and base not in _NO_ATTACH:  # LB9 (uniseg: also when only marks precede)
            pass  # joins the cluster before; no break before it
        else:
            classes.append("AL")  # LB10
            chars.append("A")
        if len(classes) > len(starts):  # this character starts a cluster
            starts.append(i)
            decisions.append(_lb4_8a(prev, cls, before_spaces) if i else KEEP)  # LB2: × sot
        prev = cls
        if cls != "SP":
            before_spaces = cls
    classes += [None, None]
    chars += [None, None]
    return classes, chars, starts, decisions


# ── LB11–LB30b: on clusters; K classes, C characters, k the cluster after the boundary ──
def _lb11_13(K, k) -> bool | None:
    """Word joiner, glue, closing punctuation."""
    cur, prev = K[k], K[k - 1]
    if cur == "WJ" or prev == "WJ":  # LB11: × WJ ×
        return KEEP
    if prev == "GL":  # LB12: GL ×
        return KEEP
    if cur == "GL" and prev not in ("SP", "BA", "HY"):  # LB12a: [^SP BA HY] × GL
        return KEEP
    if cur in ("CL", "CP", "EX", "SY"):  # LB13: × CL, × CP, × EX, × SY
        return KEEP
    return None


_LB15A_BEFORE = frozenset({"BK", "CR", "LF", "NL", "OP", "QU", "GL", "SP", "ZW"})
_LB15B_AFTER = frozenset({"SP", "GL", "WJ", "CL", "QU", "CP", "EX", "IS", "SY", "BK", "CR", "LF", "NL", "ZW"})


def _lb14_18(K, C, k, b, eot) -> bool | None:
    """Openings and the rules that look back past spaces. `b` is the last
    cluster before k that is not SP (-1: none); `eot` is True when k is the
    last cluster and no mark follows it (uniseg's end-of-text test)."""
    cur, prev = K[k], K[k - 1]
    if K[b] == "OP":  # LB14: OP SP* ×
        return KEEP
    # LB15a: (sot | BK CR LF NL OP QU GL SP ZW) [QU & Pi] SP* ×
    # (uniseg also accepts a Pi character at the very start whatever its class)
    if b >= 0 and (b == 0 or (K[b] == "QU" and K[b - 1] in _LB15A_BEFORE)) and _cat(C[b]) == "Pi":
        return KEEP
    # LB15b: × [QU & Pf] (SP GL WJ CL QU CP EX IS SY BK CR LF NL ZW | eot)
    if cur == "QU" and _cat(C[k]) == "Pf" and (K[k + 1] in _LB15B_AFTER or eot):
        return KEEP
    if cur == "IS":
        if prev == "SP" and K[k + 1] == "NU":  # LB15c: SP ÷ IS NU
            return BREAK
        return KEEP  # LB15d: × IS
    if cur == "NS" and K[b] in ("CL", "CP"):  # LB16: (CL | CP) SP* × NS
        return KEEP
    if cur == "B2" and K[b] == "B2":  # LB17: B2 SP* × B2
        return KEEP
    if prev == "SP":  # LB18: SP ÷
        return BREAK
    return None


def _lb19_19a(K, C, k) -> bool | None:
    """Quotation marks: no break around them, except between wide characters."""
    cur, prev = K[k], K[k - 1]
    if cur != "QU" and prev != "QU":
        return None
    # LB19: × [QU - Pi], [QU - Pf] ×
    if (cur == "QU" and _cat(C[k]) != "Pi") or (prev == "QU" and _cat(C[k - 1]) != "Pf"):
        return KEEP
    # LB19a: [^$EastAsian] × QU, × QU ([^$EastAsian] | eot),
    #        QU × [^$EastAsian], ([^$EastAsian] | sot) QU ×
    if cur == "QU" and (not _wide(C[k - 1]) or not _wide(C[k + 1])):
        return KEEP
    if prev == "QU" and (not _wide(C[k]) or not _wide(C[k - 2])):
        return KEEP
    return None


_LB20A_BEFORE = frozenset({"BK", "CR", "LF", "NL", "SP", "ZW", "CB", "GL"})


def _lb20_22(K, C, k) -> bool | None:
    """Contingent breaks, hyphens, break-before/after classes, inseparables."""
    cur, prev = K[k], K[k - 1]
    if cur == "CB" or prev == "CB":  # LB20: ÷ CB, CB ÷
        return BREAK
    # LB20a: (sot | BK CR LF NL SP ZW CB GL) (HY | U+2010) × AL
    if (
        cur == "AL"
        and prev in _HY_BA
        and (prev == "HY" or C[k - 1] == "\u2010")
        and (k == 1 or K[k - 2] in _LB20A_BEFORE)
    ):
        return KEEP
    if cur in ("BA", "HY", "NS") or prev == "BB":  # LB21: × BA, × HY, × NS, BB ×
        return KEEP
    if prev in _HY_BA and K[k - 2] == "HL" and cur != "HL":  # LB21a: HL (HY | BA) × [^HL]
        return KEEP
    if prev == "SY" and cur == "HL":  # LB21b: SY × HL
        return KEEP
    if cur == "IN":  # LB22: × IN
        return KEEP
    return None


def _lb23_25(K, k, nb, nb1) -> bool | None:
    """Letters, numbers, prefixes and postfixes. `nb` is the last cluster before
    k that is not SY or IS, `nb1` the same before k-1 (-1: none)."""
    cur, prev = K[k], K[k - 1]
    # LB23: (AL | HL) × NU, NU × (AL | HL)
    if (prev in _AL_HL and cur == "NU") or (prev == "NU" and cur in _AL_HL):
        return KEEP
    # LB23a: PR × (ID | EB | EM), (ID | EB | EM) × PO
    if (prev == "PR" and cur in ("ID", "EB", "EM")) or (prev in ("ID", "EB", "EM") and cur == "PO"):
        return KEEP
    # LB24: (PR | PO) × (AL | HL), (AL | HL) × (PR | PO)
    if (prev in _PR_PO and cur in _AL_HL) or (prev in _AL_HL and cur in _PR_PO):
        return KEEP
    # LB25: number sequences
    if cur in _PR_PO:
        if prev in ("CL", "CP") and K[nb1] == "NU":  # NU (SY | IS)* (CL | CP) × (PO | PR)
            return KEEP
        if K[nb] == "NU":  # NU (SY | IS)* × (PO | PR)
            return KEEP
    elif cur == "OP":
        if prev in _PR_PO and (K[k + 1] == "NU" or (K[k + 1] == "IS" and K[k + 2] == "NU")):
            return KEEP  # (PR | PO) × OP NU, (PR | PO) × OP IS NU
    elif cur == "NU":
        if prev in _PR_PO or prev in ("HY", "IS"):  # (PR | PO) × NU, (HY | IS) × NU
            return KEEP
        if K[nb] == "NU":  # NU (SY | IS)* × NU
            return KEEP
    return None


_AK_AS = frozenset({"AK", "AS"})


def _lb26_28a(K, C, k) -> bool | None:
    """Hangul syllables, letters, Brahmic aksaras."""
    cur, prev = K[k], K[k - 1]
    if prev in _HANGUL or cur in _HANGUL:
        # LB26: JL × (JL | JV | H2 | H3), (JV | H2) × (JV | JT), (JT | H3) × JT
        if prev == "JL" and cur in ("JL", "JV", "H2", "H3"):
            return KEEP
        if prev in ("JV", "H2") and cur in ("JV", "JT"):
            return KEEP
        if prev in ("JT", "H3") and cur == "JT":
            return KEEP
        # LB27: (JL | JV | JT | H2 | H3) × PO, PR × (JL | JV | JT | H2 | H3)
        if (prev in _HANGUL and cur == "PO") or (prev == "PR" and cur in _HANGUL):
            return KEEP
    if prev in _AL_HL and cur in _AL_HL:  # LB28: (AL | HL) × (AL | HL)
        return KEEP
    # LB28a: AP × (AK | ◌ | AS), (AK | ◌ | AS) × (VF | VI),
    #        (AK | ◌ | AS) VI × (AK | ◌), (AK | ◌ | AS) × (AK | ◌ | AS) VF
    aksara_prev = prev in _AK_AS or C[k - 1] == "\u25cc"
    if prev == "AP" and (cur in _AK_AS or C[k] == "\u25cc"):
        return KEEP
    if aksara_prev and cur in ("VF", "VI"):
        return KEEP
    if (
        prev == "VI"
        and (K[k - 2] in _AK_AS or C[k - 2] == "\u25cc")
        and (cur == "AK" or C[k] == "\u25cc")
    ):
        return KEEP
    if aksara_prev and (cur in _AK_AS or C[k] == "\u25cc") and K[k + 1] == "VF":
        return KEEP
    return None


def _lb29_30(K, C, k) -> bool | None:
    """Letters next to infix separators and narrow parentheses."""
    cur, prev = K[k], K[k - 1]
    if prev == "IS" and cur in _AL_HL:  # LB29: IS × (AL | HL)
        return KEEP
    # LB30: (AL | HL | NU) × [OP - $EastAsian], [CP - $EastAsian] × (AL | HL | NU)
    if cur == "OP" and prev in ("AL", "HL", "NU") and not _wide(C[k]):
        return KEEP
    if prev == "CP" and cur in ("AL", "HL", "NU") and not _wide(C[k - 1]):
        return KEEP
    return None


def _lb30b(K, C, k) -> bool | None:
    """LB30b: EB × EM, [\\p{Extended_Pictographic} & \\p{Cn}] × EM."""
    if K[k] == "EM":
        pc = C[k - 1]
        if K[k - 1] == "EB" or (_cat(pc) == "Cn" and extended_pictographic(pc)):
            return KEEP
    return None


# ── the pass ───────────────────────────────────────────────────────────────
# The commonest boundaries of Japanese and Chinese text, between two clusters of the same class,
# decided directly: for ID ID and AL AL no rule from LB11 to LB30b applies but LB28 (AL × AL),
# and LB31 breaks ID ID. (At the second cluster, k = 1, LB15a may look at a Pi character at the
# very start: the rules are asked there. LB4–LB8a, on the characters, are asked first as ever.)
_SAME_PAIR = {"ID": BREAK, "AL": KEEP}


def break_offsets(text: str) -> list[int]:
    """Offsets (0 < i < len(text)) at which a line may break before text[i]."""
    K, C, starts, decisions = _clusters(text)
    n, m = len(text), len(starts)
    eot_k = m - 1 if m and starts[-1] == n - 1 else -1  # uniseg: is_eot only without trailing marks
    offsets = []
    # State, for cluster k: b = last non-SP cluster before k; nb, nb1 = last
    # cluster before k (before k-1) that is not SY/IS; ri = RI clusters in a
    # row just before k.
    b = nb = nb1 = -1
    ri = 0
    for k in range(1, m):
        p = K[k - 1]
        if p != "SP":
            b = k - 1
        nb1 = nb
        if p not in _SY_IS:
            nb = k - 1
        ri = ri + 1 if p == "RI" else 0

        d = decisions[k]
        if d is None and k > 1 and p == K[k] and p in _SAME_PAIR:
            d = _SAME_PAIR[p]  # ID ÷ ID (LB31), AL × AL (LB28): see _SAME_PAIR
        if d is None:
            d = _lb11_13(K, k)
        if d is None:
            d = _lb14_18(K, C, k, b, k == eot_k)
        if d is None:
            d = _lb19_19a(K, C, k)
        if d is None:
            d = _lb20_22(K, C, k)
        if d is None:
            d = _lb23_25(K, k, nb, nb1)
        if d is None:
            d = _lb26_28a(K, C, k)
        if d is None:
            d = _lb29_30(K, C, k)
        if d is None and K[k] == "RI" and ri % 2:  # LB30a: sot (RI RI)* RI × RI
            d = KEEP
        if d is None:
            d = _lb30b(K, C, k)
        if d is not False:  # LB31: ALL ÷
            offsets.append(starts[k])
    return offsets


def break_units(text: str) -> list[str]:
    """`text` cut at every line break opportunity; the same pieces as
    `list(uniseg.linebreak.line_break_units(text))`."""
    cuts = [0, *break_offsets(text), len(text)] if text else []
    return [text[i:j] for i, j in zip(cuts, cuts[1:])]
