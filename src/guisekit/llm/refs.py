"""Naming a chat model in config: provider, model name, endpoint, parameters and prices.

A model is written ``provider:name`` (``openai:gpt-4o-mini``, ``anthropic:claude-3-5-haiku``)
or ``openai-compatible:NAME@BASE_URL`` for a self-hosted server (vLLM, Ollama, llama.cpp).
Keys are never part of a reference: they come from the environment when the client is built.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guisekit.errors import ConfigError

__all__ = ["ModelPrices", "ModelRef", "Provider", "parse_model"]

Provider = Literal["openai", "anthropic", "openai-compatible"]

# Which environment variable holds each provider's key; an OpenAI-compatible server
# usually needs none, so it falls back to a placeholder the server ignores.
KEY_ENV: dict[Provider, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "openai-compatible": "OPENAI_COMPATIBLE_API_KEY",
}
BASE_URL_ENV: dict[Provider, str] = {
    "openai": "OPENAI_BASE_URL",
    "anthropic": "ANTHROPIC_BASE_URL",
    "openai-compatible": "OPENAI_COMPATIBLE_BASE_URL",
}


class ModelPrices(BaseModel):
    """US dollars per million tokens; batch calls cost ``batch_discount`` of that."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    input: float = Field(default=0.0, ge=0)
    output: float = Field(default=0.0, ge=0)
    batch_discount: float = Field(default=0.5, gt=0, le=1)

    def cost(self, input_tokens: int, output_tokens: int, *, batch: bool = False) -> float:
        dollars = (input_tokens * self.input + output_tokens * self.output) / 1e6
        return dollars * (self.batch_discount if batch else 1.0)


class ModelRef(BaseModel):
    """A chat model and the parameters every call to it uses.

    ``params`` (temperature, max_tokens, top_p, ...) are part of the cache key; ``timeout``,
    rate limits and ``prices`` are not, since they do not change what the model answers.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    provider: Provider
    name: str = Field(min_length=1)
    base_url: str | None = None
    temperature: float = Field(default=0.0, ge=0, le=2)
    max_tokens: int = Field(default=1024, gt=0)
    params: dict[str, Any] = Field(default_factory=dict)
    timeout: float = Field(default=60.0, gt=0)
    rpm: float | None = Field(default=None, gt=0, description="Requests per minute allowed.")
    tpm: float | None = Field(default=None, gt=0, description="Tokens per minute allowed.")
    prices: ModelPrices = ModelPrices()

    @model_validator(mode="after")
    def _endpoint(self) -> ModelRef:
        if self.provider == "openai-compatible" and not self.base_url:
            raise ValueError("an openai-compatible model needs a base URL: NAME@http://host/v1")
        return self

    @property
    def label(self) -> str:
        """``provider:name`` (with the endpoint for self-hosted servers)."""
        suffix = f"@{self.base_url}" if self.provider == "openai-compatible" else ""
        return f"{self.provider}:{self.name}{suffix}"

    def identity(self) -> dict[str, Any]:
        """What decides the model's answer: part of every cache key and variant id."""
        return {
            "model": self.label,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "params": self.params,
        }

    def resolved_base_url(self) -> str | None:
        return self.base_url or os.environ.get(BASE_URL_ENV[self.provider]) or None

    def api_key(self) -> str:
        """The key from the environment; a one-line error before any work starts if absent."""
        env = KEY_ENV[self.provider]
        key = os.environ.get(env, "")
        if key:
            return key
        if self.provider == "openai-compatible":
            return "not-needed"
        raise ConfigError(
            f"no API key for {self.label}: {env} is not set",
            hint=f"export {env}=... (keys are read from the environment, never from config)",
        )


def parse_model(value: str | dict[str, Any]) -> ModelRef:
    """A :class:`ModelRef` from ``provider:name[@base_url]`` or a mapping with ``model:``.

    >>> parse_model("openai-compatible:llama3@http://127.0.0.1:8000/v1").base_url
    'http://127.0.0.1:8000/v1'
    """
    if isinstance(value, dict):
        fields = dict(value)
        spelled = fields.pop("model", None)
        if not isinstance(spelled, str):
            raise ConfigError("a model mapping needs `model: provider:name`", location="model")
        return _build(spelled, fields)
    return _build(value, {})


def _build(spelled: str, fields: dict[str, Any]) -> ModelRef:
    provider, sep, rest = spelled.partition(":")
    if not sep or not rest:
        raise ConfigError(
            f"model {spelled!r} is not `provider:name`",
            hint="e.g. openai:gpt-4o-mini, anthropic:claude-3-5-haiku-latest, "
            "openai-compatible:NAME@http://127.0.0.1:8000/v1",
        )
    name, at, base_url = rest.partition("@")
    if at:
        fields.setdefault("base_url", base_url)
    try:
        return ModelRef.model_validate({"provider": provider, "name": name, **fields})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "model"
        raise ConfigError(f"{spelled}: {first['msg']}", location=where) from None
