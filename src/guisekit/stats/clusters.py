"""Source clusters: fixed-effect absorption, per-cluster cross-products, bootstrap draws.

Absorbing source fixed effects means demeaning every column within its source. A source's
demeaned rows depend on that source alone, so a cluster bootstrap that gives every drawn
copy of a source its own fixed effect sees exactly the same demeaned rows in each copy.
The cross-product matrix of a resample is therefore the count-weighted sum of the
sources' own cross-products: precomputed once, a resample costs O(sources), not O(rows).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "DRAW_CHUNK",
    "cluster_crossproducts",
    "cluster_draws",
    "demean",
    "draw_counts",
    "group_codes",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

# Resamples drawn per generator call: fixed, so a seed gives the same draws everywhere, and
# small, so draws and counts (chunk x sources each) stay small with many sources.
DRAW_CHUNK = 64


def group_codes(labels: Sequence[Hashable]) -> tuple[IntArray, list[Hashable]]:
    """Integer codes 0..G-1 in order of first appearance, and the label of each code."""
    index: dict[Hashable, int] = {}
    codes = np.fromiter(
        (index.setdefault(label, len(index)) for label in labels), dtype=np.int64, count=len(labels)
    )
    return codes, list(index)


def demean(values: FloatArray, codes: IntArray, n_groups: int) -> FloatArray:
    """``values`` (rows x columns) minus the mean of each row's group: the within-group
    variation, exact on unbalanced groups (each group divided by its own size)."""
    sizes = np.bincount(codes, minlength=n_groups).astype(np.float64)
    sums = np.column_stack(
        [np.bincount(codes, weights=column, minlength=n_groups) for column in values.T]
    ).reshape(n_groups, values.shape[1])
    means = sums / np.maximum(sizes, 1.0)[:, None]
    out: FloatArray = values - means[codes]
    return out


def cluster_crossproducts(z: FloatArray, codes: IntArray, n_groups: int) -> FloatArray:
    """Each cluster's ``Z_g' Z_g`` as an array (clusters x columns x columns).

    Clusters of equal size are stacked and multiplied in one batched call, so a balanced
    panel costs one matmul and an unbalanced one a matmul per distinct cluster size.
    """
    order = np.argsort(codes, kind="stable")
    sizes = np.bincount(codes, minlength=n_groups)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    k = z.shape[1]
    out = np.zeros((n_groups, k, k))
    for size in np.unique(sizes[sizes > 0]):
        members = np.flatnonzero(sizes == size)
        rows = order[starts[members][:, None] + np.arange(size)[None, :]]
        block = z[rows]
        out[members] = np.matmul(block.transpose(0, 2, 1), block)
    return out


def cluster_draws(n_clusters: int, n_resamples: int, seed: int) -> Iterator[IntArray]:
    """Cluster indices drawn with replacement, ``DRAW_CHUNK`` resamples (rows) at a time.

    The same ``(n_clusters, n_resamples, seed)`` gives the same draws, so the fast
    bootstrap and a naive resample-and-refit can be compared on identical resamples.
    """
    rng = np.random.default_rng(seed)
    done = 0
    while done < n_resamples:
        size = min(DRAW_CHUNK, n_resamples - done)
        yield rng.integers(0, n_clusters, size=(size, n_clusters), dtype=np.int64)
        done += size


def draw_counts(draws: IntArray, n_clusters: int) -> FloatArray:
    """How often each cluster appears in each resample (resamples x clusters)."""
    rows = draws.shape[0]
    flat = (draws + n_clusters * np.arange(rows)[:, None]).ravel()
    counts = np.bincount(flat, minlength=rows * n_clusters).reshape(rows, n_clusters)
    return counts.astype(np.float64)
