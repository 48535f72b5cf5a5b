"""``hedge.v1``: more hedged or more confident wording, from weighted rule operators."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from guisekit.transforms._registry import Spec, Transform, register

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = ["HedgeSpec"]


class HedgeSpec(Spec):
    """Make the text more hedged or more confident; ``strength`` in [0, 1]."""

    transform: Literal["hedge"] = "hedge"
    direction: Literal["hedged", "confident"]
    strength: float = Field(default=0.7, ge=0.0, le=1.0)


def _rates(engine: RulesEngine, spec: HedgeSpec) -> dict[str, float]:
    # weights per direction live in lexicons/rules/transforms.yaml; strength scales them
    weights = engine.lexicon.transforms["hedge"][spec.direction]
    return {name: min(1.0, w * spec.strength) for name, w in weights.items()}


HEDGE = register(
    Transform("hedge", 1, HedgeSpec, label_field="direction", rates=_rates, prompt="hedge/rewrite")
)
