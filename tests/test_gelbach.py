"""Gelbach decomposition: point estimates against statsmodels OLS with source dummies,
the cross-product bootstrap against a naive resample-and-refit on the same draws, the
identity check, data preparation, outputs, and the manipulation report."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.attributes import ManipulationRow, manipulation_report
from guisekit.errors import InputError, OutputError
from guisekit.gelbach import (
    CrossProducts,
    Decomposition,
    FocalContrast,
    GelbachData,
    bootstrap,
    decompose,
    gelbach,
    plot_decomposition,
    write_report,
)
from guisekit.gelbach.clusters import cluster_crossproducts, cluster_draws, draw_counts

FAMILIES = {"a0": "delivery", "a1": "delivery", "a2": "structure", "a3": "content", "a4": "content"}


def synthetic(
    seed: int, *, n_sources: int = 30, n_personas: int = 6, k1: int = 1, drop: float = 0.0
) -> GelbachData:
    """Seeded panel: attributes move with the focal dummies and the source; the outcome
    with focal, attributes and source. Columns on very different scales on purpose."""
    rng = np.random.default_rng(seed)
    source = np.repeat(np.arange(n_sources), n_personas)
    persona = np.tile(np.arange(n_personas), n_sources)
    focal = np.column_stack([(persona % (k1 + 1)) == i + 1 for i in range(k1)]).astype(float)
    n, k2 = source.size, len(FAMILIES)
    attributes = (
        rng.normal(size=(n, k2))
        + focal @ rng.normal(size=(k1, k2))
        + rng.normal(size=(n_sources, k2))[source]
    ) * np.array([100.0, 1.0, 0.01, 5.0, 1.0])
    y = (
        focal @ rng.normal(size=k1)
        + attributes @ (rng.normal(size=k2) / np.array([100.0, 1.0, 0.01, 5.0, 1.0]))
        + rng.normal(size=n_sources)[source] * 3
        + rng.normal(size=n)
    )
    keep = rng.random(n) >= drop
    return GelbachData.from_arrays(
        y=y[keep],
        focal=focal[keep],
        attributes=attributes[keep],
        sources=[f"s{s}" for s in source[keep]],
        outcome="y",
        focal_names=[f"f{i}" for i in range(k1)],
        families=FAMILIES,
    )


def _dummies(codes: np.ndarray) -> np.ndarray:
    return (codes[:, None] == np.unique(codes)[None, :]).astype(float)


def _statsmodels(data: GelbachData) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """base, full, gamma, beta from OLS with one dummy per source (no constant)."""
    d = _dummies(data.sources)
    k1, k2 = data.focal.shape[1], data.attributes.shape[1]
    base = sm.OLS(data.y, np.column_stack([data.focal, d])).fit().params[:k1]
    full = sm.OLS(data.y, np.column_stack([data.focal, data.attributes, d])).fit().params
    gamma = np.column_stack(
        [
            sm.OLS(data.attributes[:, j], np.column_stack([data.focal, d])).fit().params[:k1]
            for j in range(k2)
        ]
    )
    return base, full[:k1], gamma, full[k1 : k1 + k2]


@pytest.mark.parametrize("drop", [0.0, 0.25], ids=["balanced", "unbalanced"])
@pytest.mark.parametrize("k1", [1, 2])
def test_point_estimates_equal_statsmodels_with_source_dummies(drop: float, k1: int) -> None:
    data = synthetic(7 + k1, k1=k1, drop=drop)
    if drop:
        assert len(set(np.bincount(data.sources))) > 1  # really unbalanced
    base, full, gamma, beta = _statsmodels(data)
    est = decompose(data).estimates
    np.testing.assert_allclose(est.base, base, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(est.full, full, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(est.gamma, gamma, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(est.beta, beta, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(est.terms, gamma * beta, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose((base - full), (gamma * beta).sum(axis=1), rtol=1e-8)


def _naive_refit(data: GelbachData, draw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Resample-and-refit: stack the drawn sources' rows, every copy its own cluster with
    its own dummy, and fit the three regressions by least squares."""
    rows = [np.flatnonzero(data.sources == g) for g in draw]
    index = np.concatenate(rows)
    copy = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
    d = _dummies(copy)
    x1, x2, y = data.focal[index], data.attributes[index], data.y[index]
    k1, k2 = x1.shape[1], x2.shape[1]

    def fit(target: np.ndarray, *columns: np.ndarray) -> np.ndarray:
        coef: np.ndarray = np.linalg.lstsq(np.column_stack([*columns, d]), target, rcond=None)[0]
        return coef

    base = fit(y, x1)[:k1]
    full = fit(y, x1, x2)
    gamma = np.column_stack([fit(x2[:, j], x1)[:k1] for j in range(k2)])
    return base, gamma * full[k1 : k1 + k2]


@pytest.mark.parametrize("drop", [0.0, 0.25], ids=["balanced", "unbalanced"])
def test_bootstrap_replicates_equal_naive_resample_and_refit(drop: float) -> None:
    data = synthetic(3, n_sources=14, drop=drop)
    reps = bootstrap(CrossProducts.from_data(data), n_resamples=70, seed=11)
    draws = np.concatenate(list(cluster_draws(data.n_sources, 70, 11)))  # two chunks
    assert draws.shape == (70, data.n_sources)
    for r, draw in enumerate(draws):
        base, terms = _naive_refit(data, draw)
        np.testing.assert_allclose(reps.base[r], base, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(reps.terms[r], terms, rtol=1e-10, atol=1e-12)


def test_draw_counts_and_cluster_crossproducts_match_plain_loops() -> None:
    draws = next(cluster_draws(7, 5, 0))
    counts = draw_counts(draws, 7)
    for row, draw in zip(counts, draws, strict=True):
        np.testing.assert_array_equal(row, np.bincount(draw, minlength=7))
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 5, size=40)
    z = rng.normal(size=(40, 3))
    per = cluster_crossproducts(z, codes, 6)  # group 5 is empty
    for g in range(6):
        np.testing.assert_allclose(per[g], z[codes == g].T @ z[codes == g], atol=1e-12)


def test_a_resample_with_every_source_once_is_the_point_estimate() -> None:
    data = synthetic(5, drop=0.2)
    cross = CrossProducts.from_data(data)
    once = cross.solve(cross.per_source.sum(axis=0)[None])
    np.testing.assert_allclose(once.base[0], decompose(data, cross).estimates.base, rtol=1e-14)


def test_intervals_are_reproducible_for_a_seed() -> None:
    data = synthetic(2)
    first = [r.model_dump() for r in gelbach(data, n_resamples=200, seed=4).rows()]
    again = [r.model_dump() for r in gelbach(data, n_resamples=200, seed=4).rows()]
    other = [r.model_dump() for r in gelbach(data, n_resamples=200, seed=5).rows()]
    assert first == again
    assert [r["ci_low"] for r in first] != [r["ci_low"] for r in other]
    assert [r["estimate"] for r in first] == [r["estimate"] for r in other]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_source_level_shifts_change_nothing(seed: int) -> None:
    """Fixed effects are absorbed, never mediators: adding any per-source constant to the
    outcome and the attributes leaves every estimate as it was."""
    data = synthetic(seed % 1000, n_sources=12, drop=0.2)
    shift = np.random.default_rng(seed).normal(scale=50.0, size=(data.n_sources, 6))
    shifted = replace(
        data,
        y=data.y + shift[data.sources, 0],
        attributes=data.attributes + shift[data.sources, 1:],
    )
    a, b = decompose(data).estimates, decompose(shifted).estimates
    np.testing.assert_allclose(b.terms, a.terms, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(b.base, a.base, rtol=1e-7, atol=1e-9)


def test_the_decomposition_checks_its_own_identity() -> None:
    point = decompose(synthetic(1))
    est = point.estimates
    with pytest.raises(InputError, match="does not add up"):
        replace(point, estimates=replace(est, full=est.full + 1e-6 * (abs(est.base) + 1)))


def test_families_sum_their_attribute_terms() -> None:
    point = decompose(synthetic(4))
    totals = point.family_totals()
    terms = point.estimates.terms
    assert point.family_names() == ("delivery", "structure", "content")
    np.testing.assert_allclose(totals[0], [terms[0, :2].sum(), terms[0, 2], terms[0, 3:].sum()])
    np.testing.assert_allclose(totals.sum(axis=-1), point.explained, rtol=1e-9)


def test_singular_resamples_are_counted_and_left_out_of_intervals() -> None:
    # Only source 0 has both focal levels: resamples without it cannot estimate the gap.
    rng = np.random.default_rng(0)
    sources = np.repeat(np.arange(3), 8)
    focal = np.where(sources == 0, np.arange(24) % 2, 0).astype(float)
    attributes = rng.normal(size=(24, 2)) + focal[:, None]
    y = focal + attributes.sum(axis=1) + rng.normal(size=24)
    data = GelbachData.from_arrays(
        y=y,
        focal=focal,
        attributes=attributes,
        sources=list(sources),
        outcome="y",
        focal_names=["f"],
        families={"a": "delivery", "b": "content"},
    )
    result = gelbach(data, n_resamples=300, seed=1)
    assert result.replicates is not None
    assert 40 < result.replicates.failed < 200  # about (2/3)^3 of 300
    base = result.rows()[0]
    assert base.ci_low is not None and base.ci_high is not None


@pytest.mark.parametrize(
    ("change", "message"),
    [("constant", "'a1' does not vary within any source"), ("copy", "collinear")],
)
def test_degenerate_attributes_are_refused(change: str, message: str) -> None:
    data = synthetic(6)
    attributes = data.attributes.copy()
    if change == "constant":
        attributes[:, 1] = np.arange(data.n_sources)[data.sources] * 0.1
    else:
        attributes[:, 1] = 2 * attributes[:, 3] - attributes[:, 4]
    with pytest.raises(InputError, match=message):
        decompose(replace(data, attributes=attributes))


def test_non_finite_values_are_refused() -> None:
    data = synthetic(6)
    y = data.y.copy()
    y[3] = np.nan
    with pytest.raises(InputError, match="outcome values must be finite"):
        replace(data, y=y)


# --- building the data from rows -------------------------------------------------------------


def _rows() -> list[dict[str, object]]:
    rng = np.random.default_rng(9)
    rows: list[dict[str, object]] = []
    for s in range(8):
        for education in ("college", "high_school", "graduate"):
            for ses in ("low", "middle", "high"):
                rows.append(
                    {
                        "source_id": f"s{s}",
                        "education": education,
                        "ses": ses,
                        "y": str(rng.normal()),  # as read from CSV
                        "a": float(rng.normal()) + (education == "college"),
                        "b": float(rng.normal()) + (ses == "high"),
                        "years": {"college": 16, "high_school": 12, "graduate": 18}[education],
                    }
                )
    rows.append({"source_id": "s0", "education": None, "ses": "low", "y": 1, "a": 1, "b": 1})
    rows.append({"source_id": "s1", "education": "college", "ses": "low", "y": "", "a": 1, "b": 1})
    return rows


def test_rows_to_a_contrast_with_rows_left_out_counted() -> None:
    contrast = FocalContrast(column="education", levels=("college",), base_levels=("high_school",))
    data = GelbachData.from_rows(
        _rows(),
        outcome="y",
        focal=contrast,
        families={"a": "delivery", "b": "content"},
        source="source_id",
    )
    assert data.focal_names == ("education=college",)
    assert data.y.shape == (48,) and data.n_sources == 8
    assert data.focal.sum() == 24
    assert dict(data.left_out) == {"outside_contrast": 25, "missing_values": 1}


def test_several_dummies_and_a_numeric_focal() -> None:
    families = {"a": "delivery", "b": "content"}
    both = FocalContrast(column="ses", levels=("middle", "high"))
    data = GelbachData.from_rows(
        _rows(), outcome="y", focal=both, families=families, source="source_id"
    )
    assert data.focal_names == ("ses=middle", "ses=high")
    assert data.focal.shape == (73, 2)
    assert decompose(data).estimates.terms.shape == (2, 2)
    numeric = GelbachData.from_rows(
        _rows()[:-2],
        outcome="y",
        focal=FocalContrast(column="years"),
        families=families,
        source="source_id",
    )
    assert sorted(set(numeric.focal[:, 0])) == [12.0, 16.0, 18.0]


@pytest.mark.parametrize(
    ("edit", "contrast", "message"),
    [
        ({"y": "lots"}, FocalContrast(column="education", levels=("college",)), "'lots' is not"),
        ({"source_id": ""}, FocalContrast(column="education", levels=("college",)), "empty source"),
        ({}, FocalContrast(column="education", levels=("phd",)), "level 'phd' never occurs"),
        ({}, FocalContrast(column="age", levels=("young",)), "no column 'age'"),
    ],
)
def test_bad_rows_are_refused_with_row_and_column(
    edit: dict[str, object], contrast: FocalContrast, message: str
) -> None:
    rows = _rows()[:-2]
    rows[4] = {**rows[4], **edit}
    with pytest.raises(InputError, match=message):
        GelbachData.from_rows(
            rows, outcome="y", focal=contrast, families={"a": "delivery"}, source="source_id"
        )


# --- outputs ------------------------------------------------------------------------------


def test_tidy_rows_shares_and_json() -> None:
    result = gelbach(synthetic(8), n_resamples=300, seed=0)
    rows = {row.term: row for row in result.rows()}
    base = rows["base"].estimate
    assert rows["explained"].estimate == pytest.approx(base - rows["full"].estimate)
    assert sum(rows[f].estimate for f in ("delivery", "structure", "content")) == pytest.approx(
        rows["explained"].estimate
    )
    for row in rows.values():
        assert row.share_of_base == pytest.approx(row.estimate / base)
        assert row.ci_low is not None and row.ci_high is not None and row.se is not None
        assert row.ci_low <= row.ci_high
    doc = result.to_json()
    assert doc["bootstrap"]["resamples"] == 300 and doc["n_sources"] == 30
    assert len(doc["rows"]) == 3 + 3 + 5
    bare = gelbach(synthetic(8), n_resamples=0).rows()
    assert all(r.ci_low is None and r.se is None for r in bare)


def test_write_report_table_json_and_plots(tmp_path: Path) -> None:
    result = gelbach(synthetic(8, k1=2), n_resamples=100, seed=0)
    paths = write_report(result, tmp_path / "g", plot_format="svg")
    assert paths["plot"].read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert json.loads(paths["json"].read_text())["focal"] == ["f0", "f1"]
    assert paths["table"].read_text().splitlines()[0].startswith("focal,term,kind,family")
    with pytest.raises(OutputError, match="already exists"):
        write_report(result, tmp_path / "g", plot_format="svg")
    png = plot_decomposition(result, tmp_path / "plot.PNG")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(OutputError, match="cannot draw a plot"):
        plot_decomposition(result, tmp_path / "plot.pdf")


def test_decomposition_is_a_plain_value() -> None:
    point = decompose(synthetic(1))
    assert isinstance(point, Decomposition)
    assert point.n_obs == 180 and point.attribute_names == tuple(FAMILIES)


# --- manipulation report -------------------------------------------------------------------


def _partial_eta(values: np.ndarray, persona: np.ndarray, source: np.ndarray) -> float:
    d_source = _dummies(source)
    d_persona = _dummies(persona)[:, 1:]
    restricted = sm.OLS(values, d_source).fit().ssr
    full = sm.OLS(values, np.column_stack([d_source, d_persona])).fit().ssr
    return float((restricted - full) / restricted)


@pytest.mark.parametrize("drop", [0.0, 0.3], ids=["balanced", "unbalanced"])
def test_manipulation_eta_squared_equals_two_way_fixed_effects(drop: float) -> None:
    rng = np.random.default_rng(12)
    source = np.repeat(np.arange(20), 6)
    persona = np.tile(np.arange(6), 20)
    keep = rng.random(source.size) >= drop
    moved = persona * 0.7 + rng.normal(size=20)[source] + rng.normal(size=source.size)
    left = rng.normal(size=20)[source] * 5 + rng.normal(size=source.size)
    constant = rng.normal(size=20)[source]

    def report(seed: int) -> list[ManipulationRow]:
        return manipulation_report(
            {"moved": moved[keep], "left": left[keep], "constant": constant[keep]},
            list(persona[keep]),
            list(source[keep]),
            families={"moved": "delivery"},
            n_resamples=200,
            seed=seed,
        )

    rows = report(3)
    moved_row, left_row, constant_row = rows
    assert moved_row.eta_squared == pytest.approx(
        _partial_eta(moved[keep], persona[keep], source[keep]), rel=1e-8
    )
    assert left_row.eta_squared == pytest.approx(
        _partial_eta(left[keep], persona[keep], source[keep]), rel=1e-8
    )
    assert moved_row.eta_squared > 0.5 > 0.15 > left_row.eta_squared
    assert moved_row.family == "delivery" and left_row.family is None
    assert moved_row.ci_low is not None and moved_row.ci_high is not None
    assert moved_row.ci_low < moved_row.eta_squared < moved_row.ci_high
    assert constant_row.eta_squared is None and constant_row.ci_low is None
    assert report(3) == rows
    other = report(4)[0]
    assert other.eta_squared == moved_row.eta_squared and other.ci_low != moved_row.ci_low


def test_manipulation_report_refuses_a_single_persona() -> None:
    with pytest.raises(InputError, match="two personas"):
        manipulation_report({"a": [1.0, 2.0]}, ["p", "p"], ["s", "s"], n_resamples=0)
