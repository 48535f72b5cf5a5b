"""A langchain chat model for tests that answers by input, never by call order.

Call-order fakes break as soon as calls run concurrently, are retried or are served from a
cache; keying answers on a hash of the input messages makes every call independent.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field

from guisekit.testing.stub_models import StubError, StubReply, estimate_tokens
from guisekit.testing.stub_openai import openai_logprobs

__all__ = ["FakeAnswer", "FakeCall", "KeyedFakeChatModel", "message_key"]

FakeAnswer = str | StubReply


def message_key(messages: Sequence[BaseMessage]) -> str:
    """Stable key of a conversation: SHA-256 of each message's type and content.

    ``message_key([HumanMessage("hi")])`` is the key ``model.invoke("hi")`` looks up.
    """
    payload = [[message.type, message.content] for message in messages]
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class FakeCall:
    """One call the fake model received: its key, messages and keyword arguments."""

    key: str
    messages: tuple[BaseMessage, ...]
    kwargs: dict[str, Any]


class KeyedFakeChatModel(BaseChatModel):
    """Answers from ``responses[message_key(messages)]``, else ``responder(messages)``, else
    ``default``; with none of them it raises :class:`StubError` naming the key.

    An answer is a string or a :class:`StubReply`: a reply with ``refusal=True`` comes back
    as an empty message with ``additional_kwargs["refusal"]`` (as ``ChatOpenAI`` reports
    refusals), and logprobs go to ``response_metadata["logprobs"]`` in OpenAI's format when
    the reply carries them or the call asks for them (``model.bind(logprobs=True)``).
    Every call is appended to ``calls``; usage is estimated at four characters a token.
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    responses: dict[str, FakeAnswer] = Field(default_factory=dict)
    responder: Callable[[list[BaseMessage]], FakeAnswer] | None = None
    default: FakeAnswer | None = None
    model_name: str = "keyed-fake"
    report_usage: bool = True
    calls: list[FakeCall] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "keyed-fake"

    def _answer(self, messages: list[BaseMessage]) -> tuple[str, StubReply]:
        key = message_key(messages)
        answer: FakeAnswer | None = self.responses.get(key)
        if answer is None and self.responder is not None:
            answer = self.responder(messages)
        if answer is None:
            answer = self.default
        if answer is None:
            raise StubError(f"no fake answer for message key {key}", hint="add it to responses")
        return key, answer if isinstance(answer, StubReply) else StubReply(text=answer)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        key, reply = self._answer(messages)
        self.calls.append(FakeCall(key=key, messages=tuple(messages), kwargs=dict(kwargs)))
        metadata: dict[str, Any] = {"model_name": self.model_name, "finish_reason": "stop"}
        if not reply.refusal and (reply.logprobs is not None or kwargs.get("logprobs")):
            metadata["logprobs"] = openai_logprobs(reply, kwargs.get("top_logprobs"))
        message = AIMessage(
            content="" if reply.refusal else reply.text,
            additional_kwargs={"refusal": reply.text} if reply.refusal else {},
            response_metadata=metadata,
        )
        if self.report_usage:
            prompt = sum(estimate_tokens(str(m.text)) for m in messages)
            output = estimate_tokens(reply.text)
            message.usage_metadata = {
                "input_tokens": prompt,
                "output_tokens": output,
                "total_tokens": prompt + output,
            }
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # No thread pool: the answer is computed inline, which keeps asyncio tests exact.
        return self._generate(messages, stop, **kwargs)
