"""Nested values in Parquet as native struct and list columns, read back exactly.

A corpus row carries nested values (``spec``, ``edits``, ``details`` with the Hinglish
language tags). Stored as JSON strings, a Parquet reader sees opaque text (issue #17,
defect 19); stored natively, Arrow gives every row's struct the union of all rows' keys,
so an identity spec would read back with ``mix_ratio: null`` and fail its own validation.

So the writer stores each nested column natively and records, in the file's key-value
metadata under ``guisekit.nested``, which keys the union *filled in* for which rows (as
a few distinct patterns plus a run-length list of each row's pattern); the reader deletes
exactly those, and only those, so a real ``null`` survives. A column Arrow cannot type
(a key that is a number in one row and a string in another, an empty struct, an added
key inside a list item) is stored as JSON text instead (a column of empty mappings as
nulls, marked as such), named in the same metadata, and
decoded on reading. Either way, reading gives the values that were written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["METADATA_KEY", "arrow_table", "restore_rows"]

METADATA_KEY = b"guisekit.nested"
Path_ = tuple[str, ...]


def _plain(value: Any) -> Any:
    """Tuples as lists, as every reader gives them back."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _filled(original: Any, stored: Any, path: Path_ = ()) -> list[Path_] | None:
    """Paths of the keys Arrow added to ``original`` (each holding null in ``stored``), or
    None when deleting such keys cannot give ``original`` back."""
    if isinstance(original, Mapping) and isinstance(stored, Mapping):
        found: list[Path_] = []
        for key, value in stored.items():
            if key not in original:
                if value is not None:
                    return None
                found.append((*path, key))
                continue
            inner = _filled(original[key], value, (*path, key))
            if inner is None:
                return None
            found += inner
        return found if set(original) <= set(stored) else None
    return [] if original == stored else None


def _delete(value: Any, paths: Sequence[Sequence[str]]) -> Any:
    for path in paths:
        node = value
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return value


def _empty_struct(kind: Any) -> bool:
    import pyarrow as pa

    if pa.types.is_struct(kind):
        return kind.num_fields == 0 or any(_empty_struct(f.type) for f in kind)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return _empty_struct(kind.value_type)
    return False


def _native(values: list[Any]) -> tuple[Any, dict[str, Any]] | None:
    """The Arrow array of a nested column and its fill record, or None when it cannot be
    stored natively and read back exactly."""
    import pyarrow as pa

    if all(v == {} for v in values):  # Parquet has no struct without fields
        return pa.nulls(len(values)), {"empty": True}
    try:
        array = pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError):
        return None
    if _empty_struct(array.type):
        return None
    patterns: dict[tuple[Path_, ...], int] = {}
    runs: list[list[int]] = []
    for original, stored in zip(values, array.to_pylist(), strict=True):
        filled = _filled(original, stored)
        if filled is None:
            return None
        index = patterns.setdefault(tuple(filled), len(patterns))
        if runs and runs[-1][0] == index:
            runs[-1][1] += 1
        else:
            runs.append([index, 1])
    if list(patterns) == [()]:
        return array, {}
    return array, {"patterns": [list(map(list, p)) for p in patterns], "runs": runs}


def arrow_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> Any:
    """A ``pyarrow.Table`` of ``rows``: nested columns native where exact, else JSON."""
    import pyarrow as pa

    data: dict[str, Any] = {}
    record: dict[str, Any] = {"native": {}, "json": []}
    for column in columns:
        values = [_plain(row.get(column)) for row in rows]
        if not any(isinstance(v, dict | list) for v in values):
            data[column] = values
            continue
        native = _native(values)
        if native is None:
            data[column] = [
                None if v is None else json.dumps(v, ensure_ascii=False, sort_keys=True)
                for v in values
            ]
            record["json"].append(column)
        else:
            data[column], record["native"][column] = native
    table = pa.table(data) if data else pa.table({})
    return table.replace_schema_metadata({METADATA_KEY: json.dumps(record)})


def restore_rows(table: Any) -> list[dict[str, Any]]:
    """The rows of a ``pyarrow.Table`` written by :func:`arrow_table`, as written (other
    Parquet files: as Arrow gives them)."""
    rows: list[dict[str, Any]] = table.to_pylist()
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    if raw is None:
        return rows
    record = json.loads(raw)
    for column in record.get("json", ()):
        for row in rows:
            if isinstance(row.get(column), str):
                row[column] = json.loads(row[column])
    for column, fills in record.get("native", {}).items():
        if fills.get("empty"):
            for row in rows:
                row[column] = {}
            continue
        if not fills:
            continue
        patterns, at = fills["patterns"], 0
        for index, count in fills["runs"]:
            if patterns[index]:
                for row in rows[at : at + count]:
                    _delete(row[column], patterns[index])
            at += count
    return rows
