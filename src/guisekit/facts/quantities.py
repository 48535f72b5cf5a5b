"""Percentages and quantities: ``15%``, ``2 pp``, ``fifteen per cent``, ``3 late fees``,
``30 days``, ``six times``, ``twice``, and amounts of lakh/crore in words.

A quantity is a number and the count or duration noun it counts (``lexicons/facts/
units.tsv``), with at most one word between (``3 late fees``, ``two separate calls``); its
value is ``NUMBER UNIT`` with the unit in the singular (``quantity:3 fee``), so ``three
late fees`` and ``3 late fees`` agree. Numbers in words are parsed by
:func:`guisekit.facts.numbers.parse_words`, the parser the rules engine's fact edits
also use (so what one writes the other reads).
"""

from __future__ import annotations

import re
from decimal import Decimal, getcontext

from guisekit.facts.build import (
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
from guisekit.facts.model import canonical_decimal
from guisekit.facts.numbers import NUMBER_WORDS, SCALE_WORDS, parse_words
from guisekit.facts.scan import _P_N, _P_OK, _P_PP, ascii_digits, trie
from guisekit.resources import read_table

__all__ = ["percent_match", "quantities"]

UNITS: dict[str, str] = {row[0]: row[1] for row in read_table("facts/units.tsv", ("word", "unit"))}


_UNIT_ALT = trie(UNITS)
# At most one word between: an adjective ("3 late fees") or an amount ("three $36 fees"),
# not a function word ("12 of the payments" is not "12 payments"), a pronoun, a verb or a
# contraction ("1 I account", "1 here's account": no count of accounts; found by the
# rules' protected-spans property test, where a contraction made one).
_BETWEEN = (
    r"(?:[$₹][\d,.]*\d\s+)?"
    r"(?:(?!(?:of|the|a|an|and|or|to|in|on|at|for|with|by|from|more|than|i|you|he|she|it|"
    r"we|they|is|are|was|were|be|been|here|there)\s)[a-z][a-z-]*\s+)??"
)
# A number in digits and the unit it counts. The digits must stand alone (not inside a
# money amount, a date, a decimal or an identifier).
_DIGIT_QUANTITY = re.compile(
    rf"\d(?<![\w.,/:$₹#-]\d)(?:\d*)(?:\.\d+)?(?![\d.,/:]\d|\d|%)\s+{_BETWEEN}(?P<unit>{_UNIT_ALT})\b"
)
# The same scan for ASCII text, with [0-9] for \d (in ASCII text \d is [0-9]): led by
# [0-9], the regex engine skips to the next ASCII digit in one C loop, where a leading \d
# is tried at every character (a fifth fewer instructions on the benchmark's texts).
_DIGIT_QUANTITY_ASCII = re.compile(ascii_digits(_DIGIT_QUANTITY.pattern))
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
_FIRST_WORD = re.compile(trie(_FIRST_WORDS))
# a character that is no ASCII letter before a first word (the scan's matches are that
# character alone, so they never hide one another; a non-ASCII letter is checked after)
_BEFORE_FIRST_WORD = re.compile(f"[^a-z](?={_FIRST_WORD.pattern})")
# "card ending in 4417 calls": the digits are the end of an account number (an identifier,
# see entities.py), never a count
_AFTER_ENDING_IN = re.compile(r"(?:ending|ends)\s+(?:in|with)\s+$")
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


def quantities(
    text: str, low: str, candidates: list[Candidate], has_digits: bool, runs: frozenset[bytes]
) -> None:
    """Quantities in digits and in words, percentages in words, lakh/crore in words
    (``runs``: the text's :func:`~guisekit.facts.scan.letter_runs`)."""
    if has_digits:
        exact = getcontext().prec
        scan = _DIGIT_QUANTITY_ASCII if low.isascii() else _DIGIT_QUANTITY
        for match in scan.finditer(low):
            start, end = match.span()
            written = text[start:end]
            digits = written.split(None, 1)[0]
            amount = Decimal(digits)
            unit = match.group("unit")
            if _not_a_count(written, amount, unit) or _AFTER_ENDING_IN.search(
                low, max(0, start - 16), start
            ):
                continue
            # canonical_decimal(amount), from the digits when that is exact
            shown = plain(digits) if len(digits) <= exact and digits.isascii() else None
            _quantity(text, candidates, start, end, amount, unit, shown)
    for match in _word_matches(low, runs):
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


def _word_matches(low: str, runs: frozenset[bytes]) -> list[re.Match[str]]:
    """What scanning ``low`` with _WORD_QUANTITY finds at word starts, found faster: the
    starts of number words are found with one scan led by the character before them
    (a regex led by an alternation of words is tried at nearly every character), and the
    pattern is matched there. Most texts have no number word at all, which is seen first
    from their words (see :func:`_no_number_word`)."""
    if _no_number_word(low, runs):
        return []
    starts = [0] if _FIRST_WORD.match(low) else []
    for before in _BEFORE_FIRST_WORD.finditer(low):
        position = before.end()
        if not low[position - 1].isalpha():
            starts.append(position)
    if not starts:
        return []
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


_FIRST_WORD_BYTES = frozenset(word.encode() for word in _FIRST_WORDS)


def _no_number_word(low: str, runs: frozenset[bytes]) -> bool:
    """Whether ``low`` (lower-cased ASCII) has no word (a run of letters a-z) that is one
    of the first words of a _WORD_QUANTITY match, in which case it has no match: every
    match starts after a character that is no letter a-z and its first word is followed
    by one (space, hyphen; a boundary after lakh, crore and the times words). Read from
    the text's letter ``runs`` instead of a regex tried at every non-letter; non-ASCII
    text is scanned."""
    return low.isascii() and _FIRST_WORD_BYTES.isdisjoint(runs)


def _not_a_count(written: str, amount: Decimal, word: str) -> bool:
    """``12 completed payment``: a number above one, a word between, and a singular noun
    is not a count of that noun (with nothing between, ``a 30 day notice`` still is)."""
    return amount != 1 and UNITS.get(word) == word and len(written.split()) > 2


def _quantity(
    text: str,
    candidates: list[Candidate],
    start: int,
    end: int,
    amount: Decimal,
    word: str,
    shown: str | None = None,
) -> None:
    unit = UNITS.get(word, "time" if word == "times" else word)
    dollar, rupee = text.find("$", start, end), text.find("₹", start, end)
    marker = rupee if dollar < 0 else dollar if rupee < 0 else min(dollar, rupee)
    if marker >= 0:
        end = text.rindex(" ", start, marker)  # "three $36 fees": the amount is money's span
    candidates.append(
        (
            start,
            end,
            QUANTITY_P,
            len(candidates),
            quantity_fact(
                value=f"{canonical_decimal(amount) if shown is None else shown} {unit}",
                start=start,
                end=end,
                text=text[start:end],
                amount=amount,
                unit=unit,
            ),
        )
    )
