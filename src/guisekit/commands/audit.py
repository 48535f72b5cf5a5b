"""``guisekit audit``: screen rewrites for factual drift with the exact check and two LLM
auditors, and report validity, flag rates, agreement and breakdowns."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from guisekit.failures import MaxErrorRate, finish, tally


def _absolute(path: Path | None) -> str | None:
    return None if path is None else str(path.resolve())


def audit_command(
    corpus: Annotated[
        Path | None,
        typer.Argument(help="Corpus folder or corpus file (the output of guisekit corpus)."),
    ] = None,
    config: Annotated[
        Path | None, typer.Option("--config", help="Audit config (YAML); options override it.")
    ] = None,
    pairs: Annotated[
        Path | None,
        typer.Option(help="Pairs file (id, original, rewrite; optional source_id, transform)."),
    ] = None,
    sources: Annotated[
        Path | None, typer.Option(help="Sources file of the corpus (id, text): the originals.")
    ] = None,
    corpus_config: Annotated[
        Path | None,
        typer.Option(help="Corpus config the corpus was built from; its sources are used."),
    ] = None,
    auditor: Annotated[
        list[str] | None,
        typer.Option(
            "--auditor",
            help="Auditor model as provider:name or provider:name@base_url; repeat for each "
            "(default: openai:gpt-4o-mini and anthropic:claude-3-5-haiku-latest).",
        ),
    ] = None,
    domain: Annotated[
        str | None,
        typer.Option(
            help="What 'material' means: complaints, interviews, salary, hedging, or a YAML file."
        ),
    ] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Output folder.")] = None,
    cache: Annotated[
        Path | None, typer.Option(help="Answer cache (SQLite); default OUT/audit-cache.sqlite.")
    ] = None,
    validity_threshold: Annotated[
        float | None,
        typer.Option(help="Share of fact-edit controls an auditor must flag to be valid."),
    ] = None,
    bootstrap: Annotated[
        int | None, typer.Option(help="Source-cluster bootstrap resamples (0: no intervals).")
    ] = None,
    seed: Annotated[int | None, typer.Option(min=0, help="Bootstrap seed.")] = None,
    weights: Annotated[
        Path | None, typer.Option(help="Population weights per source (source_id, weight).")
    ] = None,
    overwrite: Annotated[
        bool, typer.Option(help="Replace the outputs of an earlier audit.")
    ] = False,
    max_error_rate: MaxErrorRate = 0.0,
) -> None:
    """Screen rewrites for factual drift: the exact check plus LLM auditors on every pair.

    Each pair (original, rewrite) gets the exact check and every auditor's list of factual
    differences (category, kind, material or not). An auditor is valid when it rates at
    least --validity-threshold of the fact-edit controls material; a pair passes the
    screen when the exact check passes and no valid auditor rates it material. Writes
    results.jsonl (one row per pair, with both auditors' full verdicts), report.json and a
    self-contained report.html; prints the report's tables. Every auditor call goes
    through the cached, resumable runner, so a re-run costs no calls. Exit status: 0 when
    the report is written (whatever the verdicts), 2 on bad input or config, 3 when more
    than --max-error-rate of the auditor verdicts ended in error or truncated (the report
    is written; the last line counts the failures by reason).

    **Examples**

        guisekit audit out/quickstart --corpus-config examples/quickstart.yaml --out out/audit

        guisekit audit --pairs examples/data/pairs.jsonl --auditor openai:gpt-4o-mini
        --auditor anthropic:claude-3-5-haiku-latest --out out/audit-pairs

        guisekit audit --config audit.yaml --overwrite
    """
    from guisekit.extras import require
    from guisekit.outputs import arguments_of

    arguments = arguments_of(audit_command, locals())
    require("llm", feature="guisekit audit")  # before anything imports a provider SDK
    require("plots", feature="the audit's HTML report")
    from guisekit.audit.config import load_audit_config
    from guisekit.audit.job import prepare_job

    overrides: dict[str, Any] = {
        "corpus": _absolute(corpus),
        "pairs": _absolute(pairs),
        "corpus_config": _absolute(corpus_config),
        "sources": None if sources is None else {"path": str(sources.resolve())},
        "auditors": tuple(auditor) if auditor else None,
        "domain": domain,
        "output": _absolute(out_dir),
        "cache": _absolute(cache),
        "validity_threshold": validity_threshold,
        "resamples": bootstrap,
        "seed": seed,
        "weights": _absolute(weights),
    }
    settings = load_audit_config(config, {k: v for k, v in overrides.items() if v is not None})
    job = prepare_job(settings, overwrite=overwrite)
    _run(job, overwrite, max_error_rate, arguments, config)


def _run(
    job: Any,
    overwrite: bool,
    max_error_rate: float = 0.0,
    arguments: dict[str, Any] | None = None,
    config_file: Path | None = None,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from guisekit.audit.job import OUTPUT_NAMES
    from guisekit.audit.views import report_tables, rich_table
    from guisekit.console import err, out
    from guisekit.outputs import OutputSet

    outputs = OutputSet(
        job.config.output_dir,
        OUTPUT_NAMES,
        overwrite=overwrite,
        command="audit",
        arguments=arguments,
        config=job.config.model_dump(mode="json"),
        inputs=[*([config_file] if config_file else []), *job.input_files()],
        models=[{"model": a.name, "prompt": a.prompt_label} for a in job.auditors],
    )
    outputs.check()  # before any pair is read or any call made

    pairs = job.load_pairs()
    ready = sum(p.status == "ok" for p in pairs)
    calls = ready * len(job.auditors)
    err.print(
        f"{len(pairs)} pairs ({ready} to audit) x {len(job.auditors)} auditors "
        f"({', '.join(a.name for a in job.auditors)}) = {calls} requests"
    )
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        bar = progress.add_task("auditing", total=calls)
        run, report = job.run(pairs, on_answer=lambda _answer: progress.advance(bar))
    with outputs:  # results, report.json and report.html published together
        staged = job.write(run, report, overwrite=True, folder=outputs.staging)
        outputs.add("results.jsonl", len(run.results))
        outputs.counts = dict(report.screen)
    paths = {name: job.config.output_dir / path.name for name, path in staged.items()}
    for line in report.warnings:
        err.print(f"warning: {line}", markup=False, highlight=False)
    for view in report_tables(report):
        out.print(rich_table(view))
    screen = ", ".join(f"{n} {verdict}" for verdict, n in report.screen.items())
    out.print(f"{report.n_pairs} pairs: {screen}")
    for name, path in paths.items():
        err.print(f"{name}: {path}")
    verdicts = (
        (o.status, o.reason)
        for result in run.results
        for o in result.outcomes
        if o.status != "not_asked"
    )
    finish(tally("auditor verdicts", verdicts), max_error_rate)
