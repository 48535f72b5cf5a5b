"""Gelbach (2016) decomposition of a focal coefficient with source fixed effects absorbed.

Base model ``y = focal b + source FE``; full model ``y = focal b* + attributes beta +
source FE``. With ``Gamma`` the coefficients of each attribute on the focal regressor(s)
(within source), the omitted-variable algebra gives exactly

    b - b* = Gamma beta = sum over attributes j of Gamma[:, j] beta[j],

one term per attribute, summed by family. Fixed effects are absorbed by demeaning within
source (Frisch-Waugh-Lovell), so they are never mediators and unbalanced panels are
handled exactly. Every model is solved from the sum of the sources' cross-products of the
demeaned data, which is also what makes the cluster bootstrap cheap
(:mod:`guisekit.gelbach.bootstrap`).

Reference: Gelbach, J. B. (2016). When do covariates matter? And which ones, and how
much? Journal of Labor Economics, 34(2), 509-543.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from guisekit.errors import InputError
from guisekit.gelbach.clusters import FloatArray, cluster_crossproducts, demean
from guisekit.gelbach.data import GelbachData

__all__ = ["CrossProducts", "Decomposition", "Estimates", "decompose"]

IDENTITY_RTOL = 1e-9
# A column whose within-source root mean square is below this share of its largest
# absolute value only varies by rounding: it is constant within every source.
WITHIN_RTOL = 1e-12
# Beyond this condition number of the within-source correlation matrix the attributes are
# treated as collinear: coefficients (not the decomposition's sum) would be noise.
MAX_CONDITION = 1e10


@dataclass(frozen=True)
class Estimates:
    """Coefficients from one set of cross-products; leading axes index resamples.

    ``base`` and ``full`` (..., k1) are the focal coefficients without and with the
    attributes; ``gamma`` (..., k1, k2) the attributes' coefficients on the focal
    regressors; ``beta`` (..., k2) the attributes' coefficients in the full model.
    """

    base: FloatArray
    full: FloatArray
    gamma: FloatArray
    beta: FloatArray

    @property
    def terms(self) -> FloatArray:
        """One term per focal regressor and attribute: ``gamma * beta``."""
        out: FloatArray = self.gamma * self.beta[..., None, :]
        return out


def _solve_batch(a: FloatArray, b: FloatArray) -> FloatArray:
    """``solve(a, b)`` over leading axes; a singular system gives NaN instead of failing
    the whole batch."""
    try:
        return np.asarray(np.linalg.solve(a, b), dtype=np.float64)
    except np.linalg.LinAlgError:
        flat_a = a.reshape(-1, *a.shape[-2:])
        flat_b = b.reshape(-1, *b.shape[-2:])
        result = np.full(flat_b.shape, np.nan)
        for i in range(flat_a.shape[0]):
            try:
                result[i] = np.linalg.solve(flat_a[i], flat_b[i])
            except np.linalg.LinAlgError:
                continue
        return result.reshape(b.shape)


@dataclass(frozen=True)
class CrossProducts:
    """Each source's cross-products of the demeaned ``[focal, attributes, y]``.

    Focal and attribute columns are divided by their within-source root mean square
    before the products are formed, which evens out the scales of the normal equations;
    :meth:`solve` undoes it, so estimates are in the data's units.
    """

    per_source: FloatArray
    scale: FloatArray
    k1: int
    k0: int = 0

    @classmethod
    def from_data(cls, data: GelbachData) -> CrossProducts:
        controls = data.controls if data.controls is not None else np.zeros((data.y.shape[0], 0))
        columns = np.column_stack([controls, data.focal, data.attributes, data.y])
        within = demean(columns, data.sources, data.n_sources)
        rms = np.sqrt(np.mean(within[:, :-1] ** 2, axis=0))
        _check_variation(data, rms, np.abs(columns[:, :-1]).max(axis=0))
        scale = rms
        within[:, :-1] /= scale
        per_source = cluster_crossproducts(within, data.sources, data.n_sources)
        k0 = controls.shape[1]
        return cls(per_source=per_source, scale=scale[k0:], k1=data.focal.shape[1], k0=k0)

    def total(self) -> FloatArray:
        """Cross-products of the whole sample."""
        out: FloatArray = self.per_source.sum(axis=0)
        return out

    def partial_out(self, sums: FloatArray) -> FloatArray:
        """Cross-products of ``[focal, attributes, y]`` after the controls are partialled
        out (Frisch-Waugh-Lovell: the Schur complement of the controls' block), so both
        models hold the controls fixed without decomposing over them."""
        k0 = self.k0
        if k0 == 0:
            return sums
        a, b = sums[..., :k0, :k0], sums[..., :k0, k0:]
        reduced: FloatArray = sums[..., k0:, k0:] - np.swapaxes(b, -1, -2) @ _solve_batch(a, b)
        return reduced

    def solve(self, sums: FloatArray) -> Estimates:
        """Estimates from summed cross-products ``sums`` (..., m, m) of all columns."""
        sums = self.partial_out(sums)
        k1, p = self.k1, sums.shape[-1] - 1
        s11 = sums[..., :k1, :k1]
        right = np.concatenate([sums[..., :k1, p : p + 1], sums[..., :k1, k1:p]], axis=-1)
        on_focal = _solve_batch(s11, right)
        full_coef = _solve_batch(sums[..., :p, :p], sums[..., :p, p : p + 1])[..., 0]
        focal_scale, attribute_scale = self.scale[:k1], self.scale[k1:]
        return Estimates(
            base=on_focal[..., 0] / focal_scale,
            full=full_coef[..., :k1] / focal_scale,
            gamma=on_focal[..., 1:] * attribute_scale / focal_scale[:, None],
            beta=full_coef[..., k1:] / attribute_scale,
        )


def _check_variation(data: GelbachData, rms: FloatArray, size: FloatArray) -> None:
    """Refuse a regressor whose within-source spread is rounding noise of its size."""
    names = (*data.control_names, *data.focal_names, *data.attribute_names)
    for name, spread, largest in zip(names, rms, size, strict=True):
        if spread <= WITHIN_RTOL * largest:
            raise InputError(
                f"{name!r} does not vary within any source",
                hint="source fixed effects absorb it; drop it or check the focal levels",
            )


# A column whose within-source variance left after projecting it on other columns is below
# this share of its own is (numerically) a linear combination of them.
COLLINEAR_RTOL = 1e-10


def _dependent(gram: FloatArray) -> tuple[int, list[int]] | None:
    """The first column of a Gram matrix that is a linear combination of the columns
    before it, and those it combines (greedy Gram-Schmidt on the Gram matrix), or
    ``None`` when the columns are independent."""
    d = np.sqrt(np.diag(gram))
    if not (np.isfinite(d).all() and (d > 0).all()):
        return None  # a column without within-source variation is _check_variation's
    g = gram / np.outer(d, d)
    chosen: list[int] = []
    for j in range(g.shape[0]):
        if chosen:
            coef = np.linalg.lstsq(g[np.ix_(chosen, chosen)], g[chosen, j], rcond=None)[0]
            left = g[j, j] - g[j, chosen] @ coef
        else:
            coef, left = np.zeros(0), g[j, j]
        if left <= COLLINEAR_RTOL:
            partners = [chosen[i] for i in np.flatnonzero(np.abs(coef) > 1e-6)]
            return j, partners
        chosen.append(j)
    return None


def _column_of(name: str) -> str:
    """The data column of a control dummy ``column=level``."""
    return name.partition("=")[0]


def check_controls(data: GelbachData, sums: FloatArray, k0: int) -> None:
    """Refuse controls that are collinear within sources (a column repeated under another
    name, or levels that always go together), and a focal regressor or attribute that
    the controls determine: either would make the models singular. ``sums`` are the
    total cross-products (controls first)."""
    if k0 == 0:
        return
    found = _dependent(sums[:k0, :k0])
    names = data.control_names
    if found is not None:
        j, partners = found
        columns = list(dict.fromkeys(_column_of(names[i]) for i in (*partners, j)))
        together = " + ".join(repr(names[i]) for i in partners) or "the source fixed effects"
        raise InputError(
            f"the controls are collinear within sources: {names[j]!r} is determined by "
            f"{together} (control columns {', '.join(columns)})",
            hint="drop one of these columns from --control (a copy of another control, "
            "or one that always changes with it, adds nothing)",
        )
    a, b = sums[:k0, :k0], sums[:k0, k0:-1]
    before = np.diag(sums)[k0:-1]
    after = before - np.einsum("ij,ij->j", b, np.linalg.solve(a, b))
    regressors = (*data.focal_names, *data.attribute_names)
    for name, full, left in zip(regressors, before, after, strict=True):
        if left <= COLLINEAR_RTOL * full:
            raise InputError(
                f"{name!r} is determined by the controls within sources "
                f"(control columns {', '.join(dict.fromkeys(map(_column_of, names)))})",
                hint="drop the control that repeats it from --control",
            )


def _check_conditioning(sums: FloatArray) -> None:
    x = sums[:-1, :-1]
    if not np.isfinite(x).all():
        raise InputError(
            "the focal regressors, attributes and controls are collinear within sources",
            hint="drop controls or attributes that are linear combinations of others",
        )
    d = np.sqrt(np.diag(x))
    condition = np.linalg.cond(x / np.outer(d, d))
    if not condition < MAX_CONDITION:
        raise InputError(
            f"the focal regressors and attributes are collinear within sources "
            f"(condition number {condition:.3g})",
            hint="drop attributes that are (near) linear combinations of others",
        )


@dataclass(frozen=True)
class Decomposition:
    """Point estimates of a Gelbach decomposition; checks ``base - full == sum of terms``
    for every focal regressor on creation (relative tolerance ``IDENTITY_RTOL``)."""

    outcome: str
    focal_names: tuple[str, ...]
    attribute_names: tuple[str, ...]
    families: tuple[str, ...]
    estimates: Estimates
    n_obs: int
    n_sources: int

    def __post_init__(self) -> None:
        est = self.estimates
        gap = est.base - est.full
        parts = est.terms.sum(axis=-1)
        size = np.maximum.reduce(
            [np.abs(est.base), np.abs(est.full), np.abs(est.terms).sum(axis=-1)]
        )
        bad = np.abs(gap - parts) > IDENTITY_RTOL * np.maximum(size, np.finfo(float).tiny)
        if bad.any():
            name = self.focal_names[int(np.flatnonzero(bad)[0])]
            raise InputError(
                f"decomposition of {name!r} does not add up: base - full differs from the "
                "sum of attribute terms beyond rounding",
                hint="the attributes are nearly collinear; drop some",
            )

    @property
    def explained(self) -> FloatArray:
        """``base - full`` per focal regressor: the part of the gap the attributes carry."""
        out: FloatArray = self.estimates.base - self.estimates.full
        return out

    def family_names(self) -> tuple[str, ...]:
        """Families in order of first appearance among the attributes."""
        return tuple(dict.fromkeys(self.families))

    def family_totals(self, terms: FloatArray | None = None) -> FloatArray:
        """Terms summed by family (..., k1, families); ``terms`` defaults to the point
        estimates' and may carry leading resample axes."""
        values = self.estimates.terms if terms is None else terms
        index = np.array([self.family_names().index(f) for f in self.families])
        out = np.zeros((*values.shape[:-1], len(self.family_names())))
        for j, family in enumerate(index):
            out[..., family] += values[..., j]
        return out


def decompose(data: GelbachData, cross: CrossProducts | None = None) -> Decomposition:
    """Gelbach decomposition of every focal coefficient into attribute and family terms.

    ``cross`` lets a caller that also bootstraps reuse the per-source cross-products.
    Raises :class:`~guisekit.errors.InputError` when a regressor does not vary within
    sources or the regressors are collinear.
    """
    cross = cross or CrossProducts.from_data(data)
    sums = cross.total()
    check_controls(data, sums, cross.k0)
    _check_conditioning(cross.partial_out(sums))
    return Decomposition(
        outcome=data.outcome,
        focal_names=data.focal_names,
        attribute_names=data.attribute_names,
        families=data.families,
        estimates=cross.solve(sums),
        n_obs=int(data.y.shape[0]),
        n_sources=data.n_sources,
    )
