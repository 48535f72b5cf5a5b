"""Issue #16's planted effect recovered end to end over real HTTP: a small rules corpus,
``decide`` against the stub server whose responder answers the complaint-remedy label prompt
with log-probabilities carrying the planted probabilities (not order-biased), then ``gaps``.
The probabilities are deterministic, so the age contrast and the positive-control ratio
equal the planted values exactly; a second ``decide`` run is served from the cache."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from planted_truth import true_contrasts

from guisekit.cli import main
from guisekit.testing import StubConfig, StubReply, StubRequest, StubServer
from guisekit.testing.decision_responder import (
    _OPTION,
    _TEXT,
    REMEDY_LABELS,
    _label_reply,
    _probs,
    escalation_probability,
)

ROOT = Path(__file__).parents[1]

CONFIG = """
sources: {{path: {data}, limit: 8}}
engine: {{name: rules}}
seed: 0
transforms:
  - transform: identity
  - transform: persona
    personas: all
  - transform: fact_edit
    kind: scale_amounts
    factor: 10
output: {{dir: {out}, format: jsonl}}
"""


def _cli(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def planted_logprob_responder(request: StubRequest) -> StubReply:
    """The planted model over HTTP: the most likely remedy label, with the planted
    probabilities of the text as the label token's alternatives. No order effect."""
    system = "\n".join(t for role, t in request.messages if role == "system")
    user = next((t for role, t in request.messages if role == "user"), "")
    found = _TEXT.search(user)
    options = _OPTION.findall(system)
    if found is None or not options or not set(options) <= set(REMEDY_LABELS):
        return StubReply(text="I can only take complaint-remedy decisions.")
    probs = _probs(escalation_probability(found["text"]))
    return _label_reply(max(probs, key=probs.__getitem__), probs)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    config = out / "c.yaml"
    config.write_text(
        CONFIG.format(data=ROOT / "examples" / "data" / "complaints.jsonl", out=out / "corpus")
    )
    assert _cli(["corpus", str(config)]) == 0
    return out / "corpus" / "corpus.jsonl"


def test_planted_effect_recovered_through_stub_server(
    corpus: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    decisions = tmp_path / "decisions.jsonl"
    with StubServer(StubConfig(), planted_logprob_responder) as stub:
        args = [
            "decide",
            str(corpus),
            "--task",
            "complaint_remedy",
            "--model",
            f"openai-compatible:assessor@{stub.openai_base_url}",
            "--out",
            str(decisions),
        ]
        assert _cli(args) == 0
        calls = stub.stats().total_requests
        assert _cli([*args, "--overwrite"]) == 0
        assert stub.stats().total_requests == calls, "the second run is served from the cache"

    rows = [json.loads(line) for line in corpus.read_text().splitlines()]
    ok = {r["variant_id"]: r["text"] for r in rows if r["status"] == "ok"}
    got = [json.loads(line) for line in decisions.read_text().splitlines()]
    assert len(got) == len(ok)
    # one request per distinct prompt: variants whose texts coincide share an answer
    assert calls == len(set(ok.values())) < len(ok)
    assert {r["status"] for r in got} == {"ok"}
    assert {r["method"] for r in got} == {"logprobs"}
    for r in got:
        assert r["prob_monetary_action"] == pytest.approx(
            escalation_probability(ok[r["variant_id"]]), abs=1e-12
        )

    assert (
        _cli(
            [
                "gaps",
                str(corpus),
                str(decisions),
                "--outcome",
                "prob_monetary_action",
                "--out",
                str(tmp_path / "gaps"),
                "--resamples",
                "1000",
            ]
        )
        == 0
    )
    result = json.loads((tmp_path / "gaps" / "gaps.json").read_text())
    truth = true_contrasts(corpus)
    by_name = {c["name"]: c for c in result["contrasts"]}
    age = by_name["age: old - young"]
    assert truth["age: old - young"] < -0.05
    assert age["gap"] == pytest.approx(truth["age: old - young"], abs=1e-9)
    assert age["ci_low"] <= truth["age: old - young"] <= age["ci_high"]
    assert age["verdict"] == "exists"
    for name, value in truth.items():
        assert by_name[name]["gap"] == pytest.approx(value, abs=1e-9), name

    persona = [n for n in truth if not n.startswith("fact_edit")]
    planted_ratio = abs(truth["fact_edit:scale_amounts - identity"]) / max(
        abs(truth[n]) for n in persona
    )
    [ratio] = [r for r in result["control_ratios"] if r["control"].startswith("fact_edit:scale")]
    assert ratio["largest_gap"] == "age: old - young"
    assert ratio["ratio"] == pytest.approx(planted_ratio, abs=1e-9)
    assert ratio["ci_low"] <= planted_ratio <= ratio["ci_high"]

    # the stub-served decisions attribute the age gap to the planted attribute
    attributes = tmp_path / "attributes.csv"
    assert _cli(["attributes", str(corpus), "--out", str(attributes)]) == 0
    assert (
        _cli(
            [
                "gelbach",
                str(attributes),
                "--decisions",
                str(decisions),
                "--outcome",
                "prob_monetary_action",
                "--focal-column",
                "age",
                "--focal-level",
                "old",
                "--base-level",
                "young",
                "--control",
                "geography,education,ses",
                "--attributes",
                "informal_marker_rate,fk_grade,hedge_density,misspelling_rate",
                "--resamples",
                "200",
                "--out",
                str(tmp_path / "g"),
            ]
        )
        == 0
    )
    terms = pd.read_csv(tmp_path / "g" / "gelbach.csv")
    base = float(terms.loc[terms.term == "base", "estimate"].iloc[0])
    informal = float(terms.loc[terms.term == "informal_marker_rate", "estimate"].iloc[0])
    assert base < -0.05
    assert informal == pytest.approx(base, rel=0.02)
