"""Presets: the settings of a published protocol, selected with one line of a config.

A preset (``lexicons/presets/<name>.yaml``) names, for each stage, what a published study
did: which prompt version each transform renders, the defaults of each transform (the
labelled-demographics persona grid, the amount a fact edit states), the audit prompt and
domain, the attribute set and scorer prompt, and the decision prompts. ``preset: paper``
in a corpus, audit or study config fills in those settings; a setting written in the
config itself always wins, so a preset is a starting point, never a hidden override.
Each preset also lists which published protocol element each setting encodes; the table
in ``prompts/README.md`` is checked against it.

Config readers call :func:`apply_preset` on the raw mapping before validating it.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guisekit.errors import ConfigError
from guisekit.resources import data_root, read_yaml

__all__ = [
    "AttributesPreset",
    "AuditPreset",
    "CorpusPreset",
    "DecidePreset",
    "Preset",
    "PresetElement",
    "apply_preset",
    "load_preset",
    "preset_names",
]

ConfigKind = Literal["corpus", "audit", "study"]
_FOLDER = "presets"
_STUDY_SECTIONS: tuple[Literal["corpus", "audit"], ...] = ("corpus", "audit")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CorpusPreset(_Strict):
    """Prompt versions pinned for the ``llm`` engine, and defaults per transform kind."""

    prompts: dict[str, int] = Field(default_factory=dict)
    transforms: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _known_transforms(self) -> CorpusPreset:
        from guisekit.transforms import names

        known = set(names())
        unknown = sorted((set(self.prompts) | set(self.transforms)) - known)
        if unknown:
            raise ValueError(
                f"unknown transform {unknown[0]!r} (known: {', '.join(sorted(known))})"
            )
        return self


class AuditPreset(_Strict):
    """Defaults of an audit config."""

    prompt_version: int | None = Field(default=None, ge=1)
    domain: str | None = None


class AttributesPreset(_Strict):
    """The attribute set and the scorer prompt version of a study's attributes stage."""

    attribute_set: str
    prompt_version: int = Field(ge=1)


class DecidePreset(_Strict):
    """The decision prompts of a study's decide stage (``prompts/decide/``)."""

    prompt: str
    version: int = Field(ge=1)
    label_prompt: str | None = None
    label_version: int | None = Field(default=None, ge=1)


class PresetElement(_Strict):
    """One row of the preset's documentation: a setting and the protocol element it encodes."""

    setting: str = Field(min_length=1)
    encodes: str = Field(min_length=1)


class Preset(_Strict):
    """A named set of defaults following one published protocol."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    description: str = Field(min_length=1)
    corpus: CorpusPreset = CorpusPreset()
    audit: AuditPreset = AuditPreset()
    attributes: AttributesPreset | None = None
    decide: DecidePreset | None = None
    elements: tuple[PresetElement, ...] = Field(min_length=1)


def preset_names() -> tuple[str, ...]:
    """Names of the packaged presets, sorted."""
    folder = data_root("lexicons").joinpath(_FOLDER)
    return tuple(
        sorted(e.name[: -len(".yaml")] for e in folder.iterdir() if e.name.endswith(".yaml"))
    )


@functools.cache
def load_preset(name: str) -> Preset:
    """The packaged preset ``name``; an unknown name is a :class:`ConfigError` listing the
    known ones."""
    known = preset_names()
    if name not in known:
        raise ConfigError(f"unknown preset {name!r}", hint=f"use one of: {', '.join(known)}")
    ref = f"{_FOLDER}/{name}.yaml"
    data = read_yaml(ref)
    try:
        preset = Preset.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise ConfigError(first["msg"], location=f"{ref}: {where}") from None
    if preset.name != name:
        raise ConfigError(f"{ref} declares the preset {preset.name!r}; it must be {name!r}")
    return preset


def apply_preset(
    kind: ConfigKind, data: Mapping[str, Any], where: str = "config"
) -> dict[str, Any]:
    """``data`` (a config mapping, not yet validated) with its ``preset:`` key replaced by
    the preset's settings for a ``kind`` config. Keys the config sets keep their values.

    A corpus config gets the preset's transform defaults on every matching entry and, for
    ``engine: {name: llm}``, its prompt versions under ``engine.prompts``; an audit config
    gets ``prompt_version`` and ``domain``; a study config passes the preset on to its
    ``corpus`` and ``audit`` sections (unless a section names its own preset). A config
    without ``preset:`` comes back as a copy, unchanged.
    """
    result = copy.deepcopy(dict(data))
    name = result.pop("preset", None)
    if kind == "study":
        for section in _STUDY_SECTIONS:
            part = result.get(section)
            if isinstance(part, Mapping):
                inner = {"preset": name, **part} if name is not None else dict(part)
                result[section] = apply_preset(section, inner, f"{where}: {section}")
        return result
    if name is None:
        return result
    if not isinstance(name, str):
        raise ConfigError("preset must be a name", location=f"{where}: preset")
    try:
        preset = load_preset(name)
    except ConfigError as exc:
        raise ConfigError(exc.message, location=f"{where}: preset", hint=exc.hint) from None
    if kind == "corpus":
        _apply_corpus(preset.corpus, result)
    else:
        defaults = preset.audit.model_dump(exclude_none=True)
        result = {**defaults, **result}
    return result


def _apply_corpus(preset: CorpusPreset, config: dict[str, Any]) -> None:
    engine = config.get("engine")
    if isinstance(engine, dict) and engine.get("name") == "llm" and preset.prompts:
        pinned = engine.get("prompts")
        engine["prompts"] = {**preset.prompts, **(pinned if isinstance(pinned, dict) else {})}
    for entry in config.get("transforms") or ():
        if isinstance(entry, dict):
            for key, value in preset.transforms.get(str(entry.get("transform")), {}).items():
                entry.setdefault(key, copy.deepcopy(value))
