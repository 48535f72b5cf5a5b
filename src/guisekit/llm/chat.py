"""The one place a langchain-core chat model is built from a :class:`ModelRef`.

SDK-level retries are switched off: the runner owns retries, backoff and rate limits, so
each request is counted and paced once. Keys are read from the environment here and held
only by the client object (as ``SecretStr``), never copied into caches, outputs or logs.
Each vendor's specifics (which token-limit field, seeds, log-probabilities) live in
:mod:`guisekit.llm.providers`.

Each model gets its own HTTP connection pool instead of langchain's process-wide one, so
the runner can close it when a job ends (no sockets left open on a finished event loop),
on the SDKs' aiohttp transport, which costs about half the CPU per call of their default.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from guisekit.llm.providers import provider_for
from guisekit.llm.refs import ModelRef

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["ChatFactory", "close_chat_model", "make_chat_model"]

ChatFactory = Callable[[ModelRef, bool], "BaseChatModel"]
"""Builds the chat model for a reference; the flag asks for token log-probabilities."""


def make_chat_model(ref: ModelRef, logprobs: bool = False) -> BaseChatModel:
    """A langchain chat model for ``ref`` (log-probabilities only where the API has them)."""
    provider = provider_for(ref)
    return provider.build(ref, logprobs and provider.logprobs)


async def close_chat_model(chat: BaseChatModel) -> None:
    """Close the connection pool :func:`make_chat_model` gave ``chat`` (fakes have none)."""
    pool = getattr(chat, "http_async_client", None)
    if pool is not None and hasattr(pool, "aclose"):
        await pool.aclose()
    client = chat.__dict__.get("_async_client")
    if client is not None and hasattr(client, "close"):
        await client.close()
