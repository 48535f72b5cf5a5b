"""Named builders of facts and extraction candidates, and the number helpers the
families share.

Every fact is built here, by field name: each builder takes keyword arguments and lays
them out in :class:`~guisekit.facts.model.Fact`'s field order in one place, without the
Python-level ``__new__`` of a named tuple (extraction is on the hot path of every screen).
A candidate is ``(start, end, priority, sequence number, fact)``; :mod:`.resolve` keeps
the candidates that win their overlaps.
"""

from __future__ import annotations

import re
from decimal import Decimal

from guisekit.facts.model import Currency, Fact, FactKind, Period, canonical_decimal

__all__ = [
    "Candidate",
    "canonical",
    "date_fact",
    "is_word_char",
    "money_fact",
    "number",
    "percent_fact",
    "plain",
    "quantity_fact",
    "span_fact",
]

# Priorities: a span is claimed by one fact only (money > date > percent > redaction >
# year > relative date > quantity > identifier).
MONEY_P, DATE_P, PERCENT_P, REDACTION_P, YEAR_P, RELATIVE_P, QUANTITY_P, IDENTIFIER_P = range(8)

Candidate = tuple[int, int, int, int, Fact]

_new = tuple.__new__
_NONE9 = (None,) * 9
_NONE13 = (None,) * 13
if Fact._fields[-3:] != ("role", "approx", "alt") or len(Fact._fields) != 19:
    raise RuntimeError("the builders below lay out Fact's 19 fields in order")


def money_fact(
    *,
    value: str,
    start: int,
    end: int,
    text: str,
    explicit: bool,
    amount: Decimal,
    currency: Currency,
    period: Period | None,
    number_start: int,
    number_end: int,
    multiplier: Decimal,
) -> Fact:
    return _new(
        Fact,
        (
            "money",
            value,
            start,
            end,
            text,
            explicit,
            amount,
            currency,
            period,
            None,
            None,
            None,
            None,
            number_start,
            number_end,
            multiplier,
            None,
            None,
            None,
        ),
    )


def _measured(
    kind: FactKind, value: str, start: int, end: int, text: str, amount: Decimal, unit: str
) -> Fact:
    """A number with its unit (percent, count or duration): fields 0-9 set, the rest None."""
    return _new(Fact, (kind, value, start, end, text, True, amount, None, None, unit, *_NONE9))


def percent_fact(
    *, value: str, start: int, end: int, text: str, amount: Decimal, unit: str
) -> Fact:
    return _measured("percent", value, start, end, text, amount, unit)


def quantity_fact(
    *, value: str, start: int, end: int, text: str, amount: Decimal, unit: str
) -> Fact:
    return _measured("quantity", value, start, end, text, amount, unit)


def date_fact(
    *,
    value: str,
    start: int,
    end: int,
    text: str,
    year: str | None,
    month: str | None,
    day: str | None,
    alt: str | None = None,
) -> Fact:
    """A date (``kind="date"``) or bare year (``kind="year"`` when only ``year`` is set);
    ``alt`` is the other reading of an ambiguous numeric date."""
    return _new(
        Fact,
        (
            "date" if month is not None or day is not None else "year",
            value,
            start,
            end,
            text,
            True,
            None,
            None,
            None,
            None,
            year,
            month,
            day,
            None,
            None,
            None,
            None,
            None,
            alt,
        ),
    )


def span_fact(*, kind: FactKind, value: str, start: int, end: int, text: str) -> Fact:
    """A fact that is its words: redaction, relative date, negation, entity, identifier."""
    return _new(Fact, (kind, value, start, end, text, True, *_NONE13))


def is_word_char(ch: str) -> bool:
    """``\\w`` of :mod:`re` for one character."""
    return ch.isalnum() or ch == "_"


# Western (1,234,567) or Indian (12,34,567) grouping of the whole part: numbers.parse_digits.
GROUPING = re.compile(r"[^,]{1,3}(?:,[^,]{3})+|[^,]{1,2}(?:,[^,]{2})*,[^,]{3}")


def number(written: str) -> Decimal | None:
    """``numbers.parse_digits(written)[0]`` for a number matched by the scan."""
    if "," not in written:
        return Decimal(written)
    if GROUPING.fullmatch(written.partition(".")[0]) is None:
        return None
    return Decimal(written.replace(",", ""))


def plain(digits: str) -> str:
    """``canonical_decimal(Decimal(digits))`` for ASCII digits with an optional point."""
    whole, _, frac = digits.partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return whole + "." + frac if frac else whole


def canonical(written: str, shift: int, value: Decimal, exact: int) -> str:
    """``canonical_decimal(value)`` where ``value`` is the number ``written`` times
    10**shift, computed on the digits when that product was exact (no more digits than
    the decimal context's precision)."""
    if len(written) > exact or not written.isascii():
        return canonical_decimal(value)
    digits = written.replace(",", "")
    if shift:
        whole, _, frac = digits.partition(".")
        digits = whole + frac
        point = len(whole) + shift
        if point >= len(digits):
            return plain(digits + "0" * (point - len(digits)))
        if point <= 0:
            return plain("0." + "0" * -point + digits)
        return plain(digits[:point] + "." + digits[point:])
    return plain(digits)
