"""``guisekit corpus``: build a matched-guise corpus (plan, rewrite, fact-check, export).

The command only wires the job together and prints; the work is in :mod:`guisekit.corpus`.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from guisekit.console import cell, err, out
from guisekit.failures import FAILED_STATUSES, FailureTally, MaxErrorRate, finish, reason_group

__all__ = ["corpus_command"]


def corpus_command(
    config: Annotated[
        Path, typer.Argument(help="Corpus config (YAML); see examples/quickstart.yaml.")
    ],
    overwrite: Annotated[bool, typer.Option(help="Replace outputs of an earlier run.")] = False,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="Output folder (overrides output.dir of the config)."),
    ] = None,
    max_error_rate: MaxErrorRate = 0.0,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Processes for the rules engine's rewriting, fact checks and summary "
            "measures (default: the usable cores). LLM engines ignore it: they run on one "
            "async runner per process, whose concurrency is the model's rpm.",
        ),
    ] = None,
    chunk_size: Annotated[
        int,
        typer.Option(
            min=1,
            help="Variants per chunk (whole sources): the unit of work, of memory and of "
            "resuming. Outputs do not depend on it.",
        ),
    ] = 1000,
    resume: Annotated[
        bool,
        typer.Option(
            help="Replay the chunks a killed rules-engine run of the same plan finished "
            "(journalled beside the output folder); --no-resume starts from nothing.",
        ),
    ] = True,
) -> None:
    """Build a matched-guise corpus: plan, rewrite, fact-check, export.

    Reads the sources, expands the transforms into one task per source and spec (each
    with a stable variant id), runs them on the configured engine (default: the offline
    rules engine), runs the exact fact check on every variant, and writes corpus,
    fact_report and summary files to the output folder. Exit status: 0 done, 2 bad
    input, 3 when more than --max-error-rate of the variants ended in error or truncated
    (the outputs are written; the last line counts the failures by reason).

    Runs stream: sources go through in chunks, rows are written as they are made and
    memory stays flat however many sources there are. On the rules engine the chunks
    run on --workers processes (the output is byte-identical for any number), and a
    killed run resumes from its last finished chunk when run again.

    **Example**

        guisekit corpus examples/quickstart.yaml --overwrite
    """
    from guisekit.corpus import build_plan, load_config
    from guisekit.corpus.stream import local_engines, run_corpus, worker_count
    from guisekit.engines import make_engines, usage_rows
    from guisekit.outputs import OutputSet
    from guisekit.parallel import usable_cores
    from guisekit.tables import read_sources

    settings = load_config(config)
    target = out_dir if out_dir is not None else settings.output_dir
    ext = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet"}[settings.output_format]
    inputs = (config, settings.path(settings.sources.path))
    names = [f"{name}{ext}" for name in ("corpus", "fact_report", "summary")]
    # every refusal before the engines exist: an LLM engine creates its answer cache
    OutputSet(target, names, overwrite=overwrite, command="corpus", inputs=inputs).check()
    read_sources(
        inputs[1],
        id_column=settings.sources.id_column,
        text_column=settings.sources.text_column,
        max_chars=settings.sources.max_chars,
    )
    engines = make_engines(settings.engine, settings.base)
    plan = build_plan(settings, engines)
    for line in plan.duplicates:
        err.print(f"warning: {line}; kept once", markup=False, highlight=False, soft_wrap=True)
    local = local_engines(engines)
    processes = worker_count(plan, engines, workers or usable_cores(), chunk_size)
    banks = "" if len(engines) == 1 else f" x {len(engines)} banks"
    on = f" on {processes} processes" if processes > 1 else ""
    err.print(
        f"{len(plan.sources)} sources x {len(plan.specs)} specs{banks} = {plan.size} "
        f"variants on the {engines[0].name} engine{on}"
    )
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[usage]}"),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        bar = progress.add_task("rewriting", total=plan.size, usage="")

        def advance(n: int) -> None:
            rows = usage_rows(engines)
            usage = (
                f"{sum(r['calls'] for r in rows)} calls, "
                f"{sum(r['input_tokens'] + r['output_tokens'] for r in rows):,} tokens, "
                f"${sum(r['cost_usd'] for r in rows):.2f}"
                if rows
                else ""
            )
            progress.update(bar, advance=n, usage=usage)

        run = run_corpus(
            plan,
            engines,
            target,
            settings.output_format,
            overwrite=overwrite,
            workers=processes,
            chunk_size=chunk_size,
            resume=resume,
            progress=advance,
            # LLM engines account their calls (a usage file, cumulative over runs)
            usage=None if local and not usage_rows(engines) else lambda: usage_rows(engines),
            arguments={"config": str(config), "out_dir": str(target), "overwrite": overwrite},
            config=settings.model_dump(mode="json"),
            inputs=inputs,
        )
    if run.resumed:
        err.print(
            f"resumed {run.resumed} of {run.chunks} chunks from the journal of a killed run; "
            f"computed {run.chunks - run.resumed}"
        )
    written = run.written
    usage = usage_rows(engines)
    _print_summary(written.summary)
    _note_unrealised(plan, engines)
    if usage:
        _print_table("Model usage (this run; cached answers cost nothing)", usage)
    for name, path in written.paths.items():
        err.print(f"{name}: {path}")
    failures = FailureTally(
        "variants",
        written.statuses,
        dict(
            Counter(
                reason_group(status, reason)
                for (status, reason), n in written.failures.items()
                if status in FAILED_STATUSES
                for _ in range(n)
            )
        ),
    )
    finish(failures, max_error_rate)


def _note_unrealised(plan: Any, engines: Any) -> None:
    """Say which persona axes the rules engine leaves unmarked, when the run has personas."""
    from guisekit.rules import RulesEngine

    if not any(s.transform == "persona" for s in plan.specs):
        return
    for engine in engines:
        if isinstance(engine, RulesEngine):
            unrealised = sorted(engine.profiles.unrealised)
            if unrealised:
                err.print(
                    f"note: the rules engine leaves persona axes {', '.join(unrealised)} "
                    "unmarked (no well-attested written markers); their levels differ only "
                    "by chance. See `guisekit personas`."
                )
            return


def _print_table(title: str, rows: list[dict[str, Any]]) -> None:
    table = Table(title=title)
    for column in rows[0]:
        table.add_column(column, justify="left" if column == "model" else "right")
    for row in rows:
        table.add_row(*(cell(value) for value in row.values()))
    out.print(table)


def _print_summary(rows: list[dict[str, Any]]) -> None:
    table = Table(
        title="Corpus summary (d_ = mean shift from the source, per 100 words; "
        "d_fk_grade in grade levels)"
    )
    columns = list(rows[0]) if rows else []
    for column in columns:
        table.add_column(
            column.replace("d_sophisticated", "d_soph"),
            justify="left" if column == "transform" else "right",
        )
    for row in rows:
        table.add_row(*(cell(row[c]) for c in columns))
    out.print(table)
