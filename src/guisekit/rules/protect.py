"""Protected spans: the parts of a text no style operator may touch.

Every fact the exact check extracts (money, dates, years, percentages, relative dates,
redaction tokens) plus any other number, account numbers, e-mails, URLs and quoted text
(double or single quotes).
Operators propose edits anywhere; the resolver drops those that overlap a protected span,
so protection holds whatever an operator does.
"""

from __future__ import annotations

import re

from guisekit.facts import extract_facts

__all__ = ["SINGLE_QUOTED", "protected_spans"]

# Each pattern starts with a literal or a character class, so the regex engine skips
# quickly to candidates; the rarer ones run only when their trigger character is present.
_NUMBER = re.compile(r"\d(?:[\d,./:()\-]*\d)?")  # amounts, account and phone numbers
_MASKED = re.compile(r"XX+\w*")  # XXXX, XXXX1234
_OPTIONAL = (
    ("@", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),  # e-mail
    ("http", re.compile(r"https?://\S+")),  # URL
    ("www.", re.compile(r"www\.\S+")),
    ('"', re.compile(r"\"[^\"\n]{1,400}\"")),  # quoted text
    ("“", re.compile(r"“[^”\n]{1,400}”")),
)


# A quotation in single quotes: an opening quote after a space or bracket (or at the
# start) before a letter, and a closing one after a letter or stop before a space, a
# stop or the end ("the technician 'will visit tomorrow' and ..."); an apostrophe inside
# a word ("won't") may stand inside it, one after a plural ("the customers' fees") alone
# opens nothing. Quoted words are someone's: "'did not take sufficient care'" -> "enough
# care" misquoted a letter (round 31 judgement, MEANING).
# The quote comes first (the look-behind after it), so the regex engine skips straight to
# quote marks instead of trying the look-behind at every character.
SINGLE_QUOTED = re.compile(
    r"['\u2018](?<![^\s(\[]['\u2018])[a-z0-9]"
    r"(?:[^'\u2018\u2019\n]|(?<=[a-z])['\u2019](?=[a-z]))*?"
    r"[a-z0-9.!?,]['\u2019](?=[\s.,;:!?)\]]|$)",
    re.IGNORECASE,
)


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Sorted, merged ``(start, end)`` spans that operators must leave byte-identical."""
    # Negators, names and quantities are facts too, but a style edit may respell them
    # ("dont" -> "do not", casing, "2 years" -> "2 saal"): the exact check compares them
    # spelling-blind, so they stay editable (their digits are still protected below).
    spans = [(f.start, f.end) for f in extract_facts(text, words=False)]
    spans += [m.span() for m in _NUMBER.finditer(text)]
    if "XX" in text:
        spans += [m.span() for m in _MASKED.finditer(text)]
    for trigger, pattern in _OPTIONAL:
        if trigger in text:
            spans += [m.span() for m in pattern.finditer(text)]
    if "'" in text or "\u2018" in text:
        spans += [m.span() for m in SINGLE_QUOTED.finditer(text)]
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
