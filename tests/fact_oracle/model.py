"""Typed facts and the result of comparing two texts' facts.

Facts are named tuples (immutable, and built several times faster than a frozen
dataclass or a pydantic model): a long complaint has dozens of them and extraction is on
the hot path of every screen. They are always built by field name (the builders in
:mod:`fact_oracle.build`). Comparison results are frozen dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, NamedTuple

from fact_oracle.policy import DEFAULT_POLICY, SeverityPolicy

__all__ = [
    "Discrepancy",
    "Fact",
    "FactCheckResult",
    "FactKind",
    "Severity",
    "Verdict",
    "canonical_decimal",
]

FactKind = Literal[
    "money",
    "percent",
    "date",
    "year",
    "relative_date",
    "redaction",
    "quantity",
    "negation",
    "entity",
    "identifier",
]
Severity = Literal["fail", "warn"]
Verdict = Literal["pass", "warn", "fail"]
Currency = Literal["USD", "INR"]
Period = Literal["year", "month", "week", "day", "hour"]


def canonical_decimal(value: Decimal) -> str:
    """Plain decimal string without grouping or trailing zeros: 3400.00 -> '3400'."""
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


class Fact(NamedTuple):
    """A fact found in a text, with its span and normalised value.

    ``value`` is the canonical comparison key (``1234.56 USD``, ``2023-03-14``, ``15%``).
    ``explicit`` is False for money whose currency is only implied (``18 lakhs``).
    Money facts also record where the digits are (``number_start``/``number_end``) and
    the multiplier their written scale applies (``k`` = 1000, ``lakh`` = 100000), so a
    fact edit can rewrite the number in its own format.
    """

    kind: FactKind
    value: str
    start: int
    end: int
    text: str
    explicit: bool = True
    amount: Decimal | None = None
    currency: Currency | None = None
    period: Period | None = None
    unit: str | None = None
    year: str | None = None
    month: str | None = None
    day: str | None = None
    number_start: int | None = None
    number_end: int | None = None
    multiplier: Decimal | None = None
    role: str | None = None
    approx: str | None = None
    alt: str | None = None

    @property
    def key(self) -> str:
        """``kind:value``, the form used in reports and tests."""
        return f"{self.kind}:{self.value}"

    @property
    def label(self) -> str:
        """The key with its role and approximator, as printed: ``money:35 USD (fee)``."""
        extra = [x for x in (self.approx and f"~{self.approx}", self.role) if x]
        return self.key + (f" ({', '.join(extra)})" if extra else "")

    def to_dict(self) -> dict[str, Any]:
        data = self._asdict()
        data["amount"] = None if self.amount is None else canonical_decimal(self.amount)
        data["multiplier"] = None if self.multiplier is None else str(self.multiplier)
        return {k: v for k, v in data.items() if v is not None}


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """One difference: a fact ``added`` to, ``omitted`` from, or ``changed`` in the rewrite."""

    change: Literal["added", "omitted", "changed"]
    kind: FactKind
    original: Fact | None
    rewrite: Fact | None
    severity: Severity
    reason: str | None = None

    def describe(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        if self.change == "changed" and self.original and self.rewrite:
            what = f"{self.kind} changed: {self.original.text!r} -> {self.rewrite.text!r}"
            if self.original.role != self.rewrite.role and self.original.role and self.rewrite.role:
                what += f" (role {self.original.role} -> {self.rewrite.role})"
            elif self.original.approx != self.rewrite.approx:
                what += f" (approximator {self.original.approx!r} -> {self.rewrite.approx!r})"
            elif self.original.period != self.rewrite.period:
                what += f" (period {self.original.period} -> {self.rewrite.period})"
            return what + why
        fact = self.original or self.rewrite
        return f"{self.kind} {self.change}: {fact.text if fact else ''!r}{why}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "change": self.change,
            "kind": self.kind,
            "severity": self.severity,
            "original": None if self.original is None else self.original.to_dict(),
            "rewrite": None if self.rewrite is None else self.rewrite.to_dict(),
            "reason": self.reason,
            "description": self.describe(),
        }


@dataclass(frozen=True, slots=True)
class FactCheckResult:
    """Outcome of the exact check on one original/rewrite pair."""

    original_facts: tuple[Fact, ...]
    rewrite_facts: tuple[Fact, ...]
    discrepancies: tuple[Discrepancy, ...] = field(default=())
    policy: SeverityPolicy = field(default=DEFAULT_POLICY)

    @property
    def verdict(self) -> Verdict:
        """``fail`` if any discrepancy fails, ``warn`` if any warns, else ``pass``."""
        if any(d.severity == "fail" for d in self.discrepancies):
            return "fail"
        return "warn" if self.discrepancies else "pass"

    @property
    def passed(self) -> bool:
        """Whether the policy accepts the verdict (by default warnings pass, like ``diff``
        exit 0; under ``fail_on="warn"`` they do not)."""
        return not self.policy.rejects(self.verdict)

    def by_change(self, change: Literal["added", "omitted", "changed"]) -> list[Discrepancy]:
        return [d for d in self.discrepancies if d.change == change]

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "discrepancies": [d.to_dict() for d in self.discrepancies],
            "fail_on": self.policy.fail_on,
            "original_facts": [_fact_row(f) for f in self.original_facts],
            "rewrite_facts": [_fact_row(f) for f in self.rewrite_facts],
        }


def _fact_row(fact: Fact) -> dict[str, Any]:
    """A fact as a report row cell: kind, value, span and what qualifies it."""
    row: dict[str, Any] = {
        "kind": fact.kind,
        "value": fact.value,
        "span": [fact.start, fact.end],
        "text": fact.text,
    }
    for name in ("role", "approx", "period", "alt"):
        if getattr(fact, name) is not None:
            row[name] = getattr(fact, name)
    return row
