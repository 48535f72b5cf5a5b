"""Issue #16's planted effect recovered end to end over real HTTP: a small rules corpus,
``decide`` against the stub server whose responder answers the complaint-remedy label prompt
with log-probabilities carrying the planted probabilities (not order-biased), then ``gaps``.
The probabilities are deterministic, so the age contrast and the positive-control ratio
equal the planted values exactly; a second ``decide`` run is served from the cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_helpers import cli, decide_remedy, estimate, planted_gelbach, rules_corpus
from planted_truth import true_contrasts

from guisekit.testing import StubConfig, StubReply, StubRequest, StubServer
from guisekit.testing.decision_responder import (
    _OPTION,
    _TEXT,
    REMEDY_LABELS,
    _label_reply,
    _probs,
    escalation_probability,
)

SCALE_TENFOLD = "  - transform: fact_edit\n    kind: scale_amounts\n    factor: 10\n"


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
    config.write_text(rules_corpus(limit=8, out=out / "corpus", extra=SCALE_TENFOLD))
    assert cli("corpus", str(config)) == 0
    return out / "corpus" / "corpus.jsonl"


def test_planted_effect_recovered_through_stub_server(
    corpus: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    decisions = tmp_path / "decisions.jsonl"
    with StubServer(StubConfig(), planted_logprob_responder) as stub:
        model = f"openai-compatible:assessor@{stub.openai_base_url}"
        decide_remedy(corpus, model, decisions)
        calls = stub.stats().total_requests
        decide_remedy(corpus, model, decisions, "--overwrite")
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
        cli(
            "gaps",
            str(corpus),
            str(decisions),
            "--outcome",
            "prob_monetary_action",
            "--out",
            str(tmp_path / "gaps"),
            "--resamples",
            "1000",
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
    assert cli("attributes", str(corpus), "--out", str(attributes)) == 0
    terms = planted_gelbach(attributes, decisions, tmp_path / "g")
    base = estimate(terms, "base")
    informal = estimate(terms, "informal_marker_rate")
    assert base < -0.05
    assert informal == pytest.approx(base, rel=0.02)
