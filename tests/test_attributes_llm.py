"""LLM-scored attributes end to end: the scorer prompt through the runner and the stub
server, read from token log-probabilities (OpenAI-compatible) or from the answer itself
(Anthropic), and the samples path from stored answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from guisekit.attributes import load_attribute_set
from guisekit.attributes.llm import _score, score_llm_attributes
from guisekit.llm import LLMRunner, RunnerSettings, Store
from guisekit.llm.refs import parse_model
from guisekit.llm.store import Answer
from guisekit.testing import StubConfig, StubServer
from guisekit.testing.responders import rewrite_responder

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [
    "I was charged a $35.00 overdraft fee on 03/14/2023 that I never agreed to.",
    "yo the bank took my money AGAIN!!! fix it",
]
# The stub puts 70% on its chosen level and 15% on each other one.
EXPECTED = {
    "low": 0.15 * 0.5 + 0.15 * 1.0,
    "medium": 0.15 * 1.0 + 0.7 * 0.5,
    "high": 0.15 * 0.5 + 0.7 * 1.0,
}


@pytest.fixture
def stub(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    with StubServer(StubConfig(), rewrite_responder) as server:
        yield server


def test_logprobs_path_scores_the_expected_level(stub, tmp_path):
    attributes = load_attribute_set("complaints")
    model = parse_model({"model": "openai-compatible:scorer", "base_url": stub.openai_base_url})
    runner = LLMRunner(Store(tmp_path / "c.sqlite"), RunnerSettings(concurrency=8))
    scores = score_llm_attributes(TEXTS, attributes, runner, model)
    assert [len(row) for row in scores] == [19, 19]
    for row in scores:
        for item in row:
            assert item.score is not None and item.score.method == "logprobs"
            assert min(abs(item.score.score - v) for v in EXPECTED.values()) < 1e-9
    assert len({round(i.score.score, 6) for row in scores for i in row if i.score}) == 3
    assert stub.stats().total_requests == 38
    again = score_llm_attributes(TEXTS, attributes, runner, model)
    assert again == scores and stub.stats().total_requests == 38, "cached"


def test_without_logprobs_the_single_answer_is_used(stub, tmp_path):
    attributes = load_attribute_set("complaints")
    model = parse_model({"model": "anthropic:scorer", "base_url": stub.anthropic_base_url})
    runner = LLMRunner(Store(tmp_path / "c.sqlite"))
    [row] = score_llm_attributes(TEXTS[:1], attributes, runner, model)
    assert {i.score.method for i in row if i.score} == {"single"}
    assert {i.score.score for i in row if i.score} <= {0.0, 0.5, 1.0}


def _answer(level: str | None, status: str = "ok") -> Answer:
    return Answer(
        key=f"k{level}",
        model="m",
        prompt="attribute/score.v1",
        status=status,
        value=None if level is None else {"level": level},
        reason=None if status == "ok" else "invalid output",
    )


def test_samples_and_failures():
    attributes = load_attribute_set("complaints")
    sampled = _score(
        [_answer("high"), _answer("high"), _answer("low"), _answer("medium")], attributes, "grammar"
    )
    assert sampled.score is not None and sampled.score.method == "samples"
    assert sampled.score.score == pytest.approx((2 * 1.0 + 0.5) / 4)
    failed = _score([_answer(None, "error")], attributes, "grammar")
    assert failed.score is None and failed.reason == "invalid output"


def test_attributes_cli_with_an_llm_scorer(stub, tmp_path):
    import json

    import yaml

    from guisekit.cli import main

    config = tmp_path / "c.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "sources": {"path": str(ROOT / "examples/data/complaints.jsonl"), "limit": 3},
                "transforms": [
                    {
                        "transform": "persona",
                        "personas": ["young-rural-high_school-low", "old-urban-college-high"],
                    }
                ],
                "output": {"dir": str(tmp_path / "corpus")},
            }
        )
    )
    for args in (
        ["corpus", str(config)],
        [
            "attributes",
            str(tmp_path / "corpus/corpus.jsonl"),
            "--out",
            str(tmp_path / "a.jsonl"),
            "--engine",
            "llm",
            "--model",
            f"openai-compatible:scorer@{stub.openai_base_url}",
        ],
    ):
        try:
            main(args)
        except SystemExit as exc:
            assert exc.code in (0, None)
    rows = [json.loads(x) for x in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert len(rows) == 6
    assert all(r["grammar_method"] == "logprobs" and 0 <= r["grammar"] <= 1 for r in rows)
    assert all(r["fk_grade"] is not None and r["evidence"] is not None for r in rows)
    assert (tmp_path / "llm-cache.sqlite").exists()
    assert stub.stats().total_requests == 6 * 19
    from guisekit.outputs import check_set

    manifest = check_set(tmp_path / "a.jsonl")  # the scorer and its prompt, and the scores
    scorer = f"openai-compatible:scorer@{stub.openai_base_url}"
    assert manifest["models"] == [{"model": scorer, "prompt": "attribute/score.v2"}]
    assert manifest["counts"] == {"ok": 6, "llm_ok": 6 * 19}
