"""``guisekit gelbach``: decompose a persona gap in an outcome into attribute channels."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

if TYPE_CHECKING:
    import pyarrow as pa

    from guisekit.attributes import AttributeSet
    from guisekit.gelbach import FocalContrast, GelbachData, GelbachResult


FEW_CLUSTERS = 30


def join_decisions(
    rows: list[dict[str, Any]], decisions: list[dict[str, Any]], outcome: str
) -> list[dict[str, Any]]:
    """Attribute rows with the decisions' ``outcome`` (mean over a variant's ok decisions:
    repeats and option orders) joined on ``variant_id``; rows without a decision get
    no outcome and are counted as missing values."""
    from guisekit.errors import InputError
    from guisekit.gaps.table import outcome_values

    values = outcome_values(decisions, outcome)
    sums: dict[str, list[float]] = {}
    for row, value in zip(decisions, values, strict=True):
        if value == value:  # not NaN
            sums.setdefault(str(row["variant_id"]), []).append(float(value))
    if not set(sums) & {str(r["variant_id"]) for r in rows}:
        raise InputError(
            "no decision matches a variant of the attributes table",
            hint="give the attributes of the corpus the decisions were taken on",
        )
    name = outcome
    return [
        {**r, name: (sum(v) / len(v)) if (v := sums.get(str(r["variant_id"]))) else None}
        for r in rows
    ]


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def _constant_within_sources(
    rows: list[dict[str, Any]], names: list[str], source_column: str
) -> list[str]:
    """Attributes whose value never changes within a source (none to decompose)."""
    seen: dict[tuple[str, str], set[object]] = {}
    for row in rows:
        for name in names:
            value = row.get(name)
            if value is not None and value != "":  # CSV writes a missing value as ""
                seen.setdefault((name, str(row.get(source_column))), set()).add(value)
    return [n for n in names if all(len(v) <= 1 for (m, _), v in seen.items() if m == n)]


def _families(
    spec: str | None, attribute_set: AttributeSet, columns: set[str]
) -> tuple[dict[str, str], list[str]]:
    """Attribute -> family from ``--attributes`` (``name`` or ``name=family`` items) or,
    without it, every attribute of the set found among ``columns``; also the set's
    attributes that the data lacks (reported, not fatal, in the second case)."""
    from guisekit.errors import ConfigError

    known = attribute_set.families()
    if spec is None:
        chosen: dict[str, str] = {n: f for n, f in known.items() if n in columns}
        if not chosen:
            raise ConfigError(
                f"no attribute of the set {attribute_set.name!r} is a column of the data",
                hint="name the attribute columns with --attributes a,b,c=content",
            )
        return chosen, [name for name in known if name not in columns]
    chosen = {}
    for item in _split(spec):
        name, family = attribute_set.family_of(item, "--attributes")
        if name in chosen:
            raise ConfigError(f"attribute {name!r} is listed twice", location="--attributes")
        chosen[name] = family
    if not chosen:
        raise ConfigError("--attributes lists no attribute", hint="e.g. --attributes a,b,c")
    return chosen, []


def gelbach_command(
    data: Annotated[
        Path, typer.Argument(help="Table of variants (.jsonl/.csv/.parquet) with outcome.")
    ],
    outcome: Annotated[str, typer.Option(help="Outcome column (the decision, a number).")],
    focal_column: Annotated[
        str, typer.Option(help="Column of the focal contrast, e.g. a persona axis: education.")
    ],
    out_dir: Annotated[
        Path, typer.Option("--out", help="Folder for gelbach.csv, gelbach.json and the plot.")
    ],
    focal_level: Annotated[
        str | None,
        typer.Option(
            help="Focal level(s), comma-separated, one dummy each; omit to use a numeric "
            "--focal-column as it is."
        ),
    ] = None,
    base_level: Annotated[
        str | None,
        typer.Option(
            help="Base level(s) the focal levels are compared with (rows at other levels are "
            "left out); default: every other level."
        ),
    ] = None,
    source_column: Annotated[
        str, typer.Option(help="Source id column (absorbed as fixed effects, clusters).")
    ] = "source_id",
    attributes: Annotated[
        str | None,
        typer.Option(
            help="Attribute columns, comma-separated; families come from the attribute set "
            "or as name=family. Default: every attribute of the set present in the data."
        ),
    ] = None,
    attribute_set: Annotated[
        str,
        typer.Option(
            help="Attribute set giving families: complaints, complaints_paper, interviews "
            "or a path."
        ),
    ] = "complaints",
    resamples: Annotated[
        int, typer.Option(help="Source-cluster bootstrap resamples (0: no intervals).")
    ] = 2000,
    seed: Annotated[int, typer.Option(min=0, help="Bootstrap seed.")] = 0,
    ci: Annotated[float, typer.Option(help="Confidence level of the intervals.")] = 0.95,
    plot_format: Annotated[Literal["png", "svg"], typer.Option(help="Format of the plot.")] = "png",
    decisions: Annotated[
        Path | None,
        typer.Option(
            help="decisions file of guisekit decide, joined on variant_id (the outcome is "
            "averaged over repeats and option orders); DATA is then the attributes table."
        ),
    ] = None,
    control: Annotated[
        str | None,
        typer.Option(
            help="Other persona axes held fixed in both models (not mediators), "
            "comma-separated, e.g. age,geography,ses."
        ),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace existing outputs.")] = False,
) -> None:
    """Split a persona gap in an outcome into delivery, structure and content.

    Gelbach (2016) decomposition with source fixed effects absorbed: the base model
    regresses the outcome on the focal contrast within sources, the full model adds the
    attributes, and the change in the focal coefficient is split exactly into one term
    per attribute, summed by family. Intervals come from a seeded source-cluster
    bootstrap. Writes a tidy table (gelbach.csv), gelbach.json and a plot.

    **Example**

        guisekit gelbach decisions.csv --outcome approved --focal-column education \\
          --focal-level college --base-level high_school --source-column source_id \\
          --attributes fk_grade,politeness,evidence --out out/gelbach
    """
    from pydantic import ValidationError

    from guisekit.extras import require
    from guisekit.outputs import OutputSet, arguments_of

    arguments = arguments_of(gelbach_command, locals())

    require("plots", feature="guisekit gelbach (its plot)")
    from guisekit.attributes import load_attribute_set
    from guisekit.console import err
    from guisekit.errors import ConfigError
    from guisekit.gelbach import FocalContrast, gelbach, write_report

    try:
        contrast = FocalContrast(
            column=focal_column, levels=_split(focal_level), base_levels=_split(base_level)
        )
    except ValidationError as exc:
        raise ConfigError(exc.errors()[0]["msg"], location="--focal-level/--base-level") from None
    controls = _split(control)
    if focal_column in controls:
        raise ConfigError("the focal column cannot also be a control", location="--control")
    names = ("gelbach.csv", "gelbach.json", f"gelbach.{plot_format}")
    outputs = OutputSet(
        out_dir,
        names,
        overwrite=overwrite,
        command="gelbach",
        arguments=arguments,
        inputs=(p for p in (data, decisions, Path(attribute_set)) if p is not None),
    )
    outputs.check()  # every refusal before the data are read
    table = _load(
        data,
        decisions,
        outcome=outcome,
        contrast=contrast,
        source_column=source_column,
        controls=controls,
        attributes=attributes,
        attribute_set=load_attribute_set(attribute_set),
    )
    for reason, count in table.left_out.items():
        if count:
            err.print(f"{count} rows left out ({reason.replace('_', ' ')})")
    if table.n_sources < 2 and resamples > 0:
        from guisekit.errors import InputError

        raise InputError(  # resampling one cluster gives zero-width intervals, not certainty
            f"only {table.n_sources} source (cluster): a cluster bootstrap cannot give intervals",
            hint="add sources, or pass --resamples 0 for point estimates only",
        )
    if table.n_sources < FEW_CLUSTERS:
        err.print(
            f"warning: only {table.n_sources} sources (clusters); cluster-bootstrap intervals "
            f"are unreliable below about {FEW_CLUSTERS}"
        )
    result = gelbach(table, n_resamples=resamples, seed=seed, ci_level=ci)
    if result.replicates is not None and result.replicates.failed:
        failed = result.replicates.failed
        err.print(
            f"warning: {failed} of {resamples} bootstrap resamples "
            f"({failed / resamples:.0%}) were singular and left out of the intervals"
        )
    with outputs:  # table, JSON and plot published together, with the manifest
        paths = write_report(result, outputs.staging, plot_format=plot_format, overwrite=True)
        outputs.add("gelbach.csv", len(result.rows()))
        outputs.counts = {"rows_used": result.decomposition.n_obs, **table.left_out}
    _print(result)
    for name, path in paths.items():
        err.print(f"{name}: {out_dir / path.name}")


def _load(
    data: Path,
    decisions: Path | None,
    *,
    outcome: str,
    contrast: FocalContrast,
    source_column: str,
    controls: tuple[str, ...],
    attributes: str | None,
    attribute_set: AttributeSet,
) -> GelbachData:
    """The validated arrays: read and checked as columns where pyarrow can read the files
    (:mod:`guisekit.gelbach.columns`), else, or where a value needs it, row by row; both
    give the same data and messages."""
    from guisekit.console import err
    from guisekit.gelbach import GelbachData
    from guisekit.gelbach.columns import from_table

    columnar = _read_columnar(data, decisions, outcome=outcome, source_column=source_column)
    rows: list[dict[str, Any]] = []
    if columnar is None:
        rows = _read_rows(data, decisions, outcome=outcome, source_column=source_column)
        columns = {name for row in rows for name in row}
    else:
        columns = set(columnar.column_names)
    focal_column = contrast.column
    for name in (focal_column, *controls):
        if name not in columns:
            from guisekit.errors import InputError

            raise InputError(
                f"{data}: no column {name!r} in any row",
                hint="name a persona column with --focal-column/--control",
            )
    families, absent = _families(attributes, attribute_set, columns)
    if absent:
        err.print(f"not in the data, left out: {', '.join(absent)}")
    if attributes is None:  # defaults: leave out what source fixed effects would absorb
        constant = _constant(columnar, rows, list(families), source_column, focal_column)
        if constant:
            err.print(f"constant within every source, left out: {', '.join(constant)}")
            families = {n: f for n, f in families.items() if n not in constant}
    if columnar is not None:
        table = from_table(
            columnar,
            outcome=outcome,
            focal=contrast,
            families=families,
            source=source_column,
            controls=controls,
        )
        if table is not None:
            return table
    if columnar is not None:  # a value the row path must judge
        rows = _read_rows(data, decisions, outcome=outcome, source_column=source_column)
    # JSONL tables leave persona columns out of non-persona rows: those rows are outside
    # the contrast (and miss their controls), not malformed
    rows = [{focal_column: None, **dict.fromkeys(controls), **row} for row in rows]
    return GelbachData.from_rows(
        rows,
        outcome=outcome,
        focal=contrast,
        families=families,
        source=source_column,
        controls=controls,
    )


def _read_rows(
    data: Path, decisions: Path | None, *, outcome: str, source_column: str
) -> list[dict[str, Any]]:
    from guisekit.tables import read_rows

    if decisions is not None:
        return join_decisions(
            [row for _, row in read_rows(data, required=("variant_id", source_column))],
            [row for _, row in read_rows(decisions, required=("variant_id",))],
            outcome,
        )
    return [row for _, row in read_rows(data, required=(outcome, source_column))]


def _read_columnar(
    data: Path, decisions: Path | None, *, outcome: str, source_column: str
) -> pa.Table | None:
    """The data (joined to the decisions) as one pyarrow table, or ``None`` where the row
    reader must read it (no pyarrow, or a file only the row reader reads exactly)."""
    from guisekit.gelbach.columns import join_decisions_table, read_table

    table = read_table(data)
    if table is None:
        return None
    if decisions is None:
        # a JSONL line without the outcome key reads as a missing outcome (the row reader
        # refused it); a file without the column at all is the row reader's to name
        return table if outcome in table.column_names else None
    answers = read_table(decisions)
    if answers is None:
        return None
    return join_decisions_table(table, answers, outcome)


def _constant(
    columnar: pa.Table | None,
    rows: list[dict[str, Any]],
    names: list[str],
    source_column: str,
    focal_column: str,
) -> list[str]:
    from guisekit.gelbach.columns import constant_within_sources

    if columnar is not None:
        found = constant_within_sources(columnar, names, source_column, focal_column)
        if found is not None:
            return found
        rows = columnar.to_pylist()
    in_contrast = [r for r in rows if r.get(focal_column) is not None]
    return _constant_within_sources(in_contrast, names, source_column)


def _print(result: GelbachResult) -> None:
    from rich.table import Table

    from guisekit.console import interval, number, out

    dec = result.decomposition
    level = f"{result.ci_level:.0%} CI"
    table = Table(
        title=f"Gelbach decomposition of {dec.outcome} ({dec.n_obs} rows, "
        f"{dec.n_sources} sources; source fixed effects absorbed)"
    )
    for column in ("focal", "term", "family", "estimate", level, "share of base"):
        table.add_column(column, justify="right" if column in ("estimate", level) else "left")
    for row in result.rows():
        share = "-" if row.share_of_base is None else f"{row.share_of_base:.1%}"
        name = row.term if row.kind != "attribute" else f"  {row.term}"
        bounds = interval(row.ci_low, row.ci_high)
        table.add_row(row.focal, name, row.family or "-", number(row.estimate), bounds, share)
    out.print(table)
