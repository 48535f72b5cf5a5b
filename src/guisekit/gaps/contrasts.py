"""Directional contrasts with source-cluster bootstrap intervals and materiality.

A contrast compares two groups of variants *within a source*: per source, the mean outcome
of the focal group minus that of the reference group (e.g. every ``education=college``
persona minus every ``education=high_school`` one, other axes averaged over; a transform's
variant minus the source's identity variant). The estimate is the (population-weighted)
mean of those differences over the sources that have both groups. Every contrast, its two
group rates and hence AIR and Cohen's h are ratios of per-source sums, so one bootstrap
(:func:`guisekit.stats.ratio_replicates`, the same draws for all) gives replicates of all
of them at once, and of functions of several (the positive-control ratio, M1 - M0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from guisekit.gaps.table import GapsTable
from guisekit.stats import (
    adverse_impact_ratio,
    cohens_h,
    equivalence_test,
    four_fifths_flag,
    percentile_interval,
)
from guisekit.stats.clusters import FloatArray

__all__ = ["ContrastDef", "ContrastEstimate", "Margins", "define_contrasts", "group_sums"]

Kind = Literal["persona", "identifier", "transform", "control"]
IDENTITY = "identity"


@dataclass(frozen=True)
class Margins:
    """Equivalence margins: ``gap`` in outcome units (a proportion for rates: 0.01 = 1 pp;
    None for numeric outcomes means 1% of the mean outcome), ``h`` for Cohen's h, ``air``
    the lowest acceptable adverse impact ratio (and its inverse the highest)."""

    gap: float | None = None
    h: float = 0.20
    air: float = 0.80
    alpha: float = 0.05


@dataclass(frozen=True)
class ContrastDef:
    """Focal and reference groups as variant masks."""

    name: str
    kind: Kind
    axis: str
    focal: str
    reference: str
    focal_mask: np.ndarray
    reference_mask: np.ndarray


@dataclass(frozen=True)
class ContrastEstimate:
    """One contrast: gap with interval and standard error (outcome units; proportions
    for rates), group means, AIR and Cohen's h for rates, and the equivalence verdict."""

    name: str
    kind: Kind
    axis: str
    focal: str
    reference: str
    n_sources: int
    gap: float
    se: float
    ci_low: float
    ci_high: float
    mean_focal: float
    mean_reference: float
    air: float | None
    air_ci: tuple[float, float] | None
    four_fifths: bool | None
    h: float | None
    h_ci: tuple[float, float] | None
    margin_gap: float
    p_tost_gap: float
    p_met_gap: float
    p_tost_h: float | None
    p_tost_air: float | None
    verdict: Literal["equivalent", "exists", "inconclusive"]

    def __post_init__(self) -> None:
        if self.n_sources > 0 and math.isfinite(self.ci_low) and self.ci_low > self.ci_high:
            raise ValueError(f"{self.name}: interval bounds are reversed")


def define_contrasts(table: GapsTable) -> list[ContrastDef]:
    """Persona / identifier axes (each level minus the reference level), style transforms
    minus the identity variant (and hedged minus confident), and fact-changing transforms
    (the positive controls) minus the identity variant."""
    out: list[ContrastDef] = []
    for axis in table.axes:
        for j in range(1, len(axis.levels)):
            out.append(
                ContrastDef(
                    f"{axis.name}: {axis.levels[j]} - {axis.levels[0]}",
                    "identifier" if axis.kind == "identifier" else "persona",
                    axis.name,
                    axis.levels[j],
                    axis.levels[0],
                    axis.codes == j,
                    axis.codes == 0,
                )
            )
    names = table.transform_names
    if IDENTITY in names:
        identity = table.transform == names.index(IDENTITY)
        persona = np.zeros(table.n_variants, dtype=bool)
        for axis in table.axes:
            persona |= axis.codes >= 0
        for t, name in enumerate(names):
            mask = (table.transform == t) & ~persona
            if name == IDENTITY or not mask.any():
                continue
            kind: Kind = "transform" if table.change[t] == "none" else "control"
            out.append(
                ContrastDef(f"{name} - identity", kind, name, name, IDENTITY, mask, identity)
            )
    if "hedge:hedged" in names and "hedge:confident" in names:
        out.append(
            ContrastDef(
                "hedge:hedged - hedge:confident",
                "transform",
                "hedge",
                "hedge:hedged",
                "hedge:confident",
                table.transform == names.index("hedge:hedged"),
                table.transform == names.index("hedge:confident"),
            )
        )
    return out


def group_sums(
    table: GapsTable, y_variant: FloatArray, mask: np.ndarray
) -> tuple[FloatArray, FloatArray]:
    """Per source: sum of variant outcomes in ``mask`` and their number."""
    keep = mask & np.isfinite(y_variant)
    sums: FloatArray = np.bincount(
        table.source[keep], weights=y_variant[keep], minlength=table.n_sources
    ).astype(np.float64)
    counts = np.bincount(table.source[keep], minlength=table.n_sources).astype(np.float64)
    return sums, counts


def contrast_columns(
    table: GapsTable, y_variant: FloatArray, contrasts: list[ContrastDef]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per-source numerators and denominators (sources x 3K: gap, focal mean, reference
    mean per contrast) and the number of sources each contrast uses."""
    w = table.source_weights()
    nums, dens, used = [], [], []
    for c in contrasts:
        fs, fc = group_sums(table, y_variant, c.focal_mask)
        rs, rc = group_sums(table, y_variant, c.reference_mask)
        both = (fc > 0) & (rc > 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mf = np.where(both, fs / np.maximum(fc, 1), 0.0)
            mr = np.where(both, rs / np.maximum(rc, 1), 0.0)
        den = np.where(both, w, 0.0)
        nums += [den * (mf - mr), den * mf, den * mr]
        dens += [den, den, den]
        used.append(float(both.sum()))
    return np.column_stack(nums), np.column_stack(dens), np.array(used)


def _interval(values: FloatArray, level: float) -> tuple[float, float]:
    low, high = percentile_interval(values[:, None], level)
    return float(low[0]), float(high[0])


def estimate(
    c: ContrastDef,
    point: FloatArray,
    reps: FloatArray | None,
    n_sources: int,
    *,
    is_rate: bool,
    margins: Margins,
    level: float,
    mean_outcome: float,
) -> ContrastEstimate:
    """Materiality of one contrast from its point (gap, focal, reference) and replicates
    (resamples x 3; None without bootstrap)."""
    gap, mf, mr = (float(v) for v in point)
    nan = float("nan")
    se = float(np.nanstd(reps[:, 0], ddof=1)) if reps is not None and reps.shape[0] > 1 else nan
    low, high = _interval(reps[:, 0], level) if reps is not None else (nan, nan)
    margin = (
        margins.gap if margins.gap is not None else (0.01 if is_rate else 0.01 * abs(mean_outcome))
    )
    tost = (
        equivalence_test(gap, se, -margin, margin, alpha=margins.alpha)
        if math.isfinite(se) and margin > 0
        else None
    )
    air = h = air_ci = h_ci = four = p_h = p_air = None
    tests = [tost]
    if is_rate and n_sources and 0 <= mf <= 1 and 0 <= mr <= 1:
        h = cohens_h(mf, mr)
        air = adverse_impact_ratio(mf, mr) if mr > 0 else None
        four = four_fifths_flag(air) if air is not None else None
        if reps is not None:
            rf, rr = np.clip(reps[:, 1], 0, 1), np.clip(reps[:, 2], 0, 1)
            h_reps = 2 * np.arcsin(np.sqrt(rf)) - 2 * np.arcsin(np.sqrt(rr))
            h_ci = _interval(h_reps, level)
            h_se = float(np.nanstd(h_reps, ddof=1))
            if math.isfinite(h_se):
                t_h = equivalence_test(h, h_se, -margins.h, margins.h, alpha=margins.alpha)
                p_h = t_h.p_tost
                tests.append(t_h)
            if air is not None and air > 0 and (rr > 0).all() and (rf > 0).all():
                log_reps = np.log(rf / rr)
                low_air, high_air = _interval(log_reps, level)
                air_ci = (math.exp(low_air), math.exp(high_air))
                log_se = float(np.nanstd(log_reps, ddof=1))
                bound = -math.log(margins.air)
                if math.isfinite(log_se):
                    t_air = equivalence_test(
                        math.log(air), log_se, -bound, bound, alpha=margins.alpha
                    )
                    p_air = t_air.p_tost
                    tests.append(t_air)
    usable = [t for t in tests if t is not None]
    if usable and all(t.verdict == "equivalent" for t in usable):
        verdict: Literal["equivalent", "exists", "inconclusive"] = "equivalent"
    elif tost is not None and tost.p_met < margins.alpha:
        verdict = "exists"
    else:
        verdict = "inconclusive"
    return ContrastEstimate(
        name=c.name,
        kind=c.kind,
        axis=c.axis,
        focal=c.focal,
        reference=c.reference,
        n_sources=n_sources,
        gap=gap,
        se=se,
        ci_low=low,
        ci_high=high,
        mean_focal=mf,
        mean_reference=mr,
        air=air,
        air_ci=air_ci,
        four_fifths=four,
        h=h,
        h_ci=h_ci,
        margin_gap=margin,
        p_tost_gap=tost.p_tost if tost else nan,
        p_met_gap=tost.p_met if tost else nan,
        p_tost_h=p_h,
        p_tost_air=p_air,
        verdict=verdict,
    )
