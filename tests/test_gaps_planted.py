"""gaps end to end on the quickstart corpus with decision models whose effects are known
(guisekit.testing.decision_responder, called as Python callables): the planted persona
contrasts and positive-control ratio are recovered within their intervals; TOST declares
the null model's persona gaps equivalent to zero and not the planted model's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from guisekit.cli import main
from guisekit.testing.decision_responder import escalation_probability

ROOT = Path(__file__).parents[1]


def _cli(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    assert _cli(["corpus", str(ROOT / "examples" / "quickstart.yaml"), "--out", str(out)]) == 0
    return out / "corpus.jsonl"


def _decide(corpus: Path, out: Path, model: str, *extra: str) -> Path:
    path = out / "decisions.jsonl"
    assert (
        _cli(
            [
                "decide",
                str(corpus),
                "--task",
                "complaint_remedy",
                "--model",
                f"python:guisekit.testing.decision_responder:{model}",
                "--out",
                str(path),
                *extra,
            ]
        )
        == 0
    )
    return path


def _gaps(corpus: Path, decisions: Path, out: Path, outcome: str, *extra: str) -> dict:
    assert (
        _cli(
            [
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
            ]
        )
        == 0
    )
    return json.loads((out / "gaps" / "gaps.json").read_text())


def _true_contrasts(corpus: Path) -> dict[str, float]:
    """The planted contrasts computed from the planted probabilities, same definition."""
    rows = [json.loads(line) for line in corpus.read_text().splitlines()]
    p = {r["variant_id"]: escalation_probability(r["text"]) for r in rows if r["status"] == "ok"}
    out: dict[str, float] = {}
    sources = sorted({r["source_id"] for r in rows})

    def mean(src: str, keep) -> float:
        values = [p[r["variant_id"]] for r in rows if r["source_id"] == src and keep(r)]
        return float(np.mean(values))

    axes = {
        "age": ("young", "old"),
        "ses": ("low", "high"),
        "education": ("high_school", "college"),
    }
    for axis, (ref, focal) in axes.items():
        diffs = [
            mean(s, lambda r, a=axis, f=focal: r.get(a) == f)
            - mean(s, lambda r, a=axis, b=ref: r.get(a) == b)
            for s in sources
        ]
        out[f"{axis}: {focal} - {ref}"] = float(np.mean(diffs))
    out["fact_edit:scale_amounts - identity"] = float(
        np.mean(
            [
                mean(s, lambda r: r["transform"] == "fact_edit:scale_amounts")
                - mean(s, lambda r: r["transform"] == "identity")
                for s in sources
            ]
        )
    )
    return out


def test_planted_effect_recovered_from_sampled_labels(corpus: Path, tmp_path: Path) -> None:
    decisions = _decide(corpus, tmp_path, "planted_sampled", "--repeats", "32")
    # 8 intervals are checked at once: Bonferroni-adjusted level 1 - 0.05/8, so that a
    # correct method passes with probability >= 95% however the corpus draws its labels
    result = _gaps(corpus, decisions, tmp_path, "label=monetary_action", "--ci", "0.99375")
    truth = _true_contrasts(corpus)
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
