"""The attribute table: one row per variant, its corpus columns and every attribute.

Measuring and tabulating are separate steps so each scoring path plugs in alone: the
objective path (:func:`objective_measurements`) and an LLM path (a function returning
one mapping of attribute -> :class:`~guisekit.attributes.scoring.AttributeScore` per
text) each give one entry per text, ``None`` for texts not measured, and
:func:`attribute_rows` merges them into the table. An LLM score becomes two columns,
``<name>`` (the score) and ``<name>_method`` (how it was obtained); a ``None`` value (no
score for that text) leaves both empty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from guisekit.attributes.objective import objective_attributes_batch
from guisekit.attributes.scoring import AttributeScore
from guisekit.errors import InputError

__all__ = ["Measured", "attribute_rows", "measurable_text", "objective_measurements"]

Measured = Mapping[str, float | AttributeScore | None]


def measurable_text(
    row: Mapping[str, Any], *, text_column: str, status_column: str = "status"
) -> str | None:
    """The row's text when it should be measured: a non-blank text of a variant whose
    status (if the corpus has one) is ``ok``; refused or failed variants give ``None``."""
    status = row.get(status_column, "ok")
    text = row.get(text_column)
    if status not in ("ok", None) or not isinstance(text, str) or not text.strip():
        return None
    return text


def objective_measurements(texts: Sequence[str | None]) -> list[dict[str, float] | None]:
    """Every objective measure of each text; ``None`` stays ``None``."""
    present = [i for i, text in enumerate(texts) if text is not None]
    measured = objective_attributes_batch(texts[i] or "" for i in present)
    out: list[dict[str, float] | None] = [None] * len(texts)
    for i, values in zip(present, measured, strict=True):
        out[i] = values.as_dict()
    return out


def _scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list, tuple))


def attribute_rows(
    rows: Sequence[Mapping[str, Any]],
    measurements: Sequence[Sequence[Measured | None]],
    *,
    drop_columns: Sequence[str] = ("text",),
) -> list[dict[str, Any]]:
    """Merge the corpus rows with each scoring path's measurements, row by row.

    Scalar corpus columns are kept (ids, transform, status, persona levels), nested ones
    (spec, edits, params) and ``drop_columns`` are not; every attribute column appears in
    every row, ``None`` where the text was not measured.
    """
    for part in measurements:
        if len(part) != len(rows):
            raise InputError("every scoring path must give one entry per row")
    flat: list[dict[str, Any]] = [{} for _ in rows]
    names: dict[str, None] = {}
    for part in measurements:
        for values, out in zip(part, flat, strict=True):
            for name, value in (values or {}).items():
                if isinstance(value, AttributeScore):
                    out[name], out[f"{name}_method"] = value.score, value.method
                else:
                    out[name] = value
        for out in flat:
            names.update(dict.fromkeys(out))
    table = []
    for row, values in zip(rows, flat, strict=True):
        kept = {k: v for k, v in row.items() if k not in drop_columns and _scalar(v)}
        table.append(kept | {name: values.get(name) for name in names})
    return table
