"""decide with a chat model over real HTTP against the stub server: a rating model whose
answer depends on the option order (not on repeats); cached on the second run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guisekit.cli import main
from guisekit.testing import StubConfig, StubServer
from guisekit.testing.decision_responder import planted_rating

INTERVIEWS = Path(__file__).parents[1] / "examples" / "data" / "interviews.jsonl"


@pytest.fixture
def stub(monkeypatch):
    from guisekit.testing.decision_responder import order_biased_responder

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with StubServer(StubConfig(), order_biased_responder) as server:
        yield server


def test_chat_decisions_depend_on_order_not_repeats(stub, tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    rows = [json.loads(line) for line in INTERVIEWS.read_text().splitlines()][:6]
    corpus.write_text(
        "\n".join(json.dumps({"variant_id": r["id"], "text": r["text"]}) for r in rows)
    )
    out = tmp_path / "d.jsonl"
    model = f"openai-compatible:rater@{stub.openai_base_url}"
    args = [
        "decide",
        str(corpus),
        "--task",
        "interview_rating",
        "--model",
        model,
        "--orders",
        "3",
        "--repeats",
        "2",
        "--out",
        str(out),
    ]
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code in (None, 0)
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(got) == 6 * 2 * 3
    assert {r["status"] for r in got} == {"ok"}
    assert {r["prompt"] for r in got} == {"decide/interview_rating.v1"}
    by = {(r["variant_id"], r["repeat"], r["order"]): r["label"] for r in got}
    texts = {r["id"]: r["text"] for r in rows}
    for (vid, _, order), label in by.items():
        first = next(g["options_order"] for g in got if g["order"] == order).split(",")[0]
        assert label in (str(planted_rating(texts[vid])), first)
    # deterministic model: repeats agree; option order changes some answers
    assert all(by[(v, 0, o)] == by[(v, 1, o)] for v, _, o in by)
    assert any(by[(v, 0, 0)] != by[(v, 0, o)] for v, _, o in by)
    calls = stub.stats().total_requests
    assert calls == 6 * 2 * 3
    with pytest.raises(SystemExit):
        main([*args, "--overwrite"])
    assert stub.stats().total_requests == calls, "the second run is served from the cache"


def _corpus(tmp_path: Path, n: int = 4) -> Path:
    complaints = Path(__file__).parents[1] / "examples" / "data" / "complaints.jsonl"
    rows = [json.loads(line) for line in complaints.read_text().splitlines()][:n]
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(
        "\n".join(json.dumps({"variant_id": r["id"], "text": r["text"]}) for r in rows)
    )
    return corpus


def test_label_probabilities_from_stub_logprobs(stub, tmp_path: Path) -> None:
    from guisekit.testing.decision_responder import escalation_probability

    corpus = _corpus(tmp_path)
    out = tmp_path / "d.jsonl"
    model = f"openai-compatible:assessor@{stub.openai_base_url}"
    with pytest.raises(SystemExit) as done:
        main(
            [
                "decide",
                str(corpus),
                "--task",
                "complaint_remedy",
                "--model",
                model,
                "--orders",
                "all",
                "--out",
                str(out),
            ]
        )
    assert done.value.code in (None, 0)
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["method"] for r in got} == {"logprobs"}
    texts = {
        json.loads(line)["variant_id"]: json.loads(line)["text"]
        for line in corpus.read_text().splitlines()
    }
    planted = [r for r in got if r["prob_monetary_action"] not in (0.0, 1.0)]
    assert planted, "some answers carry the planted probabilities"
    for r in planted:
        assert r["prob_monetary_action"] == pytest.approx(
            escalation_probability(texts[r["variant_id"]])
        )
        expected = 2 * r["prob_monetary_action"] + r["prob_non_monetary_action"]
        assert r["outcome"] == pytest.approx(expected)


def test_samples_method_without_logprobs(tmp_path: Path, monkeypatch) -> None:
    from guisekit.testing.decision_responder import order_biased_responder

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    corpus = _corpus(tmp_path, 2)
    out = tmp_path / "d.jsonl"
    with StubServer(StubConfig(), order_biased_responder) as server:
        model = f"anthropic:assessor@{server.anthropic_base_url}"
        with pytest.raises(SystemExit):
            main(
                [
                    "decide",
                    str(corpus),
                    "--task",
                    "complaint_remedy",
                    "--model",
                    model,
                    "--samples",
                    "3",
                    "--out",
                    str(out),
                ]
            )
        assert server.stats().total_requests == 2 * 3
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["method"] for r in got} == {"samples"}
    for r in got:  # a deterministic stub: the three samples agree
        assert r[f"prob_{r['label']}"] == 1.0
