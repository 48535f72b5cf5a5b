"""Reading the data files of a grid (YAML, JSON, JSONL, CSV) without changing any value.

A benchmark's files are read as their authors wrote them: a CGPA of ``8.70``, a profile id
``007`` or a year ``2024`` stay those exact strings, because they end up verbatim in the
prompts and the output. So numbers in JSON and JSONL keep their literal spelling, and the
YAML loader resolves only null (no ints, floats, booleans or dates): every other scalar
is a string.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import yaml

from guisekit import safe_yaml
from guisekit.errors import ConfigError

__all__ = ["SUFFIX_FORMATS", "lookup", "missing", "read_data", "read_mapping", "scalar_text"]

SUFFIX_FORMATS = {
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".yaml": "yaml",
    ".yml": "yaml",
}
_DROPPED_TAGS = {
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:timestamp",
}


class _TextLoader(yaml.SafeLoader):
    """SafeLoader that leaves every scalar but null as the string written in the file."""


_TextLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in _DROPPED_TAGS]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _json(text: str) -> Any:
    return json.loads(text, parse_int=str, parse_float=str, parse_constant=str)


def _jsonl(path: Path, text: str) -> list[Any]:
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(_json(line))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}:{number}: malformed JSON line: {exc.msg}") from None
    return rows


def _csv_rows(path: Path, text: str) -> list[dict[str, str]]:
    reader = csv.DictReader(text.splitlines())
    rows = []
    for row in reader:
        if None in row:
            raise ConfigError(
                f"{path}:{reader.line_num}: row has more fields than the header",
                hint="quote fields that contain commas",
            )
        rows.append({k: v or "" for k, v in row.items()})
    return rows


def read_data(path: Path, fmt: str | None = None) -> Any:
    """The parsed document (YAML/JSON) or list of rows (CSV/JSONL) of ``path``.

    ``fmt`` (csv, json, jsonl, yaml) overrides the suffix. A missing, undecodable or
    malformed file raises :class:`ConfigError` naming it.
    """
    if not path.is_file():
        raise ConfigError(f"{path}: file not found", hint="paths are relative to the config")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid UTF-8", hint="re-save the file as UTF-8") from None
    kind = fmt or SUFFIX_FORMATS.get(path.suffix.lower())
    try:
        if kind == "csv":
            return _csv_rows(path, text)
        if kind == "json":
            return _json(text)
        if kind == "jsonl":
            return _jsonl(path, text)
        if kind == "yaml":
            return safe_yaml.load(text, _TextLoader)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{path}: malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: malformed YAML: {safe_yaml.describe(exc)}") from None
    except csv.Error as exc:
        raise ConfigError(f"{path}: malformed file: {str(exc).splitlines()[0]}") from None
    raise ConfigError(
        f"{path}: unknown file type {path.suffix!r}", hint="use .yaml, .json, .jsonl or .csv"
    )


def read_mapping(path: Path) -> dict[str, Any]:
    """A YAML/JSON file whose top level must be a mapping (a config, a template file)."""
    data = read_data(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return data


_MISSING = object()


def lookup(record: Any, key: str) -> Any:
    """``record[key]``, or for a dotted key the nested value (``education.cgpa``); a key
    that exists literally (dots included) wins. Returns a private sentinel when absent."""
    if isinstance(record, dict) and key in record:
        return record[key]
    value = record
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return _MISSING
        value = value[part]
    return value


def missing(value: Any) -> bool:
    """Whether :func:`lookup` found nothing."""
    return value is _MISSING


def scalar_text(value: Any) -> str | None:
    """A scalar as the text it shows in a prompt (``true``/``false`` as JSON spells them);
    None for null and for lists or mappings, which have no single spelling."""
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip()
