"""Write a run's outputs: the corpus, the fact-check report and the summary.

All three are computed before anything is written, existing files are refused unless
``overwrite``, and each file is written atomically.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from guisekit.corpus.run import RunResult, as_intended
from guisekit.corpus_io import Format, write_rows
from guisekit.errors import OutputError
from guisekit.transforms import entry_of, label_of

__all__ = ["export_run", "fact_rows", "variant_rows"]

OUTPUT_NAMES = ("corpus", "fact_report", "summary")


def variant_rows(result: RunResult) -> list[dict[str, Any]]:
    """One flat row per variant, persona levels as their own columns."""
    rows = []
    for variant in result.variants:
        spec = variant.spec
        row: dict[str, Any] = {
            "source_id": variant.source_id,
            "variant_id": variant.variant_id,
            "transform": label_of(spec),
            "spec": spec.model_dump(mode="json"),
            "status": variant.status,
            "reason": variant.reason,
            "text": variant.text,
        }
        columns = entry_of(spec).columns
        if columns is not None:
            row.update(columns(spec))
        provenance = variant.provenance
        row.update(
            engine=provenance.engine,
            model=provenance.model,
            seed=provenance.seed,
            n_edits=len(provenance.edits),
            edits=[e.model_dump() for e in provenance.edits],
            params=provenance.params,
            # transform-specific record: for Hinglish the per-word language tags, the
            # per-sentence conversion record and the validation result
            details=provenance.details,
        )
        rows.append(row)
    return rows


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
) -> dict[str, Path]:
    """Write corpus, fact report and summary (and the LLM ``usage`` per model, when given)
    into ``out_dir``; returns their paths."""
    suffix = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet"}[fmt]
    names = (*OUTPUT_NAMES, "usage") if usage else OUTPUT_NAMES
    paths = {name: out_dir / f"{name}{suffix}" for name in names}
    existing = [str(p) for p in paths.values() if p.exists()]
    if existing and not overwrite:
        raise OutputError(
            f"{existing[0]} already exists", hint="pass --overwrite to replace the run's outputs"
        )
    contents = {
        "corpus": variant_rows(result),
        "fact_report": fact_rows(result),
        "summary": result.summary,
        "usage": usage or [],
    }
    for name, path in paths.items():
        write_rows(path, contents[name], fmt=fmt, overwrite=True)
    return paths
