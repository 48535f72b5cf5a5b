"""``guisekit decide``: run the decision model under audit over every variant."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from guisekit.decide import DecisionModel, DecisionTask


def _orders(value: str) -> int | str:
    if value == "all":
        return "all"
    try:
        return int(value)
    except ValueError:
        from guisekit.errors import ConfigError

        raise ConfigError(f"{value!r} is not a number or 'all'", location="--orders") from None


def open_model(
    spec: str, task: DecisionTask, cache: Path, *, samples: int, concurrency: int, version: str
) -> DecisionModel:
    """The decision model named by ``--model``: ``python:package.module:function``, an
    ``http(s)://`` endpoint, or a chat model ``provider:name[@base_url]``."""
    from guisekit.decide import CallableDecisionModel, HttpDecisionModel

    if spec.startswith("python:"):
        return CallableDecisionModel(spec.removeprefix("python:"), task, version=version)
    if spec.startswith(("http://", "https://")):
        return HttpDecisionModel(spec, task, version=version)
    from guisekit.backend import shared_runner
    from guisekit.decide.chat import ChatDecisionModel
    from guisekit.llm import parse_model

    model = parse_model(spec)  # a bad name is refused before the cache is created
    # the process's one runner on this cache (shared with every other command's calls)
    runner = shared_runner(cache, {"concurrency": concurrency}, where="decide")
    return ChatDecisionModel(task, model, runner, samples=samples)


def run_decide(
    data: Path,
    *,
    task_name: str,
    model_spec: str,
    out: Path,
    id_column: str = "variant_id",
    text_column: str = "text",
    carry: tuple[str, ...] = ("source_id",),
    orders: int | str = 1,
    repeats: int = 1,
    samples: int = 1,
    seed: int = 0,
    cache: Path | None = None,
    max_failure_rate: float = 0.05,
    concurrency: int = 16,
    batch_size: int = 64,
    model_version: str = "",
    overwrite: bool = False,
) -> dict[str, Any]:
    """Everything ``decide`` does, callable by ``study``; returns counts and health."""
    from guisekit.outputs import arguments_of

    arguments = arguments_of(run_decide, locals())
    from guisekit.console import err
    from guisekit.decide import decision_rows, health, load_task, plan_items, run_decisions
    from guisekit.errors import ConfigError
    from guisekit.llm import Store
    from guisekit.output_files import OutputFiles
    from guisekit.tables import read_rows, write_rows

    if not 0 <= max_failure_rate <= 1:
        raise ConfigError("must lie between 0 and 1", location="--max-failure-rate")
    # checked here although only chat models read them: a typo should not pass silently
    for name, value in (("--samples", samples), ("--concurrency", concurrency)):
        if value < 1:
            raise ConfigError(f"must be at least 1, got {value}", location=name)
    outputs = OutputFiles(
        [out], overwrite=overwrite, command="decide", arguments=arguments, inputs=[data]
    )
    outputs.check()  # before the answer cache exists
    task = load_task(task_name)
    rows = [
        row for _, row in read_rows(data, required=(id_column, text_column), id_column=id_column)
    ]
    usable = [r for r in rows if r.get("status", "ok") == "ok" and isinstance(r[text_column], str)]
    skipped = len(rows) - len(usable)
    if not usable:
        raise ConfigError(f"{data}: no usable variant (status ok, with text)")
    variants = [(str(r[id_column]), r[text_column]) for r in usable]
    kept = {str(r[id_column]): {c: r[c] for c in carry if c in r} for r in usable}
    items = plan_items(variants, task, orders=orders, repeats=repeats, seed=seed)  # type: ignore[arg-type]
    cache_path = cache or out.parent / "decide-cache.sqlite"
    # the model first: a --model that cannot be opened leaves no answer cache behind
    model = open_model(
        model_spec,
        task,
        cache_path,
        samples=samples,
        concurrency=concurrency,
        version=model_version,
    )
    store = Store(cache_path)
    try:
        n_orders = len(items) // len(variants) // repeats
        err.print(
            f"{len(variants)} variants x {repeats} repeats x {n_orders}"
            f" orders = {len(items)} decisions ({task.name}, {model.name})"
            + (f"; {skipped} rows without an ok text left out" if skipped else "")
        )
        decisions, new = run_decisions(model, task, items, store, batch_size=batch_size)
    finally:
        store.close()
    prompt = model.prompt_version() if hasattr(model, "prompt_version") else None
    table = list(
        decision_rows(
            items, decisions, model_name=model.name, task=task, prompt_version=prompt, carry=kept
        )
    )
    outputs.models = [{"model": model.name, "prompt": prompt, "version": model_version or None}]
    with outputs:
        write_rows(outputs.path(out), table, overwrite=True)
        outputs.add(out, len(table))
        outputs.counts = dict(Counter(str(r["status"]) for r in table))
    stats = health(table)
    failed = sum(r["status"] != "ok" for r in table)
    return {
        "task": task.name,
        "model": model.name,
        "prompt": prompt,
        "variants": len(variants),
        "decisions": len(table),
        "new_decisions": new,
        "failed": failed,
        "failure_rate": failed / len(table),
        "health": stats,
        "path": str(out),
    }


def decide_command(
    data: Annotated[Path, typer.Argument(help="Corpus or grid (.jsonl/.csv/.parquet).")],
    task: Annotated[
        str,
        typer.Option(help="Decision task: complaint_remedy, salary_estimate, interview_rating."),
    ],
    model: Annotated[
        str,
        typer.Option(
            help="python:package.module:function, an http(s):// endpoint, or a chat model "
            "provider:name[@base_url] (openai:gpt-4o-mini)."
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="decisions.jsonl, .csv or .parquet.")],
    id_column: Annotated[
        str, typer.Option(help="Variant id column (a grid's is 'id').")
    ] = "variant_id",
    text_column: Annotated[str, typer.Option(help="Text column.")] = "text",
    orders: Annotated[
        str, typer.Option(help="Option orders per decision: a number (random, seeded) or 'all'.")
    ] = "1",
    repeats: Annotated[int, typer.Option(help="Repeated scorings of the same text.")] = 1,
    samples: Annotated[
        int, typer.Option(help="Chat models without logprobs: answers sampled per decision.")
    ] = 1,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the random option orders.")] = 0,
    cache: Annotated[
        Path | None, typer.Option(help="Answer cache (SQLite); default beside --out.")
    ] = None,
    max_failure_rate: Annotated[
        float, typer.Option(help="Exit 1 when a larger share of decisions failed.")
    ] = 0.05,
    concurrency: Annotated[int, typer.Option(help="Chat models: requests in flight.")] = 16,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing output.")] = False,
) -> None:
    """Run the decision model under audit over every variant: outcome, label, label
    probabilities, with repeat and option-order controls.

    Output rows are keyed by variant_id, repeat and order; refusals and parse failures
    keep their reason. Every decision is cached, so a re-run (or a resumed run) makes no
    new calls. Exit status 1 when more than --max-failure-rate of decisions failed.

    **Examples**

        guisekit decide out/quickstart/corpus.jsonl --task complaint_remedy \\
          --model python:guisekit.testing.decision_responder:planted --out out/decisions.jsonl

        guisekit decide corpus.jsonl --task complaint_remedy --model openai:gpt-4o-mini \\
          --orders all --repeats 3 --out out/decisions.jsonl
    """
    from rich.table import Table

    from guisekit.console import cell, err
    from guisekit.console import out as console

    result = run_decide(
        data,
        task_name=task,
        model_spec=model,
        out=out,
        id_column=id_column,
        text_column=text_column,
        orders=_orders(orders),
        repeats=repeats,
        samples=samples,
        seed=seed,
        cache=cache,
        max_failure_rate=max_failure_rate,
        concurrency=concurrency,
        overwrite=overwrite,
    )
    table = Table(title=f"Decisions ({result['new_decisions']} new, the rest from the cache)")
    for column in result["health"][0]:
        table.add_column(column, justify="left" if column == "model" else "right")
    for row in result["health"]:
        table.add_row(*(cell(v) for v in row.values()))
    console.print(table)
    err.print(f"decisions: {result['path']}")
    if result["failure_rate"] > max_failure_rate:
        err.print(
            f"{result['failed']} of {result['decisions']} decisions failed "
            f"({result['failure_rate']:.1%} > {max_failure_rate:.1%})"
        )
        raise typer.Exit(1)
