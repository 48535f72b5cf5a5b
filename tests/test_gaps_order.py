"""Option-order and repeat controls end to end through the stub server: a complaint
remedy model that follows the planted rule but takes the first option listed on a share
of (text, order) pairs. gaps separates that noise (order control, order variance
component) from the persona effect (persona contrasts, persona component), and shows no
repeat noise for a deterministic model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guisekit.cli import main
from guisekit.testing import StubConfig, StubServer

ROOT = Path(__file__).parents[1]

CONFIG = """
sources: {{path: {data}, limit: 4}}
engine: {{name: rules}}
seed: 0
transforms:
  - transform: identity
  - transform: persona
    personas: all
output: {{dir: {out}, format: jsonl}}
"""


def _cli(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.fixture
def stub(monkeypatch):
    from guisekit.testing.decision_responder import order_biased_responder

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with StubServer(StubConfig(), order_biased_responder) as server:
        yield server


def test_order_noise_is_separated_from_the_persona_effect(stub, tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(
        CONFIG.format(data=ROOT / "examples" / "data" / "complaints.jsonl", out=tmp_path / "corpus")
    )
    assert _cli(["corpus", str(config)]) == 0
    corpus = tmp_path / "corpus" / "corpus.jsonl"
    decisions = tmp_path / "decisions.jsonl"
    assert (
        _cli(
            [
                "decide",
                str(corpus),
                "--task",
                "complaint_remedy",
                "--model",
                f"openai-compatible:assessor@{stub.openai_base_url}",
                "--orders",
                "3",
                "--repeats",
                "2",
                "--out",
                str(decisions),
            ]
        )
        == 0
    )
    rows = [json.loads(line) for line in decisions.read_text().splitlines()]
    assert len(rows) == 4 * 37 * 3 * 2 and {r["status"] for r in rows} == {"ok"}
    assert (
        _cli(
            [
                "gaps",
                str(corpus),
                str(decisions),
                "--outcome",
                "label=monetary_action",
                "--resamples",
                "300",
                "--out",
                str(tmp_path / "gaps"),
            ]
        )
        == 0
    )
    result = json.loads((tmp_path / "gaps" / "gaps.json").read_text())
    inst = {(i["statistic"], i["scale"]): i for i in result["instability"]}
    assert inst[("flip_rate", "repeat")]["value"] == 0.0
    assert inst[("flip_rate", "order")]["value"] > 0.05
    assert inst[("flip_rate", "persona")]["value"] > inst[("flip_rate", "order")]["value"]
    var = {c["name"]: c for c in result["variance"]["components"]}
    assert var["order"]["estimate"] > 0 and var["residual"]["estimate"] > 0
    assert var["persona"]["estimate"] > 0
    age = next(c for c in result["contrasts"] if c["name"] == "age: old - young")
    assert age["gap"] < 0  # young personas write more informally: more escalation
    page = (tmp_path / "gaps" / "report.html").read_text()
    assert "instability" in page and "variance" in page
