"""The async runner every LLM call goes through: cached, paced, retried, validated, counted.

One :class:`LLMRunner` serves a whole job (every bank, auditor and attribute stage), so the
store, the per-model rate limits and the accounting are shared. For each request it

1. returns the stored answer if there is one (a finished job re-runs with zero calls);
2. waits for the model's RPM/TPM budget and a slot under the server's adaptive
   concurrency limit (:mod:`guisekit.llm.pacing`);
3. calls the chat model in the request shape its provider honours
   (:mod:`guisekit.llm.providers`) and the structured-output mode the server accepts
   (:mod:`guisekit.llm.structured`; ``auto`` probes once per server and remembers),
   retrying transient faults with jittered exponential backoff that honours Retry-After
   (a burst of 429s pauses every worker at once);
4. validates the reply against the prompt's schema, re-asking with the validation error
   within ``max_reasks`` and the token budget; a reply cut at the token limit is re-asked
   with twice the room (within the budget), never retried as a fault; a refusal is
   recorded as ``refused``;
5. commits the answer to the store before reporting it, so a killed run loses only the
   calls in flight.

Every request ends as an :class:`~guisekit.llm.store.Answer` with status ``ok``,
``refused``, ``truncated`` or ``error`` (with a reason); none is dropped.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
)

from guisekit.llm.answers import Parsed, is_refusal, parse_reply, reask_message
from guisekit.llm.chat import ChatFactory, close_chat_model, make_chat_model
from guisekit.llm.faults import Fault, classify
from guisekit.llm.limits import Limiter
from guisekit.llm.loop import run_sync
from guisekit.llm.pacing import AdaptiveConcurrency, CallOutcome
from guisekit.llm.providers import provider_for
from guisekit.llm.refs import ModelRef, OutputMode
from guisekit.llm.request import (
    Check,
    LLMRequest,
    ModelTally,
    Reask,
    RunnerSettings,
    add_usage,
    elapsed_ms,
    failed,
    opening_messages,
    reply_logprobs,
    reply_tokens,
    schema_json,
)
from guisekit.llm.schemas import schema
from guisekit.llm.store import Answer, Store
from guisekit.llm.structured import names_response_format, reply_json_text
from guisekit.models import TokenUsage

__all__ = [
    "Check",
    "Executor",
    "LLMRequest",
    "LLMRunner",
    "ModelTally",
    "Reask",
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


class _FormatRejected(Exception):
    """The server rejected the structured-output mode (auto mode falls back)."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.detail)
        self.fault = fault


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
        self._pacers: dict[str, AdaptiveConcurrency] = {}
        self._modes: dict[str, OutputMode] = {}
        self._probes: dict[tuple[int, str], asyncio.Lock] = {}
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

        # Workers up to the ceiling; the adaptive limit decides how many call at once.
        servers = {r.model.label for r in todo}
        workers = min(self.settings.concurrency * max(1, len(servers)), len(todo))
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
        for probe in [p for p in self._probes if p[0] == loop]:
            del self._probes[probe]

    def _chat(self, model: ModelRef, logprobs: bool) -> BaseChatModel:
        slot = (id(asyncio.get_running_loop()), model.bank, logprobs)
        if slot not in self._chats:
            self._chats[slot] = self._chat_factory(model, logprobs)
        return self._chats[slot]

    def _limiter(self, model: ModelRef) -> Limiter:
        if model.label not in self._limiters:
            self._limiters[model.label] = Limiter(model.rpm, model.tpm)
        return self._limiters[model.label]

    def pacer(self, model: ModelRef) -> AdaptiveConcurrency:
        """The concurrency limit of ``model``'s server (shared by every bank on it)."""
        if model.label not in self._pacers:
            # A model with a configured rate limit is paced by it (a hosted API): start at
            # the ceiling. A local server without one starts low and finds its capacity.
            paced = model.rpm is not None or model.tpm is not None
            self._pacers[model.label] = AdaptiveConcurrency(
                self.settings.concurrency,
                start=self.settings.concurrency if paced else self.settings.start_concurrency,
                min_excess_s=self.settings.latency_slack_s,
                adaptive=self.settings.adaptive,
            )
        return self._pacers[model.label]

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

    def output_mode(self, model: ModelRef) -> OutputMode | None:
        """The mode calls to ``model`` use now; ``None`` while an ``auto`` model's server
        has not been probed yet."""
        if model.output != "auto":
            return model.output
        if model.label not in self._modes:
            known = self.store.output_mode(model.label)
            if known in provider_for(model).probe_order:
                self._modes[model.label] = known
        return self._modes.get(model.label)

    async def _answer(self, request: LLMRequest) -> Answer:
        if self.output_mode(request.model) is not None:
            return await self._converse(request)
        # The first request to an unprobed server probes it; the others wait for the result.
        slot = (id(asyncio.get_running_loop()), request.model.label)
        lock = self._probes.setdefault(slot, asyncio.Lock())
        async with lock:
            if self.output_mode(request.model) is None:
                return await self._converse(request)
        return await self._converse(request)

    def _next_mode(self, model: ModelRef, rejected: OutputMode, fault: Fault) -> OutputMode:
        order = provider_for(model).probe_order
        mode = (
            order[min(order.index(rejected) + 1, len(order) - 1)] if rejected in order else "prompt"
        )
        self._modes[model.label] = mode
        self.store.save_output_mode(model.label, mode)
        return mode

    async def _converse(self, request: LLMRequest) -> Answer:
        started = time.perf_counter()
        model = request.model
        messages = opening_messages(request)
        usage = TokenUsage()
        attempt = 0
        max_tokens: int | None = None
        mode = self.output_mode(model) or provider_for(model).probe_order[0]
        while True:
            attempt += 1
            try:
                reply = await self._call(request, messages, mode, max_tokens)
            except _FormatRejected as exc:
                mode = self._next_mode(model, mode, exc.fault)
                attempt -= 1  # the server refused the format, not the request: ask again
                continue
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
                fault = classify(exc, model.timeout)
                if fault.kind == "truncated":
                    reply = AIMessage("", response_metadata={"finish_reason": "length"})
                else:
                    # Not cached as final: a rejection (404, 400) usually comes from the
                    # endpoint or config, which the user fixes before running again.
                    return failed(request, fault.detail, attempt, usage, started, transient=True)
            if model.output == "auto" and model.label not in self._modes:
                self._modes[model.label] = mode  # the server took this mode: remember it
                self.store.save_output_mode(model.label, mode)
            usage = add_usage(usage, reply)
            verdict = self.judge(request, reply, attempt, usage, started, max_tokens=max_tokens)
            if isinstance(verdict, Answer):
                return verdict
            messages = [*messages, *verdict.append]
            max_tokens = verdict.max_tokens or max_tokens

    def judge(
        self,
        request: LLMRequest,
        reply: AIMessage,
        attempt: int,
        usage: TokenUsage,
        started: float,
        *,
        batch: bool = False,
        max_tokens: int | None = None,
    ) -> Answer | Reask:
        """A reply's outcome: a final answer (ok, refused, truncated, or error once re-asks
        or the token budget run out), or how to ask again."""
        text = reply_json_text(reply)
        parsed = parse_reply(text, schema(request.prompt.output_schema))
        if parsed.value is not None and request.check is not None:
            problem = request.check(parsed.value.model_dump(mode="json"))
            if problem is not None:
                parsed = Parsed(None, problem)
        base = {
            "key": request.key,
            "model": request.model.bank,
            "prompt": request.prompt_label,
            "raw": text,
            "attempts": attempt,
            "usage": usage,
            "elapsed_ms": elapsed_ms(started),
            "batch": batch,
        }
        if parsed.value is not None:
            return Answer(
                **base,
                status="ok",
                value=parsed.value.model_dump(mode="json"),
                logprobs=reply_logprobs(reply),
            )
        refusal = is_refusal(reply)
        if refusal is not None:
            return Answer(**base, status="refused", reason=refusal)
        spent = usage.input_tokens + usage.output_tokens
        if provider_for(request.model).truncated(reply):
            allowed = max_tokens or request.model.max_tokens
            room = min(2 * allowed, self.settings.token_budget - spent)
            if attempt > self.settings.max_reasks or room <= allowed:
                return Answer(
                    **base,
                    status="truncated",
                    reason=f"the reply was cut at the token limit (max_tokens={allowed}); "
                    "raise the model's max_tokens or the runner's token_budget",
                )
            return Reask([], room)
        if attempt > self.settings.max_reasks or spent >= self.settings.token_budget:
            why = "re-asks" if attempt > self.settings.max_reasks else "token budget"
            return Answer(
                **base, status="error", reason=f"invalid output ({why} exhausted): {parsed.error}"
            )
        return Reask([AIMessage(text), HumanMessage(reask_message(parsed.error or ""))])

    def call_kwargs(
        self, request: LLMRequest, mode: OutputMode, max_tokens: int | None = None
    ) -> dict[str, Any]:
        """The keyword arguments of a call in ``mode`` (what the provider adds to the body)."""
        name = request.prompt.output_schema
        return provider_for(request.model).call_kwargs(
            request.model, mode, name, schema_json(name), max_tokens
        )

    async def _call(
        self,
        request: LLMRequest,
        messages: list[BaseMessage],
        mode: OutputMode,
        max_tokens: int | None = None,
    ) -> AIMessage:
        model = request.model
        chat = self._chat(model, request.logprobs)
        limiter = self._limiter(model)
        pacer = self.pacer(model)
        kwargs = self.call_kwargs(request, mode, max_tokens)
        allowance = max_tokens or model.max_tokens
        estimate = sum(len(str(m.content)) for m in messages) // 4 + allowance
        tally = self.tally.setdefault(model.bank, ModelTally())
        fallback = model.output == "auto" and mode != "prompt"

        async def once() -> AIMessage:
            # The concurrency slot first, then the rate slot: taken the other way round, rate
            # slots paced apart would be spent in a burst when concurrency slots free up.
            await pacer.acquire()
            outcome: CallOutcome = "other"
            output_tokens = 0
            sent = time.perf_counter()
            try:
                await limiter.acquire(estimate)
                tally.requests += 1
                sent = time.perf_counter()
                try:
                    reply = await chat.ainvoke(messages, **kwargs)
                except Exception as exc:
                    limiter.settle(estimate, 0)
                    fault = classify(exc, model.timeout)
                    if fault.kind == "timeout":
                        outcome = "timeout"
                    if (
                        fallback
                        and fault.kind in ("request", "server")
                        and names_response_format(fault.detail)
                    ):
                        raise _FormatRejected(fault) from exc
                    if not fault.transient:
                        raise
                    limiter.record(fault.kind == "rate_limit", fault.retry_after)
                    raise _Transient(fault) from exc
                if not isinstance(reply, AIMessage):
                    raise TypeError(f"chat model returned {type(reply).__name__}, not AIMessage")
                used = reply_tokens(reply)
                outcome, output_tokens = "ok", used[1]
            finally:
                await pacer.release(outcome, time.perf_counter() - sent, output_tokens)
            limiter.record(False)
            limiter.settle(estimate, used[0] + used[1])
            tally.input_tokens += used[0]
            tally.output_tokens += used[1]
            tally.cost += model.prices.cost(*used)
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
