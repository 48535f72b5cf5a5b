"""The engine contract and the one place that builds an engine from config.

Callers hold an :class:`Engine` and never branch on which one it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from guisekit.errors import ConfigError
from guisekit.models import Source, Variant
from guisekit.specs import TransformSpec

__all__ = ["Engine", "EngineConfig", "make_engine"]


class Engine(Protocol):
    """Rewrites sources under transform specs."""

    name: str

    @property
    def config(self) -> dict[str, Any]: ...

    def transform(self, source: Source, spec: TransformSpec, seed: int = 0) -> Variant: ...

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]: ...


class EngineConfig(BaseModel):
    """Which engine to run and its settings (the ``engine:`` block of a corpus config)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: Literal["rules", "llm"] = "rules"
    lexicons: tuple[str, ...] = ()
    profiles: str | None = None


def make_engine(config: EngineConfig) -> Engine:
    """Build the configured engine."""
    if config.name == "rules":
        from guisekit.rules import RulesEngine

        return RulesEngine(config.lexicons, config.profiles)
    raise ConfigError(
        "the llm engine is not available in this version",
        location="engine.name",
        hint="use `name: rules`",
    )
