"""Hypothesis properties of the issue-14 fact kinds: quantities, approximators, negation,
roles and the date order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.facts import SeverityPolicy, check_facts, extract_facts
from guisekit.resources import read_table

UNITS = dict(read_table("facts/units.tsv", ("word", "unit")))
PLURALS = sorted(w for w, unit in UNITS.items() if w != unit and w.isascii() and w.endswith("s"))
APPROX = dict(read_table("facts/approximators.tsv", ("phrase", "class")))
CLEAR = sorted(p for p, c in APPROX.items() if c in ("nearly", "at least", "up to") and p.isascii())
_ONES = "zero one two three four five six seven eight nine ten eleven twelve".split()  # noqa: SIM905
CONTRACTIONS = [("do not", "don't"), ("did not", "didn't"), ("is not", "isn't"),
                ("was not", "wasn't"), ("have not", "haven't"), ("will not", "won't")]  # fmt: skip
SUBJECTS = st.sampled_from(["The bank", "My agent", "They", "The branch manager"])
MONTHS = ["", *"January February March April May June July August September".split()]  # noqa: SIM905
MONTHS += ["October", "November", "December"]
SETTINGS = settings(max_examples=60, deadline=None)


@given(st.integers(2, 999), st.sampled_from(PLURALS))
@SETTINGS
def test_a_count_in_digits_is_a_quantity_in_the_singular(n: int, word: str) -> None:
    (fact,) = [f for f in extract_facts(f"I waited {n} {word} for it.") if f.kind == "quantity"]
    assert fact.value == f"{n} {UNITS[word]}" and fact.text == f"{n} {word}"


@given(st.integers(2, 12), st.sampled_from(PLURALS))
@SETTINGS
def test_a_count_in_words_equals_the_count_in_digits(n: int, word: str) -> None:
    assert check_facts(f"It took {n} {word}.", f"It took {_ONES[n]} {word}.").verdict == "pass"


@given(st.integers(2, 999), st.sampled_from(PLURALS), st.sampled_from(CLEAR))
@SETTINGS
def test_adding_an_approximator_fails(n: int, word: str, phrase: str) -> None:
    result = check_facts(f"It took {n} {word}.", f"It took {phrase} {n} {word}.")
    assert result.verdict == "fail"
    assert [d.kind for d in result.discrepancies] == ["quantity"]


@given(st.integers(2, 999), st.sampled_from(PLURALS), st.integers(1, 50))
@SETTINGS
def test_changing_a_count_fails(n: int, word: str, delta: int) -> None:
    result = check_facts(f"It took {n} {word}.", f"It took {n + delta} {word}.")
    assert result.verdict == "fail"


@given(SUBJECTS, st.sampled_from(CONTRACTIONS), st.sampled_from(["refund", "reply", "call"]))
@SETTINGS
def test_contracting_a_negator_is_a_style_edit_and_dropping_it_fails(
    subject: str, pair: tuple[str, str], verb: str
) -> None:
    full, short = pair
    original = f"{subject} {full} {verb} me."
    assert check_facts(original, f"{subject} {short} {verb} me.").verdict == "pass"
    assert check_facts(original, original.lower()).verdict == "pass"
    positive = f"{subject} {full.split()[0]} {verb} me."
    dropped = check_facts(original, positive)
    assert dropped.verdict == "fail" and {d.kind for d in dropped.discrepancies} == {"negation"}


@given(st.integers(1, 999), st.integers(1, 999))
@SETTINGS
def test_amounts_traded_between_roles_fail_and_reordered_roles_pass(a: int, b: int) -> None:
    if a == b:
        return
    original = f"The fee was ${a} and the refund was ${b}."
    assert check_facts(original, f"The refund was ${b} and the fee was ${a}.").verdict == "pass"
    assert check_facts(original, f"The fee was ${b} and the refund was ${a}.").verdict == "fail"


@given(st.integers(1, 12), st.integers(1, 12), st.integers(2000, 2030))
@SETTINGS
def test_a_numeric_date_is_read_by_the_date_order_and_never_guessed(d: int, m: int, y: int) -> None:
    numeric = f"I paid on {d}/{m}/{y}."
    written = f"I paid on {d} {MONTHS[m]} {y}."
    assert check_facts(numeric, written, SeverityPolicy(date_order="dmy")).verdict == "pass"
    auto = check_facts(numeric, written).verdict
    assert auto == ("pass" if d == m else "warn")  # no context: both readings are possible
    indian = check_facts(numeric + " It was ₹500.", written + " It was ₹500.").verdict
    assert indian == "pass"
