"""The pairs an audit screens: an original and its rewrite, from a corpus or a pairs file.

A corpus (the output of ``guisekit corpus``) holds rewrites only; each is joined to its
original by ``source_id`` from the sources the corpus was built from. A pairs file holds
both texts (``id``, ``original``, ``rewrite``; optional ``source_id`` and ``transform``).

Rows are never rejected one by one: a pair without an original, with an empty rewrite, with
a rewrite that failed upstream, or identical to its original gets an input status that
follows it into the results, so every row of the input has a row in the output.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from guisekit.errors import GuisekitError, InputError
from guisekit.tables import read_rows, read_sources
from guisekit.transforms import FactChange, Spec, entry_of, parse_spec, spec_from_label

__all__ = [
    "AuditPair",
    "InputStatus",
    "corpus_file",
    "load_corpus_pairs",
    "load_pairs_file",
    "load_sources",
    "load_weights",
    "make_pair",
]

InputStatus = Literal["ok", "identical", "missing_original", "empty_rewrite", "rewrite_failed"]
_CORPUS_NAMES = ("corpus.jsonl", "corpus.csv", "corpus.parquet")


class AuditPair(BaseModel):
    """One original/rewrite pair and what is known about how the rewrite was made.

    ``source_id`` is the cluster of the bootstrap (all rewrites of one source move
    together). ``transform`` is the corpus label (``persona``, ``fact_edit:weaken``);
    ``persona`` maps each persona axis to its level. ``fact_change`` is what the
    transform's registry entry says it does to the facts (``none`` for style transforms
    and for labels no transform is registered under); ``edit_kind`` is the label's
    parameter for a fact-changing transform. ``status`` says whether the pair can be
    audited at all, and ``reason`` why not.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    pair_id: str
    source_id: str
    original: str | None
    rewrite: str | None
    transform: str | None = None
    variant_id: str | None = None
    persona: dict[str, str] = Field(default_factory=dict)
    fact_change: FactChange = "none"
    edit_kind: str | None = None
    model: str | None = Field(default=None, description="The rewrite model (bank), if any.")
    status: InputStatus = "ok"
    reason: str | None = None

    @property
    def control(self) -> bool:
        """A positive control: a fact edit made on purpose, which every screen must catch."""
        return self.fact_change != "none"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def make_pair(
    pair_id: str,
    source_id: str,
    original: Any,
    rewrite: Any,
    *,
    transform: str | None = None,
    variant_id: str | None = None,
    persona: Mapping[str, str] | None = None,
    model: str | None = None,
    upstream: str | None = None,
    spec: Spec | None = None,
) -> AuditPair:
    """A pair with its input status decided; ``upstream`` is why a rewrite failed before.

    The transform's fact change comes from the registry entry of ``spec`` or, without
    one, of the spec the ``transform`` label stands for."""
    a, b = _text(original), _text(rewrite)
    status: InputStatus = "ok"
    reason = None
    if a is None:
        status, reason = "missing_original", f"no original text for source {source_id!r}"
    elif upstream is not None:
        status, reason = "rewrite_failed", upstream
    elif b is None:
        status, reason = "empty_rewrite", "the rewrite is empty"
    elif a.strip() == b.strip():
        status, reason = "identical", "the rewrite is identical to the original"
    if spec is None and transform is not None:
        spec = spec_from_label(transform)
    change: FactChange = "none"
    kind = None
    if spec is not None:
        entry = entry_of(spec)
        change = entry.change(spec)
        if change != "none" and entry.label_field is not None:
            kind = str(getattr(spec, entry.label_field))
    return AuditPair(
        pair_id=pair_id,
        source_id=source_id,
        original=a,
        rewrite=b,
        transform=transform,
        variant_id=variant_id,
        persona=dict(persona or {}),
        fact_change=change,
        edit_kind=kind,
        model=model,
        status=status,
        reason=reason,
    )


def corpus_file(path: Path) -> Path:
    """The corpus file itself, or the one inside a corpus output folder."""
    if path.is_dir():
        for name in _CORPUS_NAMES:
            if (path / name).is_file():
                return path / name
        raise InputError(
            f"{path}: no corpus file in this folder",
            hint=f"expected one of {', '.join(_CORPUS_NAMES)} (the output of guisekit corpus)",
        )
    return path


def load_sources(path: Path, id_column: str = "id", text_column: str = "text") -> dict[str, str]:
    """Original texts by source id, from the sources file a corpus was built from."""
    return {s.id: s.text for s in read_sources(path, id_column=id_column, text_column=text_column)}


def _spec(value: Any) -> Spec | None:
    """The spec of a corpus row (a mapping, or its JSON in a CSV), if it parses."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return None
    try:
        return parse_spec(value)
    except (ValidationError, GuisekitError):
        return None


def _persona(spec: Spec | None) -> dict[str, str]:
    """A persona spec's levels by axis (the audit groups its results by them)."""
    levels = getattr(spec, "persona", None)
    return dict(levels) if isinstance(levels, dict) else {}


def load_corpus_pairs(corpus: Path, originals: Mapping[str, str]) -> list[AuditPair]:
    """One pair per corpus row, its original looked up by source id in ``originals``."""
    rows = read_rows(
        corpus_file(corpus),
        required=("source_id", "variant_id", "transform", "text"),
        id_column="variant_id",
    )
    pairs = []
    for _, row in rows:
        status = str(row.get("status") or "ok")
        upstream = None
        if status != "ok":
            upstream = f"the rewrite was {status}: {row.get('reason') or 'no reason given'}"
        source_id = str(row["source_id"])
        spec = _spec(row.get("spec"))
        pairs.append(
            make_pair(
                str(row["variant_id"]),
                source_id,
                originals.get(source_id),
                row["text"],
                transform=str(row["transform"]),
                variant_id=str(row["variant_id"]),
                persona=_persona(spec),
                model=_text(row.get("model")),
                upstream=upstream,
                spec=spec,
            )
        )
    return pairs


def load_pairs_file(path: Path) -> list[AuditPair]:
    """Pairs from a JSONL/CSV/Parquet file with ``id``, ``original`` and ``rewrite`` columns
    (``source_id`` and ``transform`` optional); a row missing a text gets a status."""
    rows = read_rows(path, required=("id",), id_column="id")
    pairs = []
    for _, row in rows:
        pair_id = str(row["id"]).strip()
        source = _text(row.get("source_id"))
        transform = _text(row.get("transform"))
        pairs.append(
            make_pair(
                pair_id,
                source.strip() if source else pair_id,
                row.get("original"),
                row.get("rewrite"),
                transform=transform.strip() if transform else None,
            )
        )
    return pairs


def load_weights(path: Path) -> dict[str, float]:
    """Population weights by source id from a file with ``source_id`` and ``weight``
    columns (e.g. inverse sampling probabilities of a stratified sample)."""
    weights: dict[str, float] = {}
    for line, row in read_rows(path, required=("source_id", "weight"), id_column="source_id"):
        try:
            value = float(row["weight"])
        except (TypeError, ValueError):
            value = float("nan")
        if not value > 0 or value == float("inf"):
            raise InputError(
                f"{path}:{line}: weight {row['weight']!r} is not a positive number",
                hint="give every source a positive weight",
            )
        weights[str(row["source_id"]).strip()] = value
    return weights
