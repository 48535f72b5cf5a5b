"""The lists of the word kinds, and whether a text's context is Indian: approximators and
roles (bound to amounts by :mod:`.roles`), negators (:mod:`.negation`), names and
identifiers (:mod:`.entities`) read their lists from here, and :func:`date_reading` says
how a text's ambiguous numeric dates read.

Everything here is deterministic and offline, read from the lists in ``lexicons/facts/``:

- **approximators** (``approximators.tsv``, ``approximators_after.tsv``, their blockers)
  and **roles** (``roles.tsv``): see :mod:`.roles`;
- **negation**: each negator (``not``, ``never``, ``no``, ``n't`` ...) outside the hedges of
  ``negation_idioms.txt``, so ``did not`` <-> ``didn't`` is a style edit and an added
  ``never`` is not;
- **entities**: capitalised words and runs of them that are not sentence-initial and not
  forms of address, greetings or calendar words (``not_entities.txt``); the comparison
  looks them up in the other text in any case, so a lower-casing persona keeps them;
- **identifiers**: account, card and reference numbers (``123456789``, ``XXXX1234``,
  ``SR4456123``, ``card ending in 4321``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from guisekit.facts.scan import trie
from guisekit.resources import read_lines, read_table, read_yaml

__all__ = ["date_reading", "spelling_blind"]


def _style_words(sources: tuple[str, ...]) -> frozenset[str]:
    """Every word of the text cells of the rules engine's style lexicons, and each one's
    apostrophe-free form."""
    words: set[str] = set()
    for source in sources:
        if source.endswith(".yaml"):
            stack = [read_yaml(source)]
            while stack:
                item = stack.pop()
                if isinstance(item, dict):
                    # a key with an underscore names a setting ("only_before"), not words
                    stack += list(item.values()) + [k for k in item if "_" not in str(k)]
                elif isinstance(item, list):
                    stack += item
                elif isinstance(item, str):
                    words.update(_LETTERS.findall(item.lower()))
        else:
            for line in read_lines(source):
                words.update(_LETTERS.findall(line.lower()))
    # the rules engine's careless writers drop apostrophes ("Whod", "Theyll"): the bare
    # form of a known contraction is as little a name as the contraction
    bare = (w.replace("'", "").replace("’", "") for w in words if "'" in w or "’" in w)
    return frozenset(words).union(bare)


_LETTERS = re.compile(r"[a-z][a-z'’]*")
ROLES: dict[str, str] = {row[0]: row[1] for row in read_table("facts/roles.tsv", ("word", "role"))}
_APPROX: dict[str, str] = {
    row[0]: row[1] for row in read_table("facts/approximators.tsv", ("phrase", "class"))
}
_OVER_IS_MORE = frozenset(
    before
    for phrase, before in read_table("facts/approximator_blockers.tsv", ("phrase", "before"))
    if phrase == "over?"
)
_APPROX_AFTER = read_table("facts/approximators_after.tsv", ("phrase", "class"))
_BLOCKERS = frozenset(read_table("facts/approximator_blockers.tsv", ("phrase", "before")))
_APPROX_BY_LAST: dict[str, list[tuple[str, str]]] = {}
for _phrase, _cls in sorted(_APPROX.items(), key=lambda item: -len(item[0])):
    _APPROX_BY_LAST.setdefault(_phrase.rsplit(" ", 1)[-1], []).append((_phrase, _cls))
_APPROX_LAST = {phrase.rsplit(" ", 1)[-1] for phrase in _APPROX}
_NEGATORS = frozenset(read_lines("facts/negators.txt"))
_IDIOMS = read_lines("facts/negation_idioms.txt")
_NOT_ENTITIES = frozenset(w.lower() for w in read_lines("facts/not_entities.txt")) | (
    _style_words(read_lines("facts/style_word_sources.txt"))
)
_PLACES = read_lines("facts/indian_places.txt")
# Words that are no names at a sentence start either, where the capital letter says
# nothing: any other capitalised word there is read as a name (issue 14: "Priya from the
# bank called me" -> "Someone from the bank called me" drops a name).
_KNOWN_AT_START = _NOT_ENTITIES | _style_words(read_lines("facts/sentence_start_sources.txt"))
# The rules engine's misspellings, read back to the correct word: a careless-writing
# persona that writes "Servise" has not changed the name "Public Service Loan Forgiveness".
_CORRECT = {
    wrong: right for right, wrong in read_table("rules/misspellings.tsv", ("correct", "misspelled"))
}
_LOWER_WORD = re.compile(r"[a-z]+")


def spelling_blind(low: str) -> str:
    """Lower-cased text with the rules engine's misspellings corrected."""
    return _LOWER_WORD.sub(lambda m: _CORRECT.get(m.group(), m.group()), low)


# --- date reading ----------------------------------------------------------------------------

# Whether a text has Indian (or US) money: ₹, Rs 5, INR, lakh(s), lac(s), crore(s),
# 5 cr, LPA, CTC, each found from a literal (a match of the one scan of all of them,
# led by a class with "l" and "c" in it, was tried at nearly every tenth character),
# the \b before each word checked behind its literal.
_INDIAN = [
    ("₹", re.compile("₹")),
    ("Rs", re.compile(r"Rs(?<!\wRs)\.?\s?\d")),
    ("INR", re.compile(r"INR(?<!\wINR)\b")),
    ("akh", re.compile(r"akh(?<=[lL]akh)(?<!\w[lL]akh)s?\b")),
    ("ac", re.compile(r"ac(?<=[lL]ac)(?<!\w[lL]ac)s?\b")),
    ("rore", re.compile(r"rore(?<=[cC]rore)(?<!\w[cC]rore)s?\b")),
    ("cr", re.compile(r"cr(?:(?<=\dcr)|(?<=\d\scr))\b")),
    ("Cr", re.compile(r"Cr(?:(?<=\dCr)|(?<=\d\sCr))\b")),
    ("LPA", re.compile(r"LPA(?<!\wLPA)\b")),
    ("CTC", re.compile(r"CTC(?<!\wCTC)\b")),
]
_US_WORD = re.compile(r"[UdD](?:(?<=U)(?<!\w.)SD\b|(?<=[dD])(?<!\w.)ollars?\b)")  # USD, dollar(s)


def _place_scan(places: Sequence[str]) -> re.Pattern[str]:
    """Any of ``places`` as a whole word (``\bPLACE\b``; each starts and ends with a
    letter), as one scan led by the places' first letters."""
    if not all(place[:1].isalpha() and place[-1:].isalpha() for place in places):
        raise RuntimeError("facts/indian_places.txt: each place must start and end with a letter")
    by_first: dict[str, list[str]] = {}
    for place in places:
        by_first.setdefault(place[0], []).append(place[1:])
    return re.compile(
        "|".join(
            re.escape(first) + r"(?<!\w.)" + trie(rests) + r"\b"
            for first, rests in by_first.items()
        )
    )


_PLACE_SCAN = _place_scan(_PLACES)


def _indian(text: str) -> bool:
    return (
        any(literal in text and scan.search(text) for literal, scan in _INDIAN)
        or _PLACE_SCAN.search(text) is not None
    )


def date_reading(text: str, order: str) -> str:
    """How the text's ambiguous numeric dates read: ``mdy``, ``dmy`` or ``ambiguous``."""
    if order != "auto":
        return order
    indian = _indian(text)
    us = "$" in text or _US_WORD.search(text) is not None
    if indian and not us:
        return "dmy"
    if us and not indian:
        return "mdy"
    return "ambiguous"
