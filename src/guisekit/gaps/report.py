"""Outputs of ``gaps``: ``gaps.json``, tidy tables (CSV or Parquet), a self-contained
``report.html`` with its figures inlined, and rich console tables.

Every number shown to a reader goes through :func:`guisekit.console.number` (display
units: percentage points for rates), so the console and the HTML agree.
Figures are drawn on bare matplotlib ``Figure`` objects (no pyplot state), imported only
when a report is written.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from pathlib import Path
from typing import Any

from guisekit.errors import OutputError
from guisekit.gaps.analysis import GapsResult, contrast_rows
from guisekit.tables import write_rows

__all__ = ["fmt", "print_result", "write_outputs"]


def fmt(value: float | None) -> str:
    """The one number format of the gap report: :func:`guisekit.console.number`."""
    from guisekit.console import number

    return number(value)


def _tables(result: GapsResult) -> dict[str, list[dict[str, Any]]]:
    tables: dict[str, list[dict[str, Any]]] = {"contrasts": contrast_rows(result)}
    tables["instability"] = [
        {
            "statistic": i.statistic,
            "scale": i.scale,
            "value": i.value,
            "ci_low": i.ci_low,
            "ci_high": i.ci_high,
            "pairs": i.pairs,
        }
        for i in result.instability
    ]
    if result.control_ratios:
        tables["controls"] = [
            {
                "control": r.control,
                "largest_persona_gap": r.largest_gap,
                "ratio": r.ratio,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
            }
            for r in result.control_ratios
        ]
    if result.variance is not None:
        tables["variance"] = [
            {
                "component": c.name,
                "estimate": c.estimate,
                "moment_estimate": c.raw,
                "share": c.share,
                "ci_low": c.ci_low,
                "ci_high": c.ci_high,
                "df": c.df,
            }
            for c in result.variance.components
        ]
    if result.grid:
        tables["grid"] = [
            {
                "axis": g.axis,
                "identifier": ident,
                "mean_delta_pct": value,
                "axis_mean_abs_delta_pct": g.mean_abs_delta_pct,
                "violation_at_10": g.violation_at_10,
                "kendall_w": g.kendall_w,
                "kendall_p": g.kendall_p,
                "kendall_p_bh": g.kendall_p_bh,
                "max_gap_pct": g.max_gap_pct,
                "merit_sensitivity_pct": g.merit_sensitivity_pct,
                "profile_rank_agreement": g.profile_rank_agreement,
            }
            for g in result.grid
            for ident, value in g.mean_delta_pct.items()
        ]
    if result.mitigation:
        s = result.scale
        tables["mitigation"] = [
            {
                "contrast": m.name,
                "kind": m.kind,
                "gap_m0": m.gap_m0 * s,
                "gap_m1": m.gap_m1 * s,
                "change": m.change * s,
                "ci_low": m.ci_low * s,
                "ci_high": m.ci_high * s,
            }
            for m in result.mitigation
        ]
    return tables


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _forest(result: GapsResult) -> str:
    from matplotlib.figure import Figure

    rows = [c for c in result.contrasts]
    s = result.scale
    fig = Figure(figsize=(9, 0.35 * len(rows) + 1.5), layout="constrained")
    ax = fig.subplots()
    colours = {"equivalent": "tab:green", "exists": "tab:red", "inconclusive": "tab:gray"}
    # the band is clipped to the points' extent: a margin near the float limit (or a
    # degenerate, non-finite estimate) made matplotlib's transform singular and crash
    seen = [abs(v * s) for c in rows for v in (c.ci_low, c.ci_high, c.gap)]
    extent = max([v for v in seen if math.isfinite(v)] + [0.0]) or 1.0
    for y, c in enumerate(reversed(rows)):
        if all(math.isfinite(v) for v in (c.ci_low * s, c.ci_high * s)):
            ax.plot([c.ci_low * s, c.ci_high * s], [y, y], color=colours[c.verdict])
        if math.isfinite(c.gap * s):
            ax.plot([c.gap * s], [y], "o", color=colours[c.verdict])
        band = c.margin_gap * s
        if math.isfinite(band) and band > 0:
            band = min(band, 2 * extent)
            ax.fill_betweenx([y - 0.4, y + 0.4], -band, band, color="tab:green", alpha=0.08)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [c.name for c in reversed(rows)], fontsize="small")
    ax.set_xlabel(f"gap ({result.unit}); green band: equivalence margin; colour: verdict")
    ax.set_title(f"Contrasts in {result.outcome} ({result.level:.0%} intervals)")
    return _png(fig)


def _two_scales(result: GapsResult) -> str:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 3.8), layout="constrained")
    left, right = fig.subplots(1, 2)
    s = result.scale
    persona = [c for c in result.contrasts if c.kind in ("persona", "identifier")]
    controls = [c for c in result.contrasts if c.kind == "control"]
    items = [*persona, *controls]
    left.barh(
        range(len(items)),
        [abs(c.gap) * s if math.isfinite(c.gap * s) else 0.0 for c in items],
        color=["tab:blue"] * len(persona) + ["tab:orange"] * len(controls),
    )
    left.set_yticks(range(len(items)), [c.name for c in items], fontsize="x-small")
    left.set_xlabel(f"|gap| ({result.unit}); blue: persona, orange: fact change")
    left.set_title("Group scale: style vs relevant facts")
    stats = sorted({i.statistic for i in result.instability})
    width = 0.25
    for j, scale in enumerate(("persona", "repeat", "order")):
        values = [
            next(
                (i.value for i in result.instability if i.statistic == st and i.scale == scale),
                math.nan,
            )
            for st in stats
        ]
        right.bar(
            [x + j * width for x in range(len(stats))],
            [0 if not math.isfinite(v) else v for v in values],
            width,
            label=scale,
        )
    right.set_xticks([x + width for x in range(len(stats))], stats)
    right.set_title("Individual scale vs noise controls")
    right.legend(fontsize="small")
    return _png(fig)


def _heatmaps(result: GapsResult) -> str | None:
    if not result.grid:
        return None
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 0.5 + 1.1 * len(result.grid)), layout="constrained")
    axes = fig.subplots(len(result.grid), 1, squeeze=False)
    for ax, g in zip(axes[:, 0], result.grid, strict=True):
        names = list(g.mean_delta_pct)
        values = [[g.mean_delta_pct[n] for n in names]]
        bound = max([1e-9] + [abs(v) for v in values[0] if math.isfinite(v)])
        image = ax.imshow(values, cmap="RdBu", vmin=-bound, vmax=bound, aspect="auto")
        ax.set_xticks(range(len(names)), names, fontsize="x-small", rotation=30)
        ax.set_yticks([0], [g.axis])
        fig.colorbar(image, ax=ax, label="Mean Delta %")
    return _png(fig)


def _html_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "<p>none</p>"
    head = "".join(f"<th>{html.escape(str(k))}</th>" for k in rows[0])
    body = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(fmt(v) if isinstance(v, float) else str(v))}</td>"
            for v in r.values()
        )
        + "</tr>"
        for r in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _html(result: GapsResult, tables: dict[str, list[dict[str, Any]]]) -> str:
    verdicts = result.verdicts()
    summary = "".join(
        f"<li><b>{html.escape(kind)}</b>: {html.escape(', '.join(names) or 'none')}</li>"
        for kind, names in (
            ("shown equivalent to zero", verdicts["equivalent"]),
            ("shown to exist (beyond the margin)", verdicts["exists"]),
            ("inconclusive", verdicts["inconclusive"]),
        )
    )
    sentences = "".join(
        f"<li>{html.escape(r.sentence())} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]</li>"
        for r in result.control_ratios
    )
    figures = [_forest(result), _two_scales(result)]
    heat = _heatmaps(result)
    if heat:
        figures.append(heat)
    images = "".join(f'<img alt="figure" src="data:image/png;base64,{f}">' for f in figures)
    sections = "".join(
        f"<h2>{html.escape(name)}</h2>{_html_table(rows)}" for name, rows in tables.items()
    )
    note = html.escape(result.variance_note)
    margin = result.contrasts[0].margin_gap * result.scale if result.contrasts else math.nan
    style = (
        "body{font-family:sans-serif;max-width:1100px;margin:auto}"
        "table{border-collapse:collapse;font-size:12px}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}img{max-width:100%}"
    )
    m = result.margins
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>guisekit gaps</title>
<style>{style}</style></head><body>
<h1>Gaps in {html.escape(result.outcome)}</h1>
<p>{result.n_decisions:,} decisions, {result.n_variants:,} variants, {result.n_sources:,} sources;
{result.resamples:,} source-cluster bootstrap resamples (seed {result.seed}),
{result.level:.0%} intervals; units: {html.escape(result.unit)}.
Margins: |gap| &lt; {fmt(margin)}, |h| &lt; {fmt(m.h)}, AIR &gt; {fmt(m.air)};
alpha {fmt(m.alpha)}.</p>
<h2>Verdicts (persona and identifier contrasts)</h2><ul>{summary}</ul>
<h2>Positive controls</h2><ul>{sentences or "<li>no fact-change variants in the corpus</li>"}</ul>
<p>Variance components: {note}</p>
{images}{sections}</body></html>"""


def _check_format(table_format: str) -> None:
    if table_format not in ("csv", "parquet", "jsonl"):
        raise OutputError(
            f"unknown table format {table_format!r}", hint="use csv, parquet or jsonl"
        )


def output_files(result: GapsResult, table_format: str = "csv") -> dict[str, int | None]:
    """The files :func:`write_outputs` writes for ``result``, with each table's rows
    (``None`` for gaps.json and report.html): the names of the command's output set."""
    _check_format(table_format)
    files: dict[str, int | None] = {"gaps.json": None, "report.html": None}
    files.update({f"{n}.{table_format}": len(rows) for n, rows in _tables(result).items()})
    return files


def write_outputs(
    result: GapsResult, out_dir: Path, *, table_format: str = "csv", overwrite: bool = False
) -> dict[str, Path]:
    """Write gaps.json, one tidy table per part and report.html into ``out_dir``; refuses
    to replace an earlier run's files unless ``overwrite``."""
    _check_format(table_format)
    tables = _tables(result)
    paths = {"json": out_dir / "gaps.json", "report": out_dir / "report.html"}
    paths.update({name: out_dir / f"{name}.{table_format}" for name in tables})
    existing = [p for p in paths.values() if p.exists()]
    if existing and not overwrite:
        raise OutputError(f"{existing[0]} already exists", hint="pass --overwrite to replace it")
    out_dir.mkdir(parents=True, exist_ok=True)
    page = _html(result, tables)  # draw first: a failure leaves nothing half-written
    for name, rows in tables.items():
        write_rows(paths[name], rows, overwrite=True)
    tmp = paths["json"].with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result.to_dict(), indent=1), encoding="utf-8")
    tmp.replace(paths["json"])
    tmp = paths["report"].with_suffix(".html.tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(paths["report"])
    return paths


def print_result(result: GapsResult) -> None:
    """Rich console tables: contrasts with verdicts, controls, instability, variance."""
    from rich.table import Table

    from guisekit.console import out

    s = result.scale
    table = Table(
        title=f"Contrasts in {result.outcome} ({result.unit}, {result.level:.0%} CI, "
        f"{result.n_sources} sources)"
    )
    for column in ("contrast", "kind", "gap", "CI", "AIR", "h", "verdict"):
        table.add_column(
            column, justify="left" if column in ("contrast", "kind", "verdict") else "right"
        )
    for c in result.contrasts:
        table.add_row(
            c.name,
            c.kind,
            fmt(c.gap * s),
            f"[{fmt(c.ci_low * s)}, {fmt(c.ci_high * s)}]",
            fmt(c.air) + (" !" if c.four_fifths else ""),
            fmt(c.h),
            c.verdict,
        )
    out.print(table)
    for r in result.control_ratios:
        out.print(f"Positive control: {r.sentence()} [{fmt(r.ci_low)}, {fmt(r.ci_high)}]")
    inst = Table(title="Individual scale next to the noise controls")
    for column in ("statistic", "persona", "repeat", "order"):
        inst.add_column(column, justify="left" if column == "statistic" else "right")
    for stat in dict.fromkeys(i.statistic for i in result.instability):
        cells = []
        for scale in ("persona", "repeat", "order"):
            found = next(
                (i for i in result.instability if i.statistic == stat and i.scale == scale), None
            )
            cells.append(
                "-"
                if found is None or not found.pairs
                else f"{fmt(found.value)} [{fmt(found.ci_low)}, {fmt(found.ci_high)}]"
            )
        inst.add_row(stat, *cells)
    out.print(inst)
    if result.variance is not None:
        var = Table(title=f"Variance components of within-source variance ({result.variance_note})")
        for column in ("component", "estimate", "share", "CI"):
            var.add_column(column, justify="left" if column == "component" else "right")
        for comp in result.variance.components:
            var.add_row(
                comp.name,
                fmt(comp.estimate),
                f"{100 * comp.share:.1f}%",
                f"[{fmt(comp.ci_low)}, {fmt(comp.ci_high)}]",
            )
        out.print(var)
    verdicts = result.verdicts()
    out.print(
        f"Shown equivalent to zero: {', '.join(verdicts['equivalent']) or 'none'}. "
        f"Shown to exist: {', '.join(verdicts['exists']) or 'none'}. "
        f"Inconclusive: {', '.join(verdicts['inconclusive']) or 'none'}."
    )
