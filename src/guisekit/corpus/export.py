"""Write a run's outputs: the corpus, the fact-check report and the summary.

All three are computed before anything is written, existing files are refused unless
``overwrite``, and the files are published together with a ``manifest.json`` (see
:mod:`guisekit.outputs`): a kill or a full disk leaves the previous set whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from guisekit.corpus.rows import variant_row
from guisekit.corpus.run import RunResult, as_intended
from guisekit.outputs import OutputSet
from guisekit.tables import Format, read_rows, write_rows
from guisekit.transforms import label_of

__all__ = ["export_run", "fact_rows", "variant_rows"]

OUTPUT_NAMES = ("corpus", "fact_report", "summary")


def variant_rows(result: RunResult) -> list[dict[str, Any]]:
    """One flat row per variant (see :func:`~guisekit.corpus.rows.variant_row`)."""
    return [variant_row(variant) for variant in result.variants]


def fact_rows(result: RunResult) -> list[dict[str, Any]]:
    """Per-variant exact-check verdict with every discrepancy and its spans."""
    rows = []
    for variant, check in zip(result.variants, result.checks, strict=True):
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
        rows.append(row)
    return rows


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
