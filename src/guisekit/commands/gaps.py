"""``guisekit gaps``: gaps between guises at both scales, with controls and materiality."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from guisekit.gaps import GapsResult


def _pairs(value: str | None, what: str) -> dict[str, str]:
    from guisekit.errors import ConfigError

    out: dict[str, str] = {}
    for item in (value or "").split(","):
        if not item.strip():
            continue
        key, sep, level = item.partition("=")
        if not sep or not key.strip() or not level.strip():
            raise ConfigError(f"{item!r} is not axis=value", location=what)
        out[key.strip()] = level.strip()
    return out


def _weights(path: Path | None) -> dict[str, float] | None:
    if path is None:
        return None
    from guisekit.tables import read_rows

    rows = read_rows(path, required=("source_id", "weight"))
    return {str(r["source_id"]): float(r["weight"]) for _, r in rows}


def _check_gap_margin(margin: float, y: Any, *, is_rate: bool) -> None:
    """A gap can never exceed the outcome's range, so a wider margin calls every contrast
    equivalent (and one near the float limit overflowed the report's plot)."""
    import numpy as np

    from guisekit.errors import ConfigError

    if is_rate:
        if margin > 100:
            raise ConfigError(
                f"{margin:g} pp is wider than any gap between rates; give a margin in (0, 100]",
                location="--margin",
            )
        return
    finite = y[np.isfinite(y)] if len(y) else y
    low, high = (float(finite.min()), float(finite.max())) if len(finite) else (0.0, 0.0)
    span = high - low if high > low else max(abs(low), abs(high), 1.0)
    if margin > span:
        raise ConfigError(
            f"{margin:g} is wider than the outcome's whole range ({low:g} to {high:g}); "
            f"give a margin in (0, {span:g}]",
            location="--margin",
        )


def run_gaps(
    corpus: Path,
    decisions: Path,
    out_dir: Path,
    *,
    outcome: str = "outcome",
    mitigated: Path | None = None,
    weights: Path | None = None,
    reference: str | None = None,
    canonical: str | None = None,
    margin: float | None = None,
    margin_h: float = 0.20,
    margin_air: float = 0.80,
    alpha: float = 0.05,
    resamples: int = 2000,
    seed: int = 0,
    ci: float = 0.95,
    table_format: str = "csv",
    overwrite: bool = False,
) -> tuple[GapsResult, dict[str, Path]]:
    """Everything ``gaps`` does, callable by ``study``; the files are published together
    with their ``manifest.json`` (:class:`~guisekit.outputs.OutputSet`)."""
    from guisekit.outputs import OutputSet, arguments_of

    arguments = arguments_of(run_gaps, locals())
    from guisekit.errors import ConfigError
    from guisekit.gaps import Margins, analyse
    from guisekit.gaps.columns import CorpusLoader
    from guisekit.gaps.report import output_files, write_outputs
    from guisekit.stats import check_level

    inputs = [p for p in (corpus, decisions, mitigated, weights) if p is not None]
    fixed = ("gaps.json", "report.html")  # the tables' names depend on the result
    early = OutputSet(out_dir, fixed, overwrite=overwrite, command="gaps", inputs=inputs)
    early.check()
    check_level(ci)
    if not 0 < alpha < 0.5:
        raise ConfigError("alpha must lie in (0, 0.5)", location="--alpha")
    if (
        not 0 < margin_air < 1
        or not 0 < margin_h < math.inf  # NaN fails every comparison
        or (margin is not None and not 0 < margin < math.inf)
    ):
        raise ConfigError(
            "margins must be positive finite numbers (and the AIR margin below 1)",
            location="--margin*",
        )
    if margin_h > math.pi:
        raise ConfigError(
            f"{margin_h:g} exceeds the largest possible |Cohen's h| (pi); give a margin in (0, pi]",
            location="--margin-h",
        )
    refs = _pairs(reference, "--reference")
    w = _weights(weights)
    # read and coded as columns where pyarrow can (guisekit.gaps.columns), else row by row
    loader = CorpusLoader(corpus, outcome=outcome, references=refs, weights=w)
    table = loader.table
    main_table = table(decisions)
    pairs = {k: tuple(v.split(":", 1)) for k, v in _pairs(canonical, "--canonical").items()}
    if any(len(p) != 2 for p in pairs.values()):
        raise ConfigError("write canonical pairs as axis=focal:reference", location="--canonical")
    if margin is not None:
        _check_gap_margin(margin, main_table.y, is_rate=main_table.is_rate)
    scaled = None if margin is None else (margin / 100 if main_table.is_rate else margin)
    result = analyse(
        main_table,
        margins=Margins(gap=scaled, h=margin_h, air=margin_air, alpha=alpha),
        n_resamples=resamples,
        seed=seed,
        level=ci,
        mitigated=table(mitigated) if mitigated is not None else None,
        canonical=pairs or None,  # type: ignore[arg-type]
    )
    files = output_files(result, table_format)
    outputs = OutputSet(
        out_dir, files, overwrite=overwrite, command="gaps", arguments=arguments, inputs=inputs
    )
    outputs.manifest["started"] = early.manifest["started"]  # the run began before reading
    with outputs:
        staged = write_outputs(result, outputs.staging, table_format=table_format, overwrite=True)
        for name, rows in files.items():
            if rows is not None:
                outputs.add(name, rows)
        verdicts = {k: len(v) for k, v in result.verdicts().items()}
        outputs.counts = {"contrasts": len(result.contrasts), **verdicts, **result.left_out}
    return result, {key: out_dir / path.name for key, path in staged.items()}


def gaps_command(
    corpus: Annotated[Path, typer.Argument(help="Corpus or grid the decisions were taken on.")],
    decisions: Annotated[Path, typer.Argument(help="decisions file from guisekit decide.")],
    out_dir: Annotated[
        Path, typer.Option("--out", help="Folder for gaps.json, tables, report.html.")
    ],
    outcome: Annotated[
        str,
        typer.Option(help="What to analyse: outcome, a prob_<label> column, or label=<label>."),
    ] = "outcome",
    mitigated: Annotated[
        Path | None,
        typer.Option(help="Decisions on the standardised inputs (M1), same variant ids."),
    ] = None,
    weights: Annotated[
        Path | None, typer.Option(help="Population weights: a table of source_id, weight.")
    ] = None,
    reference: Annotated[
        str | None, typer.Option(help="Reference levels, e.g. education=high_school,age=young.")
    ] = None,
    canonical: Annotated[
        str | None, typer.Option(help="Grid canonical pairs, e.g. caste=brahmin:dalit.")
    ] = None,
    margin: Annotated[
        float | None,
        typer.Option(
            help="Equivalence margin of a gap: pp for rates (default 1), outcome "
            "units otherwise (default 1% of the mean outcome)."
        ),
    ] = None,
    margin_h: Annotated[float, typer.Option(help="Equivalence margin of |Cohen's h|.")] = 0.20,
    margin_air: Annotated[float, typer.Option(help="Lowest acceptable AIR (and 1/AIR).")] = 0.80,
    alpha: Annotated[
        float, typer.Option(help="Test level of TOST and minimum-effect tests.")
    ] = 0.05,
    resamples: Annotated[int, typer.Option(help="Source-cluster bootstrap resamples.")] = 2000,
    seed: Annotated[int, typer.Option(min=0, help="Bootstrap seed.")] = 0,
    ci: Annotated[float, typer.Option(help="Confidence level of the intervals.")] = 0.95,
    table_format: Annotated[str, typer.Option(help="Tables as csv, parquet or jsonl.")] = "csv",
    overwrite: Annotated[bool, typer.Option(help="Replace an earlier run's outputs.")] = False,
) -> None:
    """Measure gaps between guises at the group and the individual scale.

    Directional within-source contrasts per persona axis, transform and identifier axis
    with source-cluster bootstrap intervals; AIR with the four-fifths flag, Cohen's h and
    TOST equivalence / minimum-effect tests (each persona gap is reported as shown
    equivalent to zero, shown to exist, or inconclusive); flip rate, MPAD and total
    variation next to the repeat and option-order controls; variance components;
    positive-control ratios (fact edits vs the largest persona gap); identifier-grid
    metrics; and, with --mitigated, M0 vs M1 side by side.

    **Example**

        guisekit gaps out/quickstart/corpus.jsonl out/decisions.jsonl \\
          --outcome prob_monetary_action --out out/gaps
    """
    from guisekit.console import err
    from guisekit.gaps.report import print_result

    result, paths = run_gaps(
        corpus,
        decisions,
        out_dir,
        outcome=outcome,
        mitigated=mitigated,
        weights=weights,
        reference=reference,
        canonical=canonical,
        margin=margin,
        margin_h=margin_h,
        margin_air=margin_air,
        alpha=alpha,
        resamples=resamples,
        seed=seed,
        ci=ci,
        table_format=table_format,
        overwrite=overwrite,
    )
    print_result(result)
    for reason, count in result.left_out.items():
        if count:
            err.print(f"{count} {reason.replace('_', ' ')}")
    for name, path in paths.items():
        err.print(f"{name}: {path}")
