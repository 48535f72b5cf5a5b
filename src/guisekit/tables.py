"""Reading sources and writing results: JSONL, CSV and Parquet.

Reading validates as it goes and stops at the first bad row with its file and line
(1-based; for CSV the header is line 1, for Parquet the row number is used). Writing is
atomic: rows go to a temporary file in the target folder, which is renamed over the
target only when complete, so a crash or a bad row never leaves a half-written file and
an existing output is replaced only with ``overwrite=True``.
"""

from __future__ import annotations

import csv
import glob
import io
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from guisekit.errors import OutputError, SourceError
from guisekit.extras import require
from guisekit.models import Source

__all__ = [
    "DEFAULT_MAX_CHARS",
    "Format",
    "atomic_writer",
    "detect_format",
    "read_rows",
    "read_sources",
    "write_rows",
]

Format = Literal["jsonl", "csv", "parquet"]
DEFAULT_MAX_CHARS = 20_000
_SUFFIXES: dict[str, Format] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}


def detect_format(path: Path, fmt: Format | None = None) -> Format:
    """The explicit ``fmt``, or the one the file suffix names."""
    if fmt is not None:
        return fmt
    try:
        return _SUFFIXES[path.suffix.lower()]
    except KeyError:
        raise SourceError(
            f"cannot tell the format from the suffix {path.suffix!r}",
            path=path,
            hint="rename it to end in .jsonl, .csv or .parquet",
        ) from None


def _decode(raw: bytes, path: Path, line: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"invalid UTF-8 at byte {exc.start} of the line",
            path=path,
            line=line,
            hint="re-save the file as UTF-8",
        ) from None


def _jsonl_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            text = _decode(raw, path, number).strip()
            if number == 1:  # a byte-order mark, as some editors write (accepted for CSV too)
                text = text.removeprefix("\ufeff")
            if not text:
                continue
            try:
                row = json.loads(text)
            except json.JSONDecodeError as exc:
                raise SourceError(
                    f"malformed JSON line: {exc.msg} at column {exc.colno}",
                    path=path,
                    line=number,
                    hint="write one JSON object per line",
                ) from None
            if not isinstance(row, dict):
                raise SourceError(
                    "a JSON line must be an object",
                    path=path,
                    line=number,
                    hint='write one {"id": ..., "text": ...} object per line',
                )
            try:  # "\ud800" parses, but no later write can encode it
                json.dumps(row, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError as exc:
                raise SourceError(
                    f"a lone surrogate escape ({exc.object[exc.start]!r}) in a string",
                    path=path,
                    line=number,
                    hint="fix the \\u escape; surrogates must come in pairs",
                ) from None
            yield number, row


def _csv_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    raw = path.read_bytes()
    for number, line in enumerate(raw.split(b"\n"), start=1):
        _decode(line, path, number)  # name the first undecodable line exactly
    reader = csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline=""), strict=True)
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problem = str(exc)
            if "end of data" in problem:
                problem = "a quoted field starts here and is never closed"
            elif "field larger than field limit" in problem:
                problem = f"a field over {csv.field_size_limit():,} characters"
            raise SourceError(
                f"malformed CSV: {problem}",
                path=path,
                line=start,
                hint="close every quote; write a quote inside a quoted field as two quotes",
            ) from None
        if None in row:
            raise SourceError(
                "row has more fields than the header",
                path=path,
                line=reader.line_num,
                hint="quote fields that contain commas",
            )
        yield reader.line_num, dict(row)


def _parquet_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    require("parquet", feature="reading Parquet")
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several unrelated types for bad files
        raise SourceError(
            f"not a readable Parquet file: {exc}".splitlines()[0],
            path=path,
            hint="check the file was written completely",
        ) from None
    from guisekit.nested import restore_rows

    footer = pq.read_metadata(path).metadata
    yield from enumerate(restore_rows(table, footer), start=1)


def read_rows(
    path: str | Path,
    *,
    required: Sequence[str],
    text_columns: Sequence[str] = (),
    id_column: str | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    fmt: Format | None = None,
) -> list[tuple[int, dict[str, Any]]]:
    """Rows of a JSONL/CSV/Parquet file as ``(line, row)``, validated.

    Every ``required`` column must be present in every row; ``text_columns`` must hold
    non-blank strings of at most ``max_chars`` characters; ``id_column`` values must be
    unique. The first problem raises :class:`SourceError` naming the file and line.
    """
    path = Path(path)
    if not path.is_file():
        raise SourceError("file not found", path=path, hint="check the path")
    readers = {"jsonl": _jsonl_rows, "csv": _csv_rows, "parquet": _parquet_rows}
    rows = []
    seen: dict[str, int] = {}
    for number, row in readers[detect_format(path, fmt)](path):
        for column in required:
            if column not in row:
                present = ", ".join(sorted(row)) or "none"
                raise SourceError(
                    f"missing column {column!r} (columns: {present})",
                    path=path,
                    line=number,
                    column=column,
                    hint="point the command at the file's id and text columns",
                )
        for column in text_columns:
            _check_text(row[column], path=path, line=number, column=column, max_chars=max_chars)
        if id_column is not None:
            value = row[id_column]
            if not isinstance(value, str | int) or isinstance(value, bool):
                raise SourceError(
                    f"id {value!r} in column {id_column!r} is not a string or an integer",
                    path=path,
                    line=number,
                    column=id_column,
                    hint="give every row a text or whole-number id",
                )
            key = str(value).strip()
            if not key:
                raise SourceError(
                    f"empty id in column {id_column!r}",
                    path=path,
                    line=number,
                    column=id_column,
                    hint="give every row an id",
                )
            if key in seen:
                raise SourceError(
                    f"duplicate id {key!r} (first on line {seen[key]})",
                    path=path,
                    line=number,
                    column=id_column,
                    hint="make ids unique",
                )
            seen[key] = number
        rows.append((number, row))
    if not rows:
        raise SourceError("no rows", path=path, hint="the file must hold at least one row")
    return rows


def _check_text(value: Any, *, path: Path, line: int, column: str, max_chars: int) -> None:
    if not isinstance(value, str) or not value.strip():
        raise SourceError(
            f"empty or whitespace-only text in column {column!r}",
            path=path,
            line=line,
            column=column,
            hint="remove the row or fill in its text",
        )
    if len(value) > max_chars:
        raise SourceError(
            f"text in column {column!r} has {len(value):,} characters, over the limit of "
            f"{max_chars:,}",
            path=path,
            line=line,
            column=column,
            hint="split the text or raise --max-chars",
        )


def read_sources(
    path: str | Path,
    *,
    id_column: str = "id",
    text_column: str = "text",
    max_chars: int = DEFAULT_MAX_CHARS,
    fmt: Format | None = None,
) -> list[Source]:
    """Sources from a corpus file; every other column goes to ``meta``."""
    rows = read_rows(
        path,
        required=(id_column, text_column),
        text_columns=(text_column,),
        id_column=id_column,
        max_chars=max_chars,
        fmt=fmt,
    )
    return [
        Source(
            id=str(row[id_column]).strip(),
            text=row[text_column],
            meta={k: v for k, v in row.items() if k not in (id_column, text_column)},
        )
        for _, row in rows
    ]


def _refuse_clobber(target: Path, overwrite: bool) -> None:
    if target.is_symlink() and not target.exists():
        raise OutputError(
            f"{target} is a dangling symlink", hint="remove it or choose another path"
        )
    if target.is_dir():
        raise OutputError(f"{target} is a folder", hint="give a file path, e.g. out/report.jsonl")
    for parent in target.parents:
        if parent.exists() and not parent.is_dir():
            raise OutputError(f"{parent} is a file, not a folder", hint="choose another path")
    if target.exists() and not overwrite:
        raise OutputError(
            f"{target} already exists",
            hint="pass --overwrite to replace it, or choose another path",
        )


class atomic_writer:
    """Context manager yielding a temporary path that replaces ``target`` on success.

    Refuses to replace an existing ``target`` unless ``overwrite``, and a folder, a dangling
    symlink or a path under a file always; on an exception, or when the final replace
    fails, the temporary file is removed and ``target`` is untouched. Temporary files a
    killed run left beside ``target`` are removed first.
    """

    def __init__(self, target: str | Path, *, overwrite: bool = False) -> None:
        self.target = Path(target)
        self.overwrite = overwrite
        self._tmp: Path | None = None

    def __enter__(self) -> Path:
        _refuse_clobber(self.target, self.overwrite)
        try:
            self.target.parent.mkdir(parents=True, exist_ok=True)
            for stale in self.target.parent.glob(f".{glob.escape(self.target.name)}.*.tmp"):
                stale.unlink(missing_ok=True)
            fd, name = tempfile.mkstemp(
                prefix=f".{self.target.name}.", suffix=".tmp", dir=self.target.parent
            )
        except OSError as exc:
            raise OutputError(
                f"cannot write {self.target}: {exc.strerror or exc}",
                hint="choose a folder you can write to",
            ) from None
        os.close(fd)
        self._tmp = Path(name)
        return self._tmp

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if self._tmp is None:
            return
        if exc_type is not None:
            self._tmp.unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise OutputError(
                    f"cannot write {self.target}: {exc.strerror or exc}",
                    hint="nothing was replaced",
                ) from None
            return
        try:
            # mkstemp creates 0600 files; give the output the usual umask-derived mode.
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self._tmp, 0o666 & ~umask)
            os.replace(self._tmp, self.target)
        except OSError as error:
            self._tmp.unlink(missing_ok=True)
            raise OutputError(
                f"cannot write {self.target}: {error.strerror or error}",
                hint="nothing was replaced",
            ) from None


def _flat(value: Any) -> Any:
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return value


def write_rows(
    path: str | Path,
    rows: Iterable[Mapping[str, Any]],
    *,
    fmt: Format | None = None,
    overwrite: bool = False,
) -> Path:
    """Write rows atomically as JSONL (nested values kept), Parquet (nested values as
    native struct and list columns, see :mod:`guisekit.nested`) or CSV (nested values
    JSON-encoded into one column each)."""
    target = Path(path)
    kind = detect_format(target, fmt)
    if kind == "parquet":
        require("parquet", feature="writing Parquet")
    _refuse_clobber(target, overwrite)
    materialised = [dict(r) for r in rows]
    with atomic_writer(target, overwrite=overwrite) as tmp:
        if kind == "jsonl":
            with tmp.open("w", encoding="utf-8") as handle:
                for row in materialised:
                    handle.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
        elif kind == "csv":
            columns = _columns(materialised)
            with tmp.open("w", encoding="utf-8", newline="") as handle:
                writer = csv.DictWriter(handle, fieldnames=columns)
                writer.writeheader()
                for row in materialised:
                    writer.writerow({k: _flat(row.get(k)) for k in columns})
        else:
            import pyarrow.parquet as pq

            from guisekit.nested import arrow_table

            pq.write_table(arrow_table(materialised, _columns(materialised)), tmp)
    return target


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for row in rows:
        seen.update(dict.fromkeys(row))
    return list(seen)
