"""The corpus pipeline: config -> plan -> run -> export."""

from guisekit.corpus.export import export_run
from guisekit.corpus.plan import CorpusConfig, Plan, Task, build_plan, load_config
from guisekit.corpus.run import RunResult, as_intended, run_plan

__all__ = [
    "CorpusConfig",
    "Plan",
    "RunResult",
    "Task",
    "as_intended",
    "build_plan",
    "export_run",
    "load_config",
    "run_plan",
]
