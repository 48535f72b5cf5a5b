"""Auditor validity: does an auditor catch the fact edits made on purpose?

Every corpus can carry positive controls (``fact_edit`` variants: amounts scaled, an amount
added, the claim weakened). An auditor that misses them cannot be trusted to find
accidental changes either, so it is *valid* for a run only when it rates at least
``threshold`` (default 80%) of the controls material. A control the auditor could not
answer counts as missed: an auditor that fails to answer is no more trustworthy than one
that answers wrongly. Without any control the validity is ``unknown``, and the auditor's
flags count in the screen (a flag is never ignored without evidence against its source).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.audit.auditor import AuditOutcome

__all__ = [
    "DEFAULT_THRESHOLD",
    "AuditorValidity",
    "KindDetection",
    "ValidityStatus",
    "auditor_validity",
]

DEFAULT_THRESHOLD = 0.8
ValidityStatus = Literal["valid", "invalid", "unknown"]


class KindDetection(BaseModel):
    """How many controls of one fact-edit kind a detector flagged."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: str
    controls: int = Field(ge=0)
    flagged: int = Field(ge=0)

    @property
    def rate(self) -> float | None:
        return self.flagged / self.controls if self.controls else None


class AuditorValidity(BaseModel):
    """An auditor's detection rate on the positive controls, and what it means for the run."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    auditor: str
    threshold: float = Field(ge=0.0, le=1.0)
    controls: int = Field(ge=0)
    flagged: int = Field(ge=0)
    unanswered: int = Field(ge=0, description="Controls without a verdict (counted as missed).")
    rate: float | None
    status: ValidityStatus
    by_kind: tuple[KindDetection, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> AuditorValidity:
        if self.flagged + self.unanswered > self.controls:
            raise ValueError("more controls flagged or unanswered than there are controls")
        expected: ValidityStatus = (
            "unknown"
            if not self.controls
            else "valid"
            if self.flagged / self.controls >= self.threshold
            else "invalid"
        )
        if self.status != expected:
            raise ValueError(f"status {self.status!r} does not follow from the counts")
        if sum(k.controls for k in self.by_kind) not in (0, self.controls):
            raise ValueError("per-kind controls do not add up")
        return self

    @property
    def counts(self) -> bool:
        """Whether this auditor's material flags count in the screen."""
        return self.status != "invalid"


def auditor_validity(
    auditor: str,
    controls: Sequence[tuple[str, AuditOutcome]],
    threshold: float = DEFAULT_THRESHOLD,
) -> AuditorValidity:
    """Validity of ``auditor`` from its outcomes on the run's controls, given as
    ``(fact-edit kind, outcome)``."""
    flagged = sum(outcome.material is True for _, outcome in controls)
    unanswered = sum(outcome.verdict is None for _, outcome in controls)
    kinds = sorted({kind for kind, _ in controls})
    by_kind = tuple(
        KindDetection(
            kind=kind,
            controls=sum(k == kind for k, _ in controls),
            flagged=sum(k == kind and o.material is True for k, o in controls),
        )
        for kind in kinds
    )
    rate = flagged / len(controls) if controls else None
    status: ValidityStatus = (
        "unknown" if rate is None else "valid" if rate >= threshold else "invalid"
    )
    return AuditorValidity(
        auditor=auditor,
        threshold=threshold,
        controls=len(controls),
        flagged=flagged,
        unanswered=unanswered,
        rate=rate,
        status=status,
        by_kind=by_kind,
    )
