"""Pacing requests within a provider's limits: RPM and TPM token buckets and a cool-down.

Requests are paced, not bursted: each bucket refills continuously at its rate and holds at
most ``burst`` units. The request bucket holds two, so a worker that wakes a little late
does not lose its slot, while a sliding-window limit on the provider side is exceeded by
at most one request per window (a larger burst plus a full window's refill would be). Token use is
reserved from an estimate before a call and settled with the provider's count after it.
A burst of 429s (most of the recent answers) means our idea of the limit is wrong or shared
with someone else: every request then waits out a common cool-down instead of each retrying
on its own. A scattering of 429s only costs the requests that got them their own backoff.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque

__all__ = ["Limiter", "TokenBucket"]


class TokenBucket:
    """Continuous refill at ``rate`` units per second, holding at most ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self._level = self.burst
        self._stamp = time.monotonic()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = time.monotonic()
        self._level = min(self.burst, self._level + (now - self._stamp) * self.rate)
        self._stamp = now

    async def take(self, amount: float) -> None:
        """Wait until ``amount`` units are available and take them (FIFO via the lock).

        An amount above the burst is clipped to it, so one huge request cannot wait forever.
        """
        amount = min(amount, self.burst)
        async with self._lock:
            self._refill()
            while self._level < amount:
                await asyncio.sleep((amount - self._level) / self.rate)
                self._refill()
            self._level -= amount

    def give_back(self, amount: float) -> None:
        """Return units reserved but not used (negative to charge an underestimate)."""
        self._refill()
        self._level = min(self.burst, self._level + amount)


class Limiter:
    """RPM and TPM buckets plus a shared cool-down after a burst of 429s.

    ``safety`` keeps the request rate a little under the configured limit, because the
    provider counts arrivals and network jitter can bunch two paced requests together.
    """

    def __init__(
        self,
        rpm: float | None = None,
        tpm: float | None = None,
        *,
        safety: float = 0.97,
        window: int = 20,
        burst_share: float = 0.5,
        cooldown_s: float = 5.0,
    ) -> None:
        self.requests = None if rpm is None else TokenBucket(rpm * safety / 60.0, 2.0)
        self.tokens = None if tpm is None else TokenBucket(tpm / 60.0, tpm / 60.0)
        self._recent: deque[bool] = deque(maxlen=window)
        self._burst = max(1, round(window * burst_share))
        self._cooldown_s = cooldown_s
        self._cool_until = 0.0
        self.cooldowns = 0

    async def acquire(self, estimated_tokens: int) -> None:
        """Wait out any cool-down, then for a request slot and the estimated tokens."""
        while (wait := self._cool_until - time.monotonic()) > 0:
            await asyncio.sleep(wait)
        if self.requests is not None:
            await self.requests.take(1)
        if self.tokens is not None:
            await self.tokens.take(estimated_tokens)

    def settle(self, estimated_tokens: int, used_tokens: int) -> None:
        """Correct the token reservation with what the call really used."""
        if self.tokens is not None:
            self.tokens.give_back(estimated_tokens - used_tokens)

    def record(self, rate_limited: bool, retry_after: float | None = None) -> None:
        """Record an answer; when most recent answers were 429s, start a shared cool-down."""
        self._recent.append(rate_limited)
        now = time.monotonic()
        if rate_limited and sum(self._recent) >= self._burst and now >= self._cool_until:
            self._cool_until = now + max(retry_after or 0.0, self._cooldown_s)
            self._recent.clear()
            self.cooldowns += 1

    def adopt_headers(self, headers: dict[str, str]) -> None:
        """Take the request limit the provider announces, when none was configured."""
        if self.requests is not None:
            return
        for name in ("x-ratelimit-limit-requests", "anthropic-ratelimit-requests-limit"):
            value = headers.get(name)
            if value and value.isdigit() and int(value) > 0:
                self.requests = TokenBucket(int(value) * 0.97 / 60.0, 2.0)
                return
