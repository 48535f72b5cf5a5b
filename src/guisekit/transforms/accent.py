"""``accent.v1``: written second-language markers (article dropping and others)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from guisekit.transforms._registry import Spec, Transform, register

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = ["AccentSpec"]


class AccentSpec(Spec):
    """Add written second-language markers (article dropping and others)."""

    transform: Literal["accent"] = "accent"
    article_drop_rate: float = Field(default=0.5, ge=0.0, le=1.0)
    marker_rate: float = Field(default=0.5, ge=0.0, le=1.0)


def _rates(engine: RulesEngine, spec: AccentSpec) -> dict[str, float]:
    # lexicons/rules/transforms.yaml maps each operator to the spec rate that drives it
    drivers: dict[str, str] = engine.lexicon.transforms["accent"]
    rates = {"article_drop_rate": spec.article_drop_rate, "marker_rate": spec.marker_rate}
    return {name: float(rates[driver]) for name, driver in drivers.items()}


ACCENT = register(Transform("accent", 1, AccentSpec, rates=_rates, prompt="accent/rewrite"))
