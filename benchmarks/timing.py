"""Timing helper shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable


def interleaved_best(repeat: int, funcs: list[Callable[[], object]]) -> list[float]:
    """Best seconds of each function over ``repeat`` rounds in which they take turns, so a
    slow patch of the machine hits all of them alike."""
    best = [float("inf")] * len(funcs)
    for _ in range(repeat):
        for i, func in enumerate(funcs):
            start = time.perf_counter()
            func()
            best[i] = min(best[i], time.perf_counter() - start)
    return best
