"""Typed records of the stub LLM server: its config, what a responder sees and returns, stats.

The stub answers like OpenAI and Anthropic over real HTTP so that tests exercise the real
SDK clients. What the "model" says is decided by a *responder*, a plain function
``StubRequest -> StubReply``; faults (429, 500, hangs, malformed bodies, refusals) are
decided by the server from :class:`StubConfig`, independently of the responder.
"""

from __future__ import annotations

import hashlib
import importlib
import math
from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.errors import GuisekitError

__all__ = [
    "Fault",
    "InvalidRequest",
    "Provider",
    "Responder",
    "Role",
    "StubConfig",
    "StubError",
    "StubParams",
    "StubReply",
    "StubRequest",
    "StubStats",
    "TokenLogprob",
    "TopLogprob",
    "content_text",
    "default_responder",
    "echo_responder",
    "estimate_tokens",
    "load_responder",
    "mapping_responder",
    "text_key",
]

Provider = Literal["openai", "anthropic"]
Role = Literal["system", "user", "assistant", "tool"]
Fault = Literal[
    "rate_429",
    "rate_500",
    "timeout",
    "malformed",
    "bad_content",
    "refusal",
    "rpm_limit",
    "tpm_limit",
    "batch_item_error",
    "batch_item_expired",
]

_Rate = Field(default=0.0, ge=0.0, le=1.0)


class StubError(GuisekitError):
    """The stub server, stub process or fake chat model cannot do what was asked."""


class InvalidRequest(StubError):
    """A request the stub refuses with the provider's error shape (400, or 404 if missing)."""

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StubConfig(_Frozen):
    """How the stub behaves: latency, injected faults, rate caps and batch timing.

    Fault rates are probabilities per model call. One uniform draw per call picks at most
    one fault, in the order 429, 500, timeout, malformed, bad content, refusal, so the rates
    must sum to at most 1. The draw is a hash of (``seed``, the canonical request body, how
    often that same body was seen before): a retry of the same request is a fresh draw, and
    the same sequence of bodies meets the same faults on every run.
    """

    latency: float = Field(default=0.0, ge=0.0, description="Seconds every model call sleeps.")
    latency_jitter: float = Field(
        default=0.0, ge=0.0, description="Extra sleep drawn uniformly from [0, jitter]."
    )
    rate_429: float = _Rate
    rate_500: float = _Rate
    rate_timeout: float = _Rate
    rate_malformed: float = Field(
        default=0.0, ge=0.0, le=1.0, description="HTTP 200 whose body is not valid JSON."
    )
    rate_bad_content: float = Field(
        default=0.0,
        ge=0.0,
        le=1.0,
        description="HTTP 200 whose message content is not valid JSON (the caller must re-ask).",
    )
    rate_refusal: float = _Rate
    retry_after: float = Field(
        default=1.0, ge=0.0, description="Seconds announced on injected 429s."
    )
    rpm_limit: int | None = Field(default=None, ge=1, description="Model calls per window.")
    tpm_limit: int | None = Field(
        default=None, ge=1, description="Estimated tokens (input + output) per window."
    )
    rate_window_s: float = Field(default=60.0, gt=0.0, description="Window of the caps.")
    timeout_hang_s: float = Field(
        default=30.0, gt=0.0, description="How long a 'timeout' fault stalls before answering."
    )
    batch_delay_s: float = Field(default=0.0, ge=0.0, description="Time a batch takes to end.")
    capacity: int | None = Field(
        default=None,
        ge=1,
        description="Model calls processed at once; the rest wait in a queue, as on a local "
        "llama.cpp or Ollama server (None: unlimited).",
    )
    response_formats: Literal["any", "llama.cpp", "text_only"] = Field(
        default="any",
        description="Structured-output dialect: any (accept every mode), llama.cpp (OpenAI's "
        "json_schema response_format gets a 500, as from llama-cpp-python's server), "
        "text_only (any response_format or tools get a 400).",
    )
    honour_max_tokens: bool = Field(
        default=False,
        description="Cut replies longer than the request's max_tokens (4 characters a "
        "token) and answer finish_reason=length, as a real server does.",
    )
    rate_batch_item_error: float = _Rate
    rate_batch_item_expired: float = _Rate
    seed: int = 0

    @model_validator(mode="after")
    def _rates_fit_one_draw(self) -> StubConfig:
        call = (
            self.rate_429
            + self.rate_500
            + self.rate_timeout
            + self.rate_malformed
            + self.rate_bad_content
            + self.rate_refusal
        )
        if call > 1.0 + 1e-9:
            raise ValueError(f"per-call fault rates sum to {call:.3f} > 1")
        item = self.rate_batch_item_error + self.rate_batch_item_expired
        if item + self.rate_bad_content + self.rate_refusal > 1.0 + 1e-9:
            raise ValueError("batch item fault rates plus content fault rates exceed 1")
        return self


class StubParams(_Frozen):
    """The sampling parameters of a request that responders commonly look at."""

    temperature: float | None = None
    max_tokens: int | None = None
    n: int = Field(default=1, ge=1)
    logprobs: bool = False
    top_logprobs: int | None = Field(default=None, ge=0, le=20)


class StubRequest(_Frozen):
    """What a responder sees: one model call, normalised across providers.

    ``messages`` are ``(role, text)`` pairs with the system prompt first as role
    ``system`` (OpenAI ``developer`` messages count as ``system``); only text content is
    kept. ``choice_index`` tells which of ``n`` choices is being answered, so a responder can
    give different samples. ``body`` is the raw JSON body for anything else.
    """

    provider: Provider
    model: str
    messages: tuple[tuple[Role, str], ...]
    params: StubParams = StubParams()
    choice_index: int = 0
    body: dict[str, Any] = Field(default_factory=dict)

    @property
    def last_user_text(self) -> str:
        """Text of the last user message ('' if there is none): what mappings key on."""
        for role, text in reversed(self.messages):
            if role == "user":
                return text
        return ""

    @property
    def input_tokens(self) -> int:
        """Estimated input tokens: what usage reports and the token cap counts."""
        return sum(estimate_tokens(text) for _, text in self.messages)


class TopLogprob(_Frozen):
    """One alternative token at a position, with its log-probability."""

    token: str
    logprob: float = Field(le=0.0)


class TokenLogprob(_Frozen):
    """One generated token with its log-probability and the top alternatives."""

    token: str
    logprob: float = Field(le=0.0)
    top: tuple[TopLogprob, ...] = ()


class StubReply(_Frozen):
    """What the model says: ``text``, optional per-token ``logprobs``, or a refusal.

    With ``refusal=True`` the text is the refusal message: OpenAI returns it as
    ``message.refusal`` with ``content: null``, Anthropic as ``stop_reason: "refusal"``.
    Without ``logprobs`` the stub makes up one token per word when logprobs are requested.
    ``truncated`` replies stopped at the token limit (``finish_reason: length``).
    """

    text: str
    logprobs: tuple[TokenLogprob, ...] | None = None
    refusal: bool = False
    truncated: bool = False


Responder = Callable[[StubRequest], StubReply]


class StubStats(_Frozen):
    """Counts since start or the last reset, for assertions on what a client did.

    ``total_requests``, ``by_endpoint`` (``"POST /v1/chat/completions"``) and ``by_status``
    count every provider request (not ``/_stub/*``). A request whose client went away before
    the answer is counted under status 499. ``arrival_times`` are wall-clock seconds of each
    model call (chat completions and messages), rejected ones included, in arrival order;
    ``bodies`` are the JSON bodies of the last 500 model calls, as the server received them.
    ``peak_processing`` is the most calls processed at once under ``capacity``.
    """

    total_requests: int = 0
    by_endpoint: dict[str, int] = Field(default_factory=dict)
    by_status: dict[int, int] = Field(default_factory=dict)
    in_flight: int = 0
    peak_in_flight: int = 0
    arrival_times: tuple[float, ...] = ()
    faults: dict[Fault, int] = Field(default_factory=dict)
    responder_errors: int = 0
    bodies: tuple[dict[str, Any], ...] = ()
    peak_processing: int = 0

    def peak_in_window(self, window_s: float) -> int:
        """Most model calls that arrived within any ``window_s`` span (an observed RPM)."""
        times = sorted(self.arrival_times)
        best = start = 0
        for end, t in enumerate(times):
            while t - times[start] >= window_s:
                start += 1
            best = max(best, end - start + 1)
        return best


def text_key(text: str) -> str:
    """Stable key of a text (SHA-256 hex), the key :func:`mapping_responder` looks up."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_responder(request: StubRequest) -> StubReply:
    """Answer ``"ok"`` to everything."""
    return StubReply(text="ok")


def echo_responder(request: StubRequest) -> StubReply:
    """Answer the last user message back, so a test can see which prompt went out."""
    return StubReply(text=request.last_user_text)


def mapping_responder(
    mapping: Mapping[str, str | StubReply], default: str | None = None
) -> Responder:
    """A responder answering from ``mapping[text_key(last user message)]``.

    Keyed by input rather than call order, so concurrent and retried calls get the same
    answer. An unmapped input answers ``default``; with ``default=None`` it raises, which
    the server turns into a 500 naming the key, so a missing entry is loud.
    """
    table = dict(mapping)

    def respond(request: StubRequest) -> StubReply:
        key = text_key(request.last_user_text)
        answer = table.get(key, default)
        if answer is None:
            raise StubError(f"no answer mapped for last user message key {key}")
        return answer if isinstance(answer, StubReply) else StubReply(text=answer)

    return respond


def load_responder(path: str) -> Responder:
    """Import a responder from ``"package.module:function"`` (how a stub process gets one)."""
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise StubError(f"responder {path!r} is not of the form 'package.module:function'")
    try:
        target: object = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise StubError(f"cannot import responder {path!r}: {exc}") from exc
    if not callable(target):
        raise StubError(f"responder {path!r} is not callable")
    responder: Responder = target
    return responder


def content_text(content: object) -> str:
    """Text of a message content: a string, or the text blocks of a block list joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if not isinstance(block, dict):
                raise InvalidRequest("content blocks must be objects")
            if block.get("type") == "text":
                text = block.get("text")
                if not isinstance(text, str):
                    raise InvalidRequest("a text block needs a string 'text'")
                parts.append(text)
        return "".join(parts)
    raise InvalidRequest("message content must be a string or a list of blocks")


def estimate_tokens(text: str) -> int:
    """Token estimate the stub reports and caps on: one token per four characters."""
    return math.ceil(len(text) / 4)
