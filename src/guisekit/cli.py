"""The ``guisekit`` command line.

This is the only place where a :class:`~guisekit.errors.GuisekitError` becomes a one-line
message and exit code 2; everything below raises typed errors.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from guisekit import __version__
from guisekit.commands.attributes import attributes_command
from guisekit.commands.audit import audit_command
from guisekit.commands.check_facts import check_facts_command, text_or_file
from guisekit.commands.corpus import corpus_command as corpus_command  # re-exported
from guisekit.commands.decide import decide_command
from guisekit.commands.edits import edits_command
from guisekit.commands.gaps import gaps_command
from guisekit.commands.gelbach import gelbach_command
from guisekit.commands.grid import grid_command
from guisekit.commands.serve import serve_command
from guisekit.commands.study import study_command
from guisekit.console import err, out
from guisekit.errors import GuisekitError
from guisekit.personas import load_grid
from guisekit.tables import DEFAULT_MAX_CHARS

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
    """Console-script entry point: run the app, turning guisekit errors and click's usage
    errors (a bad option value, a missing argument) into one ``error:`` line and exit code
    2, where click would draw a multi-line box."""
    from typer import _click as click  # the click typer ships and raises

    try:
        code = app(args=argv, prog_name="guisekit", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError:  # the help is already printed
        sys.exit(2)
    except click.exceptions.ClickException as exc:  # a bad option value, a missing argument
        ctx = getattr(exc, "ctx", None)
        where = f" (see {ctx.command_path} --help)" if ctx is not None else ""
        message = " ".join(f"error: {exc.format_message()}{where}".split())
        err.print(message, markup=False, highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except typer.Abort:
        err.print("Aborted!", markup=False, highlight=False)
        sys.exit(1)
    except GuisekitError as exc:
        err.print(f"error: {exc.one_line()}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(2)
    except OSError as exc:  # an unreadable input, a full disk: the system's words, one line
        where = f"{exc.filename}: " if exc.filename else ""
        message = f"error: {where}{exc.strerror or exc} (check the path, its permissions and space)"
        err.print(message, markup=False, highlight=False, soft_wrap=True)
        sys.exit(2)
    # standalone_mode=False returns the exit code of typer.Exit, else the command's value
    sys.exit(code if isinstance(code, int) else 0)
