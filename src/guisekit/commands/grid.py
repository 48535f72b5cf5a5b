"""`guisekit grid`: build an identifier counterfactual grid, check it, write it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from guisekit.console import err, out
from guisekit.errors import ConfigError, OutputError

if TYPE_CHECKING:
    from guisekit.grid import GridResult


def grid_command(
    config: Annotated[
        Path, typer.Argument(help="Grid config (YAML); see examples/grid_salary.yaml.")
    ],
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Output file (.jsonl, .csv or .parquet); overrides `output` of the config.",
        ),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing output file.")] = False,
) -> None:
    """Build an identifier counterfactual grid and print its checks.

    Crosses the identifier table with the profiles, question variants, placements and
    languages of CONFIG, checks that no slot is left unfilled, that the prompts of each
    cell differ only in the identifier phrase, that counts equal the product of the
    inputs and that the languages are parallel, and writes the prompts (one row each,
    with its id, text and every slot value) only when every check passes. Exit status:
    0 written, 1 a check failed (nothing written), 2 bad input.

    The output's `id` and `text` columns feed `guisekit corpus` as a source file.

    **Example**

        guisekit grid examples/grid_salary.yaml --out out/grid_salary.parquet --overwrite
    """
    from guisekit.grid import build_grid, load_grid_config, resolve_inputs

    settings = load_grid_config(config)
    target = out_file if out_file is not None else settings.output_path
    if target is None:
        raise ConfigError(
            "no output file", location=str(config), hint="set `output:` or pass --out FILE"
        )
    if target.exists() and not overwrite:
        raise OutputError(f"{target} already exists", hint="pass --overwrite to replace it")
    result = build_grid(resolve_inputs(settings))
    _print_summary(result)
    if not result.passed:
        err.print("checks failed: nothing written")
        raise typer.Exit(1)
    result.write(target, overwrite=overwrite)
    err.print(f"{len(result.rows)} prompts written to {target}")


def _print_summary(result: GridResult) -> None:
    from rich.table import Table

    languages = result.inputs.languages
    counts = result.counts()
    table = Table(title=f"Grid {result.inputs.name}: prompts per axis and language")
    table.add_column("axis")
    for language in languages:
        table.add_column(language, justify="right")
    for axis in result.inputs.identifiers.axes:
        table.add_row(axis, *(str(counts[axis, language]) for language in languages))
    table.add_row(
        "total",
        *(
            str(sum(counts[a, language] for a in result.inputs.identifiers.axes))
            for language in languages
        ),
    )
    out.print(table)
    checks = Table(title="Grid checks")
    for column in ("check", "result", "checked", "failed"):
        checks.add_column(column)
    for check in result.checks:
        verdict = "[green]pass[/]" if check.passed else "[red]fail[/]"
        checks.add_row(check.name, verdict, str(check.checked), str(check.failed))
    out.print(checks)
    for check in result.checks:
        for failure in check.failures:
            err.print(f"{check.name}: {failure}", markup=False, highlight=False, soft_wrap=True)
