"""Deterministic fault draws, sliding-window rate caps and provider rate-limit headers."""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any, Literal

from guisekit.testing.stub_models import Provider, StubConfig

__all__ = [
    "CallFault",
    "FaultDrawer",
    "ItemFault",
    "RateWindow",
    "body_digest",
    "call_fault",
    "item_fault",
    "rate_limit_headers",
    "retry_after_headers",
]

CallFault = Literal["rate_429", "rate_500", "timeout", "malformed", "bad_content", "refusal"]
ItemFault = Literal["batch_item_error", "batch_item_expired", "bad_content", "refusal"]

# What the headers announce when no cap is configured, like a generous real account.
_NOMINAL_RPM = 10_000
_NOMINAL_TPM = 10_000_000


def body_digest(body: Any) -> str:
    """Hash of a JSON body that ignores key order and whitespace, so equal requests match."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _unit(seed: int, salt: str, digest: str, occurrence: int) -> float:
    data = f"{seed}|{salt}|{digest}|{occurrence}".encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") / 2.0**64


class FaultDrawer:
    """Uniform draws keyed by (seed, body digest, how often that digest was drawn before).

    Keying on the body rather than on arrival order keeps runs reproducible under
    concurrency; counting occurrences makes a retry of the same body a fresh draw.
    """

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def draw(self, seed: int, digest: str) -> tuple[float, float]:
        """Two independent draws for the next occurrence of ``digest``: fault and jitter."""
        occurrence = self._seen.get(digest, 0)
        self._seen[digest] = occurrence + 1
        return _unit(seed, "fault", digest, occurrence), _unit(seed, "jitter", digest, occurrence)

    def reset(self) -> None:
        """Forget the occurrences, so the next run sees the faults of a fresh start."""
        self._seen.clear()


def _pick(u: float, table: list[tuple[Any, float]]) -> Any:
    edge = 0.0
    for kind, rate in table:
        edge += rate
        if u < edge:
            return kind
    return None


def call_fault(config: StubConfig, u: float) -> CallFault | None:
    """The fault a model call with draw ``u`` meets, if any."""
    fault: CallFault | None = _pick(
        u,
        [
            ("rate_429", config.rate_429),
            ("rate_500", config.rate_500),
            ("timeout", config.rate_timeout),
            ("malformed", config.rate_malformed),
            ("bad_content", config.rate_bad_content),
            ("refusal", config.rate_refusal),
        ],
    )
    return fault


def item_fault(config: StubConfig, u: float) -> ItemFault | None:
    """The fault a batch item with draw ``u`` meets: transport faults do not apply to it."""
    fault: ItemFault | None = _pick(
        u,
        [
            ("batch_item_error", config.rate_batch_item_error),
            ("batch_item_expired", config.rate_batch_item_expired),
            ("bad_content", config.rate_bad_content),
            ("refusal", config.rate_refusal),
        ],
    )
    return fault


class RateWindow:
    """Weighted events in a sliding window (requests weigh 1, token events their tokens)."""

    def __init__(self) -> None:
        self._events: deque[tuple[float, int]] = deque()
        self._used = 0

    def _prune(self, now: float, window: float) -> None:
        while self._events and self._events[0][0] <= now - window:
            self._used -= self._events.popleft()[1]

    def used(self, now: float, window: float) -> int:
        """Weight of the events inside the window ending at ``now``."""
        self._prune(now, window)
        return self._used

    def wait(self, now: float, window: float, limit: int) -> float:
        """Seconds until the window holds less than ``limit`` (0 if it already does)."""
        self._prune(now, window)
        if self._used < limit:
            return 0.0
        must_leave = self._used - limit + 1
        for at, weight in self._events:
            must_leave -= weight
            if must_leave <= 0:
                return max(0.0, at + window - now)
        return window  # not reached: once every event has left the window is empty

    def reset_in(self, now: float, window: float) -> float:
        """Seconds until the window is empty again, i.e. the limit fully replenished (the
        providers' meaning of their reset headers; 0 when already empty)."""
        self._prune(now, window)
        return self._events[-1][0] + window - now if self._events else 0.0

    def add(self, now: float, weight: int) -> None:
        """Record an event of ``weight`` at ``now``."""
        if weight > 0:
            self._events.append((now, weight))
            self._used += weight

    def clear(self) -> None:
        """Drop every event."""
        self._events.clear()
        self._used = 0


def _openai_duration(seconds: float) -> str:
    """OpenAI's reset format: ``20ms``, ``1.5s``, ``6m0s``."""
    if seconds < 1.0:
        return f"{max(0, round(seconds * 1000))}ms"
    minutes, rest = divmod(seconds, 60.0)
    text = f"{round(rest, 3):g}s"
    return f"{int(minutes)}m{text}" if minutes else text


def rate_limit_headers(
    provider: Provider,
    config: StubConfig,
    requests: RateWindow,
    tokens: RateWindow,
    now: float,
) -> dict[str, str]:
    """The rate-limit headers a real provider sends, computed from the stub's windows."""
    window = config.rate_window_s
    rpm = config.rpm_limit or _NOMINAL_RPM
    tpm = config.tpm_limit or _NOMINAL_TPM
    left_requests = max(0, rpm - requests.used(now, window))
    left_tokens = max(0, tpm - tokens.used(now, window))
    reset_requests = requests.reset_in(now, window)
    reset_tokens = tokens.reset_in(now, window)
    if provider == "openai":
        return {
            "x-ratelimit-limit-requests": str(rpm),
            "x-ratelimit-remaining-requests": str(left_requests),
            "x-ratelimit-reset-requests": _openai_duration(reset_requests),
            "x-ratelimit-limit-tokens": str(tpm),
            "x-ratelimit-remaining-tokens": str(left_tokens),
            "x-ratelimit-reset-tokens": _openai_duration(reset_tokens),
        }
    wall = time.time()
    return {
        "anthropic-ratelimit-requests-limit": str(rpm),
        "anthropic-ratelimit-requests-remaining": str(left_requests),
        "anthropic-ratelimit-requests-reset": _rfc3339(wall + reset_requests),
        "anthropic-ratelimit-tokens-limit": str(tpm),
        "anthropic-ratelimit-tokens-remaining": str(left_tokens),
        "anthropic-ratelimit-tokens-reset": _rfc3339(wall + reset_tokens),
    }


def retry_after_headers(seconds: float) -> dict[str, str]:
    """``Retry-After`` in whole seconds (rounded up, as the HTTP spec allows only integers)
    plus ``retry-after-ms`` with the exact wait, which the OpenAI SDK prefers."""
    return {
        "retry-after": str(math.ceil(seconds)),
        "retry-after-ms": str(math.ceil(seconds * 1000)),
    }


def _rfc3339(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat().replace("+00:00", "Z")
