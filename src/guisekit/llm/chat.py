"""The one place a langchain-core chat model is built from a :class:`ModelRef`.

SDK-level retries are switched off: the runner owns retries, backoff and rate limits, so
each request is counted and paced once. Keys are read from the environment here and held
only by the client object (as ``SecretStr``), never copied into caches, outputs or logs.

Each model gets its own HTTP connection pool instead of langchain's process-wide one, so
the runner can close it when a job ends (no sockets left open on a finished event loop),
on the SDKs' aiohttp transport, which costs about half the CPU per call of their default.
"""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from guisekit.llm.refs import ModelRef

__all__ = ["ChatFactory", "close_chat_model", "make_chat_model"]

ChatFactory = Callable[[ModelRef, bool], BaseChatModel]
"""Builds the chat model for a reference; the flag asks for token log-probabilities."""

_TOP_LOGPROBS = 5


def make_chat_model(ref: ModelRef, logprobs: bool = False) -> BaseChatModel:
    """A langchain chat model for ``ref`` (log-probabilities only where the API has them)."""
    key = SecretStr(ref.api_key())
    if ref.provider == "anthropic":
        import anthropic
        from langchain_anthropic import ChatAnthropic

        chat = ChatAnthropic(
            model=ref.name,
            api_key=key,
            base_url=ref.resolved_base_url(),
            temperature=ref.temperature,
            max_tokens=ref.max_tokens,
            default_request_timeout=ref.timeout,
            max_retries=0,
            model_kwargs=dict(ref.params),
        )
        # ChatAnthropic builds its async client lazily (a cached property) on a shared
        # pool and takes no client argument; seeding the property gives it its own.
        chat.__dict__["_async_client"] = anthropic.AsyncAnthropic(
            api_key=key.get_secret_value(),
            base_url=ref.resolved_base_url(),
            timeout=ref.timeout,
            max_retries=0,
            http_client=anthropic.DefaultAioHttpClient(timeout=ref.timeout),
        )
        return chat
    import openai
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
        http_async_client=openai.DefaultAioHttpClient(timeout=ref.timeout),
    )


async def close_chat_model(chat: BaseChatModel) -> None:
    """Close the connection pool :func:`make_chat_model` gave ``chat`` (fakes have none)."""
    pool = getattr(chat, "http_async_client", None)
    if pool is not None and hasattr(pool, "aclose"):
        await pool.aclose()
    client = chat.__dict__.get("_async_client")
    if client is not None and hasattr(client, "close"):
        await client.close()
