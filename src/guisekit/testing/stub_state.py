"""The mutable state of one stub server: config, responder, fault draws, windows, stats.

Everything here is touched only from the server's event loop, so it needs no locks; the
in-process handle reads and changes it by scheduling coroutines onto that loop.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from guisekit.testing.stub_limits import (
    CallFault,
    FaultDrawer,
    RateWindow,
    body_digest,
    item_fault,
)
from guisekit.testing.stub_models import (
    Fault,
    Responder,
    StubConfig,
    StubReply,
    StubRequest,
    StubStats,
    estimate_tokens,
)

__all__ = ["BAD_CONTENT", "REFUSAL", "ItemOutcome", "StatsRecorder", "StubState"]

# A reply that parses as no JSON at all, like a model that trailed off mid-object.
BAD_CONTENT = '{"answer": "this reply stops in the middle of'
REFUSAL = "I'm sorry, but I can't help with that."


class StatsRecorder:
    """Counters behind :class:`StubStats`, updated by the request handlers."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.reset()

    def reset(self) -> None:
        """Zero the counters; requests still in flight stay counted as in flight."""
        self.total = 0
        self.by_endpoint: Counter[str] = Counter()
        self.by_status: Counter[int] = Counter()
        self.peak = self.in_flight
        self.arrivals: list[float] = []
        self.faults: Counter[Fault] = Counter()
        self.responder_errors = 0
        self.bodies: deque[dict[str, Any]] = deque(maxlen=500)
        self.processing = 0
        self.peak_processing = 0

    def begin(self, endpoint: str) -> None:
        """A provider request arrived at ``endpoint`` (``"METHOD /path/{param}"``)."""
        self.total += 1
        self.by_endpoint[endpoint] += 1
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)

    def end(self, status: int) -> None:
        """The request was answered with ``status`` (499: its client went away first)."""
        self.in_flight -= 1
        self.by_status[status] += 1

    def snapshot(self) -> StubStats:
        """An immutable copy of the counters."""
        return StubStats(
            total_requests=self.total,
            by_endpoint=dict(self.by_endpoint),
            by_status=dict(self.by_status),
            in_flight=self.in_flight,
            peak_in_flight=self.peak,
            arrival_times=tuple(self.arrivals),
            faults=dict(self.faults),
            responder_errors=self.responder_errors,
            bodies=tuple(self.bodies),
            peak_processing=self.peak_processing,
        )


@dataclass(frozen=True)
class ItemOutcome:
    """What became of one batch item: replies, or an error message, or expiry."""

    replies: tuple[StubReply, ...] = ()
    error: str | None = None
    expired: bool = False


@dataclass
class StubState:
    """Config, responder and bookkeeping shared by every handler of one server."""

    config: StubConfig
    responder: Responder
    drawer: FaultDrawer = field(default_factory=FaultDrawer)
    requests: RateWindow = field(default_factory=RateWindow)
    tokens: RateWindow = field(default_factory=RateWindow)
    stats: StatsRecorder = field(default_factory=StatsRecorder)
    _slots: asyncio.Semaphore | None = None
    _slots_for: int | None = None

    def slots(self) -> asyncio.Semaphore | None:
        """The queue of a server with limited ``capacity`` (made on the server's loop)."""
        if self.config.capacity is None:
            return None
        if self._slots is None or self._slots_for != self.config.capacity:
            self._slots = asyncio.Semaphore(self.config.capacity)
            self._slots_for = self.config.capacity
        return self._slots

    def reset(self) -> None:
        """Zero the stats, forget fault occurrences and empty the rate windows."""
        self.stats.reset()
        self.drawer.reset()
        self.requests.clear()
        self.tokens.clear()

    def replies(self, request: StubRequest, fault: CallFault | None) -> list[StubReply]:
        """One reply per requested choice; a content fault replaces the responder's answer.

        Raises whatever the responder raises.
        """
        if fault == "bad_content":
            return [StubReply(text=BAD_CONTENT)] * request.params.n
        if fault == "refusal":
            return [StubReply(text=REFUSAL, refusal=True)] * request.params.n
        if request.params.n == 1:
            return [self.responder(request)]
        return [
            self.responder(request.model_copy(update={"choice_index": i}))
            for i in range(request.params.n)
        ]

    def spend_tokens(self, request: StubRequest, replies: list[StubReply]) -> None:
        """Count a served call's estimated tokens against the token window."""
        used = request.input_tokens + sum(estimate_tokens(r.text) for r in replies)
        self.tokens.add(time.monotonic(), used)

    def answer_item(self, request: StubRequest, body: Any) -> ItemOutcome:
        """Answer one batch item, with its own deterministic fault draw."""
        draw, _ = self.drawer.draw(self.config.seed, body_digest(body))
        fault = item_fault(self.config, draw)
        if fault is not None:
            self.stats.faults[fault] += 1
        if fault == "batch_item_error":
            return ItemOutcome(error="injected batch item error")
        if fault == "batch_item_expired":
            return ItemOutcome(expired=True)
        try:
            return ItemOutcome(replies=tuple(self.replies(request, fault)))
        except Exception as exc:  # the responder is user code: its failure fails one item
            self.stats.responder_errors += 1
            return ItemOutcome(error=f"responder failed: {exc!r}")
