"""Field mappings: read a benchmark's own identifier and profile files, in their own layout.

A grid config may name its identifier table and its profiles by path alone (guisekit's own
layout, see :mod:`guisekit.grid.config`) or by a mapping that says where each field sits
in someone else's file, so a published benchmark is read as it is, with no converter::

    identifiers:
      path: data/identifiers.json     # {"Religion": {"Hindu": {"english": ..., "hinglish": ...}}}
      format: nested
      phrase_keys: {en: english, hinglish: hinglish}
    profiles:
      path: data/profiles.json        # [{"profile_id": "P01", "institution": ..., "cgpa": 8.7}]
      fields: {id: profile_id, institution: institution, cgpa: cgpa}

Formats: ``csv`` and ``jsonl`` hold one record per row; ``json`` and ``yaml`` hold a list
of records; ``nested`` is a JSON or YAML document keyed by name: identifiers as
``{axis: {value: {key: ...}}}`` (or ``{axis: [records]}``), profiles as
``{profile_id: {key: ...}}``. ``root`` is the dotted key under which the data sits when it
is not the whole document. A key may be dotted to reach into a record
(``education.cgpa``). Every key a mapping names must be present in every record: a
mapping that does not fit its file is an error naming the record and the key, never a
silently empty value. Values are read as written (see :mod:`guisekit.grid.files`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from guisekit.errors import ConfigError
from guisekit.grid.files import SUFFIX_FORMATS, lookup, missing, read_data, scalar_text
from guisekit.grid.ids import slugify

__all__ = ["IdentifierSource", "ProfileSource", "read_identifier_source", "read_profile_source"]

SourceFormat = Literal["csv", "json", "jsonl", "yaml", "nested"]
_SYNTAX = {"csv": "csv", "jsonl": "jsonl", "json": "json", "yaml": "yaml"}
_SLOT_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_-]*$")


class _Source(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    path: str = Field(min_length=1)
    format: SourceFormat | None = None
    root: str | None = None


class IdentifierSource(_Source):
    """Where the axis, the value and each language's phrase sit in an identifier file.

    ``phrase_keys`` maps each language to the key of its phrase (default: the language
    code itself); ``third_party_keys`` likewise for phrases worded differently about a
    third party. For records, ``axis_key`` and ``value_key`` name the keys of the axis and
    the identifier; for ``nested`` files the axis and (for ``{value: {...}}``) the value
    are the keys of the document, and ``value_key`` names the value in ``{axis: [records]}``.
    """

    axis_key: str = "axis"
    value_key: str = "value"
    phrase_keys: dict[str, str] | None = None
    third_party_keys: dict[str, str] = Field(default_factory=dict)
    name: str | None = None


class ProfileSource(_Source):
    """Which key of a profile record fills which template slot.

    ``fields`` maps a slot name to a key, or to ``{language: key}`` for a value worded per
    language; ``id`` names the key of the profile id (for ``nested`` files the document's
    keys are the ids). Without ``fields`` every key of a record but the id is a slot.
    """

    fields: dict[str, str | dict[str, str]] | None = None


def _where(path: Path, index: int, label: str | None = None) -> str:
    return f"{path}: record {index}" + (f" ({label})" if label else "")


def _load(source: _Source, path: Path, shape: str) -> tuple[str, Any]:
    """(format, data under ``root``) with the format checked against the data's shape."""
    syntax = SUFFIX_FORMATS.get(path.suffix.lower())
    fmt = source.format or syntax
    if fmt is None:
        raise ConfigError(
            f"{path}: cannot tell the format from the suffix {path.suffix!r}",
            hint="set format: csv, json, jsonl, yaml or nested",
        )
    if fmt == "nested" and syntax not in ("json", "yaml"):
        raise ConfigError(f"{path}: format nested needs a .json or .yaml file")
    data = read_data(path, _SYNTAX.get(fmt, syntax))
    if source.root:
        data = lookup(data, source.root)
        if missing(data):
            raise ConfigError(f"{path}: no key {source.root!r} (root) in the file")
    if source.format is None and fmt in ("json", "yaml") and isinstance(data, dict):
        fmt = "nested"  # {name: {...}} without a declared format
    if fmt == "nested" and not isinstance(data, dict):
        raise ConfigError(
            f"{path}: format nested expects {shape}, found a {type(data).__name__}",
            hint="use format: json for a list of records",
        )
    if fmt != "nested" and not isinstance(data, list):
        raise ConfigError(
            f"{path}: expected a list of records, found a {type(data).__name__}",
            hint="set root: to the key that holds the list, or format: nested",
        )
    return fmt, data


def _text(record: Any, key: str, where: str) -> str:
    """The value of a mapped key, as written; missing keys and non-scalars are errors."""
    if not isinstance(record, dict):
        raise ConfigError(f"{where}: expected a mapping of fields, found {record!r:.60}")
    value = lookup(record, key)
    if missing(value):
        present = ", ".join(map(str, record)) or "none"
        raise ConfigError(
            f"{where}: no key {key!r} (keys: {present})", hint="fix the key in the mapping"
        )
    if isinstance(value, (dict, list)):
        raise ConfigError(f"{where}: key {key!r} holds a {type(value).__name__}, not a value")
    return scalar_text(value) or ""


def _by_language(record: Any, keys: dict[str, str], where: str) -> dict[str, str]:
    found = {language: _text(record, key, where) for language, key in keys.items()}
    return {language: text for language, text in found.items() if text}


def read_identifier_source(
    source: IdentifierSource, path: Path, languages: tuple[str, ...]
) -> dict[str, Any]:
    """The identifier set a mapped file describes, ready for ``IdentifierSet`` validation."""
    fmt, data = _load(source, path, "{axis: {identifier: {...}}}")
    phrase_keys = source.phrase_keys or {language: language for language in languages}
    entries: list[tuple[str, str, Any, str]] = []  # axis, value, record, where
    if fmt == "nested":
        for axis, block in data.items():
            if isinstance(block, dict):
                for value, record in block.items():
                    entries.append((axis, value, record, f"{path}: {axis} / {value}"))
            elif isinstance(block, list):
                for index, record in enumerate(block, start=1):
                    where = f"{path}: {axis} / record {index}"
                    entries.append((axis, _text(record, source.value_key, where), record, where))
            else:
                raise ConfigError(
                    f"{path}: axis {axis!r} holds a {type(block).__name__}; expected a mapping "
                    "of identifiers or a list of records"
                )
    else:
        for index, record in enumerate(data, start=1):
            where = _where(path, index)
            axis = _text(record, source.axis_key, where)
            value = _text(record, source.value_key, where)
            entries.append((axis, value, record, _where(path, index, f"{axis} / {value}")))
    identifiers = []
    for axis, value, record, where in entries:
        identifiers.append(
            {
                "axis": str(axis),
                "value": str(value),
                "phrases": _by_language(record, phrase_keys, where),
                "third_party": _by_language(record, source.third_party_keys, where),
            }
        )
    try:
        name = slugify(source.name or path.stem)
    except ValueError:
        name = "identifiers"
    axes = dict.fromkeys((item["axis"] for item in identifiers), "")
    return {"name": name, "axes": axes, "identifiers": identifiers}


def _profile_slots(
    record: Any, source: ProfileSource, id_key: str | None, where: str
) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise ConfigError(f"{where}: expected a mapping of fields, found {record!r:.60}")
    slots: dict[str, Any] = {}
    if source.fields is None:
        for key, value in record.items():
            if key == id_key:
                continue
            if not _SLOT_NAME.match(str(key)):
                raise ConfigError(
                    f"{where}: key {key!r} cannot be a template slot name",
                    hint=f"map it under profiles.fields, e.g. {{my_slot: {key!r}}}",
                )
            if isinstance(value, dict):
                per_language = {lang: scalar_text(v) for lang, v in value.items()}
                slots[key] = {lang: v for lang, v in per_language.items() if v}
            elif (text := scalar_text(value)) is not None and text:
                slots[key] = text
        return slots
    for slot, key in source.fields.items():
        if slot == "id":
            continue
        if isinstance(key, dict):
            slots[slot] = _by_language(record, key, where)
        elif text := _text(record, key, where):
            slots[slot] = text
    return {slot: value for slot, value in slots.items() if value}


def read_profile_source(source: ProfileSource, path: Path) -> list[dict[str, Any]]:
    """Profiles (id and slots) as a mapped file describes them, ready for validation."""
    fmt, data = _load(source, path, "{profile_id: {...}}")
    id_key = source.fields.get("id") if source.fields else "id"
    if isinstance(id_key, dict):
        raise ConfigError(f"{path}: fields.id must name one key, not one per language")
    profiles = []
    if fmt == "nested":
        if source.fields is not None and "id" in source.fields:
            raise ConfigError(
                f"{path}: a nested profile file takes each id from its key",
                hint="remove id from fields, or use format: json for a list of records",
            )
        for profile_id, record in data.items():
            where = f"{path}: {profile_id}"
            slots = _profile_slots(record, source, None, where)
            profiles.append({"id": str(profile_id), "slots": slots})
        return profiles
    if id_key is None:
        raise ConfigError(
            f"{path}: profiles.fields has no id entry",
            hint="name the key of the profile id, e.g. id: profile_id",
        )
    for index, record in enumerate(data, start=1):
        where = _where(path, index)
        profile_id = _text(record, id_key, where)
        slots = _profile_slots(record, source, id_key, _where(path, index, profile_id))
        profiles.append({"id": profile_id, "slots": slots})
    return profiles
