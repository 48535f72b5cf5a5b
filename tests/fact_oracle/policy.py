"""The one severity policy of the exact fact check.

Every detected change of a checkable fact (an amount, a count, a date, a negator, a name)
*fails*: a reader would call it a change of fact, and a screen that lets it through with
exit 0 is a screen that misses it. ``warn`` is kept for what the check cannot decide
alone, and each warning carries its reason (a numeric date whose day/month order the text
does not settle, read one way and rewritten the other). The same object decides for
``check-facts``, the standardiser's gate and the audit's screen, so the three never
disagree on a pair.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from guisekit.errors import ConfigError

if TYPE_CHECKING:
    from fact_oracle.model import Discrepancy, FactKind, Severity, Verdict

__all__ = ["DEFAULT_POLICY", "DateOrder", "FailOn", "SeverityPolicy"]

FailOn = Literal["warn", "fail"]
DateOrder = Literal["mdy", "dmy", "auto"]


@dataclass(frozen=True, slots=True)
class SeverityPolicy:
    """How the exact check grades and acts on what it finds.

    fail_on:
        ``"fail"`` (default): a pair is rejected when any discrepancy fails; ``"warn"``:
        warnings reject too (the standardiser uses this: a candidate it cannot verify is
        not used).
    date_order:
        How ``3/4/2024`` is read. ``"mdy"`` / ``"dmy"`` fix the order; ``"auto"`` reads a
        text with an Indian context (₹, Rs., lakh, crore, LPA, an Indian place name) as
        day-first, any other text month-first, and marks a date whose two numbers could
        be either as ambiguous: matching it against a date written another way warns,
        with the two readings, instead of guessing.
    warn_kinds:
        Fact kinds whose changes only warn (reason: "kind in warn_kinds of the policy").
        Empty by default: every change fails.
    """

    fail_on: FailOn = "fail"
    date_order: DateOrder = "auto"
    warn_kinds: frozenset[FactKind] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.fail_on not in get_args(FailOn):
            raise ConfigError(
                f"unknown value {self.fail_on!r}", location="fail_on", hint="use 'warn' or 'fail'"
            )
        if self.date_order not in get_args(DateOrder):
            raise ConfigError(
                f"unknown value {self.date_order!r}",
                location="date_order",
                hint="use 'mdy', 'dmy' or 'auto'",
            )

    def severity(self, kind: FactKind, reason: str | None = None) -> tuple[Severity, str | None]:
        """The severity of a change of ``kind``; ``reason`` set means the check could not
        decide (an ambiguous reading), which warns with that reason."""
        if reason is not None:
            return "warn", reason
        if kind in self.warn_kinds:
            return "warn", f"{kind} is in the policy's warn_kinds"
        return "fail", None

    def rejects(self, verdict: Verdict) -> bool:
        """Whether a pair with this verdict is rejected (exit 1, fallback, screen fail)."""
        return verdict == "fail" or (self.fail_on == "warn" and verdict == "warn")

    def blocking(self, discrepancies: tuple[Discrepancy, ...]) -> list[Discrepancy]:
        """The discrepancies that make a pair rejected under this policy."""
        return [d for d in discrepancies if d.severity == "fail" or self.fail_on == "warn"]


DEFAULT_POLICY = SeverityPolicy()
