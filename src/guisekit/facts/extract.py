"""Extract typed facts from English text: money (US and Indian formats), percentages,
dates, bare years, relative dates, redaction tokens, quantities (ages included),
negators, entities and identifiers.

The families live in their own modules: :mod:`.scan` (the scanning patterns),
:mod:`.money`, :mod:`.dates`, :mod:`.quantities` (percentages and counts),
:mod:`.ages` (``I am 24``), :mod:`.roles` (approximators, roles), :mod:`.negation`,
:mod:`.entities` (names, identifiers) and :mod:`.resolve` (one fact per span). This
module runs them in order. Written with
:mod:`re` alone, on purpose: the surveyed libraries either miss Indian formats (lakh,
crore, LPA, 12,00,000), average ranges, resolve dates against today, or (spaCy's matcher
and NER) need a tokenizer pass, which on its own costs about as much as the whole
extraction (``benchmarks/bench_facts.py`` times the two).
Candidates from all families are resolved by priority (money > date > percent > redaction
> year > relative date > quantity > identifier) so that a span is claimed by one fact
only: the year in ``March 14, 2023`` is part of the date, the digits in ``$2020`` are money.

See ``tests/data/fact_extraction_cases.yaml`` for the full table of conventions.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from decimal import getcontext
from operator import attrgetter, itemgetter

from guisekit.facts.ages import ages
from guisekit.facts.build import Candidate
from guisekit.facts.context import date_reading
from guisekit.facts.dates import (
    date_match,
    redactions,
    relatives,
    relatives_lower,
    year_candidate,
)
from guisekit.facts.entities import entity_fact, entity_spans, identifiers
from guisekit.facts.model import Fact
from guisekit.facts.money import (
    _money_match,
    _money_pre_match,
    _money_words,
    _money_words_lower,
)
from guisekit.facts.negation import negations
from guisekit.facts.policy import DateOrder
from guisekit.facts.quantities import percent_match, quantities
from guisekit.facts.resolve import resolve
from guisekit.facts.roles import bind
from guisekit.facts.scan import (
    _ANY_DIGIT,
    _D_OK,
    _DATE_X,
    _DIGITS_ASCII,
    _DIGITS_UNICODE,
    _EXCLUDED_LAST,
    _M_END,
    _M_GROUPS,
    _M_N1,
    _M_OK,
    _MONEY_PRE,
    _N_END,
    _NON_ASCII_DIGIT,
    _P_OK,
    _PERIOD_AT,
    _PRE_END,
    _Y_OK,
    _YEAR_BEFORE_DASH,
    _YEAR_EXCLUDED_LOWER,
    _YEAR_EXCLUDED_REVERSED,
    letter_runs,
    letters_only,
)

__all__ = ["extract_facts"]

_first = itemgetter(0)


def extract_facts(text: str, date_order: DateOrder = "auto", *, words: bool = True) -> list[Fact]:
    """All facts in ``text``, in order of appearance (spans of the facts found from
    digits and number words never overlap; negations and entities are words).

    ``words=False`` skips what only the comparison needs (quantities, approximators,
    roles, negators, names) and keeps the spans a rewrite must leave alone (amounts,
    percentages, dates, years, relative dates, redactions, identifiers): the rules
    engine's span protection calls it on every text."""
    candidates: list[Candidate] = []
    has_digits = _ANY_DIGIT.search(text) is not None
    # Matches of the money and date families: (start, end, match, source).
    money_found: list[tuple[int, int, re.Match[str], str | None]] = []
    date_found: list[tuple[int, int, re.Match[str], str]] = []
    x_dates: list[tuple[int, int]] = []  # the spans of the facts of XX/XX/2019-like dates
    exact = getcontext().prec
    if has_digits:
        _scan_digits(text, candidates, money_found, date_found, exact)
        for marker, scan in _MONEY_PRE:
            if marker in text:
                for match in scan.finditer(text):
                    money_found.append((match.start(), match.end(_PRE_END), match, None))
    has_x = "XX" in text
    if has_x:
        for match in _DATE_X.finditer(text):
            date_found.append((match.start(), match.end("y"), match, "X"))
    if money_found:
        if len(money_found) > 1:
            money_found.sort(key=_first)
        end = 0
        for start, stop, match, period in money_found:
            if start >= end:
                end = stop
                if period is None:
                    _money_pre_match(text, candidates, match, start, stop, exact)
                else:
                    _money_match(
                        text,
                        candidates,
                        match,
                        _M_GROUPS,
                        start,
                        stop,
                        start,
                        _M_N1,
                        None,
                        period or None,
                        exact,
                    )
    reading: list[str] = []

    def order() -> str:
        if not reading:
            reading.append(date_reading(text, date_order))
        return reading[0]

    if date_found:
        if len(date_found) > 1:
            date_found.sort(key=_first)
        end = 0
        for start, stop, match, source in date_found:
            if start >= end:
                end = stop
                count = len(candidates)
                date_match(text, candidates, match, source, start, stop, order)
                if source == "X" and len(candidates) > count:
                    x_dates.append((start, stop))
    low = text.lower()
    # the word kinds' prefilter (see letter_runs), shared with the relative dates
    runs = letter_runs(low) if words else None
    if len(low) == len(text) and "ı" not in text and "ſ" not in text:
        # Case-insensitive matching is plain matching on the lower-cased text: the two
        # letters above are the only ones that match an ASCII letter without lowering to
        # it, and an equal length means one character for one.
        _money_words_lower(text, low, candidates, runs)
        if has_x:
            redactions(text, candidates, x_dates)
        relatives_lower(text, low, candidates, runs)
    else:
        _money_words(text, candidates)
        if has_x:
            redactions(text, candidates, x_dates)
        relatives(text, candidates)
        low = text.lower()
    identifiers(text, low, candidates)
    if runs is None:
        return resolve(candidates)
    quantities(text, low, candidates, has_digits, runs)
    ages(text, low, candidates, runs)
    facts = bind(resolve(candidates), text, low, runs, letters_only(low))
    extra = negations(text, low, runs)
    names = entity_spans(text)
    if names:
        extra += [entity_fact(text, start, end) for start, end in _outside(names, facts)]
    if extra:
        facts += extra
        facts.sort(key=_start)
    return facts


def _outside(spans: list[tuple[int, int]], facts: list[Fact]) -> list[tuple[int, int]]:
    """The word spans (sorted by start) that overlap no fact of ``facts``: the ``US`` of
    ``500 US dollars`` and the ``L`` of ``1.5 L`` are part of an amount, not names."""
    if not facts:
        return spans
    starts = [f.start for f in facts]
    kept = []
    for span in spans:
        start, end = span
        i = bisect_right(starts, start) - 1
        if i >= 0 and facts[i].end > start:
            continue
        if i + 1 < len(facts) and facts[i + 1].start < end:
            continue
        kept.append(span)
    return kept


_start = attrgetter("start")


def _scan_digits(
    text: str,
    candidates: list[Candidate],
    money_found: list,  # type: ignore[type-arg]
    date_found: list,  # type: ignore[type-arg]
    exact: int,
) -> None:
    scan = _DIGITS_ASCII
    if not text.isascii() and _NON_ASCII_DIGIT.search(text):
        scan = _DIGITS_UNICODE
    for match in scan.finditer(text):
        start = match.start()
        if match.start(_N_END) >= 0:
            date_found.append((start, match.end(_N_END), match, "N"))
            continue
        if match.start(_M_OK) >= 0:
            tail = match.end(_M_END)
            period = _PERIOD_AT.match(text, tail)
            if period is None:
                money_found.append((start, tail, match, ""))
            else:
                money_found.append((start, period.end(), match, period.group("per")))
        if match.start(_D_OK) >= 0:
            date_found.append((start, match.end(_D_OK), match, "D"))
        if match.start(_P_OK) >= 0:
            percent_match(text, candidates, start, match, exact)
        if match.start(_Y_OK) >= 0:
            # not after one of the words of _YEAR_EXCLUDED_AFTER (matched on the 24
            # characters before the year, reversed), nor after a dash unless in 1999-2000
            before = (
                text[start - 1 : start - 25 : -1]
                if start > 24
                else text[start - 1 :: -1]
                if start
                else ""
            )
            # (the words end with one of _EXCLUDED_LAST, after which only spaces may come)
            if before.lstrip()[:1] in _EXCLUDED_LAST and (
                _YEAR_EXCLUDED_LOWER.match(before.lower())
                if before.isascii()
                else _YEAR_EXCLUDED_REVERSED.match(before)
            ):
                continue
            if before[:1] == "-" and not _YEAR_BEFORE_DASH.search(before[::-1]):
                continue
            year_candidate(text, start, candidates)
