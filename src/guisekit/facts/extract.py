"""Extract typed facts from English text: money (US and Indian formats), percentages,
dates, bare years, relative dates and redaction tokens.

Written with :mod:`re` alone, on purpose: the surveyed libraries either miss Indian
formats (lakh, crore, LPA, 12,00,000), average ranges, or resolve dates against today.
Candidates from all families are resolved by priority (money > date > percent >
redaction > year > relative date) so that a span is claimed by one fact only: the year in
``March 14, 2023`` is part of the date, the digits in ``$2020`` are money.

Conventions (see ``tests/data/fact_extraction_cases.yaml`` for the full table):

- money ``AMOUNT CUR[/PERIOD]``: ``$1.2k`` -> ``1200 USD``; ``12-15 LPA`` -> two facts,
  ``1200000 INR/year`` and ``1500000 INR/year`` (ranges are never averaged);
- percent ``15%``, percentage points ``2 pp``;
- date ``2023-03-14``, ``2019-12`` (month/year), ``--03-14`` (no year), ``2019-XX-XX``
  (partly redacted); numeric dates are read month-first unless the first number is > 12;
- redaction ``XXXX`` per token, ``XX/XX/XXXX`` for a fully redacted date;
- relative dates are kept as lower-cased words, never resolved against today.

How it is fast (extraction runs on every screen): each family is defined by one regular
expression (``_MONEY``, ``_DATE``, ... below, in their reference form), and the result is
exactly what scanning the text with each of them (``finditer``) gives. Scanning with them
directly is slow, though: a pattern that starts with ``\\b``, a lookbehind or a case-
insensitive word gets no fast skip in CPython's ``re`` and is tried at every character.
So the text is scanned with a few patterns that start with a literal or a plain character
class (a digit, a currency sign, a month name, ``XX``), and each match reports, through
lookaheads, which family patterns match at that position and how far; the rest of each
family pattern is kept verbatim inside the lookahead, so it matches the same way. Since
the reference ``finditer`` of a family never starts a match inside the previous one, each
family keeps the end of its last match and candidates that start before it are skipped
(``_Scan``). Plain numbers with no currency evidence are rejected inside the regex engine
(they make no money fact, and one never hides the start of another money match unless a
range's second number could start one, which is reported). Relative dates and amounts in
words are found from their literal anchors (``ago``, ``dollars``) and matched backwards
on the reversed, lower-cased text.
"""

from __future__ import annotations

import re
from decimal import Decimal, getcontext
from operator import itemgetter
from typing import Any

from guisekit.facts.model import Currency, Fact, Period, canonical_decimal
from guisekit.facts.numbers import SCALE_WORDS, parse_words
from guisekit.facts.patterns import (
    _ANY_DIGIT,
    _CENTS,
    _CURRENCY_WORD,
    _DATE_X,
    _DIGITS_ASCII,
    _DIGITS_UNICODE,
    _MONEY_PRE,
    _MONEY_WORDS,
    _MONEY_WORDS_REVERSED,
    _MONTH_NUMBER,
    _NON_ASCII_DIGIT,
    _PERIOD_AT,
    _REDACTION_SCAN,
    _REL_AGO_REVERSED,
    _REL_DAY_AROUND,
    _REL_LITERAL,
    _RELATIVE,
    _YEAR_BEFORE_DASH,
    _YEAR_EXCLUDED_LOWER,
    _YEAR_EXCLUDED_REVERSED,
)

__all__ = ["extract_facts"]

_PERIODS: dict[str, Period] = {
    **dict.fromkeys(
        ("perannum", "pa", "peryear", "ayear", "annually", "peryr", "yr", "year", "annum"), "year"
    ),
    **dict.fromkeys(("permonth", "amonth", "monthly", "month", "mo"), "month"),
    **dict.fromkeys(("perhour", "anhour", "hourly", "hr", "hour"), "hour"),
}
_PRIORITY = {"money": 0, "date": 1, "percent": 2, "redaction": 3, "year": 4, "relative_date": 5}
_MONEY_P, _DATE_P, _PERCENT_P, _REDACTION_P, _YEAR_P, _RELATIVE_P = range(6)
# Scales: the multiplier, its power of ten, and the name (k = 1000 ...; lakh = 100000).
_ONE = Decimal(1)
_LETTER_SCALE = {
    letter: (Decimal(value), len(str(value)) - 1, letter)
    for letter, value in {
        "k": 1_000,
        "m": 1_000_000,
        "mn": 1_000_000,
        "b": 1_000_000_000,
        "bn": 1_000_000_000,
        "cr": 10_000_000,
    }.items()
}
_WORD_SCALE = {
    word: (Decimal(value), len(str(value)) - 1, word) for word, value in SCALE_WORDS.items()
}
_NO_SCALE = (_ONE, 0, None)
_INDIAN_SCALES = frozenset(("lakh", "lakhs", "lac", "lacs", "crore", "crores", "cr"))
_LPA = (Decimal(100_000), 5)
_CENT = (Decimal("0.01"), -2)
_NO_EXTRA = (_ONE, 0)
# Western (1,234,567) or Indian (12,34,567) grouping of the whole part: numbers.parse_digits.
_GROUPING = re.compile(r"[^,]{1,3}(?:,[^,]{3})+|[^,]{1,2}(?:,[^,]{2})*,[^,]{3}")


def _is_word_char(ch: str) -> bool:
    """``\\w`` of :mod:`re` for one character."""
    return ch.isalnum() or ch == "_"


# A candidate: (start, end, priority, sequence number, the arguments of its Fact); the Fact
# is only built if the candidate is accepted.
Candidate = tuple[int, int, int, int, tuple]  # type: ignore[type-arg]


def extract_facts(text: str) -> list[Fact]:
    """All facts in ``text``, in order of appearance, with non-overlapping spans."""
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
    if date_found:
        if len(date_found) > 1:
            date_found.sort(key=_first)
        end = 0
        for start, stop, match, source in date_found:
            if start >= end:
                end = stop
                count = len(candidates)
                _date_match(text, candidates, match, source, start, stop)
                if source == "X" and len(candidates) > count:
                    x_dates.append((start, stop))
    low = text.lower()
    if len(low) == len(text) and "ı" not in text and "ſ" not in text:
        # Case-insensitive matching is plain matching on the lower-cased text: the two
        # letters above are the only ones that match an ASCII letter without lowering to
        # it, and an equal length means one character for one.
        _money_words_lower(text, low, candidates)
        if has_x:
            _redactions(text, candidates, x_dates)
        _relatives_lower(text, low, candidates)
    else:
        _money_words(text, candidates)
        if has_x:
            _redactions(text, candidates, x_dates)
        _relatives(text, candidates)
    return _resolve(candidates)


_first = itemgetter(0)


_DEFAULTS = tuple(Fact._field_defaults.get(name) for name in Fact._fields)
_new_tuple = tuple.__new__


_NO_FIELDS = _DEFAULTS[5:]  # the defaults after kind, value, start, end, text


def _fact(args: tuple[Any, ...]) -> Fact:
    """``Fact(*args)`` for all 16 fields, without the Python-level ``__new__`` of a named
    tuple (hot path)."""
    return _new_tuple(Fact, args)


def _resolve(candidates: list[Candidate]) -> list[Fact]:
    """Greedy by priority, then position, then length: the result of checking each
    candidate against all accepted ones, computed per group of overlapping candidates."""
    candidates.sort()
    accepted: list[Fact] = []
    append, new = accepted.append, _new_tuple  # a Fact from its 16 fields: new(Fact, fields)
    group: list[Candidate] = []  # the candidates that overlap, transitively, since ``last``
    last: Candidate | None = None
    end = -1
    for item in candidates:
        if item[0] < end:
            if not group:
                group.append(last)  # type: ignore[arg-type]
            group.append(item)
            if item[1] > end:
                end = item[1]
            continue
        if group:
            accepted += _resolve_group(group)
            group = []
        elif last is not None:
            append(new(Fact, last[4]))
        last, end = item, item[1]
    if group:
        accepted += _resolve_group(group)
    elif last is not None:
        append(new(Fact, last[4]))
    return accepted


def _resolve_group(group: list[Candidate]) -> list[Fact]:
    kept: list[Candidate] = []
    for item in sorted(group, key=_priority_order):
        start, end = item[0], item[1]
        for other in kept:
            if end > other[0] and start < other[1]:
                break
        else:
            kept.append(item)
    kept.sort()
    return [_fact(item[4]) for item in kept]


def _priority_order(item: Candidate) -> tuple[int, int, int, int]:
    return item[2], item[0], item[0] - item[1], item[3]


# --- the digit scan ------------------------------------------------------------------------

_G = _DIGITS_ASCII.groupindex
if _DIGITS_UNICODE.groupindex != _G:  # both scans are built by _digit_scan
    raise RuntimeError("the ASCII and Unicode digit scans must name the same groups")
_M_OK, _D_OK, _P_OK, _Y_OK = _G["Mok"], _G["D"], _G["Pend"], _G["Y"]
_N_END, _N_MON, _N_D1, _N_Y1, _N_Y3 = (_G[name] for name in ("Nend", "Nmon", "Nd1", "Ny1", "Ny3"))
_M_END, _M_N1 = _G["Mend"], _G["Mn1"]
# The money groups, in the order _money_match unpacks them (both scans name them alike).
_MONEY_GROUP_NAMES = (
    "s1a",
    "s1ai",
    "s1w",
    "s1wi",
    "dash",
    "pre2",
    "n2",
    "s2a",
    "s2ai",
    "s2w",
    "s2wi",
    "post",
)
_M_GROUPS = tuple(_G["M" + name] for name in _MONEY_GROUP_NAMES)
_D_GROUPS = tuple(
    _G[name] for name in ("Dsep", "Db", "Dy", "Ddb", "Ddy", "Dim", "Did", "Dmy", "Dm2", "Dy2")
)
_D_A, _D_DA, _D_IY, _D_MM, _D_D2 = (_G[name] for name in ("Da", "Dda", "Diy", "Dmm", "Dd2"))
_P_N, _P_PP = _G["Pn"], _G["Ppp"]
_PG = _MONEY_PRE[0][1].groupindex
if any(scan.groupindex != _PG for _, scan in _MONEY_PRE):
    raise RuntimeError("every currency-prefix scan must name the same groups")
_PRE_GROUPS = tuple(_PG[name] for name in _MONEY_GROUP_NAMES)
_PRE_END, _PRE_N1, _PRE_PRE, _PRE_PER = _PG["end"], _PG["n1"], _PG["pre"], _PG["per"]


# the last characters of the words of _YEAR_EXCLUDED_AFTER, in any case (no letter that
# re.IGNORECASE matches with another one, i k s, ends one of them)
_EXCLUDED_LAST = frozenset("gnh#o.rmetlvpGNHORMETLVP")


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
            _percent_match(text, candidates, start, match, exact)
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
            end = start + 4
            year = text[start:end]
            candidates.append(
                (
                    start,
                    end,
                    _YEAR_P,
                    len(candidates),
                    (
                        "year",
                        year,
                        start,
                        end,
                        year,
                        True,
                        None,
                        None,
                        None,
                        None,
                        year,
                        None,
                        None,
                        None,
                        None,
                        None,
                    ),
                )
            )


# --- numbers -------------------------------------------------------------------------------


def _number(written: str) -> Decimal | None:
    """``numbers.parse_digits(written)[0]`` for a number matched by _NUM."""
    if "," not in written:
        return Decimal(written)
    if _GROUPING.fullmatch(written.partition(".")[0]) is None:
        return None
    return Decimal(written.replace(",", ""))


def _plain(digits: str) -> str:
    """``canonical_decimal(Decimal(digits))`` for ASCII digits with an optional point."""
    whole, _, frac = digits.partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return whole + "." + frac if frac else whole


def _canonical(written: str, shift: int, value: Decimal, exact: int) -> str:
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
            return _plain(digits + "0" * (point - len(digits)))
        if point <= 0:
            return _plain("0." + "0" * -point + digits)
        return _plain(digits[:point] + "." + digits[point:])
    return _plain(digits)


# --- money ---------------------------------------------------------------------------------

_CURRENCY_OF: dict[str, Currency] = {
    "$": "USD",
    "US$": "USD",
    "USD": "USD",
    "INR": "INR",
    "Rs": "INR",
    "Rs.": "INR",
    "₹": "INR",
    "dollar": "USD",
    "dollars": "USD",
    "bucks": "USD",
    "rupee": "INR",
    "rupees": "INR",
}


def _scale_of(letter: str | None, word: str | None) -> tuple[Decimal, int, str | None]:
    if letter:
        return _LETTER_SCALE[letter.lower()]
    if word:
        return _WORD_SCALE[word.lower()]
    return _NO_SCALE


def _period_key(text: str) -> str:
    return "".join(text.lower().split()).replace(".", "").replace("/", "")


# the usual spellings, looked up directly
_PERIOD_OF: dict[str, Period] = {
    spelling: _PERIODS[_period_key(spelling)]
    for spelling in (
        "per annum",
        "p.a.",
        "p. a.",
        "p.a",
        "p. a",
        "per year",
        "a year",
        "annually",
        "per yr",
        "/yr",
        "/ yr",
        "/year",
        "/ year",
        "/annum",
        "/ annum",
        "per month",
        "a month",
        "monthly",
        "/month",
        "/ month",
        "/mo",
        "/ mo",
        "per hour",
        "an hour",
        "hourly",
        "/hr",
        "/ hr",
        "/hour",
        "/ hour",
    )
}


def _period_of(text: str | None) -> Period | None:
    if not text:
        return None
    return _PERIOD_OF.get(text) or _PERIODS[_period_key(text)]


def _money(
    seq: int,
    text: str,
    start: int,
    end: int,
    value: str,
    explicit: bool,
    amount: Decimal,
    currency: Currency,
    period: Period | None,
    number_start: int,
    number_end: int,
    multiplier: Decimal,
) -> Candidate:
    """A money candidate: the Fact arguments in field order (unit and date parts unset)."""
    return (
        start,
        end,
        _MONEY_P,
        seq,
        (
            "money",
            value,
            start,
            end,
            text[start:end],
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
        ),
    )


def _money_match(
    text: str,
    candidates: list[Candidate],
    match: re.Match[str],
    groups: tuple[int, ...],
    start: int,
    end: int,
    n1_start: int,
    n1_group: int,
    pre: str | None,
    period_text: str | None,
    exact: int,
) -> None:
    """The facts of one _MONEY match (start..end), from a _MONEY_PRE or a digit-scan match
    (``groups``: the indices of its s1a .. post groups; ``n1``: that of n1)."""
    n1_end = match.end(n1_group)
    n1 = text[n1_start:n1_end]
    first = _number(n1)
    if first is None:
        return
    s1a, s1ai, s1w, s1wi, dash, pre2, n2, s2a, s2ai, s2w, s2wi, post = match.group(*groups)
    scale1 = _scale_of(s1a or s1ai, s1w or s1wi) if s1a or s1ai or s1w or s1wi else _NO_SCALE
    scale1_end = n1_end
    if scale1[2] is not None:
        scale1_end = max(
            match.end(groups[0]), match.end(groups[1]), match.end(groups[2]), match.end(groups[3])
        )
    parts: list[tuple[int, int, int, int, str, Decimal, tuple[Decimal, int, str | None]]]
    if n2 is None:
        parts = [(start, end, n1_start, n1_end, n1, first, scale1)]
    else:
        # Whether ``A-B`` / ``A to B`` is one money range rather than an amount and a
        # number: ``12-15 LPA`` and ``Rs 8 to 10 lakh`` share the unit written after the
        # second number; ``$500-700`` is a range because the second number is larger;
        # ``$500 - 3 days`` is not.
        second = _number(n2)
        if second is not None and (
            pre2 or s2a or s2ai or s2w or s2wi or post or (dash != "to" and second > first)
        ):
            scale2 = _scale_of(s2a or s2ai, s2w or s2wi)
            if scale1[2] is None:
                scale1 = scale2
            n2_start, n2_end = match.span(groups[6])
            second_start = match.start(groups[5]) if pre2 else n2_start
            parts = [
                (start, scale1_end, n1_start, n1_end, n1, first, scale1),
                (second_start, end, n2_start, n2_end, n2, second, scale2),
            ]
            pre = pre or pre2
        else:
            # An amount followed by an unrelated number: the tail is not part of it.
            parts, post, period_text = (
                [(start, scale1_end, n1_start, n1_end, n1, first, scale1)],
                None,
                None,
            )
    currency: Currency | None = _CURRENCY_OF[pre] if pre else None
    extra = _NO_EXTRA
    period = _period_of(period_text)
    explicit = currency is not None
    if post:
        if post == "LPA":
            extra, period, currency = _LPA, "year", currency or "INR"
        elif post.startswith("cent"):
            extra, currency, explicit = _CENT, "USD", True
        elif currency is None:
            currency = _CURRENCY_OF[post]
            explicit = True
    facts: list[Candidate] = []
    for part_start, part_end, number_start, number_end, written, number, scale in parts:
        if currency is None:
            if scale[2] in _INDIAN_SCALES:
                currency = "INR"
            else:
                return
        amount = number * scale[0] * extra[0]
        value = f"{_canonical(written, scale[1] + extra[1], amount, exact)} {currency}"
        if period:
            value += "/" + period
        facts.append(
            _money(
                len(candidates) + len(facts),
                text,
                part_start,
                part_end,
                value,
                explicit,
                amount,
                currency,
                period,
                number_start,
                number_end,
                scale[0] * extra[0],
            )
        )
    candidates += facts


def _money_pre_match(
    text: str, candidates: list[Candidate], match: re.Match[str], start: int, end: int, exact: int
) -> None:
    """_money_match for a _MONEY_PRE match, with a shortcut for the common case: a
    marker and a number, nothing after it ($1,234.56)."""
    n1_start, n1_end = match.span(_PRE_N1)
    pre = match.group(_PRE_PRE)
    if n1_end != end:
        _money_match(
            text,
            candidates,
            match,
            _PRE_GROUPS,
            start,
            end,
            n1_start,
            _PRE_N1,
            pre,
            match.group(_PRE_PER),
            exact,
        )
        return
    n1 = text[n1_start:n1_end]
    if "," in n1:
        if _GROUPING.fullmatch(n1.partition(".")[0]) is None:
            return
        digits = n1.replace(",", "")
    else:
        digits = n1
    if len(n1) <= exact and n1.isascii():
        # the amount times the multipliers (1 and 1) is the same number when exact
        amount = Decimal(digits)
        value = _plain(digits)
    else:
        amount = Decimal(digits) * _ONE * _ONE
        value = canonical_decimal(amount)
    currency = _CURRENCY_OF[pre]
    candidates.append(
        _money(
            len(candidates),
            text,
            start,
            end,
            value + " " + currency,
            True,
            amount,
            currency,
            None,
            n1_start,
            n1_end,
            _ONE,
        )
    )


def _money_words_from(
    text: str,
    w_span: tuple[int, int],
    cur: str,
    end: int,
    cents_text: str | None,
    candidates: list[Candidate],
) -> None:
    whole = parse_words(text[w_span[0] : w_span[1]])
    if not whole:
        return
    cents = 0
    if cents_text:
        cents = int(cents_text) if cents_text.isdigit() else (parse_words(cents_text) or 0)
    amount = Decimal(whole) + Decimal(cents) / 100
    currency: Currency = "INR" if cur.lower() == "rupees" else "USD"
    candidates.append(
        _money(
            len(candidates),
            text,
            w_span[0],
            end,
            f"{canonical_decimal(amount)} {currency}",
            True,
            amount,
            currency,
            None,
            w_span[0],
            w_span[1],
            _ONE,
        )
    )


def _money_words(text: str, candidates: list[Candidate]) -> None:
    for match in _MONEY_WORDS.finditer(text):
        _money_words_from(
            text, match.span("w"), match.group("cur"), match.end(), match.group("c"), candidates
        )


def _money_words_lower(text: str, low: str, candidates: list[Candidate]) -> None:
    """_money_words on ``low``: from each currency word, the number words before it are
    matched backwards, on the reversed text (the longest run of them that starts at a word
    boundary, which is where the forward scan starts its match)."""
    anchors = []
    for word in ("dollars", "bucks", "rupees"):
        position = low.find(word)
        while position >= 0:
            # a currency word after whitespace after a letter (which ends the number words),
            # and a word boundary after it
            if position > 1 and low[position - 1].isspace():
                before = position - 2
                while before > 0 and low[before].isspace():
                    before -= 1
                if low[before].isalpha() and _CURRENCY_WORD.match(low, position):
                    anchors.append(position)
            position = low.find(word, position + 1)
    if not anchors:
        return
    anchors.sort()
    rev = low[::-1]
    size = len(low)
    last_end = 0
    for cur_start in anchors:
        cur = _CURRENCY_WORD.match(low, cur_start)
        found = _MONEY_WORDS_REVERSED.match(rev, size - cur_start)
        if found is None or cur is None:
            continue
        start = size - found.end()
        if start < last_end:
            continue
        # the words end where the whitespace before the currency word starts
        matched = found.group()
        w_end = cur_start - (len(matched) - len(matched.lstrip()))
        end = cur.end()
        cents = _CENTS.match(low, end)
        cents_text = None
        if cents is not None and cents.group("c") is not None:
            end = cents.end()
            cents_text = text[cents.start("c") : cents.end("c")]
        last_end = end
        _money_words_from(text, (start, w_end), cur.group(), end, cents_text, candidates)


# --- percentages ---------------------------------------------------------------------------


def _percent_match(
    text: str, candidates: list[Candidate], start: int, match: re.Match[str], exact: int
) -> None:
    digits = text[start : match.end(_P_N)]
    if "," in digits:
        if _GROUPING.fullmatch(digits.partition(".")[0]) is None:
            return
        digits = digits.replace(",", "")
    number = Decimal(digits)
    value = (
        _plain(digits) if len(digits) <= exact and digits.isascii() else (canonical_decimal(number))
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
            _PERCENT_P,
            len(candidates),
            (
                "percent",
                value,
                start,
                end,
                text[start:end],
                True,
                number,
                None,
                None,
                unit,
                None,
                None,
                None,
                None,
                None,
                None,
            ),
        )
    )


# --- dates, years, relative dates, redactions ----------------------------------------------


def _two_digit(value: str) -> str:
    if len(value) == 2 and value.isdigit():
        return str((2000 if int(value) <= 40 else 1900) + int(value))
    return value


def _date_match(
    text: str, candidates: list[Candidate], match: re.Match[str], source: str, start: int, end: int
) -> None:
    """The fact of one _DATE match, if it is a valid date."""
    day: str | None
    if source == "D":
        sep, b, y, db, dy, im, iday, my, m2, y2 = match.group(*_D_GROUPS)
        if sep is not None:
            month, day, year = text[start : match.end(_D_A)], b, _two_digit(y)
            if month != "XX" and day != "XX" and int(month) > 12 >= int(day):
                month, day = day, month
        elif db is not None:  # dotted dates are day-first: 14.03.2023
            day, month, year = text[start : match.end(_D_DA)], db, dy
        elif im is not None:
            year, month, day = text[start : match.end(_D_IY)], im, iday
        elif my is not None:
            year, month, day = my, text[start : match.end(_D_MM)], None
        else:
            month = str(_MONTH_NUMBER[m2.lower()])
            year = y2
            day = text[start : match.end(_D_D2)]
    elif source == "X":
        month, day, year = "XX", match.group("b"), _two_digit(match.group("y"))
    else:
        month = str(_MONTH_NUMBER[text[start : match.end(_N_MON)].lower()])
        d1, y1, y3 = match.group(_N_D1, _N_Y1, _N_Y3)
        if d1 is not None:
            year, day = y1, d1
        else:
            year, day = y3, None
    if month != "XX" and not 1 <= int(month) <= 12:
        return
    if day is not None and day != "XX" and not 1 <= int(day) <= 31:
        return
    month = month.zfill(2)
    written = text[start:end]
    if year == "XXXX":
        candidates.append(
            (
                start,
                end,
                _REDACTION_P,
                len(candidates),
                ("redaction", written, start, end, written, *_NO_FIELDS),
            )
        )
        return
    if day is not None:
        day = day.zfill(2)
        value = f"{year}-{month}-{day}" if year else f"--{month}-{day}"
    elif year:
        value = f"{year}-{month}"
    else:
        value = f"--{month}-{day}"
    candidates.append(
        (
            start,
            end,
            _DATE_P,
            len(candidates),
            (
                "date",
                value,
                start,
                end,
                written,
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
            ),
        )
    )


def _relatives(text: str, candidates: list[Candidate]) -> None:
    for m in _RELATIVE.finditer(text):
        start, end = m.span()
        words = m.group()
        candidates.append(
            (
                start,
                end,
                _RELATIVE_P,
                len(candidates),
                ("relative_date", " ".join(words.lower().split()), start, end, words, *_NO_FIELDS),
            )
        )


def _relatives_lower(text: str, low: str, candidates: list[Candidate]) -> None:
    """_relatives on ``low``: each alternative of _RELATIVE found from its literal start
    (or, for ``N days ago``, backwards from ``ago`` on the reversed text); they are tried
    in order of position, each skipped if it starts inside the previous one."""
    spans: list[tuple[int, int]] = []
    for word, pattern in _REL_LITERAL:
        # each match starts with the word and contains no other occurrence of it, so
        # matching at each occurrence finds what scanning with the pattern finds
        start = low.find(word)
        while start >= 0:
            m = pattern.match(low, start)
            if m is not None and not (start and _is_word_char(low[start - 1])):
                spans.append((start, m.end()))
            start = low.find(word, start + 1)
    if spans and ("yesterday" in low or "tomorrow" in low):
        for m in _REL_DAY_AROUND.finditer(low):
            start = m.start()
            if not (start and _is_word_char(low[start - 1])):
                spans.append((start, m.end()))
    position = low.find("ago")
    if position >= 0:
        rev = low[::-1]
        size = len(low)
        while position >= 0:
            end = position + 3
            if end == size or not _is_word_char(low[end]):
                found = _REL_AGO_REVERSED.match(rev, size - end)
                if found is not None:
                    spans.append((size - found.end(), end))
            position = low.find("ago", position + 1)
    if not spans:
        return
    spans.sort()
    last_end = 0
    for start, end in spans:
        if start < last_end:
            continue
        last_end = end
        words = text[start:end]
        candidates.append(
            (
                start,
                end,
                _RELATIVE_P,
                len(candidates),
                ("relative_date", " ".join(words.lower().split()), start, end, words, *_NO_FIELDS),
            )
        )


def _redactions(text: str, candidates: list[Candidate], x_dates: list[tuple[int, int]]) -> None:
    """Redaction tokens, less those inside a date led by XX (XX/XX/2019, XX/XX/XXXX) that
    made a fact: that fact always wins, as no other fact can overlap it (money, percent
    and other dates cannot contain an X nor start at its digits, and a token cannot reach
    into it from before it, since it starts after a non-word character), and it comes
    first in the priority order (a date, or a redaction that starts there and is longer)."""
    dates = iter(x_dates)
    date_start, date_end = next(dates, (-1, -1))
    for m in _REDACTION_SCAN.finditer(text):
        start, end = m.span()
        while start >= date_end >= 0:
            date_start, date_end = next(dates, (-1, -1))
        if date_start <= start < date_end:
            continue
        candidates.append(
            (
                start,
                end,
                _REDACTION_P,
                len(candidates),
                ("redaction", "XXXX", start, end, m.group(), *_NO_FIELDS),
            )
        )
