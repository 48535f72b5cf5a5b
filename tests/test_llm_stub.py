"""The LLM engine over real HTTP: the openai and anthropic SDKs (through langchain) against
the loopback stub server, with faults, rate caps, batches, and the corpus CLI end to end.

Replies come from :func:`guisekit.testing.responders.rewrite_responder`, which answers the
prompts with the rules engine's rewrite: these tests check the machinery, not what a real
model would write.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from guisekit.cli import main
from guisekit.llm import LLMRequest, LLMRunner, RunnerSettings, Store, load_prompt
from guisekit.llm.batch import BatchRunner, BatchSettings
from guisekit.llm.refs import parse_model
from guisekit.testing import StubConfig, StubProcess, StubServer
from guisekit.testing.responders import rewrite_responder

ROOT = Path(__file__).resolve().parents[1]
OPENAI_SECRET = "sk-oa-SECRET-7f3a9c"
ANTHROPIC_SECRET = "sk-ant-SECRET-41d2e8"


@pytest.fixture
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_SECRET)
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_SECRET)


def _config(tmp_path: Path, stub: StubServer, **engine) -> Path:
    config = {
        "sources": {"path": str(ROOT / "examples/data/complaints.jsonl"), "limit": 3},
        "engine": {
            "name": "llm",
            "models": [
                {"model": "openai:stub-gpt", "base_url": stub.openai_base_url},
                {"model": "anthropic:stub-claude", "base_url": stub.anthropic_base_url},
            ],
            "cache": str(tmp_path / "cache.sqlite"),
            "runner": {"concurrency": 8, "backoff_base_s": 0.01},
            **engine,
        },
        "transforms": [
            {"transform": "identity"},
            {
                "transform": "persona",
                "personas": ["young-rural-high_school-low", "old-urban-college-high"],
            },
            {"transform": "hedge", "direction": ["hedged", "confident"]},
            {"transform": "fact_edit", "kind": "scale_amounts", "factor": 10},
            {"transform": "standardise", "style": "plain"},
        ],
        "output": {"dir": str(tmp_path / "out")},
    }
    path = tmp_path / "llm.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _corpus(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_corpus_cli_with_two_banks_end_to_end_and_cached_rerun(tmp_path, keys, capsys):
    with StubServer(StubConfig(), rewrite_responder) as stub:
        config = _config(tmp_path, stub)
        assert _corpus(["corpus", str(config)]) == 0
        sent = stub.stats().total_requests
        corpus = _rows(tmp_path / "out/corpus.jsonl")
        # 3 sources x 7 specs x 2 banks; identity needs no call
        assert len(corpus) == 42 and sent == 36
        assert len({r["variant_id"] for r in corpus}) == 42
        assert {r["model"] for r in corpus} == {"openai:stub-gpt", "anthropic:stub-claude"}
        assert all(r["status"] == "ok" and r["engine"] == "llm" for r in corpus)
        persona = [r for r in corpus if r["transform"] == "persona"]
        assert {r["education"] for r in persona} == {"high_school", "college"}
        facts = {r["variant_id"]: r for r in _rows(tmp_path / "out/fact_report.jsonl")}
        scaled = [
            facts[r["variant_id"]] for r in corpus if r["transform"] == "fact_edit:scale_amounts"
        ]
        assert len(scaled) == 6 and all(r["as_intended"] for r in scaled)
        usage = {r["model"]: r for r in _rows(tmp_path / "out/usage.jsonl")}
        assert {m: (u["calls"], u["ok"]) for m, u in usage.items()} == {
            "openai:stub-gpt": (18, 18),
            "anthropic:stub-claude": (18, 18),
        }
        assert all(u["input_tokens"] > 0 and u["output_tokens"] > 0 for u in usage.values())
        summary = _rows(tmp_path / "out/summary.jsonl")
        assert {r["transform"] for r in summary} >= {"identity", "persona", "standardise:plain"}

        assert _corpus(["corpus", str(config), "--overwrite"]) == 0
        assert stub.stats().total_requests == sent, "a finished corpus re-runs with 0 calls"
        assert _rows(tmp_path / "out/corpus.jsonl") == corpus

    out = capsys.readouterr()
    leaked = [
        str(p)
        for p in tmp_path.rglob("*")
        if p.is_file()
        and any(s.encode() in p.read_bytes() for s in (OPENAI_SECRET, ANTHROPIC_SECRET))
    ]
    assert leaked == [], "API keys must never reach the cache or outputs"
    assert OPENAI_SECRET not in out.out + out.err and ANTHROPIC_SECRET not in out.out + out.err


def test_missing_key_is_a_one_line_error_before_any_request(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_SECRET)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with StubServer(StubConfig(), rewrite_responder) as stub:
        assert _corpus(["corpus", str(_config(tmp_path, stub))]) == 2
        assert stub.stats().total_requests == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: no API key for anthropic:stub-claude: ANTHROPIC_API_KEY")


def _requests(stub: StubServer, n: int, **model) -> list[LLMRequest]:
    ref = parse_model({"model": "openai:stub-gpt", "base_url": stub.openai_base_url, **model})
    template = load_prompt("standardise/rewrite")
    return [
        LLMRequest(
            model=ref,
            prompt=template.render(text=f"I paid ${i}.00 on 03/0{i % 9 + 1}/2023.", style="plain"),
        )
        for i in range(n)
    ]


def test_fault_injection_every_request_ends_with_a_status(tmp_path, keys):
    faults = StubConfig(
        rate_429=0.05,
        rate_500=0.02,
        rate_timeout=0.01,
        rate_malformed=0.03,
        rate_bad_content=0.03,
        retry_after=0.05,
        timeout_hang_s=3,
        seed=7,
    )
    with StubServer(faults, rewrite_responder) as stub:
        runner = LLMRunner(
            Store(tmp_path / "c.sqlite"),
            RunnerSettings(concurrency=16, max_retries=4, backoff_base_s=0.01, backoff_cap_s=0.1),
        )
        answers = runner.run(_requests(stub, 200, timeout=0.5))
        stats = stub.stats()
    assert len(answers) == 200 and len({a.key for a in answers}) == 200
    statuses = {s: sum(a.status == s for a in answers) for s in ("ok", "refused", "error")}
    assert sum(statuses.values()) == 200
    assert statuses["ok"] >= 195, statuses  # retries and re-asks recover almost everything
    assert all(a.reason for a in answers if a.status != "ok")
    assert {"rate_429", "rate_500", "timeout", "malformed", "bad_content"} <= set(stats.faults)
    tally = runner.tally["openai:stub-gpt"]
    assert sum(tally.outcomes.values()) == 200 and tally.requests == stats.total_requests


def _paced_run(tmp_path, name: str, config: StubConfig, rpm: float | None):
    """Answers, 429 share and the most arrivals in any 2 s window of 300 calls to a stub in
    its own process (as a real provider is: an in-process server would share the GIL
    with the client and bunch or delay its arrivals). The busiest window, not the mean
    rate from first to last arrival: on this shared VM the whole machine can stall for
    seconds under load (every waiter of the client woke 7.2 s late at once in a
    reproduction with four busy loops; 14.4 of 100 a window, first to last, in the ci of
    4c9948b), which a mean over wall time counts against the client. The sustained rate
    is the benchmark's to measure on a quiet machine (benchmarks/bench_llm_runner.py)."""
    # the echo responder: this measures the client's pacing, so the stub must spend no
    # CPU on rewriting (the rules engine's ~30 ms a request capped the stub itself at ~70
    # of 100 calls a window on this 2-core machine)
    with StubProcess(config, "guisekit.testing.responders:echo_responder") as stub:
        runner = LLMRunner(Store(tmp_path / f"{name}.sqlite"), RunnerSettings(concurrency=32))
        # The prompt mode: this measures pacing, not the cost of a schema in every body.
        answers = runner.run(_requests(stub, 300, rpm=rpm, output="prompt"))
        stats = stub.stats()
    return answers, stats.by_status.get(429, 0) / stats.total_requests, stats.peak_in_window(2.0)


def test_runner_holds_the_providers_request_cap(tmp_path, keys):
    window, cap = 2.0, 100  # the stub allows 100 calls per rolling 2 s (3,000 RPM)
    capped = StubConfig(rpm_limit=cap, rate_window_s=window, latency=0.02)
    answers, rejected, rate = _paced_run(tmp_path, "capped", capped, cap * 60 / window)
    # Side by side, the same calls with no cap: what this client can send on this machine
    # now. A loaded CI machine sent 87 a window where 100 were allowed (ci of 5605d6a), so
    # the bound is 90% of the lesser of the cap and that, not of the cap alone. Over-
    # cautious pacing fails it (a client paced at half the cap peaks near 50), a 429 storm
    # fails the share.
    _, _, free = _paced_run(tmp_path, "free", StubConfig(latency=0.02), None)
    assert all(a.status == "ok" for a in answers)
    # The figures (>= 95% of the cap, < 1% 429s) are measured on a quiet machine by
    # benchmarks/bench_llm_runner.py; here, with the test suite sharing two cores, the bounds
    # are looser but still fail without pacing (hundreds of 429s) or with over-cautious pacing.
    assert rejected < 0.02, f"{rejected:.1%} got 429"
    assert rate >= 0.90 * min(cap, free), f"busiest window {rate} of {cap} (free {free})"


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_batch_mode_round_trip_and_resume_after_restart(tmp_path, keys, provider):
    config = StubConfig(batch_delay_s=0.2, rate_batch_item_error=0.1, seed=3)
    with StubServer(config, rewrite_responder) as stub:
        url = stub.openai_base_url if provider == "openai" else stub.anthropic_base_url
        ref = parse_model({"model": f"{provider}:stub-batch", "base_url": url})
        template = load_prompt("standardise/rewrite")
        requests = [
            LLMRequest(model=ref, prompt=template.render(text=f"I owe ${i}.00!!", style="plain"))
            for i in range(30)
        ]
        store = Store(tmp_path / "c.sqlite")
        runner = BatchRunner(LLMRunner(store), BatchSettings(poll_interval_s=0.05))
        answers = runner.run(requests)
        assert [a.status for a in answers] == ["ok"] * 30
        assert all(a.batch for a in answers)
        assert "$7.00" in answers[7].value["text"]
        first = stub.stats().by_endpoint
        # a second process over the same store sends nothing
        again = BatchRunner(
            LLMRunner(Store(tmp_path / "c.sqlite")), BatchSettings(poll_interval_s=0.05)
        ).run(requests)
        assert [a.value for a in again] == [a.value for a in answers]
        assert stub.stats().by_endpoint == first
    created = {k: v for k, v in first.items() if "batches" in k and "POST" in k}
    assert sum(created.values()) >= 2, "errored items are resubmitted in a new batch"


def test_overlapping_jobs_on_one_runner_share_its_connections(tmp_path, keys):
    import asyncio

    with StubServer(StubConfig(latency=0.05), rewrite_responder) as stub:
        runner = LLMRunner(Store(tmp_path / "c.sqlite"), RunnerSettings(concurrency=4))
        requests = _requests(stub, 24)

        async def both():
            return await asyncio.gather(runner.arun(requests[:4]), runner.arun(requests[4:]))

        short, long = asyncio.run(both())
    assert [a.status for a in short + long] == ["ok"] * 24
    assert runner._chats == {}, "the last job out closes the pools"


def test_batch_submitted_before_a_crash_is_joined_not_resubmitted(tmp_path, keys, monkeypatch):
    with StubServer(StubConfig(batch_delay_s=0.1), rewrite_responder) as stub:
        ref = parse_model({"model": "openai:stub-batch", "base_url": stub.openai_base_url})
        template = load_prompt("standardise/rewrite")
        requests = [
            LLMRequest(model=ref, prompt=template.render(text=f"I owe ${i}.00!!", style="plain"))
            for i in range(10)
        ]

        async def crash(self, record, model):
            raise RuntimeError("killed while polling")

        monkeypatch.setattr(BatchRunner, "_collect", crash)
        with pytest.raises(RuntimeError, match="killed while polling"):
            BatchRunner(LLMRunner(Store(tmp_path / "c.sqlite"))).run(requests)
        monkeypatch.undo()
        monkeypatch.setenv("OPENAI_API_KEY", OPENAI_SECRET)
        [journalled] = Store(tmp_path / "c.sqlite").open_batches()
        assert len(journalled.keys) == 10

        answers = BatchRunner(
            LLMRunner(Store(tmp_path / "c.sqlite")), BatchSettings(poll_interval_s=0.05)
        ).run(requests)
        created = stub.stats().by_endpoint.get("POST /v1/batches", 0)
    assert [a.status for a in answers] == ["ok"] * 10
    assert created == 1, "the restarted run joined the journalled batch"
    assert list(Store(tmp_path / "c.sqlite").open_batches()) == []


def test_rejected_requests_are_recorded_but_retried_by_the_next_run(tmp_path, keys):
    with StubServer(StubConfig(), rewrite_responder) as stub:
        wrong = _requests(stub, 2)
        wrong = [
            LLMRequest(
                model=r.model.model_copy(update={"base_url": stub.base_url + "/nowhere"}),
                prompt=r.prompt,
            )
            for r in wrong
        ]
        store = Store(tmp_path / "c.sqlite")
        first = LLMRunner(store).run(wrong)
        assert [a.status for a in first] == ["error", "error"]
        assert all("404" in (a.reason or "") for a in first)
        assert store.count() == 2 and store.get_many(r.key for r in wrong) == {}
        again = LLMRunner(store)
        again.run(wrong)
        assert again.tally["openai:stub-gpt"].requests == 2, "a fixed config gets a fresh try"


def test_corpus_cli_in_batch_mode_goes_through_the_batch_apis(tmp_path, keys):
    with StubServer(StubConfig(batch_delay_s=0.1), rewrite_responder) as stub:
        config = _config(tmp_path, stub, mode="batch", batch={"poll_interval_s": 0.05})
        assert _corpus(["corpus", str(config)]) == 0
        endpoints = stub.stats().by_endpoint
    corpus = _rows(tmp_path / "out/corpus.jsonl")
    assert len(corpus) == 42 and all(r["status"] == "ok" for r in corpus)
    assert "POST /v1/chat/completions" not in endpoints and "POST /v1/messages" not in endpoints
    assert (
        endpoints.get("POST /v1/batches") == 1 and endpoints.get("POST /v1/messages/batches") == 1
    )
    usage = {r["model"]: r for r in _rows(tmp_path / "out/usage.jsonl")}
    assert usage["openai:stub-gpt"]["calls"] == 18 and usage["anthropic:stub-claude"]["ok"] == 18


def test_adding_a_persona_runs_only_the_new_calls(tmp_path, keys):
    with StubServer(StubConfig(), rewrite_responder) as stub:
        config = _config(tmp_path, stub)
        assert _corpus(["corpus", str(config)]) == 0
        before = stub.stats().total_requests
        data = yaml.safe_load(config.read_text(encoding="utf-8"))
        data["transforms"][1]["personas"].append("young-suburban-college-middle")
        config.write_text(yaml.safe_dump(data), encoding="utf-8")
        assert _corpus(["corpus", str(config), "--overwrite"]) == 0
        added = stub.stats().total_requests - before
    assert added == 3 * 2, "one new persona x 3 sources x 2 banks, nothing else"
    assert len(_rows(tmp_path / "out/corpus.jsonl")) == 3 * 8 * 2


def test_runner_can_adopt_the_request_limit_the_provider_announces(tmp_path, keys):
    import time

    cap = 1200  # per minute: the stub announces it in x-ratelimit-limit-requests
    with StubServer(StubConfig(rpm_limit=cap), rewrite_responder) as stub:
        runner = LLMRunner(
            Store(tmp_path / "c.sqlite"),
            RunnerSettings(concurrency=16, limits_from_headers=True),
        )
        started = time.perf_counter()
        answers = runner.run(_requests(stub, 41))
        elapsed = time.perf_counter() - started
    assert all(a.status == "ok" for a in answers)
    limiter = runner._limiters["openai:stub-gpt"]
    assert limiter.requests is not None and limiter.requests.rate == pytest.approx(cap * 0.97 / 60)
    # after the first answers, the rest are paced at 19.4/s instead of sent at once
    assert elapsed > 1.2
