"""The speed shortcuts of the word kinds equal the plain definitions they replace.

Each shortcut (a cheaper path taken where it gives the same answer) is checked against
the straightforward computation, on texts drawn from the characters and words that steer
it. The golden facts (``test_fact_golden.py``) check the whole extractor; these reach the
shortcuts' edge cases directly.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from guisekit.facts import (
    ages,
    context,
    dates,
    entities,
    extract,
    negation,
    quantities,
    roles,
    scan,
)
from guisekit.facts.roles import _LAST_MARK, _WORD, _clause_words
from guisekit.facts.scan import letters_only

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
    plain = _clause_words_plain(low, begin, start)
    assert _clause_words(low, begin, start) == plain
    assert _clause_words(low, begin, start, letters=letters_only(low)) == plain


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


BARRIER_PARTS = st.sampled_from(
    ["the", " ", "fee", "of", "late", "monthly", "refund", "a", ".", ",", ", ", "\n", ";", "'",
     "’", "5", "12", "$", "₹", ":", "=", "{", "(", "-", "é", "A", "every", "month"]
)  # fmt: skip


@given(st.lists(BARRIER_PARTS, max_size=30), st.integers(0, 60), st.integers(0, 60))
@SETTINGS
@example(["fee", " ", "of", " ", "5", " ", "the", " ", "refund", " ", "of", " "], 0, 0)
@example(["fee", ":", " ", "5", "{"], 0, 0)
@example(["refund", ":", " "], 0, 0)
@example(["refund", " ", "of", " ", "5", " ", "{"], 0, 0)
def test_clause_words_stop_at_a_barrier_only_where_the_role_search_stops(
    parts: list[str], begin: int, back: int
) -> None:
    """``whole=False`` may give a barrier token and the words after it instead of the
    whole clause: the role search (with no period adjective in the text) reads the same
    role and period from either."""
    low = "".join(parts)
    start = max(begin, len(low) - back)
    full = _clause_words_plain(low, begin, start)
    short = _clause_words(low, begin, start, whole=False)
    if short != full:
        assert short[0] in roles._BARRIERS, (low, short, full)
        assert full[len(full) - len(short) :] == short, (low, short, full)
    end = min(len(low), start + 1)
    original = roles._clause_words
    try:
        roles._clause_words = lambda low, begin, start, whole=True, letters=None: (
            _clause_words_plain(low, begin, start)
        )
        expected = roles._role(low, start, end, False)
    finally:
        roles._clause_words = original
    assert roles._role(low, start, end, False) == expected, low
    assert roles._role(low, start, end, False, letters_only(low)) == expected, low


# The one scan that _indian's literal-led scans replace (the definition).
_INDIAN_ONE_SCAN = re.compile(
    r"[₹RILlCc\d](?:(?<=₹)|(?<=R)(?<!\w.)s\.?\s?\d|(?<=I)(?<!\w.)NR\b"
    r"|(?<=[lL])(?<!\w.)(?:akhs?|acs?)\b|(?<=[cC])(?<!\w.)rores?\b|(?<=\d)\s?[cC]r\b"
    r"|(?<=L)(?<!\w.)PA\b|(?<=C)(?<!\w.)TC\b)"
)
INDIAN_PARTS = st.sampled_from(
    ["₹", "Rs", "Rs.", "R", "s", "INR", "I", "NR", "lakh", "Lakhs", "lac", "lacs", "akh", "ac",
     "crore", "Crores", "rore", "cr", "Cr", "LPA", "CTC", "TC", "PA", "5", "٥", " ", "\t", ".",
     "x", "é", "_", "-"]
)  # fmt: skip


@given(st.lists(INDIAN_PARTS, max_size=12))
@SETTINGS
@example(["x", "lakh"])
@example(["5", " ", "Cr"])
@example(["5", "cr", "x"])
@example(["Rs", " ", "5"])
def test_the_indian_money_scans_find_what_the_one_scan_finds(parts: list[str]) -> None:
    text = "".join(parts)
    found = any(literal in text and scan.search(text) for literal, scan in context._INDIAN)
    assert found == (_INDIAN_ONE_SCAN.search(text) is not None), text


DIGIT_PARTS = st.sampled_from(["1", "23", "4567", "89012", "X", "*", " ", "-", ".", ",", "a"])


@given(st.lists(DIGIT_PARTS, max_size=20))
@SETTINGS
@example(["89012"])
@example(["4567", "1", " ", "89012", "1"])
def test_the_digit_runs_are_the_identifier_scan_matches(parts: list[str]) -> None:
    text = "".join(parts)
    classes = text.encode().translate(entities._MASK_CLASSES)
    expected = [m.span() for m in entities._IDENTIFIER.finditer(text)]
    assert entities._digit_runs(classes) == expected, text


TEXT_PARTS = st.sampled_from(
    ["the", "fee", "late", "of", "monthly", "annual", "rent", "payment", "one", "twice", "five",
     "lakhs", "crore", "percent", "$5", "$1,200", "₹1,200", "Rs 40,000", "5", "30", "12 LPA",
     "days", "times", "refund", "salary", "is", "was", "every", "month", "my", "{", ":", "-",
     ",", ".", "é", "’", "'", "\n", "ending in 4417", "XXXX", "2019", "03/04/2021", "Priya",
     "not", "never", "no", "dont", "didn't", "without", "cannot", "no problem", "yesterday",
     "last week", "3 days ago", "ago", "i am", "I'm", "aged", "age", "he is", "dollars",
     "five hundred", "rupees", "bucks", "_"]
)  # fmt: skip
# every word a prefilter looks for (with them all present, every list is searched)
_EVERY_WORD_HERE = (
    quantities._FIRST_WORD_BYTES
    | roles._PERIOD_ADJECTIVE_RUNS
    | negation._N_WORD_RUNS
    | negation._BARE_RUNS
    | {word.encode() for word in negation._RARE_NEGATORS}
    | {word.encode() for word, _ in dates._REL_LITERAL}
    | {b"ago", b"dollars", b"bucks", b"rupees"}
    | {run for runs in ages._PHRASE_RUNS.values() for words in runs for run in words}
)


@given(st.lists(TEXT_PARTS, max_size=25), st.lists(st.sampled_from([" ", "", "  "]), max_size=25))
@SETTINGS
@example(["my", "monthly", "rent", "is", "$5"], [])
@example(["twice", "fee", "of", "5", "days", "monthly", "payment", "of", "$5"], [])
@example(["paid", "twice", ","], [" ", "", " "])
@example(["my", "monthly", "{", "payment", "was", "supposed", "to", "be", "$5"], [" ", "", ""])
@example(
    ["i am", "30", ".", "he is", "_", "not", "dont", "3 days ago", "five hundred", "dollars"], []
)
@example(["'", "not", "’", "dont", "didn't", "no problem", "yesterday", "last week"], [])
def test_the_prefilters_skip_only_what_finds_nothing(parts: list[str], seps: list[str]) -> None:
    """Extraction with the word prefilters (the text's letter runs say which lists may be
    present) equals extraction with every list searched."""
    text = "".join(p + (seps[i] if i < len(seps) else " ") for i, p in enumerate(parts))
    fast = extract.extract_facts(text)
    original = extract.letter_runs
    try:
        extract.letter_runs = lambda low: _EVERY_WORD_HERE | original(low)
        slow = extract.extract_facts(text)
    finally:
        extract.letter_runs = original
    assert fast == slow, text


def test_a_lexicon_setting_key_adds_no_style_word() -> None:
    """Regression: a hedge lexicon's new setting ``only_before`` made "only" a style word
    (never a name), so "THE REFUND WAS ONLY US$50." gave the name "WAS"."""
    facts = extract.extract_facts("THE REFUND WAS ONLY US$50.")
    assert [(f.kind, f.value) for f in facts] == [("money", "50 USD")]
    assert "only" not in context._NOT_ENTITIES


SCAN_PARTS = st.sampled_from(
    ["1", "23", "2019", "1,200", "12,00,000", ".", ",", "/", "-", " ", "$", "₹", "Rs", "k", "L",
     "lakh", "cr", "%", " percent", " days", " late fees", "March", "Jan", "th", " of ", "USD",
     "XX", "a", "\n", "to", "–"]
)  # fmt: skip


@given(st.lists(SCAN_PARTS, max_size=20))
@SETTINGS
@example(["12", "-", "15", " ", "L", "PA"])
@example(["March", " ", "1", "4", ",", " ", "2019"])
def test_the_ascii_digit_scans_equal_the_unicode_ones(parts: list[str]) -> None:
    """The scans with ``0-9`` for ``\\d`` (for texts with no other digit) match what the
    ``\\d`` scans match, group for group."""
    text = "".join(parts)
    if any(ch.isdecimal() and not ch.isascii() for ch in text):
        return
    unicode_scan = [m.regs for m in scan._DIGITS_UNICODE.finditer(text)]
    assert [m.regs for m in scan._DIGITS_ASCII.finditer(text)] == unicode_scan, text
    low = text.lower()
    if low.isascii():
        plain = [m.regs for m in quantities._DIGIT_QUANTITY.finditer(low)]
        assert [m.regs for m in quantities._DIGIT_QUANTITY_ASCII.finditer(low)] == plain, low
