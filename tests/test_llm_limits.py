"""Pacing, cool-down and fault classification, without a network."""

from __future__ import annotations

import asyncio
import time

import anthropic
import httpx
import openai
import pytest

from guisekit.errors import ConfigError
from guisekit.llm.faults import classify
from guisekit.llm.limits import Limiter, TokenBucket


def _response(status: int, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(
        status, headers=headers or {}, request=httpx.Request("POST", "http://127.0.0.1/v1/x")
    )


def test_token_bucket_paces_at_its_rate():
    async def main() -> float:
        bucket = TokenBucket(rate=50.0, burst=1.0)
        start = time.perf_counter()
        for _ in range(26):
            await bucket.take(1)
        return time.perf_counter() - start

    elapsed = asyncio.run(main())
    assert 0.45 <= elapsed < 1.5, elapsed  # 25 refills at 50/s = 0.5 s (slack for a busy box)


def test_token_reservations_are_settled_with_real_usage():
    bucket = TokenBucket(rate=1.0, burst=100.0)
    asyncio.run(bucket.take(80))
    bucket.give_back(80 - 30)  # reserved 80, the call used 30
    assert 69 <= bucket._level <= 71


def test_a_burst_of_429s_starts_one_shared_cooldown_a_scattering_does_not():
    limiter = Limiter(window=20, burst_share=0.5, cooldown_s=5.0)
    for i in range(40):
        limiter.record(rate_limited=(i % 10 == 0))  # 10% of answers: no cool-down
    assert limiter.cooldowns == 0
    for _ in range(10):
        limiter.record(rate_limited=True, retry_after=2.0)
    assert limiter.cooldowns == 1
    assert limiter._cool_until - time.monotonic() > 4.0


def test_announced_limit_is_adopted_only_when_none_configured():
    limiter = Limiter()
    limiter.adopt_headers({"x-ratelimit-limit-requests": "600"})
    assert limiter.requests is not None and limiter.requests.rate == pytest.approx(600 * 0.97 / 60)
    configured = Limiter(rpm=60)
    configured.adopt_headers({"x-ratelimit-limit-requests": "6000"})
    assert configured.requests is not None and configured.requests.rate == pytest.approx(0.97)


@pytest.mark.parametrize(
    ("exc", "kind", "transient", "retry_after"),
    [
        (
            openai.RateLimitError("slow", response=_response(429, {"retry-after": "3"}), body=None),
            "rate_limit",
            True,
            3.0,
        ),
        (
            anthropic.RateLimitError(
                "slow", response=_response(429, {"retry-after-ms": "1500"}), body=None
            ),
            "rate_limit",
            True,
            1.5,
        ),
        (
            openai.InternalServerError("boom", response=_response(500), body=None),
            "server",
            True,
            None,
        ),
        (
            anthropic.InternalServerError("busy", response=_response(529), body=None),
            "server",
            True,
            None,
        ),
        (openai.APITimeoutError(request=httpx.Request("POST", "http://x")), "timeout", True, None),
        (openai.BadRequestError("bad", response=_response(400), body=None), "request", False, None),
        (ValueError("Expecting value: line 1 column 1 (char 0)"), "malformed", True, None),
    ],
)
def test_faults_are_classified(exc, kind, transient, retry_after):
    fault = classify(exc)
    assert (fault.kind, fault.transient, fault.retry_after) == (kind, transient, retry_after)


def test_rejected_key_stops_the_job():
    with pytest.raises(ConfigError, match="rejected the API key"):
        classify(openai.AuthenticationError("no", response=_response(401), body=None))


def test_backoff_is_jittered_exponential_and_never_shorter_than_retry_after(tmp_path):
    from tenacity import Future, RetryCallState

    from guisekit.llm import LLMRunner, RunnerSettings, Store
    from guisekit.llm.faults import Fault
    from guisekit.llm.runner import _Transient

    runner = LLMRunner(Store(tmp_path / "c.sqlite"), RunnerSettings(backoff_base_s=0.5))

    def wait(attempt: int, retry_after: float | None) -> float:
        state = RetryCallState(None, None, (), {})  # type: ignore[arg-type]
        state.attempt_number = attempt
        outcome = Future(attempt)
        outcome.set_exception(_Transient(Fault("rate_limit", True, retry_after, "429")))
        state.outcome = outcome
        return runner._wait(state)

    waits = [wait(3, None) for _ in range(200)]
    assert 0 <= min(waits) < 0.5 and 1.5 < max(waits) <= 2.0  # full jitter in [0, 0.5 * 2^2]
    assert all(wait(1, 7.0) >= 7.0 for _ in range(50))  # Retry-After is a floor
