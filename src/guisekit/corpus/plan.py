"""Corpus configs and the plan they expand into.

A config names the sources, the engine, a seed, the transforms and the output. Each
transform entry is a spec whose list-valued parameters are expanded as a grid
(``direction: [hedged, confident]`` gives two specs); ``personas: all`` (or a list of
persona ids) expands a persona entry over a grid. The plan is every source crossed with
every spec on every engine (an ``llm`` config with two models has two banks), each task
keyed by its stable variant id.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from guisekit.engines import Engine, EngineConfig
from guisekit.errors import ConfigError, validate
from guisekit.extras import require
from guisekit.models import Source
from guisekit.personas import PACKAGED_GRIDS
from guisekit.presets import apply_preset
from guisekit.resources import read_config_file
from guisekit.tables import DEFAULT_MAX_CHARS, Format, read_sources
from guisekit.transforms import TransformSpec, get, label_of, parse_spec

__all__ = ["CorpusConfig", "Plan", "Task", "build_plan", "load_config"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourcesConfig(_Strict):
    path: str
    id_column: str = "id"
    text_column: str = "text"
    max_chars: int = Field(default=DEFAULT_MAX_CHARS, gt=0)
    limit: int | None = Field(default=None, gt=0, description="Use only the first N sources.")


class OutputConfig(_Strict):
    dir: str
    format: Literal["jsonl", "csv", "parquet"] = "jsonl"


class CorpusConfig(_Strict):
    """A validated corpus config; relative paths are resolved against ``base``."""

    sources: SourcesConfig
    engine: EngineConfig = EngineConfig()
    seed: int = Field(default=0, ge=0)
    transforms: list[dict[str, Any]] = Field(min_length=1)
    output: OutputConfig
    base: Path = Path(".")

    def path(self, value: str) -> Path:
        candidate = Path(value)
        return candidate if candidate.is_absolute() else (self.base / candidate).resolve()

    @property
    def output_dir(self) -> Path:
        return self.path(self.output.dir)

    @property
    def output_format(self) -> Format:
        return self.output.format


def load_config(path: str | Path) -> CorpusConfig:
    """Read and validate a corpus config; errors name the file and the key."""
    path = Path(path)
    data = read_config_file(path, "a mapping with sources, transforms and output")
    data = apply_preset("corpus", data, where=str(path))  # `preset: paper` fills in defaults
    config = validate(
        CorpusConfig,
        {**data, "base": path.resolve().parent},
        where=f"{path}:",
        hint="see examples/quickstart.yaml for a complete config",
    )
    if config.output.format == "parquet":  # before any work, not after the run
        require("parquet", feature="output.format: parquet")
    return config


class Task(_Strict):
    """One variant to make: a source under a spec on one engine (bank), with its stable id."""

    key: str
    source_id: str
    spec: TransformSpec
    bank: int = 0


class Plan(BaseModel):
    """Every task of a run, in a stable order (bank, then source, then spec order).

    The tasks are not stored: a million-variant plan is its sources, its specs and one
    engine config per bank, and :meth:`iter_tasks` (or :meth:`variant_keys`, per source)
    makes tasks on demand. :attr:`tasks` lists them all, for small plans."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    sources: dict[str, Source]
    specs: list[TransformSpec]
    engine_configs: list[dict[str, Any]]
    """Each bank's engine config (part of its variant ids)."""
    seed: int
    duplicates: list[str] = []
    """Specs given more than once (after normalisation: ``factor: [10, 10.0]``), each kept
    once; one line per duplicate naming the config entries, for the CLI to warn about."""

    @property
    def size(self) -> int:
        """How many variants the plan makes."""
        return len(self.engine_configs) * len(self.sources) * len(self.specs)

    def variant_keys(self, source_id: str, bank: int = 0) -> list[str]:
        """The variant ids of one source under every spec on ``bank``, in spec order
        (:func:`guisekit.ids.variant_id`, with the spec and engine parts encoded once)."""
        return [
            "v-" + hashlib.sha256(f"[{_json(source_id)}{tail}".encode()).hexdigest()[:16]
            for tail in self._tails[bank]
        ]

    @functools.cached_property
    def _tails(self) -> list[list[str]]:
        return [
            [f",{_json(spec.model_dump(mode='json'))},{_json(config)},{_json(self.seed)}]"
             for spec in self.specs]
            for config in self.engine_configs
        ]  # fmt: skip

    def iter_tasks(self, bank: int | None = None) -> Iterator[Task]:
        """The tasks of one bank (or of all), made on demand, in plan order."""
        banks = range(len(self.engine_configs)) if bank is None else [bank]
        for b in banks:
            for source_id in self.sources:
                keys = self.variant_keys(source_id, b)
                for spec, key in zip(self.specs, keys, strict=True):
                    yield Task(key=key, source_id=source_id, spec=spec, bank=b)

    @functools.cached_property
    def tasks(self) -> list[Task]:
        """Every task, in plan order (a list: for small plans and tests)."""
        return list(self.iter_tasks())


def _json(value: Any) -> str:
    """``value`` encoded as :func:`guisekit.ids.stable_hash` encodes each part."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=False)


def _expand_entry(entry: Mapping[str, Any], index: int, base: Path) -> list[TransformSpec]:
    """One config entry as specs: list-valued parameters expand as a grid, then the
    transform's own expansion (``personas: all``) applies. A persona ``grid`` path is
    relative to the config file (a packaged grid is named without a path)."""
    where = f"transforms[{index}]"
    grid = entry.get("grid")
    if isinstance(grid, str) and grid not in PACKAGED_GRIDS:
        path = Path(grid) if Path(grid).is_absolute() else (base / grid).resolve()
        if not path.is_file():
            raise ConfigError(
                f"persona grid file not found: {path}",
                location=f"{where}.grid",
                hint="paths in a config are relative to the config file",
            )
        entry = {**entry, "grid": str(path)}
    try:
        transform = get(str(entry.get("transform")), _version(entry))
    except ConfigError as exc:
        raise ConfigError(_bare(exc), location=f"{where}.transform") from None
    entry = dict(entry)
    expansions: list[dict[str, Any]] = [{}]
    if transform.expand is not None:
        try:
            entry, expansions = transform.expand(entry)
        except ConfigError as exc:
            location = f"{where}.{exc.location}" if exc.location else where
            raise ConfigError(_bare(exc), location=location) from None
    grid_keys = [k for k, v in entry.items() if isinstance(v, list)]
    combos = itertools.product(*(entry[k] for k in grid_keys)) if grid_keys else [()]
    specs = []
    for combo in combos:
        values = {**entry, **dict(zip(grid_keys, combo, strict=True))}
        for extra in expansions:
            try:
                specs.append(parse_spec({**values, **extra}))
            except ValidationError as exc:
                err = exc.errors()[0]
                loc = ".".join(str(p) for p in err["loc"][1:] or err["loc"])
                raise ConfigError(
                    err["msg"], location=f"{where}.{loc}", hint="check the transform's parameters"
                ) from None
    return specs


def _version(entry: Mapping[str, Any]) -> int:
    version = entry.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool):
        raise ConfigError(f"version must be an integer, not {version!r}")
    return version


def _bare(exc: ConfigError) -> str:
    """A ConfigError's message without its location prefix (re-raised with a fuller one)."""
    text = exc.one_line()
    prefix = f"{exc.location}: " if exc.location else ""
    return text[len(prefix) :] if prefix and text.startswith(prefix) else text


def build_plan(config: CorpusConfig, engines: Sequence[Engine]) -> Plan:
    """Read the sources and expand the transforms into keyed tasks for every engine."""
    sources = read_sources(
        config.path(config.sources.path),
        id_column=config.sources.id_column,
        text_column=config.sources.text_column,
        max_chars=config.sources.max_chars,
    )
    if config.sources.limit is not None:
        sources = sources[: config.sources.limit]
    specs, duplicates = _unique(
        (f"transforms[{i}]", spec)
        for i, entry in enumerate(config.transforms)
        for spec in _expand_entry(entry, i, config.base)
    )
    return Plan(
        sources={s.id: s for s in sources},
        specs=specs,
        engine_configs=[engine.config for engine in engines],
        seed=config.seed,
        duplicates=duplicates,
    )


def _unique(
    specs: Iterable[tuple[str, TransformSpec]],
) -> tuple[list[TransformSpec], list[str]]:
    """Specs in order without repeats (two equal specs would give one variant id twice),
    and a line per repeat naming where it first came from."""
    first: dict[str, str] = {}
    kept: list[TransformSpec] = []
    duplicates: list[str] = []
    for where, spec in specs:
        key = spec.model_dump_json()
        if key in first:
            duplicates.append(f"{where} repeats a spec of {first[key]} ({label_of(spec)})")
            continue
        first[key] = where
        kept.append(spec)
    return kept, duplicates
