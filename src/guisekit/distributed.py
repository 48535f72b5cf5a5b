"""Past one machine: the CPU stages on a Dask cluster (the ``distributed`` extra).

The local pool (:func:`guisekit.parallel.map_chunks`) and this backend call the *same*
per-chunk functions: :func:`guisekit.corpus.chunk.corpus_chunk` for the corpus,
:func:`guisekit.stages.check_pairs_chunk` for ``check-facts`` and
:func:`guisekit.stages.measure_chunk` for ``attributes``. Only who runs a chunk changes;
so the rows are the same bytes as a local run's.

- :func:`map_chunks` is :func:`guisekit.parallel.map_chunks` on a Dask client: results in
  chunk order, at most ``ahead`` chunks in flight.
- :func:`check_pairs` and :func:`measure` read a *partitioned* Parquet dataset (a folder of
  ``*.parquet`` parts, each read whole by one worker) and write one output part per input
  part, under the same name, from the worker that computed it: on a file system every
  worker mounts, the data never passes through the client.
- :func:`run_corpus` runs a corpus config: the plan is built here, its chunks are mapped on
  the cluster, and the rows stream back, in order, into the same output set a local run
  writes (``corpus_chunk`` returns finished rows, so only rows cross the network).

Why Dask and not Ray Data: ``distributed`` is Python (36 MB installed with dask and its
dependencies, of which only msgpack and psutil are compiled), while Ray ships a compiled
C++ core in much larger wheels; it installs wherever guisekit does, and its
``LocalCluster`` gives a real multi-process cluster on a laptop for tests. Our chunks are
plain picklable values, so we need a task map, not a dataframe engine.

LLM stages do not run here: they scale through batch APIs and self-hosted servers, with
one runner per process.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from guisekit.errors import InputError, OutputError
from guisekit.extras import require

if TYPE_CHECKING:
    from distributed import Client

    from guisekit.corpus.export import Written
    from guisekit.facts import SeverityPolicy

__all__ = [
    "check_pairs",
    "close",
    "connect",
    "map_chunks",
    "measure",
    "partition",
    "parts_of",
    "run_corpus",
]

C = TypeVar("C")
R = TypeVar("R")


def connect(address: str | None = None, *, workers: int = 2) -> Client:
    """A client of the scheduler at ``address`` (``tcp://host:8786``), or of a new local
    cluster of ``workers`` single-threaded worker processes (close the client, and with it
    that cluster, when done: ``with connect() as client: ...``)."""
    require("distributed", feature="the Dask backend")
    from distributed import Client, LocalCluster

    if address is not None:
        return Client(address)
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # a free port: never a clash with another cluster
        silence_logs=40,
    )
    client = Client(cluster)
    client._guisekit_cluster = cluster  # closed with it
    return client


def close(client: Client) -> None:
    """Close ``client`` and the local cluster :func:`connect` started for it, if any."""
    cluster = getattr(client, "_guisekit_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def map_chunks(
    client: Client, fn: Callable[[C], R], chunks: Iterable[C], *, ahead: int | None = None
) -> Iterator[R]:
    """``fn(chunk)`` for every chunk on the cluster, yielded in chunk order, at most
    ``ahead`` (default: twice the cluster's threads) submitted and not yet yielded."""
    limit = ahead or 2 * max(1, sum(client.nthreads().values()))
    pending: deque[Any] = deque()
    source = iter(chunks)
    index = 0

    def submit(chunk: C) -> None:
        nonlocal index
        # pure=False: a chunk is computed, never deduplicated by its hash (identical
        # chunks at different places each need their own result)
        pending.append(client.submit(fn, chunk, pure=False, key=f"chunk-{index}-{os.getpid()}"))
        index += 1

    try:
        for chunk in source:
            submit(chunk)
            if len(pending) >= limit:
                break
        while pending:
            future = pending.popleft()
            result = future.result()
            for chunk in source:
                submit(chunk)
                break
            yield result
    finally:
        for future in pending:
            future.cancel()


def parts_of(folder: Path) -> list[Path]:
    """The Parquet parts of a partitioned dataset, in name order (the output order)."""
    if not folder.is_dir():
        raise InputError(
            f"{folder}: not a folder of Parquet parts",
            hint="split a table with guisekit.distributed.partition(table, folder)",
        )
    parts = sorted(folder.glob("*.parquet"))
    if not parts:
        raise InputError(f"{folder}: no *.parquet parts", hint="check the folder")
    return parts


def partition(table: Path, folder: Path, *, rows_per_part: int = 10_000) -> list[Path]:
    """Split a JSONL/CSV/Parquet table into Parquet parts ``part-00000.parquet``, ... of
    ``rows_per_part`` rows, in row order (the layout :func:`check_pairs` and
    :func:`measure` read)."""
    require("parquet", feature="partitioned Parquet")
    import pyarrow as pa
    import pyarrow.parquet as pq

    from guisekit.parallel import chunked
    from guisekit.tables import read_rows

    folder.mkdir(parents=True, exist_ok=True)
    if any(folder.glob("*.parquet")):
        raise InputError(f"{folder} already holds Parquet parts", hint="use an empty folder")
    rows = (row for _, row in read_rows(table, required=()))
    paths = []
    for number, part in enumerate(chunked(rows, rows_per_part)):
        path = folder / f"part-{number:05d}.parquet"
        pq.write_table(pa.Table.from_pylist(part), path)
        paths.append(path)
    return paths


def _write_part(rows: list[dict[str, Any]], path: str) -> str:
    """One output part, written as ``write_rows`` writes Parquet (atomically)."""
    from guisekit.tables import write_rows

    write_rows(path, rows, fmt="parquet")
    return path


def check_pairs_part(
    job: tuple[str, str, SeverityPolicy, tuple[str, str, str]],
) -> tuple[str, dict[str, int]]:
    """Worker side of :func:`check_pairs`: read one part, check its pairs with
    :func:`guisekit.stages.check_pairs_chunk`, write the report part; the verdict counts."""
    import pyarrow.parquet as pq

    from guisekit.stages import check_pairs_chunk

    source, target, policy, (id_column, original, rewrite) = job
    table = pq.read_table(source, columns=[id_column, original, rewrite]).to_pydict()
    items = [
        (str(i), a, b)
        for i, a, b in zip(table[id_column], table[original], table[rewrite], strict=True)
    ]
    results = check_pairs_chunk((policy, items))
    _write_part([{"id": pid, **res.to_dict()} for pid, res in results], target)
    counts = {"pass": 0, "warn": 0, "fail": 0}
    for _, res in results:
        counts[res.verdict] += 1
    return target, counts


def check_pairs(
    client: Client,
    pairs: Path,
    out: Path,
    *,
    policy: SeverityPolicy | None = None,
    id_column: str = "id",
    original_column: str = "original",
    rewrite_column: str = "rewrite",
) -> dict[str, int]:
    """``check-facts --pairs`` over a partitioned Parquet dataset: one report part per
    input part in ``out`` (rows as ``check-facts --report`` writes them); the totals."""
    from guisekit.facts import SeverityPolicy

    jobs = _jobs(pairs, out)
    columns = (id_column, original_column, rewrite_column)
    chosen = policy or SeverityPolicy()
    totals = {"pass": 0, "warn": 0, "fail": 0}
    work = ((s, t, chosen, columns) for s, t in jobs)
    for _, counts in map_chunks(client, check_pairs_part, work):
        for verdict, n in counts.items():
            totals[verdict] += n
    return totals


def measure_part(job: tuple[str, str, str, tuple[str, ...]]) -> str:
    """Worker side of :func:`measure`: one part's rows with every objective measure, by
    :func:`guisekit.stages.measure_chunk`, written as the attribute table part."""
    import pyarrow.parquet as pq

    from guisekit.attributes import attribute_rows, measurable_text
    from guisekit.stages import measure_chunk

    source, target, text_column, drop = job
    rows = pq.read_table(source).to_pylist()
    texts = [measurable_text(row, text_column=text_column) for row in rows]
    table = attribute_rows(rows, [measure_chunk(texts)], drop_columns=drop)
    return _write_part(table, target)


def measure(client: Client, corpus: Path, out: Path, *, text_column: str = "text") -> list[Path]:
    """``attributes`` (objective measures) over a partitioned Parquet corpus: one table
    part per corpus part in ``out``, rows as ``guisekit attributes`` writes them."""
    work = ((s, t, text_column, (text_column,)) for s, t in _jobs(corpus, out))
    return [Path(p) for p in map_chunks(client, measure_part, work)]


def _jobs(source: Path, out: Path) -> list[tuple[str, str]]:
    require("distributed", feature="the Dask backend")
    parts = parts_of(source)
    out.mkdir(parents=True, exist_ok=True)
    clash = [p.name for p in parts if (out / p.name).exists()]
    if clash:
        raise OutputError(
            f"{out} already holds {clash[0]}", hint="write the parts to an empty folder"
        )
    return [(str(p), str(out / p.name)) for p in parts]


def run_corpus(
    client: Client,
    config: Path,
    out_dir: Path | None = None,
    *,
    chunk_size: int | None = None,
    overwrite: bool = False,
) -> Written:
    """``guisekit corpus CONFIG`` with the chunks on the cluster: the plan is built here
    (it holds the sources, not the variants), each chunk goes to a worker as it is made,
    and the rows come back in chunk order into the same output set a local run writes
    (``out_dir``, default the config's). The rules engine only: LLM engines keep their
    one runner per process and scale through batch APIs and self-hosted servers."""
    require("distributed", feature="the Dask backend")
    from guisekit.corpus import build_plan, load_config
    from guisekit.corpus.chunk import corpus_chunk
    from guisekit.corpus.export import write_corpus
    from guisekit.corpus.stream import DEFAULT_CHUNK_SIZE, local_engines, plan_chunks
    from guisekit.engines import make_engines
    from guisekit.errors import ConfigError

    settings = load_config(config)
    target = out_dir if out_dir is not None else settings.output_dir
    engines = make_engines(settings.engine, settings.base)
    if not local_engines(engines):
        raise ConfigError(
            "the Dask backend runs the rules engine only",
            hint="run LLM engines with guisekit corpus (batch APIs, self-hosted servers)",
        )
    plan = build_plan(settings, engines)
    chunks = plan_chunks(plan, engines, chunk_size or DEFAULT_CHUNK_SIZE)
    return write_corpus(
        map_chunks(client, corpus_chunk, chunks),
        target,
        settings.output_format,
        overwrite=overwrite,
        arguments={"config": str(config), "out_dir": str(target), "overwrite": overwrite},
        config=settings.model_dump(mode="json"),
        inputs=(config, settings.path(settings.sources.path)),
        models=[engine.config for engine in engines],  # as a local run records them
    )
