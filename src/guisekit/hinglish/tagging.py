"""Word-level language tags (hi / en / other) for any Hinglish text, from any engine.

A word is ``other`` when it is part of a protected span (amounts, numbers, dates,
redaction tokens), a number, or a name (a capitalised word inside a sentence that is not
a Hindi word); ``hi`` when it is written in Devanagari or is a romanised Hindi word of the
lexicon; ``en`` otherwise. Words that are both (``main``, ``to``, ``is``, ``hi``) take the
majority tag of the two nearest unambiguous words on each side, ties going to Hindi: in
"main ek developer hoon" ``main`` is Hindi, in "the main reason" it is English.
"""

from __future__ import annotations

import re

from guisekit.hinglish.lexicon import HinglishLexicon, default_lexicon
from guisekit.hinglish.text import LanguageTag
from guisekit.rules.protect import protected_spans

__all__ = ["hindi_share", "tag_words", "word_spans"]

_LETTER = r"(?:[^\W\d_]|[\u0900-\u097F])"
_WORD = re.compile(rf"{_LETTER}+(?:['’-]{_LETTER}+)*|\d+(?:[.,:/-]\d+)*")
_DEVANAGARI = re.compile(r"[\u0900-\u097F]")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s*|\n\s*)[\"'“‘(]*$")
_WINDOW = 2


def word_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every word of ``text``, as the tagger splits it."""
    return [m.span() for m in _WORD.finditer(text)]


def _initial(text: str, start: int) -> bool:
    return _SENTENCE_START.search(text[max(0, start - 8) : start]) is not None


def tag_words(text: str, lexicon: HinglishLexicon | None = None) -> list[tuple[str, LanguageTag]]:
    """``(word, tag)`` for every word of ``text``, in order (punctuation left out)."""
    lex = lexicon or default_lexicon()
    spans = protected_spans(text)
    words = list(_WORD.finditer(text))
    tags: list[LanguageTag | None] = []
    for match in words:
        word, start = match.group(), match.start()
        low = word.lower()
        if word[0].isdigit() or any(a <= start < b for a, b in spans):
            tags.append("other")
        elif _DEVANAGARI.search(word):
            tags.append("hi")
        elif low in lex.ambiguous:
            tags.append(None)
        elif low in lex.hindi_vocabulary:
            tags.append("hi")
        elif word[0].isupper() and word != "I" and not _initial(text, start):
            tags.append("other")
        else:
            tags.append("en")
    resolved = [_resolve(tags, i) if tag is None else tag for i, tag in enumerate(tags)]
    return [(m.group(), tag) for m, tag in zip(words, resolved, strict=True)]


def _resolve(tags: list[LanguageTag | None], at: int) -> LanguageTag:
    votes: list[LanguageTag] = []
    for step in (-1, 1):
        found = 0
        i = at + step
        while 0 <= i < len(tags) and found < _WINDOW:
            tag = tags[i]
            if tag in ("hi", "en"):
                votes.append(tag)
                found += 1
            i += step
    hindi = votes.count("hi")
    return "hi" if hindi * 2 >= len(votes) and votes else "en"


def hindi_share(tags: list[tuple[str, LanguageTag]]) -> float:
    """Share of Hindi among the words tagged Hindi or English (0.0 when there are none)."""
    counted = [tag for _, tag in tags if tag != "other"]
    return round(counted.count("hi") / len(counted), 4) if counted else 0.0
