"""One engine call at a time, with concurrent async callers' work coalesced into it.

Engines need not be safe to call from several threads at once (the LLM engine shares its
clients, limiters and cache between jobs), and an engine that calls a model does best
with one batch of many texts, which it runs concurrently itself. So a :class:`Coalescer`
serialises calls with a lock, and async callers that arrive while a call runs are served
together by the next one. For the rules engine, which holds the GIL anyway, nothing is
lost; for the LLM engine, concurrent HTTP requests become one concurrent batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Coalescer"]

_Item = TypeVar("_Item")
_Waiter = tuple[asyncio.AbstractEventLoop, "asyncio.Future[None]"]


class Coalescer(Generic[_Item]):
    """Runs ``process(items)`` for callers, never two at once.

    ``process`` records its results on the items (it must not raise for one bad item);
    an exception it does raise reaches every caller whose items were in that call.
    """

    def __init__(self, process: Callable[[list[_Item]], None]) -> None:
        self._process = process
        self._calling = threading.Lock()  # held for the length of one process() call
        self._state = threading.Lock()  # guards the queue below
        self._queue: list[tuple[list[_Item], _Waiter]] = []
        self._draining = False

    def run(self, items: list[_Item]) -> None:
        """Process ``items`` in this thread, after any call already running."""
        with self._calling:
            self._process(items)

    async def arun(self, items: list[_Item]) -> None:
        """Process ``items`` in a worker thread, together with whatever else is queued."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self._state:
            self._queue.append((items, (loop, done)))
            start, self._draining = not self._draining, True
        if start:
            # Settled through the waiters, never awaited itself: _drain does not raise.
            loop.run_in_executor(None, self._drain)
        await done

    def _drain(self) -> None:
        while True:
            with self._state:
                queued, self._queue = self._queue, []
                if not queued:
                    self._draining = False
                    return
            error: BaseException | None = None
            try:
                self.run([item for items, _ in queued for item in items])
            except BaseException as exc:  # handed to the callers, who re-raise it
                error = exc
            for _, (loop, done) in queued:
                # RuntimeError: that caller's loop has closed, so nobody is waiting.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, done, error)


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
