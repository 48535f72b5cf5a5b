"""Core records that cross module and process boundaries: sources, variants, provenance.

All are pydantic v2 models that forbid unknown fields, so a typo in a config or a stale
file is an error at the edge instead of a silent default deep inside. They pickle, so
batches can go to worker processes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from guisekit.transforms import TransformSpec

__all__ = [
    "AppliedEdit",
    "EngineTask",
    "Provenance",
    "Source",
    "TokenUsage",
    "Variant",
    "VariantStatus",
]

VariantStatus = Literal["ok", "refused", "truncated", "error"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Record):
    """A text to rewrite: a stable ``id``, the ``text`` and free-form ``meta``."""

    id: str = Field(min_length=1)
    text: str
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("text")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text is empty or whitespace only")
        return value


class AppliedEdit(_Record):
    """One edit that a rule operator proposed and the resolver applied.

    ``start``/``end`` index the text the edit was applied to (the text before its step);
    ``before`` is what stood there and ``after`` what replaced it. ``step`` numbers the
    passes of the rewrite (stage, round): the edits of one step index the same text, so a
    variant's edits can be replayed one at a time (``guisekit edits``).
    """

    operator: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    before: str
    after: str
    step: int = Field(default=0, ge=0)


class TokenUsage(_Record):
    """Tokens a model call consumed, as the provider reported them."""

    input_tokens: int = 0
    output_tokens: int = 0


class Provenance(_Record):
    """How a variant was made: enough to reproduce it or explain it."""

    engine: str = Field(min_length=1, description="Name of the engine that made it.")
    model: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    prompt_id: str | None = None
    prompt_version: str | None = None
    seed: int = 0
    edits: tuple[AppliedEdit, ...] = ()
    usage: TokenUsage | None = None
    elapsed_ms: float = 0.0
    details: dict[str, Any] = Field(
        default_factory=dict,
        description="Transform-specific record: per-word language tags, the model's list of "
        "style changes, attempts made.",
    )


class Variant(_Record):
    """One rewrite of one source under one spec.

    ``status`` is ``ok`` with ``text`` set, or ``refused``/``truncated``/``error`` with
    ``reason`` set;
    a failed rewrite is recorded, never dropped.
    """

    source_id: str
    variant_id: str
    spec: TransformSpec
    text: str | None
    status: VariantStatus = "ok"
    reason: str | None = None
    provenance: Provenance


EngineTask = tuple[Source, TransformSpec, str]
"""One task of a plan for an engine: a source, the spec to apply, and the variant id the
plan gave the result."""
