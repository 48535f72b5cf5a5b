"""Source-cluster bootstrap of the Gelbach decomposition from per-source cross-products.

A resample draws sources with replacement; every drawn copy is its own cluster with its
own fixed effect. Because demeaning happens within a source, each copy contributes the
source's own cross-products, so a resample's normal equations are the draw-count-weighted
sum of the precomputed per-source matrices: one (resamples x sources) by (sources x m^2)
matrix product per chunk of resamples, then a batch of small solves. The replicates are
exactly those of refitting on the resampled rows (``tests/test_gelbach.py`` checks this to
1e-10 against a naive resample-and-refit on the same draws).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guisekit.errors import InputError
from guisekit.gelbach.decompose import CrossProducts, Estimates
from guisekit.stats.bootstrap import check_level, percentile_interval
from guisekit.stats.clusters import FloatArray, cluster_draws, draw_counts

__all__ = ["BootstrapReplicates", "bootstrap", "check_level", "percentile_interval"]

DEFAULT_RESAMPLES = 2000


@dataclass(frozen=True)
class BootstrapReplicates:
    """Replicates of the focal coefficients and attribute terms, one row per resample.

    A resample whose regressors are singular (possible with few sources) holds NaN and is
    counted in :attr:`failed`; intervals use the others.
    """

    base: FloatArray
    full: FloatArray
    terms: FloatArray
    seed: int

    @property
    def n_resamples(self) -> int:
        return int(self.base.shape[0])

    @property
    def failed(self) -> int:
        bad = np.isnan(self.base).any(axis=-1) | np.isnan(self.terms).any(axis=(-2, -1))
        return int(bad.sum())


def bootstrap(
    cross: CrossProducts, *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0
) -> BootstrapReplicates:
    """Seeded source-cluster bootstrap replicates; cost per resample O(sources).

    Draws come from :func:`guisekit.gelbach.clusters.cluster_draws` with ``seed``.
    """
    if n_resamples < 1:
        raise InputError("the bootstrap needs at least one resample", hint="raise --resamples")
    n_sources, m, _ = cross.per_source.shape
    flat = cross.per_source.reshape(n_sources, m * m)
    parts: list[Estimates] = []
    for draws in cluster_draws(n_sources, n_resamples, seed):
        sums = (draw_counts(draws, n_sources) @ flat).reshape(-1, m, m)
        parts.append(cross.solve(sums))
    return BootstrapReplicates(
        base=np.concatenate([p.base for p in parts]),
        full=np.concatenate([p.full for p in parts]),
        terms=np.concatenate([p.terms for p in parts]),
        seed=seed,
    )
