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
