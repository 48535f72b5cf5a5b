"""Option-order and repeat controls end to end through the stub server: a complaint
remedy model that follows the planted rule but takes the first option listed on a share
of (text, order) pairs. gaps separates that noise (order control, order variance
component) from the persona effect (persona contrasts, persona component), and shows no
repeat noise for a deterministic model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import cli, rules_corpus

from guisekit.testing import StubConfig, StubServer

SOURCES = 24  # every complaint of examples/data/complaints.jsonl


@pytest.fixture
def stub(monkeypatch):
    from guisekit.testing.decision_responder import order_biased_responder

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with StubServer(StubConfig(), order_biased_responder) as server:
        yield server


def _gaps(stub: StubServer, tmp_path: Path, limit: int) -> dict[str, Any]:
    """corpus -> decide (every option order, 2 repeats) -> gaps on ``limit`` sources."""
    config = tmp_path / "c.yaml"
    config.write_text(rules_corpus(limit=limit, out=tmp_path / "corpus"))
    assert cli("corpus", str(config)) == 0
    corpus = tmp_path / "corpus" / "corpus.jsonl"
    decisions = tmp_path / "decisions.jsonl"
    model = f"openai-compatible:assessor@{stub.openai_base_url}"
    # every option order: the model's first-option habit then shows as an order main
    # effect (two of the six orders list monetary_action first). With 3 random orders none
    # did (seed 0), so the order component's expectation was 0 and its sign luck.
    decide = ["decide", str(corpus), "--task", "complaint_remedy", "--model", model]
    options = ["--orders", "all", "--repeats", "2", "--out", str(decisions)]
    assert cli(*decide, *options) == 0
    rows = [json.loads(line) for line in decisions.read_text().splitlines()]
    assert len(rows) == limit * 37 * 6 * 2 and {r["status"] for r in rows} == {"ok"}
    out = tmp_path / "gaps"
    outcome = ["--outcome", "label=monetary_action", "--resamples", "300"]
    assert cli("gaps", str(corpus), str(decisions), *outcome, "--out", str(out)) == 0
    page = (out / "report.html").read_text()
    assert "instability" in page and "variance" in page
    result: dict[str, Any] = json.loads((out / "gaps.json").read_text())
    return result


def _assert_order_noise_separated(result: dict[str, Any]) -> dict[str, Any]:
    """Repeats never flip a decision; option orders do, less than personas; the order
    noise lands in the order and residual components. Returns the components."""
    inst = {(i["statistic"], i["scale"]): i for i in result["instability"]}
    assert inst[("flip_rate", "repeat")]["value"] == 0.0
    assert inst[("flip_rate", "order")]["value"] > 0.05
    assert inst[("flip_rate", "persona")]["value"] > inst[("flip_rate", "order")]["value"]
    var = {c["name"]: c for c in result["variance"]["components"]}
    assert var["order"]["estimate"] > 0 and var["residual"]["estimate"] > 0
    return var


def test_order_noise_is_separated_on_a_few_sources(stub, tmp_path: Path) -> None:
    # the persona component is not asserted here: see the test below
    _assert_order_noise_separated(_gaps(stub, tmp_path, 4))


@pytest.mark.slow
def test_order_noise_is_separated_from_the_persona_effect(stub, tmp_path: Path) -> None:
    # Why every source. The planted persona effect is real (on 4 sources young personas
    # write 4.4 informal markers per 100 words, old ones 0.0: P(monetary) 0.43 vs 0.25),
    # but the persona component is the variance of persona means of one label drawn per
    # text, less the source x persona draw noise: about 0.004, against a sampling sd of
    # 0.0097 on 4 sources, 0.0038 on 12, 0.0022 on 24 (200 simulated draws from the
    # stub's probabilities; raw <= 0 in 36%, 10%, 1.5% of them). Observed raw estimates:
    # -0.0058 / -0.0069 on 4 sources (3 / all orders), +0.0083 on 12 (3 orders), +0.0030
    # on 24 (all orders; 95% interval 0.0011-0.020). There the age gap is -0.150
    # (-0.214 to -0.088), the order component 0.023, the flip rates 0.58 (persona),
    # 0.35 (order) and 0 (repeat). 24 sources x 37 variants x 12 decisions: ~140 s.
    result = _gaps(stub, tmp_path, SOURCES)
    var = _assert_order_noise_separated(result)
    assert var["persona"]["estimate"] > 0
    age = next(c for c in result["contrasts"] if c["name"] == "age: old - young")
    assert age["gap"] < 0  # young personas write more informally: more escalation
