"""``fact_edit.v1``: change a fact on purpose, the positive control of every fact screen."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from guisekit.transforms._registry import (
    FactChange,
    RulesOutput,
    Spec,
    Transform,
    implementation,
    register,
)

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = ["FactEditSpec"]


class FactEditSpec(Spec):
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


_CHANGES: dict[str, FactChange] = {
    "scale_amounts": "scaled",  # every amount times the factor
    "strengthen": "added",  # one sentence stating a new amount
    "weaken": "claim",  # a concession no extractor sees
}


def _change(spec: FactEditSpec) -> FactChange:
    return _CHANGES[spec.kind]


_apply_fact_edit = implementation("guisekit.rules.fact_edit:apply_fact_edit")


def _rewrite(engine: RulesEngine, text: str, spec: FactEditSpec, rng: random.Random) -> RulesOutput:
    new_text, applied, intended = _apply_fact_edit(text, spec, engine.lexicon, rng)
    return RulesOutput(new_text, [e.model_dump() for e in applied], params={"intended": intended})


def _variables(text: str, spec: FactEditSpec) -> dict[str, Any]:
    return {"text": text, "kind": spec.kind, "factor": str(spec.factor), "amount": spec.amount}


FACT_EDIT = register(
    Transform(
        "fact_edit",
        1,
        FactEditSpec,
        fact_change=_change,
        label_field="kind",
        rewrite=_rewrite,
        prompt="fact_edit/rewrite",
        variables=_variables,
    )
)
