"""Failed work is loud: one tally of item statuses, one exit policy, one last line.

Every command that calls a model (corpus variants, audit verdicts, LLM attribute scores)
ends each item as ``ok``, ``refused``, ``truncated`` or ``error``. A refusal is the
model's answer and is reported; ``truncated`` (the reply hit the token limit even with
more room) and ``error`` (transport faults, rejected requests, invalid output after every
re-ask) mean the work was not done. When the share of such items exceeds
``--max-error-rate`` (default 0: any failure), the command exits with
:data:`EXIT_FAILED` (3), after writing its outputs, and its last line says how many failed
and why, grouped by reason::

    2 of 12 variants failed (16.7% > 0% allowed): 1 connection refused, 1 truncated

Reasons are grouped by their leading phrase (``timed out after 60 s``, ``connection
refused``, ``server error (500)``, ``invalid output (re-asks exhausted)``), so a run
with a thousand timeouts prints one group, not a thousand lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated

import typer

__all__ = ["EXIT_FAILED", "FailureTally", "MaxErrorRate", "finish", "reason_group", "tally"]

EXIT_FAILED = 3
"""Exit status of a command whose share of failed items exceeds ``--max-error-rate``."""

MaxErrorRate = Annotated[
    float,
    typer.Option(
        "--max-error-rate",
        min=0.0,
        max=1.0,
        help="Exit 3 when a larger share of items ends in error or truncated "
        "(default 0: any failure); outputs are written either way.",
    ),
]
"""The ``--max-error-rate`` option every model-calling command takes."""

FAILED_STATUSES = frozenset({"error", "truncated"})

# Where a reason's group ends: its details, a hint in brackets, or the retry count.
_GROUP_END = re.compile(r":\s| \((?:a slow|is the)|; ")


def reason_group(status: str, reason: str | None) -> str:
    """The group a failure is counted under: ``truncated``, or the reason's leading phrase."""
    if status == "truncated":
        return "truncated"
    text = (reason or status).strip()
    return _GROUP_END.split(text, maxsplit=1)[0].strip() or status


@dataclass(frozen=True)
class FailureTally:
    """How the items of one command ended (``what``: ``variants``, ``verdicts``, ...)."""

    what: str
    by_status: dict[str, int]
    reasons: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.by_status.values())

    @property
    def failed(self) -> int:
        return sum(n for status, n in self.by_status.items() if status in FAILED_STATUSES)

    @property
    def rate(self) -> float:
        return self.failed / self.total if self.total else 0.0

    def exceeds(self, max_error_rate: float) -> bool:
        """Whether more than ``max_error_rate`` of the items failed."""
        return self.failed > 0 and self.rate > max_error_rate

    def line(self, max_error_rate: float) -> str:
        """The closing line: how many failed, against what was allowed, and why."""
        why = ", ".join(
            f"{n} {reason}"
            for reason, n in sorted(self.reasons.items(), key=lambda item: (-item[1], item[0]))
        )
        return (
            f"{self.failed} of {self.total} {self.what} failed "
            f"({self.rate:.1%} > {max_error_rate:.1%} allowed): {why}"
            if self.exceeds(max_error_rate)
            else f"{self.failed} of {self.total} {self.what} failed "
            f"({self.rate:.1%}, within the {max_error_rate:.1%} allowed): {why}"
        )


def tally(what: str, items: Iterable[tuple[str, str | None]]) -> FailureTally:
    """Count ``(status, reason)`` pairs; failed ones are grouped by reason."""
    statuses: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for status, reason in items:
        statuses[status] += 1
        if status in FAILED_STATUSES:
            reasons[reason_group(status, reason)] += 1
    return FailureTally(what, dict(statuses), dict(reasons))


def finish(found: FailureTally, max_error_rate: float) -> None:
    """Print the closing line when anything failed, and exit with :data:`EXIT_FAILED`
    when more than ``max_error_rate`` failed. Call it last, after the outputs are written."""
    from guisekit.console import err

    if found.failed == 0:
        return
    err.print(found.line(max_error_rate), markup=False, highlight=False, soft_wrap=True)
    if found.exceeds(max_error_rate):
        raise typer.Exit(EXIT_FAILED)
