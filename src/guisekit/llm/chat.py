"""The one place a langchain-core chat model is built from a :class:`ModelRef`.

SDK-level retries are switched off: the runner owns retries, backoff and rate limits, so
each request is counted and paced once. Keys are read from the environment here and held
only by the client object (as ``SecretStr``), never copied into caches, outputs or logs.
"""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from guisekit.llm.refs import ModelRef

__all__ = ["ChatFactory", "make_chat_model"]

ChatFactory = Callable[[ModelRef, bool], BaseChatModel]
"""Builds the chat model for a reference; the flag asks for token log-probabilities."""

_TOP_LOGPROBS = 5


def make_chat_model(ref: ModelRef, logprobs: bool = False) -> BaseChatModel:
    """A langchain chat model for ``ref`` (log-probabilities only where the API has them)."""
    key = SecretStr(ref.api_key())
    if ref.provider == "anthropic":
        from langchain_anthropic import ChatAnthropic

        return ChatAnthropic(
            model=ref.name,
            api_key=key,
            base_url=ref.resolved_base_url(),
            temperature=ref.temperature,
            max_tokens=ref.max_tokens,
            default_request_timeout=ref.timeout,
            max_retries=0,
            model_kwargs=dict(ref.params),
        )
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=ref.name,
        api_key=key,
        base_url=ref.resolved_base_url(),
        temperature=ref.temperature,
        max_tokens=ref.max_tokens,
        timeout=ref.timeout,
        max_retries=0,
        logprobs=logprobs or None,
        top_logprobs=_TOP_LOGPROBS if logprobs else None,
        include_response_headers=True,
        model_kwargs=dict(ref.params),
    )
