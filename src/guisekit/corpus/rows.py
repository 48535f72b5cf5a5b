"""One corpus row per variant: the columns of ``corpus.jsonl`` (and of
``RunResult.to_frame()``), the same in every output format.

Beside the nested ``spec``, its scalar fields are flat columns (``direction``, ``kind``,
``style``, ``mix_ratio``, ...: :func:`~guisekit.corpus_file.spec_columns`), so a filter
needs no JSON; an LLM variant carries its prompt (id and version) and token usage.
"""

from __future__ import annotations

from typing import Any

from guisekit.corpus_file import spec_columns
from guisekit.models import Variant
from guisekit.transforms import entry_of, label_of

__all__ = ["variant_row"]


def variant_row(variant: Variant) -> dict[str, Any]:
    """One flat row of ``variant``, persona levels as their own columns."""
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
    row.update(spec_columns(row["spec"]))
    provenance = variant.provenance
    usage = provenance.usage
    row.update(
        engine=provenance.engine,
        model=provenance.model,
        prompt_id=provenance.prompt_id,
        prompt_version=provenance.prompt_version,
        input_tokens=None if usage is None else usage.input_tokens,
        output_tokens=None if usage is None else usage.output_tokens,
        seed=provenance.seed,
        n_edits=len(provenance.edits),
        edits=[e.model_dump() for e in provenance.edits],
        params=provenance.params,
        # transform-specific record: for Hinglish the per-word language tags, the
        # per-sentence conversion record and the validation result
        details=provenance.details,
    )
    return row
