"""LLM-scored attributes: each (text, attribute) pair rated low / medium / high by a model
through the shared runner (cached, paced, retried, validated), then scored in [0, 1].

The method is chosen per score, best first: the level token's log-probabilities where the
provider returns them (OpenAI and OpenAI-compatible servers); else ``samples`` answers at
the model's temperature; else the single answer. The method used is recorded with every
score, so a table never mixes them silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from guisekit.attributes.scoring import (
    AttributeScore,
    answer_alternatives,
    score_from_logprobs,
    score_from_samples,
    score_from_single,
)
from guisekit.attributes.sets import AttributeSet
from guisekit.errors import InputError
from guisekit.llm.loop import run_sync
from guisekit.llm.prompts import load_prompt
from guisekit.llm.refs import ModelRef
from guisekit.llm.runner import Executor, LLMRequest
from guisekit.llm.store import Answer, AnswerStatus

__all__ = ["LLMAttributeScore", "ascore_llm_attributes", "score_llm_attributes"]

PROMPT = "attribute/score"


class LLMAttributeScore(BaseModel):
    """One text's score on one attribute, or why there is none."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    attribute: str
    score: AttributeScore | None
    reason: str | None = None
    status: AnswerStatus = "ok"


def _requests(
    text: str, attributes: AttributeSet, model: ModelRef, samples: int, logprobs: bool
) -> list[list[LLMRequest]]:
    template = load_prompt(PROMPT)
    per_attribute = []
    for attribute in attributes.attributes:
        prompt = template.render(
            text=text,
            set_description=attributes.description,
            attribute=attribute.name.replace("_", " "),
            property=attribute.property,
            low=attribute.levels.low,
            medium=attribute.levels.medium,
            high=attribute.levels.high,
        )
        draws = 1 if logprobs else samples
        per_attribute.append(
            [
                LLMRequest(model=model, prompt=prompt, logprobs=logprobs, sample=i)
                for i in range(draws)
            ]
        )
    return per_attribute


def _positions(logprobs: list[dict[str, Any]]) -> list[tuple[str, list[tuple[str, float]]]]:
    return [
        (
            str(position.get("token", "")),
            [
                (str(alt["token"]), float(alt["logprob"]))
                for alt in position.get("top_logprobs") or []
            ],
        )
        for position in logprobs
    ]


def _score(answers: Sequence[Answer], attributes: AttributeSet, name: str) -> LLMAttributeScore:
    labels = attributes.answer_labels
    usable = [a for a in answers if a.status == "ok" and a.value is not None]
    if not usable:
        reason = answers[0].reason or answers[0].status
        return LLMAttributeScore(
            attribute=name, score=None, reason=reason, status=answers[0].status
        )
    first = usable[0]
    try:
        if first.logprobs:
            try:
                alternatives = answer_alternatives(_positions(first.logprobs), labels)
                return LLMAttributeScore(
                    attribute=name, score=score_from_logprobs(alternatives, labels)
                )
            except InputError:
                pass  # the level token was not found: fall back to the answer itself
        levels = [str((a.value or {}).get("level", "")) for a in usable]
        if len(levels) > 1:
            return LLMAttributeScore(attribute=name, score=score_from_samples(levels, labels))
        return LLMAttributeScore(attribute=name, score=score_from_single(levels[0], labels))
    except InputError as exc:
        return LLMAttributeScore(attribute=name, score=None, reason=exc.one_line(), status="error")


async def ascore_llm_attributes(
    texts: Sequence[str],
    attributes: AttributeSet,
    executor: Executor,
    model: ModelRef,
    *,
    samples: int = 1,
) -> list[list[LLMAttributeScore]]:
    """Every text scored on every attribute of the set (texts x attributes, in order)."""
    logprobs = model.provider != "anthropic"
    grouped = [_requests(text, attributes, model, samples, logprobs) for text in texts]
    flat = [r for per_text in grouped for per_attribute in per_text for r in per_attribute]
    answers = {a.key: a for a in await executor.arun(flat)}
    return [
        [
            _score([answers[r.key] for r in per_attribute], attributes, attribute.name)
            for attribute, per_attribute in zip(attributes.attributes, per_text, strict=True)
        ]
        for per_text in grouped
    ]


def score_llm_attributes(
    texts: Sequence[str],
    attributes: AttributeSet,
    executor: Executor,
    model: ModelRef,
    *,
    samples: int = 1,
) -> list[list[LLMAttributeScore]]:
    """Blocking :func:`ascore_llm_attributes`."""
    return run_sync(ascore_llm_attributes(texts, attributes, executor, model, samples=samples))
