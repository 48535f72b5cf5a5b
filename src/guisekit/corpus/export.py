"""Write a run's outputs: the corpus, the fact-check report and the summary.

A row is a function of one variant (:func:`~guisekit.corpus.rows.variant_row`,
:func:`fact_row`), so rows can be made where the variant is made (in a worker process)
and written as they arrive.
:func:`write_corpus` streams a run's chunks of rows into the output set's hidden folder
(JSONL directly; CSV and Parquet through a JSONL spool converted at the end, since their
columns are the union over all rows), keeps the summary as running totals, and publishes
the files together with a ``manifest.json`` (see :mod:`guisekit.outputs`): a kill or a
full disk leaves the previous set whole. :func:`export_run` writes an in-memory
:class:`~guisekit.corpus.run.RunResult` the same way.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from guisekit.corpus.rows import variant_row
from guisekit.corpus.run import RunResult, as_intended
from guisekit.corpus.summary import SummaryTotals
from guisekit.facts import FactCheckResult
from guisekit.models import Variant
from guisekit.outputs import OutputSet
from guisekit.tables import Format, read_rows, write_rows
from guisekit.transforms import label_of

if TYPE_CHECKING:
    from guisekit.corpus.chunk import ChunkRows

__all__ = [
    "Written",
    "export_run",
    "fact_row",
    "fact_rows",
    "variant_row",
    "variant_rows",
    "write_corpus",
]

OUTPUT_NAMES = ("corpus", "fact_report", "summary")
SUFFIXES: dict[str, str] = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet"}


def fact_row(variant: Variant, check: FactCheckResult | None) -> dict[str, Any]:
    """The fact-report row of one variant: the exact check's verdict, whether its facts
    changed as its transform intends, and every discrepancy with its spans (``None``
    verdicts for a variant without text)."""
    row: dict[str, Any] = {
        "source_id": variant.source_id,
        "variant_id": variant.variant_id,
        "transform": label_of(variant.spec),
    }
    if check is None:
        row.update(verdict=None, as_intended=None, discrepancies=[])
    else:
        row.update(
            verdict=check.verdict,
            as_intended=as_intended(variant.spec, check),
            discrepancies=[d.to_dict() for d in check.discrepancies],
        )
    return row


def variant_rows(result: RunResult) -> list[dict[str, Any]]:
    """One flat row per variant (:func:`variant_row`), in run order."""
    return [variant_row(variant) for variant in result.variants]


def fact_rows(result: RunResult) -> list[dict[str, Any]]:
    """Per-variant exact-check verdict (:func:`fact_row`), in run order."""
    return [
        fact_row(variant, check)
        for variant, check in zip(result.variants, result.checks, strict=True)
    ]


def export_run(
    result: RunResult,
    out_dir: Path,
    fmt: Format,
    *,
    overwrite: bool,
    usage: list[dict[str, Any]] | None = None,
    arguments: dict[str, Any] | None = None,
    config: Any = None,
    inputs: Sequence[Path] = (),
) -> dict[str, Path]:
    """Write corpus, fact report and summary (and the LLM ``usage`` per model, when given)
    into ``out_dir`` as one :class:`~guisekit.outputs.OutputSet` with its manifest; returns
    their paths. Usage is cumulative: this run's rows are appended to the last run's."""
    suffix = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet"}[fmt]
    names = (*OUTPUT_NAMES, "usage") if usage else OUTPUT_NAMES
    files = {name: f"{name}{suffix}" for name in names}
    outputs = OutputSet(
        out_dir,
        files.values(),
        overwrite=overwrite,
        command="corpus",
        arguments=arguments,
        config=config,
        inputs=inputs,
    )
    with outputs:
        contents = {
            "corpus": variant_rows(result),
            "fact_report": fact_rows(result),
            "summary": result.summary,
            "usage": _cumulative(outputs, files.get("usage"), usage or []),
        }
        for name, file in files.items():
            write_rows(outputs.path(file), contents[name], fmt=fmt, overwrite=True)
            outputs.add(file, len(contents[name]))
        outputs.counts = dict(Counter(v.status for v in result.variants))
    return {name: out_dir / file for name, file in files.items()}


def _cumulative(
    outputs: OutputSet, file: str | None, usage: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Earlier runs' usage rows, then this run's, each tagged with its run id."""
    if file is None:
        return []
    previous = outputs.previous(file)
    earlier = [row for _, row in read_rows(previous, required=())] if previous else []
    return [*earlier, *({"run_id": outputs.run_id, **row} for row in usage)]


# -- streaming ---------------------------------------------------------------------------


def _open(path: Path) -> IO[str]:
    """Open an output file for writing (one place, so a test can make the disk full)."""
    return path.open("w", encoding="utf-8", newline="")


class _RowFile:
    """One output file written a chunk of rows at a time into the set's hidden folder."""

    def __init__(self, outputs: OutputSet, name: str, fmt: Format) -> None:
        self.outputs, self.name, self.fmt = outputs, name, fmt
        self.final = outputs.path(name)
        self.path = self.final if fmt == "jsonl" else outputs.staging / f".{name}.spool"
        self.handle = _open(self.path)
        self.rows = 0

    def write(self, lines: Sequence[str]) -> None:
        if lines:
            try:
                self.handle.write("\n".join(lines))
                self.handle.write("\n")
            except OSError as exc:  # a write error names no file: name this one
                raise OSError(exc.errno, exc.strerror, str(self.final)) from None
            self.rows += len(lines)

    def close(self) -> None:
        try:
            self.handle.close()
            if self.fmt != "jsonl":
                _convert(self.path, self.final, self.fmt)
                self.path.unlink()
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(self.final)) from None
        self.outputs.add(self.name, self.rows)


def _spooled(path: Path) -> Iterable[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)


def _convert(spool: Path, target: Path, fmt: Format) -> None:
    """A JSONL spool as CSV or Parquet, reading it twice (columns, then rows) so the
    rows never all sit in memory. Same columns and cells as :func:`write_rows`."""
    from guisekit.tables import _flat  # CSV cells

    columns: dict[str, None] = {}
    for row in _spooled(spool):
        columns.update(dict.fromkeys(row))
    names = list(columns)
    if fmt == "csv":
        import csv

        with _open(target) as handle:
            writer = csv.DictWriter(handle, fieldnames=names)
            writer.writeheader()
            for row in _spooled(spool):
                writer.writerow({k: _flat(row.get(k)) for k in names})
        return
    import pyarrow.parquet as pq

    from guisekit.nested import Inexact, NestedEncoder

    def batches() -> Iterable[list[dict[str, Any]]]:
        batch: list[dict[str, Any]] = []
        for row in _spooled(spool):
            batch.append(row)
            if len(batch) == 10_000:
                yield batch
                batch = []
        if batch or not names:
            yield batch

    # each batch's types widened to one schema (a column all null in one batch and text in
    # another is text; struct fields are the union), then every batch written with it and
    # the nested columns' fill record added to the footer (see guisekit.nested)
    encoder = NestedEncoder(names)
    for batch in batches():
        encoder.observe(batch)
    while True:
        try:
            with pq.ParquetWriter(target, encoder.schema()) as writer:
                for batch in batches():
                    writer.write_table(encoder.encode(batch))
                writer.add_key_value_metadata(encoder.metadata())
        except Inexact as exc:  # a column that would not read back as written: JSON
            encoder.as_json(exc.column)
            continue
        return


@dataclass(frozen=True)
class Written:
    """What :func:`write_corpus` wrote: the files, the summary rows, the count of
    variants in each status and each failed variant's (status, reason) grouped."""

    paths: dict[str, Path]
    summary: list[dict[str, Any]]
    statuses: dict[str, int]
    failures: dict[tuple[str, str | None], int]


def write_corpus(
    chunks: Iterable[ChunkRows],
    out_dir: Path,
    fmt: Format,
    *,
    overwrite: bool,
    usage: Callable[[], list[dict[str, Any]]] | None = None,
    arguments: dict[str, Any] | None = None,
    config: Any = None,
    inputs: Sequence[Path] = (),
    models: Sequence[dict[str, Any]] = (),
) -> Written:
    """Write a run's chunks of rows, in order, as they arrive: corpus and fact report row
    by row, the summary from running totals, then the LLM ``usage`` (called after the
    last chunk; cumulative over runs, as in :func:`export_run`). Memory holds one chunk
    and the totals, whatever the size of the run."""
    names = (*OUTPUT_NAMES, "usage") if usage is not None else OUTPUT_NAMES
    files = {name: f"{name}{SUFFIXES[fmt]}" for name in names}
    outputs = OutputSet(
        out_dir,
        files.values(),
        overwrite=overwrite,
        command="corpus",
        arguments=arguments,
        config=config,
        inputs=inputs,
        models=models,
    )
    totals = SummaryTotals()
    statuses: Counter[str] = Counter()
    failures: Counter[tuple[str, str | None]] = Counter()
    with outputs:
        corpus = _RowFile(outputs, files["corpus"], fmt)
        facts = _RowFile(outputs, files["fact_report"], fmt)
        try:
            for chunk in chunks:
                corpus.write(chunk.corpus)
                facts.write(chunk.facts)
                totals.merge(chunk.totals)
                statuses.update(chunk.statuses)
                failures.update(chunk.failures)
        except BaseException:
            corpus.handle.close()
            facts.handle.close()
            raise
        corpus.close()
        facts.close()
        summary = totals.rows()
        write_rows(outputs.path(files["summary"]), summary, fmt=fmt, overwrite=True)
        outputs.add(files["summary"], len(summary))
        rows = usage() if usage is not None else []
        if usage is not None:
            cumulative = _cumulative(outputs, files["usage"], rows)
            write_rows(outputs.path(files["usage"]), cumulative, fmt=fmt, overwrite=True)
            outputs.add(files["usage"], len(cumulative))
        outputs.counts = dict(statuses)
    return Written(
        paths={name: out_dir / file for name, file in files.items()},
        summary=summary,
        statuses=dict(statuses),
        failures=dict(failures),
    )
