"""Decision tasks: the prompt that asks a decision, its answer type and label values.

Tasks are data (``prompts/decide/tasks.yaml``): a labelled task has a fixed, ordered set of
labels, each mapped to the numeric outcome ``gaps`` analyses (remedy tier 0/1/2, rating
1-10); a numeric task asks for one number in a declared unit and range.
"""

from __future__ import annotations

import functools
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guisekit.errors import ConfigError
from guisekit.resources import read_yaml

__all__ = ["DecisionTask", "LabelOption", "load_task", "task_names"]

TASKS_FILE = "decide/tasks.yaml"


class LabelOption(BaseModel):
    """One answer option: the label the model writes, its numeric value, what it means."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    label: str = Field(min_length=1)
    value: float
    description: str = ""


class DecisionTask(BaseModel):
    """A decision asked of the model under audit."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    prompt: str
    kind: Literal["labelled", "numeric"]
    description: str = ""
    labels: tuple[LabelOption, ...] = ()
    unit: str = ""
    fixed_order: bool = False
    minimum: float | None = None
    maximum: float | None = None

    @model_validator(mode="after")
    def _consistent(self) -> DecisionTask:
        if self.kind == "labelled" and len(self.labels) < 2:
            raise ValueError("a labelled task needs at least two labels")
        if self.kind == "numeric" and self.labels:
            raise ValueError("a numeric task has no labels")
        names = [o.label for o in self.labels]
        if len(set(names)) != len(names):
            raise ValueError("labels must be distinct")
        return self

    def label_names(self) -> tuple[str, ...]:
        return tuple(o.label for o in self.labels)

    def value_of(self, label: str) -> float:
        for option in self.labels:
            if option.label == label:
                return option.value
        raise ConfigError(f"task {self.name!r} has no label {label!r}")

    def in_range(self, value: float) -> bool:
        low = self.minimum if self.minimum is not None else float("-inf")
        high = self.maximum if self.maximum is not None else float("inf")
        return low <= value <= high


@functools.cache
def _tasks() -> dict[str, DecisionTask]:
    data = read_yaml(TASKS_FILE, kind="prompts")
    if not isinstance(data, dict):
        raise ConfigError(f"{TASKS_FILE}: expected a mapping of task name to task")
    out = {}
    for name, body in data.items():
        try:
            out[name] = DecisionTask.model_validate({"name": name, **body})
        except (ValidationError, TypeError) as exc:
            raise ConfigError(f"{TASKS_FILE}: task {name!r}: {exc}".splitlines()[0]) from None
    return out


def task_names() -> tuple[str, ...]:
    return tuple(_tasks())


def load_task(name: str) -> DecisionTask:
    """The packaged task ``name``; a one-line error lists the known ones."""
    try:
        return _tasks()[name]
    except KeyError:
        raise ConfigError(
            f"unknown decision task {name!r}", hint=f"known tasks: {', '.join(task_names())}"
        ) from None
