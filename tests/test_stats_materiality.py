"""AIR, Cohen's h, TOST / minimum-effect tests, Kendall's W and BH against hand-computed
values (tests/data/stats_oracles.yaml) and scipy / statsmodels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from scipy import stats as st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.weightstats import ttost_paired

from guisekit.errors import InputError
from guisekit.stats import (
    adverse_impact_ratio,
    benjamini_hochberg,
    cohens_h,
    equivalence_test,
    four_fifths_flag,
    kendall_w,
)

ORACLES = yaml.safe_load((Path(__file__).parent / "data" / "stats_oracles.yaml").read_text())


@pytest.mark.parametrize("case", ORACLES["air"])
def test_air_and_four_fifths(case: dict) -> None:
    air = adverse_impact_ratio(case["focal"], case["reference"])
    assert air == pytest.approx(case["air"], rel=1e-12)
    assert four_fifths_flag(air) is case["flag"]


@pytest.mark.parametrize("case", ORACLES["cohens_h"])
def test_cohens_h(case: dict) -> None:
    assert cohens_h(case["focal"], case["reference"]) == pytest.approx(case["h"], rel=1e-12)


@pytest.mark.parametrize("bad", [(-0.1, 0.5), (0.5, 1.2)])
def test_rates_outside_unit_interval_are_refused(bad: tuple[float, float]) -> None:
    with pytest.raises(InputError):
        cohens_h(*bad)
    with pytest.raises(InputError):
        adverse_impact_ratio(*bad)


@pytest.mark.parametrize("case", ORACLES["tost_normal"])
def test_tost_normal_hand_value(case: dict) -> None:
    test = equivalence_test(case["estimate"], case["se"], case["low"], case["high"])
    assert test.p_tost == pytest.approx(case["p_tost"], rel=1e-9)
    assert test.verdict == "equivalent"


def test_tost_matches_statsmodels_ttost_paired() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, 40)
    y = x + rng.normal(0.05, 0.3, 40)
    d = x - y
    se = d.std(ddof=1) / np.sqrt(d.size)
    ours = equivalence_test(float(d.mean()), float(se), -0.2, 0.2, df=d.size - 1)
    p_sm, _, _ = ttost_paired(x, y, -0.2, 0.2)
    assert ours.p_tost == pytest.approx(p_sm, rel=1e-10)


@pytest.mark.parametrize(
    ("estimate", "se", "verdict"),
    [(0.0, 0.002, "equivalent"), (0.05, 0.005, "exists"), (0.008, 0.01, "inconclusive")],
)
def test_verdicts(estimate: float, se: float, verdict: str) -> None:
    assert equivalence_test(estimate, se, -0.01, 0.01).verdict == verdict


def test_minimum_effect_p_value_by_hand() -> None:
    # estimate 0.05, se 0.01, margin 0.01: H0 estimate <= 0.01 has z = 4; doubled.
    test = equivalence_test(0.05, 0.01, -0.01, 0.01)
    assert test.p_met == pytest.approx(2 * st.norm.sf(4.0), rel=1e-9)


@pytest.mark.parametrize("case", ORACLES["kendall_w"])
def test_kendall_w_by_hand(case: dict) -> None:
    result = kendall_w(np.array(case["scores"], dtype=float))
    assert result.w == pytest.approx(case["w"], rel=1e-12)
    assert result.chi2 == pytest.approx(case["chi2"], rel=1e-12)
    assert result.p_value == pytest.approx(st.chi2.sf(case["chi2"], 3), rel=1e-12)


def test_kendall_w_with_ties_matches_scipy_friedman() -> None:
    rng = np.random.default_rng(7)
    scores = rng.integers(0, 4, size=(9, 6)).astype(float)  # many ties
    result = kendall_w(scores)
    friedman = st.friedmanchisquare(*scores.T)
    assert result.chi2 == pytest.approx(friedman.statistic, rel=1e-10)
    assert result.p_value == pytest.approx(friedman.pvalue, rel=1e-10)


def test_benjamini_hochberg_matches_statsmodels() -> None:
    p = np.array([0.001, 0.04, 0.03, 0.2, 0.5, 0.012, 0.04])
    expected = multipletests(p, method="fdr_bh")[1]
    np.testing.assert_allclose(benjamini_hochberg(p), expected, rtol=1e-12)
