"""The corpus file a ``guisekit corpus`` run writes, and :func:`read_corpus` for analysts.

A corpus row has nested columns (``spec``, ``edits``, ``params``, ``details``: the
Hinglish language tags live there) and, beside the nested spec, the spec's scalar fields
as flat columns (``direction``, ``kind``, ``style``, ``mix_ratio``, ...; the spec's
``version`` as ``transform_version``), so a filter needs no JSON. JSONL and Parquet keep
every value's type; CSV holds text, so :func:`read_corpus` decodes the nested columns,
reads an empty cell as null, the counts as integers and the flat spec columns from the
decoded spec; and every row gets every column (null where a JSONL row has none): the
same rows from every format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

from guisekit.errors import InputError, SourceError
from guisekit.tables import Format, detect_format, read_rows

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CORPUS_NAMES",
    "NESTED_COLUMNS",
    "ROW_COLUMNS",
    "corpus_path",
    "read_corpus",
    "spec_columns",
]

CORPUS_NAMES = ("corpus.jsonl", "corpus.csv", "corpus.parquet")
NESTED_COLUMNS = ("spec", "edits", "params", "details")
_INTEGER_COLUMNS = ("seed", "n_edits", "input_tokens", "output_tokens", "transform_version")
_SKIPPED = ("transform",)  # the row's transform column is the label (hinglish:0.5)
ROW_COLUMNS = (
    "source_id", "variant_id", "transform", "spec", "status", "reason", "text", "engine",
    "model", "prompt_id", "prompt_version", "input_tokens", "output_tokens", "seed",
    "n_edits", "edits", "params", "details", "persona",
)  # fmt: skip
"""The columns every corpus row has (``persona`` and the axis levels for persona
variants); a spec field of the same name becomes ``spec_<name>``."""


def spec_columns(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The flat columns of a dumped spec: every scalar field but ``transform``, with
    ``version`` as ``transform_version`` and a name the row already uses prefixed with
    ``spec_``."""
    renamed = {"version": "transform_version"}
    return {
        renamed.get(key, f"spec_{key}" if key in ROW_COLUMNS else key): value
        for key, value in spec.items()
        if key not in _SKIPPED and not isinstance(value, Mapping | list | tuple)
    }


def corpus_path(path: str | Path) -> Path:
    """The corpus file itself, or the one inside a ``guisekit corpus`` output folder."""
    path = Path(path)
    if not path.is_dir():
        return path
    found = [path / name for name in CORPUS_NAMES if (path / name).is_file()]
    if len(found) != 1:
        problem = "no corpus file" if not found else "more than one corpus file"
        raise InputError(
            f"{path}: {problem} in this folder",
            hint=f"pass the file itself ({', '.join(CORPUS_NAMES)})",
        )
    return found[0]


def _from_csv(row: dict[str, Any], path: Path, line: int) -> dict[str, Any]:
    out: dict[str, Any] = {key: (None if value == "" else value) for key, value in row.items()}
    for column in NESTED_COLUMNS:
        if isinstance(out.get(column), str):
            try:
                out[column] = json.loads(out[column])
            except json.JSONDecodeError as exc:
                raise SourceError(
                    f"column {column!r} is not JSON: {exc.msg}",
                    path=path,
                    line=line,
                    column=column,
                    hint="pass a corpus written by guisekit corpus",
                ) from None
    for column in _INTEGER_COLUMNS:
        if isinstance(out.get(column), str):
            try:
                out[column] = int(out[column])
            except ValueError:
                raise SourceError(
                    f"column {column!r} holds {out[column]!r}, not a whole number",
                    path=path,
                    line=line,
                    column=column,
                    hint="pass a corpus written by guisekit corpus",
                ) from None
    spec = out.get("spec")
    if isinstance(spec, Mapping):
        out.update({k: v for k, v in spec_columns(spec).items() if k in out})
    return out


@overload
def read_corpus(
    path: str | Path, *, as_frame: Literal[False] = False, fmt: Format | None = None
) -> list[dict[str, Any]]: ...
@overload
def read_corpus(
    path: str | Path, *, as_frame: Literal[True], fmt: Format | None = None
) -> pd.DataFrame: ...
def read_corpus(
    path: str | Path, *, as_frame: bool = False, fmt: Format | None = None
) -> list[dict[str, Any]] | pd.DataFrame:
    """The rows of a corpus (a file, or a ``guisekit corpus`` output folder), one dict per
    variant with the nested columns restored, in any output format; with ``as_frame=True``
    a pandas DataFrame of the same rows (the ``frames`` extra).

    >>> rows = read_corpus("out/quickstart")  # doctest: +SKIP
    >>> rows[0]["spec"]["transform"], rows[0]["details"]  # doctest: +SKIP
    ('identity', {})
    """
    file = corpus_path(path)
    kind = detect_format(file, fmt)
    read = read_rows(file, required=("source_id", "variant_id"), id_column="variant_id", fmt=kind)
    rows = [_from_csv(row, file, line) if kind == "csv" else row for line, row in read]
    columns = dict.fromkeys(key for row in rows for key in row)  # rectangular, as in CSV
    rows = [{key: row.get(key) for key in columns} for row in rows]
    if not as_frame:
        return rows
    from guisekit.frames import to_frame

    return to_frame(rows)
