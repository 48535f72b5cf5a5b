"""Output schemas a model must answer in, named and versioned so prompts can cite them.

A prompt's header names its schema (``output_schema: rewrite.v1``); the runner validates
every answer against it and re-asks with the validation error when it does not fit. A
changed schema is a new name, so cached answers under the old one are never reused.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from guisekit.errors import ResourceError

__all__ = ["AttributeAnswer", "RewriteOutput", "output_instructions", "register_schema", "schema"]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RewriteOutput(_Answer):
    """A rewritten text and the style changes the model says it made."""

    text: str = Field(description="The rewritten text, and nothing else.")
    changes: list[str] = Field(
        default_factory=list, description="Short notes on each style change made."
    )

    @field_validator("text")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the rewritten text is empty")
        return value


class AttributeAnswer(_Answer):
    """One attribute rated on three levels."""

    level: Literal["low", "medium", "high"]


_SCHEMAS: dict[str, type[BaseModel]] = {
    "rewrite.v1": RewriteOutput,
    "attribute.v1": AttributeAnswer,
}


def register_schema(name: str, model: type[BaseModel]) -> None:
    """Make ``model`` citable by prompts as ``name`` (e.g. ``audit.v1``)."""
    known = _SCHEMAS.get(name)
    if known is not None and known is not model:
        raise ResourceError(f"output schema {name!r} is already registered to {known.__name__}")
    _SCHEMAS[name] = model


def schema(name: str) -> type[BaseModel]:
    """The model registered as ``name``."""
    try:
        return _SCHEMAS[name]
    except KeyError:
        raise ResourceError(
            f"unknown output schema {name!r}",
            hint=f"known schemas: {', '.join(sorted(_SCHEMAS))}",
        ) from None


def output_instructions(model: type[BaseModel]) -> str:
    """What every prompt appends: answer with one JSON object valid under this schema."""
    spec = json.dumps(model.model_json_schema(), indent=1, sort_keys=True)
    return (
        "Answer with one JSON object and nothing else (no prose, no code fences). "
        f"It must validate against this JSON Schema:\n{spec}"
    )
