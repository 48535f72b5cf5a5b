"""Test doubles for the LLM path: a loopback stub of the OpenAI and Anthropic HTTP APIs and a
langchain chat model keyed by input.

The stub lets tests run the real ``openai``/``anthropic`` SDKs (and the langchain models on
top of them) over real HTTP with latency, faults, rate caps and batch jobs::

    with StubServer(StubConfig(latency=0.1, rate_429=0.05, seed=1)) as stub:
        model = ChatOpenAI(base_url=stub.openai_base_url, api_key="test-key")
        model.invoke("hi")
        assert stub.stats().total_requests >= 1

:class:`StubProcess` runs the same server in a child process for benchmarks.

The fake chat model is imported on first use: it needs langchain, which would add seconds
to the start of every stub process (``python -m`` imports this package first).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from guisekit.testing.stub_handles import StubProcess, StubServer
from guisekit.testing.stub_models import (
    Fault,
    Provider,
    Responder,
    Role,
    StubConfig,
    StubError,
    StubParams,
    StubReply,
    StubRequest,
    StubStats,
    TokenLogprob,
    TopLogprob,
    default_responder,
    echo_responder,
    load_responder,
    mapping_responder,
    text_key,
)

if TYPE_CHECKING:
    from guisekit.testing.fake_chat import FakeAnswer, FakeCall, KeyedFakeChatModel, message_key

_LAZY = frozenset({"FakeAnswer", "FakeCall", "KeyedFakeChatModel", "message_key"})


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module("guisekit.testing.fake_chat"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FakeAnswer",
    "FakeCall",
    "Fault",
    "KeyedFakeChatModel",
    "Provider",
    "Responder",
    "Role",
    "StubConfig",
    "StubError",
    "StubParams",
    "StubProcess",
    "StubReply",
    "StubRequest",
    "StubServer",
    "StubStats",
    "TokenLogprob",
    "TopLogprob",
    "default_responder",
    "echo_responder",
    "load_responder",
    "mapping_responder",
    "message_key",
    "text_key",
]
