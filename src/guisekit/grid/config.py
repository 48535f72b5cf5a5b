"""Grid configs and the data files they name, read into :class:`GridInputs`.

A config is a small YAML file naming its inputs; each input is a data file (YAML, JSON or
CSV) whose path is relative to the config's folder. The identifier table may instead be a
packaged set given by name (``india``, ``us``: ``lexicons/identifiers/<name>.yaml``), and
the identifiers and profiles may be given as a field mapping onto a benchmark's own files
(:mod:`guisekit.grid.sources`). ``order`` and ``id`` (:mod:`guisekit.grid.ids`) set the
row order and the id of each prompt, so a published grid can be reproduced row for row.

CSV files carry per-language values in ``<field>@<language>`` columns: ``phrase@en``,
``third_party@hinglish`` for identifiers, ``text@en`` for questions, and ``<slot>@<language>``
for a profile slot worded differently per language (a plain ``<slot>`` column holds a
value shared by every language).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from guisekit.errors import ConfigError, GuisekitError
from guisekit.grid.files import read_data, read_mapping
from guisekit.grid.ids import DEFAULT_ORDER, Factor, IdSpec, check_order, slugify
from guisekit.grid.model import GridInputs, IdentifierSet, Placement
from guisekit.grid.sources import (
    IdentifierSource,
    ProfileSource,
    read_identifier_source,
    read_profile_source,
)
from guisekit.resources import read_yaml

__all__ = ["GridConfig", "load_grid_config", "load_identifier_set", "resolve_inputs"]

_PACKAGED_SET = re.compile(r"^[a-z][a-z0-9_]*$")


class GridConfig(BaseModel):
    """A validated grid config; relative paths are resolved against ``base``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    identifiers: str | IdentifierSource
    axes: tuple[str, ...] | None = None
    profiles: str | ProfileSource
    templates: str
    questions: str
    languages: tuple[str, ...] = Field(min_length=1)
    placements: tuple[Placement, ...] | None = None
    order: tuple[Factor, ...] = DEFAULT_ORDER
    id: IdSpec | None = None
    output: str | None = None
    base: Path = Path(".")

    @field_validator("identifiers", "profiles", mode="before")
    @classmethod
    def _source(cls, value: Any, info: Any) -> Any:
        # Validated here rather than as a union, so an error names the mapping's own key
        # ("identifiers.phrase_keys") and not a union branch.
        if isinstance(value, dict):
            model = IdentifierSource if info.field_name == "identifiers" else ProfileSource
            return model.model_validate(value)
        return value

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, value: Any) -> Any:
        return {"template": value} if isinstance(value, str) else value

    @field_validator("order")
    @classmethod
    def _order(cls, order: tuple[str, ...]) -> tuple[Factor, ...]:
        return check_order(order)

    def path(self, value: str) -> Path:
        candidate = Path(value)
        return candidate if candidate.is_absolute() else (self.base / candidate).resolve()

    @property
    def output_path(self) -> Path | None:
        return None if self.output is None else self.path(self.output)


def _config_error(exc: ValidationError, where: str, hint: str) -> ConfigError:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return ConfigError(err["msg"], location=f"{where}: {loc}" if loc else where, hint=hint)


def load_grid_config(path: str | Path) -> GridConfig:
    """Read and validate a grid config file; errors name the file and key."""
    path = Path(path)
    data = read_mapping(path)
    try:
        return GridConfig.model_validate({**data, "base": path.resolve().parent})
    except ValidationError as exc:
        hint = "see examples/grid_salary.yaml and examples/grid_benchmark.yaml"
        raise _config_error(exc, str(path), hint) from None


def _by_language(row: dict[str, Any], field: str) -> dict[str, str]:
    """``{language: value}`` from a CSV row's non-empty ``field@language`` columns."""
    prefix = f"{field}@"
    return {
        key[len(prefix) :]: value.strip()
        for key, value in row.items()
        if key.startswith(prefix) and value and value.strip()
    }


def _identifier_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    items = []
    for row in rows:
        item: dict[str, Any] = {
            "axis": (row.get("axis") or "").strip(),
            "value": (row.get("value") or "").strip(),
            "phrases": _by_language(row, "phrase"),
            "third_party": _by_language(row, "third_party"),
        }
        if (row.get("placements") or "").strip():
            item["placements"] = tuple(row["placements"].split("|"))
        if (row.get("note") or "").strip():
            item["note"] = row["note"].strip()
        items.append(item)
    return items


def load_identifier_set(ref: str | Path, base: Path = Path(".")) -> IdentifierSet:
    """A packaged identifier set by name (``india``) or a set file by path."""
    ref_text = str(ref)
    local = Path(ref_text) if Path(ref_text).is_absolute() else base / ref_text
    if not local.exists() and _PACKAGED_SET.match(ref_text):
        where = f"identifiers/{ref_text}.yaml"
        try:
            data: Any = read_yaml(where)
        except GuisekitError:
            raise ConfigError(
                f"no packaged identifier set {ref_text!r}",
                hint="use india or us, or give the path of a set file",
            ) from None
    else:
        where = str(local)
        data = read_data(local)
        if isinstance(data, list):  # CSV: one identifier per row
            axes = dict.fromkeys((r.get("axis") or "").strip() for r in data)
            data = {"name": _set_name(local), "axes": dict.fromkeys(axes, ""), "identifiers": data}
            data["identifiers"] = _identifier_rows(data["identifiers"])
    try:
        return IdentifierSet.model_validate(data)
    except ValidationError as exc:
        hint = "see lexicons/identifiers/india.yaml for the format"
        raise _config_error(exc, where, hint) from None


def _set_name(path: Path) -> str:
    try:
        return slugify(path.stem)
    except ValueError:
        return "identifiers"


def _listed(data: Any, key: str) -> Any:
    """A YAML/JSON file may hold the list itself or a mapping with the list under ``key``."""
    return data[key] if isinstance(data, dict) and key in data else data


def _profiles(path: Path) -> list[Any]:
    data = _listed(read_data(path), "profiles")
    if path.suffix.lower() != ".csv":
        return list(data) if isinstance(data, list) else [data]
    profiles = []
    for row in data:
        slots: dict[str, Any] = {}
        for key, value in row.items():
            if key == "id" or value is None or not value.strip():
                continue
            slot, _, language = key.partition("@")
            if language:
                current = slots.get(slot)
                shared = current if isinstance(current, dict) else {}
                slots[slot] = {**shared, language: value.strip()}
            elif slot not in slots:
                slots[slot] = value.strip()
        profiles.append({"id": (row.get("id") or "").strip(), "slots": slots})
    return profiles


def _questions(path: Path) -> list[Any]:
    data = _listed(read_data(path), "questions")
    if path.suffix.lower() != ".csv":
        return list(data) if isinstance(data, list) else [data]
    return [
        {
            "id": (row.get("id") or "").strip(),
            "text": _by_language(row, "text"),
            "third_party": _by_language(row, "third_party"),
        }
        for row in data
    ]


def _path_text(ref: str | IdentifierSource | ProfileSource) -> str:
    return ref if isinstance(ref, str) else ref.path


def _identifiers(config: GridConfig) -> IdentifierSet:
    ref = config.identifiers
    if isinstance(ref, str):
        return load_identifier_set(ref, config.base)
    path = config.path(ref.path)
    data = read_identifier_source(ref, path, config.languages)
    try:
        return IdentifierSet.model_validate(data)
    except ValidationError as exc:
        raise _config_error(exc, str(path), "check identifiers: in the grid config") from None


def _profiles_of(config: GridConfig) -> list[Any]:
    ref = config.profiles
    if isinstance(ref, str):
        return _profiles(config.path(ref))
    return read_profile_source(ref, config.path(ref.path))


def _check_languages(languages: tuple[str, ...], templates: Any, where: str) -> None:
    """A language no template is written in rendered nothing, and the grid was then refused
    only by the parallel check (exit 1) with one line per missing prompt: name it here."""
    if not isinstance(templates, dict):
        return  # the model's validation names the file format
    known = sorted(
        {str(k) for by in templates.values() if isinstance(by, dict) for k in by}, key=str
    )
    unknown = [language for language in languages if language not in known]
    if unknown and known:
        raise ConfigError(
            f"unknown language {unknown[0]!r}: the templates in {where} are written in "
            f"{', '.join(known)}; pick from those or add a template for it",
            location="languages",
        )


def resolve_inputs(config: GridConfig) -> GridInputs:
    """Read every file a config names and validate them together."""
    identifiers = _identifiers(config)
    if config.axes is not None:
        try:
            identifiers = identifiers.select(config.axes)
        except ValueError as exc:
            raise ConfigError(str(exc), location="axes") from None
    templates_path = config.path(config.templates)
    templates = _listed(read_mapping(templates_path), "templates")
    if config.placements is not None and isinstance(templates, dict):
        templates = {p: t for p, t in templates.items() if p in config.placements}
    _check_languages(config.languages, templates, str(templates_path))
    pieces = {
        "name": config.name,
        "identifiers": identifiers,
        "profiles": _profiles_of(config),
        "templates": templates,
        "questions": _questions(config.path(config.questions)),
        "languages": config.languages,
        "order": config.order,
        "ids": config.id,
    }
    try:
        inputs = GridInputs.model_validate(pieces)
    except ValidationError as exc:
        err = exc.errors()[0]
        first = str(err["loc"][0]) if err["loc"] else ""
        source = {
            "profiles": _path_text(config.profiles),
            "templates": config.templates,
            "questions": config.questions,
        }
        where = source.get(first, "config")
        raise _config_error(exc, where, "see examples/grid_salary/ for the file formats") from None
    _check_wording(inputs, config)
    return inputs


def _check_wording(inputs: GridInputs, config: GridConfig) -> None:
    """An identifier or question with no wording in a language rendered no prompt for it,
    and the grid was refused only by the counts and parallel checks (exit 1, one line per
    missing prompt): name the first gap here, as bad input."""
    for language in inputs.languages:
        for item in inputs.identifiers.identifiers:
            if language not in item.phrases:
                raise ConfigError(
                    f"identifier {item.axis}/{item.value} has no phrase in {language!r}",
                    location="languages",
                    hint=f"add phrases.{language} to every identifier (identifiers: "
                    f"{_path_text(config.identifiers)}), or drop the language",
                )
        for question in inputs.questions:
            if language not in question.text:
                raise ConfigError(
                    f"question {question.id!r} has no text in {language!r}",
                    location="languages",
                    hint=f"add it to {config.questions}, or drop the language",
                )
