"""Kendall's coefficient of concordance W with its chi-square test, and the
Benjamini-Hochberg false-discovery-rate adjustment.

For an identifier grid, each matched slot ranks the identifiers of one axis by the outcome
they received; W says how consistently the slots agree on that ranking (1: every slot
ranks them the same; 0: no agreement), i.e. whether the identifier effect is systematic
rather than noise.

References
----------
Kendall, M. G., & Babington Smith, B. (1939). The problem of m rankings. *Ann. Math.
Statist.*, 10(3), 275-287. (W with the tie correction of Kendall 1948, *Rank Correlation
Methods*.)
Benjamini, Y., & Hochberg, Y. (1995). Controlling the false discovery rate. *JRSS B*,
57(1), 289-300.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from guisekit.errors import InputError
from guisekit.stats.clusters import FloatArray

__all__ = ["KendallW", "benjamini_hochberg", "kendall_w"]


@dataclass(frozen=True)
class KendallW:
    """W for ``m`` raters ranking ``n`` items, the Friedman chi-square ``m (n - 1) W``
    on ``n - 1`` degrees of freedom, and its p-value."""

    w: float
    chi2: float
    df: int
    p_value: float
    m: int
    n: int

    def __post_init__(self) -> None:
        if not -1e-12 <= self.w <= 1 + 1e-12:
            raise InputError(f"Kendall's W {self.w} outside [0, 1]")
        if abs(self.chi2 - self.m * (self.n - 1) * self.w) > 1e-8 * max(1.0, self.chi2):
            raise InputError("chi-square does not match m (n - 1) W")


def kendall_w(scores: FloatArray) -> KendallW:
    """Kendall's W of a (raters x items) score matrix; each rater's scores are ranked
    (average ranks for ties) and ties corrected for."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or scores.shape[0] < 2 or scores.shape[1] < 2:
        raise InputError("Kendall's W needs at least 2 raters and 2 items")
    if not np.isfinite(scores).all():
        raise InputError("Kendall's W needs finite scores in every cell")
    m, n = scores.shape
    ranks = _st.rankdata(scores, axis=1)
    totals = ranks.sum(axis=0)
    s = float(((totals - totals.mean()) ** 2).sum())
    ties = 0.0
    for row in scores:
        _, counts = np.unique(row, return_counts=True)
        ties += float((counts**3 - counts).sum())
    denominator = m**2 * (n**3 - n) - m * ties
    w = 0.0 if denominator == 0 else 12.0 * s / denominator
    chi2 = m * (n - 1) * w
    return KendallW(w=w, chi2=chi2, df=n - 1, p_value=float(_st.chi2.sf(chi2, n - 1)), m=m, n=n)


def benjamini_hochberg(p_values: FloatArray) -> FloatArray:
    """Benjamini-Hochberg adjusted p-values (step-up, monotone, capped at 1), in the
    input order."""
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1 or ((p < 0) | (p > 1)).any():
        raise InputError("p-values must be a 1-D array in [0, 1]")
    n = p.shape[0]
    if n == 0:
        return p.copy()
    order = np.argsort(p)
    scaled = p[order] * n / np.arange(1, n + 1)
    adjusted = np.minimum.accumulate(scaled[::-1])[::-1]
    out = np.empty(n)
    out[order] = np.minimum(adjusted, 1.0)
    return out
