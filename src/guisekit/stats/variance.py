"""Variance components of decisions on a balanced crossed design, by ANOVA moments.

Model, for source s, persona p, rewrite bank b, option order o and repeat r::

    y = mu + S_s + P_p + (SP)_sp + B_b + O_o + e,

every term random with its own variance. Within-source variance splits into persona main
effect (the same shift for every source), source x persona (persona effects that differ by
source), bank, option order and residual noise (repeats, plus any interaction the model
leaves out). On a balanced design (every source x persona x bank x order cell holds the
same number R of repeats) the expected mean squares are

    E[MS_E]  = s2_e
    E[MS_B]  = s2_e + S P O R s2_b        E[MS_O] = s2_e + S P B R s2_o
    E[MS_SP] = s2_e + B O R s2_sp         E[MS_P] = s2_e + B O R s2_sp + S B O R s2_p

and solving them gives the ANOVA (method-of-moments) estimators, which equal the REML
estimates of statsmodels' MixedLM on balanced data whenever they are positive
(``tests/test_stats_variance.py`` checks this). A negative moment estimate is reported as
0 and flagged. Intervals use Satterthwaite's (1946) approximation: an estimate
``sum_i c_i MS_i`` is treated as a scaled chi-square with
``nu = (sum c_i MS_i)^2 / sum (c_i MS_i)^2 / df_i`` degrees of freedom.

References
----------
Searle, S. R., Casella, G., & McCulloch, C. E. (1992). *Variance Components*, ch. 4.
Satterthwaite, F. E. (1946). An approximate distribution of estimates of variance
components. *Biometrics Bulletin*, 2(6), 110-114.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from guisekit.errors import InputError
from guisekit.stats.clusters import FloatArray, group_codes

__all__ = ["Component", "VarianceComponents", "variance_components"]

COMPONENTS = ("persona", "source_x_persona", "bank", "order", "residual")


@dataclass(frozen=True)
class Component:
    """One variance component: the moment estimate (truncated at 0), its share of the
    within-source variance and a Satterthwaite interval."""

    name: str
    estimate: float
    raw: float
    share: float
    ci_low: float
    ci_high: float
    df: float


@dataclass(frozen=True)
class VarianceComponents:
    """Within-source components (persona, source x persona, bank, order, residual), the
    between-source variance for reference, and the design's sizes; shares sum to 1."""

    components: tuple[Component, ...]
    source: float
    sizes: dict[str, int]
    level: float

    def __post_init__(self) -> None:
        total = sum(c.share for c in self.components)
        if any(c.estimate > 0 for c in self.components) and abs(total - 1.0) > 1e-9:
            raise InputError("variance shares do not sum to 1")

    def get(self, name: str) -> Component:
        for component in self.components:
            if component.name == name:
                return component
        raise KeyError(name)


def _satterthwaite(
    terms: list[tuple[float, float, float]], level: float
) -> tuple[float, float, float]:
    """(low, high, df) for ``sum c MS`` from ``(c, MS, df)`` terms."""
    value = sum(c * ms for c, ms, _ in terms)
    denom = sum((c * ms) ** 2 / df for c, ms, df in terms if df > 0)
    if value <= 0 or denom <= 0:
        return 0.0, float("nan"), float("nan")
    nu = value**2 / denom
    tail = (1 - level) / 2
    return nu * value / _st.chi2.ppf(1 - tail, nu), nu * value / _st.chi2.ppf(tail, nu), nu


def _codes(values: Sequence[Hashable] | np.ndarray) -> np.ndarray:
    """Integer codes of a factor: ``np.unique`` for integer arrays (fast), else in order of
    first appearance."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        return np.unique(values, return_inverse=True)[1].ravel()
    return group_codes(list(values))[0]


def variance_components(
    y: Sequence[float] | FloatArray,
    source: Sequence[Hashable],
    persona: Sequence[Hashable],
    bank: Sequence[Hashable] | None = None,
    order: Sequence[Hashable] | None = None,
    *,
    level: float = 0.95,
) -> VarianceComponents:
    """ANOVA estimates of the crossed components; the design must be balanced.

    Raises :class:`~guisekit.errors.InputError` when a cell is missing or cells hold
    different numbers of repeats (drop incomplete sources first).
    """
    values = np.asarray(y, dtype=np.float64)
    n = values.shape[0]
    factors = [
        source,
        persona,
        [0] * n if bank is None else bank,
        [0] * n if order is None else order,
    ]
    if any(len(f) != n for f in factors):
        raise InputError("give one source, persona, bank and order per decision")
    if not np.isfinite(values).all():
        raise InputError("variance components need finite outcomes")
    codes = [_codes(f) for f in factors]
    shape = tuple(int(c.max()) + 1 for c in codes)
    cell = np.ravel_multi_index(tuple(codes), shape)
    counts = np.bincount(cell, minlength=int(np.prod(shape)))
    r = int(counts[0]) if counts.size else 0
    if r == 0 or (counts != r).any():
        raise InputError(
            "variance components need a balanced design: every source x persona x bank x "
            "order cell with the same number of repeats",
            hint="keep sources with every persona and no failed decision",
        )
    s_, p_, b_, o_ = shape
    if s_ < 2 or p_ < 2:
        raise InputError("variance components need at least 2 sources and 2 personas")
    ordered = values[np.lexsort((np.arange(n), cell))].reshape(s_, p_, b_, o_, r)
    g = ordered.mean()
    m_s = ordered.mean(axis=(1, 2, 3, 4))
    m_p = ordered.mean(axis=(0, 2, 3, 4))
    m_b = ordered.mean(axis=(0, 1, 3, 4))
    m_o = ordered.mean(axis=(0, 1, 2, 4))
    m_sp = ordered.mean(axis=(2, 3, 4))
    ss = {
        "S": p_ * b_ * o_ * r * float(((m_s - g) ** 2).sum()),
        "P": s_ * b_ * o_ * r * float(((m_p - g) ** 2).sum()),
        "SP": b_ * o_ * r * float(((m_sp - m_s[:, None] - m_p[None, :] + g) ** 2).sum()),
        "B": s_ * p_ * o_ * r * float(((m_b - g) ** 2).sum()),
        "O": s_ * p_ * b_ * r * float(((m_o - g) ** 2).sum()),
    }
    df = {"S": s_ - 1, "P": p_ - 1, "SP": (s_ - 1) * (p_ - 1), "B": b_ - 1, "O": o_ - 1}
    ss["E"] = float(((ordered - g) ** 2).sum()) - sum(ss.values())
    df["E"] = n - 1 - sum(df.values())
    if df["E"] <= 0:
        raise InputError("no residual degrees of freedom: add repeats or option orders")
    ms = {k: ss[k] / df[k] if df[k] else 0.0 for k in ss}
    e = ("E", 1.0)
    recipes: dict[str, list[tuple[str, float]]] = {
        "persona": [("P", 1 / (s_ * b_ * o_ * r)), ("SP", -1 / (s_ * b_ * o_ * r))],
        "source_x_persona": [("SP", 1 / (b_ * o_ * r)), ("E", -1 / (b_ * o_ * r))],
        "bank": [("B", 1 / (s_ * p_ * o_ * r)), ("E", -1 / (s_ * p_ * o_ * r))],
        "order": [("O", 1 / (s_ * p_ * b_ * r)), ("E", -1 / (s_ * p_ * b_ * r))],
        "residual": [e],
    }
    raw = {name: sum(c * ms[k] for k, c in recipe) for name, recipe in recipes.items()}
    for name, size in (("bank", b_), ("order", o_)):
        if size == 1:
            raw[name] = 0.0
    kept = {name: max(0.0, value) for name, value in raw.items()}
    total = sum(kept.values())
    components = []
    for name, recipe in recipes.items():
        terms = [(c, ms[k], float(df[k])) for k, c in recipe if df[k] > 0]
        low, high, nu = _satterthwaite(terms, level)
        components.append(
            Component(
                name=name,
                estimate=kept[name],
                raw=raw[name],
                share=kept[name] / total if total > 0 else 0.0,
                ci_low=low,
                ci_high=high,
                df=nu,
            )
        )
    source_var = max(0.0, (ms["S"] - ms["SP"]) / (p_ * b_ * o_ * r))
    sizes = {"sources": s_, "personas": p_, "banks": b_, "orders": o_, "repeats": r}
    return VarianceComponents(tuple(components), source_var, sizes, level)
