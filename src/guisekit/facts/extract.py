"""Extract typed facts from English text: money (US and Indian formats), percentages,
dates, bare years, relative dates and redaction tokens.

Written with :mod:`re` alone, on purpose: the surveyed libraries either miss Indian
formats (lakh, crore, LPA, 12,00,000), average ranges, or resolve dates against today.
Each family has one compiled pattern; candidates from all families are then resolved by
priority (money > date > percent > redaction > year > relative date) so that a span is
claimed by one fact only: the year in ``March 14, 2023`` is part of the date, the digits
in ``$2020`` are money.

Conventions (see ``tests/data/fact_extraction_cases.yaml`` for the full table):

- money ``AMOUNT CUR[/PERIOD]``: ``$1.2k`` -> ``1200 USD``; ``12-15 LPA`` -> two facts,
  ``1200000 INR/year`` and ``1500000 INR/year`` (ranges are never averaged);
- percent ``15%``, percentage points ``2 pp``;
- date ``2023-03-14``, ``2019-12`` (month/year), ``--03-14`` (no year), ``2019-XX-XX``
  (partly redacted); numeric dates are read month-first unless the first number is > 12;
- redaction ``XXXX`` per token, ``XX/XX/XXXX`` for a fully redacted date;
- relative dates are kept as lower-cased words, never resolved against today.
"""

from __future__ import annotations

import re
from decimal import Decimal

from guisekit.facts.model import Currency, Fact, Period, canonical_decimal
from guisekit.facts.numbers import SCALE_WORDS, parse_digits, parse_words

__all__ = ["extract_facts"]

_NUM = r"(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?(?!\d)"
_PRE = r"(?:US\$|(?<![A-Za-z])(?:USD|INR|Rs\.?)|₹|\$)"
_SCALE = (
    r"(?:(?P<{0}a>[kKmMbB]|mn|bn|cr)(?![A-Za-z])"
    r"|\s?(?P<{0}w>thousand|million|billion|lakhs?|lacs?|crores?)\b)"
)
_PERIOD = (
    r"(?P<per>per\s+annum|p\.\s?a\.?|per\s+year|a\s+year|annually|per\s+yr|/\s?(?:yr|year|annum)"
    r"|per\s+month|a\s+month|monthly|/\s?(?:month|mo)|per\s+hour|an\s+hour|hourly|/\s?(?:hr|hour))"
    r"(?![A-Za-z])(?!\s+ago)"
)
_MONEY = re.compile(
    rf"(?:(?P<pre>{_PRE})\s?|(?<![\w.,/:-]))(?P<n1>{_NUM}){_SCALE.format('s1')}?"
    rf"(?:\s?(?P<dash>-|–|—|to)\s?(?P<pre2>{_PRE})?\s?(?P<n2>{_NUM}){_SCALE.format('s2')}?)?"
    r"(?:\s?(?P<post>dollars?|bucks|USD|rupees?|INR|LPA|cents?)\b)?"
    rf"(?:\s?{_PERIOD})?"
)
_WORD_NUM = (
    r"(?:a|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|million|billion|lakhs?|crores?)"
)
_WORD_PHRASE = rf"{_WORD_NUM}(?:(?:\s+and\s+|[\s-]+){_WORD_NUM})*"
_MONEY_WORDS = re.compile(
    rf"\b(?P<w>{_WORD_PHRASE})\s+(?P<cur>dollars|bucks|rupees)\b"
    rf"(?:\s+and\s+(?P<c>{_WORD_PHRASE}|\d{{1,2}})\s+cents?\b)?",
    re.IGNORECASE,
)
_PERCENT = re.compile(
    rf"(?<![\w.,])(?P<n>{_NUM})\s?(?:(?P<pp>percentage\s+points?\b|pp\b)"
    r"|(?P<pct>%|percent\b|per\s?cent\b|pct\b))",
    re.IGNORECASE,
)
_MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)"
)
_YEAR4 = r"(?:19|20)\d{2}"
_DATE = re.compile(
    # 03/14/2023, 7/4/21, XX/XX/2019, XX/XX/XXXX, 14.03.2023
    r"(?<![\w/.-])(?P<a>\d{1,2}|XX)(?P<sep>[/-])(?P<b>\d{1,2}|XX)(?P=sep)(?P<y>\d{4}|\d{2}|XXXX)"
    r"(?![\w/]|[.-]\d)"
    r"|(?<![\w/.-])(?P<da>\d{1,2})\.(?P<db>\d{1,2})\.(?P<dy>\d{4})(?![\w/]|[.-]\d)"
    # 2023-03-14
    rf"|(?<![\w/.-])(?P<iy>{_YEAR4})-(?P<im>\d{{1,2}})-(?P<id>\d{{1,2}})(?![\w/]|[.-]\d)"
    # 12/2019
    rf"|(?<![\w/.-])(?P<mm>\d{{1,2}})/(?P<my>{_YEAR4})(?![\w/]|[.-]\d)"
    # March 14th, 2023 / Dec. 3, 2020 / March 14
    rf"|\b(?P<m1>{_MONTHS})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?![\w:])"
    rf"(?:,?\s+(?P<y1>{_YEAR4})(?!\d))?"
    # 14 March 2023 / 3rd of March
    rf"|\b(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{_MONTHS})\b\.?"
    rf"(?:,?\s+(?P<y2>{_YEAR4})(?!\d))?"
    # March 2023
    rf"|\b(?P<m3>{_MONTHS})\.?,?\s+(?P<y3>{_YEAR4})(?!\d)"
)
_REDACTION = re.compile(r"\bX{2,}\b")
_YEAR = re.compile(rf"(?<![\w$#.,/'’])(?P<y>{_YEAR4})(?![\w%]|[.,/]\d|\s?(?:%|percent\b))")
_YEAR_EXCLUDED_AFTER = re.compile(
    r"(?:ending(?:\s+(?:in|with))?|#|\bno\.?|\bnumber|\bform|\bsection|\bsec\.|\brule|\btitle"
    r"|\bchapter|\barticle|\bact|\bcode|\broom|\bsuite|\bunit|\bflight|\broute|\bmodel"
    r"|\bversion|\bv\.?|\bzip|\bpin|\bext\.?|\bapt\.?)\s*$",
    re.IGNORECASE,
)
_YEAR_BEFORE_DASH = re.compile(rf"(?<![\d-]){_YEAR4}-$")
_RELATIVE = re.compile(
    r"\b(?:the\s+day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday|today|tonight|tomorrow"
    r"|(?:last|next|this)\s+(?:week(?:end)?|month|year|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|morning|afternoon|evening|night|spring|summer|fall|autumn|winter)"
    r"|(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few"
    r"|several|a\s+couple\s+of)\s+(?:days?|weeks?|months?|years?)\s+ago)\b",
    re.IGNORECASE,
)
_MONTH_NUMBER = {
    name: number
    for number, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
         ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
         ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")],
        start=1,
    )
    for name in names
}
_LETTER_SCALE = {"k": 1_000, "m": 1_000_000, "mn": 1_000_000, "b": 1_000_000_000,
                 "bn": 1_000_000_000, "cr": 10_000_000}
_PERIODS: dict[str, Period] = {
    **dict.fromkeys(("perannum", "pa", "peryear", "ayear", "annually", "peryr", "yr", "year",
                     "annum"), "year"),
    **dict.fromkeys(("permonth", "amonth", "monthly", "month", "mo"), "month"),
    **dict.fromkeys(("perhour", "anhour", "hourly", "hr", "hour"), "hour"),
}
_PRIORITY = {"money": 0, "date": 1, "percent": 2, "redaction": 3, "year": 4, "relative_date": 5}


def extract_facts(text: str) -> list[Fact]:
    """All facts in ``text``, in order of appearance, with non-overlapping spans."""
    candidates: list[Fact] = []
    has_digits = any(ch.isdigit() for ch in text)
    if has_digits:
        candidates += _money(text)
        candidates += _percents(text)
        candidates += _years(text)
    if has_digits or "XX" in text:
        candidates += _dates(text)
    candidates += _money_words(text)
    if "XX" in text:
        candidates += _redactions(text)
    candidates += _relatives(text)
    return _resolve(candidates)


def _resolve(candidates: list[Fact]) -> list[Fact]:
    accepted: list[Fact] = []
    for fact in sorted(candidates, key=lambda f: (_PRIORITY[f.kind], f.start, f.start - f.end)):
        if all(fact.end <= other.start or fact.start >= other.end for other in accepted):
            accepted.append(fact)
    accepted.sort(key=lambda f: f.start)
    return accepted


# --- money ---------------------------------------------------------------------------------


def _scale(match: re.Match[str], group: str) -> tuple[Decimal, str | None]:
    letter, word = match.group(group + "a"), match.group(group + "w")
    if letter:
        return Decimal(_LETTER_SCALE[letter.lower()]), letter.lower()
    if word:
        return Decimal(SCALE_WORDS[word.lower()]), word.lower()
    return Decimal(1), None


def _currency_of(marker: str | None) -> Currency | None:
    if not marker:
        return None
    lowered = marker.lower()
    if lowered.startswith(("rs", "inr", "₹", "rupee")):
        return "INR"
    return "USD"


def _period_of(text: str | None) -> Period | None:
    if not text:
        return None
    return _PERIODS[re.sub(r"[\s./]", "", text.lower())]


def _money(text: str) -> list[Fact]:
    facts: list[Fact] = []
    for match in _MONEY.finditer(text):
        facts += _money_match(text, match)
    return facts


def _is_range(match: re.Match[str], first: Decimal) -> bool:
    """Whether ``A-B`` / ``A to B`` is one money range rather than an amount and a number.

    ``12-15 LPA`` and ``Rs 8 to 10 lakh`` share the unit written after the second number;
    ``$500-700`` is a range because the second number is larger; ``$500 - 3 days`` is not.
    """
    second = parse_digits(match.group("n2"))
    if second is None:
        return False
    if match.group("pre2") or match.group("s2a") or match.group("s2w") or match.group("post"):
        return True
    return match.group("dash") != "to" and second[0] > first


def _money_match(text: str, match: re.Match[str]) -> list[Fact]:
    first = parse_digits(match.group("n1"))
    if first is None:
        return []
    mult1, scale1 = _scale(match, "s1")
    mult2, scale2 = _scale(match, "s2")
    n1_end = max(match.end("n1"), match.end("s1a"), match.end("s1w"))
    pre, post, period = match.group("pre"), match.group("post"), match.group("per")
    if match.group("n2") is None:
        parts = [(match.start(), match.end(), "n1", mult1, scale1)]
    elif _is_range(match, first[0]):
        if scale1 is None:
            mult1, scale1 = mult2, scale2
        second_start = match.start("pre2") if match.group("pre2") else match.start("n2")
        parts = [(match.start(), n1_end, "n1", mult1, scale1),
                 (second_start, match.end(), "n2", mult2, scale2)]
        pre = pre or match.group("pre2")
    else:
        # An amount followed by an unrelated number: the tail is not part of the amount.
        parts, post, period = [(match.start(), n1_end, "n1", mult1, scale1)], None, None
    return _money_facts(text, match, parts, pre, post, period)


def _money_facts(
    text: str,
    match: re.Match[str],
    parts: list[tuple[int, int, str, Decimal, str | None]],
    pre: str | None,
    post: str | None,
    period_text: str | None,
) -> list[Fact]:
    post_lower = (post or "").lower()
    currency = _currency_of(pre) or (_currency_of(post) if post_lower not in ("lpa", "cents",
                                                                              "cent") else None)
    explicit = currency is not None or post_lower.startswith("cent")
    period = _period_of(period_text)
    extra = Decimal(1)
    if post_lower == "lpa":
        extra, period, currency = Decimal(100_000), "year", currency or "INR"
    elif post_lower.startswith("cent"):
        extra, currency = Decimal("0.01"), "USD"
    facts = []
    for start, end, group, mult, scale in parts:
        if currency is None:
            if scale in ("lakh", "lakhs", "lac", "lacs", "crore", "crores", "cr"):
                currency = "INR"
            else:
                return []
        parsed = parse_digits(match.group(group))
        if parsed is None:
            return []
        amount = parsed[0] * mult * extra
        value = f"{canonical_decimal(amount)} {currency}" + (f"/{period}" if period else "")
        facts.append(Fact(
            kind="money", value=value, start=start, end=end, text=text[start:end],
            explicit=explicit, amount=amount, currency=currency, period=period,
            number_start=match.start(group), number_end=match.end(group),
            multiplier=mult * extra,
        ))
    return facts


def _money_words(text: str) -> list[Fact]:
    facts = []
    for match in _MONEY_WORDS.finditer(text):
        whole = parse_words(match.group("w"))
        if not whole:
            continue
        cents_text = match.group("c")
        cents = 0
        if cents_text:
            cents = int(cents_text) if cents_text.isdigit() else (parse_words(cents_text) or 0)
        amount = Decimal(whole) + Decimal(cents) / 100
        currency: Currency = "INR" if match.group("cur").lower() == "rupees" else "USD"
        facts.append(Fact(
            kind="money", value=f"{canonical_decimal(amount)} {currency}",
            start=match.start(), end=match.end(), text=match.group(), amount=amount,
            currency=currency, number_start=match.start("w"), number_end=match.end("w"),
            multiplier=Decimal(1),
        ))
    return facts


# --- percentages ---------------------------------------------------------------------------


def _percents(text: str) -> list[Fact]:
    facts = []
    for match in _PERCENT.finditer(text):
        parsed = parse_digits(match.group("n"))
        if parsed is None:
            continue
        number = canonical_decimal(parsed[0])
        unit = "pp" if match.group("pp") else "percent"
        facts.append(Fact(
            kind="percent", value=f"{number} pp" if unit == "pp" else f"{number}%",
            start=match.start(), end=match.end(), text=match.group(), amount=parsed[0],
            unit=unit,
        ))
    return facts


# --- dates, years, relative dates, redactions ----------------------------------------------


def _two_digit(value: str) -> str:
    if len(value) == 2 and value.isdigit():
        return str((2000 if int(value) <= 40 else 1900) + int(value))
    return value


def _date_parts(match: re.Match[str]) -> tuple[str | None, str, str | None] | None:
    """(year, month, day) of a date match, 'XX' for redacted parts; None if invalid."""
    group = match.group
    day: str | None
    if group("a") is not None:
        month, day, year = group("a"), group("b"), _two_digit(group("y"))
        if month != "XX" and day != "XX" and int(month) > 12 >= int(day):
            month, day = day, month
    elif group("da") is not None:  # dotted dates are day-first: 14.03.2023
        day, month, year = group("da"), group("db"), group("dy")
    elif group("iy") is not None:
        year, month, day = group("iy"), group("im"), group("id")
    elif group("mm") is not None:
        year, month, day = group("my"), group("mm"), None
    else:
        month = str(_MONTH_NUMBER[(group("m1") or group("m2") or group("m3")).lower()])
        year = group("y1") or group("y2") or group("y3")
        day = group("d1") or group("d2")
    if month != "XX" and not 1 <= int(month) <= 12:
        return None
    if day is not None and day != "XX" and not 1 <= int(day) <= 31:
        return None
    return year, month.zfill(2), None if day is None else day.zfill(2)


def _dates(text: str) -> list[Fact]:
    facts = []
    for match in _DATE.finditer(text):
        parts = _date_parts(match)
        if parts is None:
            continue
        year, month, day = parts
        if year == "XXXX":
            facts.append(Fact(kind="redaction", value=match.group(), start=match.start(),
                              end=match.end(), text=match.group()))
            continue
        if year and month and day:
            value = f"{year}-{month}-{day}"
        elif year and month:
            value = f"{year}-{month}"
        else:
            value = f"--{month}-{day}"
        facts.append(Fact(kind="date", value=value, start=match.start(), end=match.end(),
                          text=match.group(), year=year, month=month, day=day))
    return facts


def _years(text: str) -> list[Fact]:
    facts = []
    for match in _YEAR.finditer(text):
        start = match.start()
        before = text[max(0, start - 24):start]
        if _YEAR_EXCLUDED_AFTER.search(before):
            continue
        if before.endswith("-") and not _YEAR_BEFORE_DASH.search(before):
            continue
        year = match.group("y")
        facts.append(Fact(kind="year", value=year, start=start, end=match.end(), text=year,
                          year=year))
    return facts


def _relatives(text: str) -> list[Fact]:
    return [
        Fact(kind="relative_date", value=" ".join(m.group().lower().split()), start=m.start(),
             end=m.end(), text=m.group())
        for m in _RELATIVE.finditer(text)
    ]


def _redactions(text: str) -> list[Fact]:
    return [
        Fact(kind="redaction", value="XXXX", start=m.start(), end=m.end(), text=m.group())
        for m in _REDACTION.finditer(text)
    ]
