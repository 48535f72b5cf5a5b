"""Money facts: US and Indian amounts in digits (``$1.2k``, ``₹12,00,000``, ``1.2 Cr``,
``12-15 LPA``, ``15L``) and in words (``twelve hundred dollars``, ``two lakh rupees``).

Conventions: ``AMOUNT CUR[/PERIOD]``: ``$1.2k`` -> ``1200 USD``; ``12-15 LPA`` -> two
facts, ``1200000 INR/year`` and ``1500000 INR/year`` (ranges are never averaged). An
amount with an Indian scale (lakh, lac, L, crore, cr, Cr, LPA) is INR money whether or
not a currency is written: that is how most Indians state salaries and prices.
"""

from __future__ import annotations

import re
from decimal import Decimal

from guisekit.facts.build import (
    GROUPING,
    MONEY_P,
    Candidate,
    canonical,
    money_fact,
    plain,
)
from guisekit.facts.build import (
    number as parse_number,
)
from guisekit.facts.model import Currency, Period, canonical_decimal
from guisekit.facts.numbers import SCALE_WORDS, parse_words
from guisekit.facts.scan import (
    _CENTS,
    _CURRENCY_WORD,
    _MONEY_WORDS,
    _MONEY_WORDS_REVERSED,
    _PRE_GROUPS,
    _PRE_N1,
    _PRE_PER,
    _PRE_PRE,
)

_PERIODS: dict[str, Period] = {
    **dict.fromkeys(
        (
            "perannum",
            "pa",
            "peryear",
            "ayear",
            "annually",
            "peryr",
            "yr",
            "year",
            "annum",
            "everyyear",
            "eachyear",
            "yearly",
            "ayr",
        ),
        "year",
    ),
    **dict.fromkeys(
        (
            "permonth",
            "amonth",
            "monthly",
            "month",
            "mo",
            "everymonth",
            "eachmonth",
            "pm",
            "permo",
        ),
        "month",
    ),
    **dict.fromkeys(("perweek", "aweek", "weekly", "week", "wk", "everyweek", "eachweek"), "week"),
    **dict.fromkeys(("perday", "aday", "daily", "day", "everyday", "eachday"), "day"),
    **dict.fromkeys(("perhour", "anhour", "hourly", "hr", "hour", "everyhour"), "hour"),
}
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
        "cr.": 10_000_000,
        "l": 100_000,
    }.items()
}
_WORD_SCALE = {
    word: (Decimal(value), len(str(value)) - 1, word) for word, value in SCALE_WORDS.items()
}
_NO_SCALE = (_ONE, 0, None)
_INDIAN_SCALES = frozenset(("lakh", "lakhs", "lac", "lacs", "crore", "crores", "cr", "cr.", "l"))
_LPA = (Decimal(100_000), 5)
_CENT = (Decimal("0.01"), -2)
_NO_EXTRA = (_ONE, 0)


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
    "US dollar": "USD",
    "US dollars": "USD",
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
    """A money candidate."""
    return (
        start,
        end,
        MONEY_P,
        seq,
        money_fact(
            value=value,
            start=start,
            end=end,
            text=text[start:end],
            explicit=explicit,
            amount=amount,
            currency=currency,
            period=period,
            number_start=number_start,
            number_end=number_end,
            multiplier=multiplier,
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
    first = parse_number(n1)
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
        second = parse_number(n2)
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
            currency = _CURRENCY_OF.get(post) or _CURRENCY_OF[" ".join(post.split())]
            explicit = True
    facts: list[Candidate] = []
    for part_start, part_end, number_start, number_end, written, number, scale in parts:
        if currency is None:
            if scale[2] in _INDIAN_SCALES:
                currency = "INR"
            else:
                return
        amount = number * scale[0] * extra[0]
        value = f"{canonical(written, scale[1] + extra[1], amount, exact)} {currency}"
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
        if GROUPING.fullmatch(n1.partition(".")[0]) is None:
            return
        digits = n1.replace(",", "")
    else:
        digits = n1
    if len(n1) <= exact and n1.isascii():
        # the amount times the multipliers (1 and 1) is the same number when exact
        amount = Decimal(digits)
        value = plain(digits)
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


def _money_words_lower(
    text: str, low: str, candidates: list[Candidate], runs: frozenset[bytes] | None = None
) -> None:
    """_money_words on ``low``: from each currency word, the number words before it are
    matched backwards, on the reversed text (the longest run of them that starts at a word
    boundary, which is where the forward scan starts its match). With the text's letter
    ``runs``, a currency word that is none of them is not searched for (it is matched
    after a space and before a word boundary: a whole run)."""
    anchors = []
    for word in ("dollars", "bucks", "rupees"):
        if runs is not None and word.encode() not in runs:
            continue
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
        words_end = cur_start
        if low.startswith("us", cur_start - 3) and (cur_start < 4 or low[cur_start - 4] == " "):
            words_end = cur_start - 3  # five hundred US dollars
        found = _MONEY_WORDS_REVERSED.match(rev, size - words_end)
        if found is None or cur is None:
            continue
        start = size - found.end()
        if start < last_end:
            continue
        # the words end where the whitespace before the currency word starts
        matched = found.group()
        w_end = words_end - (len(matched) - len(matched.lstrip()))
        end = cur.end()
        cents = _CENTS.match(low, end)
        cents_text = None
        if cents is not None and cents.group("c") is not None:
            end = cents.end()
            cents_text = text[cents.start("c") : cents.end("c")]
        last_end = end
        _money_words_from(text, (start, w_end), cur.group(), end, cents_text, candidates)
