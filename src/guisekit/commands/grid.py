"""`guisekit grid`: build an identifier counterfactual grid, check it, write it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from guisekit.console import err, out
from guisekit.errors import ConfigError

if TYPE_CHECKING:
    from guisekit.grid import GridResult
    from guisekit.grid.compare import Comparison
    from guisekit.grid.config import GridConfig


def grid_command(
    config: Annotated[
        Path,
        typer.Argument(
            help="Grid config (YAML); see examples/grid_salary.yaml and"
            " examples/grid_benchmark.yaml."
        ),
    ],
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Output file (.jsonl, .csv or .parquet); overrides `output` of the config.",
        ),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing output file.")] = False,
    compare: Annotated[
        Path | None,
        typer.Option(
            "--compare",
            help="Compare the prompts with this prompt file (.jsonl, .csv, .parquet or .json)"
            " instead of writing them.",
        ),
    ] = None,
    compare_by: Annotated[
        Literal["id", "text"],
        typer.Option(help="Match prompts by id (and compare texts) or by text alone."),
    ] = "id",
    compare_id_column: Annotated[
        str, typer.Option(help="Column of the prompt id in the --compare file.")
    ] = "id",
    compare_text_column: Annotated[
        str, typer.Option(help="Column of the prompt text in the --compare file.")
    ] = "text",
) -> None:
    """Build an identifier counterfactual grid and print its checks.

    Crosses the identifier table with the profiles, question variants, placements and
    languages of CONFIG, checks that no slot is left unfilled, that the prompts of each
    cell differ only in the identifier phrase, that counts equal the product of the
    inputs and that the languages are parallel, and writes the prompts (one row each,
    with its id, text and every slot value) only when every check passes. Exit status:
    0 written, 1 a check failed (nothing written), 2 bad input.

    With --compare FILE nothing is written: the prompts are compared with FILE, a
    published grid, by id or by text, and the matches, mismatches, order and a word diff
    of the first mismatches are printed. Exit status as for diff: 0 every prompt matches
    in the same order, 1 some do not (or a check failed), 2 bad input.

    The output's `id` and `text` columns feed `guisekit corpus` as a source file.

    **Examples**

        guisekit grid examples/grid_salary.yaml --out out/grid_salary.parquet --overwrite

        guisekit grid examples/grid_benchmark.yaml --compare published.jsonl
    """
    from guisekit.outputs import arguments_of

    arguments = arguments_of(grid_command, locals())
    from guisekit.grid import build_grid, load_grid_config, resolve_inputs
    from guisekit.output_files import OutputFiles

    settings = load_grid_config(config)
    if compare is not None:
        if out_file is not None:
            raise ConfigError(
                "--compare writes nothing", hint="drop --out, or run once without --compare"
            )
        _compare(
            build_grid(resolve_inputs(settings)),
            compare,
            compare_by,
            compare_id_column,
            compare_text_column,
        )
        return
    target = out_file if out_file is not None else settings.output_path
    if target is None:
        raise ConfigError(
            "no output file", location=str(config), hint="set `output:` or pass --out FILE"
        )
    outputs = OutputFiles(
        [target],
        overwrite=overwrite,
        command="grid",
        arguments=arguments,
        config=settings.model_dump(mode="json"),
        inputs=[config, *_input_files(settings)],
    )
    outputs.check()  # before the grid is built
    result = build_grid(resolve_inputs(settings))
    _print_summary(result)
    if not result.passed:
        err.print("checks failed: nothing written")
        raise typer.Exit(1)
    with outputs:
        result.write(outputs.path(target), overwrite=True)
        outputs.add(target, len(result.rows))
        outputs.counts = {"prompts": len(result.rows), "checks_passed": len(result.checks)}
    err.print(f"{len(result.rows)} prompts written to {target}")


def _input_files(settings: GridConfig) -> list[Path]:
    """The files a grid config reads (a packaged identifier set is no file of the user's)."""
    found = []
    for value in (settings.identifiers, settings.profiles, settings.templates, settings.questions):
        path = settings.path(value if isinstance(value, str) else value.path)
        if path.is_file():
            found.append(path)
    return found


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


def _compare(
    result: GridResult, path: Path, by: Literal["id", "text"], id_column: str, text_column: str
) -> None:
    from guisekit.grid.compare import compare_rows, read_reference

    reference = read_reference(path, by=by, id_column=id_column, text_column=text_column)
    _print_summary(result)
    comparison = compare_rows(result.rows, reference, by=by, name=str(path))
    _print_comparison(comparison)
    if not result.passed:
        err.print("checks failed")
    if not (comparison.all_match and result.passed):
        raise typer.Exit(1)


def _share(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.1f}%)" if whole else str(part)


def _print_comparison(comparison: Comparison) -> None:
    from guisekit.grid.compare import word_diff

    c = comparison
    key = "same id and text" if c.by == "id" else "same text"
    lines = [
        f"compare by {c.by} with {c.reference}: {c.generated} generated, {c.in_file} in file",
        f"  matched ({key}): {_share(c.matched, c.generated)}",
    ]
    if c.by == "id":
        lines.append(f"  text differs: {c.text_differs}")
    lines += [
        f"  generated, not in file: {c.not_in_file}",
        f"  in file, not generated: {c.not_generated}",
        f"  at the same position: {_share(c.same_position, c.generated)}",
    ]
    for line in lines:
        out.print(line, markup=False, highlight=False)
    for mismatch in c.mismatches:
        out.print(
            f"{mismatch.kind}: {mismatch.id} (row {mismatch.position + 1})",
            markup=False,
            highlight=False,
        )
        if mismatch.expected is not None:
            label = "diff" if c.by == "id" else "diff with the closest unmatched text in the file"
            out.print(
                f"  {label}: {word_diff(mismatch.expected, mismatch.generated)}",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        else:
            out.print(
                f"  generated: {mismatch.generated}", markup=False, highlight=False, soft_wrap=True
            )
    for extra in c.extra_examples:
        out.print(f"in file, not generated: {extra}", markup=False, highlight=False)
    verdict = (
        f"result: all {c.generated} prompts match, in the same order"
        if c.all_match
        else "result: mismatches found"
    )
    out.print(verdict, markup=False, highlight=False)
