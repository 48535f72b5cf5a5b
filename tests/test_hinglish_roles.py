"""Digits, currencies and number roles survive the Hinglish transform.

A hypothesis property over generated sentences with from/to changes, counts and ranks:
every amount survives (the exact fact check passes), every number keeps its role (from
stays from, to stays to, a count stays a count), and a converted change reads "A se ...
B" in the original order. The role check itself must bite: a rewrite that swaps the
roles, or turns a count into something else, fails validation.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.facts import check_facts
from guisekit.hinglish import hinglish_rewrite, validate_hinglish
from guisekit.hinglish.roles import number_roles, role_problems
from guisekit.specs import HinglishSpec

CURRENCY = st.sampled_from(["Rs ", "$", "₹ ", "INR "])
AMOUNT = st.integers(min_value=100, max_value=9_999_999).map(lambda n: f"{n:,}")
SUBJECT = st.sampled_from(["My salary", "My rent", "The price", "My EMI", "The fee", "Our budget"])
UP = st.sampled_from(["went up", "increased", "was raised", "rose", "jumped", "has gone up"])
DOWN = st.sampled_from(["went down", "dropped", "was reduced", "fell", "was cut"])
ORDINAL = st.integers(min_value=1, max_value=99).map(
    lambda n: f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
)


@st.composite
def change(draw: st.DrawFn) -> tuple[str, str, str]:
    cur = draw(CURRENCY)
    a, b = draw(AMOUNT), draw(AMOUNT)
    verb = draw(st.one_of(UP, DOWN))
    return f"{draw(SUBJECT)} {verb} from {cur}{a} to {cur}{b}.", a, b


@st.composite
def rank(draw: st.DrawFn) -> tuple[str, str, str]:
    a, b = draw(ORDINAL), draw(ORDINAL)
    who = draw(st.sampled_from(["We", "Our team", "The company", "They"]))
    return f"{who} moved from {a} to {b} place.", a, b


@st.composite
def count(draw: st.DrawFn) -> tuple[str, str, str]:
    n = str(draw(st.integers(min_value=2, max_value=40)))
    whom = draw(st.sampled_from(["the bank", "them", "the lender", "customer service"]))
    return f"I called {whom} {n} times.", n, ""


def _check(text: str, mix: float, seed: int) -> str:
    result = hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed))
    assert check_facts(text, result.text).passed, result.text
    assert role_problems(text, result.text) == [], result.text
    return result.text if result.sentences[0].status == "converted" else ""


@settings(max_examples=60, deadline=None)
@given(
    case=st.one_of(change(), rank()), mix=st.sampled_from([0.0, 0.5, 1.0]), seed=st.integers(0, 9)
)
def test_from_and_to_keep_their_amounts_and_direction(
    case: tuple[str, str, str], mix: float, seed: int
) -> None:
    text, a, b = case
    out = _check(text, mix, seed)
    assert out, f"not converted: {text}"
    assert f"{a} se " in out
    assert out.index(a) < out.rindex(b)


@settings(max_examples=40, deadline=None)
@given(case=count(), mix=st.sampled_from([0.0, 1.0]), seed=st.integers(0, 9))
def test_counts_become_baar_and_keep_their_number(
    case: tuple[str, str, str], mix: float, seed: int
) -> None:
    text, n, _ = case
    out = _check(text, mix, seed)
    assert f" {n} baar " in out
    assert "waqt" not in out and "times" not in out


@pytest.mark.parametrize(
    ("original", "rewrite", "problem"),
    [
        (
            "The price was raised from $1,212.40 to $1,587.90.",
            "Price $1,587.90 ko $1,212.40 se badh gaya.",
            "roles: '1,212.40' was from, now to; '1,587.90' was to, now from",
        ),
        (
            "I called them 6 times.",
            "Maine unhe 6 waqt call kiya.",
            "roles: '6' was count, now none",
        ),
        (
            "We moved from 14th to 3rd place.",
            "Hum 3rd place ko 14th se shift hue.",
            "roles: '14th' was from, now none; '3rd' was to, now none",
        ),
        # a range split over two slots (judged round 12: meaning)
        (
            "Most Indian clients pay me 1 to 1.5 rupees per word.",
            "Zyada tar Indian clients 1.5 rupees per word ko mujhe 1 pay karte hain.",
            "roles: '1' was from, now none; '1.5' was to, now none",
        ),
        (
            "They pay me between 1 and 2 rupees per word.",
            "Woh 2 rupees per word aur 1 mujhe pay karte hain.",
            "roles: '1' was from, now none; '2' was to, now none",
        ),
    ],
)
def test_a_changed_number_role_fails_validation(original: str, rewrite: str, problem: str) -> None:
    validation = validate_hinglish(original, rewrite)
    assert not validation.roles_ok and not validation.passed
    assert problem in validation.failures


def test_roles_are_read_on_both_sides() -> None:
    assert number_roles("It went up from Rs 40,000 to Rs 55,000.", "en") == [
        ("40,000", "from"),
        ("55,000", "to"),
    ]
    assert number_roles("Yeh Rs 40,000 se badhkar Rs 55,000 ho gaya.", "hi") == [
        ("40,000", "from"),
        ("55,000", "to"),
    ]
    assert number_roles("Maine 3 baar call kiya.", "hi") == [("3", "count")]
    # a range is from and to on both sides; two amounts merely near "to" are not
    assert number_roles("I earn Rs 10 lakhs to Rs 12 lakhs.", "en") == [
        ("10", "from"),
        ("12", "to"),
    ]
    assert number_roles("Woh mujhe 1 se 1.5 rupees per word pay karte hain.", "hi") == [
        ("1", "from"),
        ("1.5", "to"),
    ]
    assert number_roles("Woh 1 aur 2 rupees ke beech pay karte hain.", "hi") == [
        ("1", "from"),
        ("2", "to"),
    ]
    assert number_roles("I sent 3 emails to 2 people.", "en") == []


def test_a_clause_kept_in_english_keeps_its_roles() -> None:
    original = "The balance went from $300 to over $1,100, and I have not received one."
    switched = "The balance went from $300 to over $1,100, aur mujhe abhi tak nahi mila."
    assert role_problems(original, switched) == []
    swapped = "The balance went from $1,100 to over $300, aur mujhe abhi tak nahi mila."
    assert role_problems(original, swapped) != []


MONTH = st.sampled_from(["June", "March", "December", "August", "April"])


@st.composite
def deadline(draw: st.DrawFn) -> tuple[str, str, str]:
    """A deadline's "by": "by 28 June" is "28 June tak" (round 6: it was a date with no
    postposition, "on 28 June")."""
    day = str(draw(st.integers(min_value=1, max_value=28)))
    when = draw(st.sampled_from([f"{day} {draw(MONTH)}", "Friday", "Monday", "2025"]))
    clause = draw(
        st.sampled_from(["I have to reply to them", "I need the refund", "I have to join"])
    )
    return f"{clause} by {when}.", when, ""


@settings(max_examples=40, deadline=None)
@given(case=deadline(), mix=st.sampled_from([0.0, 0.5, 1.0]), seed=st.integers(0, 9))
def test_a_deadline_by_is_tak_and_keeps_its_date(
    case: tuple[str, str, str], mix: float, seed: int
) -> None:
    text, when, _ = case
    out = _check(text, mix, seed)
    assert out, f"not converted: {text}"
    assert f"{when} tak" in out
    assert f"{when} ko" not in out and f"{when} se" not in out


@settings(max_examples=30, deadline=None)
@given(
    whole=st.integers(min_value=1, max_value=9),
    tenth=st.integers(min_value=1, max_value=9),
    mix=st.sampled_from([0.0, 1.0]),
    seed=st.integers(0, 9),
)
def test_a_multiple_is_never_a_count_of_occasions(
    whole: int, tenth: int, mix: float, seed: int
) -> None:
    """ "went up 3.2 times compared to ..." is a multiple: never "3.2 baar" (round 9)."""
    text = f"Online sales went up {whole}.{tenth} times compared to last year."
    result = hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed))
    assert check_facts(text, result.text).passed, result.text
    assert "baar" not in result.text
