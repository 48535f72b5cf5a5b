"""A deterministic chunked map: the same results, in the same order, on any number of cores.

Every CPU stage that scales (corpus rewriting, fact checks and summary measures, attribute
extraction, ``check-facts``) has the same shape: cut the items into chunks, apply one
*plain top-level function* to each chunk, and consume the results in chunk order. This
module is that shape, once:

- :func:`chunked` cuts any iterable into lists of at most ``size`` items, lazily, so the
  items need never all be in memory;
- :func:`map_chunks` applies ``fn`` to every chunk, in this process (``workers=1``) or in a
  pool of ``workers`` processes, and yields the results **in chunk order**, keeping at most
  ``ahead`` chunks in flight so memory stays flat however many chunks there are;
- :func:`usable_cores` is the default worker count (the cores this process may run on,
  which is what a container or ``taskset`` allows, not the machine's total).

Determinism is the caller's half of the contract: ``fn`` must depend only on its chunk
(no global state, no shared random generator; seed each item from its own identity, as
:mod:`guisekit.rules` does from ``(seed, source, spec)``), and chunk boundaries must not
depend on ``workers``. Then the output is byte-identical for any worker count, and a
distributed engine (Dask, Ray) can call the *same* ``fn`` on the same chunks: ``fn`` and
its chunks are picklable by construction (a top-level function over plain data).

Pool processes are started with ``fork`` where that is safe (Linux, no other threads in
this process) because it avoids re-importing guisekit in every worker; otherwise with
``spawn``. A forked worker holds both ends of the pool's pipes and every file its parent
had open (the resume journal, the half-written output set), so when the run is killed
it would wait on its pipe forever, keeping them open; on Linux each worker therefore asks
the kernel to kill it with its parent (``PR_SET_PDEATHSIG``). A worker that dies (killed,
out of memory) ends the map with a one-line :class:`~guisekit.errors.GuisekitError`, never
a hang or a traceback.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from guisekit.errors import GuisekitError

__all__ = ["WorkerError", "chunked", "map_chunks", "usable_cores"]

T = TypeVar("T")
C = TypeVar("C")
R = TypeVar("R")


class WorkerError(GuisekitError):
    """A pool process died before returning its chunk (killed, or out of memory)."""


def usable_cores() -> int:
    """Cores this process may run on (``os.sched_getaffinity``), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of ``size`` items (the last may be shorter), read lazily."""
    if size < 1:
        raise ValueError(f"chunk size must be at least 1, not {size}")
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _die_with_parent(parent: int) -> None:
    """Pool initializer on Linux: SIGKILL this worker when its parent dies (see the module
    docstring), and exit now if the parent is already gone."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _context() -> multiprocessing.context.BaseContext:
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def map_chunks(
    fn: Callable[[C], R],
    chunks: Iterable[C],
    *,
    workers: int = 1,
    ahead: int | None = None,
) -> Generator[R, None, None]:
    """``fn(chunk)`` for every chunk, yielded in chunk order.

    With ``workers <= 1`` the chunks run one by one in this process (no pool, no
    pickling). Otherwise a pool of ``workers`` processes runs them, at most ``ahead``
    (default ``2 * workers``) submitted and not yet yielded, so a slow consumer (writing
    rows to disk) holds back the producers instead of piling results up in memory.
    ``fn`` must be a top-level function and chunks and results picklable.

    An exception raised by ``fn`` is re-raised here, for the first failing chunk in
    order; the chunks after it are cancelled. Closing the generator early (``break``)
    shuts the pool down.
    """
    if workers <= 1:
        for chunk in chunks:
            yield fn(chunk)
        return
    limit = max(1, ahead if ahead is not None else 2 * workers)
    pending: deque[Future[R]] = deque()
    source = iter(chunks)
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=_context(),
        initializer=functools.partial(_die_with_parent, os.getpid()),
    )
    try:
        for chunk in itertools.islice(source, limit):
            pending.append(pool.submit(fn, chunk))
        while pending:
            try:
                result = pending.popleft().result()
            except BrokenProcessPool:
                raise WorkerError(
                    "a worker process died before finishing its chunk",
                    hint="it may have run out of memory: re-run with fewer --workers",
                ) from None
            for chunk in itertools.islice(source, 1):
                pending.append(pool.submit(fn, chunk))
            yield result
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
