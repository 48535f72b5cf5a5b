"""The per-chunk functions of the CPU stages that run on many cores: one function per stage,
shared by the local process pool (:func:`guisekit.parallel.map_chunks`) and the
distributed backend (:mod:`guisekit.distributed`), so every engine runs the same code.

Each function is top level and takes one picklable chunk of plain data; its result for an
item depends on that item alone (no shared state, no random draws), so the output is the
same whatever the chunking, the number of workers or the machine.

Chunk sizes are constants, never derived from the worker count: with ``--workers N`` only
*who* runs a chunk changes, not what is in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from guisekit.facts import FactCheckResult, SeverityPolicy

__all__ = [
    "CHECK_CHUNK",
    "MEASURE_CHUNK",
    "PairsChunk",
    "check_pairs_chunk",
    "measure_chunk",
    "run_chunks",
]

C = TypeVar("C")
R = TypeVar("R")

CHECK_CHUNK = 500
"""Pairs per ``check-facts`` chunk: a few hundred milliseconds of work, against about a
millisecond to pickle it."""
MEASURE_CHUNK = 256
"""Texts per ``attributes`` chunk (the objective measures batch their texts internally)."""

PairsChunk = tuple["SeverityPolicy", list[tuple[str, str, str]]]
"""A chunk of ``check-facts`` work: the policy and ``(pair id, original, rewrite)`` items."""


def check_pairs_chunk(chunk: PairsChunk) -> list[tuple[str, FactCheckResult]]:
    """The exact fact check of every pair of the chunk, in order."""
    from guisekit.facts import check_facts

    policy, items = chunk
    return [(pair_id, check_facts(a, b, policy)) for pair_id, a, b in items]


def measure_chunk(texts: list[str | None]) -> list[dict[str, float] | None]:
    """Every objective measure of each text of the chunk (``None`` stays ``None``)."""
    from guisekit.attributes import objective_measurements

    return objective_measurements(texts)


def run_chunks(fn: Callable[[C], list[R]], chunks: Sequence[C], *, workers: int) -> list[R]:
    """Every chunk's results, concatenated in chunk order, from ``workers`` processes
    (never more than there are chunks: one chunk runs here, with no pool to start)."""
    from guisekit.parallel import map_chunks

    out: list[R] = []
    for part in map_chunks(fn, chunks, workers=min(workers, len(chunks))):
        out.extend(part)
    return out
