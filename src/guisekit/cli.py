"""The ``guisekit`` command line.

This is the only place where a :class:`~guisekit.errors.GuisekitError` becomes a one-line
message and exit code 2; everything below raises typed errors.
"""

from __future__ import annotations

import sys
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
from rich.text import Text

from guisekit import __version__
from guisekit.commands.attributes import attributes_command
from guisekit.commands.audit import audit_command
from guisekit.commands.check_facts import check_facts_command, text_or_file
from guisekit.commands.decide import decide_command
from guisekit.commands.edits import edits_command
from guisekit.commands.gaps import gaps_command
from guisekit.commands.gelbach import gelbach_command
from guisekit.commands.grid import grid_command
from guisekit.commands.serve import serve_command
from guisekit.commands.study import study_command
from guisekit.console import err, out
from guisekit.corpus_io import DEFAULT_MAX_CHARS
from guisekit.errors import GuisekitError, OutputError
from guisekit.failures import MaxErrorRate, finish, tally
from guisekit.personas import load_grid

app = typer.Typer(
    name="guisekit",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        out.print(f"guisekit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Sociolinguistic guise and style rewriting, with fact-fidelity checks.

    Build matched-guise corpora (corpus, grid), screen rewrites for factual drift
    (check-facts, audit), standardise inputs behind a fact gate (serve), and explain
    persona gaps (attributes, gelbach). Every command runs offline on the embedded `rules`
    engine by default; `engine: {name: llm}` in a corpus config uses OpenAI, Anthropic or
    any OpenAI-compatible model, with keys from the environment.

    **Examples**

        guisekit corpus examples/quickstart.yaml --overwrite

        guisekit check-facts --pairs examples/data/pairs.jsonl

        guisekit grid examples/grid_salary.yaml --out out/grid.jsonl
    """


app.command("check-facts")(check_facts_command)


@app.command("corpus")
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
) -> None:
    """Build a matched-guise corpus: plan, rewrite, fact-check, export.

    Reads the sources, expands the transforms into one task per source and spec (each
    with a stable variant id), runs them on the configured engine (default: the offline
    rules engine), runs the exact fact check on every variant, and writes corpus,
    fact_report and summary files to the output folder. Exit status: 0 done, 2 bad
    input, 3 when more than --max-error-rate of the variants ended in error or truncated
    (the outputs are written; the last line counts the failures by reason).

    **Example**

        guisekit corpus examples/quickstart.yaml --overwrite
    """
    from guisekit.corpus import build_plan, export_run, load_config, run_plan
    from guisekit.engines import make_engines, usage_rows

    settings = load_config(config)
    engines = make_engines(settings.engine, settings.base)
    plan = build_plan(settings, engines)
    target = out_dir if out_dir is not None else settings.output_dir
    ext = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet"}[settings.output_format]
    if not overwrite and (target / f"corpus{ext}").exists():
        raise OutputError(
            f"{target / ('corpus' + ext)} already exists",
            hint="pass --overwrite to replace the run's outputs",
        )
    banks = "" if len(engines) == 1 else f" x {len(engines)} banks"
    err.print(
        f"{len(plan.sources)} sources x {len(plan.specs)} specs{banks} = {len(plan.tasks)} "
        f"variants on the {engines[0].name} engine"
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
        bar = progress.add_task("rewriting", total=len(plan.tasks), usage="")

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

        result = run_plan(plan, engines, advance)
    usage = usage_rows(engines)
    paths = export_run(result, target, settings.output_format, overwrite=overwrite, usage=usage)
    _print_summary(result.summary)
    _note_unrealised(plan, engines)
    if usage:
        _print_table("Model usage (this run; cached answers cost nothing)", usage)
    for name, path in paths.items():
        err.print(f"{name}: {path}")
    finish(tally("variants", ((v.status, v.reason) for v in result.variants)), max_error_rate)


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
        table.add_row(*(str(value) for value in row.values()))
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
        table.add_row(*("-" if row[c] is None else str(row[c]) for c in columns))
    out.print(table)


@app.command("operators")
def operators_command(
    try_text: Annotated[
        str | None,
        typer.Option("--try", help="Run every operator alone on this text and show the result."),
    ] = None,
) -> None:
    """List the rules engine's operators with their family, stage and behaviour.

    With --try TEXT, run each operator alone (every candidate edit accepted) on TEXT and
    show what it produces, or why it does not apply.

    **Examples**

        guisekit operators

        guisekit operators --try "I dont think the bank will refund the $40 fee."
    """
    from guisekit.rules import RulesEngine
    from guisekit.rules.operators import REGISTRY

    table = Table(title=f"{len(REGISTRY)} rule operators")
    columns = ("operator", "family", "stage", "what it does" if try_text is None else "result")
    for column in columns:
        table.add_column(column)
    engine = RulesEngine() if try_text is not None else None
    for name in sorted(REGISTRY):
        op = REGISTRY[name]
        if engine is None or try_text is None:
            table.add_row(name, op.family, op.stage, Text(op.doc))
            continue
        trial = engine.try_operator(name, text_or_file(try_text, "--try", DEFAULT_MAX_CHARS))
        table.add_row(
            name, op.family, op.stage, Text(trial.text if trial.applied else trial.reason)
        )
    out.print(table)


@app.command("personas")
def personas_command(
    grid: Annotated[Path | None, typer.Option(help="A user persona grid (YAML).")] = None,
    profiles: Annotated[
        Path | None,
        typer.Option(help="A rules-engine feature inventory (YAML) replacing the packaged one."),
    ] = None,
) -> None:
    """List the personas of the built-in grid (or of --grid) with their descriptions, and
    which axes the rules engine realises, with each level's features and their sources.

    Axes without well-attested written markers (geography, SES) are declared unrealised:
    the rules engine leaves them unmarked. Plug in features of your own with a profiles
    file (the format of lexicons/personas/profiles.yaml) passed as `profiles:` in a corpus
    config's engine section, and check them here with --profiles.

    **Example**

        guisekit personas
    """
    from guisekit.personas import axis_report

    persona_grid = load_grid(grid)
    table = Table(title=f"{len(persona_grid.personas())} personas")
    table.add_column("persona")
    table.add_column("description")
    for persona in persona_grid.personas():
        table.add_row(persona.id, " ".join(persona_grid.describe(persona)))
    out.print(table)
    axes = Table(title="Axes in the rules engine (features and their sources)")
    for column in ("axis", "level", "rules engine"):
        axes.add_column(column)
    for row in axis_report(persona_grid, profiles):
        axes.add_row(row.axis, row.level, Text(row.status))
    out.print(axes)


# Commands defined in guisekit.commands, in the order --help lists them.
for _name, _command in (
    ("audit", audit_command),
    ("edits", edits_command),
    ("attributes", attributes_command),
    ("decide", decide_command),
    ("gaps", gaps_command),
    ("gelbach", gelbach_command),
    ("grid", grid_command),
    ("serve", serve_command),
    ("study", study_command),
):
    app.command(_name)(_command)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the app, turning guisekit errors into exit code 2."""
    try:
        app(args=argv, prog_name="guisekit")
    except GuisekitError as exc:
        err.print(f"error: {exc.one_line()}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(2)
