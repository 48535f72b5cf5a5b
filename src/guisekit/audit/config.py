"""The audit job's settings: a YAML file, command-line options, or both (options win).

Paths in a config file are relative to the file; paths given on the command line are
relative to the working directory. An audit reads either a corpus (the output of
``guisekit corpus``) with the sources it was built from (a ``sources`` file or the
``corpus_config`` that names it), or a pairs file with both texts.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.audit.stats import DEFAULT_LEVEL, DEFAULT_RESAMPLES
from guisekit.audit.validity import DEFAULT_THRESHOLD
from guisekit.backend import BankSettings, open_backend
from guisekit.errors import validate
from guisekit.presets import apply_preset
from guisekit.resources import read_config_file

if TYPE_CHECKING:
    from guisekit.llm.chat import ChatFactory
    from guisekit.llm.runner import Executor

__all__ = [
    "CACHE_NAME",
    "DEFAULT_AUDITORS",
    "AuditConfig",
    "AuditSources",
    "load_audit_config",
    "make_executor",
]

# Two models from different providers: the design's dual-auditor default.
DEFAULT_AUDITORS = ("openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest")
CACHE_NAME = "audit-cache.sqlite"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AuditSources(_Strict):
    """The sources file a corpus was built from: where the originals come from."""

    path: str
    id_column: str = "id"
    text_column: str = "text"


class AuditConfig(BankSettings):
    """A validated audit config; relative paths resolve against ``base``. The auditors
    are a model bank: ``cache``, ``runner``, ``mode`` and ``batch`` are the
    :class:`~guisekit.backend.BankSettings` every model job shares."""

    corpus: str | None = Field(default=None, description="Corpus folder or corpus file.")
    pairs: str | None = Field(default=None, description="Pairs file (id, original, rewrite).")
    sources: AuditSources | None = None
    corpus_config: str | None = Field(
        default=None, description="The corpus config, whose sources give the originals."
    )
    auditors: tuple[str | dict[str, Any], ...] = Field(default=DEFAULT_AUDITORS, min_length=1)
    domain: str = "complaints"
    prompt_version: int | None = Field(default=None, ge=1)
    validity_threshold: float = Field(default=DEFAULT_THRESHOLD, ge=0.0, le=1.0)
    resamples: int = Field(default=DEFAULT_RESAMPLES, ge=0)
    seed: int = Field(default=0, ge=0)
    level: float = Field(default=DEFAULT_LEVEL, gt=0.0, lt=1.0)
    weights: str | None = Field(default=None, description="Population weights by source_id.")
    output: str | None = Field(default=None, description="Output folder.")
    base: Path = Path(".")

    @model_validator(mode="after")
    def _one_input(self) -> AuditConfig:
        if (self.corpus is None) == (self.pairs is None):
            raise ValueError("give either a corpus or a pairs file (exactly one)")
        if self.corpus is not None and (self.sources is None) == (self.corpus_config is None):
            raise ValueError(
                "a corpus needs its originals: give sources or corpus_config (exactly one)"
            )
        if self.output is None:
            raise ValueError("no output folder: set output or pass --out")
        return self

    def path(self, value: str) -> Path:
        candidate = Path(value)
        return candidate if candidate.is_absolute() else (self.base / candidate).resolve()

    @property
    def output_dir(self) -> Path:
        return self.path(self.output or ".")

    @property
    def cache_path(self) -> Path:
        return self.path(self.cache) if self.cache else self.output_dir / CACHE_NAME


def load_audit_config(path: Path | None, overrides: dict[str, Any]) -> AuditConfig:
    """The config file (if any) with ``overrides`` (command-line values, paths already
    absolute) on top; errors name the file and key."""
    data: dict[str, Any] = {}
    base = Path(".").resolve()
    where = "audit options"
    if path is not None:
        where = str(path)
        data, base = read_config_file(path, "a mapping of audit settings"), path.resolve().parent
        data = apply_preset("audit", data, where=where)  # `preset: paper` fills in defaults
    if overrides.get("pairs") is not None:
        data.pop("corpus", None)
    if overrides.get("corpus") is not None:
        data.pop("pairs", None)
    if overrides.get("sources") is not None:
        data.pop("corpus_config", None)
    if overrides.get("corpus_config") is not None:
        data.pop("sources", None)
    return validate(
        AuditConfig,
        {**data, **overrides, "base": base},
        where=f"{where}:",
        hint="see `guisekit audit --help`",
    )


def make_executor(config: AuditConfig, chat_factory: ChatFactory | None = None) -> Executor:
    """The executor (online or batch) every auditor call goes through: the process's
    shared runner on the config's cache (default ``OUTPUT/audit-cache.sqlite``)."""
    return open_backend(config, config.cache_path, chat_factory)
