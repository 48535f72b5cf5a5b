"""The inputs of a Gelbach decomposition as validated arrays, and how to build them from rows.

Rows are variants: an outcome, the persona levels, the attributes and the source id. The
focal regressor is a persona contrast (``education`` = ``college`` vs ``high_school``, or
several levels at once, one dummy each) or a numeric column. Rows outside the contrast or
with a missing value are left out and counted, so a report says what was used.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.errors import InputError
from guisekit.gelbach.clusters import FloatArray, IntArray, group_codes

__all__ = ["FocalContrast", "GelbachData"]


class FocalContrast(BaseModel):
    """How the focal regressor(s) come from a column.

    With ``levels``, one 0/1 dummy per level, against ``base_levels`` (rows at any other
    level are left out) or, when ``base_levels`` is empty, against every other level.
    Without ``levels`` the column itself is the (numeric) focal regressor.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    column: str = Field(min_length=1)
    levels: tuple[str, ...] = ()
    base_levels: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> FocalContrast:
        if self.base_levels and not self.levels:
            raise ValueError("base levels need focal levels to contrast with")
        if set(self.levels) & set(self.base_levels):
            raise ValueError("a level cannot be both focal and base")
        if len(set(self.levels)) != len(self.levels):
            raise ValueError("a focal level is repeated")
        return self

    def names(self) -> tuple[str, ...]:
        """Names of the focal regressors: ``column=level`` per dummy, or the column."""
        return tuple(f"{self.column}={level}" for level in self.levels) or (self.column,)


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _number(value: Any, row: int, column: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(
            f"row {row}, column {column!r}: {value!r} is not a number",
            hint="the outcome, attributes and a numeric focal column must hold numbers",
        ) from None
    if not math.isfinite(number):
        raise InputError(f"row {row}, column {column!r}: {value!r} is not finite")
    return number


def _check_levels_seen(seen: Mapping[str, int], focal: FocalContrast) -> None:
    for level in (*focal.levels, *focal.base_levels):
        if level not in seen:
            known = ", ".join(sorted(seen)) or "none"
            raise InputError(
                f"level {level!r} never occurs in column {focal.column!r}",
                hint=f"levels present: {known}",
            )


@dataclass(frozen=True)
class GelbachData:
    """Validated arrays: outcome ``y`` (n), ``focal`` (n x k1), ``attributes`` (n x k2) and
    the source of every row; ``families`` gives each attribute's family."""

    y: FloatArray
    focal: FloatArray
    attributes: FloatArray
    sources: IntArray
    source_labels: tuple[Hashable, ...]
    outcome: str
    focal_names: tuple[str, ...]
    attribute_names: tuple[str, ...]
    families: tuple[str, ...]
    left_out: Mapping[str, int] = field(default_factory=dict)
    controls: FloatArray | None = None
    control_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n = self.y.shape[0]
        if self.focal.shape != (n, len(self.focal_names)):
            raise InputError("focal array does not match the rows and focal names")
        if self.attributes.shape != (n, len(self.attribute_names)):
            raise InputError("attribute array does not match the rows and attribute names")
        if len(self.families) != len(self.attribute_names):
            raise InputError("give one family per attribute")
        if self.sources.shape != (n,):
            raise InputError("give one source per row")
        k0 = 0 if self.controls is None else self.controls.shape[1]
        if k0 != len(self.control_names) or (
            self.controls is not None and self.controls.shape[0] != n
        ):
            raise InputError("control array does not match the rows and control names")
        names = (self.outcome, *self.focal_names, *self.attribute_names)
        if len(set(names)) != len(names):
            raise InputError("outcome, focal and attribute names must be distinct")
        if not self.attribute_names:
            raise InputError("no attributes to decompose the gap into")
        if n == 0:
            raise InputError("no rows left to decompose", hint="check the focal levels")
        for name, values in (
            ("outcome", self.y),
            ("focal", self.focal),
            ("attribute", self.attributes),
        ):
            if not np.isfinite(values).all():
                raise InputError(f"{name} values must be finite numbers", hint="drop NaN rows")

    @property
    def n_sources(self) -> int:
        return len(self.source_labels)

    @classmethod
    def from_arrays(
        cls,
        *,
        y: Sequence[float] | FloatArray,
        focal: Sequence[Sequence[float]] | FloatArray,
        attributes: Sequence[Sequence[float]] | FloatArray,
        sources: Sequence[Hashable],
        outcome: str,
        focal_names: Sequence[str],
        families: Mapping[str, str],
    ) -> GelbachData:
        """Arrays given directly; ``families`` maps each attribute column, in order."""
        codes, labels = group_codes(sources)
        focal_array = np.asarray(focal, dtype=np.float64)
        if focal_array.ndim == 1:
            focal_array = focal_array[:, None]
        return cls(
            y=np.asarray(y, dtype=np.float64),
            focal=focal_array,
            attributes=np.asarray(attributes, dtype=np.float64),
            sources=codes,
            source_labels=tuple(labels),
            outcome=outcome,
            focal_names=tuple(focal_names),
            attribute_names=tuple(families),
            families=tuple(families.values()),
        )

    @classmethod
    def from_rows(
        cls,
        rows: Iterable[Mapping[str, Any]],
        *,
        outcome: str,
        focal: FocalContrast,
        families: Mapping[str, str],
        source: str,
        controls: Sequence[str] = (),
    ) -> GelbachData:
        """Build from row mappings (numbers may be strings, as read from CSV).

        Rows whose focal level is missing or outside the contrast are counted under
        ``outside_contrast``; rows missing the outcome or an attribute under
        ``missing_values``. ``controls`` are categorical columns (other persona axes)
        entered as one dummy per non-first level in both models, never as mediators.
        A missing source id or a non-number raises
        :class:`~guisekit.errors.InputError` naming the row (1-based) and column.
        """
        numeric = (outcome, *families)
        wanted = set(focal.levels) | set(focal.base_levels)
        y: list[float] = []
        x1: list[list[float]] = []
        x2: list[list[float]] = []
        labels: list[Hashable] = []
        control_values: list[list[str]] = []
        left_out = {"outside_contrast": 0, "missing_values": 0}
        rows_seen: dict[str, int] = {}
        for number, row in enumerate(rows, start=1):
            for column in (source, focal.column, *numeric, *controls):
                if column not in row:
                    raise InputError(
                        f"row {number}: no column {column!r} (columns: {', '.join(sorted(row))})",
                        hint="name the columns with --outcome/--focal-column/--attributes",
                    )
            if _missing(row[source]):
                raise InputError(f"row {number}: empty source id in column {source!r}")
            level = row[focal.column]
            if not _missing(level):
                rows_seen[str(level)] = rows_seen.get(str(level), 0) + 1
            if _missing(level) or (focal.base_levels and str(level) not in wanted):
                left_out["outside_contrast"] += 1
                continue
            if any(_missing(row[column]) for column in (*numeric, *controls)):
                left_out["missing_values"] += 1
                continue
            if focal.levels:
                x1.append([float(str(level) == wanted_level) for wanted_level in focal.levels])
            else:
                x1.append([_number(level, number, focal.column)])
            y.append(_number(row[outcome], number, outcome))
            x2.append([_number(row[column], number, column) for column in families])
            labels.append(str(row[source]))
            control_values.append([str(row[column]) for column in controls])
        if focal.levels:
            _check_levels_seen(rows_seen, focal)
        codes, source_labels = group_codes(labels)
        k1, k2 = len(focal.names()), len(families)
        dummies, dummy_names = _dummies(control_values, controls)
        return cls(
            y=np.asarray(y, dtype=np.float64),
            focal=np.asarray(x1, dtype=np.float64).reshape(len(y), k1),
            attributes=np.asarray(x2, dtype=np.float64).reshape(len(y), k2),
            sources=codes,
            source_labels=tuple(source_labels),
            outcome=outcome,
            focal_names=focal.names(),
            attribute_names=tuple(families),
            families=tuple(families.values()),
            left_out=left_out,
            controls=dummies,
            control_names=dummy_names,
        )


def _dummies(
    values: Sequence[Sequence[str]], columns: Sequence[str]
) -> tuple[FloatArray | None, tuple[str, ...]]:
    """One 0/1 column per level after the first (sorted) of each control column."""
    if not columns:
        return None, ()
    blocks, names = [], []
    for j, column in enumerate(columns):
        levels = sorted({row[j] for row in values})
        for level in levels[1:]:
            blocks.append([float(row[j] == level) for row in values])
            names.append(f"{column}={level}")
    if not blocks:
        return None, ()
    return np.asarray(blocks, dtype=np.float64).T.reshape(len(values), len(blocks)), tuple(names)
