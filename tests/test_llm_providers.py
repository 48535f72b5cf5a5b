"""The LLM path against server dialects, through the loopback stub over real HTTP: request
shaping per provider, structured-output modes, the auto probe, truncation, pacing, banks.

Each test reads what the server received (``stats().bodies``) or how it was loaded
(``peak_processing``, status 499 for abandoned requests), not only what the client says.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from pathlib import Path

import pytest

from guisekit.engines import EngineConfig, make_engines
from guisekit.errors import ConfigError
from guisekit.llm import LLMRequest, LLMRunner, RunnerSettings, Store, load_prompt
from guisekit.llm.pacing import AdaptiveConcurrency
from guisekit.llm.refs import ModelRef, load_models, parse_model
from guisekit.models import Source
from guisekit.specs import StandardiseSpec
from guisekit.testing import StubConfig, StubReply, StubRequest, StubServer

REWRITE = json.dumps({"text": "I paid the fee.", "changes": []})


def _rewrite(request: StubRequest) -> StubReply:
    return StubReply(text=REWRITE)


def _long(request: StubRequest) -> StubReply:
    # About 40 tokens at the stub's 4 characters a token.
    return StubReply(text=json.dumps({"text": "word " * 30, "changes": []}))


def _requests(ref: ModelRef, n: int) -> list[LLMRequest]:
    template = load_prompt("standardise/rewrite")
    return [
        LLMRequest(model=ref, prompt=template.render(text=f"I paid ${i}.00.", style="plain"))
        for i in range(n)
    ]


def _runner(tmp_path: Path, **settings) -> LLMRunner:
    return LLMRunner(
        Store(tmp_path / "cache.sqlite"), RunnerSettings(backoff_base_s=0.01, **settings)
    )


def _compat(stub: StubServer, **fields) -> ModelRef:
    return parse_model({"model": f"openai-compatible:local@{stub.openai_base_url}", **fields})


# --- request shaping ------------------------------------------------------------------


def test_compatible_server_gets_max_tokens_seed_and_logprobs_in_the_body(tmp_path):
    with StubServer(responder=_rewrite) as stub:
        ref = _compat(stub, max_tokens=300, temperature=0.3, seed=7, output="prompt")
        request = LLMRequest(model=ref, prompt=_requests(ref, 1)[0].prompt, logprobs=True)
        [answer] = _runner(tmp_path).run([request])
        [body] = stub.stats().bodies
    assert answer.status == "ok"
    assert body["max_tokens"] == 300
    assert "max_completion_tokens" not in body
    assert (body["temperature"], body["seed"]) == (0.3, 7)
    assert (body["logprobs"], body["top_logprobs"]) == (True, 5)


def test_openai_gets_max_completion_tokens(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with StubServer(responder=_rewrite) as stub:
        ref = parse_model(
            {"model": "openai:gpt-x", "base_url": stub.openai_base_url, "max_tokens": 250}
        )
        _runner(tmp_path).run(_requests(ref, 1))
        [body] = stub.stats().bodies
    assert body["max_completion_tokens"] == 250
    assert "max_tokens" not in body
    assert body["response_format"]["type"] == "json_schema"


# --- structured-output modes ----------------------------------------------------------

MODE_FIELDS = [
    (
        "json_schema",
        lambda b: (
            b["response_format"]["type"] == "json_schema"
            and b["response_format"]["json_schema"]["schema"]["properties"]["text"]
        ),
    ),
    (
        "json_object_schema",
        lambda b: (
            b["response_format"]["type"] == "json_object"
            and "text" in b["response_format"]["schema"]["properties"]
        ),
    ),
    ("guided_json", lambda b: "text" in b["guided_json"]["properties"]),
    ("ollama_format", lambda b: "text" in b["format"]["properties"]),
    (
        "tools",
        lambda b: (
            b["tool_choice"]["function"]["name"] == "rewrite_v1"
            and b["tools"][0]["function"]["parameters"]["properties"]["text"]
        ),
    ),
    ("prompt", lambda b: not {"response_format", "tools", "guided_json", "format"} & set(b)),
]


@pytest.mark.parametrize(("mode", "holds"), MODE_FIELDS, ids=[m for m, _ in MODE_FIELDS])
def test_each_output_mode_sends_its_field_and_the_answer_validates(tmp_path, mode, holds):
    with StubServer(responder=_rewrite) as stub:
        ref = _compat(stub, output=mode)
        [answer] = _runner(tmp_path).run(_requests(ref, 1))
        [body] = stub.stats().bodies
    assert holds(body)
    assert answer.status == "ok"
    assert answer.value == {"text": "I paid the fee.", "changes": []}


def test_anthropic_tools_mode_reads_the_forced_tool_call(tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    with StubServer(responder=_rewrite) as stub:
        ref = parse_model({"model": "anthropic:claude-x", "base_url": stub.anthropic_base_url})
        [answer] = _runner(tmp_path).run(_requests(ref, 1))
        [body] = stub.stats().bodies
    assert body["tool_choice"] == {"type": "tool", "name": "rewrite_v1"}
    assert answer.status == "ok"
    assert answer.raw is not None and json.loads(answer.raw)["text"] == "I paid the fee."


# --- the auto probe -------------------------------------------------------------------


def test_auto_falls_back_from_json_schema_on_a_llama_cpp_server_and_remembers(tmp_path):
    config = StubConfig(response_formats="llama.cpp")
    with StubServer(config, responder=_rewrite) as stub:
        ref = _compat(stub)
        answers = _runner(tmp_path).run(_requests(ref, 4))
        kinds = [b.get("response_format", {}).get("type") for b in stub.stats().bodies]
        stub.reset()
        # A new process with the same store does not probe again.
        again = _runner(tmp_path).run(_requests(ref, 6)[4:])
        later = [b["response_format"]["type"] for b in stub.stats().bodies]
    assert [a.status for a in answers + again] == ["ok"] * 6
    # one rejected probe (a 500 naming the format is not retried), then llama.cpp's dialect
    assert kinds == ["json_schema"] + ["json_object"] * 4
    assert later == ["json_object"] * 2
    assert Store(tmp_path / "cache.sqlite").output_mode(ref.label) == "json_object_schema"


def test_auto_ends_at_the_prompt_on_a_server_without_structured_output(tmp_path):
    with StubServer(StubConfig(response_formats="text_only"), responder=_rewrite) as stub:
        [answer] = _runner(tmp_path).run(_requests(_compat(stub), 1))
        bodies = stub.stats().bodies
    assert answer.status == "ok"
    assert [b.get("response_format", {}).get("type") for b in bodies] == [
        "json_schema",
        "json_object",
        None,
    ]


def test_a_fixed_mode_is_never_changed_by_a_rejection(tmp_path):
    config = StubConfig(response_formats="llama.cpp")
    with StubServer(config, responder=_rewrite) as stub:
        [answer] = _runner(tmp_path, max_retries=1).run(
            _requests(_compat(stub, output="json_schema"), 1)
        )
        bodies = stub.stats().bodies
    assert answer.status == "error"
    assert "server error (500)" in (answer.reason or "")
    assert all(b["response_format"]["type"] == "json_schema" for b in bodies)


# --- truncation -----------------------------------------------------------------------


def test_a_truncated_reply_is_reasked_with_twice_the_room(tmp_path):
    with StubServer(StubConfig(honour_max_tokens=True), responder=_long) as stub:
        [answer] = _runner(tmp_path).run(_requests(_compat(stub, max_tokens=30), 1))
        budgets = [b["max_tokens"] for b in stub.stats().bodies]
    assert budgets == [30, 60]
    assert answer.status == "ok"
    assert answer.attempts == 2


def test_a_reply_truncated_within_the_budget_is_recorded_as_truncated(tmp_path):
    with StubServer(StubConfig(honour_max_tokens=True), responder=_long) as stub:
        runner = _runner(tmp_path, token_budget=400)
        [answer] = runner.run(_requests(_compat(stub, max_tokens=10), 1))
        budgets = [b["max_tokens"] for b in stub.stats().bodies]
    assert answer.status == "truncated"
    assert "cut at the token limit" in (answer.reason or "")
    assert not answer.transient
    # 10 -> 20 -> 40, then the next doubling would pass the budget of 400 tokens
    # (prompts of ~120 tokens each): re-asked with room, never an identical retry
    assert budgets[0] == 10 and all(b > a for a, b in itertools.pairwise(budgets))
    assert len(budgets) <= 3


# --- pacing ---------------------------------------------------------------------------


@pytest.mark.parametrize("adaptive", [True, False])
def test_adaptive_concurrency_converges_below_capacity_without_timeouts(tmp_path, adaptive):
    # A server that processes 3 calls at once (the rest queue), 0.15 s per call, and a
    # client timeout of 1 s. A fixed 24 in flight queues each call for up to 1.2 s: a
    # burst of timeouts (the control). The adaptive limit settles near the capacity.
    capacity = 3
    config = StubConfig(capacity=capacity, latency=0.15)
    with StubServer(config, responder=_rewrite) as stub:
        ref = _compat(stub, output="prompt", timeout=1.0)
        runner = _runner(
            tmp_path, concurrency=24, max_retries=0, adaptive=adaptive, latency_slack_s=0.05
        )
        answers = runner.run(_requests(ref, 80))
        stats = stub.stats()
    timeouts = sum("timed out" in (a.reason or "") for a in answers)
    if not adaptive:
        assert timeouts > 0  # (a busy client may not even get all 24 in flight)
        return
    assert timeouts == 0 and all(a.status == "ok" for a in answers)
    assert stats.by_status.get(499, 0) == 0
    assert stats.peak_in_flight <= 12, stats.peak_in_flight
    # AIMD saws: with L in flight a call takes L / capacity service times, so the cut
    # fires once L passes capacity * tolerance (5.4), seen a round trip late (+1 more);
    # the limit ends anywhere on that saw, so it is bounded by its top plus one step of
    # jitter, not by a point inside it (<= 6 failed at 6.09 and 6.43 on a loaded CI).
    pacer = runner.pacer(ref)
    assert 1 <= pacer.limit <= capacity * pacer.tolerance + 2, pacer.limit


def test_pacing_limit_rules():
    pacer = AdaptiveConcurrency(16, start=2)

    def round_trip(outcome, latency, binding=True):
        """One call per slot of the current limit, finishing together."""
        for _ in range(int(pacer.limit)):
            pacer.observe(outcome, latency, 100, binding=binding)

    round_trip("ok", 1.0)
    round_trip("ok", 1.0)
    assert pacer.limit == 8  # slow start: doubles per round trip while latency holds
    round_trip("timeout", 60.0)
    assert pacer.limit == 4  # halved once for the round trip's timeouts
    round_trip("ok", 1.0)
    assert pacer.limit == pytest.approx(5, abs=0.1)  # then about one more per round trip
    round_trip("ok", 5.0)
    assert pacer.limit == pytest.approx(0.75 * 4.9, abs=0.1)  # latency grew: a quarter off
    before = pacer.limit
    round_trip("ok", 1.0, binding=False)  # a run's tail: nobody waits for a slot
    assert pacer.limit == before
    assert AdaptiveConcurrency(16, adaptive=False).limit == 16

    early = AdaptiveConcurrency(16, start=4)
    for latency in (1.0, 1.0, 1.0, 1.0, 1.6, 1.6):  # past halfway to a cut (x1.4)
        early.observe("ok", latency, 100)
    # slow start doubled to 8 over the first round trip; the rise ends it uncut, and
    # the next call grows the limit additively
    assert early.cuts == 0 and early.limit == pytest.approx(8 + 1 / 8)

    async def calls():
        await pacer.acquire()
        await pacer.release("ok", 1.0, 100)

    asyncio.run(calls())
    assert pacer.in_flight == 0 and pacer.peak == 1


def test_an_abandoned_request_closes_its_connection(tmp_path):
    with StubServer(StubConfig(latency=5.0), responder=_rewrite) as stub:
        started = time.monotonic()
        [answer] = _runner(tmp_path, max_retries=0).run(
            _requests(_compat(stub, output="prompt", timeout=0.5), 1)
        )
        for _ in range(40):  # the server notices the closed connection
            if stub.stats().by_status.get(499):
                break
            time.sleep(0.05)
        stats = stub.stats()
    assert time.monotonic() - started < 4.0
    assert answer.status == "error"
    assert "timed out after 0.5 s" in (answer.reason or "")
    assert "concurrency" in (answer.reason or "") and "timeout" in (answer.reason or "")
    assert stats.by_status.get(499) == 1


def test_connection_refused_is_reported_as_such(tmp_path):
    from guisekit.testing.stub_handles import listening_socket

    sock = listening_socket(0)
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    ref = parse_model(
        {"model": f"openai-compatible:local@http://127.0.0.1:{port}/v1", "output": "prompt"}
    )
    [answer] = _runner(tmp_path, max_retries=1).run(_requests(ref, 1))
    assert answer.status == "error"
    assert (answer.reason or "").startswith("connection refused")
    assert "timed out" not in (answer.reason or "")


# --- banks and model references -------------------------------------------------------


def test_one_model_under_two_settings_is_two_banks(tmp_path):
    with StubServer(responder=_rewrite) as stub:
        model = f"openai-compatible:local@{stub.openai_base_url}"
        config = EngineConfig(
            name="llm",
            models=(f"{model}?temperature=0.7", {"model": model, "temperature": 0.2}),
            cache=str(tmp_path / "cache.sqlite"),
        )
        engines = make_engines(config, tmp_path)
        source = Source(id="s1", text="I paid the $40 fee twice.")
        spec = StandardiseSpec(style="plain")
        variants = [engine.transform(source, spec) for engine in engines]
        temperatures = sorted(b["temperature"] for b in stub.stats().bodies)
    assert [v.status for v in variants] == ["ok", "ok"]
    assert variants[0].variant_id != variants[1].variant_id
    assert {v.provenance.model for v in variants} == {
        f"{model}[temperature=0.7]",
        f"{model}[temperature=0.2]",
    }
    assert temperatures == [0.2, 0.7]
    with pytest.raises(ConfigError, match="listed twice with the same settings"):
        make_engines(EngineConfig(name="llm", models=(model, model)), tmp_path)


def test_model_references_carry_params_inline_and_by_name(tmp_path, monkeypatch):
    inline = parse_model(
        "openai-compatible:smol@http://127.0.0.1:8080/v1?max_tokens=300&temperature=0.2"
        "&seed=3&output=json_object_schema&top_p=0.9"
    )
    assert inline.base_url == "http://127.0.0.1:8080/v1"
    assert (inline.max_tokens, inline.temperature, inline.seed) == (300, 0.2, 3)
    assert inline.output == "json_object_schema"
    assert inline.params == {"top_p": 0.9}
    models = tmp_path / "models.yaml"
    models.write_text(
        "models:\n  smol:\n    model: openai-compatible:smol@http://127.0.0.1:8080/v1\n"
        "    max_tokens: 300\n  hot: openai:gpt-4o-mini?temperature=1.0\n",
        encoding="utf-8",
    )
    catalogue = load_models(models)
    assert parse_model("smol", catalogue).max_tokens == 300
    assert parse_model("smol", catalogue).bank == "smol"
    monkeypatch.setenv("GUISEKIT_MODELS", str(models))
    assert parse_model("hot").temperature == 1.0
    with pytest.raises(ConfigError, match="not `provider:name` nor a name"):
        parse_model("cold")
    with pytest.raises(ConfigError, match="max_tokens"):
        parse_model("openai:gpt-4o-mini?max_tokens=-1")
