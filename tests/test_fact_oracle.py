"""Differential test of the fast fact extractor against a frozen copy of the extractor
as it was before the speed work of issue #14 (``tests/fact_oracle/``).

Speed work must never change what is extracted: every fact (kind, value, span, written
text, amount, currency, period, unit, date parts, number span, multiplier, role,
approximator, other reading) must be the same, for every date order and with
``words=False``. Inputs: the labelled pairs, the extraction and comparison case tables,
thousands of seeded synthetic complaint texts, and hypothesis texts built from fragments
of every fact family (plus random characters, to reach the scanners' edge cases).

A deliberate change of behaviour (a fixed known limit) must be listed here with the test
that pins it, and the inputs it touches compared on the other facts only; a data file
that moves is read from its new place by the copy too (the Hinglish approximators after a
number, ``$500 se zyada``, are lexicon rows, which the copy reads as well). Deliberate:

- **names at a sentence start** (``tests/test_fact_limits.py::
  test_sentence_initial_name_dropped_fails``): a capitalised word at a sentence start
  (or after ``Mr.``) that no list of common words knows is a name; the copy skipped every
  sentence-initial word. Extra entities must start at a sentence start, and an entity of
  the copy may only be lost inside a longer one that does (``Rahul Sharma`` for ``Sharma``).
- **the head of "ROLE of the ROLE"** (``tests/test_fact_limits.py::
  test_role_of_the_role_binds_the_head``): ``the balance of the loan is $5,000`` binds
  the balance, the copy the loan; and ``₹4.5 lakh of the ₹6 lakh claim`` binds the first
  amount to ``part of claim`` (``test_partitive_amounts_traded_fail``), the copy to
  nothing. Only a money fact's role (and a period adjective read with it) may differ, and
  only with an "of" near the amount.
- **no approximator on a sum** (``tests/test_fact_limits.py::
  test_approximator_on_a_sum_is_not_bound``): "lower than 9 lakhs divided by 12" binds
  nothing to 9 lakhs. An approximator of the copy may only be lost on an amount followed
  by a word of ``approximator_breakers.txt``.
- **ages** (``tests/test_fact_ages.py::test_bare_age_is_the_quantity_n_year`` and the
  tests after it): ``I am 24.``, ``aged 24``, ``meri age 24 hai``, ``a 24-year-old`` are
  the quantity ``24 year`` (:mod:`guisekit.facts.ages`); the copy read no fact there.
  Extra facts may be quantities in years that the age reader finds, and nothing else; an
  entity of the copy may be lost only inside one (``YEAR-OLD`` of ``26-YEAR-OLD``).
- **apostrophe-free contractions are no names** (``tests/test_fact_limits.py::
  test_sentence_initial_common_word_is_no_name``): "Dont", "Whod", "Theyll" (the rules
  engine's careless writers drop apostrophes) are known words; the copy read a capitalised
  one as a name. An entity of the copy that holds such a word may be lost, or shrink to
  its other words.
- **a hedge idiom ends at a word's end** (``tests/test_fact_limits.py::
  test_style_edits_around_a_negation_pass``): "not certain" is no part of "not
  certainly", which the copy read as the idiom (so "wasn't certainly" lost its negation
  when a standardiser wrote it out). A negation may be added where an idiom of the copy ran
  on into letters.
- **digits after "ending in" are no count** (``tests/test_fact_limits.py::
  test_the_digits_after_ending_in_are_no_count``): "card ending in 4321 account" holds
  an identifier, where the copy also read a count of 4321 accounts. Such a count may be
  lost, and the identifier at its place added.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guisekit.facts import Fact, extract_facts

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "benchmarks"))

from fact_oracle import extract_facts as oracle_facts  # noqa: E402
from fact_oracle.context import _sentence_start  # noqa: E402
from synthetic import complaint_texts  # noqa: E402

from guisekit.facts.ages import ages  # noqa: E402
from guisekit.facts.context import _BREAKER, _IDIOMS  # noqa: E402
from guisekit.facts.quantities import _AFTER_ENDING_IN  # noqa: E402
from guisekit.rules.lexicon import default_lexicon  # noqa: E402

ORDERS = ("auto", "mdy", "dmy")
_BARE_CONTRACTIONS = frozenset(default_lexicon().apostrophe_free.mapping)


def _texts_from_tables() -> list[str]:
    texts: list[str] = []
    for line in (HERE / "data/fact_pairs_labelled.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            pair = json.loads(line)
            texts += [pair["original"], pair["rewrite"]]
    for case in yaml.safe_load((HERE / "data/fact_extraction_cases.yaml").read_text("utf-8")):
        texts.append(case["text"])
    for case in yaml.safe_load((HERE / "data/fact_comparison_cases.yaml").read_text("utf-8")):
        texts += [case["original"], case["rewrite"]]
    return texts


def _same(text: str) -> None:
    for order in ORDERS:
        _agree(extract_facts(text, order), oracle_facts(text, order), (order, text))
    assert extract_facts(text, words=False) == oracle_facts(text, words=False), text


def _agree(new: list[Fact], old: list[Fact], where: tuple[str, str]) -> None:
    """``new == old`` but for the deliberate changes of the module docstring."""
    if new == old:
        return
    text = where[1]
    added = [f for f in new if f not in old]
    lost = [f for f in old if f not in new]
    for fact in [f for f in added if f.approx is None]:
        twin = [g for g in lost if g._replace(approx=None) == fact]
        if twin and _BREAKER.match(text.lower(), fact.end + 1):
            added.remove(fact)
            lost.remove(twin[0])
    for fact in [f for f in added if f.kind == "money"]:
        twin = [g for g in lost if g.kind == "money" and (g.start, g.end) == (fact.start, fact.end)]
        assert len(twin) == 1, (where, fact)
        assert fact._replace(role=None, period=None, value="") == twin[0]._replace(
            role=None, period=None, value=""
        ), where
        assert " of " in text[max(0, fact.start - 48) : fact.end + 10].lower(), where
        added.remove(fact)
        lost.remove(twin[0])
    found: list = []  # type: ignore[type-arg]
    ages(text, text.lower(), found)
    age_spans = {(c[0], c[1]) for c in found}
    aged = [f for f in added if f.kind == "quantity" and f.unit == "year"]
    aged = [f for f in aged if (f.start, f.end) in age_spans]
    added = [f for f in added if f not in aged]
    # "ending in 4321 account": an identifier, no count
    ending = [
        f
        for f in lost
        if f.kind == "quantity"
        and _AFTER_ENDING_IN.search(text.lower(), max(0, f.start - 16), f.start)
    ]
    lost = [f for f in lost if f not in ending]
    starts = {f.start for f in ending}
    added = [f for f in added if not (f.kind == "identifier" and f.start in starts)]
    # a hedge idiom must end at a word's end: "no problemUS" holds no idiom
    added = [f for f in added if not (f.kind == "negation" and _idiom_runs_on(text, f))]
    # a name of the copy that held a careless writer's contraction ("Dont", "Never Dont")
    # is lost, or shrinks to its other words
    bare = [f for f in lost if f.kind == "entity" and _BARE_CONTRACTIONS & set(f.value.split())]
    lost = [f for f in lost if f not in bare]
    added = [f for f in added if not any(b.start <= f.start and f.end <= b.end for b in bare)]
    assert all(f.kind == "entity" and _sentence_start(text, f.start) for f in added), (where, added)
    for fact in lost:
        assert fact.kind == "entity", (where, fact)
        # a longer name, or an age that holds it ("YEAR-OLD" of "26-YEAR-OLD")
        assert any(a.start < fact.start and a.end >= fact.end for a in added) or any(
            a.start <= fact.start and a.end >= fact.end for a in aged
        ), (where, fact)


def _idiom_runs_on(text: str, fact: Fact) -> bool:
    """Whether a hedge idiom starts at the negation ``fact`` and runs on into letters."""
    low = text.lower()
    return any(
        low.startswith(idiom, fact.start)
        and fact.start + len(idiom) < len(low)
        and low[fact.start + len(idiom)].isalpha()
        for idiom in _IDIOMS
    )


def test_the_tables_extract_as_before() -> None:
    texts = _texts_from_tables()
    assert len(texts) > 600
    for text in texts:
        _same(text)
        # the same text lower-cased, upper-cased and with its sentences run together
        _same(text.lower())
        _same(text.upper())
        _same(text.replace(". ", " "))


@pytest.mark.slow
def test_thousands_of_synthetic_texts_extract_as_before() -> None:
    texts = complaint_texts(3000, seed=7)
    for text in texts:
        _agree(extract_facts(text), oracle_facts(text), ("auto", text))
    for text in texts[:300]:
        _same(text)


def test_synthetic_texts_extract_as_before() -> None:
    for text in complaint_texts(300, seed=11):
        _agree(extract_facts(text), oracle_facts(text), ("auto", text))


# Fragments of every fact family and of the contexts that bind or block them.
FRAGMENTS = [
    "$1,234.56",
    "$35",
    "$1.2k",
    "US$ 40",
    "USD 500",
    "500 US dollars",
    "INR 2,000",
    "Rs. 15,000",
    "Rs 8 to 10 lakh",
    "₹12,00,000",
    "₹1.2 Cr",
    "1.2 Cr.",
    "1.4 crore",
    "14 lakh",
    "15L",
    "12-15 LPA",
    "28 LPA",
    "12 lakhs per annum",
    "₹75,000 a month",
    "$500-700",
    "$500 - 3 days",
    "twelve hundred dollars",
    "two lakh rupees",
    "five dollars and fifty cents",
    "50 cents",
    "fifteen per cent",
    "15%",
    "2.5 percent",
    "2 pp",
    "3 percentage points",
    "March 14, 2023",
    "14 March 2023",
    "4th of July",
    "3/4/2024",
    "03/14/2023",
    "14.03.2023",
    "2023-03-14",
    "12/2019",
    "XX/XX/2019",
    "XX/XX/XXXX",
    "XXXX",
    "XXXX1234",
    "****1234",
    "in 2021",
    "since 1999-2000",
    "flight 2021",
    "No. 2020",
    "yesterday",
    "last week",
    "3 days ago",
    "a few weeks ago",
    "the day before yesterday",
    "3 late fees",
    "30 days",
    "six times",
    "twice",
    "14 months",
    "nearly 30 days",
    "about $50",
    "over 5 years",
    "at least 3 calls",
    "12 of the payments",
    "a 30 day notice",
    "fee of $35",
    "a $35 late fee",
    "refund of $50",
    "$68 in fees",
    "monthly rent of ₹20,000",
    "salary: 12 LPA",
    "CTC",
    "every month",
    "not",
    "never",
    "didn't",
    "dont",
    "no problem",
    "nothing",
    "cannot",
    "won’t",
    "Mr. Sharma",
    "HDFC Bank",
    "Bank of America",
    "State Bank of India",
    "Mumbai",
    "New Delhi",
    "I",
    "The",
    "Dear Sir",
    "Monday",
    "account 123456789",
    "SR4456123",
    "card ending in 4321",
    "(555) 201-4567",
    "ref #2020",
    "v2.0",
    "approximately",
    "around",
    "roughly",
    "or so",
    "and",
    "the",
    "of",
    "to",
    "was",
    "charged",
    "paid",
    "balance",
    "deposit",
    "per month",
    "/yr",
    "p.a.",
    "an hour",
    "I am 24",
    "I'm twenty",
    "she is 7",
    "aged 30",
    "at the age of 45",
    "meri age 22",
    "a 24-year-old",
    "am",
]
SEPARATORS = [" ", " ", " ", ", ", ". ", "\n", "-", "", " and ", ": ", "; ", "! "]


@st.composite
def fact_texts(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(
            st.one_of(
                st.sampled_from(FRAGMENTS),
                st.sampled_from(FRAGMENTS).map(str.lower),
                st.sampled_from(FRAGMENTS).map(str.capitalize),
                st.text(alphabet="0123456789 ,./-$₹XxLlCcrkKmM%:aepy", max_size=8),
                st.integers(0, 10**8).map(str),
            ),
            max_size=14,
        )
    )
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(parts), max_size=len(parts)))
    return "".join(p + s for p, s in zip(parts, seps, strict=True))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fact_texts())
@example("I was charged $1,234.56 on 3/4/2024 in Mumbai, not twice.")
@example("")
def test_generated_texts_extract_as_before(text: str) -> None:
    _same(text)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_extracts_as_before(text: str) -> None:
    _same(text)


CUES = [
    "₹5",
    "Rs 5",
    "Rs.5",
    "ARs 5",
    "INR",
    "XINR",
    "lakh",
    "Lakhs",
    "blakh",
    "lacs",
    "Lac",
    "crore",
    "Crores",
    "5 cr",
    "5Cr",
    "5 crx",
    "LPA",
    "LPAs",
    "CTC",
    "xCTC",
    "$",
    "USD",
    "dollar",
    "Dollars",
    "adollar",
    "Mumbai",
    "New Delhi",
    "Delhiite",
    "India",
    "Indiana",
    "Indore",
    "Goa",
    "Goan",
    "3/4/2024",
    "_Mumbai",
    "é",
    "٣ cr",
]


# Edge cases of the shortcuts of the speed work: the number-word gate of quantities (a
# number word after punctuation, digits or a non-ASCII letter, glued to a hyphen), the
# masked-number gate of identifiers, and role binding around them.
SHORTCUT_CASES = [
    "(twenty-five days) late",
    "5five days",
    "x-one time",
    "twelve-month fee of $50",
    "éfive days",
    "ONE lakh",
    "one lakhs rupees",
    "onex days, tens of fees",
    "He paid twice; then thrice.",
    "paid. the fee of $35",
    "paid, the fee of $35",
    "paid,the fee of $35",
    "the fee\nof $35",
    "the fee\tof $35",
    "the fee's amount of $35",
    "the café fee of $35",
    "a monthly payment was supposed to be $1,842.17",
    "an every month payment of $389",
    "$35 late fee",
    "$35 as a late fee",
    "$35 in the my a late fee",
    "$35 in the my a an late fee",
    "Rs 1,500 as a joining fee",
    "$68 in fees",
    "$50: refund",
    "fee: $35",
    "the charge, $35",
    "the charge,  $35",
    "of $35",
    "$35",
    " $35 fee",
    "card XXXX1234",
    "card XX-1234",
    "card ** 1234",
    "card X*\t123",
    "card XX\x1c123",
    "card XX\u2003123",
    "card XX/XX/1234",
    "card X1234 XX 12",
    "card XX１２３",
]


@pytest.mark.parametrize("text", SHORTCUT_CASES)
def test_the_shortcuts_extract_as_before(text: str) -> None:
    _same(text)
    _same(f"I was told that {text} and more.")


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(CUES), st.text(max_size=3)), max_size=8),
    st.lists(st.sampled_from(["", " ", ".", "-", "\n", "_"]), min_size=8, max_size=8),
)
def test_the_date_reading_is_as_before(parts: list[str], seps: list[str]) -> None:
    from fact_oracle.context import date_reading as oracle_reading

    from guisekit.facts.context import date_reading

    text = "".join(p + s for p, s in zip(parts, seps, strict=False))
    assert date_reading(text, "auto") == oracle_reading(text, "auto"), text
