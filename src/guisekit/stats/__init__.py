"""The statistics of guisekit in one place: plain functions returning self-checking results.

* :mod:`~guisekit.stats.clusters` / :mod:`~guisekit.stats.bootstrap` - the fast
  source-cluster bootstrap (per-source sums, one matmul per chunk of resamples);
* :mod:`~guisekit.stats.materiality` - adverse impact ratio, Cohen's h, TOST equivalence
  and minimum-effect tests;
* :mod:`~guisekit.stats.instability` - flip rate, MPAD, total variation over pairs;
* :mod:`~guisekit.stats.variance` - crossed variance components (ANOVA moments);
* :mod:`~guisekit.stats.concordance` - Kendall's W and Benjamini-Hochberg;
* :mod:`~guisekit.stats.grid` - identifier-grid metrics.

Cohen's kappa lives with the audit (:mod:`guisekit.audit.stats`) and is re-exported here;
the manipulation check's partial eta squared stays with the attributes
(:mod:`guisekit.attributes.manipulation`).
"""

from guisekit.stats.bootstrap import check_level, percentile_interval, ratio_replicates
from guisekit.stats.clusters import cluster_draws, draw_counts, group_codes
from guisekit.stats.concordance import KendallW, benjamini_hochberg, kendall_w
from guisekit.stats.grid import AxisMetrics, PairGap, grid_metrics
from guisekit.stats.instability import (
    PairSums,
    pairwise_abs_diff,
    pairwise_disagreement,
    pairwise_tv,
)
from guisekit.stats.materiality import (
    FOUR_FIFTHS,
    EquivalenceTest,
    adverse_impact_ratio,
    cohens_h,
    equivalence_test,
    four_fifths_flag,
)
from guisekit.stats.variance import Component, VarianceComponents, variance_components

__all__ = [
    "FOUR_FIFTHS",
    "AxisMetrics",
    "Component",
    "EquivalenceTest",
    "KendallW",
    "PairGap",
    "PairSums",
    "VarianceComponents",
    "adverse_impact_ratio",
    "benjamini_hochberg",
    "check_level",
    "cluster_draws",
    "cohens_h",
    "cohens_kappa",
    "draw_counts",
    "equivalence_test",
    "four_fifths_flag",
    "grid_metrics",
    "group_codes",
    "kendall_w",
    "pairwise_abs_diff",
    "pairwise_disagreement",
    "pairwise_tv",
    "percentile_interval",
    "ratio_replicates",
    "variance_components",
]


def __getattr__(name: str) -> object:
    # Re-exported lazily: the audit package imports this one, not the other way round.
    if name == "cohens_kappa":
        from guisekit.audit.stats import cohens_kappa

        return cohens_kappa
    raise AttributeError(name)
