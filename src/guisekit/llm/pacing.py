"""Adaptive concurrency: as many calls in flight as the server can take, and no more.

A local server (llama.cpp, Ollama, a small vLLM) processes a few requests at a time and
queues the rest; each queued request waits, and once the wait passes the client's
timeout every request times out while the server keeps generating for clients that are
gone (a timeout storm). A fixed concurrency cannot be right for both a laptop server and
a hosted API, so the limit adapts, AIMD-style (as TCP congestion control does):

- it starts low (``start``) and, while latency holds near the best seen, grows: by one
  per success at first (slow start, doubling per round trip), then by one per round trip,
  from the first cut or from the first rise halfway to one (HyStart's early exit: a
  doubling seen a round trip late would otherwise overshoot the queue twofold);
- when latency per output token grows past ``tolerance`` times the best seen (requests
  are queueing), or a call times out, it is cut (by a quarter, or by half for a
  timeout), at most once per round trip, never below one;
- it never exceeds the configured ``concurrency`` (the ceiling), and grows only while
  it is what holds calls back (not at the tail of a run, where fewer calls are left).

Latency is compared per output token (at least ``min_tokens``), so a long answer is not
mistaken for a queue; growth under ``min_excess_s`` is jitter, not a queue (a hosted API
answering in 20 ms is not congested when one reply takes 200 ms; a busy client adds
that much itself).
"""

from __future__ import annotations

import asyncio
from typing import Literal

__all__ = ["AdaptiveConcurrency", "CallOutcome"]

CallOutcome = Literal["ok", "timeout", "other"]


class AdaptiveConcurrency:
    """A concurrency limit that grows while latency holds and shrinks when it does not."""

    def __init__(
        self,
        ceiling: int,
        *,
        start: int = 2,
        tolerance: float = 1.8,
        min_tokens: int = 16,
        min_excess_s: float = 0.5,
        adaptive: bool = True,
    ) -> None:
        self.ceiling = max(1, ceiling)
        self.adaptive = adaptive
        self.limit = float(min(start, self.ceiling) if adaptive else self.ceiling)
        self.tolerance = tolerance
        self._early_exit = 1 + (tolerance - 1) / 2  # slow start ends halfway to a cut
        self.min_tokens = min_tokens
        self.min_excess_s = min_excess_s
        self.in_flight = 0
        self.peak = 0
        self.cuts = 0
        self.best: float | None = None
        self._slow_start = True
        self._since_cut = 0
        self._cond: asyncio.Condition | None = None
        self._waiting = 0
        self._window = 0

    def _condition(self) -> asyncio.Condition:
        if self._cond is None:  # made on first use, inside the loop that runs the calls
            self._cond = asyncio.Condition()
        return self._cond

    async def acquire(self) -> None:
        """Wait for a slot under the current limit."""
        cond = self._condition()
        async with cond:
            self._waiting += 1
            try:
                await cond.wait_for(lambda: self.in_flight < max(1, int(self.limit)))
            finally:
                self._waiting -= 1
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)

    async def release(
        self, outcome: CallOutcome, latency_s: float = 0.0, output_tokens: int = 0
    ) -> None:
        """Give the slot back and adapt the limit to how the call went."""
        cond = self._condition()
        async with cond:
            # Grow only when the limit is what holds calls back (not at a run's tail).
            binding = self._waiting > 0 or self.in_flight >= int(self.limit)
            self.in_flight -= 1
            self.observe(outcome, latency_s, output_tokens, binding=binding)
            cond.notify_all()

    def observe(
        self,
        outcome: CallOutcome,
        latency_s: float,
        output_tokens: int = 0,
        *,
        binding: bool = True,
    ) -> None:
        """Adapt the limit to one finished call (``binding``: calls were waiting for a slot)."""
        if not self.adaptive:
            return
        self._since_cut += 1
        if outcome == "timeout":
            self._cut(0.5)
            return
        if outcome != "ok":
            return
        tokens = max(output_tokens, self.min_tokens)
        per_token = latency_s / tokens
        if self.best is None or per_token < self.best:
            self.best = per_token
        excess = (per_token - self.best) * tokens
        rising = excess > self.min_excess_s
        if rising and per_token > self.tolerance * self.best:
            self._cut(0.75)
        elif rising and self._slow_start and per_token > self._early_exit * self.best:
            # A queue is forming: doubling on would overshoot it by a round trip's growth
            # before the cut is seen, so growth turns additive here, without a cut.
            self._slow_start = False
        elif not binding:
            return
        elif self._slow_start:
            self.limit = min(self.ceiling, self.limit + 1)
        else:
            self.limit = min(self.ceiling, self.limit + 1 / self.limit)

    def _cut(self, factor: float) -> None:
        # Once per round trip: the calls in flight at a cut were sent under the old limit,
        # so their slowness is already answered for.
        if self.cuts and self._since_cut <= self._window:
            return
        self._slow_start = False
        self._window = max(1, int(self.limit))
        self.limit = max(1.0, self.limit * factor)
        self._since_cut = 0
        self.cuts += 1
