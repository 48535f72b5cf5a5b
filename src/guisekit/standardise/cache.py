"""The standardiser's result cache: identical input and settings give the stored result.

Entries are per (settings, style, text), so a multi-style call reuses single-style
results and the reverse.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, NamedTuple

from guisekit.standardise.results import StyleResult

__all__ = ["CacheInfo", "ResultCache"]


class CacheInfo(NamedTuple):
    """Hits and misses count (text, style) lookups; ``size`` is the entries held."""

    hits: int
    misses: int
    size: int
    max_size: int


class ResultCache:
    """A thread-safe least-recently-used map (the HTTP service calls from many threads)."""

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self._items: OrderedDict[tuple[Any, ...], StyleResult] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[Any, ...]) -> StyleResult | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: tuple[Any, ...], value: StyleResult) -> None:
        if self.max_size == 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.max_size:
                self._items.popitem(last=False)

    def info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self.hits, self.misses, len(self._items), self.max_size)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0
