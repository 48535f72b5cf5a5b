"""What the runner works on: requests, settings, tallies, and the answers it builds.

Split from :mod:`guisekit.llm.runner` (which re-exports these names) so that the runner
module holds only the calling loop.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field

from guisekit.ids import stable_hash
from guisekit.llm.prompts import RenderedPrompt
from guisekit.llm.refs import ModelRef
from guisekit.llm.schemas import schema
from guisekit.llm.store import Answer
from guisekit.models import TokenUsage

__all__ = [
    "Check",
    "LLMRequest",
    "ModelTally",
    "Reask",
    "RunnerSettings",
    "add_usage",
    "elapsed_ms",
    "failed",
    "opening_messages",
    "reply_logprobs",
    "reply_tokens",
    "schema_json",
]


class RunnerSettings(BaseModel):
    """How hard to push the providers and how patient to be with them."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    concurrency: int = Field(
        default=16, ge=1, le=1024, description="Most calls in flight per server (the ceiling)."
    )
    adaptive: bool = Field(
        default=True,
        description="Start at start_concurrency and adapt to the server's latency (AIMD); "
        "false: always `concurrency` calls in flight.",
    )
    start_concurrency: int = Field(default=2, ge=1, le=1024)
    latency_slack_s: float = Field(
        default=0.5,
        ge=0,
        description="Latency growth below this is jitter, not a queue (adaptive pacing).",
    )
    max_retries: int = Field(default=6, ge=0, description="Retries of transient faults.")
    max_reasks: int = Field(default=2, ge=0, description="Re-asks after an invalid reply.")
    token_budget: int = Field(
        default=16_000, gt=0, description="Most tokens one request may spend across re-asks."
    )
    backoff_base_s: float = Field(default=0.5, gt=0)
    backoff_cap_s: float = Field(default=60.0, gt=0)
    limits_from_headers: bool = Field(
        default=False, description="Adopt the RPM limit a provider announces in its headers."
    )


Check = Callable[[dict[str, Any]], str | None]
"""A task-specific check of a validated answer: ``None`` when it holds, else the problem,
which is sent back to the model like a schema error (e.g. Devanagari in a Latin-only
Hinglish rewrite)."""


@dataclass(frozen=True)
class LLMRequest:
    """One rendered prompt for one model; ``sample`` tells apart k draws of the same prompt.

    ``check`` is not part of the key: it must be a pure function of the request, so a
    stored answer that passed it once passes it again.
    """

    model: ModelRef
    prompt: RenderedPrompt
    logprobs: bool = False
    sample: int = 0
    check: Check | None = field(default=None, compare=False)

    @functools.cached_property
    def key(self) -> str:
        """Hash of everything that decides the answer (never the API key)."""
        return "a-" + stable_hash(
            self.model.identity(),
            self.prompt,
            schema_json(self.prompt.output_schema),
            self.logprobs,
            self.sample,
            length=32,
        )

    @property
    def prompt_label(self) -> str:
        return f"{self.prompt.prompt_id}.v{self.prompt.version}"


@dataclass
class ModelTally:
    """Calls, cache hits, tokens and cost of one model in this process."""

    requests: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    outcomes: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Reask:
    """Ask again: ``append`` goes after the conversation so far (the invalid reply and
    the validation error), and ``max_tokens`` (when set) is the larger allowance for a
    reply that was cut at the token limit."""

    append: list[BaseMessage]
    max_tokens: int | None = None


@functools.cache
def schema_json(name: str) -> dict[str, Any]:
    """The JSON Schema of a named output schema (part of every key; computed once)."""
    return schema(name).model_json_schema()


def opening_messages(request: LLMRequest) -> list[BaseMessage]:
    """The rendered prompt as langchain messages."""
    return [
        SystemMessage(m.content) if m.role == "system" else HumanMessage(m.content)
        for m in request.prompt.messages
    ]


def failed(
    request: LLMRequest,
    reason: str,
    attempts: int,
    usage: TokenUsage,
    started: float,
    *,
    transient: bool = False,
    batch: bool = False,
) -> Answer:
    """An ``error`` answer; ``transient`` ones (no usable reply from the model: transport
    faults, rejected requests) are journalled but retried by a re-run."""
    return Answer(
        key=request.key,
        model=request.model.bank,
        prompt=request.prompt_label,
        status="error",
        reason=reason,
        attempts=attempts,
        usage=usage,
        transient=transient,
        elapsed_ms=elapsed_ms(started),
        batch=batch,
    )


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 3)


def reply_tokens(reply: AIMessage) -> tuple[int, int]:
    meta = reply.usage_metadata
    if meta is None:
        return 0, 0
    return int(meta.get("input_tokens", 0)), int(meta.get("output_tokens", 0))


def add_usage(usage: TokenUsage, reply: AIMessage) -> TokenUsage:
    spent = reply_tokens(reply)
    return TokenUsage(
        input_tokens=usage.input_tokens + spent[0], output_tokens=usage.output_tokens + spent[1]
    )


def reply_logprobs(reply: AIMessage) -> list[dict[str, Any]] | None:
    found = reply.response_metadata.get("logprobs")
    if isinstance(found, dict):
        content = found.get("content")
        return list(content) if isinstance(content, list) else None
    return None
