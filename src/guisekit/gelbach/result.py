"""A decomposition with its bootstrap intervals, as a tidy table and a JSON document."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from guisekit.frames import Tabular
from guisekit.gelbach.bootstrap import (
    DEFAULT_RESAMPLES,
    BootstrapReplicates,
    bootstrap,
    check_level,
    percentile_interval,
)
from guisekit.gelbach.clusters import FloatArray
from guisekit.gelbach.data import GelbachData
from guisekit.gelbach.decompose import CrossProducts, Decomposition, decompose

__all__ = ["GelbachResult", "GelbachRow", "RowKind", "gelbach"]

RowKind = Literal["base", "full", "explained", "family", "attribute"]


class GelbachRow(BaseModel):
    """One row of the tidy table.

    ``base`` and ``full`` are the focal coefficient without and with the attributes;
    ``explained`` is their difference, split into ``family`` and ``attribute`` terms.
    ``share_of_base`` is ``estimate / base``; interval fields are ``None`` without a
    bootstrap (or where every resample failed).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    focal: str
    term: str
    kind: RowKind
    family: str | None
    estimate: float
    se: float | None
    ci_low: float | None
    ci_high: float | None
    share_of_base: float | None


def _number(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


@dataclass(frozen=True)
class GelbachResult(Tabular):
    """Point decomposition, optional bootstrap replicates and the interval level.

    ``to_frame()`` gives the tidy table of :meth:`rows`."""

    decomposition: Decomposition
    replicates: BootstrapReplicates | None
    ci_level: float
    left_out: Mapping[str, int] = field(default_factory=dict)

    def _columns(self) -> list[tuple[str, RowKind, str | None, FloatArray, FloatArray | None]]:
        """(term, kind, family, point (k1,), replicates (B, k1) or None) per table row."""
        dec, reps = self.decomposition, self.replicates
        est = dec.estimates
        rep_terms = None if reps is None else reps.terms
        rep_families = None if rep_terms is None else dec.family_totals(rep_terms)
        columns: list[tuple[str, RowKind, str | None, FloatArray, FloatArray | None]] = [
            ("base", "base", None, est.base, None if reps is None else reps.base),
            ("full", "full", None, est.full, None if reps is None else reps.full),
            (
                "explained",
                "explained",
                None,
                dec.explained,
                None if reps is None else reps.base - reps.full,
            ),
        ]
        totals = dec.family_totals()
        for f, family in enumerate(dec.family_names()):
            rep = None if rep_families is None else rep_families[..., f]
            columns.append((family, "family", family, totals[:, f], rep))
        for j, (name, family) in enumerate(zip(dec.attribute_names, dec.families, strict=True)):
            rep = None if rep_terms is None else rep_terms[..., j]
            columns.append((name, "attribute", family, est.terms[:, j], rep))
        return columns

    def rows(self) -> list[GelbachRow]:
        """The tidy table: per focal regressor, base, full, explained, families, attributes."""
        dec = self.decomposition
        out = []
        for i, focal in enumerate(dec.focal_names):
            base = float(dec.estimates.base[i])
            for term, kind, family, point, rep in self._columns():
                se = low = high = None
                if rep is not None:
                    values = rep[:, i]
                    finite = values[~np.isnan(values)]
                    lo, hi = percentile_interval(values[:, None], self.ci_level)
                    se = float(np.std(finite, ddof=1)) if finite.size > 1 else None
                    low, high = _number(float(lo[0])), _number(float(hi[0]))
                estimate = float(point[i])
                out.append(
                    GelbachRow(
                        focal=focal,
                        term=term,
                        kind=kind,
                        family=family,
                        estimate=estimate,
                        se=se,
                        ci_low=low,
                        ci_high=high,
                        share_of_base=estimate / base if base != 0 else None,
                    )
                )
        return out

    def table_rows(self) -> list[dict[str, Any]]:
        return [row.model_dump() for row in self.rows()]

    def table_title(self) -> str:
        dec = self.decomposition
        ci = "" if self.replicates is None else f", {self.ci_level:.0%} CI"
        return (
            f"Gelbach decomposition of {dec.outcome} "
            f"({dec.n_obs} rows, {dec.n_sources} sources{ci})"
        )

    def to_json(self) -> dict[str, Any]:
        """Everything needed to read the table: inputs, sample, bootstrap and rows."""
        dec, reps = self.decomposition, self.replicates
        return {
            "method": "gelbach-2016",
            "outcome": dec.outcome,
            "focal": list(dec.focal_names),
            "attributes": dict(zip(dec.attribute_names, dec.families, strict=True)),
            "fixed_effects": "source (absorbed)",
            "n_obs": dec.n_obs,
            "n_sources": dec.n_sources,
            "left_out": dict(self.left_out),
            "bootstrap": None
            if reps is None
            else {
                "cluster": "source",
                "resamples": reps.n_resamples,
                "failed": reps.failed,
                "seed": reps.seed,
                "ci_level": self.ci_level,
                "interval": "percentile",
            },
            "rows": [row.model_dump() for row in self.rows()],
        }


def gelbach(
    data: GelbachData,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    ci_level: float = 0.95,
) -> GelbachResult:
    """Decompose the focal gap(s) of ``data`` and bootstrap intervals over sources.

    ``n_resamples=0`` skips the bootstrap. Returns a :class:`GelbachResult`.
    """
    check_level(ci_level)
    cross = CrossProducts.from_data(data)
    point = decompose(data, cross)
    replicates = bootstrap(cross, n_resamples=n_resamples, seed=seed) if n_resamples else None
    return GelbachResult(
        decomposition=point, replicates=replicates, ci_level=ci_level, left_out=data.left_out
    )
