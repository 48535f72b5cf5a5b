"""Ages as quantities: ``I am 24.``, ``she's twenty``, ``aged 30``, ``at the age of 24``,
``a 24-year-old``, ``meri age 24 hai`` are all the quantity ``24 year``.

A bare age names no unit, so without this module ``I am 24.`` had no fact: a changed age
passed the exact check, and a Hinglish rewrite that writes the unit (``Meri age 24 saal
hai.``, issue 20) failed it with "quantity added". ``24 years old`` and ``24 saal`` are
already quantities (:mod:`.quantities`, ``units.tsv``); this module gives the unit-less
frames the same value, so every spelling of one age compares equal and a different age
fails.

The frames are data (``lexicons/facts/age_frames.tsv``, ``age_clause_ends.txt``). Most
texts have no frame, so the search is literal-first: each phrase is found with
``str.find`` and a short pattern is matched only after it (no regex is run over a text
that has none). A phrase is matched with single spaces between its words, as written.
"""

from __future__ import annotations

import re
from decimal import Decimal

from guisekit.facts.build import Candidate
from guisekit.facts.numbers import parse_words
from guisekit.facts.quantities import _WORD_RUN, UNITS, _quantity
from guisekit.facts.scan import trie
from guisekit.resources import read_lines, read_table

__all__ = ["ages"]

_FRAMES: dict[str, str] = {
    row[0]: row[1] for row in read_table("facts/age_frames.tsv", ("phrase", "frame"))
}
# each phrase as written and with a curly apostrophe ("I’m 24"), and whether it is a
# "clause" frame
_PHRASES: dict[str, bool] = {
    variant: frame == "clause"
    for phrase, frame in _FRAMES.items()
    for variant in (phrase, phrase.replace("'", "’"))
}
# The phrases searched for (those that contain no other phrase), each with the phrases
# that contain it, its offset in them and their frame: "age" finds "aged", "age of" and
# "age" itself, "he is" finds "she is". One str.find scan per anchor is the whole cost
# on a text that has no age.
_ANCHORS: dict[str, list[tuple[str, int, bool]]] = {
    anchor: [
        (phrase, phrase.find(anchor), clause)
        for phrase, clause in _PHRASES.items()
        if anchor in phrase
    ]
    for anchor in _PHRASES
    if not any(other != anchor and other in anchor for other in _PHRASES)
}
_ASCII_ANCHORS = {anchor: found for anchor, found in _ANCHORS.items() if anchor.isascii()}
# The letter runs of each anchor's phrases (see ages(): a phrase is found only where all
# of its runs are runs of the text).
_PHRASE_RUNS = {
    anchor: [frozenset(re.findall(rb"[a-z]+", phrase.encode())) for phrase, _, _ in found]
    for anchor, found in _ANCHORS.items()
}
_ENDS = trie(read_lines("facts/age_clause_ends.txt")).replace("\\ ", r"\s+")
# The number after a phrase: 1-2 digits standing alone, or number words.
_NUMBER = rf"\s+(?:(?P<d>\d{{1,2}})(?!\d|[.,/:-]\d)|(?P<w>{_WORD_RUN})(?![a-z-]))"
# "clause": the number ends its clause (punctuation not inside a number, a line end, the
# end of the text, or a word of age_clause_ends.txt).
_CLAUSE = re.compile(rf"{_NUMBER}(?=[ \t]*(?:[.,;:!?)](?!\d)|\n|$)|\s+(?:{_ENDS})\b)")
# "free": anything but a percentage or a unit (which quantities.py reads) may follow.
_FREE = re.compile(rf"{_NUMBER}(?!\s*(?:%|percent\b|per\s+cent\b))(?!\s+(?:{trie(UNITS)})\b)")
# "24-year-old", "twenty-four-year-old", "5-yr-old" ("24 years old" is a quantity already)
_HYPHENATED = re.compile(
    rf"(?<![\w.,/:$₹#-])(?:(?P<d>\d{{1,3}})|(?P<w>{_WORD_RUN}))-(?:years?|yrs?)-old\b"
)
_OLDEST = 130


def ages(
    text: str, low: str, candidates: list[Candidate], runs: frozenset[bytes] | None = None
) -> None:
    """Append the quantity ``N year`` of each age frame of ``low`` (``text`` lower-cased,
    one character for one) to ``candidates``; the span is the number (the whole
    ``24-year-old``).

    With the text's letter ``runs`` (:func:`~guisekit.facts.scan.letter_runs`), an
    anchor none of whose phrases has all its letter runs in the text is not searched
    for: a phrase is matched after no letter and before a space, so each of its runs is
    a whole run of the text."""
    seen: set[int] = set()
    for anchor, phrases in (_ASCII_ANCHORS if low.isascii() else _ANCHORS).items():
        if runs is not None and not any(words <= runs for words in _PHRASE_RUNS[anchor]):
            continue
        position = low.find(anchor)
        while position >= 0:
            for phrase, offset, clause in phrases:
                start = position - offset
                if start < 0 or not low.startswith(phrase, start):
                    continue
                if start and (low[start - 1].isalnum() or low[start - 1] in "'’"):
                    continue
                match = (_CLAUSE if clause else _FREE).match(low, start + len(phrase))
                if match is not None:
                    group = "d" if match.start("d") >= 0 else "w"
                    number_start, number_end = match.span(group)
                    if number_start not in seen:
                        seen.add(number_start)
                        _age(text, candidates, number_start, number_end, match.group(group))
            position = low.find(anchor, position + len(anchor))
    if "-old" in low:
        for match in _HYPHENATED.finditer(low):
            group = "d" if match.start("d") >= 0 else "w"
            _age(text, candidates, match.start(), match.end(), match.group(group))


def _age(text: str, candidates: list[Candidate], start: int, end: int, number: str) -> None:
    years = int(number) if number.isdigit() else parse_words(number)
    if years is None or not 0 < years <= _OLDEST:
        return
    _quantity(text, candidates, start, end, Decimal(years), "year")
