"""|VADER compound| of one sentence, equal to ``vaderSentiment`` 3.3.2 and faster.

``SentimentIntensityAnalyzer.polarity_scores`` spends most of its time on work whose
result is known in advance for the texts we measure:

- it rebuilds the sentence character by character to replace emoji, even when the
  sentence holds none (the common case): a set test finds that in C, and then the rebuilt
  text is just the sentence stripped;
- it calls ``sentiment_valence`` for every word, though a word outside the lexicon (or a
  booster, or "kind" before "of") always gets valence 0: only lexicon words are sent to the
  library's own ``sentiment_valence``, which keeps every rule (negation, caps, boosters,
  idioms, "least") exactly as VADER applies it;
- it computes the positive/negative/neutral proportions, which the compound does not use.

A sentence in plain ASCII with no lexicon word at all scores 0 without building VADER's
word list. Anything with an emoji goes through the library unchanged.
``tests/test_attributes_objective.py`` checks equality with the library on generated and
bundled texts.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

__all__ = ["abs_compound"]

# What VADER strips from a word before the lexicon lookup (string.punctuation).
_STRIP = "".join(chr(c) for c in range(33, 127) if not chr(c).isalnum())


@functools.cache
def _analyzer() -> SentimentIntensityAnalyzer:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer()


@functools.cache
def _tables() -> tuple[dict[str, float], frozenset[str], frozenset[str]]:
    """VADER's lexicon, the booster words it skips, and the characters it treats as emoji."""
    from vaderSentiment.vaderSentiment import BOOSTER_DICT

    analyzer = _analyzer()
    emoji = frozenset(key for key in analyzer.emojis if len(key) == 1)
    return analyzer.lexicon, frozenset(BOOSTER_DICT), emoji


def _no_lexicon_word(sentence: str, lexicon: dict[str, float]) -> bool:
    """Whether no word of an ASCII sentence, as VADER looks it up (lower-cased, with or
    without surrounding punctuation), is in the lexicon: then every valence is 0."""
    lowered = sentence.lower().split()
    return lexicon.keys().isdisjoint(lowered) and lexicon.keys().isdisjoint(
        [w.strip(_STRIP) for w in lowered]
    )


def abs_compound(sentence: str) -> float:
    """|compound| of ``sentence`` exactly as ``polarity_scores(sentence)["compound"]``."""
    from vaderSentiment.vaderSentiment import SentiText, normalize

    lexicon, boosters, emoji = _tables()
    if sentence.isascii():
        if _no_lexicon_word(sentence, lexicon):
            return 0.0
    elif not emoji.isdisjoint(sentence):
        return abs(float(_analyzer().polarity_scores(sentence)["compound"]))
    analyzer = _analyzer()
    text = sentence.strip()
    sentitext = SentiText(text)
    words = sentitext.words_and_emoticons
    last = len(words) - 1
    sentiments: list[float] = []
    for i, item in enumerate(words):
        low = item.lower()
        if (
            low not in lexicon
            or low in boosters
            or (low == "kind" and i < last and words[i + 1].lower() == "of")
        ):
            sentiments.append(0)
            continue
        sentiments = analyzer.sentiment_valence(0, sentitext, item, i, sentiments)
    if not sentiments:
        return 0.0
    if any(sentiments):
        sentiments = analyzer._but_check(words, sentiments)
    total = float(sum(sentiments))
    if total > 0:
        total += analyzer._punctuation_emphasis(text)
    elif total < 0:
        total -= analyzer._punctuation_emphasis(text)
    return abs(round(float(normalize(total)), 4))
