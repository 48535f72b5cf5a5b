"""Individual-scale instability: flip rate, mean pairwise absolute difference (MPAD) and
total-variation distance, over every pair of decisions within a group.

A group is the set of decisions that *should* agree: the versions of one source (persona
scale), or the repeats / option orders of one variant (the noise controls). Each function
returns per-group sums over pairs and the number of pairs, so the pooled statistic is a
ratio of sums that :func:`guisekit.stats.bootstrap.ratio_replicates` resamples by source.
All pairs are counted in closed form (label counts; sorted values), never enumerated, so a
group of 36 versions costs O(36 log 36), not 630 pair visits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guisekit.errors import InputError
from guisekit.stats.clusters import FloatArray, IntArray

__all__ = ["PairSums", "pairwise_abs_diff", "pairwise_disagreement", "pairwise_tv"]


@dataclass(frozen=True)
class PairSums:
    """Per group: ``total`` of the pair statistic over its pairs and the number of pairs."""

    total: FloatArray
    pairs: FloatArray

    def __post_init__(self) -> None:
        if self.total.shape != self.pairs.shape:
            raise InputError("pair sums and pair counts must have the same shape")

    @property
    def pooled(self) -> float:
        """The statistic over all pairs of all groups (NaN with no pair)."""
        n = float(self.pairs.sum())
        return float(self.total.sum() / n) if n else float("nan")


def _check(groups: IntArray, n: int, n_groups: int | None) -> int:
    if groups.shape != (n,):
        raise InputError("give one group per decision")
    if n and groups.min() < 0:
        raise InputError("group codes must be non-negative")
    return int(groups.max() + 1 if n else 0) if n_groups is None else n_groups


def _pairs(groups: IntArray, n_groups: int) -> FloatArray:
    size = np.bincount(groups, minlength=n_groups).astype(np.float64)
    out: FloatArray = size * (size - 1) / 2.0
    return out


def pairwise_disagreement(
    labels: IntArray, groups: IntArray, n_groups: int | None = None
) -> PairSums:
    """Flip rate parts: pairs with different labels, ``(n^2 - sum_k c_k^2) / 2`` per group."""
    labels = np.asarray(labels, dtype=np.int64)
    groups = np.asarray(groups, dtype=np.int64)
    g = _check(groups, labels.shape[0], n_groups)
    n_labels = int(labels.max() + 1) if labels.size else 1
    counts = np.bincount(groups * n_labels + labels, minlength=g * n_labels).reshape(g, n_labels)
    size = counts.sum(axis=1).astype(np.float64)
    differing = (size**2 - (counts.astype(np.float64) ** 2).sum(axis=1)) / 2.0
    return PairSums(total=differing, pairs=_pairs(groups, g))


def _abs_diff_sums(values: FloatArray, groups: IntArray, g: int) -> FloatArray:
    # Within a sorted group x_(0) <= ... <= x_(n-1): sum_{i<j} |x_j - x_i| =
    # sum_i x_(i) (2i - n + 1).
    # stable sort by value, then stable sort by group: faster than lexsort on large arrays
    order = np.argsort(values, kind="stable")
    order = order[np.argsort(groups[order], kind="stable")]
    v, grp = values[order], groups[order]
    size = np.bincount(grp, minlength=g)
    starts = np.concatenate(([0], np.cumsum(size)[:-1]))
    rank = np.arange(v.shape[0]) - starts[grp]
    weights = v * (2 * rank - size[grp] + 1)
    out: FloatArray = np.bincount(grp, weights=weights, minlength=g).astype(np.float64)
    return out


def pairwise_abs_diff(
    values: FloatArray, groups: IntArray, n_groups: int | None = None
) -> PairSums:
    """MPAD parts: the sum of ``|x_i - x_j|`` over pairs within each group."""
    values = np.asarray(values, dtype=np.float64)
    groups = np.asarray(groups, dtype=np.int64)
    g = _check(groups, values.shape[0], n_groups)
    if not np.isfinite(values).all():
        raise InputError("MPAD needs finite outcomes", hint="drop failed decisions first")
    return PairSums(total=_abs_diff_sums(values, groups, g), pairs=_pairs(groups, g))


def pairwise_tv(probs: FloatArray, groups: IntArray, n_groups: int | None = None) -> PairSums:
    """Total-variation parts: ``sum over pairs of 0.5 * sum_k |p_ik - p_jk|`` per group,
    for label-probability rows ``probs`` (decisions x labels)."""
    probs = np.asarray(probs, dtype=np.float64)
    groups = np.asarray(groups, dtype=np.int64)
    if probs.ndim != 2:
        raise InputError("label probabilities must be a (decisions x labels) array")
    g = _check(groups, probs.shape[0], n_groups)
    total = sum(
        (_abs_diff_sums(probs[:, k], groups, g) for k in range(probs.shape[1])), np.zeros(g)
    )
    return PairSums(total=0.5 * total, pairs=_pairs(groups, g))
