"""The individual scale: how often versions of one source get different decisions, next
to how often the *same* text does (repeat control) or the same text with its options
reordered (option-order control); and the crossed variance components.

Persona-scale instability compares the persona versions of a source (first repeat, first
order); the repeat control compares repeats of one variant at a fixed order, the order
control option orders of one variant at a fixed repeat. If persona instability is no
larger than the controls, it is inference noise, not style sensitivity.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guisekit.errors import InputError
from guisekit.gaps.table import GapsTable
from guisekit.stats import (
    PairSums,
    VarianceComponents,
    pairwise_abs_diff,
    pairwise_disagreement,
    pairwise_tv,
    percentile_interval,
    ratio_replicates,
    variance_components,
)
from guisekit.stats.clusters import FloatArray, IntArray

__all__ = ["Instability", "instability", "persona_codes", "variance_table"]

SCALES = ("persona", "repeat", "order")


@dataclass(frozen=True)
class Instability:
    """One statistic (flip rate, MPAD or TV) at one scale, with its source-cluster
    bootstrap interval; ``pairs`` counts the pairs compared (0: not measurable)."""

    statistic: str
    scale: str
    value: float
    ci_low: float
    ci_high: float
    pairs: int


def persona_codes(table: GapsTable) -> IntArray:
    """One code per persona (combination of persona-axis levels), -1 for other variants."""
    axes = [a for a in table.axes if a.kind == "persona"]
    if not axes:
        return np.full(table.n_variants, -1)
    stacked = np.column_stack([a.codes for a in axes])
    persona = (stacked >= 0).all(axis=1)
    out = np.full(table.n_variants, -1, dtype=np.int64)
    if persona.any():
        kept = stacked[persona]
        flat = np.ravel_multi_index(tuple(kept.T), tuple(int(c.max()) + 1 for c in kept.T))
        out[persona] = np.unique(flat, return_inverse=True)[1].ravel()
    return out


def _per_source(
    sums: PairSums, group_source: IntArray, n_sources: int
) -> tuple[FloatArray, FloatArray]:
    total = np.bincount(group_source, weights=sums.total, minlength=n_sources)
    pairs = np.bincount(group_source, weights=sums.pairs, minlength=n_sources)
    return total.astype(np.float64), pairs.astype(np.float64)


def instability(
    table: GapsTable, *, n_resamples: int, seed: int, level: float
) -> list[Instability]:
    """Flip rate (labelled decisions), MPAD and TV (label probabilities) at the persona
    scale and for the repeat and order controls."""
    persona = persona_codes(table) >= 0
    if table.grid is not None:  # identifier versions of one slot play the persona role
        persona = np.ones(table.n_variants, dtype=bool)
    ok = np.isfinite(table.y)
    v_source = table.source[table.variant]
    selections: dict[str, tuple[np.ndarray, IntArray]] = {
        "persona": (
            ok & persona[table.variant] & (table.repeat == 0) & (table.order == 0),
            table.order,
        ),
        "repeat": (ok, table.order),
        "order": (ok, table.repeat),
    }
    columns_num, columns_den, names = [], [], []
    for scale, (mask, fixed) in selections.items():
        if scale == "persona":
            groups, group_source = table.source[table.variant[mask]], np.arange(table.n_sources)
            n_groups = table.n_sources
        else:
            keys = table.variant[mask] * (int(fixed.max()) + 1 if fixed.size else 1) + fixed[mask]
            labels, groups = np.unique(keys, return_inverse=True)
            groups = groups.ravel()
            n_groups = len(labels)
            first = np.zeros(n_groups, dtype=np.int64)
            first[groups] = v_source[mask]
            group_source = first
        # decisions alone in their group form no pair: leave them out of the work
        paired = np.bincount(groups, minlength=n_groups)[groups] >= 2
        rows = np.flatnonzero(mask)[paired]
        groups = groups[paired]
        stats: dict[str, PairSums] = {
            "mpad": pairwise_abs_diff(table.y[rows], groups, n_groups),
        }
        lab = table.label[rows]
        if table.label_names and (table.label[mask] >= 0).all():
            stats["flip_rate"] = pairwise_disagreement(lab, groups, n_groups)
        if table.probs is not None and np.isfinite(table.probs[mask]).all():
            stats["tv"] = pairwise_tv(table.probs[rows], groups, n_groups)
        for name, sums in stats.items():
            total, pairs = _per_source(sums, group_source, table.n_sources)
            columns_num.append(total)
            columns_den.append(pairs)
            names.append((name, scale))
    num, den = np.column_stack(columns_num), np.column_stack(columns_den)
    point = num.sum(axis=0) / np.where(den.sum(axis=0) > 0, den.sum(axis=0), np.nan)
    if n_resamples:
        reps = ratio_replicates(num, den, n_resamples=n_resamples, seed=seed)
        low, high = percentile_interval(reps, level)
    else:
        low = high = np.full(len(names), np.nan)
    return [
        Instability(
            stat, scale, float(point[j]), float(low[j]), float(high[j]), int(den[:, j].sum())
        )
        for j, (stat, scale) in enumerate(names)
    ]


def variance_table(table: GapsTable, *, level: float) -> tuple[VarianceComponents | None, str]:
    """Crossed components over the persona versions, on the largest balanced subset
    (sources with every persona x bank x order cell complete); or None and why not."""
    persona = persona_codes(table)
    ok = np.isfinite(table.y) & (persona[table.variant] >= 0)
    if not ok.any():
        return None, "no persona versions with decisions"
    v = table.variant[ok]
    src, per, bank = table.source[v], persona[v], table.bank[v]
    order, y = table.order[ok], table.y[ok]
    n_p, n_b, n_o = int(per.max()) + 1, int(bank.max()) + 1, int(order.max()) + 1
    cell = ((src * n_p + per) * n_b + bank) * n_o + order
    counts = np.bincount(cell, minlength=table.n_sources * n_p * n_b * n_o).reshape(
        table.n_sources, -1
    )
    r = int(counts.max())
    complete = (counts == r).all(axis=1)
    keep = complete[src]
    if complete.sum() < 2:
        return None, "fewer than 2 sources with every persona, bank and order decided"
    try:
        result = variance_components(
            y[keep], src[keep], per[keep], bank[keep], order[keep], level=level
        )
    except InputError as exc:
        return None, exc.one_line()
    dropped = int((~complete).sum())
    note = f"{int(complete.sum())} complete sources" + (
        f", {dropped} incomplete left out" if dropped else ""
    )
    return result, note
