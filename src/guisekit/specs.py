"""Typed transform specs: what to do to a text, independent of the engine that does it.

A spec is a tagged union on ``transform``; each member validates its own parameters,
so a bad value in a config fails where it enters, with its location.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

__all__ = [
    "AccentSpec",
    "FactEditSpec",
    "HedgeSpec",
    "HinglishSpec",
    "IdentitySpec",
    "PersonaSpec",
    "StandardiseSpec",
    "TransformName",
    "TransformSpec",
    "parse_spec",
]

TransformName = Literal[
    "identity", "persona", "hedge", "accent", "fact_edit", "standardise", "hinglish"
]
StandardStyle = Literal["plain", "formal", "simple"]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    version: int = Field(default=1, ge=1, description="Behaviour version of the transform.")


class IdentitySpec(_Spec):
    """Leave the text as it is: the control arm of every matched-guise design."""

    transform: Literal["identity"] = "identity"


class PersonaSpec(_Spec):
    """Rewrite in the guise of one persona, given as axis -> level."""

    transform: Literal["persona"] = "persona"
    persona: dict[str, str] = Field(min_length=1)
    grid: str | None = Field(
        default=None, description="A packaged grid name (default, demographic) or a grid YAML path."
    )


class HedgeSpec(_Spec):
    """Make the text more hedged or more confident; ``strength`` in [0, 1]."""

    transform: Literal["hedge"] = "hedge"
    direction: Literal["hedged", "confident"]
    strength: float = Field(default=0.7, ge=0.0, le=1.0)


class AccentSpec(_Spec):
    """Add written second-language markers (article dropping and others)."""

    transform: Literal["accent"] = "accent"
    article_drop_rate: float = Field(default=0.5, ge=0.0, le=1.0)
    marker_rate: float = Field(default=0.5, ge=0.0, le=1.0)


class FactEditSpec(_Spec):
    """Change a fact on purpose: the positive control for every fact screen."""

    transform: Literal["fact_edit"] = "fact_edit"
    kind: Literal["scale_amounts", "strengthen", "weaken"]
    factor: Decimal = Field(default=Decimal(10), gt=0)
    amount: str = Field(default="$500", min_length=1, description="Amount stated when none.")

    @field_validator("factor")
    @classmethod
    def _normalise_factor(cls, value: Decimal) -> Decimal:
        # 10 and 10.0 are the same factor and must give the same variant id.
        return value.normalize() if value != value.to_integral_value() else Decimal(int(value))


class StandardiseSpec(_Spec):
    """Rewrite into one canonical style; idempotent."""

    transform: Literal["standardise"] = "standardise"
    style: StandardStyle = "plain"


class HinglishSpec(_Spec):
    """Rewrite as romanised Hindi-English code-mixing (Hinglish), Hindi as the frame.

    ``mix_ratio`` is the share of English content words with a common Hindi equivalent
    written in Hindi (0: every content word stays English); ``min_hindi_share`` and
    ``max_hindi_share`` bound the share of Hindi-tagged words a valid variant has;
    ``spelling`` picks the romanisation (``standard`` hai/raha/nahi, ``formal``
    nahin/kyon, ``clipped`` h/rha/nhi, ``mixed`` a seeded mix of standard and clipped);
    ``script`` is ``latin`` or ``devanagari`` (for the Hindi words).
    """

    transform: Literal["hinglish"] = "hinglish"
    mix_ratio: float = Field(default=0.5, ge=0.0, le=1.0)
    min_hindi_share: float = Field(default=0.2, ge=0.0, le=1.0)
    max_hindi_share: float = Field(default=0.9, ge=0.0, le=1.0)
    spelling: Literal["standard", "formal", "clipped", "mixed"] = "standard"
    script: Literal["latin", "devanagari"] = "latin"

    @model_validator(mode="after")
    def _band_in_order(self) -> HinglishSpec:
        if self.min_hindi_share > self.max_hindi_share:
            raise ValueError("min_hindi_share is above max_hindi_share")
        return self


TransformSpec = Annotated[
    IdentitySpec
    | PersonaSpec
    | HedgeSpec
    | AccentSpec
    | FactEditSpec
    | StandardiseSpec
    | HinglishSpec,
    Field(discriminator="transform"),
]

_ADAPTER: TypeAdapter[TransformSpec] = TypeAdapter(TransformSpec)


def parse_spec(data: object) -> TransformSpec:
    """Validate a mapping (from YAML/JSON) into the matching spec model."""
    return _ADAPTER.validate_python(data)
