"""The engine contract and the one place that builds engines from config.

Callers hold :class:`Engine` objects and never branch on which one it is. An ``llm``
config names one or more models ("banks"); each becomes its own engine, so one plan gives
an independent variant per spec and bank, while all banks share one runner (cache, rate
limits, accounting).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.errors import ConfigError
from guisekit.models import Source, Variant
from guisekit.specs import TransformSpec

__all__ = [
    "Engine",
    "EngineConfig",
    "EngineTask",
    "make_engine",
    "make_engines",
    "usage_rows",
]

EngineTask = tuple[Source, TransformSpec, str]
"""A source, the spec to apply, and the variant id the plan gave the result."""
DEFAULT_CACHE = "llm-cache.sqlite"


class Engine(Protocol):
    """Rewrites sources under transform specs."""

    name: str

    @property
    def config(self) -> dict[str, Any]: ...

    def transform(self, source: Source, spec: TransformSpec, seed: int = 0) -> Variant: ...

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]: ...

    def run_tasks(
        self,
        tasks: Sequence[EngineTask],
        seed: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> list[Variant]:
        """Make a plan's variants (the LLM engine runs them concurrently); a failed task
        is a variant with status ``error`` and its reason, never a dropped one."""
        ...


class EngineConfig(BaseModel):
    """Which engine to run and its settings (the ``engine:`` block of a corpus config).

    ``rules`` takes optional extra ``lexicons`` and persona ``profiles``. ``llm`` takes
    ``models`` (one bank each: ``provider:name`` strings or mappings with ``model:`` and
    parameters such as ``temperature``, ``rpm``, ``prices``), the ``cache`` file, runner
    settings (``concurrency``, ``max_retries``, ``max_reasks``, ...) and pinned prompt
    versions (``prompts: {persona: 1}``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: Literal["rules", "llm"] = "rules"
    lexicons: tuple[str, ...] = ()
    profiles: str | None = None
    models: tuple[str | dict[str, Any], ...] = ()
    cache: str | None = None
    runner: dict[str, Any] = Field(default_factory=dict)
    mode: Literal["online", "batch"] = "online"
    batch: dict[str, Any] = Field(default_factory=dict)
    prompts: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _fits_engine(self) -> EngineConfig:
        if self.name == "llm" and not self.models:
            raise ValueError("the llm engine needs `models:` (e.g. [openai:gpt-4o-mini])")
        if self.name == "rules" and (
            self.models or self.runner or self.prompts or self.batch or self.mode != "online"
        ):
            raise ValueError("models, runner, prompts, mode and batch apply to `name: llm` only")
        return self


def make_engines(
    config: EngineConfig,
    base: Path = Path("."),
    chat_factory: Callable[..., Any] | None = None,
) -> list[Engine]:
    """Every engine ``config`` names: the rules engine, or one LLM engine per bank.

    ``base`` resolves a relative cache path; ``chat_factory`` replaces the real chat
    clients (tests pass a fake keyed by input).
    """
    if config.name == "rules":
        from guisekit.rules import RulesEngine

        return [RulesEngine(config.lexicons, config.profiles)]
    from pydantic import ValidationError

    from guisekit.llm import LLMEngine, LLMRunner, RunnerSettings, Store, make_chat_model
    from guisekit.llm.batch import BatchRunner, BatchSettings
    from guisekit.llm.refs import parse_model

    refs = [parse_model(m) for m in config.models]
    banks = [r.bank for r in refs]  # one model under two settings is two banks
    if len(set(banks)) != len(banks):
        raise ConfigError(
            "the same model is listed twice with the same settings", location="engine.models"
        )
    try:
        settings = RunnerSettings.model_validate(config.runner)
        batch_settings = BatchSettings.model_validate(config.batch)
    except ValidationError as exc:
        first = exc.errors()[0]
        block = (
            "runner" if first["loc"] and first["loc"][0] in RunnerSettings.model_fields else "batch"
        )
        raise ConfigError(
            first["msg"], location=f"engine.{block}.{'.'.join(map(str, first['loc']))}"
        ) from None
    cache = Path(config.cache or DEFAULT_CACHE)
    store = Store(cache if cache.is_absolute() else base / cache)
    runner = LLMRunner(store, settings, chat_factory or make_chat_model)
    executor = BatchRunner(runner, batch_settings) if config.mode == "batch" else runner
    return [LLMEngine(ref, executor, config.prompts) for ref in refs]


def make_engine(config: EngineConfig, base: Path = Path(".")) -> Engine:
    """The one engine ``config`` names (an llm config must name exactly one model)."""
    engines = make_engines(config, base)
    if len(engines) != 1:
        raise ConfigError(
            f"{len(engines)} models configured where one engine is needed",
            location="engine.models",
            hint="list a single model",
        )
    return engines[0]


def usage_rows(engines: Sequence[Engine]) -> list[dict[str, Any]]:
    """Calls, cache hits, tokens and cost per model so far (empty for the rules engine)."""
    tallies: dict[str, Any] = {}
    for engine in engines:
        runner = getattr(engine, "runner", None)
        tallies.update(getattr(runner, "tally", {}))
    return [
        {
            "model": model,
            "calls": tally.requests,
            "cached": tally.cached,
            "input_tokens": tally.input_tokens,
            "output_tokens": tally.output_tokens,
            "cost_usd": round(tally.cost, 4),
            **{
                status: tally.outcomes.get(status, 0)
                for status in ("ok", "refused", "truncated", "error")
            },
        }
        for model, tally in sorted(tallies.items())
    ]
