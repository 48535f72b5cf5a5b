"""What the benchmarks of an input loader share (``bench_gaps_load.py``,
``bench_gelbach_load.py``; the persona axes also ``bench_gaps.py``): the personas of the
built-in grid, the row path switched on, wall and CPU time, and the largest difference
between two runs' statistics.

The axes come from :func:`guisekit.personas.load_grid`, not a copy, so the synthetic data
keep the grid's axes and level order (reference level first) if the grid changes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar
from unittest import mock

from guisekit.personas import load_grid

T = TypeVar("T")

AXES: dict[str, tuple[str, ...]] = {
    axis.name: tuple(level.name for level in axis.levels) for axis in load_grid().axes
}
"""The built-in grid's axes and their levels, in grid order."""


def personas() -> list[dict[str, str]]:
    """The 36 personas of the built-in grid (axis -> level), in the grid's order."""
    return [persona.as_dict() for persona in load_grid().personas()]


@contextmanager
def row_path(reader: str, *, rows_only: bool) -> Iterator[None]:
    """With ``rows_only``, switch the columnar reader ``reader`` off (it answers ``None``),
    so the loader takes its row-by-row path: the baseline each benchmark times."""
    if not rows_only:
        yield
        return
    with mock.patch(reader, return_value=None):
        yield


def timed(func: Callable[[], T]) -> tuple[float, float, T]:
    """Wall seconds (``time.perf_counter``), CPU seconds of this process
    (``time.process_time``) and the result of ``func()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = func()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def max_difference(left: Iterable[Any], right: Iterable[Any], fields: Iterable[str]) -> float:
    """The largest absolute difference of ``fields`` between paired result rows (a field
    that is ``None`` on either side is passed over)."""
    names = tuple(fields)
    gap = 0.0
    for x, y in zip(left, right, strict=True):
        for field in names:
            u, v = getattr(x, field), getattr(y, field)
            if u is not None and v is not None:
                gap = max(gap, abs(u - v))
    return gap
