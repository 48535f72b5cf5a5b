"""One typed loader for the data shipped in ``lexicons/`` and ``prompts/``.

In a wheel the two folders live at ``guisekit/_data/`` and are read through
:mod:`importlib.resources`; in a source checkout (editable install, ``python cli.py``)
they are read from the repository root. Nothing is read at import time: each table is
parsed on first use and cached for the life of the process.

Data files carry their own documentation: leading ``# `` comment lines say what the file
holds and where it comes from, and TSV files then have one header row of column names.
User files given by path follow the same format.
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path, PurePath
from typing import Any, Literal

import yaml

from guisekit import safe_yaml
from guisekit.errors import ConfigError, ResourceError

__all__ = ["data_root", "read_config_file", "read_lines", "read_table", "read_text", "read_yaml"]

DataKind = Literal["lexicons", "prompts"]


def data_root(kind: DataKind) -> Traversable:
    """Folder holding the packaged ``lexicons`` or ``prompts``."""
    packaged = resources.files("guisekit").joinpath("_data").joinpath(kind)
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / kind
    if checkout.is_dir():
        return checkout
    raise ResourceError(
        f"packaged data folder {kind!r} not found",
        hint="reinstall guisekit; the wheel ships prompts/ and lexicons/",
    )


def _locate(ref: str | PurePath, kind: DataKind) -> Traversable | Path:
    """A user file (a :class:`~pathlib.Path`) or a packaged file (a relative name given as
    ``str`` or :class:`~pathlib.PurePosixPath`), never one for the other: a user file that
    does not exist is an error, not a silent fallback to packaged data of the same name."""
    if isinstance(ref, Path):
        if not ref.is_file():
            raise ResourceError(f"file not found: {ref}", hint="check the path")
        return ref
    parts = PurePath(ref).parts
    if not parts or PurePath(ref).is_absolute() or ".." in parts:
        raise ResourceError(
            f"not a packaged data name: {ref}", hint="pass a user file as a pathlib.Path"
        )
    target = data_root(kind)
    for part in parts:
        target = target.joinpath(part)
    return target


def read_text(ref: str | PurePath, kind: DataKind = "lexicons") -> str:
    """Whole text of a data file, packaged (relative name) or user-supplied (path)."""
    target = _locate(ref, kind)
    try:
        return target.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ResourceError(f"data file not found: {ref}", hint="check the name or path") from exc
    except UnicodeDecodeError as exc:
        raise ResourceError(
            f"data file is not valid UTF-8: {ref}", hint="re-save as UTF-8"
        ) from exc


def _strip_comments(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


@functools.cache
def read_lines(ref: str | PurePath, kind: DataKind = "lexicons") -> tuple[str, ...]:
    """Non-comment, non-blank lines of a ``.txt`` list, stripped."""
    return tuple(ln.strip() for ln in _strip_comments(read_text(ref, kind)))


@functools.cache
def read_table(
    ref: str | PurePath, columns: Sequence[str], kind: DataKind = "lexicons"
) -> tuple[tuple[str, ...], ...]:
    """Rows of a TSV file whose header must be exactly ``columns``.

    Returns tuples in column order; a wrong header or a short/long row is a
    :class:`ResourceError` naming the file and line.
    """
    lines = _strip_comments(read_text(ref, kind))
    if not lines:
        raise ResourceError(f"{ref}: empty table", hint=f"expected header {list(columns)}")
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter="\t", quoting=csv.QUOTE_NONE)
    header, *rows = list(reader)
    if tuple(header) != tuple(columns):
        raise ResourceError(
            f"{ref}: header is {header}, expected {list(columns)}",
            hint="fix the header row of the TSV file",
        )
    for number, row in enumerate(rows, start=2):
        if len(row) != len(columns) or any(not cell.strip() for cell in row):
            raise ResourceError(
                f"{ref}: data row {number} has {len(row)} fields, expected {len(columns)}",
                hint="use one tab between fields and fill every field",
            )
    return tuple(tuple(cell.strip() for cell in row) for row in rows)


@functools.cache
def _read_yaml_cached(ref: str | PurePath, kind: DataKind) -> Any:
    try:
        return safe_yaml.load(read_text(ref, kind))
    except yaml.YAMLError as exc:
        raise ResourceError(f"{ref}: malformed YAML: {safe_yaml.describe(exc)}") from None


def read_yaml(ref: str | PurePath, kind: DataKind = "lexicons") -> Any:
    """Parsed YAML document (cached; treat as read-only)."""
    return _read_yaml_cached(ref, kind)


def read_config_file(path: str | Path, what: str, name: str = "config file") -> dict[str, Any]:
    """A user's YAML (or JSON) config file as a mapping, read afresh (the user may edit it
    between runs). A missing file, bad encoding, malformed YAML or a top level that is not
    a mapping is a :class:`~guisekit.errors.ConfigError` naming the file; ``what``
    describes what the mapping should hold ("a mapping of audit settings") and ``name``
    the kind of file ("engine config")."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path}: {name} not found", hint="check the path")
    try:
        data = safe_yaml.load(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid UTF-8", hint="re-save the file as UTF-8") from None
    except yaml.YAMLError as exc:
        raise ConfigError(
            f"{path}: malformed YAML: {safe_yaml.describe(exc)}", hint="fix the YAML syntax"
        ) from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected {what}")
    return data
