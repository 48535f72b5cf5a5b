"""The corpus pipeline: config -> plan -> run -> export.

``run_corpus`` streams a plan chunk by chunk (``corpus_chunk`` is the per-chunk map
function, run here or in worker processes) into a published output set; ``run_plan`` and
``export_run`` are the all-in-memory path for small runs in a library.
"""

from guisekit.corpus.chunk import ChunkRows, CorpusChunk, corpus_chunk
from guisekit.corpus.export import export_run, fact_row, variant_row
from guisekit.corpus.plan import CorpusConfig, Plan, Task, build_plan, load_config
from guisekit.corpus.run import RunResult, as_intended, run_plan
from guisekit.corpus.stream import CorpusRun, plan_chunks, run_corpus

__all__ = [
    "ChunkRows",
    "CorpusChunk",
    "CorpusConfig",
    "CorpusRun",
    "Plan",
    "RunResult",
    "Task",
    "as_intended",
    "build_plan",
    "corpus_chunk",
    "export_run",
    "fact_row",
    "load_config",
    "plan_chunks",
    "run_corpus",
    "run_plan",
    "variant_row",
]
