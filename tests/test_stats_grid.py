"""Identifier-grid metrics on a tiny hand-computed grid (tests/data/stats_oracles.yaml),
and the instability sums against brute-force pair loops."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
import yaml

from guisekit.errors import InputError
from guisekit.stats import grid_metrics, pairwise_abs_diff, pairwise_disagreement, pairwise_tv

GRID = yaml.safe_load((Path(__file__).parent / "data" / "stats_oracles.yaml").read_text())["grid"]


def _metrics():
    rows = GRID["rows"]
    return grid_metrics(
        [r["y"] for r in rows],
        ["g"] * len(rows),
        [r["identifier"] for r in rows],
        [r["slot"] for r in rows],
        [r["profile"] for r in rows],
        canonical={"g": ("a", "b")},
        n_resamples=200,
    )[0]


def test_grid_metrics_by_hand() -> None:
    m = _metrics()
    assert m.mean_delta_pct == pytest.approx(GRID["mean_delta_pct"])
    assert m.mean_abs_delta_pct == pytest.approx(GRID["mean_abs_delta_pct"])
    assert m.violation_at_10 == GRID["violation_at_10"]
    assert m.max_gap_pct == pytest.approx(GRID["max_gap_pct"])
    assert m.max_gap_pair == ("a", "b")
    assert m.canonical is not None
    assert m.canonical.cpg_pct == pytest.approx(GRID["cpg_pct"])
    assert m.canonical.sign_consistency == GRID["sign_consistency"]
    # both slots give the same CPG, so every bootstrap mean equals it
    assert m.canonical.ci_low == pytest.approx(GRID["cpg_pct"])
    assert m.merit_sensitivity_pct == pytest.approx(GRID["merit_sensitivity_pct"])
    assert m.kendall_w == pytest.approx(GRID["kendall_w"])


def test_grid_rejects_unknown_canonical_identifier() -> None:
    rows = GRID["rows"]
    with pytest.raises(InputError, match="no identifier 'z'"):
        grid_metrics(
            [r["y"] for r in rows],
            ["g"] * 4,
            [r["identifier"] for r in rows],
            [r["slot"] for r in rows],
            [r["profile"] for r in rows],
            canonical={"g": ("a", "z")},
        )


def _brute(groups: np.ndarray, stat) -> tuple[np.ndarray, np.ndarray]:
    g = int(groups.max()) + 1
    total, pairs = np.zeros(g), np.zeros(g)
    for i, j in itertools.combinations(range(groups.size), 2):
        if groups[i] == groups[j]:
            total[groups[i]] += stat(i, j)
            pairs[groups[i]] += 1
    return total, pairs


def test_instability_sums_match_pair_loops() -> None:
    rng = np.random.default_rng(11)
    groups = rng.integers(0, 5, 60)
    labels = rng.integers(0, 3, 60)
    values = rng.normal(size=60)
    probs = rng.dirichlet(np.ones(3), size=60)
    cases = [
        (pairwise_disagreement(labels, groups), lambda i, j: float(labels[i] != labels[j])),
        (pairwise_abs_diff(values, groups), lambda i, j: abs(values[i] - values[j])),
        (pairwise_tv(probs, groups), lambda i, j: 0.5 * np.abs(probs[i] - probs[j]).sum()),
    ]
    for sums, stat in cases:
        total, pairs = _brute(groups, stat)
        np.testing.assert_allclose(sums.total, total, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(sums.pairs, pairs)
