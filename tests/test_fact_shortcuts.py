"""The speed shortcuts of the word kinds equal the plain definitions they replace.

Each shortcut (a cheaper path taken where it gives the same answer) is checked against
the straightforward computation, on texts drawn from the characters and words that steer
it. The golden facts (``test_fact_golden.py``) check the whole extractor; these reach the
shortcuts' edge cases directly.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from guisekit.facts import negation, roles
from guisekit.facts.roles import _LAST_MARK, _WORD, _clause_words

SETTINGS = settings(max_examples=400, deadline=None)
CLAUSE_PARTS = st.sampled_from(
    ["the", " ", "fee", "of", ".", ",", ", ", "\n", "\t", ";", "'", "’", "5", "$", ":", "é", "A"]
)


def _clause_words_plain(low: str, begin: int, start: int) -> list[str]:
    mark = _LAST_MARK.match(low, begin, start)
    return _WORD.findall(low, begin if mark is None else mark.end(), start)


@given(st.lists(CLAUSE_PARTS, max_size=30), st.integers(0, 60), st.integers(0, 60))
@SETTINGS
@example(["the", " ", "fee", ",", " ", "of", " "], 0, 0)
@example(["fee", ","], 0, 0)
@example(["'", "fee", " ", "of"], 0, 0)
def test_clause_words_equal_the_tokenizer(parts: list[str], begin: int, back: int) -> None:
    low = "".join(parts)
    start = max(begin, len(low) - back)
    assert _clause_words(low, begin, start) == _clause_words_plain(low, begin, start)


IDIOM_PARTS = st.sampled_from(
    ["not", "no", "never", "without", "n't", "nahi", " ", "sure", "problem", "problme", "said",
     "if i'm", "if i am", "mistaken", "doubt", "a", "x", "ly", ",", "less than", "pakka"]
)  # fmt: skip


@given(st.lists(IDIOM_PARTS, max_size=12), st.lists(st.sampled_from(["", " "]), max_size=12))
@SETTINGS
@example(["if i'm", " ", "not", " ", "mistaken"], [])
@example(["no", " ", "problme"], [])
def test_the_idiom_gate_only_skips_negators_in_no_idiom(parts: list[str], seps: list[str]) -> None:
    low = "".join(p + (seps[i] if i < len(seps) else " ") for i, p in enumerate(parts))
    for key, idioms in negation._IDIOMS_BY_WORD.items():
        at = low.find(key)
        while at >= 0:
            plain = negation._in_idiom(low, at, idioms)
            gated = negation._IDIOM_GATE[key].match(low, at) is not None or (
                key in negation._STARTS_IDIOM and negation._misspelt_near(low, at)
            )
            assert gated or not plain, (low, at, key)
            at = low.find(key, at + 1)


APPROX_PARTS = st.sampled_from(
    ["at least", "more than", "of", "a minimum of", "in excess of", "up to", "to", "over",
     "about", "roughly", " ", "x", "just", "for", "é"]
)  # fmt: skip


@given(st.lists(APPROX_PARTS, max_size=10))
@SETTINGS
def test_the_approximator_gate_only_skips_phrases_that_do_not_end_there(parts: list[str]) -> None:
    low = " ".join(parts) + " 5"
    start = len(low) - 1
    floor = max(0, start - 24)
    space = low.rfind(" ", floor, start - 1)
    phrases = roles._APPROX_TAILS.get(low[(space + 1 if space >= 0 else floor) : start - 1])
    if phrases is None or not low.endswith(phrases, floor, start - 1):
        assert roles._approximator(low, start) is None, low


NT_PARTS = st.sampled_from(
    ["dont", "didnt", "cant", "wont", "aint", "oughtnt", "payment", "nt", "n", "t", "x", "é",
     "'", "’", " ", ".", "-", "_", "1", "Dont", "idont"]
)  # fmt: skip


@given(st.lists(NT_PARTS, max_size=12))
@SETTINGS
@example(["idont", " "])
@example(["'", "dont"])
def test_the_bare_contraction_scan_finds_every_bare_contraction(parts: list[str]) -> None:
    low = "".join(parts).lower()
    plain = []
    for match in negation._NT.finditer(low):
        start = match.end() - 2
        while start and low[start - 1].isalpha():
            start -= 1
        if low[start : match.end()] in negation._BARE_SET:
            plain.append(match.end())
    scanned = {m.end() for m in negation._BARE_NT.finditer(low)}
    assert set(plain) <= scanned, low
    assert scanned <= {m.end() for m in negation._NT.finditer(low)}, low
