"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def interleaved_best(
    repeat: int,
    funcs: list[Callable[[], object]],
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Best seconds of each function over ``repeat`` rounds in which they take turns, so a
    slow patch of the machine hits all of them alike. ``clock=time.process_time`` times
    the CPU this process used instead of the wall clock (steadier on a shared machine)."""
    best = [float("inf")] * len(funcs)
    for _ in range(repeat):
        for i, func in enumerate(funcs):
            start = clock()
            func()
            best[i] = min(best[i], clock() - start)
    return best


def interleaved_best_fresh(
    rounds: Sequence[T],
    funcs: list[Callable[[T], object]],
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Like :func:`interleaved_best`, but round ``r`` gives every function the same *new*
    input ``rounds[r]``. Components that memoise what they have seen (spaCy's tokenizer
    caches every chunk between spaces) then meet unseen text in every round, as they do in
    use; repeating one input would time only their cache on it."""
    best = [float("inf")] * len(funcs)
    for data in rounds:
        for i, func in enumerate(funcs):
            start = clock()
            func(data)
            best[i] = min(best[i], clock() - start)
    return best
