"""One small adapter per vendor: how to build its chat model and shape its requests.

The vendors differ in ways a single client cannot paper over:

- **OpenAI** wants ``max_completion_tokens``; it honours ``seed``, ``logprobs`` and
  ``top_logprobs`` and OpenAI's ``json_schema`` response format.
- **OpenAI-compatible servers** (llama.cpp, vLLM, Ollama) ignore ``max_completion_tokens``
  (a llama.cpp server then generates up to the whole context): they get ``max_tokens``
  in the body. Their structured-output dialects differ, so ``auto`` probes them.
- **Anthropic** takes ``max_tokens`` and no seed or log-probabilities; a forced tool call
  is its structured output.

SDK imports happen here, inside the methods, so ``import guisekit`` loads no vendor SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import SecretStr

from guisekit.llm.refs import ModelRef, OutputMode
from guisekit.llm.structured import schema_fields

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage

__all__ = [
    "TOP_LOGPROBS",
    "AnthropicProvider",
    "CompatibleProvider",
    "OpenAIProvider",
    "Provider",
    "provider_for",
]

TOP_LOGPROBS = 5


class Provider:
    """What guisekit must know about one vendor's API."""

    logprobs: ClassVar[bool] = True
    probe_order: ClassVar[tuple[OutputMode, ...]] = ("json_schema", "prompt")
    """Modes ``auto`` tries, best first; the last is always ``prompt``, which any server takes."""

    def build(self, ref: ModelRef, logprobs: bool) -> BaseChatModel:
        raise NotImplementedError

    def call_kwargs(
        self,
        ref: ModelRef,
        mode: OutputMode,
        schema_name: str,
        json_schema: dict[str, Any],
        max_tokens: int | None = None,
    ) -> dict[str, Any]:
        """Keyword arguments of one call: the output mode's fields, and a larger token
        allowance than the model's own when a truncated reply is re-asked."""
        body, kwargs = schema_fields(mode, schema_name, json_schema)
        extra = {**dict(ref.params.get("extra_body") or {}), **body}
        if extra:
            kwargs["extra_body"] = extra
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        return kwargs

    def truncated(self, reply: AIMessage) -> bool:
        """Whether the reply stopped at the token limit."""
        return reply.response_metadata.get("finish_reason") == "length"


def _openai_fields(ref: ModelRef, logprobs: bool) -> dict[str, Any]:
    import openai

    params = {k: v for k, v in ref.params.items() if k != "extra_body"}
    return {
        "model": ref.name,
        "api_key": SecretStr(ref.api_key()),
        "base_url": ref.resolved_base_url(),
        "temperature": ref.temperature,
        "max_tokens": ref.max_tokens,
        "seed": ref.seed,
        "timeout": ref.timeout,
        "max_retries": 0,  # the runner owns retries
        "logprobs": logprobs or None,
        "top_logprobs": TOP_LOGPROBS if logprobs else None,
        "include_response_headers": True,
        "extra_body": ref.params.get("extra_body") or None,
        "model_kwargs": params,
        # Its own pool (closed when the job ends) on aiohttp, half the CPU of the default.
        "http_async_client": openai.DefaultAioHttpClient(timeout=ref.timeout),
    }


class OpenAIProvider(Provider):
    """OpenAI itself: ``ChatOpenAI`` sends ``max_completion_tokens``."""

    def build(self, ref: ModelRef, logprobs: bool) -> BaseChatModel:
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(**_openai_fields(ref, logprobs))


class CompatibleProvider(Provider):
    """llama.cpp, vLLM, Ollama and other OpenAI-compatible servers: ``max_tokens`` in the
    body (langchain's base class, which does not rename it), and a probe for the schema
    dialect: OpenAI's, then llama.cpp's ``json_object`` + ``schema``, then the prompt."""

    probe_order = ("json_schema", "json_object_schema", "prompt")

    def build(self, ref: ModelRef, logprobs: bool) -> BaseChatModel:
        from langchain_openai.chat_models.base import BaseChatOpenAI

        return BaseChatOpenAI(**_openai_fields(ref, logprobs))


class AnthropicProvider(Provider):
    """Anthropic: no seed, no log-probabilities; structured output is a forced tool call."""

    logprobs = False
    probe_order = ("tools", "prompt")

    def build(self, ref: ModelRef, logprobs: bool) -> BaseChatModel:
        import anthropic
        from langchain_anthropic import ChatAnthropic

        key = SecretStr(ref.api_key())
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

    def call_kwargs(
        self,
        ref: ModelRef,
        mode: OutputMode,
        schema_name: str,
        json_schema: dict[str, Any],
        max_tokens: int | None = None,
    ) -> dict[str, Any]:
        _, kwargs = schema_fields(mode, schema_name, json_schema, anthropic=True)
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens
        return kwargs

    def truncated(self, reply: AIMessage) -> bool:
        return reply.response_metadata.get("stop_reason") == "max_tokens"


_PROVIDERS: dict[str, Provider] = {
    "openai": OpenAIProvider(),
    "openai-compatible": CompatibleProvider(),
    "anthropic": AnthropicProvider(),
}


def provider_for(ref: ModelRef) -> Provider:
    """The adapter for ``ref``'s vendor."""
    return _PROVIDERS[ref.provider]
