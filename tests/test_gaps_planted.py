"""gaps end to end on the quickstart corpus with decision models whose effects are known
(guisekit.testing.decision_responder, called as Python callables): the planted persona
contrasts and positive-control ratio are recovered within their intervals; TOST declares
the null model's persona gaps equivalent to zero and not the planted model's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_helpers import cli, decide_remedy
from planted_truth import true_contrasts

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    assert cli("corpus", str(ROOT / "examples" / "quickstart.yaml"), "--out", str(out)) == 0
    return out / "corpus.jsonl"


def _decide(corpus: Path, out: Path, model: str, *extra: str) -> Path:
    model = f"python:guisekit.testing.decision_responder:{model}"
    return decide_remedy(corpus, model, out / "decisions.jsonl", *extra)


def _gaps(corpus: Path, decisions: Path, out: Path, outcome: str, *extra: str) -> dict:
    assert (
        cli(
            "gaps",
            str(corpus),
            str(decisions),
            "--outcome",
            outcome,
            "--out",
            str(out / "gaps"),
            "--resamples",
            "1000",
            *extra,
        )
        == 0
    )
    return json.loads((out / "gaps" / "gaps.json").read_text())


def test_planted_effect_recovered_from_sampled_labels(corpus: Path, tmp_path: Path) -> None:
    decisions = _decide(corpus, tmp_path, "planted_sampled", "--repeats", "32")
    # 8 intervals are checked at once: Bonferroni-adjusted level 1 - 0.05/8, so that a
    # correct method passes with probability >= 95% however the corpus draws its labels
    result = _gaps(corpus, decisions, tmp_path, "label=monetary_action", "--ci", "0.99375")
    truth = true_contrasts(corpus)
    by_name = {c["name"]: c for c in result["contrasts"]}
    for name, value in truth.items():
        c = by_name[name]
        assert c["ci_low"] <= value <= c["ci_high"], (name, value, c["ci_low"], c["ci_high"])
    # the informal-marker effect is planted: young personas write more informally
    assert truth["age: old - young"] < -0.1
    assert by_name["age: old - young"]["verdict"] == "exists"
    # positive-control ratio: the planted ratio lies within the measured interval
    persona = [n for n in truth if not n.startswith("fact_edit")]
    largest = max(abs(truth[n]) for n in persona)
    planted_ratio = abs(truth["fact_edit:scale_amounts - identity"]) / largest
    [ratio] = [r for r in result["control_ratios"] if r["control"].startswith("fact_edit:scale")]
    assert ratio["ci_low"] <= planted_ratio <= ratio["ci_high"]
    assert ratio["largest_gap"] == "age: old - young"


def test_tost_equivalence_for_null_not_for_planted(corpus: Path, tmp_path: Path) -> None:
    null = _gaps(
        corpus,
        _decide(corpus, tmp_path / "null", "null"),
        tmp_path / "null",
        "prob_monetary_action",
    )
    persona = [c for c in null["contrasts"] if c["kind"] == "persona"]
    assert len(persona) == 6
    assert {c["verdict"] for c in persona} == {"equivalent"}
    assert null["verdicts"]["exists"] == []
    planted = _gaps(
        corpus,
        _decide(corpus, tmp_path / "planted", "planted"),
        tmp_path / "planted",
        "prob_monetary_action",
    )
    verdict = {c["name"]: c["verdict"] for c in planted["contrasts"]}
    assert verdict["age: old - young"] == "exists"
    assert "age: old - young" not in planted["verdicts"]["equivalent"]
    age = next(c for c in planted["contrasts"] if c["name"] == "age: old - young")
    assert age["four_fifths"] is True and age["air"] < 0.8
    # the report says it in words
    page = (tmp_path / "planted" / "gaps" / "report.html").read_text()
    assert "shown to exist (beyond the margin)</b>: age: old - young" in page
    assert 'src="data:image/png;base64,' in page


def test_mitigation_side_by_side(corpus: Path, tmp_path: Path) -> None:
    m0 = _decide(corpus, tmp_path / "m0", "planted")
    m1 = _decide(corpus, tmp_path / "m1", "null")
    result = _gaps(corpus, m0, tmp_path / "m0", "prob_monetary_action", "--mitigated", str(m1))
    rows = {m["name"]: m for m in result["mitigation"]}
    age = rows["age: old - young"]
    assert age["gap_m0"] < -0.1 and abs(age["gap_m1"]) < 0.01
    assert age["ci_low"] <= age["change"] <= age["ci_high"] and age["ci_low"] > 0
