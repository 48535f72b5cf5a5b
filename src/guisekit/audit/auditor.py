"""LLM auditors: one prompt per pair and model, all sent through the one runner.

An :class:`LLMAuditor` turns a pair into a request (the ``audit/compare`` prompt with the
domain's wording) and an answer into an :class:`AuditOutcome`. :func:`audit_pairs` sends
every auditor's requests in a single runner call, so the auditors share one cache, one
concurrency budget and one set of rate limits, and the runner's connection pools are
opened and closed once per job. Every request ends with a status; none is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from guisekit.audit.domains import AuditDomain
from guisekit.audit.verdict import AuditVerdict
from guisekit.llm.loop import run_sync
from guisekit.llm.prompts import load_prompt
from guisekit.llm.refs import ModelRef
from guisekit.llm.runner import Executor, LLMRequest
from guisekit.llm.store import Answer
from guisekit.models import TokenUsage

__all__ = [
    "AUDIT_PROMPT",
    "AuditOutcome",
    "LLMAuditor",
    "OutcomeStatus",
    "aaudit_pairs",
    "audit_pairs",
]

AUDIT_PROMPT = "audit/compare"
OutcomeStatus = Literal["ok", "refused", "truncated", "error", "not_asked"]


class AuditOutcome(BaseModel):
    """One auditor's answer on one pair: the validated verdict, or why there is none.

    ``not_asked`` marks a pair that could not be audited (no original, an empty rewrite);
    ``error`` covers replies that stayed invalid after every re-ask.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    auditor: str
    status: OutcomeStatus
    verdict: AuditVerdict | None = None
    reason: str | None = None
    attempts: int = Field(default=0, ge=0)
    cached: bool = False
    usage: TokenUsage = TokenUsage()
    request_key: str | None = None

    @property
    def material(self) -> bool | None:
        """The auditor's binary flag, or None without a verdict."""
        return None if self.verdict is None else self.verdict.material


class LLMAuditor:
    """Compares texts through one chat model with the ``audit/compare`` prompt.

    The API key is checked on construction, so a missing key is a one-line error before
    any pair is read or any call is made.
    """

    def __init__(
        self, model: ModelRef, domain: AuditDomain, prompt_version: int | None = None
    ) -> None:
        model.api_key()
        self.model = model
        self.domain = domain
        self.template = load_prompt(AUDIT_PROMPT, prompt_version)
        self._domain_variables = domain.prompt_variables()

    @property
    def name(self) -> str:
        """The bank name (``openai:gpt-4o-mini``, with any non-default settings), which names
        the auditor in reports."""
        return self.model.bank

    @property
    def prompt_label(self) -> str:
        return f"{self.template.id}.{self.template.version_label}"

    def request(self, original: str, rewrite: str) -> LLMRequest:
        """The call that audits one pair (text A = original, text B = rewrite)."""
        prompt = self.template.render(original=original, rewrite=rewrite, **self._domain_variables)
        return LLMRequest(model=self.model, prompt=prompt)

    def outcome(self, answer: Answer) -> AuditOutcome:
        """The runner's answer as an outcome (the value was validated by the runner)."""
        verdict = (
            AuditVerdict.model_validate(answer.value)
            if answer.status == "ok" and answer.value is not None
            else None
        )
        status: OutcomeStatus = answer.status
        reason = answer.reason
        if status == "ok" and verdict is None:
            status, reason = "error", "the answer holds no verdict"
        return AuditOutcome(
            auditor=self.name,
            status=status,
            verdict=verdict,
            reason=reason,
            attempts=answer.attempts,
            cached=answer.cached,
            usage=answer.usage,
            request_key=answer.key,
        )

    def not_asked(self, reason: str) -> AuditOutcome:
        """The outcome of a pair this auditor was not asked about, and why."""
        return AuditOutcome(auditor=self.name, status="not_asked", reason=reason)


async def aaudit_pairs(
    auditors: Sequence[LLMAuditor],
    pairs: Sequence[tuple[str, str]],
    executor: Executor,
    on_answer: Callable[[Answer], None] | None = None,
) -> list[list[AuditOutcome]]:
    """Every auditor's outcome on every ``(original, rewrite)`` pair: one list per pair,
    in the order of ``auditors``. All requests go to ``executor`` in one call."""
    requests = [auditor.request(a, b) for a, b in pairs for auditor in auditors]
    answers = await executor.arun(requests, on_answer)
    width = len(auditors)
    return [
        [auditor.outcome(answers[i * width + j]) for j, auditor in enumerate(auditors)]
        for i in range(len(pairs))
    ]


def audit_pairs(
    auditors: Sequence[LLMAuditor],
    pairs: Sequence[tuple[str, str]],
    executor: Executor,
    on_answer: Callable[[Answer], None] | None = None,
) -> list[list[AuditOutcome]]:
    """Blocking :func:`aaudit_pairs`."""
    return run_sync(aaudit_pairs(auditors, pairs, executor, on_answer))
