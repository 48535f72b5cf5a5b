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
- for every lexicon word it lower-cases the whole word list four times and scans its list
  of negation words: the subclass in :func:`_analyzer` reads one lower-cased list and
  tests a set instead;
- it strips punctuation from every token in a Python call and counts ALL-CAPS words in a
  Python loop: the stripping is memoised per distinct token and the rest runs in C
  (``map`` over all words, lexicon membership included);
- it computes the positive/negative/neutral proportions, which the compound does not use.

:func:`abs_compounds` does the per-word work for many sentences at once (a text's or a
batch's): a sentence with no lexicon word scores 0 without a Python step per word. A
sentence with an emoji goes through ``polarity_scores`` itself.
``tests/test_attributes_objective.py`` checks equality with the library on generated and
bundled texts.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

__all__ = ["abs_compound", "abs_compounds"]


class _Words(list[str]):
    """VADER's word list with its lower-case forms computed once (VADER lower-cases the
    whole list again for every check of every lexicon word)."""

    lowered: list[str]


@functools.cache
def _analyzer() -> SentimentIntensityAnalyzer:
    """The library's analyzer with its two whole-list checks reading ``_Words.lowered``.

    The overrides are the library's ``_negation_check`` and ``_special_idioms_check``
    (vaderSentiment 3.3.2) line for line, except that the lower-cased list is taken from
    the words when they carry it and ``negated([w])`` is a set test: for one word it is
    "in NEGATE or contains n't", which the library finds by scanning NEGATE.
    """
    from vaderSentiment.vaderSentiment import (
        BOOSTER_DICT,
        N_SCALAR,
        NEGATE,
        SPECIAL_CASES,
        SentimentIntensityAnalyzer,
    )

    negate = frozenset(NEGATE)

    def negated(word: str) -> bool:
        return word in negate or "n't" in word

    def lowered(words: list[str]) -> list[str]:
        found: list[str] | None = getattr(words, "lowered", None)
        return found if found is not None else [str(w).lower() for w in words]

    class Analyzer(SentimentIntensityAnalyzer):  # type: ignore[misc]
        @staticmethod
        def _negation_check(valence: float, words: list[str], start_i: int, i: int) -> float:
            low = lowered(words)
            if start_i == 0 and negated(low[i - (start_i + 1)]):
                valence = valence * N_SCALAR
            if start_i == 1:
                if low[i - 2] == "never" and (low[i - 1] == "so" or low[i - 1] == "this"):
                    valence = valence * 1.25
                elif low[i - 2] == "without" and low[i - 1] == "doubt":
                    valence = valence
                elif negated(low[i - (start_i + 1)]):
                    valence = valence * N_SCALAR
            if start_i == 2:
                if (low[i - 3] == "never" and (low[i - 2] == "so" or low[i - 2] == "this")) or (
                    low[i - 1] == "so" or low[i - 1] == "this"
                ):
                    valence = valence * 1.25
                elif low[i - 3] == "without" and (low[i - 2] == "doubt" or low[i - 1] == "doubt"):
                    valence = valence
                elif negated(low[i - (start_i + 1)]):
                    valence = valence * N_SCALAR
            return valence

        @staticmethod
        def _special_idioms_check(valence: float, words: list[str], i: int) -> float:
            low = lowered(words)
            onezero = f"{low[i - 1]} {low[i]}"
            twoonezero = f"{low[i - 2]} {low[i - 1]} {low[i]}"
            twoone = f"{low[i - 2]} {low[i - 1]}"
            threetwoone = f"{low[i - 3]} {low[i - 2]} {low[i - 1]}"
            threetwo = f"{low[i - 3]} {low[i - 2]}"
            for seq in (onezero, twoonezero, twoone, threetwoone, threetwo):
                if seq in SPECIAL_CASES:
                    valence = SPECIAL_CASES[seq]
                    break
            if len(low) - 1 > i:
                zeroone = f"{low[i]} {low[i + 1]}"
                if zeroone in SPECIAL_CASES:
                    valence = SPECIAL_CASES[zeroone]
            if len(low) - 1 > i + 1:
                zeroonetwo = f"{low[i]} {low[i + 1]} {low[i + 2]}"
                if zeroonetwo in SPECIAL_CASES:
                    valence = SPECIAL_CASES[zeroonetwo]
            for n_gram in (threetwoone, threetwo, twoone):
                if n_gram in BOOSTER_DICT:
                    valence = valence + BOOSTER_DICT[n_gram]
            return valence

    return Analyzer()


@functools.cache
def _tables() -> tuple[dict[str, float], frozenset[str], frozenset[str]]:
    """VADER's lexicon, the booster words it skips, and the characters it treats as emoji."""
    from vaderSentiment.vaderSentiment import BOOSTER_DICT

    analyzer = _analyzer()
    emoji = frozenset(key for key in analyzer.emojis if len(key) == 1)
    return analyzer.lexicon, frozenset(BOOSTER_DICT), emoji


@functools.cache
def _strip() -> Callable[[str], str]:
    """VADER's ``SentiText._strip_punc_if_word``, memoised per distinct token: tokens
    repeat across sentences and texts, so most lookups skip the Python call."""
    from vaderSentiment.vaderSentiment import SentiText

    return functools.lru_cache(maxsize=1 << 16)(SentiText._strip_punc_if_word)


def abs_compound(sentence: str) -> float:
    """|compound| of ``sentence`` exactly as ``polarity_scores(sentence)["compound"]``."""
    return abs_compounds([sentence])[0]


def abs_compounds(sentences: Sequence[str]) -> list[float]:
    """:func:`abs_compound` of every sentence, the per-word work done for all at once.

    Without emoji, VADER's text is the sentence stripped, and its words are the
    whitespace tokens with surrounding punctuation stripped (kept when two characters or
    fewer would be left: emoticons). Splitting the sentences joined by a space gives every
    sentence's tokens in turn, so the stripping, lower-casing and lexicon test run over
    all words in C, and only a sentence holding a lexicon word is scored word by word.
    """
    lexicon, _, emoji = _tables()
    counts = list(map(len, map(str.split, sentences)))
    words = list(map(_strip(), " ".join(sentences).split()))
    lows = list(map(str.lower, words))
    lexical = list(map(lexicon.__contains__, lows))
    scores = []
    start = 0
    for sentence, count in zip(sentences, counts, strict=True):
        end = start + count
        if not sentence.isascii() and not emoji.isdisjoint(sentence):
            scores.append(abs(float(_analyzer().polarity_scores(sentence)["compound"])))
        elif True in lexical[start:end]:
            scores.append(_scored(sentence, words[start:end], lows[start:end], lexical[start:end]))
        else:
            scores.append(0.0)  # no word has a valence: VADER's sum is 0
        start = end
    return scores


def _scored(sentence: str, tokens: list[str], lows: list[str], lexical: list[bool]) -> float:
    """|compound| of a sentence without emoji, from its VADER words, their lower case and
    whether each is in the lexicon (one at least is)."""
    from vaderSentiment.vaderSentiment import SentiText, normalize

    _, boosters, _ = _tables()
    last = len(tokens) - 1
    scored = [
        i
        for i in itertools.compress(range(len(lows)), lexical)
        if lows[i] not in boosters and not (lows[i] == "kind" and i < last and lows[i + 1] == "of")
    ]
    if not scored:
        return 0.0
    words = _Words(tokens)
    words.lowered = lows
    # The SentiText VADER would build: its words and whether only some are ALL CAPS
    # (``allcap_differential``), without splitting and stripping the sentence again.
    sentitext = SentiText.__new__(SentiText)
    sentitext.text = sentence.strip()
    sentitext.words_and_emoticons = words
    upper = sum(map(str.isupper, words))
    sentitext.is_cap_diff = 0 < len(words) - upper < len(words)
    analyzer = _analyzer()
    # Every other word has valence 0, as VADER's loop gives it (``sentiment_valence``
    # only appends the valence of the word it is given, so each lexicon word is scored
    # alone into the list VADER would have built).
    sentiments: list[float] = [0] * len(words)
    for i in scored:
        (sentiments[i],) = analyzer.sentiment_valence(0, sentitext, words[i], i, [])
    if not any(sentiments):
        return 0.0
    if "but" in lows:  # otherwise VADER's "but" rule leaves every valence as it is
        sentiments = analyzer._but_check(words, sentiments)
    total = float(sum(sentiments))
    if total > 0:
        total += analyzer._punctuation_emphasis(sentence)
    elif total < 0:
        total -= analyzer._punctuation_emphasis(sentence)
    return abs(round(float(normalize(total)), 4))
