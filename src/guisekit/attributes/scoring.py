"""From a scorer's answer to an attribute score in [0, 1]: pure functions, no model calls.

A scorer is asked which level (low, medium, high) an attribute takes in a text. The score
is the expected level value (low 0, medium 0.5, high 1) under the probabilities of the
three levels, which come from the best source available:

``logprobs``
    the token log-probabilities of the answer token (OpenAI-compatible providers): the
    probability mass of every alternative token that spells a level is summed per level
    and renormalised over the three levels;
``samples``
    the share of k sampled answers naming each level;
``single``
    one answer, which puts all the probability on its level.

The LLM engine makes the calls; these functions only turn what came back into a typed
:class:`AttributeScore` that records the method used.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.attributes.sets import LEVELS, AnswerLabels, LevelName
from guisekit.errors import InputError

__all__ = [
    "LEVEL_VALUES",
    "AttributeScore",
    "LevelProbabilities",
    "ScoreMethod",
    "answer_alternatives",
    "parse_level",
    "score_from_logprobs",
    "score_from_samples",
    "score_from_single",
]

ScoreMethod = Literal["logprobs", "samples", "single"]
LEVEL_VALUES: dict[LevelName, float] = {"low": 0.0, "medium": 0.5, "high": 1.0}
_DEFAULT_LABELS = AnswerLabels()
# Stripped around a label: whitespace, punctuation, quotes and the word-start markers some
# servers leave on raw tokens (GPT-2 "Ġ", SentencePiece "▁").
_STRIP = " \t\r\n.,;:!?\"'`*()[]{}<>ĠĊ▁"


class LevelProbabilities(BaseModel):
    """Probabilities of the three levels; they sum to one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    low: float = Field(ge=0.0, le=1.0)
    medium: float = Field(ge=0.0, le=1.0)
    high: float = Field(ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _sums_to_one(self) -> LevelProbabilities:
        total = self.low + self.medium + self.high
        if abs(total - 1.0) > 1e-9:
            raise ValueError(f"level probabilities sum to {total}, not 1")
        return self

    @property
    def expected(self) -> float:
        """Expected level value, in [0, 1]."""
        value = (
            LEVEL_VALUES["low"] * self.low
            + LEVEL_VALUES["medium"] * self.medium
            + LEVEL_VALUES["high"] * self.high
        )
        return min(1.0, max(0.0, value))


class AttributeScore(BaseModel):
    """One attribute's score for one text, with the method and evidence behind it.

    ``n`` counts what the levels were estimated from (matching alternative tokens, or
    answers that named a level); ``discarded`` counts alternatives or answers that named
    none; ``coverage`` is the share of probability mass (logprobs) or of answers
    (samples, single) that named a level, before renormalising.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    score: float = Field(ge=0.0, le=1.0)
    method: ScoreMethod
    probabilities: LevelProbabilities
    n: int = Field(ge=1)
    discarded: int = Field(ge=0)
    coverage: float = Field(ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _score_is_expected_level(self) -> AttributeScore:
        if abs(self.score - self.probabilities.expected) > 1e-12:
            raise ValueError("score differs from the expected level under the probabilities")
        return self


def _normalise(text: str) -> str:
    return text.strip(_STRIP).casefold()


def parse_level(answer: str, labels: AnswerLabels = _DEFAULT_LABELS) -> LevelName | None:
    """The level an answer names, or ``None``.

    The whole answer (case, whitespace and punctuation ignored) may be a label; otherwise
    the answer's words are searched and the level is returned only if exactly one level is
    named, so "not high but medium" counts as no answer rather than a guess.
    """
    lookup = labels.lookup()
    whole = _normalise(answer)
    if whole in lookup:
        return lookup[whole]
    named = {lookup[word] for word in map(_normalise, answer.split()) if word in lookup}
    return named.pop() if len(named) == 1 else None


def _score(
    mass: dict[LevelName, float], method: ScoreMethod, n: int, discarded: int, coverage: float
) -> AttributeScore:
    total = sum(mass.values())
    probabilities = LevelProbabilities(**{level: mass[level] / total for level in LEVELS})
    return AttributeScore(
        score=probabilities.expected,
        method=method,
        probabilities=probabilities,
        n=n,
        discarded=discarded,
        coverage=min(1.0, coverage),
    )


def score_from_logprobs(
    alternatives: Iterable[tuple[str, float]], labels: AnswerLabels = _DEFAULT_LABELS
) -> AttributeScore:
    """Score from the top alternative tokens at the answer position, as (token, logprob).

    Tokens that spell the same level (``"high"``, ``" High"``) add up; tokens naming no
    level are left out and the level masses are renormalised. Raises
    :class:`~guisekit.errors.InputError` when no alternative names a level.
    """
    lookup = labels.lookup()
    matched: list[tuple[LevelName, float]] = []
    discarded = 0
    for token, logprob in alternatives:
        level = lookup.get(_normalise(token))
        if level is None or math.isnan(logprob) or logprob == -math.inf:
            discarded += 1
        else:
            matched.append((level, logprob))
    if not matched:
        raise InputError(
            "no alternative token at the answer position names a level",
            hint="fall back to sampled or single answers for this attribute",
        )
    top = max(logprob for _, logprob in matched)
    mass: dict[LevelName, float] = dict.fromkeys(LEVELS, 0.0)
    for level, logprob in matched:
        mass[level] += math.exp(logprob - top)
    coverage = math.exp(top) * sum(mass.values())
    return _score(mass, "logprobs", len(matched), discarded, coverage)


def answer_alternatives(
    positions: Sequence[tuple[str, Sequence[tuple[str, float]]]],
    labels: AnswerLabels = _DEFAULT_LABELS,
) -> Sequence[tuple[str, float]]:
    """The alternatives at the answer token: the first position whose chosen token names a
    level, given ``(chosen token, [(alternative, logprob), ...])`` per generated token.

    Lets an answer such as ``"Level: high"`` be read at the token that carries the level.
    """
    lookup = labels.lookup()
    for chosen, alternatives in positions:
        if _normalise(chosen) in lookup:
            return alternatives
    raise InputError(
        "no generated token names a level",
        hint="fall back to sampled or single answers for this attribute",
    )


def score_from_samples(
    answers: Sequence[str], labels: AnswerLabels = _DEFAULT_LABELS
) -> AttributeScore:
    """Score from k sampled answers: each level's probability is its share of the answers
    that name a level. Raises :class:`~guisekit.errors.InputError` when none does."""
    levels = [parse_level(answer, labels) for answer in answers]
    named = [level for level in levels if level is not None]
    if not named:
        raise InputError(
            f"none of the {len(answers)} sampled answers names a level",
            hint="check the scorer prompt asks for low, medium or high",
        )
    mass: dict[LevelName, float] = {level: float(named.count(level)) for level in LEVELS}
    return _score(mass, "samples", len(named), len(answers) - len(named), len(named) / len(answers))


def score_from_single(answer: str, labels: AnswerLabels = _DEFAULT_LABELS) -> AttributeScore:
    """Score from one answer: 0, 0.5 or 1 for low, medium or high."""
    level = parse_level(answer, labels)
    if level is None:
        raise InputError(
            f"the answer {answer[:60]!r} names no level",
            hint="check the scorer prompt asks for low, medium or high",
        )
    mass: dict[LevelName, float] = {name: float(name == level) for name in LEVELS}
    return _score(mass, "single", 1, 0, 1.0)
