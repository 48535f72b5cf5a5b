"""Tables read and checked as columns (pyarrow + numpy), shared by the loaders that must
give exactly what the row reader (:func:`guisekit.tables.read_rows`) and a Python loop over
its rows would give, only faster: ``guisekit gelbach`` (:mod:`guisekit.gelbach.columns`)
and ``guisekit gaps`` (:mod:`guisekit.gaps.columns`).

The contract every caller keeps: a helper answers ``None`` whenever a value needs the row
path's judgement (a type pyarrow cannot read, a value that is not a clean number), and the
caller then runs the row path, which builds the same data or raises its one-line error.
Strings are handled once per distinct value through a dictionary encoding.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "column",
    "exact_rows",
    "first_order",
    "first_seen",
    "is_scalar",
    "is_string",
    "labels",
    "missing",
    "numbers",
    "read_table",
]


def read_table(path: Path) -> pa.Table | None:
    """The whole file as a pyarrow table, or ``None`` when pyarrow is not installed or its
    reader cannot read the file exactly as the row reader would (the caller then uses
    :func:`guisekit.tables.read_rows`, which names the problem if there is one)."""
    from guisekit.extras import has

    if not has("parquet") or not path.is_file():
        return None
    import pyarrow as pa

    suffix = path.suffix.lower()
    try:
        if suffix in (".parquet", ".pq"):
            import pyarrow.parquet as pq

            table = pq.read_table(path)
        elif suffix == ".csv":
            table = _read_csv(path)
        elif suffix in (".jsonl", ".ndjson"):
            import pyarrow.json as pj

            table = pj.read_json(path)
        else:
            return None
    except Exception:  # any reader problem: the row reader gives the exact message
        return None
    if table is None or table.num_rows == 0:
        return None
    try:
        names = table.column_names
        # Arrow's JSON and CSV readers pass bytes that are not UTF-8 into string columns
        # (and names); a full validation finds them, and the row reader names the line
        table.validate(full=True)
    except (UnicodeDecodeError, pa.ArrowInvalid):
        return None
    if len(set(names)) != len(names):
        return None
    return table


def _read_csv(path: Path) -> pa.Table | None:
    """Every CSV column as strings, as :class:`csv.DictReader` gives them ("" stays "")."""
    import csv

    import pyarrow as pa
    import pyarrow.csv as pc

    with path.open(encoding="utf-8-sig", newline="") as handle:
        header = next(csv.reader(handle), None)
    if not header:
        return None
    return pc.read_csv(
        path,
        parse_options=pc.ParseOptions(newlines_in_values=True),
        convert_options=pc.ConvertOptions(
            column_types={name: pa.string() for name in header},
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        ),
    )


def is_string(kind: pa.DataType) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind))


def is_scalar(kind: pa.DataType) -> bool:
    import pyarrow as pa

    return bool(
        is_string(kind)
        or pa.types.is_integer(kind)
        or pa.types.is_floating(kind)
        or pa.types.is_boolean(kind)
        or pa.types.is_null(kind)
    )


def column(table: pa.Table, name: str) -> pa.Array:
    """One column as a single array; an absent column reads as all nulls."""
    import pyarrow as pa

    if name not in table.column_names:
        return pa.nulls(table.num_rows)
    return table.column(name).combine_chunks()


def labels(
    values: pa.Array, blank: Literal["strip", "keep"] = "strip"
) -> tuple[np.ndarray, list[str]] | None:
    """Per row, the code of ``str(value)`` (-1 where the value is missing: null, or with
    ``blank="strip"`` a blank string), and the strings of the codes in order of first
    appearance; ``None`` for a column of nested values."""
    import pyarrow as pa

    if not is_scalar(values.type):
        return None
    if pa.types.is_null(values.type):
        return np.full(len(values), -1, dtype=np.int64), []
    encoded = values.dictionary_encode()
    if blank == "keep" and is_string(values.type):  # distinct strings already: no merging
        codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False)
        return np.asarray(codes, dtype=np.int64), encoded.dictionary.to_pylist()
    strings: dict[str, int] = {}
    remap = []
    for value in encoded.dictionary.to_pylist():
        missing = value is None or (
            blank == "strip" and isinstance(value, str) and not value.strip()
        )
        remap.append(-1 if missing else strings.setdefault(str(value), len(strings)))
    indices = encoded.indices.fill_null(len(remap)).to_numpy(zero_copy_only=False)
    lookup = np.array([*remap, -1], dtype=np.int64)
    return lookup[indices.astype(np.int64)], list(strings)


def missing(values: pa.Array, blank: Literal["strip", "empty"] = "strip") -> np.ndarray:
    """Where a numeric column has no value: null, or a blank string (``strip``: blank after
    removing ASCII whitespace, whose other whitespace fails the number parse and so goes to
    the row path; ``empty``: only the empty string)."""
    import pyarrow.compute as pc

    mask = values.is_null()
    if is_string(values.type):
        text = pc.ascii_trim_whitespace(values) if blank == "strip" else values
        mask = pc.or_(mask, pc.equal(text, ""))
    return np.asarray(mask.fill_null(True).to_numpy(zero_copy_only=False), dtype=bool)


def numbers(values: pa.Array, rows: np.ndarray) -> np.ndarray | None:
    """``float(value)`` of the selected rows, or ``None`` when one is not a finite number
    (the row path names it)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if rows.size == 0:
        return np.empty(0, dtype=np.float64)
    kind = values.type
    if not (
        is_string(kind)
        or pa.types.is_integer(kind)
        or pa.types.is_floating(kind)
        or pa.types.is_boolean(kind)
    ):
        return None
    chosen = values.take(pa.array(rows, type=pa.int64()))
    try:
        converted = pc.cast(chosen, pa.float64(), safe=True)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if converted.null_count:
        return None
    out = np.asarray(converted.to_numpy(zero_copy_only=False), dtype=np.float64)
    if not np.isfinite(out).all():
        return None
    return out


def first_order(codes: np.ndarray, size: int) -> np.ndarray:
    """The distinct codes (each in ``0..size-1``) in order of first appearance, in linear
    time: writing every position in reverse leaves each code its first one."""
    first = np.full(max(size, 1), codes.size, dtype=np.int64)
    first[codes[::-1]] = np.arange(codes.size - 1, -1, -1, dtype=np.int64)
    present = np.flatnonzero(first < codes.size)
    ordered: np.ndarray = present[np.argsort(first[present], kind="stable")]
    return ordered


def first_seen(codes: np.ndarray, names: Sequence[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Codes renumbered in order of first appearance, as ``group_codes`` numbers them."""
    order = first_order(codes, len(names))
    renumber = np.empty(max(len(names), 1), dtype=np.int64)
    renumber[order] = np.arange(order.size)
    return renumber[codes], tuple(names[i] for i in order)


def exact_rows(path: Path, table: pa.Table, indices: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Rows ``indices`` of ``table`` (``path`` as :func:`read_table` read it) exactly as the
    row reader gives them: a JSONL row is its own line (a key absent from the line stays
    absent, and the keys keep the line's order, which Arrow's union of all lines loses), a
    Parquet row has its nested values restored (:mod:`guisekit.nested`), a CSV row is its
    strings. For the few rows whose keys or nested values a loader must see as written."""
    wanted = sorted(set(indices))
    if not wanted:
        return {}
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        found: dict[int, dict[str, Any]] = {}
        row = -1
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                text = raw.decode("utf-8").strip()
                if number == 1:
                    text = text.removeprefix("\ufeff")
                if not text:
                    continue  # the row reader and Arrow both skip blank lines
                row += 1
                if row in wanted:
                    found[row] = json.loads(text)
                    if row == wanted[-1]:
                        break
        return found
    if suffix in (".parquet", ".pq"):
        import pyarrow.parquet as pq

        from guisekit.nested import restore_rows_at

        return restore_rows_at(table, pq.read_metadata(path).metadata, wanted)
    return {i: table.slice(i, 1).to_pylist()[0] for i in wanted}
