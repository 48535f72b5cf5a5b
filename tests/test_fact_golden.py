"""Golden facts: the extractor's output on fixed inputs, recorded before the speed work
on the word kinds, so that speed work never changes what is extracted.

Every fact field is compared (kind, value, span, written text, explicit, amount,
currency, period, unit, date parts, number span, multiplier, role, approximator, other
reading), for every date order and with ``words=False``, on four input families, each in
its own file under ``tests/golden/``:

- ``facts_tables.jsonl``: the labelled pairs and the extraction and comparison case
  tables, each text also lower-cased, upper-cased and with its sentences run together;
- ``facts_synthetic.jsonl``: seeded synthetic complaint texts (``benchmarks/synthetic.py``;
  the first ones in every date order and with ``words=False``, the rest in ``auto``);
- ``facts_fragments.jsonl``: seeded texts built from fragments of every fact family and
  of the contexts that bind or block them (plus random characters and integers, to reach
  the scanners' edge cases), the shortcut cases of the speed work, and random unicode;
- ``date_reading.jsonl``: the date order that ``auto`` reads from seeded mixes of the
  cues of an Indian or US context.

The inputs are stored with the facts, so the test does not depend on the generators; they
are drawn again only by ``--update-golden``. After an intended change of what is
extracted: ``pytest tests/test_fact_golden.py --update-golden``, then review the diff of
``tests/golden/facts_*.jsonl`` and name the change below with the test that pins it.

These goldens replaced a frozen copy of the extractor as it was before the speed work of
issue #14 (``tests/fact_oracle/``), which the extractor had to match but for these
deliberate changes (all in the goldens, each pinned by a test):

- names at a sentence start (``test_fact_limits.py::test_sentence_initial_name_dropped_fails``):
  a capitalised word at a sentence start (or after ``Mr.``) that no list of common words
  knows is a name;
- the head of "ROLE of the ROLE" (``test_fact_limits.py::test_role_of_the_role_binds_the_head``,
  ``test_partitive_amounts_traded_fail``): ``the balance of the loan is $5,000`` binds the
  balance; ``₹4.5 lakh of the ₹6 lakh claim`` binds ``part of claim``;
- no approximator on a sum (``test_fact_limits.py::test_approximator_on_a_sum_is_not_bound``):
  "lower than 9 lakhs divided by 12" binds nothing to 9 lakhs;
- ages (``test_fact_ages.py``): ``I am 24.``, ``aged 24``, ``meri age 24 hai``,
  ``a 24-year-old`` are the quantity ``24 year``;
- apostrophe-free contractions are no names
  (``test_fact_limits.py::test_sentence_initial_common_word_is_no_name``): "Dont", "Whod";
- a hedge idiom ends at a word's end
  (``test_fact_limits.py::test_style_edits_around_a_negation_pass``): "not certain" is no
  part of "not certainly";
- digits after "ending in" are no count
  (``test_fact_limits.py::test_the_digits_after_ending_in_are_no_count``): "card ending
  in 4321 account" holds an identifier, no count of 4321 accounts.
"""

from __future__ import annotations

import json
import random
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml

from guisekit.facts import Fact, extract_facts
from guisekit.facts.context import date_reading
from guisekit.facts.model import canonical_decimal

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
ORDERS = ("auto", "mdy", "dmy")
SYNTHETIC_ALL_ORDERS = 80
SYNTHETIC_AUTO = 220
FRAGMENT_TEXTS = 1500
RANDOM_TEXTS = 400
READING_TEXTS = 800


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
    variants = []
    for text in texts:
        variants += [text, text.lower(), text.upper(), text.replace(". ", " ")]
    return list(dict.fromkeys(variants))


def _synthetic_texts(count: int, seed: int) -> list[str]:
    sys.path.insert(0, str(HERE.parent / "benchmarks"))
    from synthetic import complaint_texts

    return complaint_texts(count, seed=seed)


def _fragment_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(0, 14)):
        pick = rng.random()
        if pick < 0.75:
            fragment = rng.choice(FRAGMENTS)
            parts.append(rng.choice([fragment, fragment.lower(), fragment.capitalize()]))
        elif pick < 0.9:
            alphabet = "0123456789 ,./-$₹XxLlCcrkKmM%:aepy"
            parts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))))
        else:
            parts.append(str(rng.randint(0, 10**8)))
    return "".join(p + rng.choice(SEPARATORS) for p in parts)


def _random_text(rng: random.Random) -> str:
    pools = [" .,-$₹%/:'’\n", "aeiouxnstrlAEXTNLP", "0123456789", "éı٣１２ſ\u2003\x1c"]
    weights = [3, 6, 3, 1]
    return "".join(rng.choice(rng.choices(pools, weights)[0]) for _ in range(rng.randint(0, 60)))


def _fragment_texts() -> list[str]:
    rng = random.Random(14)
    texts = ["I was charged $1,234.56 on 3/4/2024 in Mumbai, not twice.", ""]
    texts += [_fragment_text(rng) for _ in range(FRAGMENT_TEXTS)]
    for case in SHORTCUT_CASES:
        texts += [case, f"I was told that {case} and more."]
    texts += [_random_text(rng) for _ in range(RANDOM_TEXTS)]
    return list(dict.fromkeys(texts))


def _reading_texts() -> list[str]:
    rng = random.Random(41)
    texts = []
    for _ in range(READING_TEXTS):
        parts = [
            rng.choice(CUES) if rng.random() < 0.7 else _random_text(rng)[:3]
            for _ in range(rng.randint(0, 8))
        ]
        seps = ["", " ", ".", "-", "\n", "_"]
        texts.append("".join(p + rng.choice(seps) for p in parts))
    return list(dict.fromkeys(texts))


def _cell(value: object) -> object:
    return canonical_decimal(value) if isinstance(value, Decimal) else value


def _encode(fact: Fact) -> list[object]:
    """A fact as a JSON list of its fields, trailing empty fields left out; amounts and
    multipliers as canonical decimals (equal decimals, equal strings)."""
    row = [_cell(v) for v in fact]
    while row and row[-1] is None:
        row.pop()
    return row


def _facts(text: str, order: str = "auto", *, words: bool = True) -> list[list[object]]:
    encoded = [_encode(f) for f in extract_facts(text, order, words=words)]  # type: ignore[arg-type]
    return json.loads(json.dumps(encoded, ensure_ascii=False))  # type: ignore[no-any-return]


def _row(text: str, all_orders: bool) -> dict[str, Any]:
    """The text and its facts: ``auto`` in full; ``mdy`` and ``dmy`` only where they
    differ from it; ``plain`` (``words=False``) as indices of ``auto`` where it has the
    same fact, the fact in full where not."""
    auto = _facts(text)
    row: dict[str, Any] = {"text": text, "auto": auto}
    if all_orders:
        for order in ORDERS[1:]:
            facts = _facts(text, order)
            if facts != auto:
                row[order] = facts
        row["plain"] = [auto.index(f) if f in auto else f for f in _facts(text, words=False)]
    return row


def _check(name: str, rows: list[dict[str, Any]], update: bool) -> None:
    path = GOLDEN / name
    if update:
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows),
            encoding="utf-8",
        )


def _golden(name: str) -> list[dict[str, Any]]:
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _compare(name: str, minimum: int) -> None:
    rows = _golden(name)
    assert len(rows) >= minimum, name
    for want in rows:
        got = _row(want["text"], "plain" in want)
        assert got == want, (
            f"facts of {want['text']!r} changed; if intended, run "
            "pytest tests/test_fact_golden.py --update-golden and review the diff"
        )


def test_tables_extract_as_recorded(update_golden: bool) -> None:
    if update_golden:
        _check("facts_tables.jsonl", [_row(t, True) for t in _texts_from_tables()], True)
    _compare("facts_tables.jsonl", 2000)


def test_synthetic_texts_extract_as_recorded(update_golden: bool) -> None:
    if update_golden:
        texts = _synthetic_texts(SYNTHETIC_ALL_ORDERS + SYNTHETIC_AUTO, seed=7)
        rows = [_row(t, i < SYNTHETIC_ALL_ORDERS) for i, t in enumerate(texts)]
        _check("facts_synthetic.jsonl", rows, True)
    _compare("facts_synthetic.jsonl", SYNTHETIC_ALL_ORDERS + SYNTHETIC_AUTO)


def test_fragment_texts_extract_as_recorded(update_golden: bool) -> None:
    if update_golden:
        _check("facts_fragments.jsonl", [_row(t, True) for t in _fragment_texts()], True)
    _compare("facts_fragments.jsonl", FRAGMENT_TEXTS)


def test_date_reading_as_recorded(update_golden: bool) -> None:
    if update_golden:
        rows = [{"text": t, "auto": date_reading(t, "auto")} for t in _reading_texts()]
        _check("date_reading.jsonl", rows, True)
    rows = _golden("date_reading.jsonl")
    assert len(rows) >= READING_TEXTS * 0.8
    assert {r["auto"] for r in rows} >= {"mdy", "dmy"}
    for row in rows:
        assert date_reading(row["text"], "auto") == row["auto"], row["text"]


@pytest.mark.parametrize("text", ["$1,234.56 on 3/4/2024", "I am 24. Rahul paid ₹1.2 Cr"])
def test_the_encoding_keeps_every_field(text: str) -> None:
    """A changed field of any fact changes the recorded row (the test can fail)."""
    facts = extract_facts(text)
    assert facts
    for i, fact in enumerate(facts):
        for field in ("start", "value", "role"):
            moved = fact._replace(**{field: fact.start + 1 if field == "start" else "x"})
            assert _encode(moved) != _encode(fact), (i, field)
