"""One background event loop for every blocking LLM call in the process.

The provider SDKs (through langchain) keep HTTP connection pools that belong to the event
loop they were first used on. Running each blocking call under a fresh ``asyncio.run``
would strand those pools on closed loops (errors and leaked sockets on the next call), so
blocking entry points submit their coroutine to one long-lived loop in a daemon thread.
This also makes them callable from any thread, including a web server's worker threads.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run_sync"]

_T = TypeVar("_T")
_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="guisekit-llm-loop", daemon=True).start()
            _loop = loop
        return _loop


def run_sync(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coroutine`` on the shared loop and wait for its result (or exception)."""
    return asyncio.run_coroutine_threadsafe(coroutine, _background_loop()).result()
