"""Decisions from any chat model through the shared cached runner.

The decision prompt (``prompts/decide/<task>.vN.yaml``) is rendered with the text and, for
labelled tasks, the label options in the order the option-order control chose. Replies
are validated (schema, then the label against the task's labels) and re-asked by the
runner. Label probabilities come, best first, from the label token's log-probabilities
(where the provider returns them), else from ``samples`` answers, else the single answer;
the method is recorded on every decision.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from guisekit.decide.model import Decision, DecisionItem, Method, finish
from guisekit.decide.tasks import DecisionTask
from guisekit.llm.prompts import load_prompt
from guisekit.llm.refs import ModelRef
from guisekit.llm.runner import Executor, LLMRequest
from guisekit.llm.schemas import register_schema
from guisekit.llm.store import Answer

__all__ = ["ChatDecisionModel", "LabelAnswer", "NumberAnswer", "label_probs_from_logprobs"]

# Logprob mass on the task's labels below this share of the answer position means the
# alternatives are mostly something else: the probabilities would be noise, fall back.
MIN_COVERAGE = 0.5


class LabelAnswer(BaseModel):
    """A labelled decision: one label from the options shown."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    label: str = Field(description="Exactly one of the option labels, spelled as given.")


class NumberAnswer(BaseModel):
    """A numeric decision: one number in the unit asked for."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    value: float = Field(description="One number, in the unit asked for.")


register_schema("decision_label.v1", LabelAnswer)
register_schema("decision_number.v1", NumberAnswer)
# The complaint-remedy prompts cite remedy.v1 / remedy_label.v1, registered on import.
importlib.import_module("guisekit.decision_answers")


def _clean(token: str) -> str:
    return token.strip().strip('"').strip()


def label_probs_from_logprobs(
    logprobs: Sequence[dict[str, Any]], chosen: str, labels: Sequence[str]
) -> dict[str, float] | None:
    """Label probabilities at the token where ``chosen`` starts, or None when that token
    or enough mass on the labels cannot be found.

    An alternative token counts for the label it spells exactly, else for the one label it
    is a prefix of (``"mon"`` for ``monetary``); ambiguous prefixes are left out.
    """
    tokens = [str(p.get("token", "")) for p in logprobs]
    for start, token in enumerate(tokens):
        piece = _clean(token)
        if not piece or not chosen.startswith(piece):
            continue
        if not _clean("".join(tokens[start:])).startswith(chosen):
            continue
        mass = dict.fromkeys(labels, 0.0)
        for alt in logprobs[start].get("top_logprobs") or []:
            text, logprob = _clean(str(alt.get("token", ""))), float(alt.get("logprob", -math.inf))
            target = _label_of_token(text, labels)
            if target is not None and math.isfinite(logprob):
                mass[target] += math.exp(logprob)
        total = sum(mass.values())
        if total < MIN_COVERAGE or mass.get(chosen, 0.0) == 0.0:
            return None
        return {n: m / total for n, m in mass.items()}
    return None


def _label_of_token(text: str, labels: Sequence[str]) -> str | None:
    """The label an answer token starts: an exact match; else the one label it is a prefix
    of at a word boundary (``no`` + ``_action``, not ``no`` + ``n_monetary``); else the
    one label it is a prefix of; else None (ambiguous or no label)."""
    if not text:
        return None
    if text in labels:
        return text
    prefixed = [n for n in labels if n.startswith(text)]
    bounded = [n for n in prefixed if not n[len(text)].isalnum()]
    if len(bounded) == 1:
        return bounded[0]
    return prefixed[0] if len(prefixed) == 1 else None


class ChatDecisionModel:
    """A chat model taking decisions through ``executor`` (the shared cached runner)."""

    def __init__(
        self,
        task: DecisionTask,
        model: ModelRef,
        executor: Executor,
        *,
        samples: int = 1,
        logprobs: bool | None = None,
        prompt_version: int | None = None,
    ) -> None:
        self.task = task
        self.model = model
        self.executor = executor
        self.samples = samples
        self.template = load_prompt(task.prompt, prompt_version)
        self.logprobs = (
            (model.provider != "anthropic" and task.kind == "labelled")
            if logprobs is None
            else logprobs
        )
        self.name = model.label
        self.method: Method = (
            "logprobs" if self.logprobs else ("samples" if samples > 1 else "single")
        )

    def identity(self) -> dict[str, Any]:
        return {
            "model": self.model.identity(),
            "prompt": f"{self.template.id}.v{self.template.version}",
            "samples": self.samples,
            "logprobs": self.logprobs,
        }

    def prompt_version(self) -> str:
        return f"{self.template.id}.v{self.template.version}"

    def _render(self, item: DecisionItem) -> Any:
        values = {"text": item.text, "options": list(item.options), "unit": self.task.unit}
        return self.template.render(
            **{k: v for k, v in values.items() if k in self.template.variables}
        )

    def _check(self, item: DecisionItem) -> Any:
        allowed = set(item.options)

        def check(value: dict[str, Any]) -> str | None:
            if self.task.kind == "labelled" and self._label(value) not in allowed:
                return f"label must be one of {', '.join(item.options)}"
            if self.task.kind == "numeric" and not self.task.in_range(
                float(value.get("value", math.nan))
            ):
                return f"value must lie between {self.task.minimum} and {self.task.maximum}"
            return None

        return check

    def _label(self, value: dict[str, Any]) -> str | None:
        """The label of a validated reply: its ``label``, or the label at its ``tier``."""
        if "label" in value:
            return str(value["label"])
        tier = value.get("tier")
        names = self.task.label_names()
        return names[tier] if isinstance(tier, int) and 0 <= tier < len(names) else None

    def requests(self, item: DecisionItem) -> list[LLMRequest]:
        prompt = self._render(item)
        draws = 1 if self.logprobs else self.samples
        return [
            LLMRequest(
                model=self.model,
                prompt=prompt,
                logprobs=self.logprobs,
                sample=item.repeat * draws + i,
                check=self._check(item),
            )
            for i in range(draws)
        ]

    def decide(self, items: Sequence[DecisionItem]) -> list[Decision]:
        from guisekit.llm.loop import run_sync

        grouped = [self.requests(item) for item in items]
        flat = [r for group in grouped for r in group]
        answers = {a.key: a for a in run_sync(self.executor.arun(flat))}
        return [self._decision([answers[r.key] for r in group]) for group in grouped]

    def _decision(self, answers: Sequence[Answer]) -> Decision:
        ok = [a for a in answers if a.status == "ok" and a.value is not None]
        if not ok:
            first = answers[0]
            status = "refused" if first.status == "refused" else "error"
            return Decision(status=status, method=self.method, reason=first.reason or first.status)
        if self.task.kind == "numeric":
            values = [float((a.value or {})["value"]) for a in ok]
            method: Method = "samples" if len(values) > 1 else "single"
            return finish(self.task, method, outcome=sum(values) / len(values), samples=len(values))
        labels = [str(self._label(a.value or {})) for a in ok]
        if self.logprobs and ok[0].logprobs:
            probs = label_probs_from_logprobs(ok[0].logprobs, labels[0], self.task.label_names())
            if probs is not None:
                return finish(self.task, "logprobs", label=labels[0], probs=probs)
        counts = {n: labels.count(n) / len(labels) for n in self.task.label_names()}
        method = "samples" if len(labels) > 1 else "single"
        return finish(
            self.task,
            method,
            label=max(counts, key=counts.__getitem__) if len(labels) > 1 else labels[0],
            probs=counts,
            samples=len(labels),
        )
