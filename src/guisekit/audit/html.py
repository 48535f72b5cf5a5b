"""The self-contained HTML page of an audit: the report's tables and a bar chart.

The charts show each measure's flag rate by persona level and by transform (and by
rewrite model when there are several), with the bootstrap intervals as capped whiskers,
each estimate marked (0% is a point on the axis, not a missing bar), the legend outside
the bars and models named without their endpoint URLs. It is drawn on a bare
:class:`matplotlib.figure.Figure` (no pyplot state, no display) and embedded as a base64
PNG, so the page is one file that opens anywhere. The page is rendered by Jinja with
autoescaping, since auditor names and group labels come from user input.
"""

from __future__ import annotations

import base64
import io
from importlib import resources
from typing import Any

import jinja2

from guisekit import __version__
from guisekit.audit.report import AuditReport, Breakdown
from guisekit.audit.stats import RateEstimate
from guisekit.audit.views import measure_label, report_tables

__all__ = ["chart_figure", "chart_pngs", "render_html", "short_label"]

_COLOURS = ("#1b6ca8", "#e07b39", "#3b9c5a", "#8e5ea2", "#c44e52", "#7f7f7f", "#bcbd22")
_ENV = jinja2.Environment(
    autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True
)


_TITLES: dict[Breakdown, str] = {
    "transform": "Flag rates by transform (controls included)",
    "persona": "Flag rates by persona level",
    "model": "Flag rates by rewrite model",
}


def short_label(name: str) -> str:
    """A model bank's name for a legend: the model name without the provider and the
    endpoint URL (``openai-compatible:llama3@http://host/v1[temperature=0.7]`` ->
    ``llama3[temperature=0.7]``); other measures keep their reading label."""
    provider, colon, rest = name.partition(":")
    if not colon or " " in name:
        return measure_label(name)
    settings = ""
    if "[" in rest and rest.endswith("]"):
        rest, settings = rest[: rest.index("[")], rest[rest.index("[") :]
    model = rest.split("@", 1)[0] or provider
    return f"{model}{settings}"


def _legend_labels(measures: tuple[str, ...]) -> list[str]:
    """Short labels, falling back to ``provider:model`` where two would read the same."""
    labels = [short_label(m) for m in measures]
    for i, label in enumerate(labels):
        if labels.count(label) > 1:
            labels[i] = measures[i].split("@", 1)[0]
    return labels


def _whiskers(rate: RateEstimate) -> tuple[float, float]:
    """Distances (in percentage points) from the estimate down and up to the interval."""
    if rate.estimate is None or rate.ci_low is None or rate.ci_high is None:
        return 0.0, 0.0
    return 100.0 * max(rate.estimate - rate.ci_low, 0.0), 100.0 * max(
        rate.ci_high - rate.estimate, 0.0
    )


def chart_figure(report: AuditReport, by: Breakdown) -> Any:
    """The bar chart of every measure's flag rate per group of ``by`` (a bare
    :class:`matplotlib.figure.Figure`), or None when the report has no such groups.

    Each estimate is a marker on its bar, so a 0% rate shows as a point on the axis and
    a group without data (no marker, ``n/a``) cannot be mistaken for it; the intervals
    are capped whiskers; the legend sits outside the axes, right of the bars."""
    from matplotlib.figure import Figure

    groups = list(dict.fromkeys(r.group for r in report.rates if r.by == by))
    if not groups:
        return None
    measures = report.measures
    width = 0.8 / len(measures)
    fig = Figure(figsize=(min(18.0, max(8.0, 3.5 + 1.1 * len(groups))), 4.8), layout="constrained")
    ax = fig.subplots()
    for i, (measure, label) in enumerate(zip(measures, _legend_labels(measures), strict=True)):
        colour = _COLOURS[i % len(_COLOURS)]
        rates = [report.rate(measure, by, group) for group in groups]
        xs = [g + (i - (len(measures) - 1) / 2) * width for g in range(len(groups))]
        known = [(x, r) for x, r in zip(xs, rates, strict=True) if r.estimate is not None]
        heights = [100.0 * r.estimate for _, r in known if r.estimate is not None]
        ax.bar([x for x, _ in known], heights, width, label=label, color=colour)
        whiskers = [_whiskers(r) for _, r in known]
        ax.errorbar(
            [x for x, _ in known],
            heights,
            yerr=[[w[0] for w in whiskers], [w[1] for w in whiskers]],
            fmt="o",
            markersize=3.5,
            color="black",
            ecolor="black",
            elinewidth=0.8,
            capsize=3,
            capthick=0.8,
        )
        for x, r in zip(xs, rates, strict=True):
            if r.estimate is None:
                ax.text(x, 0.5, "n/a", ha="center", va="bottom", fontsize="x-small", rotation=90)
    ax.set_xticks(range(len(groups)), groups, rotation=30, ha="right")
    ax.set_ylabel("pairs flagged (%)")
    tops = [r.rate.ci_high or r.rate.estimate or 0.0 for r in report.rates if r.by == by]
    ax.set_ylim(0, min(105.0, max(10.0, 110.0 * max(tops, default=0.0))))  # caps at 100% show
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
        fontsize="small",
        title=f"point: estimate\nwhiskers: {report.level:.0%} CI",
        title_fontsize="small",
    )
    ax.set_title(_TITLES[by])
    return fig


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    return buffer.getvalue()


def chart_pngs(report: AuditReport) -> list[tuple[str, bytes]]:
    """Title and PNG bytes of each chart: by persona level and by transform (and by
    rewrite model when there are several), those the report has groups for."""
    charts = []
    for by in ("persona", "transform", "model"):
        fig = chart_figure(report, by)
        if fig is not None:
            charts.append((_TITLES[by], _png(fig)))
    return charts


def render_html(report: AuditReport) -> str:
    """The whole page as a string."""
    source = resources.files("guisekit.audit").joinpath("report.html.j2").read_text("utf-8")
    charts = [(title, base64.b64encode(png).decode("ascii")) for title, png in chart_pngs(report)]
    return _ENV.from_string(source).render(
        report=report, tables=report_tables(report), charts=charts, version=__version__
    )
