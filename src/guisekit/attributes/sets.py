"""Attribute sets as data: which attributes a text is scored on, and what each level means.

An attribute set is a YAML file (the packaged ones live in ``lexicons/attributes/``): every
LLM-scored attribute has a name, a family (delivery, structure or content), a description
of the property and a definition of its three levels, so a scorer prompt and a reader of
the results see the same scale. The set also assigns the objective measures
(:mod:`guisekit.attributes.objective`) to families, so a Gelbach decomposition can sum
every attribute into delivery, structure and content from the set alone.

Users bring their own set for another domain by path; a file that does not validate
raises :class:`~guisekit.errors.ConfigError` naming the attribute and the field.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guisekit.attributes.objective import ObjectiveMeasure
from guisekit.errors import ConfigError
from guisekit.resources import read_yaml

__all__ = [
    "BUILTIN_SETS",
    "FAMILIES",
    "LEVELS",
    "AnswerLabels",
    "AttributeDefinition",
    "AttributeSet",
    "Family",
    "LevelDefinitions",
    "LevelName",
    "load_attribute_set",
]

Family = Literal["delivery", "structure", "content"]
LevelName = Literal["low", "medium", "high"]
FAMILIES: tuple[Family, ...] = get_args(Family)
LEVELS: tuple[LevelName, ...] = get_args(LevelName)
BUILTIN_SETS = ("complaints", "complaints_paper", "interviews")

_NAME = r"^[a-z][a-z0-9_]*$"


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LevelDefinitions(_Frozen):
    """What a low, a medium and a high value of the attribute look like in a text."""

    low: str = Field(min_length=1)
    medium: str = Field(min_length=1)
    high: str = Field(min_length=1)


class AttributeDefinition(_Frozen):
    """One LLM-scored attribute: its family, the property it measures and its levels."""

    name: str = Field(pattern=_NAME)
    family: Family
    property: str = Field(min_length=1)
    levels: LevelDefinitions


class AnswerLabels(_Frozen):
    """Spellings of each level a scorer's answer (or answer token) may use.

    Matching ignores case, surrounding whitespace and punctuation. A label may belong to
    one level only, so a token never counts towards two levels.
    """

    low: tuple[str, ...] = Field(default=("low",), min_length=1)
    medium: tuple[str, ...] = Field(default=("medium",), min_length=1)
    high: tuple[str, ...] = Field(default=("high",), min_length=1)

    @model_validator(mode="after")
    def _disjoint(self) -> AnswerLabels:
        seen: dict[str, str] = {}
        for level in LEVELS:
            for label in getattr(self, level):
                key = label.strip().casefold()
                if not key:
                    raise ValueError(f"level {level!r} has an empty label")
                if seen.setdefault(key, level) != level:
                    raise ValueError(f"label {label!r} is given for both {seen[key]} and {level}")
        return self

    def lookup(self) -> dict[str, LevelName]:
        """Normalised label -> level."""
        return {
            label.strip().casefold(): level for level in LEVELS for label in getattr(self, level)
        }


class AttributeSet(_Frozen):
    """A named, versioned set of attributes with the family of every measure it uses."""

    name: str = Field(pattern=_NAME)
    version: int = Field(ge=1)
    description: str = Field(min_length=1)
    attributes: tuple[AttributeDefinition, ...] = Field(min_length=1)
    objective: dict[ObjectiveMeasure, Family] = Field(default_factory=dict)
    answer_labels: AnswerLabels = AnswerLabels()

    @model_validator(mode="after")
    def _unique_names(self) -> AttributeSet:
        seen: set[str] = set()
        for attribute in self.attributes:
            if attribute.name in seen:
                raise ValueError(f"attribute {attribute.name!r} is defined twice")
            if attribute.name in self.objective:
                raise ValueError(
                    f"attribute {attribute.name!r} has the name of an objective measure"
                )
            seen.add(attribute.name)
        return self

    def attribute(self, name: str) -> AttributeDefinition:
        """The LLM-scored attribute called ``name``."""
        for attribute in self.attributes:
            if attribute.name == name:
                return attribute
        known = ", ".join(a.name for a in self.attributes)
        raise ConfigError(
            f"attribute set {self.name!r} has no attribute {name!r}", hint=f"known: {known}"
        )

    def families(self) -> dict[str, Family]:
        """Family of every measure the set covers: LLM-scored attributes, then objective."""
        return {a.name: a.family for a in self.attributes} | dict(self.objective)

    def family_of(self, item: str, location: str) -> tuple[str, str]:
        """Name and family of one ``name`` or ``name=family`` item of a Gelbach attribute
        list (``--attributes`` or a study's ``gelbach.attributes``, named by ``location``):
        a family written out must be one of FAMILIES, and a bare name needs one in the set."""
        name, _, family = item.partition("=")
        name, family = name.strip(), family.strip()
        if family and family not in FAMILIES:
            raise ConfigError(
                f"attribute {name!r}: unknown family {family!r}",
                location=location,
                hint=f"use one of {', '.join(FAMILIES)}",
            )
        if not family and name not in self.families():
            raise ConfigError(
                f"attribute {name!r} has no family in the set {self.name!r}",
                location=location,
                hint=f"write it as {name}=delivery, {name}=structure or {name}=content",
            )
        return name, family or self.families()[name]


def _location(ref: str | Path, data: Any, loc: tuple[int | str, ...]) -> str:
    """``file: attribute 'name': field.path`` for an error inside ``attributes``."""
    if len(loc) >= 2 and loc[0] == "attributes" and isinstance(loc[1], int):
        name: object = f"#{loc[1] + 1}"
        items = data.get("attributes") if isinstance(data, dict) else None
        if isinstance(items, list) and loc[1] < len(items) and isinstance(items[loc[1]], dict):
            name = items[loc[1]].get("name", name)
        field = ".".join(str(p) for p in loc[2:]) or "(the entry itself)"
        return f"{ref}: attribute {name!r}: {field}"
    return f"{ref}: " + (".".join(str(p) for p in loc) or "(top level)")


def _resolve(ref: str | Path) -> str | Path:
    if isinstance(ref, str) and ref in BUILTIN_SETS:
        return f"attributes/{ref}.yaml"
    path = Path(ref)
    if not path.is_file():
        raise ConfigError(
            f"attribute set {str(ref)!r} is neither a packaged set nor a file",
            hint=f"use one of {', '.join(BUILTIN_SETS)} or the path of a YAML file",
        )
    return path


@functools.cache
def load_attribute_set(ref: str | Path = "complaints") -> AttributeSet:
    """A packaged attribute set by name (``complaints``, ``interviews``) or a user file."""
    source = _resolve(ref)
    data = read_yaml(source)
    try:
        return AttributeSet.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ConfigError(
            first["msg"],
            location=_location(source, data, tuple(first["loc"])),
            hint="see lexicons/attributes/complaints.yaml for the format",
        ) from exc
