"""The corpus summary as running totals: one row per transform label, never a list of
variants.

The summary used to be recomputed from every variant held in memory after the run
(Flesch-Kincaid grade, cue counts and an edit distance per variant: 61% of corpus time,
and the reason a corpus had to fit in memory). Now each chunk of a run adds its variants
to a :class:`SummaryTotals` as it is made (in the worker that made it), chunks merge in
chunk order, and the rows are read off at the end.

Means are exact: sums are kept as Shewchuk's non-overlapping partials (the algorithm
behind :func:`math.fsum`), so a mean is the correctly rounded sum over *all* variants
divided by their count, whatever the chunk size or worker count: the same number the
old ``statistics.fmean`` over the whole list gave, bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz.distance import Levenshtein

from guisekit.rules.cues import style_cues
from guisekit.style import flesch_kincaid_grade

__all__ = ["MEASURES", "ExactSum", "SummaryTotals", "measures", "shift"]

MEASURES = ("d_fk_grade", "d_hedges", "d_informal", "d_sophisticated")
"""Per-text style measures whose variant-minus-source shift the summary averages."""
_SHIFTS = ("change", *MEASURES)


def measures(text: str) -> tuple[float, ...]:
    """Flesch-Kincaid grade and hedge, informal-marker and sophisticated-word rates per
    100 words of ``text``, in the order of :data:`MEASURES`."""
    cues = style_cues(text)
    return (
        flesch_kincaid_grade(text),
        cues.hedges,
        cues.informal_markers,
        cues.sophisticated,
    )


def shift(
    source: str, source_measures: tuple[float, ...], text: str, text_measures: tuple[float, ...]
) -> tuple[float, ...]:
    """Normalised edit distance from the source, then each measure's shift (variant minus
    source), in the order ``change, *MEASURES``. An unchanged text shifts by exactly 0."""
    if text == source:
        return (0.0,) * len(_SHIFTS)
    return (
        Levenshtein.normalized_distance(source, text),
        *(after - before for after, before in zip(text_measures, source_measures, strict=True)),
    )


@dataclass
class ExactSum:
    """A float sum without rounding error (Shewchuk): ``value`` equals ``math.fsum`` of
    everything added, in any order and any grouping."""

    partials: list[float] = field(default_factory=list)

    def add(self, x: float) -> None:
        partials = self.partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def merge(self, other: ExactSum) -> None:
        for x in other.partials:
            self.add(x)

    @property
    def value(self) -> float:
        return math.fsum(self.partials)


@dataclass
class _Label:
    """Running totals of one transform label."""

    variants: int = 0
    ok: int = 0
    failed_validation: int = 0
    checked: int = 0
    passed: int = 0
    intended: int = 0
    shifted: int = 0
    sums: list[ExactSum] = field(default_factory=lambda: [ExactSum() for _ in _SHIFTS])

    def merge(self, other: _Label) -> None:
        self.variants += other.variants
        self.ok += other.ok
        self.failed_validation += other.failed_validation
        self.checked += other.checked
        self.passed += other.passed
        self.intended += other.intended
        self.shifted += other.shifted
        for mine, theirs in zip(self.sums, other.sums, strict=True):
            mine.merge(theirs)

    def row(self, label: str) -> dict[str, Any]:
        row: dict[str, Any] = {
            "transform": label,
            "variants": self.variants,
            "ok": self.ok,
            "failed_validation": self.failed_validation,
            "fact_pass": round(self.passed / self.checked, 3) if self.checked else None,
            "as_intended": round(self.intended / self.checked, 3) if self.checked else None,
        }
        for key, total in zip(_SHIFTS, self.sums, strict=True):
            row[key] = round(total.value / self.shifted, 3) if self.shifted else None
        return row


@dataclass
class SummaryTotals:
    """Running totals per transform label, in order of first appearance."""

    labels: dict[str, _Label] = field(default_factory=dict)

    def add(
        self,
        label: str,
        *,
        ok: bool,
        failed_validation: bool,
        check: tuple[bool, bool] | None,
        shifts: tuple[float, ...] | None,
    ) -> None:
        """Count one variant: ``check`` is (passed, as intended) when it was fact-checked,
        ``shifts`` its :func:`shift` when it is ``ok``."""
        totals = self.labels.get(label)
        if totals is None:
            totals = self.labels[label] = _Label()
        totals.variants += 1
        totals.ok += ok
        totals.failed_validation += failed_validation
        if check is not None:
            totals.checked += 1
            totals.passed += check[0]
            totals.intended += check[1]
        if shifts is not None:
            totals.shifted += 1
            for total, value in zip(totals.sums, shifts, strict=True):
                total.add(value)

    def merge(self, other: SummaryTotals) -> None:
        """Add a later chunk's totals (labels new to this one go last)."""
        for label, totals in other.labels.items():
            mine = self.labels.get(label)
            if mine is None:
                mine = self.labels[label] = _Label()
            mine.merge(totals)

    def rows(self) -> list[dict[str, Any]]:
        """One summary row per label: counts, fact-check shares and mean shifts."""
        return [totals.row(label) for label, totals in self.labels.items()]

    def to_json(self) -> dict[str, Any]:
        """Plain data for the resume journal (floats survive JSON exactly)."""
        return {
            label: {
                "counts": [t.variants, t.ok, t.failed_validation, t.checked, t.passed,
                           t.intended, t.shifted],
                "sums": [s.partials for s in t.sums],
            }
            for label, t in self.labels.items()
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SummaryTotals:
        totals = cls()
        for label, entry in data.items():
            variants, ok, failed, checked, passed, intended, shifted = entry["counts"]
            totals.labels[label] = _Label(
                variants=variants,
                ok=ok,
                failed_validation=failed,
                checked=checked,
                passed=passed,
                intended=intended,
                shifted=shifted,
                sums=[ExactSum(list(p)) for p in entry["sums"]],
            )
        return totals
