"""Manipulation report: which attributes did the guises change, and which did they leave?

For each attribute, the share of its within-source variance that the persona explains
(partial eta squared): with source means removed from the attribute and from the persona
dummies, the regression of one on the others explains ``SS_persona`` of the total
``SS_within``. On a balanced panel this is the usual eta squared of persona after removing
source means; on an unbalanced one it stays the exact two-way fixed-effects quantity.
A seeded source-cluster bootstrap gives its interval, from the same per-source
cross-products as the Gelbach bootstrap (:mod:`guisekit.gelbach.clusters`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from guisekit.errors import InputError
from guisekit.gelbach.bootstrap import DEFAULT_RESAMPLES, check_level, percentile_interval
from guisekit.gelbach.clusters import (
    FloatArray,
    cluster_crossproducts,
    cluster_draws,
    demean,
    draw_counts,
    group_codes,
)

__all__ = ["ManipulationRow", "manipulation_report"]

# Eigenvalues of the persona block below this share of the largest are treated as zero
# (a persona absent from a resample leaves its dummy all zero after demeaning).
_EIGEN_RTOL = 1e-10
_WITHIN_RTOL = 1e-12


class ManipulationRow(BaseModel):
    """Partial eta squared of persona for one attribute, with its bootstrap interval.

    ``eta_squared`` is ``None`` when the attribute does not vary within any source.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    attribute: str
    family: str | None
    eta_squared: float | None = Field(ge=0.0, le=1.0 + 1e-9)
    ci_low: float | None
    ci_high: float | None
    n_obs: int
    n_sources: int
    n_personas: int


def _explained_share(sums: FloatArray, q: int, floor: FloatArray) -> FloatArray:
    """Partial eta squared per attribute from summed cross-products (..., q+A, q+A),
    persona dummies first; NaN where an attribute's within-source sum of squares is not
    above ``floor`` (rounding noise: it does not vary within sources)."""
    block = sums[..., :q, :q]
    cross = sums[..., :q, q:]
    total = np.diagonal(sums[..., q:, q:], axis1=-2, axis2=-1)
    w, v = np.linalg.eigh(block)
    cutoff = _EIGEN_RTOL * np.max(np.abs(w), axis=-1, keepdims=True)
    inverse = np.where(w > cutoff, 1.0 / np.where(w > cutoff, w, 1.0), 0.0)
    projected = np.swapaxes(v, -1, -2) @ cross
    explained = np.sum(inverse[..., :, None] * projected**2, axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        share: FloatArray = np.where(total > floor, explained / total, np.nan)
    return np.clip(share, 0.0, 1.0)


def manipulation_report(
    values: Mapping[str, Sequence[float]],
    personas: Sequence[Hashable],
    sources: Sequence[Hashable],
    *,
    families: Mapping[str, str] | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    ci_level: float = 0.95,
) -> list[ManipulationRow]:
    """Partial eta squared of persona for every attribute in ``values`` (name -> one
    value per row), with a ``ci_level`` source-cluster bootstrap interval
    (``n_resamples`` resamples from ``seed``; 0 skips it)."""
    check_level(ci_level)
    n = len(personas)
    if len(sources) != n or any(len(column) != n for column in values.values()):
        raise InputError("give one persona, one source and one value per row and attribute")
    if not values:
        raise InputError("no attributes to report on")
    table = np.asarray([list(column) for column in values.values()], dtype=np.float64).T
    if table.size and not np.isfinite(table).all():
        raise InputError("attribute values must be finite numbers", hint="drop failed variants")
    persona_codes, persona_labels = group_codes(personas)
    source_codes, source_labels = group_codes(sources)
    if len(persona_labels) < 2:
        raise InputError("the manipulation report needs at least two personas")
    q = len(persona_labels) - 1
    dummies = (persona_codes[:, None] == np.arange(1, q + 1)[None, :]).astype(np.float64)
    within = demean(np.column_stack([dummies, table]), source_codes, len(source_labels))
    per_source = cluster_crossproducts(within, source_codes, len(source_labels))
    # Sum of squares that demeaning a constant leaves behind through rounding alone.
    floor = n * (_WITHIN_RTOL * np.abs(table).max(axis=0, initial=0.0)) ** 2
    point = _explained_share(per_source.sum(axis=0), q, floor)
    low = high = np.full(point.shape, np.nan)
    if n_resamples:
        g, m, _ = per_source.shape
        flat = per_source.reshape(g, m * m)
        chunks = [
            _explained_share((draw_counts(draws, g) @ flat).reshape(-1, m, m), q, floor)
            for draws in cluster_draws(g, n_resamples, seed)
        ]
        low, high = percentile_interval(np.concatenate(chunks), ci_level)
    families = families or {}
    return [
        ManipulationRow(
            attribute=name,
            family=families.get(name),
            eta_squared=_optional(point[j]),
            ci_low=_optional(low[j]),
            ci_high=_optional(high[j]),
            n_obs=n,
            n_sources=len(source_labels),
            n_personas=len(persona_labels),
        )
        for j, name in enumerate(values)
    ]


def _optional(value: float) -> float | None:
    return None if math.isnan(value) else float(value)
