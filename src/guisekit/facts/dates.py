"""Date facts: numeric and written dates, bare years, relative dates and redaction tokens.

Conventions: ``2023-03-14``, ``2019-12`` (month/year), ``--03-14`` (no year),
``2019-XX-XX`` (partly redacted); ``XX/XX/XXXX`` is a redaction. Relative dates are kept as
lower-cased words, never resolved against today. A numeric date such as ``3/4/2024`` is
read by the date order (``mdy``, ``dmy``, or ``auto``: day-first in an Indian context,
month-first with a US one, and otherwise read month-first with the other reading kept, so
that the comparison can warn instead of guessing). Dotted dates (``14.03.2023``) are
day-first and ISO dates year-month-day whatever the order.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from guisekit.facts.build import (
    DATE_P,
    REDACTION_P,
    RELATIVE_P,
    YEAR_P,
    Candidate,
    date_fact,
    is_word_char,
    span_fact,
)
from guisekit.facts.scan import (
    _D_A,
    _D_D2,
    _D_DA,
    _D_GROUPS,
    _D_IY,
    _D_MM,
    _MONTH_NUMBER,
    _N_D1,
    _N_MON,
    _N_Y1,
    _N_Y3,
    _REDACTION_SCAN,
    _REL_AGO_REVERSED,
    _REL_DAY_AROUND,
    _REL_LITERAL,
    _RELATIVE,
)


def year_candidate(text: str, start: int, candidates: list[Candidate]) -> None:
    """A bare year at ``start`` (the scan has checked what surrounds it)."""
    end = start + 4
    year = text[start:end]
    candidates.append(
        (
            start,
            end,
            YEAR_P,
            len(candidates),
            date_fact(value=year, start=start, end=end, text=year, year=year, month=None, day=None),
        )
    )


def _two_digit(value: str) -> str:
    if len(value) == 2 and value.isdigit():
        return str((2000 if int(value) <= 40 else 1900) + int(value))
    return value


def date_match(
    text: str,
    candidates: list[Candidate],
    match: re.Match[str],
    source: str,
    start: int,
    end: int,
    order: Callable[[], str],
) -> None:
    """The fact of one date match, if it is a valid date. ``order()`` says how this text's
    numeric dates are read: ``mdy``, ``dmy`` or ``ambiguous`` (month-first, with the
    day-first reading kept as ``alt``)."""
    day: str | None
    alt: tuple[str, str] | None = None
    if source == "D":
        sep, b, y, db, dy, im, iday, my, m2, y2 = match.group(*_D_GROUPS)
        if sep is not None:
            month, day, year = text[start : match.end(_D_A)], b, _two_digit(y)
            if month != "XX" and day != "XX":
                first, second = int(month), int(day)
                if first > 12 >= second:
                    month, day = day, month
                elif first != second and first <= 12 and second <= 12:
                    reading = order()
                    if reading == "dmy":
                        month, day = day, month
                    elif reading == "ambiguous":
                        alt = (day.zfill(2), month.zfill(2))
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
                REDACTION_P,
                len(candidates),
                span_fact(kind="redaction", value=written, start=start, end=end, text=written),
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
            DATE_P,
            len(candidates),
            date_fact(
                value=value,
                start=start,
                end=end,
                text=written,
                year=year,
                month=month,
                day=day,
                alt=None if alt is None else f"{year}-{alt[0]}-{alt[1]}",
            ),
        )
    )


def relatives(text: str, candidates: list[Candidate]) -> None:
    for m in _RELATIVE.finditer(text):
        start, end = m.span()
        words = m.group()
        candidates.append(
            (
                start,
                end,
                RELATIVE_P,
                len(candidates),
                span_fact(
                    kind="relative_date",
                    value=" ".join(words.lower().split()),
                    start=start,
                    end=end,
                    text=words,
                ),
            )
        )


def relatives_lower(
    text: str, low: str, candidates: list[Candidate], runs: frozenset[bytes] | None = None
) -> None:
    """_relatives on ``low``: each alternative of _RELATIVE found from its literal start
    (or, for ``N days ago``, backwards from ``ago`` on the reversed text); they are tried
    in order of position, each skipped if it starts inside the previous one. With the
    text's letter ``runs`` (:func:`~guisekit.facts.scan.letter_runs`), a word that is
    not one of them is not searched for: each starts and ends a match at a word boundary,
    so it is a whole run of letters wherever it matches."""
    spans: list[tuple[int, int]] = []
    for word, pattern in _REL_LITERAL:
        if runs is not None and word.encode() not in runs:
            continue
        # each match starts with the word and contains no other occurrence of it, so
        # matching at each occurrence finds what scanning with the pattern finds
        start = low.find(word)
        while start >= 0:
            m = pattern.match(low, start)
            if m is not None and not (start and is_word_char(low[start - 1])):
                spans.append((start, m.end()))
            start = low.find(word, start + 1)
    if spans and ("yesterday" in low or "tomorrow" in low):
        for m in _REL_DAY_AROUND.finditer(low):
            start = m.start()
            if not (start and is_word_char(low[start - 1])):
                spans.append((start, m.end()))
    position = low.find("ago") if runs is None or b"ago" in runs else -1
    if position >= 0:
        rev = low[::-1]
        size = len(low)
        while position >= 0:
            end = position + 3
            if end == size or not is_word_char(low[end]):
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
                RELATIVE_P,
                len(candidates),
                span_fact(
                    kind="relative_date",
                    value=" ".join(words.lower().split()),
                    start=start,
                    end=end,
                    text=words,
                ),
            )
        )


def redactions(text: str, candidates: list[Candidate], x_dates: list[tuple[int, int]]) -> None:
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
                REDACTION_P,
                len(candidates),
                span_fact(kind="redaction", value="XXXX", start=start, end=end, text=m.group()),
            )
        )
