"""Percentages and quantities: ``15%``, ``2 pp``, ``fifteen per cent``, ``3 late fees``,
``30 days``, ``six times``, ``twice``, and amounts of lakh/crore in words.

A quantity is a number and the count or duration noun it counts (``lexicons/facts/
units.tsv``), with at most one word between (``3 late fees``, ``two separate calls``); its
value is ``NUMBER UNIT`` with the unit in the singular (``quantity:3 fee``), so ``three
late fees`` and ``3 late fees`` agree. Numbers in words are parsed by
:func:`fact_oracle.numbers.parse_words`, the parser the rules engine's fact edits
also use (so what one writes the other reads).
"""

from __future__ import annotations

import re
from decimal import Decimal

from fact_oracle.build import (
    GROUPING,
    MONEY_P,
    PERCENT_P,
    QUANTITY_P,
    Candidate,
    money_fact,
    percent_fact,
    plain,
    quantity_fact,
)
from fact_oracle.model import canonical_decimal
from fact_oracle.numbers import NUMBER_WORDS, SCALE_WORDS, parse_words
from fact_oracle.scan import _P_N, _P_OK, _P_PP
from guisekit.resources import read_table

__all__ = ["percent_match", "quantities"]

UNITS: dict[str, str] = {row[0]: row[1] for row in read_table("facts/units.tsv", ("word", "unit"))}
_UNIT_ALT = "|".join(sorted(map(re.escape, UNITS), key=len, reverse=True))
# At most one word between: an adjective ("3 late fees") or an amount ("three $36 fees"),
# not a function word ("12 of the payments" is not "12 payments").
_BETWEEN = (
    r"(?:[$₹][\d,.]*\d\s+)?"
    r"(?:(?!(?:of|the|a|an|and|or|to|in|on|at|for|with|by|from|more|than)\s)[a-z][a-z'-]*\s+)??"
)
# A number in digits and the unit it counts. The digits must stand alone (not inside a
# money amount, a date, a decimal or an identifier).
_DIGIT_QUANTITY = re.compile(
    rf"\d(?<![\w.,/:$₹#-]\d)(?:\d*)(?:\.\d+)?(?![\d.,/:]\d|\d|%)\s+{_BETWEEN}(?P<unit>{_UNIT_ALT})\b"
)
_NUMBER_WORD = (
    r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|lakhs?|lacs?|crores?)"
)
_WORD_RUN = rf"{_NUMBER_WORD}(?:(?:\s+and\s+|[\s-]+){_NUMBER_WORD})*"
# Number words and what follows them: a percent unit, an Indian scale with no currency
# word after it (with one, money.py reads it), or a unit; and twice/thrice/once.
_WORD_QUANTITY = re.compile(
    rf"(?P<w>{_WORD_RUN})(?:\s+(?P<pct>percent|per\s+cent|percentage\s+points?)\b"
    rf"|\s+{_BETWEEN}(?P<unit>{_UNIT_ALT})\b"
    r"|(?:(?<=lakh)|(?<=lakhs)|(?<=lac)|(?<=lacs)|(?<=crore)|(?<=crores))(?P<inr>)"
    r"(?!\s+(?:rupees|dollars|bucks)\b)(?![a-z]))"
    r"|(?P<times>once|twice|thrice)\b"
)
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
# The words a match can start with (the number words of numbers.py; plurals are found
# from their singular).
_FIRST_WORDS = sorted(NUMBER_WORDS - {"a", "and"}) + list(_TIMES)
_INDIAN_WORDS = frozenset(("lakh", "lakhs", "lac", "lacs", "crore", "crores"))


def percent_match(
    text: str, candidates: list[Candidate], start: int, match: re.Match[str], exact: int
) -> None:
    """The percent fact of a digit-scan match (``15%``, ``2.5 percent``, ``2 pp``)."""
    digits = text[start : match.end(_P_N)]
    if "," in digits:
        if GROUPING.fullmatch(digits.partition(".")[0]) is None:
            return
        digits = digits.replace(",", "")
    number = Decimal(digits)
    value = (
        plain(digits) if len(digits) <= exact and digits.isascii() else canonical_decimal(number)
    )
    end = match.end(_P_OK)
    if match.start(_P_PP) >= 0:
        unit, value = "pp", value + " pp"
    else:
        unit, value = "percent", value + "%"
    candidates.append(
        (
            start,
            end,
            PERCENT_P,
            len(candidates),
            percent_fact(
                value=value, start=start, end=end, text=text[start:end], amount=number, unit=unit
            ),
        )
    )


def quantities(text: str, low: str, candidates: list[Candidate], has_digits: bool) -> None:
    """Quantities in digits and in words, percentages in words, lakh/crore in words."""
    if has_digits:
        for match in _DIGIT_QUANTITY.finditer(low):
            start, end = match.span()
            written = text[start:end]
            digits = written.split(None, 1)[0]
            if _not_a_count(written, Decimal(digits), match.group("unit")):
                continue
            _quantity(text, candidates, start, end, Decimal(digits), match.group("unit"))
    for match in _word_matches(low):
        start, end = match.span()
        times = match.group("times")
        if times is not None:
            _quantity(text, candidates, start, end, Decimal(_TIMES[times]), "times")
            continue
        words = match.group("w")
        value = parse_words(words)
        if value is None:
            continue
        if match.group("pct") is not None:
            pp = "point" in match.group("pct")
            shown = f"{value} pp" if pp else f"{value}%"
            candidates.append(
                (
                    start,
                    end,
                    PERCENT_P,
                    len(candidates),
                    percent_fact(
                        value=shown,
                        start=start,
                        end=end,
                        text=text[start:end],
                        amount=Decimal(value),
                        unit="pp" if pp else "percent",
                    ),
                )
            )
        elif match.group("inr") is not None:
            if words.split()[-1] not in _INDIAN_WORDS:
                continue
            amount = Decimal(value)
            candidates.append(
                (
                    start,
                    end,
                    MONEY_P,
                    len(candidates),
                    money_fact(
                        value=f"{value} INR",
                        start=start,
                        end=end,
                        text=text[start:end],
                        explicit=False,
                        amount=amount,
                        currency="INR",
                        period=None,
                        number_start=start,
                        number_end=end,
                        multiplier=Decimal(SCALE_WORDS[words.split()[-1]]),
                    ),
                )
            )
        elif not _not_a_count(match.group(), Decimal(value), match.group("unit")):
            _quantity(text, candidates, start, end, Decimal(value), match.group("unit"))


def _word_matches(low: str) -> list[re.Match[str]]:
    """What scanning ``low`` with _WORD_QUANTITY finds at word starts, found faster: each
    number word is looked up with str.find (a regex led by an alternation of words is
    tried at nearly every character), and the pattern is matched there."""
    starts = []
    for word in _FIRST_WORDS:
        position = low.find(word)
        while position >= 0:
            if not position or not low[position - 1].isalpha():
                starts.append(position)
            position = low.find(word, position + 1)
    if not starts:
        return []
    starts.sort()
    found = []
    last_end = -1
    for position in starts:
        if position < last_end:
            continue
        match = _WORD_QUANTITY.match(low, position)
        if match is not None:
            found.append(match)
            last_end = match.end()
    return found


def _not_a_count(written: str, amount: Decimal, word: str) -> bool:
    """``12 completed payment``: a number above one, a word between, and a singular noun
    is not a count of that noun (with nothing between, ``a 30 day notice`` still is)."""
    return amount != 1 and UNITS.get(word) == word and len(written.split()) > 2


def _quantity(
    text: str, candidates: list[Candidate], start: int, end: int, amount: Decimal, word: str
) -> None:
    unit = UNITS.get(word, "time" if word == "times" else word)
    marker = min(
        (i for i in (text.find("$", start, end), text.find("₹", start, end)) if i >= 0), default=-1
    )
    if marker >= 0:
        end = text.rindex(" ", start, marker)  # "three $36 fees": the amount is money's span
    candidates.append(
        (
            start,
            end,
            QUANTITY_P,
            len(candidates),
            quantity_fact(
                value=f"{canonical_decimal(amount)} {unit}",
                start=start,
                end=end,
                text=text[start:end],
                amount=amount,
                unit=unit,
            ),
        )
    )
