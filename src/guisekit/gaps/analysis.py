"""The whole gap analysis of one decision table (and optionally a mitigated one).

:func:`analyse` returns a :class:`GapsResult`: contrasts with materiality, the
positive-control ratios, the individual scale next to its noise controls, variance
components, identifier-grid metrics and, with ``mitigated``, every contrast under M0 and
M1 with the change and its interval (same bootstrap draws for both, so the change's
interval accounts for their correlation).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from guisekit.errors import InputError
from guisekit.frames import Tabular
from guisekit.gaps.contrasts import (
    ContrastEstimate,
    Margins,
    contrast_columns,
    define_contrasts,
    estimate,
)
from guisekit.gaps.individual import Instability, instability, variance_table
from guisekit.gaps.table import GapsTable
from guisekit.stats import (
    AxisMetrics,
    VarianceComponents,
    grid_metrics,
    percentile_interval,
    ratio_replicates,
)
from guisekit.stats.clusters import FloatArray

__all__ = ["ControlRatio", "GapsResult", "MitigationRow", "analyse", "contrast_rows"]


@dataclass(frozen=True)
class ControlRatio:
    """|positive-control response| / |largest persona gap|, with its interval."""

    control: str
    largest_gap: str
    ratio: float
    ci_low: float
    ci_high: float

    def sentence(self) -> str:
        how = (
            f"{self.ratio:.1f}x more to a relevant fact change"
            if self.ratio >= 1
            else f"only {self.ratio:.2f}x as much to a relevant fact change"
        )
        than = "than" if self.ratio >= 1 else "as"
        return (
            f"the model responds {how} ({self.control}) {than} to style "
            f"(largest persona gap: {self.largest_gap})"
        )


@dataclass(frozen=True)
class MitigationRow:
    """One contrast before (M0) and after (M1) mitigation, and the change M1 - M0."""

    name: str
    kind: str
    gap_m0: float
    gap_m1: float
    change: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class GapsResult(Tabular):
    """Everything ``gaps`` reports; see the module docstring. ``to_frame()`` gives the
    contrasts table (``contrasts.csv``: gaps in display units, percentage points for
    rates)."""

    outcome: str
    is_rate: bool
    unit: str
    n_decisions: int
    n_variants: int
    n_sources: int
    resamples: int
    seed: int
    level: float
    margins: Margins
    contrasts: list[ContrastEstimate]
    control_ratios: list[ControlRatio]
    instability: list[Instability]
    variance: VarianceComponents | None
    variance_note: str
    grid: list[AxisMetrics] = field(default_factory=list)
    mitigation: list[MitigationRow] = field(default_factory=list)
    left_out: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [c.name for c in self.contrasts]
        if len(set(names)) != len(names):
            raise InputError("two contrasts share a name")

    @property
    def scale(self) -> float:
        """Display factor: 100 for rates (percentage points), 1 otherwise."""
        return 100.0 if self.is_rate else 1.0

    def verdicts(self) -> dict[str, list[str]]:
        """Contrast names by verdict (persona and identifier contrasts only)."""
        out: dict[str, list[str]] = {"equivalent": [], "exists": [], "inconclusive": []}
        for c in self.contrasts:
            if c.kind in ("persona", "identifier"):
                out[c.verdict].append(c.name)
        return out

    def table_rows(self) -> list[dict[str, Any]]:
        return contrast_rows(self)

    def table_title(self) -> str:
        return (
            f"gaps in {self.outcome} ({self.unit}, {self.level:.0%} CI, {self.n_sources} sources)"
        )

    def table_columns(self) -> list[str]:
        return ["contrast", "kind", "gap", "ci_low", "ci_high", "air", "cohens_h", "verdict"]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["verdicts"] = self.verdicts()
        data["control_sentences"] = [r.sentence() for r in self.control_ratios]
        cleaned: dict[str, Any] = _clean(data)
        return cleaned


def contrast_rows(result: GapsResult) -> list[dict[str, Any]]:
    """The contrasts table: gaps, intervals and margins in display units (percentage
    points for rates)."""
    s = result.scale
    rows = []
    for c in result.contrasts:
        rows.append(
            {
                "contrast": c.name,
                "kind": c.kind,
                "axis": c.axis,
                "focal": c.focal,
                "reference": c.reference,
                "n_sources": c.n_sources,
                "unit": result.unit,
                "gap": c.gap * s,
                "se": c.se * s,
                "ci_low": c.ci_low * s,
                "ci_high": c.ci_high * s,
                "mean_focal": c.mean_focal,
                "mean_reference": c.mean_reference,
                "air": c.air,
                "air_ci_low": c.air_ci[0] if c.air_ci else None,
                "air_ci_high": c.air_ci[1] if c.air_ci else None,
                "four_fifths_flag": c.four_fifths,
                "cohens_h": c.h,
                "h_ci_low": c.h_ci[0] if c.h_ci else None,
                "h_ci_high": c.h_ci[1] if c.h_ci else None,
                "margin": c.margin_gap * s,
                "p_tost_gap": c.p_tost_gap,
                "p_min_effect_gap": c.p_met_gap,
                "p_tost_h": c.p_tost_h,
                "p_tost_air": c.p_tost_air,
                "verdict": c.verdict,
            }
        )
    return rows


def _clean(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, np.generic):
        return _clean(value.item())
    return value


def _ratios(
    contrasts: list[ContrastEstimate], point: FloatArray, reps: FloatArray | None, level: float
) -> list[ControlRatio]:
    persona = [i for i, c in enumerate(contrasts) if c.kind in ("persona", "identifier")]
    controls = [i for i, c in enumerate(contrasts) if c.kind == "control"]
    if not persona or not controls:
        return []
    gaps = np.abs(point[[3 * i for i in persona]])
    top = persona[int(np.argmax(gaps))]
    denom = float(gaps.max())
    out = []
    for i in controls:
        ratio = abs(float(point[3 * i])) / denom if denom > 0 else math.inf
        low = high = math.nan
        if reps is not None:
            rep_den = np.abs(reps[:, [3 * j for j in persona]]).max(axis=1)
            with np.errstate(divide="ignore", invalid="ignore"):
                rep = np.abs(reps[:, 3 * i]) / rep_den
            lo, hi = percentile_interval(rep[:, None], level)
            low, high = float(lo[0]), float(hi[0])
        out.append(ControlRatio(contrasts[i].name, contrasts[top].name, ratio, low, high))
    return out


def analyse(
    table: GapsTable,
    *,
    margins: Margins | None = None,
    n_resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    mitigated: GapsTable | None = None,
    canonical: dict[str, tuple[str, str]] | None = None,
) -> GapsResult:
    """Run every analysis on ``table``; see :class:`GapsResult`."""
    margins = margins or Margins()
    if n_resamples < 0:
        raise InputError("the number of resamples cannot be negative")
    contrasts = define_contrasts(table)
    if not contrasts:
        raise InputError(
            "nothing to contrast: the corpus has no persona axes, identifier axes or "
            "transforms beside an identity variant",
            hint="decide on a corpus with persona or transform variants",
        )
    y_v = table.variant_means()
    num, den, used = contrast_columns(table, y_v, contrasts)
    k = num.shape[1]
    if mitigated is not None:
        if mitigated.source_names != table.source_names or mitigated.n_variants != table.n_variants:
            raise InputError(
                "the mitigated decisions cover different variants",
                hint="decide M1 on the same corpus variants (same variant ids)",
            )
        num1, den1, _ = contrast_columns(mitigated, mitigated.variant_means(), contrasts)
        num, den = np.hstack([num, num1]), np.hstack([den, den1])
    totals = den.sum(axis=0)
    point = num.sum(axis=0) / np.where(totals > 0, totals, np.nan)
    reps = ratio_replicates(num, den, n_resamples=n_resamples, seed=seed) if n_resamples else None
    mean_outcome = float(np.nanmean(y_v)) if np.isfinite(y_v).any() else 0.0
    estimates = [
        estimate(
            c,
            point[3 * i : 3 * i + 3],
            None if reps is None else reps[:, 3 * i : 3 * i + 3],
            int(used[i]),
            is_rate=table.is_rate,
            margins=margins,
            level=level,
            mean_outcome=mean_outcome,
        )
        for i, c in enumerate(contrasts)
    ]
    mitigation = []
    if mitigated is not None:
        for i, c in enumerate(contrasts):
            a, b = 3 * i, k + 3 * i
            low = high = math.nan
            if reps is not None:
                lo, hi = percentile_interval((reps[:, b] - reps[:, a])[:, None], level)
                low, high = float(lo[0]), float(hi[0])
            mitigation.append(
                MitigationRow(
                    c.name,
                    c.kind,
                    float(point[a]),
                    float(point[b]),
                    float(point[b] - point[a]),
                    low,
                    high,
                )
            )
    grid = []
    if table.grid is not None and not table.is_rate:
        ok = np.isfinite(y_v)
        g = table.grid
        idx = np.flatnonzero(ok)
        grid = grid_metrics(
            y_v[idx],
            [g["axis"][i] for i in idx],
            [g["identifier"][i] for i in idx],
            [g["slot"][i] for i in idx],
            [g["profile"][i] for i in idx],
            canonical=canonical,
            n_resamples=n_resamples or 1,
            seed=seed,
            level=level,
        )
    variance, note = variance_table(table, level=level)
    return GapsResult(
        outcome=table.outcome,
        is_rate=table.is_rate,
        unit="pp" if table.is_rate else "outcome units",
        n_decisions=int(table.y.shape[0]),
        n_variants=table.n_variants,
        n_sources=table.n_sources,
        resamples=n_resamples,
        seed=seed,
        level=level,
        margins=margins,
        contrasts=estimates,
        control_ratios=_ratios(estimates, point, reps, level),
        instability=instability(table, n_resamples=n_resamples, seed=seed, level=level),
        variance=variance,
        variance_note=note,
        grid=grid,
        mitigation=mitigation,
        left_out=dict(table.left_out),
    )
