"""Variance components: ANOVA moments against statsmodels MixedLM (REML) on a simulated
balanced crossed design, and the known components recovered within their intervals."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from guisekit.errors import InputError
from guisekit.stats import ratio_replicates, variance_components
from guisekit.stats.clusters import cluster_draws, draw_counts

TRUE = {"persona": 0.5, "source_x_persona": 0.3, "order": 0.2, "residual": 1.0}


def _simulate(seed: int, s: int = 30, p: int = 8, o: int = 3, r: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    src = rng.normal(0, 2.0, s)
    per = rng.normal(0, np.sqrt(TRUE["persona"]), p)
    sp = rng.normal(0, np.sqrt(TRUE["source_x_persona"]), (s, p))
    order = rng.normal(0, np.sqrt(TRUE["order"]), o)
    ss, pp, oo, _ = np.meshgrid(
        np.arange(s), np.arange(p), np.arange(o), np.arange(r), indexing="ij"
    )
    ss, pp, oo = ss.ravel(), pp.ravel(), oo.ravel()
    y = src[ss] + per[pp] + sp[ss, pp] + order[oo] + rng.normal(0, 1.0, ss.size)
    return pd.DataFrame({"y": y, "source": ss, "persona": pp, "order": oo})


def test_moments_equal_statsmodels_reml_on_balanced_data() -> None:
    import statsmodels.formula.api as smf

    df = _simulate(1, s=12, p=5, o=3, r=2)
    df["sp"] = df["source"] * 100 + df["persona"]
    df["one"] = 1
    vc = {
        "source": "0 + C(source)",
        "persona": "0 + C(persona)",
        "sp": "0 + C(sp)",
        "order": "0 + C(order)",
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = smf.mixedlm("y ~ 1", df, groups="one", vc_formula=vc).fit(reml=True)
    reml = dict(zip(fit.model.exog_vc.names, fit.vcomp, strict=True))
    ours = variance_components(df["y"], df["source"], df["persona"], order=df["order"])
    assert all(c.raw > 0 for c in ours.components if c.name != "bank")
    assert ours.get("persona").estimate == pytest.approx(reml["persona"], rel=2e-3)
    assert ours.get("source_x_persona").estimate == pytest.approx(reml["sp"], rel=2e-3)
    assert ours.get("order").estimate == pytest.approx(reml["order"], rel=2e-3)
    assert ours.get("residual").estimate == pytest.approx(fit.scale, rel=2e-3)
    assert ours.source == pytest.approx(reml["source"], rel=2e-3)


def test_known_components_recovered_within_intervals() -> None:
    df = _simulate(5)
    result = variance_components(df["y"], df["source"], df["persona"], order=df["order"])
    for name, value in TRUE.items():
        c = result.get(name)
        assert c.ci_low <= value <= c.ci_high, (name, c)
    assert sum(c.share for c in result.components) == pytest.approx(1.0)
    assert result.get("bank").estimate == 0.0


def test_unbalanced_design_is_refused() -> None:
    df = _simulate(2, s=4, p=3, o=1, r=2).iloc[1:]
    with pytest.raises(InputError, match="balanced"):
        variance_components(df["y"], df["source"], df["persona"])


def test_ratio_replicates_equal_a_naive_resample_loop() -> None:
    rng = np.random.default_rng(4)
    num = rng.normal(size=(25, 3))
    den = rng.integers(1, 5, size=(25, 3)).astype(float)
    fast = ratio_replicates(num, den, n_resamples=100, seed=9)
    naive = []
    for draws in cluster_draws(25, 100, 9):
        for row in draws:
            naive.append(num[row].sum(axis=0) / den[row].sum(axis=0))
    np.testing.assert_allclose(fast, np.array(naive), rtol=1e-12)
    assert draw_counts(next(cluster_draws(25, 1, 9)), 25).sum() == 25
