"""The one model backend: settings of a model bank and the one function that opens it.

Every job that calls a model (corpus rewrites, the audit, LLM attribute scores, the
standardiser's gate auditor, and later the decision model) opens its runner here. One
process holds **one runner per answer cache**: two jobs on the same cache share its store,
its per-model request limits (one RPM budget per model and process) and its accounting,
whatever each asked for. The runner's settings are those of the first job that opened it
while it is alive.

Nothing here imports the LLM layer until a backend is opened, so the core install (rules
engine, facts, grids) never needs the ``llm`` extra.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from guisekit.errors import validate
from guisekit.extras import require

if TYPE_CHECKING:
    from guisekit.llm.runner import Executor, LLMRunner

__all__ = ["DEFAULT_CACHE", "BankSettings", "open_backend", "shared_runner"]

DEFAULT_CACHE = "llm-cache.sqlite"


class BankSettings(BaseModel):
    """How a bank of models is called: the block an engine config and an audit config
    share (the models themselves are each config's own list).

    ``cache`` is the answer cache (SQLite; relative to the config file); ``runner`` the
    runner settings (``concurrency``, ``max_retries``, ``max_reasks``, ...); ``mode``
    ``online`` or ``batch`` (the providers' batch APIs, with the ``batch`` settings).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    cache: str | None = None
    runner: dict[str, Any] = Field(default_factory=dict)
    mode: Literal["online", "batch"] = "online"
    batch: dict[str, Any] = Field(default_factory=dict)


_lock = threading.Lock()
_runners: weakref.WeakValueDictionary[tuple[Path, int], LLMRunner] = weakref.WeakValueDictionary()


def shared_runner(
    cache: str | Path,
    runner: Mapping[str, Any] | None = None,
    chat_factory: Callable[..., Any] | None = None,
    *,
    where: str = "runner",
) -> LLMRunner:
    """The process's runner on ``cache``, opened with ``runner`` settings if none is alive.

    ``chat_factory`` replaces the real chat clients (tests pass a fake keyed by input); a
    runner is shared only between callers with the same factory.
    """
    require("llm")
    from guisekit.llm.chat import make_chat_model
    from guisekit.llm.runner import LLMRunner, RunnerSettings
    from guisekit.llm.store import Store

    factory = chat_factory or make_chat_model
    settings = validate(RunnerSettings, dict(runner or {}), where=where)
    key = (Path(cache).resolve(), id(factory))
    with _lock:
        found = _runners.get(key)
        if found is None or not _is_open(found):
            found = LLMRunner(Store(key[0]), settings, factory)
            _runners[key] = found
        return found


def _is_open(runner: LLMRunner) -> bool:
    """Whether a runner's store is still open (a job that owned it may have closed it)."""
    import sqlite3

    try:
        runner.store._db.execute("SELECT 1")
    except sqlite3.ProgrammingError:
        return False
    return True


def open_backend(
    settings: BankSettings,
    cache: str | Path,
    chat_factory: Callable[..., Any] | None = None,
    *,
    where: str = "",
) -> Executor:
    """The executor (online runner, or batch runner over it) of a bank, on the shared
    runner of ``cache``; ``where`` prefixes error locations (``engine``)."""
    prefix = f"{where}." if where else ""
    runner = shared_runner(cache, settings.runner, chat_factory, where=f"{prefix}runner")
    if settings.mode != "batch":
        return runner
    from guisekit.llm.batch import BatchRunner, BatchSettings

    return BatchRunner(runner, validate(BatchSettings, settings.batch, where=f"{prefix}batch"))
