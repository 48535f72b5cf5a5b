"""Protected spans: the parts of a text no style operator may touch.

Every fact the exact check extracts (money, dates, years, percentages, relative dates,
redaction tokens) plus any other number, account numbers, e-mail addresses, URLs and
quoted text. Operators propose edits anywhere; the resolver drops those that overlap a
protected span, so protection holds whatever an operator does.
"""

from __future__ import annotations

import re

from guisekit.facts import extract_facts

__all__ = ["protected_spans"]

_OTHER = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # e-mail
    r"|(?:https?://|www\.)\S+"  # URL
    r"|\"[^\"\n]{1,400}\"|“[^”\n]{1,400}”"  # quoted text
    r"|[#*X]*\d[\d,./:()\-]*\d|\d"  # numbers, account/phone numbers
    r"|\bX{2,}\w*"  # masked account numbers (XXXX1234)
)


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Sorted, merged ``(start, end)`` spans that operators must leave byte-identical."""
    spans = [(f.start, f.end) for f in extract_facts(text)]
    spans += [m.span() for m in _OTHER.finditer(text)]
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
