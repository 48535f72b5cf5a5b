"""A corpus run that streams: chunks in, rows out, memory flat in the number of sources.

:func:`run_corpus` is what ``guisekit corpus`` runs. The plan is cut into chunks of whole
sources (about ``chunk_size`` variants each; the cut depends only on the plan and
``chunk_size``, never on the worker count), and each chunk goes through
:func:`~guisekit.corpus.chunk.corpus_chunk`:

- on the rules engine, in a pool of ``workers`` processes (:mod:`guisekit.parallel`),
  results taken in chunk order; each finished chunk is journalled
  (:mod:`guisekit.corpus.journal`) before it is written, so a killed run resumes from its
  last finished chunk;
- on LLM engines, the bank's tasks first run on the process's one async runner (its
  cache is the resume: a re-run sends no request already answered), then the made
  variants are checked, measured and encoded chunk by chunk in this process.

Rows go straight into the output set's hidden folder (:func:`~guisekit.corpus.export.
write_corpus`), and the set is published when the last chunk is in. The outputs are
byte-identical for any number of workers and any mix of replayed and computed chunks.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guisekit.corpus.chunk import ChunkRows, CorpusChunk, chunk_key, corpus_chunk
from guisekit.corpus.export import Written, write_corpus
from guisekit.corpus.journal import Journal, journal_path
from guisekit.corpus.plan import Plan
from guisekit.engines import Engine, run_engine
from guisekit.parallel import chunked, map_chunks
from guisekit.tables import Format

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "CorpusRun",
    "local_engines",
    "plan_chunks",
    "run_corpus",
    "worker_count",
]

DEFAULT_CHUNK_SIZE = 1000
"""Variants per chunk (rounded to whole sources): large enough that a chunk's pickling and
journalling cost little beside its rewriting, small enough that a kill loses seconds."""

Progress = Callable[[int], None]


@dataclass(frozen=True)
class CorpusRun:
    """A finished streaming run: what was written, and how many chunks there were and
    how many of them were replayed from the resume journal instead of recomputed."""

    written: Written
    chunks: int
    resumed: int


def local_engines(engines: Sequence[Engine]) -> bool:
    """Whether every engine is the CPU-bound, picklable rules engine (so chunks can go to
    worker processes and be journalled); LLM engines keep their one runner per process."""
    from guisekit.rules import RulesEngine

    return all(isinstance(engine, RulesEngine) for engine in engines)


def worker_count(plan: Plan, engines: Sequence[Engine], workers: int, chunk_size: int) -> int:
    """The processes a run will use: ``workers``, but no more than there are chunks, and
    one for LLM engines."""
    if not local_engines(engines):
        return 1
    chunks = len(engines) * -(-len(plan.sources) // _sources_per_chunk(plan, chunk_size))
    return max(1, min(workers, chunks))


def _sources_per_chunk(plan: Plan, chunk_size: int) -> int:
    return max(1, chunk_size // max(1, len(plan.specs)))


def plan_chunks(plan: Plan, engines: Sequence[Engine], chunk_size: int) -> Iterator[CorpusChunk]:
    """The plan as chunks for engines that run in a chunk (the rules engine), made on
    demand in plan order: bank, then consecutive sources, each under every spec."""
    per = _sources_per_chunk(plan, chunk_size)
    specs = tuple(plan.specs)
    index = itertools.count()
    for bank, engine in enumerate(engines):
        for group in chunked(plan.sources.values(), per):
            keys = tuple(k for s in group for k in plan.variant_keys(s.id, bank))
            yield CorpusChunk(
                index=next(index),
                key=chunk_key(keys, group),
                seed=plan.seed,
                specs=specs,
                sources=tuple(group),
                keys=keys,
                engine=engine,
            )


def _made_chunks(
    plan: Plan, engines: Sequence[Engine], chunk_size: int, progress: Progress | None
) -> Iterator[CorpusChunk]:
    """Chunks of variants an engine already made: each bank's tasks run at once on the
    engine (an LLM runner's concurrency and batches span the whole bank)."""
    per = _sources_per_chunk(plan, chunk_size)
    specs = tuple(plan.specs)
    index = itertools.count()
    for bank, engine in enumerate(engines):
        tasks = [(plan.sources[t.source_id], t.spec, t.key) for t in plan.iter_tasks(bank)]
        made = run_engine(engine, tasks, plan.seed, progress)
        del tasks
        width = per * len(specs)
        for start, group in zip(
            itertools.count(0, width), chunked(plan.sources.values(), per), strict=False
        ):
            variants = tuple(made[start : start + width])
            keys = tuple(v.variant_id for v in variants)
            yield CorpusChunk(
                index=next(index),
                key=chunk_key(keys, group),
                seed=plan.seed,
                specs=specs,
                sources=tuple(group),
                keys=keys,
                variants=variants,
            )


def _rows(
    plan: Plan,
    engines: Sequence[Engine],
    *,
    workers: int,
    chunk_size: int,
    journal: Journal | None,
    progress: Progress | None,
    counts: dict[str, int],
) -> Iterator[ChunkRows]:
    """Every chunk's rows in chunk order: replayed from the journal when it finished in
    an earlier run, otherwise computed (in the pool) and journalled first."""
    if not local_engines(engines):
        for chunk in _made_chunks(plan, engines, chunk_size, progress):
            counts["chunks"] += 1
            yield corpus_chunk(chunk)
        return
    done = journal.finished if journal is not None else set()
    walk, feed = itertools.tee(plan_chunks(plan, engines, chunk_size))
    computed = map_chunks(corpus_chunk, (c for c in feed if c.key not in done), workers=workers)
    try:
        for chunk in walk:
            counts["chunks"] += 1
            if journal is not None and chunk.key in done:
                rows = journal.load(chunk)
                counts["resumed"] += 1
            else:
                rows = next(computed)
                if journal is not None:
                    journal.save(rows)
            if progress is not None:
                progress(len(rows.keys))
            yield rows
    finally:
        computed.close()


def run_corpus(
    plan: Plan,
    engines: Sequence[Engine],
    out_dir: Path,
    fmt: Format,
    *,
    overwrite: bool,
    workers: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    resume: bool = True,
    progress: Progress | None = None,
    usage: Callable[[], list[dict[str, Any]]] | None = None,
    arguments: dict[str, Any] | None = None,
    config: Any = None,
    inputs: Sequence[Path] = (),
) -> CorpusRun:
    """Run ``plan`` chunk by chunk and write corpus, fact report and summary (and the LLM
    ``usage``) into ``out_dir`` as one published output set (see the module docstring).

    ``resume`` (rules engine only) replays chunks an earlier, killed run of the same plan
    finished; ``resume=False`` starts from nothing. The journal is deleted once the set
    is published; a run that fails keeps it for the next try."""
    journal = None
    if local_engines(engines):
        path = journal_path(out_dir)
        if not resume:
            Journal(path).discard()
        journal = Journal(path)
    counts = {"chunks": 0, "resumed": 0}
    workers = worker_count(plan, engines, workers, chunk_size)
    try:
        written = write_corpus(
            _rows(
                plan,
                engines,
                workers=workers,
                chunk_size=chunk_size,
                journal=journal,
                progress=progress,
                counts=counts,
            ),
            out_dir,
            fmt,
            overwrite=overwrite,
            usage=usage,
            arguments=arguments,
            config=config,
            inputs=inputs,
            models=[engine.config for engine in engines],  # model identity, prompt versions
        )
    except BaseException:
        if journal is not None:
            journal.close()
        raise
    if journal is not None:
        journal.discard()
    return CorpusRun(written=written, chunks=counts["chunks"], resumed=counts["resumed"])
