"""What an LLM auditor answers: every factual difference between two texts, and a verdict.

The schema is registered as ``audit.v1`` (and, with ``discrepancies`` required, as
``audit.v2`` for the version 2 prompt) so the audit prompt can cite it; the runner
validates every reply against it and re-asks with the validation error. The validator
also checks that the parts agree with each other (an ``overall`` of ``material`` needs a
material discrepancy and the reverse; ``preserved`` lists none), because a verdict that
contradicts its own list would make the screen depend on which half one reads.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.llm.schemas import register_schema

__all__ = [
    "CATEGORIES",
    "OVERALLS",
    "SCHEMA_NAME",
    "AuditDiscrepancy",
    "AuditVerdict",
    "AuditVerdictV2",
    "Category",
    "ChangeKind",
    "Overall",
]

Category = Literal[
    "amount",
    "date_time",
    "chronology",
    "responsibility",
    "negation",
    "certainty",
    "requested_relief",
    "event_or_entity",
    "other",
]
ChangeKind = Literal["added", "omitted", "changed"]
Overall = Literal["preserved", "minor", "material"]
CATEGORIES: tuple[Category, ...] = get_args(Category)
OVERALLS: tuple[Overall, ...] = get_args(Overall)
SCHEMA_NAME = "audit.v1"


class AuditDiscrepancy(BaseModel):
    """One factual difference between text A (original) and text B (rewrite)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    category: Category = Field(description="Which kind of fact differs.")
    kind: ChangeKind = Field(
        description="added: only in B; omitted: only in A; changed: in both, different."
    )
    material: bool = Field(description="Could this difference change the decision the text feeds?")
    description: str = Field(
        min_length=1, max_length=600, description="What differs, quoting both texts briefly."
    )


class AuditVerdict(BaseModel):
    """Every factual difference found, then the overall verdict they add up to."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    discrepancies: tuple[AuditDiscrepancy, ...] = Field(
        default=(), description="Every factual difference; empty when the facts are the same."
    )
    overall: Overall = Field(
        description="preserved: no factual difference; minor: differences, none material; "
        "material: at least one material difference."
    )

    @model_validator(mode="after")
    def _consistent(self) -> AuditVerdict:
        any_material = any(d.material for d in self.discrepancies)
        if self.overall == "preserved" and self.discrepancies:
            raise ValueError("overall is 'preserved' but discrepancies are listed")
        if self.overall == "minor" and (any_material or not self.discrepancies):
            raise ValueError("overall 'minor' needs at least one discrepancy and none material")
        if self.overall == "material" and not any_material:
            raise ValueError("overall is 'material' but no discrepancy is marked material")
        return self

    @property
    def material(self) -> bool:
        """The binary flag the screen and the flag rates use."""
        return self.overall == "material"


class AuditVerdictV2(AuditVerdict):
    """The ``audit.v2`` answer: as :class:`AuditVerdict`, but the list must be given (an
    auditor that leaves it out has not said it looked)."""

    discrepancies: tuple[AuditDiscrepancy, ...] = Field(
        description="Every factual difference; an empty list when the facts are the same."
    )


register_schema(SCHEMA_NAME, AuditVerdict)
register_schema("audit.v2", AuditVerdictV2)
