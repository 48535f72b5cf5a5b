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
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "METADATA_KEY",
    "Inexact",
    "NestedEncoder",
    "arrow_table",
    "restore_rows",
    "restore_rows_at",
]

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


class Inexact(Exception):
    """A nested column that would not read back as written (raised while encoding)."""

    def __init__(self, column: str) -> None:
        super().__init__(column)
        self.column = column


def _infer(values: list[Any]) -> Any:
    """The Arrow type of a nested column's values, ``"empty"`` for all-empty mappings, or
    None when Arrow cannot type them (or they need a struct without fields)."""
    import pyarrow as pa

    if all(v == {} for v in values):  # Parquet has no struct without fields
        return "empty"
    try:
        kind = pa.array(values).type
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError):
        return None
    return None if _empty_struct(kind) else kind


class NestedEncoder:
    """Encode rows batch by batch into one Arrow schema, nested columns native.

    Feed every batch to :meth:`observe` first (types are widened across batches), then
    every batch, in order, to :meth:`encode`; :meth:`metadata` is the fill record to
    store with the file. :meth:`encode` raises :class:`Inexact` naming a column that
    would not read back as written; mark it with :meth:`as_json` and encode again."""

    def __init__(self, columns: Sequence[str]) -> None:
        self.columns = list(columns)
        self.kinds: dict[str, Any] = {}
        self.json: set[str] = set()
        self.nested: set[str] = set()
        self._reset()

    def _reset(self) -> None:
        self.patterns: dict[str, dict[tuple[Path_, ...], int]] = {}
        self.runs: dict[str, list[list[int]]] = {}

    def observe(self, rows: Sequence[Mapping[str, Any]]) -> None:
        import pyarrow as pa

        for column in self.columns:
            values = [_plain(row.get(column)) for row in rows]
            if any(isinstance(v, dict | list) for v in values):
                self.nested.add(column)
            if column in self.json:
                continue
            kind = _infer(values) if column in self.nested else None
            if column in self.nested and kind is None:
                self.json.add(column)
                continue
            if kind is None:  # scalar: Arrow's own inference
                try:
                    kind = pa.array(values).type
                except (pa.ArrowInvalid, pa.ArrowTypeError):
                    kind = pa.string()  # let encode raise Arrow's own error
            self.kinds[column] = self._widen(column, self.kinds.get(column), kind)

    def _widen(self, column: str, old: Any, new: Any) -> Any:
        import pyarrow as pa

        if old is None or old == new:
            return new
        if "empty" in (old, new):
            self.json.add(column)  # {} beside null or a struct: cannot be told apart
            return old
        try:
            merged = pa.unify_schemas(
                [pa.schema([("c", old)]), pa.schema([("c", new)])], promote_options="permissive"
            )
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            if column in self.nested:
                self.json.add(column)
                return old
            raise
        return merged.field("c").type

    def as_json(self, column: str) -> None:
        self.json.add(column)
        self._reset()

    def schema(self) -> Any:
        import pyarrow as pa

        fields = []
        for column in self.columns:
            kind = self.kinds.get(column, pa.null())
            if column in self.json:
                kind = pa.string()
            elif kind == "empty":
                kind = pa.null()
            fields.append(pa.field(column, kind))
        return pa.schema(fields)

    def encode(self, rows: Sequence[Mapping[str, Any]]) -> Any:
        import pyarrow as pa

        schema = self.schema()
        data = []
        for column in self.columns:
            values = [_plain(row.get(column)) for row in rows]
            if column in self.json:
                data.append(
                    pa.array(
                        [
                            None if v is None else json.dumps(v, ensure_ascii=False, sort_keys=True)
                            for v in values
                        ],
                        type=pa.string(),
                    )
                )
            elif self.kinds.get(column) == "empty":
                data.append(pa.nulls(len(values)))
            elif column in self.nested:
                array = pa.array(values, type=schema.field(column).type)
                self._record(column, values, array.to_pylist())
                data.append(array)
            else:
                data.append(pa.array(values, type=schema.field(column).type))
        return pa.Table.from_arrays(data, schema=schema)

    def _record(self, column: str, values: list[Any], stored: list[Any]) -> None:
        patterns = self.patterns.setdefault(column, {})
        runs = self.runs.setdefault(column, [])
        for original, back in zip(values, stored, strict=True):
            filled = _filled(original, back)
            if filled is None:
                raise Inexact(column)
            index = patterns.setdefault(tuple(filled), len(patterns))
            if runs and runs[-1][0] == index:
                runs[-1][1] += 1
            else:
                runs.append([index, 1])

    def metadata(self) -> dict[bytes, str]:
        native: dict[str, Any] = {}
        for column in sorted(self.nested - self.json):
            if self.kinds.get(column) == "empty":
                native[column] = {"empty": True}
                continue
            patterns = list(self.patterns.get(column, {}))
            if patterns in ([], [()]):
                native[column] = {}
            else:
                native[column] = {
                    "patterns": [list(map(list, p)) for p in patterns],
                    "runs": self.runs[column],
                }
        record = {"native": native, "json": sorted(self.json)}
        return {METADATA_KEY: json.dumps(record)}


def arrow_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> Any:
    """A ``pyarrow.Table`` of ``rows``: nested columns native where exact, else JSON."""
    encoder = NestedEncoder(columns)
    encoder.observe(rows)
    while True:
        try:
            table = encoder.encode(rows)
        except Inexact as exc:
            encoder.as_json(exc.column)
            continue
        return table.replace_schema_metadata(encoder.metadata())


def restore_rows(table: Any, footer: Mapping[bytes, bytes] | None = None) -> list[dict[str, Any]]:
    """The rows of a ``pyarrow.Table`` written by :func:`arrow_table` or a
    :class:`NestedEncoder`, as written (other Parquet files: as Arrow gives them).
    ``footer`` is the file's key-value metadata (where a streamed file keeps the record;
    ``pyarrow.parquet.read_metadata(path).metadata``)."""
    rows: list[dict[str, Any]] = table.to_pylist()
    _restore(table, footer, dict(enumerate(rows)))
    return rows


def restore_rows_at(
    table: Any, footer: Mapping[bytes, bytes] | None, indices: Sequence[int]
) -> dict[int, dict[str, Any]]:
    """Rows ``indices`` of ``table`` as :func:`restore_rows` gives them, converting only
    those rows (a columnar reader that needs a few rows as written)."""
    rows = {i: table.slice(i, 1).to_pylist()[0] for i in indices}
    _restore(table, footer, rows)
    return rows


def _restore(table: Any, footer: Mapping[bytes, bytes] | None, rows: dict[int, Any]) -> None:
    """Undo the encoding of the record in ``footer`` or ``table``'s schema, in place, on
    ``rows`` (row index in the table -> row)."""
    raw = (footer or {}).get(METADATA_KEY) or (table.schema.metadata or {}).get(METADATA_KEY)
    if raw is None:
        return
    record = json.loads(raw)
    for column in record.get("json", ()):
        for row in rows.values():
            if isinstance(row.get(column), str):
                row[column] = json.loads(row[column])
    indices = sorted(rows)
    for column, fills in record.get("native", {}).items():
        if fills.get("empty"):
            for row in rows.values():
                row[column] = {}
            continue
        if not fills:
            continue
        patterns, at = fills["patterns"], 0
        for index, count in fills["runs"]:
            if patterns[index]:
                first, last = bisect_left(indices, at), bisect_left(indices, at + count)
                for i in indices[first:last]:
                    _delete(rows[i][column], patterns[index])
            at += count
