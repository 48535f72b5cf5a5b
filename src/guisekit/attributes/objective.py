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

The spaCy tokenizer and the VADER analyzer are built once per process, on first use.
Speed (``benchmarks/bench_attributes.py``): the sentencizer's rule runs over token
attribute arrays rather than Python token objects, with the abbreviation special cases
applied on those arrays (:func:`_tokenizer` says why); VADER's per-word work runs over all
sentences of a batch at once, and only lexicon words are scored one by one
(:mod:`guisekit.attributes.vader`); syllables are counted once per distinct word; a batch
is measured one measure at a time (:func:`_measure_batch`). Every value equals the plain
pipeline's (``tests/test_attributes_objective.py`` compares them on generated, bundled
and random texts).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, Literal

from guisekit.attributes.vader import abs_compounds
from guisekit.errors import InputError
from guisekit.resources import read_lines
from guisekit.rules.cues import style_cues
from guisekit.style import flesch_kincaid_grade

if TYPE_CHECKING:
    from spacy.tokenizer import Tokenizer

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
def _tokenizer() -> tuple[Tokenizer, list[int]]:
    """spaCy's blank English tokenizer and the token attributes read per text: IS_PUNCT,
    lexeme flags (ends a sentence; is a word; is an abbreviation stem such as "Rs"; is a
    full stop), IDX and LENGTH. Flags are set once per distinct word, in C on every later
    token.

    The abbreviations (``lexicons/attributes/abbreviations.txt``) are not added to the
    tokenizer as special cases: one special case that the tokenizer's affix rules would
    split makes spaCy run a phrase matcher over every text to merge the split pieces back
    (about 15% of tokenizing). Every abbreviation here splits into its stem and "." and
    the special case only merges those two tokens where no space stands between them, so
    :func:`_split` does the same on the flag arrays: such a "." does not end a sentence.
    An abbreviation that would split otherwise stays a special case.
    """
    import spacy
    from spacy.attrs import IDX, IS_PUNCT, LENGTH
    from spacy.pipeline import Sentencizer
    from spacy.symbols import ORTH

    nlp = spacy.blank("en")
    tokenizer: Any = nlp.tokenizer
    abbreviations = read_lines(ABBREVIATIONS)
    pieces = {a: [token.text for token in tokenizer(a)] for a in abbreviations}
    stems = frozenset(a[:-1] for a in abbreviations if pieces[a] == [a[:-1], "."])
    for abbreviation in abbreviations:
        if abbreviation[:-1] not in stems or not abbreviation.endswith("."):
            tokenizer.add_special_case(abbreviation, [{ORTH: abbreviation}])
    stops = frozenset(Sentencizer.default_punct_chars)
    ends_sentence = nlp.vocab.add_flag(lambda orth: orth in stops)
    is_word = nlp.vocab.add_flag(lambda orth: _WORDLIKE.search(orth) is not None)
    is_stem = nlp.vocab.add_flag(lambda orth: orth in stems)
    is_stop = nlp.vocab.add_flag(lambda orth: orth == ".")
    return tokenizer, [IS_PUNCT, ends_sentence, is_word, IDX, LENGTH, is_stem, is_stop]


def _split(text: str) -> list[tuple[str, int]]:
    """(sentence, words in it) for every sentence of ``text``.

    The sentences are those of spaCy's rule-based ``sentencizer`` on the tokenizer's
    output with the abbreviation special cases, computed over token attribute arrays
    instead of token objects: a sentence starts at the first token, and at every token
    that is neither punctuation nor a sentence-final mark with such a mark somewhere after
    the previous such token (the sentencizer's ``seen_period`` state). A "." right after
    an abbreviation stem is part of the abbreviation (see :func:`_tokenizer`), so it marks
    nothing; "Rs" counts one word as "Rs." does. ``tests/test_attributes_objective.py``
    checks the split against the spaCy pipeline itself.
    """
    import numpy as np

    tokenizer, attrs = _tokenizer()
    doc = tokenizer(text)
    n = len(doc)
    if n == 0:
        return []
    table = doc.to_array(attrs)
    stop = table[:, 1].astype(bool)
    ends = table[:, 3] + table[:, 4]
    abbreviated = table[:-1, 5].astype(bool) & table[1:, 6].astype(bool)
    abbreviated &= ends[:-1] == table[1:, 3]
    stop[1:] &= ~abbreviated
    content = np.flatnonzero(~(table[:, 0].astype(bool) | stop))
    stops_before = (np.cumsum(stop) - stop)[content]
    previous = np.concatenate(([0], stops_before[:-1]))
    starts = content[stops_before > previous]
    if not starts.size or starts[0] != 0:
        starts = np.concatenate(([0], starts))
    words = np.add.reduceat(table[:, 2], starts).tolist()
    last = [*(starts[1:] - 1).tolist(), n - 1]
    idx, end = table[:, 3].tolist(), ends.tolist()
    return [
        (text[idx[s] : end[e]], w) for s, e, w in zip(starts.tolist(), last, words, strict=True)
    ]


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` as the sentence-length measure sees them."""
    return [sentence for sentence, _ in _split(text)]


def _measure_batch(texts: Sequence[str]) -> list[ObjectiveAttributes]:
    """The measures of ``texts``, one measure at a time over the whole batch.

    Each measure walks its own tables (spaCy's vocabulary, VADER's lexicon, the
    pronunciation dictionary, the cue lexicons); running one over every text before the
    next keeps its tables in the CPU caches, which measuring text by text keeps evicting.
    """
    splits = [[(sentence, words) for sentence, words in _split(text) if words] for text in texts]
    compounds = iter(abs_compounds([sentence for split in splits for sentence, _ in split]))
    polarities = [sum(itertools.islice(compounds, len(split))) for split in splits]
    grades = [flesch_kincaid_grade(text) for text in texts]
    cue_rates = [style_cues(text) for text in texts]
    measured = []
    for split, polarity, grade, cues in zip(splits, polarities, grades, cue_rates, strict=True):
        n_sentences = len(split)
        n_words = sum(words for _, words in split)
        measured.append(
            ObjectiveAttributes(
                n_words=n_words,
                n_sentences=n_sentences,
                mean_sentence_length=n_words / n_sentences if n_sentences else 0.0,
                fk_grade=grade,
                vader_abs_compound=polarity / n_sentences if n_sentences else 0.0,
                hedge_density=cues.hedges,
                booster_density=cues.boosters,
                contraction_rate=cues.contractions,
                misspelling_rate=cues.misspellings,
                sophisticated_rate=cues.sophisticated,
                plain_rate=cues.plain,
                formal_marker_rate=cues.formal_markers,
                informal_marker_rate=cues.informal_markers,
            )
        )
    return measured


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
    return _measure_batch(list(_checked([text])))[0]


def objective_attributes_batch(
    texts: Iterable[str], *, batch_size: int = 256
) -> list[ObjectiveAttributes]:
    """Every objective measure of many texts, in input order.

    Every text is checked before any is measured: an empty or blank text raises
    :class:`~guisekit.errors.InputError` naming its position. Texts are measured
    ``batch_size`` at a time, each measure over the whole batch before the next (see
    :func:`_measure_batch`).
    """
    checked = list(_checked(texts))
    size = max(batch_size, 1)
    return [
        attributes
        for start in range(0, len(checked), size)
        for attributes in _measure_batch(checked[start : start + size])
    ]
