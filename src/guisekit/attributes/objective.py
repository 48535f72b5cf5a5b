"""Objective style attributes: measured from the text alone, offline and deterministic.

Sentence length comes from a blank spaCy English pipeline with the rule-based
``sentencizer``, not from textstat's period splitting, which cuts ``$1,234.56`` and
``Rs. 5,00,000`` into extra sentences. The pipeline gets tokenizer special cases from
``lexicons/attributes/abbreviations.txt`` so currency and title abbreviations (``Rs.``,
``No.``, ``approx.``) stay inside their sentence. |VADER compound| is averaged over
sentences because the whole-text compound saturates towards +-1 on long texts. The cue
rates are the rules engine's own counters (:mod:`guisekit.rules.cues`), so they measure
exactly what its operators manipulate. The Flesch-Kincaid grade is textstat's, formula and
sentence count included, so it stays comparable with published grades (and with
``guisekit corpus`` summaries) rather than with ``mean_sentence_length``.

The spaCy pipeline and the VADER analyzer are built once per process, on first use.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, Literal

from guisekit.errors import InputError
from guisekit.resources import read_lines
from guisekit.rules.cues import style_cues
from guisekit.style import flesch_kincaid_grade

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

__all__ = [
    "OBJECTIVE_MEASURES",
    "ObjectiveAttributes",
    "ObjectiveMeasure",
    "objective_attributes",
    "objective_attributes_batch",
    "sentences",
]

ABBREVIATIONS = "attributes/abbreviations.txt"

ObjectiveMeasure = Literal[
    "n_words",
    "n_sentences",
    "mean_sentence_length",
    "fk_grade",
    "vader_abs_compound",
    "hedge_density",
    "booster_density",
    "contraction_rate",
    "misspelling_rate",
    "sophisticated_rate",
    "plain_rate",
    "formal_marker_rate",
    "informal_marker_rate",
]

# A token counts as a word when it holds a letter or digit: "$" and "." do not, "1,234.56"
# and "don't" do.
_WORDLIKE = re.compile(r"[^\W_]")


@dataclass(frozen=True, slots=True)
class ObjectiveAttributes:
    """The objective measures of one text; rates are per 100 words (rules-engine cues).

    ``mean_sentence_length`` is words per sentence over sentences that hold a word;
    ``vader_abs_compound`` is the mean over those sentences of |VADER compound| in [0, 1].
    """

    n_words: int
    n_sentences: int
    mean_sentence_length: float
    fk_grade: float
    vader_abs_compound: float
    hedge_density: float
    booster_density: float
    contraction_rate: float
    misspelling_rate: float
    sophisticated_rate: float
    plain_rate: float
    formal_marker_rate: float
    informal_marker_rate: float

    def as_dict(self) -> dict[str, float]:
        """Measure name -> value, in declaration order."""
        return asdict(self)


OBJECTIVE_MEASURES: tuple[str, ...] = tuple(f.name for f in fields(ObjectiveAttributes))


@functools.cache
def _pipeline() -> Language:
    import spacy
    from spacy.symbols import ORTH

    nlp = spacy.blank("en")
    tokenizer: Any = nlp.tokenizer
    for abbreviation in read_lines(ABBREVIATIONS):
        tokenizer.add_special_case(abbreviation, [{ORTH: abbreviation}])
    nlp.add_pipe("sentencizer")
    return nlp


@functools.cache
def _analyzer() -> SentimentIntensityAnalyzer:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer()


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` as the sentence-length measure sees them."""
    return [span.text for span in _pipeline()(text).sents]


@functools.cache
def _vader_words() -> frozenset[str]:
    """Every word VADER gives a valence: a sentence with none of them scores 0."""
    return frozenset(_analyzer().lexicon)


_STRIP = "".join(chr(c) for c in range(33, 127) if not chr(c).isalnum())


def _compound(sentence: str) -> float:
    """|VADER compound| of a sentence; 0 without calling VADER when no word of the
    sentence (lower-cased, punctuation stripped, as VADER sees it) is in its lexicon and
    the sentence is plain ASCII (no emoji to translate): VADER sums lexicon valences
    only, so such a sentence scores exactly 0."""
    if sentence.isascii():
        lexicon = _vader_words()
        tokens = sentence.split()
        if not any(
            t.lower() in lexicon or t.strip(_STRIP).lower() in lexicon or t in lexicon
            for t in tokens
        ):
            return 0.0
    return abs(float(_analyzer().polarity_scores(sentence)["compound"]))


def _measure(text: str, doc: Doc) -> ObjectiveAttributes:
    lengths: list[int] = []
    polarity = 0.0
    for span in doc.sents:
        words = sum(1 for token in span if _WORDLIKE.search(token.text))
        if words:
            lengths.append(words)
            polarity += _compound(span.text)
    n_words = sum(lengths)
    cues = style_cues(text)
    return ObjectiveAttributes(
        n_words=n_words,
        n_sentences=len(lengths),
        mean_sentence_length=n_words / len(lengths) if lengths else 0.0,
        fk_grade=flesch_kincaid_grade(text),
        vader_abs_compound=polarity / len(lengths) if lengths else 0.0,
        hedge_density=cues.hedges,
        booster_density=cues.boosters,
        contraction_rate=cues.contractions,
        misspelling_rate=cues.misspellings,
        sophisticated_rate=cues.sophisticated,
        plain_rate=cues.plain,
        formal_marker_rate=cues.formal_markers,
        informal_marker_rate=cues.informal_markers,
    )


def _checked(texts: Iterable[str]) -> Iterator[str]:
    for index, text in enumerate(texts):
        if not isinstance(text, str) or not text.strip():
            raise InputError(
                f"text {index} is empty; objective attributes need words to measure",
                hint="drop empty or failed variants before measuring",
            )
        yield text


def objective_attributes(text: str) -> ObjectiveAttributes:
    """Every objective measure of one text (see :func:`objective_attributes_batch`)."""
    (checked,) = _checked([text])
    return _measure(checked, _pipeline()(checked))


def objective_attributes_batch(
    texts: Iterable[str], *, batch_size: int = 256
) -> list[ObjectiveAttributes]:
    """Every objective measure of many texts, in input order.

    Texts go through spaCy's ``pipe`` in batches of ``batch_size``; an empty or blank text
    raises :class:`~guisekit.errors.InputError` naming its position.
    """
    items = list(_checked(texts))
    docs = _pipeline().pipe(items, batch_size=batch_size)
    return [_measure(text, doc) for text, doc in zip(items, docs, strict=True)]
