"""The async runner every LLM call goes through: cached, paced, retried, validated, counted.

One :class:`LLMRunner` serves a whole job (every bank, auditor and attribute stage), so the
store, the per-model rate limits and the accounting are shared. For each request it

1. returns the stored answer if there is one (a finished job re-runs with zero calls);
2. waits for a concurrency slot and the model's RPM/TPM budget;
3. calls the chat model, retrying transient faults with jittered exponential backoff that
   honours Retry-After (a burst of 429s pauses every worker at once);
4. validates the reply against the prompt's schema, re-asking with the validation error
   within ``max_reasks`` and the token budget; a refusal is recorded as ``refused``;
5. commits the answer to the store before reporting it, so a killed run loses only the
   calls in flight.

Every request ends as an :class:`~guisekit.llm.store.Answer` with status ``ok``,
``refused`` or ``error`` (with a reason); none is dropped.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
)

from guisekit.ids import stable_hash
from guisekit.llm.answers import Parsed, is_refusal, parse_reply, reask_message, reply_text
from guisekit.llm.chat import ChatFactory, close_chat_model, make_chat_model
from guisekit.llm.faults import Fault, classify
from guisekit.llm.limits import Limiter
from guisekit.llm.loop import run_sync
from guisekit.llm.prompts import RenderedPrompt
from guisekit.llm.refs import ModelRef
from guisekit.llm.schemas import schema
from guisekit.llm.store import Answer, Store
from guisekit.models import TokenUsage

__all__ = [
    "Executor",
    "LLMRequest",
    "LLMRunner",
    "ModelTally",
    "RunnerSettings",
    "failed",
    "opening_messages",
]

OnAnswer = Callable[[Answer], None]


class Executor(Protocol):
    """What runs requests to answers: the online :class:`LLMRunner` or the batch runner."""

    store: Store
    tally: dict[str, ModelTally]

    async def arun(
        self, requests: Sequence[LLMRequest], on_answer: OnAnswer | None = None
    ) -> list[Answer]: ...


class RunnerSettings(BaseModel):
    """How hard to push the providers and how patient to be with them."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    concurrency: int = Field(default=16, ge=1, le=1024)
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
            _schema_json(self.prompt.output_schema),
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


class _Transient(Exception):
    """A transient fault, carried through tenacity so the wait can read Retry-After."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.detail)
        self.fault = fault


class LLMRunner:
    """Runs requests through the store, limits and retries; see the module docstring."""

    def __init__(
        self,
        store: Store,
        settings: RunnerSettings | None = None,
        chat_factory: ChatFactory = make_chat_model,
        *,
        seed: int = 0,
    ) -> None:
        self.store = store
        self.settings = settings or RunnerSettings()
        self._chat_factory = chat_factory
        # Connection pools belong to an event loop: one set per loop that runs jobs, closed
        # when that loop's last overlapping job ends.
        self._chats: dict[tuple[int, str, bool], BaseChatModel] = {}
        self._active: dict[int, int] = {}
        self._limiters: dict[str, Limiter] = {}
        self.tally: dict[str, ModelTally] = {}
        self._rng = random.Random(f"backoff:{seed}")

    def run(
        self, requests: Sequence[LLMRequest], on_answer: OnAnswer | None = None
    ) -> list[Answer]:
        """Blocking :meth:`arun`, for callers outside an event loop."""
        return run_sync(self.arun(requests, on_answer))

    async def arun(
        self, requests: Sequence[LLMRequest], on_answer: OnAnswer | None = None
    ) -> list[Answer]:
        """Answer every request, in order; identical requests are sent once."""
        unique, done = self.recall(requests, on_answer)
        todo = [r for key, r in unique.items() if key not in done]
        for request in todo:  # builds every client first: a missing key fails before any call
            self._chat(request.model, request.logprobs)
        queue: asyncio.Queue[LLMRequest] = asyncio.Queue()
        for request in todo:
            queue.put_nowait(request)

        async def worker() -> None:
            while not queue.empty():
                request = queue.get_nowait()
                answer = await self._answer(request)
                self.store.put(answer)
                done[request.key] = answer
                self.report(answer, on_answer)

        workers = min(self.settings.concurrency, len(todo))
        loop = id(asyncio.get_running_loop())
        self._active[loop] = self._active.get(loop, 0) + 1
        try:
            await asyncio.gather(*(worker() for _ in range(workers)))
        finally:
            self._active[loop] -= 1
            if self._active[loop] == 0:
                del self._active[loop]
                await self.aclose()
        return [done[r.key] for r in requests]

    async def aclose(self) -> None:
        """Close this event loop's chat connections; the next job opens new ones."""
        loop = id(asyncio.get_running_loop())
        mine = [slot for slot in self._chats if slot[0] == loop]
        for slot in mine:
            await close_chat_model(self._chats.pop(slot))

    def _chat(self, model: ModelRef, logprobs: bool) -> BaseChatModel:
        slot = (id(asyncio.get_running_loop()), model.label, logprobs)
        if slot not in self._chats:
            self._chats[slot] = self._chat_factory(model, logprobs)
        return self._chats[slot]

    def _limiter(self, model: ModelRef) -> Limiter:
        if model.label not in self._limiters:
            self._limiters[model.label] = Limiter(model.rpm, model.tpm)
        return self._limiters[model.label]

    def recall(
        self, requests: Sequence[LLMRequest], on_answer: OnAnswer | None = None
    ) -> tuple[dict[str, LLMRequest], dict[str, Answer]]:
        """The distinct requests by key, and the final answers the store already holds
        (each reported as it is found)."""
        unique = {r.key: r for r in requests}
        done = self.store.get_many(unique)
        for answer in done.values():
            self.report(answer, on_answer)
        return unique, done

    def report(self, answer: Answer, on_answer: OnAnswer | None = None) -> None:
        """Count an answer in the tally and pass it to ``on_answer``."""
        tally = self.tally.setdefault(answer.model, ModelTally())
        tally.outcomes[answer.status] = tally.outcomes.get(answer.status, 0) + 1
        tally.cached += answer.cached
        if on_answer is not None:
            on_answer(answer)

    async def _answer(self, request: LLMRequest) -> Answer:
        started = time.perf_counter()
        messages = opening_messages(request)
        usage = TokenUsage()
        attempt = 0
        while True:
            attempt += 1
            try:
                reply = await self._call(request, messages)
            except _Transient as exc:
                return failed(
                    request,
                    f"{exc.fault.detail}; gave up after {self.settings.max_retries} retries",
                    attempt,
                    usage,
                    started,
                    transient=True,
                )
            except Exception as exc:  # a per-request rejection: recorded, the job goes on
                # Not cached as final: a rejection (404, 400) usually comes from the
                # endpoint or config, which the user fixes before running again.
                return failed(
                    request, classify(exc).detail, attempt, usage, started, transient=True
                )
            usage = _add(usage, reply)
            verdict = self.judge(request, reply, attempt, usage, started)
            if isinstance(verdict, Answer):
                return verdict
            messages = [*messages, *verdict]

    def judge(
        self,
        request: LLMRequest,
        reply: AIMessage,
        attempt: int,
        usage: TokenUsage,
        started: float,
        *,
        batch: bool = False,
    ) -> Answer | list[BaseMessage]:
        """A reply's outcome: a final answer (ok, refused, or error once re-asks or the
        token budget run out), or the messages that re-ask the model."""
        text = reply_text(reply)
        parsed = parse_reply(text, schema(request.prompt.output_schema))
        if parsed.value is not None and request.check is not None:
            problem = request.check(parsed.value.model_dump(mode="json"))
            if problem is not None:
                parsed = Parsed(None, problem)
        base = {
            "key": request.key,
            "model": request.model.label,
            "prompt": request.prompt_label,
            "raw": text,
            "attempts": attempt,
            "usage": usage,
            "elapsed_ms": _ms(started),
            "batch": batch,
        }
        if parsed.value is not None:
            return Answer(
                **base,
                status="ok",
                value=parsed.value.model_dump(mode="json"),
                logprobs=_logprobs(reply),
            )
        refusal = is_refusal(reply)
        if refusal is not None:
            return Answer(**base, status="refused", reason=refusal)
        spent = usage.input_tokens + usage.output_tokens
        if attempt > self.settings.max_reasks or spent >= self.settings.token_budget:
            why = "re-asks" if attempt > self.settings.max_reasks else "token budget"
            return Answer(
                **base, status="error", reason=f"invalid output ({why} exhausted): {parsed.error}"
            )
        return [AIMessage(text), HumanMessage(reask_message(parsed.error or ""))]

    async def _call(self, request: LLMRequest, messages: list[BaseMessage]) -> AIMessage:
        chat = self._chat(request.model, request.logprobs)
        limiter = self._limiter(request.model)
        estimate = sum(len(str(m.content)) for m in messages) // 4 + request.model.max_tokens
        tally = self.tally.setdefault(request.model.label, ModelTally())

        async def once() -> AIMessage:
            await limiter.acquire(estimate)
            tally.requests += 1
            try:
                reply = await chat.ainvoke(messages)
            except Exception as exc:
                limiter.settle(estimate, 0)
                fault = classify(exc)
                if not fault.transient:
                    raise
                limiter.record(fault.kind == "rate_limit", fault.retry_after)
                raise _Transient(fault) from exc
            if not isinstance(reply, AIMessage):
                raise TypeError(f"chat model returned {type(reply).__name__}, not AIMessage")
            used = _tokens(reply)
            limiter.record(False)
            limiter.settle(estimate, used[0] + used[1])
            tally.input_tokens += used[0]
            tally.output_tokens += used[1]
            tally.cost += request.model.prices.cost(*used)
            if self.settings.limits_from_headers:
                limiter.adopt_headers(dict(reply.response_metadata.get("headers") or {}))
            return reply

        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.settings.max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception(lambda e: isinstance(e, _Transient)),
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                return await once()
        raise RuntimeError("unreachable: tenacity re-raises the last fault")

    def _wait(self, state: RetryCallState) -> float:
        """Full-jitter exponential backoff (a local generator: the global random state is never
        touched), never shorter than the provider's Retry-After."""
        ceiling = self.settings.backoff_base_s * 2 ** (state.attempt_number - 1)
        jitter = self._rng.uniform(0, min(self.settings.backoff_cap_s, ceiling))
        exc = state.outcome.exception() if state.outcome else None
        after = exc.fault.retry_after if isinstance(exc, _Transient) else None
        return max(jitter, after or 0.0)


@functools.cache
def _schema_json(name: str) -> dict[str, Any]:
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
        model=request.model.label,
        prompt=request.prompt_label,
        status="error",
        reason=reason,
        attempts=attempts,
        usage=usage,
        transient=transient,
        elapsed_ms=_ms(started),
        batch=batch,
    )


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 3)


def _tokens(reply: AIMessage) -> tuple[int, int]:
    meta = reply.usage_metadata
    if meta is None:
        return 0, 0
    return int(meta.get("input_tokens", 0)), int(meta.get("output_tokens", 0))


def _add(usage: TokenUsage, reply: AIMessage) -> TokenUsage:
    spent = _tokens(reply)
    return TokenUsage(
        input_tokens=usage.input_tokens + spent[0], output_tokens=usage.output_tokens + spent[1]
    )


def _logprobs(reply: AIMessage) -> list[dict[str, Any]] | None:
    found = reply.response_metadata.get("logprobs")
    if isinstance(found, dict):
        content = found.get("content")
        return list(content) if isinstance(content, list) else None
    return None
