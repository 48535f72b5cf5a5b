"""Statistics of an audit: flag rates with source-cluster bootstrap intervals, and agreement.

Rewrites of one source share its facts, its length and its traps, so their flags are not
independent; intervals therefore come from a cluster bootstrap that resamples *sources*
with replacement and keeps every rewrite of a drawn source. With population weights (one
per source, e.g. the inverse of its sampling probability in a stratified sample) a rate is
the weighted share ``sum(w * flag) / sum(w)``, in the estimate and in every resample.

Each resample's rate is computed from per-source sums (flagged weight, total weight) with
one matrix product, so a resample costs O(sources). Draws come from
:func:`guisekit.gelbach.clusters.cluster_draws` with the given seed: the same data and seed
give the same intervals.

Agreement between two auditors is the share of pairs on which they give the same answer
and Cohen's kappa, which discounts the agreement their answer rates would produce by
chance: ``(p_o - p_e) / (1 - p_e)`` with ``p_e = sum_k p_a(k) p_b(k)`` (Cohen 1960).
Kappa is undefined (None) when chance agreement is 1, i.e. both auditors always give the
same single answer.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.errors import InputError
from guisekit.gelbach.clusters import cluster_draws, draw_counts, group_codes

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_RESAMPLES",
    "Agreement",
    "RateEstimate",
    "agreement",
    "cluster_rate",
    "cohens_kappa",
]

DEFAULT_RESAMPLES = 2000
DEFAULT_LEVEL = 0.95


class RateEstimate(BaseModel):
    """A (weighted) share of flagged pairs with its cluster-bootstrap percentile interval.

    ``estimate`` is None when no pair was observed; the interval is None without
    resamples. ``flagged`` counts pairs, whatever the weights.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    n: int = Field(ge=0)
    n_sources: int = Field(ge=0)
    flagged: int = Field(ge=0)
    estimate: float | None
    ci_low: float | None = None
    ci_high: float | None = None

    @model_validator(mode="after")
    def _consistent(self) -> RateEstimate:
        if self.flagged > self.n or (self.n == 0) != (self.estimate is None):
            raise ValueError("counts and estimate disagree")
        if (self.ci_low is None) != (self.ci_high is None):
            raise ValueError("an interval needs both bounds")
        if self.ci_low is not None and self.ci_high is not None and self.ci_low > self.ci_high:
            raise ValueError("interval bounds are reversed")
        return self


def cluster_rate(
    flags: Sequence[bool],
    clusters: Sequence[Hashable],
    weights: Sequence[float] | None = None,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    level: float = DEFAULT_LEVEL,
) -> RateEstimate:
    """Share of ``flags`` that are True, with a ``level`` percentile interval from
    ``n_resamples`` source-cluster bootstrap resamples (0: no interval)."""
    if len(flags) != len(clusters) or (weights is not None and len(weights) != len(flags)):
        raise InputError("flags, clusters and weights must have the same length")
    if not 0 < level < 1:
        raise InputError(f"confidence level {level} is not between 0 and 1", hint="use 0.95")
    if n_resamples < 0:
        raise InputError("the number of bootstrap resamples cannot be negative")
    n = len(flags)
    if n == 0:
        return RateEstimate(n=0, n_sources=0, flagged=0, estimate=None)
    flag = np.asarray(flags, dtype=np.float64)
    weight = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    if not np.all(np.isfinite(weight)) or np.any(weight <= 0):
        raise InputError("population weights must be positive numbers")
    codes, labels = group_codes(list(clusters))
    n_sources = len(labels)
    hits = np.bincount(codes, weights=flag * weight, minlength=n_sources).astype(np.float64)
    totals = np.bincount(codes, weights=weight, minlength=n_sources).astype(np.float64)
    estimate = float(hits.sum() / totals.sum())
    low = high = None
    if n_resamples:
        rates = _resampled_rates(hits, totals, n_resamples, seed)
        alpha = (1.0 - level) / 2.0
        low, high = (float(v) for v in np.quantile(rates, [alpha, 1.0 - alpha]))
    return RateEstimate(
        n=n,
        n_sources=n_sources,
        flagged=int(flag.sum()),
        estimate=estimate,
        ci_low=low,
        ci_high=high,
    )


def _resampled_rates(
    hits: NDArray[np.float64], totals: NDArray[np.float64], n_resamples: int, seed: int
) -> NDArray[np.float64]:
    n_sources = hits.shape[0]
    parts = []
    for draws in cluster_draws(n_sources, n_resamples, seed):
        counts = draw_counts(draws, n_sources)
        parts.append((counts @ hits) / (counts @ totals))
    return np.concatenate(parts)


class Agreement(BaseModel):
    """How often two auditors agree on the same pairs, raw and beyond chance."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    n: int = Field(ge=0)
    percent: float | None = Field(description="Share of pairs with the same answer, 0-100.")
    kappa: float | None
    expected: float | None = Field(description="Chance agreement p_e.")


def cohens_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters' labels on the same items (None when undefined)."""
    return agreement(a, b).kappa


def agreement(a: Sequence[Hashable], b: Sequence[Hashable]) -> Agreement:
    """Percent agreement and Cohen's kappa of two raters' labels on the same items."""
    if len(a) != len(b):
        raise InputError("both raters must label the same items")
    n = len(a)
    if n == 0:
        return Agreement(n=0, percent=None, kappa=None, expected=None)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    categories = set(a) | set(b)
    expected = sum((list(a).count(k) / n) * (list(b).count(k) / n) for k in categories)
    kappa = None if expected >= 1.0 - 1e-12 else (observed - expected) / (1.0 - expected)
    return Agreement(n=n, percent=100.0 * observed, kappa=kappa, expected=expected)
