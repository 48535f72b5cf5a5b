"""Naming a chat model: provider, model name, endpoint, parameters and prices.

A model is written ``provider:name`` (``openai:gpt-4o-mini``, ``anthropic:claude-3-5-haiku``)
or ``openai-compatible:NAME@BASE_URL`` for a self-hosted server (vLLM, Ollama, llama.cpp).
Parameters ride along inline as a query string
(``openai-compatible:smol@http://127.0.0.1:8080/v1?max_tokens=300&temperature=0.2``), in a
config mapping (``{model: ..., max_tokens: 300}``), or under a name in a models file
(``models: {smol: {model: ..., max_tokens: 300}}``, found through ``GUISEKIT_MODELS`` or
passed in). :func:`parse_model` reads all three, so ``--model``, ``--auditor`` and a
corpus config's ``engine.models`` accept the same things.

Keys are never part of a reference: they come from the environment when the client is built.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guisekit.errors import ConfigError

__all__ = [
    "MODELS_ENV",
    "ModelPrices",
    "ModelRef",
    "OutputMode",
    "Provider",
    "load_models",
    "parse_model",
]

Provider = Literal["openai", "anthropic", "openai-compatible"]
OutputMode = Literal[
    "auto", "json_schema", "json_object_schema", "guided_json", "ollama_format", "tools", "prompt"
]
"""How a model is held to the output schema (see :mod:`guisekit.llm.structured`)."""

MODELS_ENV = "GUISEKIT_MODELS"
"""Environment variable naming a models file, whose names every command then accepts."""

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
_DEFAULTS = {"temperature": 0.0, "max_tokens": 1024, "seed": None}


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

    ``temperature``, ``max_tokens``, ``seed`` and ``params`` (top_p, ...) decide the answer:
    they are part of the cache key and of the bank's name. ``timeout``, rate limits,
    ``prices`` and ``output`` (how the schema is enforced; every mode must yield an object
    valid under the same schema) are not. ``alias`` is the name a models file gave it.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    provider: Provider
    name: str = Field(min_length=1)
    base_url: str | None = None
    temperature: float = Field(default=0.0, ge=0, le=2)
    max_tokens: int = Field(default=1024, gt=0)
    seed: int | None = Field(default=None, description="Sampling seed (OpenAI-style APIs).")
    params: dict[str, Any] = Field(default_factory=dict)
    output: OutputMode = "auto"
    timeout: float = Field(default=60.0, gt=0)
    rpm: float | None = Field(default=None, gt=0, description="Requests per minute allowed.")
    tpm: float | None = Field(default=None, gt=0, description="Tokens per minute allowed.")
    prices: ModelPrices = ModelPrices()
    alias: str | None = Field(default=None, min_length=1)

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

    @property
    def bank(self) -> str:
        """The name of this model *with its settings*: the alias, or the label followed by
        every setting that differs from the defaults. One model under two settings is two
        banks, each with its own name in tallies, answers and reports."""
        if self.alias:
            return self.alias
        changed = {
            k: getattr(self, k) for k, v in _DEFAULTS.items() if getattr(self, k) != v
        } | dict(sorted(self.params.items()))
        if not changed:
            return self.label
        return f"{self.label}[{','.join(f'{k}={v}' for k, v in changed.items())}]"

    def identity(self) -> dict[str, Any]:
        """What decides the model's answer: part of every cache key and variant id."""
        found: dict[str, Any] = {
            "model": self.label,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "params": self.params,
        }
        if self.seed is not None:  # absent when unset, so older cache keys stay valid
            found["seed"] = self.seed
        return found

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


def parse_model(
    value: str | Mapping[str, Any], models: Mapping[str, Any] | None = None
) -> ModelRef:
    """A :class:`ModelRef` from a name in ``models``, ``provider:name[@base_url][?k=v&...]``,
    or a mapping with ``model:`` and settings.

    ``models`` maps names to specs (strings or mappings); without it, the models file named
    by ``GUISEKIT_MODELS`` is used when set.

    >>> parse_model("openai-compatible:llama3@http://127.0.0.1:8000/v1").base_url
    'http://127.0.0.1:8000/v1'
    >>> parse_model("openai:gpt-4o-mini?temperature=0.7&max_tokens=300").bank
    'openai:gpt-4o-mini[temperature=0.7,max_tokens=300]'
    """
    if isinstance(value, Mapping):
        fields = dict(value)
        spelled = fields.pop("model", None)
        if not isinstance(spelled, str):
            raise ConfigError("a model mapping needs `model: provider:name`", location="model")
        return _build(spelled, fields)
    catalogue = models if models is not None else _env_models()
    if value in catalogue:
        spec = catalogue[value]
        fields = {"model": spec} if isinstance(spec, str) else dict(spec)
        fields.setdefault("alias", value)
        return parse_model(fields, {})
    return _build(value, {})


def load_models(path: str | Path) -> dict[str, Any]:
    """The ``models:`` mapping of a models file (name -> spec), every spec checked now."""
    from guisekit.resources import read_config_file

    data = read_config_file(path, "a mapping with `models: {name: spec}`", "models file")
    found = data.get("models")
    if not isinstance(found, dict) or set(data) != {"models"}:
        raise ConfigError(f"{path}: expected only `models: {{name: spec, ...}}`")
    for name, spec in found.items():
        if not isinstance(spec, str | dict):
            raise ConfigError(f"{path}: model {name!r} must be a string or a mapping")
        try:
            parse_model(spec if isinstance(spec, str) else {**spec, "alias": str(name)}, {})
        except ConfigError as exc:
            raise ConfigError(f"{path}: model {name!r}: {exc.one_line()}") from None
    return {str(k): v for k, v in found.items()}


def _env_models() -> Mapping[str, Any]:
    path = os.environ.get(MODELS_ENV)
    return load_models(path) if path else {}


def _inline_params(query: str) -> dict[str, Any]:
    """``k=v&k2=v2`` with each value read as YAML (numbers, booleans, null)."""
    fields: dict[str, Any] = {}
    for key, raw in parse_qsl(query, keep_blank_values=True, strict_parsing=False):
        try:
            fields[key] = yaml.safe_load(raw) if raw else None
        except yaml.YAMLError:
            fields[key] = raw
    known = set(ModelRef.model_fields) - {"provider", "name", "base_url", "params"}
    params = {k: v for k, v in fields.items() if k not in known}
    found = {k: v for k, v in fields.items() if k in known}
    if params:
        found["params"] = params
    return found


def _build(spelled: str, fields: dict[str, Any]) -> ModelRef:
    spelled, ask, query = spelled.partition("?")
    if ask:
        inline = _inline_params(query)
        inline_params = inline.pop("params", {})
        fields = {**inline, **fields}
        if inline_params:
            fields["params"] = {**inline_params, **dict(fields.get("params") or {})}
    provider, sep, rest = spelled.partition(":")
    if not sep or not rest:
        raise ConfigError(
            f"model {spelled!r} is not `provider:name` nor a name in the models file",
            hint="e.g. openai:gpt-4o-mini, anthropic:claude-3-5-haiku-latest, "
            "openai-compatible:NAME@http://127.0.0.1:8000/v1?max_tokens=300, "
            f"or a name from the file in ${MODELS_ENV}",
        )
    name, at, base_url = rest.partition("@")
    if at:
        fields.setdefault("base_url", base_url)
    try:
        return ModelRef.model_validate({"provider": provider, "name": name, **fields})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "model"
        raise ConfigError(f"{spelled}: {where}: {first['msg']}", location=where) from None
