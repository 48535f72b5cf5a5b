"""Write a Gelbach result: tidy table, JSON document and a plot (PNG or SVG).

The plot has one row per focal regressor: on the left a waterfall from the base gap
through each family's explained part to the remaining (full-model) gap, on the right
every attribute's term, coloured by family, with bootstrap intervals as whiskers. It is
drawn on a bare :class:`matplotlib.figure.Figure` (Agg canvas), so no global pyplot state
or display is involved.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from guisekit.errors import OutputError
from guisekit.gelbach.result import GelbachResult, GelbachRow
from guisekit.tables import atomic_writer, write_rows

__all__ = [
    "PLOT_FORMATS",
    "figure",
    "plot_decomposition",
    "write_json",
    "write_report",
    "write_table",
]

PLOT_FORMATS = (".png", ".svg")
_FAMILY_COLOURS = ("#1b6ca8", "#e07b39", "#3b9c5a", "#8e5ea2", "#c44e52", "#7f7f7f")


def write_table(result: GelbachResult, path: str | Path, *, overwrite: bool = False) -> Path:
    """The tidy table as CSV, JSONL or Parquet (by suffix), written atomically."""
    return write_rows(path, (row.model_dump() for row in result.rows()), overwrite=overwrite)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def write_json(result: GelbachResult, path: str | Path, *, overwrite: bool = False) -> Path:
    """The JSON document of :meth:`GelbachResult.to_json` (NaN written as null)."""
    target = Path(path)
    with atomic_writer(target, overwrite=overwrite) as tmp:
        tmp.write_text(json.dumps(_finite(result.to_json()), indent=2) + "\n", encoding="utf-8")
    return target


def _spread(row: GelbachRow) -> tuple[float, float]:
    """Distances from the estimate down to the interval's low end and up to its high end."""
    if row.ci_low is None or row.ci_high is None:
        return 0.0, 0.0
    return max(row.estimate - row.ci_low, 0.0), max(row.ci_high - row.estimate, 0.0)


def _waterfall(
    ax: Any, rows: list[GelbachRow], colours: dict[str, str], title: str, ci: str | None
) -> None:
    """Base gap, then each family's explained part as a step down, then the full gap."""
    base = next(r for r in rows if r.kind == "base")
    full = next(r for r in rows if r.kind == "full")
    families = [r for r in rows if r.kind == "family"]
    labels, bottoms, heights, ends, whiskers = ["base"], [0.0], [base.estimate], [], []
    whiskers.append(_spread(base))
    level = base.estimate
    for row in families:
        labels.append(row.term)
        bottoms.append(level - row.estimate)
        heights.append(row.estimate)
        level -= row.estimate
        ends.append(level)
        # Where the step could end given the family's interval: a larger part ends lower.
        down, up = _spread(row)
        whiskers.append((up, down))
    labels.append("full")
    bottoms.append(0.0)
    heights.append(full.estimate)
    whiskers.append(_spread(full))
    positions = list(range(len(labels)))
    bar_colours = ["#555555", *(colours[r.term] for r in families), "#999999"]
    ax.bar(positions, heights, bottom=bottoms, color=bar_colours)
    tips = [base.estimate, *ends, full.estimate]
    yerr = [[w[0] for w in whiskers], [w[1] for w in whiskers]]
    if ci is not None:
        ax.errorbar(positions, tips, yerr=yerr, fmt="none", ecolor="black", capsize=4, label=ci)
        title += f"\n(whiskers: {ci})"
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xticks(positions, labels)
    ax.set_ylabel(f"gap in {_unit(base)}")
    ax.set_title(title)


def _unit(row: GelbachRow) -> str:
    return f"outcome units ({row.focal} vs base)"


def _terms(
    ax: Any, rows: list[GelbachRow], colours: dict[str, str], order: list[str], ci: str | None
) -> None:
    """Every attribute's term as a horizontal bar, grouped by family, largest first."""
    terms = sorted(
        (r for r in rows if r.kind == "attribute"),
        key=lambda r: (order.index(r.family or ""), -abs(r.estimate)),
    )
    ys = list(range(len(terms)))[::-1]
    estimates = [r.estimate for r in terms]
    spreads = [_spread(r) for r in terms]
    ax.barh(ys, estimates, color=[colours[r.family or ""] for r in terms])
    xerr = [[s[0] for s in spreads], [s[1] for s in spreads]]
    if ci is not None:
        ax.errorbar(estimates, ys, xerr=xerr, fmt="none", ecolor="black", capsize=3, label=ci)
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_yticks(ys, [r.term for r in terms])
    unit = _unit(terms[0]) if terms else "outcome units"
    ax.set_xlabel(f"term: its part of base - full, in {unit}")


def figure(result: GelbachResult) -> Any:
    """The plot as a bare :class:`matplotlib.figure.Figure`: per focal regressor a
    waterfall (base, each family's part, full) and the attribute terms, both in outcome
    units, the bootstrap intervals as capped whiskers named in the legend ("95% CI,
    source-cluster bootstrap"); the family legend sits outside the axes."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    dec = result.decomposition
    order = list(dec.family_names())
    colours = {f: _FAMILY_COLOURS[i % len(_FAMILY_COLOURS)] for i, f in enumerate(order)}
    rows = result.rows()
    k1, k2 = len(dec.focal_names), len(dec.attribute_names)
    ci = None
    if result.replicates is not None:
        ci = f"{result.ci_level:.0%} CI, source-cluster bootstrap"
    fig = Figure(figsize=(13, (2.4 + 0.28 * max(k2, 6)) * k1), layout="constrained")
    axes = fig.subplots(k1, 2, squeeze=False)
    for i, focal in enumerate(dec.focal_names):
        mine = [r for r in rows if r.focal == focal]
        _waterfall(axes[i][0], mine, colours, f"{dec.outcome} on {focal}: base to full", ci)
        _terms(axes[i][1], mine, colours, order, ci)
        axes[i][1].set_title("attribute terms" + ("" if ci is None else f" ({ci})"))
    handles: list[Any] = [Patch(color=colours[f], label=f) for f in order]
    if ci is not None:
        handles.append(Line2D([], [], color="black", marker="|", markersize=8, label=ci))
    axes[0][1].legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize="small",
        title="family",
        title_fontsize="small",
    )
    return fig


def _draw(result: GelbachResult, path: Path, fmt: str) -> None:
    figure(result).savefig(path, format=fmt)


def plot_decomposition(result: GelbachResult, path: str | Path, *, overwrite: bool = False) -> Path:
    """Draw the result to ``path``; the suffix (.png or .svg) picks the format."""
    target = Path(path)
    if target.suffix.lower() not in PLOT_FORMATS:
        raise OutputError(
            f"cannot draw a plot to {target.name!r}", hint="use a .png or .svg file name"
        )
    with atomic_writer(target, overwrite=overwrite) as tmp:
        _draw(result, tmp, target.suffix.lower().lstrip("."))
    return target


def write_report(
    result: GelbachResult,
    out_dir: str | Path,
    *,
    plot_format: str = "png",
    overwrite: bool = False,
) -> dict[str, Path]:
    """Write ``gelbach.csv``, ``gelbach.json`` and ``gelbach.<plot_format>`` into
    ``out_dir``; nothing is written if any exists and ``overwrite`` is false."""
    folder = Path(out_dir)
    paths = {
        "table": folder / "gelbach.csv",
        "json": folder / "gelbach.json",
        "plot": folder / f"gelbach.{plot_format}",
    }
    if f".{plot_format}" not in PLOT_FORMATS:
        raise OutputError(f"unknown plot format {plot_format!r}", hint="use png or svg")
    existing = [str(p) for p in paths.values() if p.exists()]
    if existing and not overwrite:
        raise OutputError(f"{existing[0]} already exists", hint="pass --overwrite to replace it")
    write_table(result, paths["table"], overwrite=True)
    write_json(result, paths["json"], overwrite=True)
    plot_decomposition(result, paths["plot"], overwrite=True)
    return paths
