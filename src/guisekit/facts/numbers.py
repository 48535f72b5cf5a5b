"""Numbers as people write them: digit groups (Western and Indian) and English words."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

__all__ = [
    "SCALE_WORDS",
    "Grouping",
    "format_number",
    "parse_digits",
    "parse_words",
]

Grouping = Literal["none", "western", "indian"]

_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
SCALE_WORDS: dict[str, int] = {
    "thousand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "lakh": 100_000,
    "lakhs": 100_000,
    "lac": 100_000,
    "lacs": 100_000,
    "crore": 10_000_000,
    "crores": 10_000_000,
}
CARDINAL_WORDS = frozenset(_UNITS)  # zero .. ninety: the words a number is spelled from
NUMBER_WORDS = CARDINAL_WORDS | frozenset(SCALE_WORDS) | {"hundred", "a", "and"}


def parse_digits(text: str) -> tuple[Decimal, Grouping, int] | None:
    """Parse ``1,234.56`` / ``12,00,000`` / ``3400.00``.

    Returns the value, the digit grouping used and the number of decimals, or None when
    the commas do not form a valid Western (3-3-3) or Indian (2-2-3) grouping.
    """
    whole, _, decimals = text.partition(".")
    grouping: Grouping = "none"
    if "," in whole:
        head, *groups = whole.split(",")
        if 1 <= len(head) <= 3 and all(len(g) == 3 for g in groups):
            grouping = "western"
        elif 1 <= len(head) <= 2 and len(groups[-1]) == 3 and all(len(g) == 2 for g in groups[:-1]):
            grouping = "indian"
        else:
            return None
    return (
        Decimal(whole.replace(",", "") + ("." + decimals if decimals else "")),
        grouping,
        len(decimals),
    )


def parse_words(text: str) -> int | None:
    """Parse English number words: ``twelve hundred`` -> 1200, ``a hundred`` -> 100.

    Returns None for anything that is not a well-formed number phrase.
    """
    words = [w for w in text.lower().replace("-", " ").split() if w != "and"]
    if not words or words == ["a"]:
        return None
    total = current = 0
    seen_value = False
    for index, word in enumerate(words):
        if word == "a":
            if index != 0:
                return None
            current = 1
        elif word in _UNITS:
            current += _UNITS[word]
            seen_value = True
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in SCALE_WORDS:
            total += (current or 1) * SCALE_WORDS[word]
            current = 0
        else:
            return None
    if not seen_value and words[0] != "a":
        return None
    return total + current


def format_number(value: Decimal, grouping: Grouping, decimals: int) -> str:
    """Write ``value`` back in a given grouping with a fixed number of decimals."""
    quantised = f"{value:.{decimals}f}"
    whole, _, frac = quantised.partition(".")
    sign = "-" if whole.startswith("-") else ""
    whole = whole.lstrip("-")
    if grouping == "western":
        whole = f"{int(whole):,}"
    elif grouping == "indian" and len(whole) > 3:
        head, tail = whole[:-3], whole[-3:]
        pairs: list[str] = []
        while len(head) > 2:
            pairs.insert(0, head[-2:])
            head = head[:-2]
        whole = ",".join([head, *pairs, tail])
    return sign + whole + ("." + frac if frac else "")
