"""Re-export of :mod:`guisekit.stats.clusters`, the project's one source-cluster bootstrap
(kept here so existing imports of ``guisekit.gelbach.clusters`` keep working)."""

from guisekit.stats.clusters import (
    DRAW_CHUNK,
    FloatArray,
    IntArray,
    cluster_crossproducts,
    cluster_draws,
    demean,
    draw_counts,
    group_codes,
)

__all__ = [
    "DRAW_CHUNK",
    "FloatArray",
    "IntArray",
    "cluster_crossproducts",
    "cluster_draws",
    "demean",
    "draw_counts",
    "group_codes",
]
