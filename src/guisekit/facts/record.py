"""The exact check's result as a typed record that crosses module and file boundaries.

:class:`~guisekit.facts.model.FactCheckResult` holds the facts themselves (spans, values)
for code; screening reports and the standardiser's responses need a flat, validated
record of the verdict and each discrepancy, the same everywhere.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from guisekit.facts.model import FactCheckResult, FactKind, Severity, Verdict
from guisekit.facts.policy import FailOn, SeverityPolicy

__all__ = ["DiscrepancyRecord", "FactCheckRecord"]


class DiscrepancyRecord(BaseModel):
    """One fact the rewrite added, omitted or changed, as text."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    change: Literal["added", "omitted", "changed"]
    kind: FactKind
    severity: Severity
    original: str | None
    rewrite: str | None
    description: str
    reason: str | None = None


class FactCheckRecord(BaseModel):
    """The exact check's verdict on one pair with every discrepancy."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    verdict: Verdict
    discrepancies: tuple[DiscrepancyRecord, ...] = ()
    fail_on: FailOn = "fail"

    @property
    def passed(self) -> bool:
        """Whether the severity policy the check ran under accepts the verdict."""
        return not SeverityPolicy(fail_on=self.fail_on).rejects(self.verdict)

    @staticmethod
    def records(result: FactCheckResult) -> tuple[DiscrepancyRecord, ...]:
        """Each discrepancy of ``result`` as a record."""
        return tuple(
            DiscrepancyRecord(
                change=d.change,
                kind=d.kind,
                severity=d.severity,
                original=None if d.original is None else d.original.text,
                rewrite=None if d.rewrite is None else d.rewrite.text,
                description=d.describe(),
                reason=d.reason,
            )
            for d in result.discrepancies
        )

    @classmethod
    def of(cls, result: FactCheckResult) -> FactCheckRecord:
        return cls(
            verdict=result.verdict,
            discrepancies=cls.records(result),
            fail_on=result.policy.fail_on,
        )
