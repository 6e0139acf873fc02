"""Shared settings of the fuzz tests (hypothesis) and what counts as a clean outcome.

CI runs every fuzz test with a bounded number of examples, derandomized: the same
examples on every run, so CI is deterministic. For a long local hunt, set
FUZZ_EXAMPLES (e.g. `FUZZ_EXAMPLES=5000 pytest -k fuzz`): every fuzz test then draws
that many examples, and with FUZZ_RANDOM=1 new ones each run.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ppgen.errors import PpgenError


def fuzz(examples: int):
    """hypothesis settings for a fuzz test drawing `examples` examples in CI."""
    n = int(os.environ.get("FUZZ_EXAMPLES") or examples)
    return settings(max_examples=n, derandomize=not os.environ.get("FUZZ_RANDOM"), database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


def clean(call, *args, **kwargs):
    """Run `call`: its result, or None when it raised an error ppgen reports cleanly (a
    DataError, UsageError or another PpgenError). Any other exception escapes and fails the test."""
    try:
        return call(*args, **kwargs)
    except PpgenError as exc:
        assert str(exc), "an error with no message"
        return None


# Characters that break parsers: YAML and PO syntax, quotes and escapes, whitespace of every
# kind, control and bidi characters, full-width forms, CJK, combining marks, astral characters.
NASTY = list(":-[]{}#&*!|>'\"%@`,?\\/\n\t\r ") + list("abcxyzABC0129") + [
    "\x00", "\x07", "\x1b", "\x85", "\u00a0", "\u200b", "\u200f", "\u202e", "\u2028", "\ufeff", "\ufffe",
    "é", "ß", "İ", "ﬁ", "\u0301", "日", "ローマ", "로마", "罗马", "３", "ｘ", "×", "枚", "장", "张", "：", "\U0001F984",
]


def nasty(max_size: int = 30):
    """Strings made of NASTY pieces (some pieces are several characters long)."""
    return st.lists(st.sampled_from(NASTY), max_size=max_size).map("".join)


nasty_text = nasty()
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True),
                    nasty_text, st.text(max_size=30))
