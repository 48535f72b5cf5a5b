"""Hypothesis properties of the fact extractor and comparison."""

from __future__ import annotations

import calendar
import itertools
from decimal import Decimal

from hypothesis import example, given, settings
from hypothesis import strategies as st

from guisekit.facts import check_facts, extract_facts
from guisekit.facts.model import canonical_decimal
from guisekit.facts.numbers import format_number

WORDS = st.lists(
    st.sampled_from(
        [
            "I",
            "paid",
            "the",
            "bank",
            "on",
            "my",
            "card",
            "and",
            "they",
            "said",
            "refund",
            "was",
            "late",
            "fee",
        ]
    ),
    min_size=0,
    max_size=8,
).map(" ".join)
_ONES = [
    "",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words(n: int) -> str:
    """English words for 1..999,999, written independently of the parser under test."""
    if n >= 1000:
        rest = n % 1000
        return _words(n // 1000) + " thousand" + (" " + _words(rest) if rest else "")
    if n >= 100:
        rest = n % 100
        return _ONES[n // 100] + " hundred" + (" and " + _words(rest) if rest else "")
    if n >= 20:
        return _TENS[n // 10] + ("-" + _ONES[n % 10] if n % 10 else "")
    return _ONES[n]


@st.composite
def money_texts(draw: st.DrawFn) -> tuple[str, str]:
    cents = draw(st.integers(min_value=1, max_value=99_999_999))
    amount = Decimal(cents) / 100
    whole = amount.to_integral_value() == amount
    style = draw(
        st.sampled_from(
            [
                "dollar",
                "dollar_plain",
                "dollars_word",
                "usd",
                "us",
                "cfpb",
                "rs",
                "rupee_sign",
                "inr",
                "rupees_word",
                "words",
                "k",
                "lakh",
            ]
        )
    )
    western = format_number(amount, "western", 0 if whole else 2)
    indian = format_number(amount, "indian", 0 if whole else 2)
    plain = format_number(amount, "none", 0 if whole else 2)
    currency = "INR" if style in ("rs", "rupee_sign", "inr", "rupees_word", "lakh") else "USD"
    if style == "words":
        n = draw(st.integers(min_value=1, max_value=999_999))
        return f"{_words(n)} dollars", f"{n} USD"
    if style == "k":
        n = draw(st.integers(min_value=1, max_value=999))
        return f"${n}k", f"{n * 1000} USD"
    if style == "lakh":
        tenths = draw(st.integers(min_value=1, max_value=999))
        value = Decimal(tenths) / 10
        return f"Rs {canonical_decimal(value)} lakh", f"{canonical_decimal(value * 100000)} INR"
    surface = {
        "dollar": f"${western}",
        "dollar_plain": f"${plain}",
        "dollars_word": f"{western} dollars",
        "usd": f"USD {western}",
        "us": f"US${western}",
        "cfpb": f"{{${plain}}}",
        "rs": f"Rs. {indian}",
        "rupee_sign": f"₹ {indian}",
        "inr": f"INR {plain}",
        "rupees_word": f"{indian} rupees",
    }[style]
    return surface, f"{canonical_decimal(amount)} {currency}"


@st.composite
def date_texts(draw: st.DrawFn) -> tuple[str, str]:
    year = draw(st.integers(min_value=1941, max_value=2040))
    month = draw(st.integers(min_value=1, max_value=12))
    day = draw(st.integers(min_value=1, max_value=calendar.monthrange(year, month)[1]))
    name = calendar.month_name[month]
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(day % 10 if day not in (11, 12, 13) else 0, "th")
    surface = draw(
        st.sampled_from(
            [
                f"{month:02d}/{day:02d}/{year}",
                f"{month}/{day}/{year % 100:02d}",
                f"{year}-{month:02d}-{day:02d}",
                f"{name} {day}, {year}",
                f"{day} {name} {year}",
                f"{calendar.month_abbr[month]}. {day}, {year}",
                f"{name} {day}{suffix}, {year}",
            ]
        )
    )
    return surface, f"{year}-{month:02d}-{day:02d}"


@st.composite
def percent_texts(draw: st.DrawFn) -> tuple[str, str]:
    hundredths = draw(st.integers(min_value=0, max_value=100_000))
    value = canonical_decimal(Decimal(hundredths) / 100)
    unit = draw(st.sampled_from(["%", " %", " percent", " per cent"]))
    return f"{value}{unit}", f"{value}%"


@given(st.text(max_size=400))
@settings(max_examples=400)
@example("NO<")
@example("I did not pay.")
def test_extraction_never_crashes_and_spans_are_exact(text: str) -> None:
    facts = extract_facts(text)
    for fact in facts:
        if fact.kind == "negation":
            # shown with the word it negates ("not pay"; "NO<" found by a random draw)
            assert fact.text.startswith(text[fact.start : fact.end])
            assert text.find(fact.text, fact.start) == fact.start
        else:
            assert text[fact.start : fact.end] == fact.text
    ends = [(f.start, f.end) for f in facts]
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(ends))


@given(st.one_of(money_texts(), date_texts(), percent_texts()), WORDS, WORDS)
@settings(max_examples=600)
def test_formatted_value_round_trips(item: tuple[str, str], before: str, after: str) -> None:
    surface, expected = item
    text = f"{before} {surface} {after}".strip() + "."
    values = [f.value for f in extract_facts(text)]
    assert values == [expected], text


@given(
    st.text(max_size=300)
    | st.lists(st.one_of(money_texts(), date_texts(), percent_texts()), max_size=6).map(
        lambda xs: " and ".join(s for s, _ in xs)
    )
)
@settings(max_examples=300)
def test_text_compared_with_itself_passes(text: str) -> None:
    result = check_facts(text, text)
    assert result.verdict == "pass"
    assert result.discrepancies == ()
