"""Materiality of a gap between two groups: adverse impact ratio, Cohen's h, and
equivalence (TOST) and minimum-effect tests against user margins.

A gap can be *shown to be negligible* (equivalence: the whole interval lies inside the
margin), *shown to exist* (minimum effect: the interval lies beyond the margin, or beyond
zero) or neither (inconclusive). Failing to reject "no gap" is never reported as
equivalence.

References
----------
Cohen, J. (1988). *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed., ch. 6
(effect size h for proportions).
Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the power
approach for assessing the equivalence of average bioavailability. *J. Pharmacokinetics and
Biopharmaceutics*, 15(6), 657-680.
Lakens, D., Scheel, A. M., & Isager, P. M. (2018). Equivalence testing for psychological
research: a tutorial. *AMPPS*, 1(2), 259-269 (minimum-effect tests).
EEOC (1978). Uniform Guidelines on Employee Selection Procedures, 29 CFR 1607.4(D)
(the four-fifths rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from scipy import stats as _st

from guisekit.errors import InputError

__all__ = [
    "FOUR_FIFTHS",
    "EquivalenceTest",
    "Verdict",
    "adverse_impact_ratio",
    "cohens_h",
    "equivalence_test",
    "four_fifths_flag",
]

FOUR_FIFTHS = 0.8
Verdict = Literal["equivalent", "exists", "inconclusive"]


def adverse_impact_ratio(rate_focal: float, rate_reference: float) -> float:
    """Selection rate of the focal group over that of the reference group (NaN when the
    reference rate is 0). The four-fifths rule flags ``min(AIR, 1/AIR) < 0.8``."""
    for rate in (rate_focal, rate_reference):
        if not 0.0 <= rate <= 1.0:
            raise InputError(f"rate {rate} is not a proportion", hint="AIR needs rates in [0, 1]")
    return math.nan if rate_reference == 0 else rate_focal / rate_reference


def four_fifths_flag(air: float) -> bool:
    """True when the ratio falls outside [0.8, 1.25], in either direction."""
    if not math.isfinite(air) or air <= 0:
        return bool(air == 0)
    return min(air, 1.0 / air) < FOUR_FIFTHS


def cohens_h(p_focal: float, p_reference: float) -> float:
    """Cohen's h: ``2 asin(sqrt(p1)) - 2 asin(sqrt(p2))``, the difference of two
    proportions on the variance-stabilising arcsine scale (0.2 small, 0.5 medium)."""
    for p in (p_focal, p_reference):
        if not 0.0 <= p <= 1.0:
            raise InputError(f"{p} is not a proportion", hint="Cohen's h needs rates in [0, 1]")
    return 2.0 * math.asin(math.sqrt(p_focal)) - 2.0 * math.asin(math.sqrt(p_reference))


@dataclass(frozen=True)
class EquivalenceTest:
    """TOST and minimum-effect test of one estimate against the margin ``(low, high)``.

    ``p_tost`` is the larger of the two one-sided p-values of H0: estimate <= low and H0:
    estimate >= high; ``p_met`` the smaller of those of H0: estimate >= low and H0:
    estimate <= high, doubled (Bonferroni over the two directions), so a rejection means
    the effect lies outside the margin. ``verdict`` applies ``alpha`` to both.
    """

    estimate: float
    se: float
    low: float
    high: float
    df: float | None
    p_tost: float
    p_met: float
    alpha: float

    def __post_init__(self) -> None:
        if not self.low < self.high:
            raise InputError(f"equivalence margin ({self.low}, {self.high}) is empty")
        if not (0 <= self.p_tost <= 1 and 0 <= self.p_met <= 1):
            raise InputError("p-values must lie in [0, 1]")

    @property
    def verdict(self) -> Verdict:
        if self.p_tost < self.alpha:
            return "equivalent"
        if self.p_met < self.alpha:
            return "exists"
        return "inconclusive"


def _sf(z: float, df: float | None) -> float:
    return float(_st.norm.sf(z) if df is None else _st.t.sf(z, df))


def equivalence_test(
    estimate: float,
    se: float,
    low: float,
    high: float,
    *,
    df: float | None = None,
    alpha: float = 0.05,
) -> EquivalenceTest:
    """Two one-sided tests (Schuirmann 1987) of ``low < estimate < high`` with standard
    error ``se``: normal reference, or Student t with ``df`` degrees of freedom.

    With a bootstrap standard error the normal reference is the usual large-sample choice;
    with a paired t-test's ``se`` and ``df = n - 1`` the p-values equal statsmodels'
    ``ttost_paired`` (checked in the tests).
    """
    if not math.isfinite(estimate) or not math.isfinite(se) or se < 0:
        raise InputError("the equivalence test needs a finite estimate and standard error")
    if se == 0:
        inside = low < estimate < high
        return EquivalenceTest(
            estimate, se, low, high, df, 0.0 if inside else 1.0, 1.0 if inside else 0.0, alpha
        )
    p_above_low = _sf((estimate - low) / se, df)  # H0: estimate <= low
    p_below_high = _sf((high - estimate) / se, df)  # H0: estimate >= high
    p_tost = max(p_above_low, p_below_high)
    p_met = min(1.0, 2.0 * min(1.0 - p_above_low, 1.0 - p_below_high))
    return EquivalenceTest(estimate, se, low, high, df, p_tost, p_met, alpha)
