"""gelbach joins: controls (other persona axes) held fixed in both models against
statsmodels OLS with source and control dummies; decisions joined on variant_id; console
warnings for few clusters and failed resamples; the planted attribute carries the gap."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from e2e_helpers import cli, decide_remedy, estimate, planted_gelbach, rules_corpus

from guisekit.gelbach import FocalContrast, GelbachData, gelbach


def _frame(seed: int = 0, sources: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for s in range(sources):
        for edu in ("hs", "college"):
            for ses in ("low", "mid", "high"):
                x1 = (edu == "college") * 1.0 + (ses == "high") * 0.7 + rng.normal(0, 0.5)
                x2 = (ses == "mid") * 0.5 + rng.normal(0, 0.5)
                y = 0.3 * (edu == "college") + 0.8 * x1 - 0.4 * x2 + 0.5 * (ses == "high") + s * 0.1
                rows.append(
                    {
                        "source_id": f"s{s}",
                        "education": edu,
                        "ses": ses,
                        "x1": x1,
                        "x2": x2,
                        "y": y + rng.normal(0, 0.3),
                    }
                )
    return pd.DataFrame(rows)


def test_controls_match_ols_with_control_dummies() -> None:
    df = _frame()
    data = GelbachData.from_rows(
        df.to_dict("records"),
        outcome="y",
        focal=FocalContrast(column="education", levels=("college",), base_levels=("hs",)),
        families={"x1": "delivery", "x2": "content"},
        source="source_id",
        controls=("ses",),
    )
    result = gelbach(data, n_resamples=50, seed=1)
    est = result.decomposition.estimates
    base = smf.ols("y ~ I(education == 'college') + C(ses) + C(source_id)", df).fit()
    full = smf.ols("y ~ I(education == 'college') + x1 + x2 + C(ses) + C(source_id)", df).fit()
    key = "I(education == 'college')[T.True]"
    assert est.base[0] == pytest.approx(base.params[key], rel=1e-9)
    assert est.full[0] == pytest.approx(full.params[key], rel=1e-9)
    assert est.beta[0] == pytest.approx(full.params["x1"], rel=1e-9)
    # without the control the coefficients differ (ses=high raises x1 and y)
    plain = GelbachData.from_rows(
        df.to_dict("records"),
        outcome="y",
        focal=FocalContrast(column="education", levels=("college",), base_levels=("hs",)),
        families={"x1": "delivery", "x2": "content"},
        source="source_id",
    )
    assert data.control_names == ("ses=low", "ses=mid")
    assert gelbach(plain, n_resamples=0).decomposition.estimates.full[0] != pytest.approx(
        est.full[0], rel=1e-6
    )


def test_failed_resamples_and_few_clusters_are_warned(tmp_path: Path, capsys) -> None:
    df = _frame(sources=3)
    # the focal contrast varies in one source only: resamples without it are singular
    df = df[(df.source_id == "s0") | (df.education == "hs")]
    path = tmp_path / "d.csv"
    df.to_csv(path, index=False)
    code = cli(
        "gelbach",
        str(path),
        "--outcome",
        "y",
        "--focal-column",
        "education",
        "--focal-level",
        "college",
        "--attributes",
        "x1=delivery,x2=content",
        "--resamples",
        "200",
        "--out",
        str(tmp_path / "g"),
    )
    assert code == 0
    err = capsys.readouterr().err
    assert "only 3 sources" in err
    assert "bootstrap resamples" in err and "singular" in err


def test_decisions_joined_and_gap_attributed_to_the_planted_attribute(
    tmp_path: Path, capsys
) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(rules_corpus(limit=5, out=tmp_path / "corpus"))
    assert cli("corpus", str(config)) == 0
    corpus = tmp_path / "corpus" / "corpus.jsonl"
    planted = "python:guisekit.testing.decision_responder:planted"
    decisions = decide_remedy(corpus, planted, tmp_path / "decisions.jsonl", "--repeats", "2")
    attributes = tmp_path / "attributes.csv"
    assert cli("attributes", str(corpus), "--out", str(attributes)) == 0
    rows = planted_gelbach(attributes, decisions, tmp_path / "g")
    result = json.loads((tmp_path / "g" / "gelbach.json").read_text())
    text = json.dumps(result)
    assert "informal_marker_rate" in text
    base = estimate(rows, "base")
    informal = estimate(rows, "informal_marker_rate")
    others = rows[rows.term.isin(["fk_grade", "hedge_density", "misspelling_rate"])]
    assert base < -0.05
    assert informal == pytest.approx(base, rel=0.02)
    assert others.estimate.abs().max() < 0.02 * abs(base)
    assert "only 5 sources" in capsys.readouterr().err
