"""The ``guisekit`` command line.

This is the only place where a :class:`~guisekit.errors.GuisekitError` becomes a one-line
message and exit code 2; everything below raises typed errors.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from guisekit import __version__
from guisekit.commands.attributes import attributes_command
from guisekit.commands.audit import audit_command
from guisekit.commands.corpus import corpus_command as corpus_command  # re-exported
from guisekit.commands.decide import decide_command
from guisekit.commands.edits import edits_command
from guisekit.commands.gaps import gaps_command
from guisekit.commands.gelbach import gelbach_command
from guisekit.commands.grid import grid_command
from guisekit.commands.serve import serve_command
from guisekit.commands.study import study_command
from guisekit.console import err, out
from guisekit.errors import GuisekitError, InputError
from guisekit.facts import FactCheckResult, check_facts
from guisekit.outputs import refuse_same_path
from guisekit.personas import load_grid
from guisekit.tables import DEFAULT_MAX_CHARS, read_rows, write_rows

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


def _text_or_file(value: str, what: str, max_chars: int) -> str:
    path = Path(value)
    if len(value) < 4096 and path.is_file():
        try:
            value = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{path}: not valid UTF-8", hint="re-save the file as UTF-8") from None
    if not value.strip():
        raise InputError(f"the {what} text is empty", hint="give a non-empty text or file")
    if len(value) > max_chars:
        raise InputError(
            f"the {what} text has {len(value):,} characters, over {max_chars:,}",
            hint="raise --max-chars",
        )
    return value


@app.command("check-facts")
def check_facts_command(
    original: Annotated[
        str | None, typer.Argument(help="Original text, or a path to a UTF-8 file holding it.")
    ] = None,
    rewrite: Annotated[
        str | None, typer.Argument(help="Rewritten text, or a path to a UTF-8 file holding it.")
    ] = None,
    pairs: Annotated[
        Path | None,
        typer.Option(
            "--pairs", help="JSONL/CSV/Parquet file of pairs to check instead of two texts."
        ),
    ] = None,
    id_column: Annotated[str, typer.Option(help="Pair id column in --pairs.")] = "id",
    original_column: Annotated[str, typer.Option(help="Original text column.")] = "original",
    rewrite_column: Annotated[str, typer.Option(help="Rewrite text column.")] = "rewrite",
    report: Annotated[
        Path | None,
        typer.Option(
            help="Write per-pair verdicts and every discrepancy (.jsonl, .csv or .parquet)."
        ),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing report.")] = False,
    max_chars: Annotated[int, typer.Option(help="Longest text accepted.")] = DEFAULT_MAX_CHARS,
) -> None:
    """Check that a rewrite kept every money amount, date, year and percentage.

    Exit status works like `diff`: 0 when every pair passes (warnings included), 1 when
    any pair fails, 2 on bad input.

    **Examples**

        guisekit check-facts "I paid $1,200 on 03/14/2023." "On March 14, 2023 I paid $1,200."

        guisekit check-facts --pairs examples/data/pairs.jsonl --report out/pairs-facts.jsonl
    """
    if pairs is not None:
        if original is not None or rewrite is not None:
            raise InputError(
                "give either two texts or --pairs, not both",
                hint="drop the positional texts when using --pairs",
            )
        rows = read_rows(
            pairs,
            required=(id_column, original_column, rewrite_column),
            text_columns=(original_column, rewrite_column),
            id_column=id_column,
            max_chars=max_chars,
        )
        items = [(str(r[id_column]), r[original_column], r[rewrite_column]) for _, r in rows]
    elif original is not None and rewrite is not None:
        items = [
            (
                "pair",
                _text_or_file(original, "original", max_chars),
                _text_or_file(rewrite, "rewrite", max_chars),
            )
        ]
    else:
        raise InputError(
            "nothing to check", hint="give ORIGINAL and REWRITE, or --pairs FILE (see --help)"
        )
    results = [(pair_id, check_facts(a, b)) for pair_id, a, b in items]
    refuse_same_path(report, pairs)
    if report is not None:
        write_rows(report, (_report_row(pid, res) for pid, res in results), overwrite=overwrite)
    _print_results(results)
    if report is not None:
        err.print(f"report written to {report}")
    raise typer.Exit(1 if any(not res.passed for _, res in results) else 0)


def _report_row(pair_id: str, result: FactCheckResult) -> dict[str, Any]:
    return {"id": pair_id, **result.to_dict()}


def _print_results(results: list[tuple[str, FactCheckResult]]) -> None:
    table = Table(title="Exact fact check", show_lines=False)
    for column in ("pair", "verdict", "facts A", "facts B", "discrepancies"):
        table.add_column(column)
    colours = {"pass": "green", "warn": "yellow", "fail": "red"}
    for pair_id, res in results:
        found = "; ".join(d.describe() for d in res.discrepancies) or "-"
        table.add_row(
            pair_id,
            f"[{colours[res.verdict]}]{res.verdict}[/]",
            str(len(res.original_facts)),
            str(len(res.rewrite_facts)),
            found,
        )
    out.print(table)
    counts = {v: sum(1 for _, r in results if r.verdict == v) for v in colours}
    out.print(
        f"{len(results)} pairs: {counts['pass']} pass, {counts['warn']} warn, {counts['fail']} fail"
    )


app.command("corpus")(corpus_command)


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
        trial = engine.try_operator(name, _text_or_file(try_text, "--try", DEFAULT_MAX_CHARS))
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
    except OSError as exc:  # an unreadable input, a full disk: the system's words, one line
        where = f"{exc.filename}: " if exc.filename else ""
        message = f"error: {where}{exc.strerror or exc} (check the path, its permissions and space)"
        err.print(message, markup=False, highlight=False, soft_wrap=True)
        sys.exit(2)
