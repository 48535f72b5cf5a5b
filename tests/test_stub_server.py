"""The loopback stub LLM server, exercised through the real SDK clients over real HTTP."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime

import anthropic
import httpx
import openai
import pytest
from langchain_anthropic import ChatAnthropic
from langchain_openai import ChatOpenAI
from pydantic import ValidationError

import guisekit.testing as testing
from guisekit.testing import (
    StubConfig,
    StubProcess,
    StubReply,
    StubRequest,
    StubServer,
    StubStats,
    TokenLogprob,
    TopLogprob,
    echo_responder,
    mapping_responder,
    text_key,
)
from guisekit.testing.stub_server import main as stub_main

USER = [{"role": "user", "content": "hello"}]


@pytest.fixture
def stub() -> Iterator[StubServer]:
    with StubServer() as server:
        yield server


def _openai(stub: StubServer | StubProcess, timeout: float = 10.0) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=stub.openai_base_url, api_key="test-key", max_retries=0, timeout=timeout
    )


def _anthropic(stub: StubServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=stub.anthropic_base_url, api_key="test-key", max_retries=0)


def _chat(client: openai.OpenAI, text: str = "hello", **params: object) -> str | None:
    messages = [{"role": "user", "content": text}]
    reply = client.chat.completions.create(model="m", messages=messages, **params)
    content: str | None = reply.choices[0].message.content
    return content


def test_public_api_matches_all() -> None:
    assert sorted(testing.__all__) == testing.__all__
    for name in testing.__all__:
        assert hasattr(testing, name), name


def test_urls_point_at_the_loopback_port(stub: StubServer) -> None:
    assert stub.base_url.startswith("http://127.0.0.1:")
    assert stub.openai_base_url == stub.base_url + "/v1"
    assert stub.anthropic_base_url == stub.base_url


def test_openai_chat_with_given_logprobs_and_usage(stub: StubServer) -> None:
    tokens = (
        TokenLogprob(token="high", logprob=-0.1, top=(TopLogprob(token="low", logprob=-2.5),)),
    )
    stub.responder = lambda request: StubReply(text="high", logprobs=tokens)
    with _openai(stub) as client:
        raw = client.chat.completions.with_raw_response.create(
            model="gpt-test",
            messages=[{"role": "system", "content": "sys"}, *USER],
            logprobs=True,
            top_logprobs=1,
        )
    reply = raw.parse()
    assert reply.choices[0].message.content == "high"
    assert reply.model == "gpt-test"
    assert reply.choices[0].logprobs is not None
    content = reply.choices[0].logprobs.content
    assert content is not None
    assert [(t.token, t.logprob) for t in content] == [("high", -0.1)]
    assert [(t.token, t.logprob) for t in content[0].top_logprobs] == [("low", -2.5)]
    assert reply.usage is not None
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (3, 1)  # chars/4
    assert raw.headers["x-ratelimit-limit-requests"] == "10000"
    assert raw.headers["x-ratelimit-remaining-requests"] == "9999"
    assert raw.headers["x-ratelimit-reset-requests"].endswith("s")
    assert raw.headers["x-ratelimit-remaining-tokens"] == str(10_000_000 - 4)
    assert raw.headers["x-request-id"].startswith("req_")


def test_responder_sees_normalised_request(stub: StubServer) -> None:
    seen: list[StubRequest] = []

    def record(request: StubRequest) -> StubReply:
        seen.append(request)
        return StubReply(text="ok")

    stub.responder = record
    with _openai(stub) as client:
        client.chat.completions.create(
            model="gpt-test",
            messages=[
                {"role": "developer", "content": "be brief"},
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                },
            ],
            temperature=0.3,
            max_tokens=7,
        )
    with _anthropic(stub) as claude:
        claude.messages.create(model="claude-test", max_tokens=9, system="sys", messages=USER)
    first, second = seen
    assert first.provider == "openai"
    assert first.messages == (("system", "be brief"), ("user", "ab"))
    assert (first.params.temperature, first.params.max_tokens, first.params.n) == (0.3, 7, 1)
    assert second.provider == "anthropic"
    assert second.model == "claude-test"
    assert second.messages == (("system", "sys"), ("user", "hello"))
    assert second.params.max_tokens == 9
    assert second.last_user_text == "hello"


def test_n_choices_are_answered_per_choice_index(stub: StubServer) -> None:
    stub.responder = lambda request: StubReply(text=f"sample {request.choice_index}")
    with _openai(stub) as client:
        reply = client.chat.completions.create(model="m", messages=USER, n=3)
    assert [c.message.content for c in reply.choices] == ["sample 0", "sample 1", "sample 2"]
    assert [c.index for c in reply.choices] == [0, 1, 2]


def test_langchain_openai_gets_text_logprobs_and_usage(stub: StubServer) -> None:
    stub.responder = echo_responder
    model = ChatOpenAI(
        model="gpt-test",
        base_url=stub.openai_base_url,
        api_key="test-key",
        max_retries=0,
        logprobs=True,
        top_logprobs=2,
    )
    message = model.invoke("two words")
    assert message.content == "two words"
    logprobs = message.response_metadata["logprobs"]["content"]
    assert [t["token"] for t in logprobs] == ["two", " words"]
    assert [len(t["top_logprobs"]) for t in logprobs] == [2, 2]
    assert message.usage_metadata is not None
    assert message.usage_metadata["output_tokens"] == 3


def test_langchain_anthropic_gets_text_and_usage(stub: StubServer) -> None:
    stub.responder = mapping_responder({text_key("ping"): "pong"})
    model = ChatAnthropic(
        model="claude-test",
        base_url=stub.anthropic_base_url,
        api_key="test-key",
        max_retries=0,
        timeout=10,
        stop=None,
    )
    message = model.invoke("ping")
    assert message.content == "pong"
    assert message.response_metadata["stop_reason"] == "end_turn"
    assert message.usage_metadata is not None
    assert message.usage_metadata["input_tokens"] == 1


def test_unmapped_input_is_a_500_naming_the_key(stub: StubServer) -> None:
    stub.responder = mapping_responder({text_key("known"): "yes"})
    with _openai(stub) as client:
        assert _chat(client, "known") == "yes"
        with pytest.raises(openai.InternalServerError, match=text_key("unknown")):
            _chat(client, "unknown")
    assert stub.stats().responder_errors == 1


def test_refusal_is_seen_by_sdks_and_langchain(stub: StubServer) -> None:
    stub.responder = lambda request: StubReply(text="I won't.", refusal=True)
    with _openai(stub) as client:
        message = client.chat.completions.create(model="m", messages=USER).choices[0].message
    assert (message.content, message.refusal) == (None, "I won't.")
    with _anthropic(stub) as claude:
        reply = claude.messages.create(model="c", max_tokens=5, messages=USER)
    assert reply.stop_reason == "refusal"
    model = ChatOpenAI(
        model="gpt-test",
        base_url=stub.openai_base_url,
        api_key="test-key",
        max_retries=0,
    )
    assert model.invoke("hi").additional_kwargs["refusal"] == "I won't."


def test_injected_faults_surface_as_sdk_errors(stub: StubServer) -> None:
    stub.update_config(StubConfig(rate_429=1.0, retry_after=2.5))
    with _openai(stub) as client, pytest.raises(openai.RateLimitError) as limited:
        _chat(client)
    assert limited.value.response.headers["retry-after"] == "3"  # whole seconds, rounded up
    assert limited.value.response.headers["retry-after-ms"] == "2500"
    assert limited.value.code == "rate_limit_exceeded"
    with _anthropic(stub) as client, pytest.raises(anthropic.RateLimitError) as limited_a:
        client.messages.create(model="c", max_tokens=5, messages=USER)
    assert limited_a.value.response.headers["retry-after"] == "3"
    assert limited_a.value.body == {
        "type": "error",
        "error": {
            "type": "rate_limit_error",
            "message": "Rate limit reached (injected by the stub)",
        },
    }
    stub.update_config(StubConfig(rate_500=1.0))
    with _openai(stub) as client, pytest.raises(openai.InternalServerError):
        _chat(client)
    stub.update_config(StubConfig(rate_malformed=1.0))
    with _openai(stub) as client, pytest.raises(json.JSONDecodeError):
        _chat(client)
    stub.update_config(StubConfig(rate_bad_content=1.0))
    with _openai(stub) as client:
        content = _chat(client)
    assert content
    with pytest.raises(json.JSONDecodeError):
        json.loads(content)
    stats = stub.stats()
    assert stats.faults == {"rate_429": 2, "rate_500": 1, "malformed": 1, "bad_content": 1}
    assert stats.by_status == {429: 2, 500: 1, 200: 2}


def test_timeout_fault_hangs_past_a_short_client_timeout(stub: StubServer) -> None:
    stub.update_config(StubConfig(rate_timeout=1.0, timeout_hang_s=20))
    start = time.monotonic()
    with _openai(stub, timeout=0.3) as client, pytest.raises(openai.APITimeoutError):
        _chat(client)
    assert time.monotonic() - start < 2
    deadline = time.monotonic() + 3
    while stub.stats().by_status.get(499) != 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert stub.stats().by_status == {499: 1}  # the stub saw the client give up
    assert stub.stats().in_flight == 0


def test_malformed_requests_get_the_provider_error_shape(stub: StubServer) -> None:
    with _openai(stub) as client, pytest.raises(openai.BadRequestError) as bad:
        client.chat.completions.create(model="m", messages=[])
    assert bad.value.body == {
        "message": "'messages' must be a non-empty array",
        "type": "invalid_request_error",
        "param": None,
        "code": None,
    }
    with httpx.Client(base_url=stub.base_url) as http:
        sent = datetime.now(UTC)
        missing = http.post("/v1/messages", json={"model": "c", "messages": USER})
        answered = datetime.now(UTC)
        broken = http.post("/v1/chat/completions", content=b"{not json")
    assert missing.status_code == 400
    assert missing.json()["error"]["type"] == "invalid_request_error"
    assert "max_tokens" in missing.json()["error"]["message"]
    assert missing.headers["anthropic-ratelimit-requests-limit"] == "10000"
    reset = datetime.fromisoformat(
        missing.headers["anthropic-ratelimit-requests-reset"].replace("Z", "+00:00")
    )
    # nothing admitted, so the window resets now: bracketed by the request's own
    # send and answer times, which holds however long the machine stalls
    assert sent <= reset <= answered
    assert broken.status_code == 400
    assert broken.json()["error"]["type"] == "invalid_request_error"


def test_rpm_cap_answers_429_with_time_until_a_slot_frees(stub: StubServer) -> None:
    stub.update_config(StubConfig(rpm_limit=3, rate_window_s=1.0))
    statuses, remaining, resets, waits = [], [], [], []
    with httpx.Client(base_url=stub.openai_base_url) as http:
        start = time.monotonic()
        for _ in range(5):
            response = http.post("/chat/completions", json={"model": "m", "messages": USER})
            statuses.append(response.status_code)
            remaining.append(response.headers["x-ratelimit-remaining-requests"])
            resets.append(response.headers["x-ratelimit-reset-requests"])
            waits.append(int(response.headers.get("retry-after-ms", "0")))
        elapsed_ms = (time.monotonic() - start) * 1000
        assert statuses == [200, 200, 200, 429, 429]
        assert remaining[:3] == ["2", "1", "0"]
        assert all(r.endswith("ms") and 900 <= int(r[:-2]) <= 1000 for r in resets), resets
        assert all(1000 - elapsed_ms - 50 <= wait <= 1000 for wait in waits[3:])
        time.sleep(waits[-1] / 1000 + 0.05)
        after = http.post("/chat/completions", json={"model": "m", "messages": USER})
    assert after.status_code == 200
    stats = stub.stats()
    assert stats.faults == {"rpm_limit": 2}
    assert stats.by_status == {200: 4, 429: 2}
    assert len(stats.arrival_times) == 6
    assert stats.peak_in_window(1.0) == 5  # arrivals, rejected ones included


def test_rpm_cap_429_surfaces_in_the_sdk_with_retry_after(stub: StubServer) -> None:
    stub.update_config(StubConfig(rpm_limit=1, rate_window_s=2.0))
    with _openai(stub) as client:
        _chat(client)
        with pytest.raises(openai.RateLimitError) as limited:
            _chat(client)
    assert limited.value.response.headers["retry-after"] == "2"


def test_tpm_cap_counts_estimated_tokens(stub: StubServer) -> None:
    stub.update_config(StubConfig(tpm_limit=10, rate_window_s=5.0))
    stub.responder = lambda request: StubReply(text="x" * 24)  # 6 tokens out
    with _openai(stub) as client:
        _chat(client, "x" * 16)  # 4 tokens in: the window now holds 10
        with pytest.raises(openai.RateLimitError):
            _chat(client)
    assert stub.stats().faults == {"tpm_limit": 1}


def _outcomes(config: StubConfig, bodies: list[dict[str, object]]) -> list[str]:
    outcomes = []
    with StubServer(config) as server, httpx.Client(base_url=server.openai_base_url) as http:
        for body in bodies:
            response = http.post("/chat/completions", json=body)
            if response.status_code != 200:
                outcomes.append(str(response.status_code))
            else:
                try:
                    message = response.json()["choices"][0]["message"]
                except json.JSONDecodeError:
                    outcomes.append("malformed")
                    continue
                outcomes.append("refusal" if message["refusal"] else message["content"])
    return outcomes


_MIXED = StubConfig(
    rate_429=0.15, rate_500=0.15, rate_malformed=0.1, rate_bad_content=0.1, rate_refusal=0.1
)


def test_faults_are_reproducible_for_a_seed_and_retries_redraw() -> None:
    bodies: list[dict[str, object]] = [
        {"model": "m", "messages": [{"role": "user", "content": f"text {i % 7}"}]}
        for i in range(40)
    ]
    first = _outcomes(_MIXED.model_copy(update={"seed": 3}), bodies)
    again = _outcomes(_MIXED.model_copy(update={"seed": 3}), bodies)
    other = _outcomes(_MIXED.model_copy(update={"seed": 4}), bodies)
    assert first == again
    assert first != other
    same_body = [outcome for outcome, i in zip(first, range(40), strict=True) if i % 7 == 0]
    assert len(set(same_body)) > 1  # a repeat of one body is a fresh draw


def test_fault_rates_are_roughly_the_configured_ones() -> None:
    bodies: list[dict[str, object]] = [
        {"model": "m", "messages": [{"role": "user", "content": f"text {i}"}]} for i in range(400)
    ]
    counts = Counter(_outcomes(_MIXED, bodies))
    expected = {"429": 0.15, "500": 0.15, "malformed": 0.1, "refusal": 0.1, "ok": 0.4}
    for outcome, rate in expected.items():
        sd = (400 * rate * (1 - rate)) ** 0.5
        assert abs(counts[outcome] - 400 * rate) < 4 * sd, (outcome, counts)
    bad = sum(n for outcome, n in counts.items() if outcome not in expected)
    assert abs(bad - 40) < 4 * (400 * 0.1 * 0.9) ** 0.5, counts


def test_config_rejects_rates_that_do_not_fit_one_draw() -> None:
    with pytest.raises(ValidationError, match="sum"):
        StubConfig(rate_429=0.6, rate_500=0.6)
    with pytest.raises(ValidationError):
        StubConfig(rate_refusal=-0.1)


def test_openai_batch_round_trip_through_the_sdk() -> None:
    config = StubConfig(batch_delay_s=0.2, rate_batch_item_error=0.3, seed=1)
    lines = [
        {
            "custom_id": f"item-{i}",
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": {"model": "m", "messages": [{"role": "user", "content": f"say {i}"}]},
        }
        for i in range(20)
    ]
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    with StubServer(config, echo_responder) as stub, _openai(stub) as client:
        upload = client.files.create(file=("in.jsonl", data), purpose="batch")
        assert client.files.retrieve(upload.id).bytes == len(data)
        batch = client.batches.create(
            input_file_id=upload.id, endpoint="/v1/chat/completions", completion_window="24h"
        )
        assert batch.status == "validating"
        statuses: list[str] = [batch.status]
        while batch.status not in ("completed", "failed"):
            time.sleep(0.05)
            batch = client.batches.retrieve(batch.id)
            statuses.append(batch.status)
        assert statuses[1] == "in_progress"
        assert batch.request_counts is not None
        assert batch.output_file_id is not None
        assert batch.error_file_id is not None
        output = [
            json.loads(x) for x in client.files.content(batch.output_file_id).text.splitlines()
        ]
        errors = [
            json.loads(x) for x in client.files.content(batch.error_file_id).text.splitlines()
        ]
    counts = batch.request_counts
    assert (counts.total, counts.completed, counts.failed) == (20, len(output), len(errors))
    assert 0 < len(errors) < 20
    assert {row["custom_id"] for row in output + errors} == {line["custom_id"] for line in lines}
    for row in output:
        completion = openai.types.chat.ChatCompletion.model_validate(row["response"]["body"])
        assert row["response"]["status_code"] == 200
        assert completion.choices[0].message.content == "say " + row["custom_id"].split("-")[1]
    assert all(row["response"]["status_code"] == 500 for row in errors)
    assert all(row["response"]["body"]["error"]["type"] == "server_error" for row in errors)


def test_batches_can_be_cancelled(stub: StubServer) -> None:
    stub.update_config(StubConfig(batch_delay_s=60))
    line = {"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": {}}
    with _openai(stub) as client:
        upload = client.files.create(file=("in.jsonl", json.dumps(line).encode()), purpose="batch")
        batch = client.batches.create(
            input_file_id=upload.id, endpoint="/v1/chat/completions", completion_window="24h"
        )
        assert client.batches.cancel(batch.id).status == "cancelling"
        assert client.batches.retrieve(batch.id).status == "cancelled"
    params = {"model": "c", "max_tokens": 5, "messages": USER}
    with _anthropic(stub) as claude:
        created = claude.messages.batches.create(requests=[{"custom_id": "a", "params": params}])
        assert claude.messages.batches.cancel(created.id).processing_status == "canceling"
        ended = claude.messages.batches.retrieve(created.id)
        assert ended.processing_status == "ended"
        assert ended.request_counts.canceled == 1
        assert [r.result.type for r in claude.messages.batches.results(created.id)] == ["canceled"]


def test_anthropic_batch_round_trip_through_the_sdk() -> None:
    config = StubConfig(
        batch_delay_s=0.2, rate_batch_item_error=0.2, rate_batch_item_expired=0.2, seed=2
    )
    requests = [
        {
            "custom_id": f"item-{i}",
            "params": {
                "model": "c",
                "max_tokens": 10,
                "messages": [{"role": "user", "content": f"say {i}"}],
            },
        }
        for i in range(20)
    ]
    requests.append({"custom_id": "bad", "params": {"model": "c", "messages": USER}})
    with StubServer(config, echo_responder) as stub, _anthropic(stub) as client:
        batch = client.messages.batches.create(requests=requests)
        assert batch.processing_status == "in_progress"
        assert batch.request_counts.processing == 21
        while batch.processing_status != "ended":
            time.sleep(0.05)
            batch = client.messages.batches.retrieve(batch.id)
        assert batch.results_url == f"{stub.base_url}/v1/messages/batches/{batch.id}/results"
        results = {row.custom_id: row.result for row in client.messages.batches.results(batch.id)}
    kinds = Counter(result.type for result in results.values())
    counts = batch.request_counts
    assert (counts.succeeded, counts.errored, counts.expired) == (
        kinds["succeeded"],
        kinds["errored"],
        kinds["expired"],
    )
    assert counts.processing == 0
    assert sum(kinds.values()) == 21
    assert kinds["succeeded"] > 0 and kinds["errored"] > 1 and kinds["expired"] > 0
    bad = results["bad"]
    assert bad.type == "errored"
    assert bad.error.error.type == "invalid_request_error"
    for custom_id, result in results.items():
        if result.type == "succeeded":
            assert result.message.content[0].text == "say " + custom_id.split("-")[1]


def test_stub_process_serves_stats_reset_and_config_over_http() -> None:
    with StubProcess(StubConfig(), responder="guisekit.testing:echo_responder") as stub:
        with _openai(stub) as client:
            assert _chat(client, "over there") == "over there"
            stats = stub.stats()
            assert isinstance(stats, StubStats)
            assert stats.total_requests == 1
            assert stats.by_endpoint == {"POST /v1/chat/completions": 1}
            assert stats.by_status == {200: 1}
            stub.reset()
            assert stub.stats().total_requests == 0
            stub.update_config(StubConfig(rate_500=1.0))
            with pytest.raises(openai.InternalServerError):
                _chat(client)
        assert stub.stats().faults == {"rate_500": 1}


def test_command_line_rejects_bad_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert stub_main(["--rate-429", "2"]) == 2
    assert "rate_429" in capsys.readouterr().err
    assert stub_main(["--responder", "no_such_module:f"]) == 2


async def _raw_post(port: int, path: str, body: bytes) -> bytes:
    """One HTTP/1.1 POST on a fresh connection, with no client library in the way."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = f"POST {path} HTTP/1.1\r\nHost: stub\r\nContent-Type: application/json\r\n"
    writer.write(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
    headers = (await reader.readuntil(b"\r\n\r\n")).decode().lower().split("\r\n")
    length = next(int(h.split(":")[1]) for h in headers if h.startswith("content-length:"))
    payload = await reader.readexactly(length)
    writer.close()
    await writer.wait_closed()
    return payload


def test_many_slow_requests_run_concurrently() -> None:
    """The server's concurrency, measured with a bare asyncio client: the SDK clients cost
    a few milliseconds of CPU per request themselves, which would swamp what is measured."""
    body = json.dumps({"model": "m", "messages": USER}).encode()

    async def burst(port: int) -> list[bytes]:
        return await asyncio.gather(
            *(_raw_post(port, "/v1/chat/completions", body) for _ in range(200))
        )

    with StubServer(StubConfig(latency=0.5)) as stub:
        start = time.monotonic()
        payloads = asyncio.run(burst(int(stub.base_url.rsplit(":", 1)[1])))
        wall = time.monotonic() - start
        stats = stub.stats()
    assert [json.loads(p)["choices"][0]["message"]["content"] for p in payloads] == ["ok"] * 200
    assert wall < 5.0  # one at a time would take 100 s; a loose bound survives a busy machine
    assert stats.peak_in_flight >= 100  # all 200 on a quiet machine; one at a time gives 1
    assert stats.by_status == {200: 200}
