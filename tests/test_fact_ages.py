"""Ages in the exact check (issue 14; the Hinglish age frame of issue 20): an age is the
quantity ``N year`` whether or not its unit is written, so ``I am 24.``, ``I am 24 years
old.`` and ``Meri age 24 saal hai.`` agree and ``I am 24.`` vs ``I am 25.`` fails.

Regressions: before :mod:`guisekit.facts.ages`, ``I am 24.`` vs ``I am 25.`` passed and
``I am 24.`` vs ``Meri age 24 saal hai.`` failed with "quantity added: '24 saal'".
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.facts import check_facts, extract_facts


def _ages(text: str) -> list[tuple[str, str]]:
    return [(f.value, f.text) for f in extract_facts(text) if f.kind == "quantity"]


def _failing(original: str, rewrite: str) -> list[str]:
    result = check_facts(original, rewrite)
    return [d.kind for d in result.discrepancies if d.severity == "fail"]


# --- each shape reads as N year ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I am 24.", [("24 year", "24")]),
        ("I'm 24, and I live in Pune.", [("24 year", "24")]),
        ("I’m 24 but I have no savings.", [("24 year", "24")]),
        ("He is 31 now.", [("31 year", "31")]),
        ("She's 7 this year.", [("7 year", "7")]),
        ("I am twenty-four.", [("24 year", "twenty-four")]),
        ("I am 24", [("24 year", "24")]),
        ("I am 24\nThanks", [("24 year", "24")]),
    ],
)
def test_bare_age_is_the_quantity_n_year(text: str, expected: list[tuple[str, str]]) -> None:
    assert _ages(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My father, aged 62, was charged twice.", [("62 year", "62"), ("2 time", "twice")]),
        ("Age 45, self-employed.", [("45 year", "45")]),
        ("My age is 24.", [("24 year", "24")]),
        ("I retired at the age of 60 last year.", [("60 year", "60")]),
        ("Meri age 24 hai.", [("24 year", "24")]),
        ("Meri age 24 saal hai.", [("24 year", "24 saal")]),
        ("Woh 24 saal ka hai.", [("24 year", "24 saal")]),
        ("Meri beti 9 saal ki hai.", [("9 year", "9 saal")]),
        ("I am 24 years old.", [("24 year", "24 years")]),
        ("a 24-year-old student", [("24 year", "24-year-old")]),
        ("a twenty-four-year-old student", [("24 year", "twenty-four-year-old")]),
    ],
)
def test_age_frames_and_written_units_give_n_year(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _ages(text) == expected


# --- must not fire ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I am 2 weeks late on rent.", [("2 week", "2 weeks")]),
        ("I am 30 minutes away.", [("30 minute", "30 minutes")]),
        ("I am 5 ft tall.", []),
        ("I am 5 feet tall.", []),
        ("I am one of 3 customers affected.", []),
        ("I am 24.5 km away.", []),
        ("I am 24% sure.", []),
        ("The issue is 24.", []),
        ("This is 24.", []),
        ("Usage 24 units.", []),
        ("See page 24.", []),
        ("age 18-25", []),
        ("The account was aged 3 months.", [("3 month", "3 months")]),
        ("a 30-year mortgage", []),
        ("I am 100 dollars short.", []),
    ],
)
def test_numbers_that_are_not_ages_are_not_read_as_ages(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _ages(text) == expected


# --- comparisons ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("I am 24.", "I am 24 years old."),
        ("I am 24.", "Meri age 24 saal hai."),
        ("I am 22.", "Meri age 22 saal hai."),
        ("I am 24 years old.", "Meri age 24 saal hai."),
        ("I'm 24 and jobless.", "Main 24 saal ka hoon aur berozgaar hoon."),
        ("She is a 30-year-old teacher.", "She is 30 and teaches."),
        ("He retired at the age of 60.", "He retired aged 60."),
    ],
)
def test_same_age_in_other_words_passes(original: str, rewrite: str) -> None:
    assert check_facts(original, rewrite).verdict == "pass"


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("I am 24.", "I am 25."),
        ("I am 24.", "Meri age 25 saal hai."),
        ("I am 24 years old.", "I am 42."),
        ("She is 30 and teaches.", "She is a 31-year-old teacher."),
        ("My father, aged 62, was charged.", "My father, aged 26, was charged."),
        ("I'm twenty-four.", "I'm twenty-five."),
    ],
)
def test_changed_age_fails(original: str, rewrite: str) -> None:
    assert _failing(original, rewrite) == ["quantity"]


def test_dropped_age_fails() -> None:
    assert _failing("I am 24 and was charged twice.", "I was charged twice.") == ["quantity"]


def test_not_an_age_is_not_compared_as_one() -> None:
    # "2 weeks" is the quantity on both sides; "I am 2" is no age of either
    assert check_facts("I am 2 weeks late.", "I'm 2 weeks late.").verdict == "pass"
    assert _failing("I am 2 weeks late.", "I am 3 weeks late.") == ["quantity"]


# --- property: an English age frame vs the Hinglish frame -------------------------------

ENGLISH = ["I am {n}.", "I'm {n}.", "I am {n} years old.", "He is {n} now.", "aged {n}"]
HINGLISH = ["Meri age {n} saal hai.", "Meri age {n} hai.", "Main {n} saal ka hoon."]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 99),
    st.integers(1, 99),
    st.sampled_from(ENGLISH),
    st.sampled_from(HINGLISH),
)
def test_age_in_english_and_hinglish_frames_agrees_and_a_change_fails(
    n: int, m: int, english: str, hinglish: str
) -> None:
    assert check_facts(english.format(n=n), hinglish.format(n=n)).verdict == "pass"
    verdict = check_facts(english.format(n=n), hinglish.format(n=m)).verdict
    assert verdict == ("pass" if n == m else "fail")
