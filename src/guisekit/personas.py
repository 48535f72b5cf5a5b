"""Persona axes and grids: which guises exist, as data.

The built-in grid (``lexicons/personas/grid.yaml``) crosses age, geography, education and
socio-economic status into 36 personas. A user grid is any YAML file in the same format.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guisekit.errors import ConfigError, InputError
from guisekit.resources import read_yaml

__all__ = ["Persona", "PersonaAxis", "PersonaGrid", "PersonaLevel", "load_grid"]

BUILTIN_GRID = "personas/grid.yaml"
PACKAGED_GRIDS = {"default": BUILTIN_GRID, "demographic": "personas/demographic.yaml"}
"""Grids shipped with guisekit, by the name a ``grid:`` setting may give instead of a path."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PersonaLevel(_Frozen):
    """One level of an axis, e.g. ``college`` on ``education``."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    description: str = Field(min_length=1)


class PersonaAxis(_Frozen):
    """A demographic axis with its ordered levels."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    levels: tuple[PersonaLevel, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_levels(self) -> PersonaAxis:
        names = [level.name for level in self.levels]
        if len(set(names)) != len(names):
            raise ValueError(f"axis {self.name!r} repeats a level name")
        return self

    def level(self, name: str) -> PersonaLevel:
        for level in self.levels:
            if level.name == name:
                return level
        known = ", ".join(lv.name for lv in self.levels)
        raise InputError(
            f"unknown level {name!r} for persona axis {self.name!r}",
            hint=f"use one of: {known}",
        )


class Persona(_Frozen):
    """One cell of a grid: a level on every axis, in axis order."""

    levels: tuple[tuple[str, str], ...]

    @property
    def id(self) -> str:
        """Readable id, levels joined in axis order: ``young-urban-college-low``."""
        return "-".join(level for _, level in self.levels)

    def as_dict(self) -> dict[str, str]:
        return dict(self.levels)


class PersonaGrid(_Frozen):
    """The axes that define a set of personas; the personas are their product."""

    axes: tuple[PersonaAxis, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_axes(self) -> PersonaGrid:
        names = [axis.name for axis in self.axes]
        if len(set(names)) != len(names):
            raise ValueError("grid repeats an axis name")
        return self

    def axis(self, name: str) -> PersonaAxis:
        for axis in self.axes:
            if axis.name == name:
                return axis
        known = ", ".join(a.name for a in self.axes)
        raise InputError(f"unknown persona axis {name!r}", hint=f"use one of: {known}")

    def personas(self) -> list[Persona]:
        """Every persona of the grid, in a stable order (axis order, level order)."""
        names = [axis.name for axis in self.axes]
        return [
            Persona(levels=tuple(zip(names, (lv.name for lv in combo), strict=True)))
            for combo in itertools.product(*(axis.levels for axis in self.axes))
        ]

    def persona(self, levels: Mapping[str, str] | str) -> Persona:
        """Validate a persona given as axis -> level mapping or as a readable id."""
        if isinstance(levels, str):
            parts = levels.split("-")
            if len(parts) != len(self.axes):
                raise InputError(
                    f"persona id {levels!r} has {len(parts)} levels, the grid has "
                    f"{len(self.axes)} axes",
                    hint="write one level per axis joined by '-', e.g. " + self.personas()[0].id,
                )
            levels = dict(zip((a.name for a in self.axes), parts, strict=True))
        if not isinstance(levels, Mapping):  # a null, a number, a nested list in a config
            raise InputError(
                f"persona {levels!r} is neither a persona id nor an axis -> level mapping",
                hint="use all, a persona id such as "
                + self.personas()[0].id
                + ", or a list of them",
            )
        extra = set(levels) - {a.name for a in self.axes}
        if extra:
            self.axis(sorted(extra)[0])
        missing = [a.name for a in self.axes if a.name not in levels]
        if missing:
            raise InputError(
                f"persona lacks a level for axis {missing[0]!r}",
                hint="give a level on every axis of the grid",
            )
        return Persona(levels=tuple((a.name, a.level(levels[a.name]).name) for a in self.axes))

    def describe(self, persona: Persona) -> list[str]:
        """The level descriptions of ``persona``, in axis order."""
        return [self.axis(axis).level(level).description for axis, level in persona.levels]


@functools.cache
def load_grid(path: str | Path | None = None) -> PersonaGrid:
    """The built-in 36-persona grid, a packaged grid by name (:data:`PACKAGED_GRIDS`:
    ``demographic`` gives the labelled demographics of the published protocol), or a user
    grid from a YAML file."""
    named = PACKAGED_GRIDS.get(str(path)) if isinstance(path, str) else None
    ref = BUILTIN_GRID if path is None else named or Path(path)
    data = read_yaml(ref)
    try:
        return PersonaGrid.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ConfigError(
            err["msg"],
            location=f"{ref}: {where}",
            hint="see lexicons/personas/grid.yaml for the format",
        ) from exc


@dataclass(frozen=True)
class AxisStatus:
    """What the rules engine does for one level of an axis (``guisekit personas``)."""

    axis: str
    level: str
    status: str


def axis_report(grid: PersonaGrid, profiles: str | Path | None = None) -> list[AxisStatus]:
    """Per axis level: the rules engine's features with their sources, or why the axis
    is unrealised (declared in the profiles file, or no features given)."""
    # imported here: the rules engine imports this module
    from guisekit.rules.engine import Feature, load_profiles

    inventory = load_profiles(profiles)
    rows = []
    for axis in grid.axes:
        if axis.name in inventory.unrealised:
            reason = " ".join(inventory.unrealised[axis.name].split())
            rows.append(AxisStatus(axis.name, "(all)", f"unrealised: {reason}"))
            continue
        for level in axis.levels:
            features = inventory.levels.get(axis.name, {}).get(level.name, {})
            if not features:
                rows.append(AxisStatus(axis.name, level.name, "unmarked (no features)"))
                continue
            parts = [
                f"{name} {f.rate:g} ({f.source})" if isinstance(f, Feature) else f"{name} {f:g}"
                for name, f in features.items()
            ]
            rows.append(AxisStatus(axis.name, level.name, "; ".join(parts)))
    return rows
