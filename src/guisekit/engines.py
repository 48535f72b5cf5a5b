"""The engine contract and the one place that builds engines from config.

Callers hold :class:`Engine` objects and never branch on which one it is. An engine is
named in a config by an open name looked up in :data:`ENGINES` (``rules``, ``llm``; a
plugin adds its own). An ``llm`` config names one or more models ("banks"); each becomes
its own engine, so one plan gives an independent variant per spec and bank, while all
banks share the process's one runner on their cache (see :mod:`guisekit.backend`).

The contract is asynchronous (``async def run(tasks)``); blocking callers go through
:func:`run_engine`, the one sync edge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from pydantic import Field, model_validator

from guisekit.backend import DEFAULT_CACHE, BankSettings, open_backend
from guisekit.errors import ConfigError
from guisekit.models import EngineTask, Source, Variant
from guisekit.transforms import TransformSpec

__all__ = [
    "ENGINES",
    "Engine",
    "EngineConfig",
    "EngineTask",
    "make_engine",
    "make_engines",
    "run_engine",
    "usage_rows",
]

Progress = Callable[[int], None]


class Engine(Protocol):
    """Rewrites sources under transform specs."""

    name: str

    @property
    def config(self) -> dict[str, Any]:
        """What the output depends on besides spec and seed (part of every variant id)."""
        ...

    async def run(
        self, tasks: Sequence[EngineTask], seed: int = 0, progress: Progress | None = None
    ) -> list[Variant]:
        """Make a plan's variants, in task order; a failed task is a variant with status
        ``error`` (or ``refused``) and its reason, never a dropped one."""
        ...

    # Blocking conveniences both engines still offer; new callers use run_engine().
    def run_tasks(
        self, tasks: Sequence[EngineTask], seed: int = 0, progress: Progress | None = None
    ) -> list[Variant]: ...

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]: ...


def run_engine(
    engine: Engine, tasks: Sequence[EngineTask], seed: int = 0, progress: Progress | None = None
) -> list[Variant]:
    """Blocking :meth:`Engine.run`: the sync edge for the CLI and library callers.

    Runs on the process's one background event loop, which the provider clients' connection
    pools belong to (callable from any thread, including a web server's).
    """
    from guisekit.llm.loop import run_sync

    return run_sync(engine.run(tasks, seed, progress))


class EngineConfig(BankSettings):
    """Which engine to run and its settings (the ``engine:`` block of a corpus config).

    ``rules`` takes optional extra ``lexicons`` and persona ``profiles``. ``llm`` takes
    ``models`` (one bank each: ``provider:name`` strings or mappings with ``model:`` and
    parameters such as ``temperature``, ``rpm``, ``prices``), pinned prompt versions
    (``prompts: {persona: 1}``) and the bank settings every model job shares
    (:class:`~guisekit.backend.BankSettings`: ``cache``, ``runner``, ``mode``, ``batch``).
    """

    name: str = "rules"
    lexicons: tuple[str, ...] = ()
    profiles: str | None = None
    models: tuple[str | dict[str, Any], ...] = ()
    prompts: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _fits_engine(self) -> EngineConfig:
        if self.name not in ENGINES:
            raise ValueError(f"unknown engine {self.name!r} (known: {', '.join(sorted(ENGINES))})")
        if self.name == "llm" and not self.models:
            raise ValueError("the llm engine needs `models:` (e.g. [openai:gpt-4o-mini])")
        if self.name == "rules" and (
            self.models or self.runner or self.prompts or self.batch or self.mode != "online"
        ):
            raise ValueError("models, runner, prompts, mode and batch apply to `name: llm` only")
        return self


EngineFactory = Callable[[EngineConfig, Path, Callable[..., Any] | None], list[Engine]]


def _rules(
    config: EngineConfig, base: Path, chat_factory: Callable[..., Any] | None
) -> list[Engine]:
    from guisekit.rules import RulesEngine

    # paths in a config are relative to its file; a missing one is an error, never skipped
    lexicons = [_existing(base, p, "engine.lexicons", folder=True) for p in config.lexicons]
    profiles = (
        None if config.profiles is None else _existing(base, config.profiles, "engine.profiles")
    )
    return [RulesEngine(lexicons, profiles)]


def _existing(base: Path, value: str, where: str, *, folder: bool = False) -> str:
    path = Path(value) if Path(value).is_absolute() else (base / value).resolve()
    if not (path.is_dir() if folder else path.is_file()):
        kind = "folder" if folder else "file"
        raise ConfigError(
            f"{kind} not found: {path}",
            location=where,
            hint="paths in a config are relative to the config file",
        )
    return str(path)


def _llm(config: EngineConfig, base: Path, chat_factory: Callable[..., Any] | None) -> list[Engine]:
    from guisekit.extras import require

    require("llm", feature="the llm engine")
    from guisekit.llm.engine import LLMEngine
    from guisekit.llm.refs import parse_model

    refs = [parse_model(m) for m in config.models]
    banks = [r.bank for r in refs]  # one model under two settings is two banks
    if len(set(banks)) != len(banks):
        raise ConfigError(
            "the same model is listed twice with the same settings", location="engine.models"
        )
    cache = Path(config.cache or DEFAULT_CACHE)
    executor = open_backend(
        config, cache if cache.is_absolute() else base / cache, chat_factory, where="engine"
    )
    return [LLMEngine(ref, executor, config.prompts) for ref in refs]


ENGINES: dict[str, EngineFactory] = {"rules": _rules, "llm": _llm}
"""Engine name -> factory of its engines (one per bank)."""


def make_engines(
    config: EngineConfig,
    base: Path = Path("."),
    chat_factory: Callable[..., Any] | None = None,
) -> list[Engine]:
    """Every engine ``config`` names: the rules engine, or one LLM engine per bank.

    ``base`` resolves a relative cache path; ``chat_factory`` replaces the real chat
    clients (tests pass a fake keyed by input).
    """
    return ENGINES[config.name](config, base, chat_factory)


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
        runner = getattr(runner, "runner", runner)  # a batch runner wraps the online one
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
