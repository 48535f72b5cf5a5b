"""The self-contained HTML page of an audit: the report's tables and a bar chart.

The chart shows each measure's flag rate by persona level (by transform when the run has
no persona variants), with the bootstrap intervals as whiskers. It is drawn on a bare
:class:`matplotlib.figure.Figure` (no pyplot state, no display) and embedded as a base64
PNG, so the page is one file that opens anywhere. The page is rendered by Jinja with
autoescaping, since auditor names and group labels come from user input.
"""

from __future__ import annotations

import base64
import io
from importlib import resources

import jinja2

from guisekit import __version__
from guisekit.audit.report import AuditReport, Breakdown
from guisekit.audit.stats import RateEstimate
from guisekit.audit.views import measure_label, report_tables

__all__ = ["chart_png", "render_html"]

_COLOURS = ("#1b6ca8", "#e07b39", "#3b9c5a", "#8e5ea2", "#c44e52", "#7f7f7f", "#bcbd22")
_ENV = jinja2.Environment(
    autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True
)


def _chart_groups(report: AuditReport) -> tuple[Breakdown, list[str]] | None:
    for by in ("persona", "transform"):
        groups = list(dict.fromkeys(r.group for r in report.rates if r.by == by))
        if groups:
            return by, groups
    return None


def _whiskers(rate: RateEstimate) -> tuple[float, float]:
    """Distances (in percentage points) from the estimate down and up to the interval."""
    if rate.estimate is None or rate.ci_low is None or rate.ci_high is None:
        return 0.0, 0.0
    return 100.0 * max(rate.estimate - rate.ci_low, 0.0), 100.0 * max(
        rate.ci_high - rate.estimate, 0.0
    )


def chart_png(report: AuditReport) -> tuple[str, bytes] | None:
    """The chart's title and PNG bytes, or None when there is nothing to break down."""
    from matplotlib.figure import Figure

    found = _chart_groups(report)
    if found is None:
        return None
    by, groups = found
    measures = report.measures
    width = 0.8 / len(measures)
    fig = Figure(figsize=(min(16.0, max(7.0, 2.0 + 1.1 * len(groups))), 4.5), layout="constrained")
    ax = fig.subplots()
    for i, measure in enumerate(measures):
        rates = [report.rate(measure, by, group) for group in groups]
        heights = [100.0 * (r.estimate or 0.0) for r in rates]
        whiskers = [_whiskers(r) for r in rates]
        xs = [g + (i - (len(measures) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, heights, width, label=measure_label(measure), color=_COLOURS[i % len(_COLOURS)])
        ax.errorbar(
            xs,
            heights,
            yerr=[[w[0] for w in whiskers], [w[1] for w in whiskers]],
            fmt="none",
            ecolor="black",
            linewidth=0.8,
        )
    ax.set_xticks(range(len(groups)), groups, rotation=30, ha="right")
    ax.set_ylabel("flagged (%)")
    tops = [r.rate.ci_high or r.rate.estimate or 0.0 for r in report.rates if r.by == by]
    ax.set_ylim(0, min(100.0, max(10.0, 110.0 * max(tops, default=0.0))))
    ax.legend(fontsize="small", ncols=2)
    title = "Flag rates by persona level" if by == "persona" else "Flag rates by transform"
    ax.set_title(f"{title} ({report.level:.0%} intervals)")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    return title, buffer.getvalue()


def render_html(report: AuditReport) -> str:
    """The whole page as a string."""
    source = resources.files("guisekit.audit").joinpath("report.html.j2").read_text("utf-8")
    chart = chart_png(report)
    return _ENV.from_string(source).render(
        report=report,
        tables=report_tables(report),
        chart=None if chart is None else base64.b64encode(chart[1]).decode("ascii"),
        chart_title="" if chart is None else chart[0],
        version=__version__,
    )
