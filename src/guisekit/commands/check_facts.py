"""`guisekit check-facts`: the exact fact check on two texts or a file of pairs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from guisekit.console import err, out
from guisekit.errors import InputError
from guisekit.tables import DEFAULT_MAX_CHARS

if TYPE_CHECKING:
    from guisekit.facts import FactCheckResult
    from guisekit.facts.policy import DateOrder, FailOn

__all__ = ["check_facts_command", "text_or_file"]


def _names_file(value: str) -> bool:
    """Whether a command-line text is the path of a file (a long text is not: the system
    refuses a name over 255 bytes with an error rather than 'no such file')."""
    try:
        return len(value) < 4096 and Path(value).is_file()
    except (OSError, ValueError):
        return False


def text_or_file(value: str, what: str, max_chars: int) -> str:
    """``value`` itself, or the UTF-8 text of the file it names; empty or too long raises."""
    path = Path(value)
    if _names_file(value):
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
            help="Write per-pair verdicts, the facts of each side and every discrepancy "
            "(.jsonl, .csv or .parquet)."
        ),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing report.")] = False,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Processes checking --pairs (default: the usable cores); the output is "
            "the same for any number.",
        ),
    ] = None,
    show: Annotated[
        Literal["auto", "all", "failures"],
        typer.Option(
            help="Pairs printed: all, or failures (those that did not pass) and the totals; "
            "auto: failures when --report is given (the report has every pair), else all."
        ),
    ] = "auto",
    max_chars: Annotated[int, typer.Option(help="Longest text accepted.")] = DEFAULT_MAX_CHARS,
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            help="Exit 1 on any 'fail' discrepancy (default), or on any 'warn' one too.",
        ),
    ] = "fail",
    date_order: Annotated[
        str,
        typer.Option(
            "--date-order",
            help="Read 3/4/2024 month-first (mdy), day-first (dmy), or by context (auto: "
            "day-first in an Indian context; ambiguous dates warn).",
        ),
    ] = "auto",
) -> None:
    """Check that a rewrite kept every fact: amounts, dates, counts, negation and names.

    Prints the facts found on each side and every discrepancy. Every detected change
    fails; a warning means the check could not decide and says why. Exit status works
    like `diff`: 0 when every pair passes, 1 when any pair fails (with `--fail-on warn`,
    also when any warns), 2 on bad input.

    **Examples**

        guisekit check-facts "I paid $1,200 on 03/14/2023." "On March 14, 2023 I paid $1,200."

        guisekit check-facts "CTC 12-15 LPA" "CTC 12-18 LPA"

        guisekit check-facts --pairs examples/data/pairs.jsonl --report out/pairs-facts.jsonl

    With --report, only the pairs that did not pass are printed (then the totals);
    --show all prints every pair.
    """
    from guisekit.outputs import arguments_of

    arguments = arguments_of(check_facts_command, locals())
    from guisekit.facts import SeverityPolicy
    from guisekit.output_files import OutputFiles
    from guisekit.parallel import chunked, usable_cores
    from guisekit.stages import CHECK_CHUNK, check_pairs_chunk, run_chunks
    from guisekit.tables import read_rows, write_rows

    if fail_on not in ("warn", "fail"):
        raise InputError(f"--fail-on {fail_on!r} is not a choice", hint="use warn or fail")
    if date_order not in ("mdy", "dmy", "auto"):
        raise InputError(
            f"--date-order {date_order!r} is not a choice", hint="use mdy, dmy or auto"
        )
    fail: FailOn = fail_on  # type: ignore[assignment]
    order: DateOrder = date_order  # type: ignore[assignment]
    policy = SeverityPolicy(fail_on=fail, date_order=order)
    outputs = None
    if report is not None:  # every refusal of the report before any work
        texts = [Path(t) for t in (original, rewrite) if t is not None and _names_file(t)]
        outputs = OutputFiles(
            [report],
            overwrite=overwrite,
            command="check-facts",
            arguments=arguments,
            config={"fail_on": policy.fail_on, "date_order": policy.date_order},
            inputs=[pairs, *texts],
        )
        outputs.check()
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
                text_or_file(original, "original", max_chars),
                text_or_file(rewrite, "rewrite", max_chars),
            )
        ]
    else:
        raise InputError(
            "nothing to check", hint="give ORIGINAL and REWRITE, or --pairs FILE (see --help)"
        )
    results = run_chunks(
        check_pairs_chunk,
        [(policy, chunk) for chunk in chunked(items, CHECK_CHUNK)],
        workers=workers or usable_cores(),
    )
    if outputs is not None and report is not None:
        with outputs:
            lines = [_report_row(pid, res) for pid, res in results]
            write_rows(outputs.path(report), lines, overwrite=True)
            outputs.add(report, len(lines))
            outputs.counts = dict(Counter(res.verdict for _, res in results))
    if len(results) == 1:
        _print_facts(results[0][1])
    if show == "auto":
        show = "all" if report is None else "failures"
    _print_results(results, only_failures=show == "failures")
    if report is not None:
        err.print(f"report written to {report}")
    raise typer.Exit(1 if any(not res.passed for _, res in results) else 0)


def _report_row(pair_id: str, result: FactCheckResult) -> dict[str, Any]:
    return {"id": pair_id, **result.to_dict()}


def _print_facts(result: FactCheckResult) -> None:
    """The facts found on each side: kind, value (with role/approximator), span, text."""
    from rich.table import Table

    table = Table(title="Facts found")
    for column in ("side", "kind", "value", "span", "text"):
        table.add_column(column)
    for side, facts in (("A", result.original_facts), ("B", result.rewrite_facts)):
        for fact in facts:
            value = fact.label.partition(":")[2]
            table.add_row(side, fact.kind, value, f"{fact.start}-{fact.end}", fact.text)
        if not facts:
            table.add_row(side, "-", "(no facts)", "", "")
    out.print(table)


def _print_results(
    results: list[tuple[str, FactCheckResult]], *, only_failures: bool = False
) -> None:
    """One row per pair (with ``only_failures``, per pair that did not pass: a report file
    holds the rest, and a 100k-row table costs more than the checks), then the totals."""
    from rich.table import Table

    title = "Exact fact check" + (": pairs that did not pass" if only_failures else "")
    table = Table(title=title, show_lines=False)
    for column in ("pair", "verdict", "facts A", "facts B", "discrepancies"):
        table.add_column(column)
    colours = {"pass": "green", "warn": "yellow", "fail": "red"}
    shown = [(p, r) for p, r in results if r.verdict != "pass"] if only_failures else results
    for pair_id, res in shown:
        found = "; ".join(f"{d.severity}: {d.describe()}" for d in res.discrepancies) or "-"
        table.add_row(
            pair_id,
            f"[{colours[res.verdict]}]{res.verdict}[/]",
            str(len(res.original_facts)),
            str(len(res.rewrite_facts)),
            found,
        )
    if shown:
        out.print(table)
    counts = {v: sum(1 for _, r in results if r.verdict == v) for v in colours}
    out.print(
        f"{len(results)} pairs: {counts['pass']} pass, {counts['warn']} warn, {counts['fail']} fail"
    )
