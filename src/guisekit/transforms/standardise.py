"""``standardise.v1``: rewrite into one canonical style; idempotent."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from guisekit.transforms._registry import Spec, Transform, register

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = ["StandardStyle", "StandardiseSpec"]

StandardStyle = Literal["plain", "formal", "simple"]
_MAX_ROUNDS = 8  # operators run to a fixed point, which makes the transform idempotent


class StandardiseSpec(Spec):
    """Rewrite into one canonical style; idempotent."""

    transform: Literal["standardise"] = "standardise"
    style: StandardStyle = "plain"


def _rates(engine: RulesEngine, spec: StandardiseSpec) -> dict[str, float]:
    return dict.fromkeys(engine.lexicon.transforms["standardise"][spec.style], 1.0)


STANDARDISE = register(
    Transform(
        "standardise",
        1,
        StandardiseSpec,
        label_field="style",
        rates=_rates,
        rounds=_MAX_ROUNDS,
        prompt="standardise/rewrite",
    )
)
