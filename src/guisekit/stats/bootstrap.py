"""Source-cluster bootstrap of ratio estimators from per-source sums, and percentile intervals.

Every estimate ``gaps`` reports (a mean within-source contrast, a rate, a flip rate) is a
ratio of sums over sources, ``sum_s a_s / sum_s b_s``. A resample that draws sources with
replacement multiplies each source's sums by its draw count, so all K estimates of one
resample come from two products of the (resamples x sources) count matrix with the
(sources x K) sums: one matmul per chunk of resamples, O(sources) per resample whatever
the number of rows. ``tests/test_stats_bootstrap.py`` checks the replicates against a naive
resample-and-recompute loop on the same draws.
"""

from __future__ import annotations

import numpy as np

from guisekit.errors import InputError
from guisekit.stats.clusters import FloatArray, cluster_draws, draw_counts

__all__ = ["check_level", "percentile_interval", "ratio_replicates"]


def check_level(level: float) -> None:
    """Refuse a confidence level outside (0, 1)."""
    if not 0 < level < 1:
        raise InputError(f"confidence level {level} is not between 0 and 1", hint="use e.g. 0.95")


def percentile_interval(values: FloatArray, level: float) -> tuple[FloatArray, FloatArray]:
    """Equal-tailed percentile interval over the first axis, each column on its own
    finite replicates (NaN where a column has none)."""
    check_level(level)
    tail = (1 - level) / 2
    columns = values.reshape(values.shape[0], -1)
    low = np.full(columns.shape[1], np.nan)
    high = np.full(columns.shape[1], np.nan)
    finite = np.isfinite(columns)
    if finite.all() and columns.shape[0]:
        low, high = np.quantile(columns, [tail, 1 - tail], axis=0)
    else:
        for j in range(columns.shape[1]):
            kept = columns[finite[:, j], j]
            if kept.size:
                low[j], high[j] = np.quantile(kept, [tail, 1 - tail])
    return low.reshape(values.shape[1:]), high.reshape(values.shape[1:])


def ratio_replicates(
    numerators: FloatArray, denominators: FloatArray, *, n_resamples: int, seed: int = 0
) -> FloatArray:
    """Bootstrap replicates (resamples x K) of ``sum_s num[s, k] / sum_s den[s, k]``.

    ``numerators`` and ``denominators`` are per-source sums (sources x K); a column whose
    resample has zero denominator gets NaN. Draws come from
    :func:`guisekit.stats.clusters.cluster_draws` with ``seed``, the same draws as every
    other bootstrap of the project for the same number of sources.
    """
    if n_resamples < 1:
        raise InputError("the bootstrap needs at least one resample", hint="raise --resamples")
    if numerators.shape != denominators.shape or numerators.ndim != 2:
        raise InputError("per-source numerators and denominators must be (sources x K) arrays")
    n_sources = numerators.shape[0]
    stacked = np.concatenate([numerators, denominators], axis=1)
    k = numerators.shape[1]
    out = np.empty((n_resamples, k))
    done = 0
    for draws in cluster_draws(n_sources, n_resamples, seed):
        sums = draw_counts(draws, n_sources) @ stacked
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = sums[:, :k] / sums[:, k:]
        ratio[sums[:, k:] == 0] = np.nan
        out[done : done + ratio.shape[0]] = ratio
        done += ratio.shape[0]
    return out
