"""The report's tables as plain rows of strings, shared by the terminal and the HTML page.

Formatting once means the terminal table and the web page can never disagree on a figure.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table

from guisekit.audit.report import EXACT, INTERSECTION, SCREEN, UNION, AuditReport, Breakdown
from guisekit.audit.stats import RateEstimate
from guisekit.audit.verdict import CATEGORIES

__all__ = ["TableView", "measure_label", "percent", "report_tables", "rich_table"]

_LABELS = {
    UNION: "union (any auditor)",
    INTERSECTION: "intersection (all auditors)",
    EXACT: "exact check fails",
    SCREEN: "screen fails",
}


@dataclass(frozen=True)
class TableView:
    """A titled table of formatted cells; ``key`` names it for callers picking tables."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


def measure_label(measure: str) -> str:
    return _LABELS.get(measure, measure)


def percent(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{100.0 * value:.{digits}f}%"


def _interval(rate: RateEstimate) -> str:
    if rate.ci_low is None or rate.ci_high is None:
        return "-"
    return f"[{percent(rate.ci_low)}, {percent(rate.ci_high)}]"


def _overall(report: AuditReport) -> TableView:
    rows = []
    for measure in report.measures:
        rate = report.rate(measure)
        rows.append(
            (
                measure_label(measure),
                str(rate.n),
                str(rate.n_sources),
                str(rate.flagged),
                percent(rate.estimate),
                _interval(rate),
            )
        )
    weighted = ", population-weighted" if report.weighted else ""
    return TableView(
        key="rates",
        title=f"Flag rates over {report.population} screened pairs (controls excluded{weighted})",
        columns=("measure", "pairs", "sources", "flagged", "rate", f"{report.level:.0%} CI"),
        rows=tuple(rows),
        note=f"Source-cluster bootstrap, {report.resamples} resamples, seed {report.seed}.",
    )


def _validity(report: AuditReport) -> TableView:
    rows = []
    for v in report.validity:
        kinds = ", ".join(f"{k.kind} {k.flagged}/{k.controls}" for k in v.by_kind) or "-"
        rows.append((v.auditor, str(v.controls), str(v.flagged), percent(v.rate), v.status, kinds))
    return TableView(
        key="validity",
        title=f"Auditor validity (valid: flags >= {report.threshold:.0%} of fact-edit controls)",
        columns=("auditor", "controls", "flagged", "rate", "status", "by kind"),
        rows=tuple(rows),
    )


def _controls(report: AuditReport) -> TableView:
    kinds = sorted({c.kind for c in report.controls})
    detectors = list(dict.fromkeys(c.detector for c in report.controls))
    cells = {(c.detector, c.kind): c for c in report.controls}
    rows = []
    for detector in detectors:
        row = [detector]
        for kind in kinds:
            c = cells[(detector, kind)]
            row.append(f"{c.flagged}/{c.controls} ({percent(c.rate)})")
        rows.append(tuple(row))
    return TableView(
        key="controls",
        title="Positive controls caught, by fact-edit kind",
        columns=("detector", *kinds),
        rows=tuple(rows),
    )


def _agreement(report: AuditReport) -> TableView:
    rows = []
    for a in report.agreement:
        kappa = "undefined" if a.agreement.kappa is None else f"{a.agreement.kappa:.3f}"
        agree = "-" if a.agreement.percent is None else f"{a.agreement.percent:.1f}%"
        rows.append((f"{a.first} vs {a.second}", a.scale, str(a.agreement.n), agree, kappa))
    return TableView(
        key="agreement",
        title="Agreement between auditors (screened pairs both answered)",
        columns=("auditors", "scale", "pairs", "agreement", "Cohen's kappa"),
        rows=tuple(rows),
    )


def _breakdown(report: AuditReport, by: Breakdown, title: str) -> TableView:
    groups = list(dict.fromkeys(r.group for r in report.rates if r.by == by))
    rows = []
    for group in groups:
        first = report.rate(report.measures[-1], by, group)
        cells = [group, str(first.n)]
        cells += [percent(report.rate(m, by, group).estimate) for m in report.measures]
        rows.append(tuple(cells))
    return TableView(
        key=by,
        title=title,
        columns=("group", "pairs", *(measure_label(m) for m in report.measures)),
        rows=tuple(rows),
    )


def _categories(report: AuditReport) -> TableView:
    detectors = list(dict.fromkeys(c.detector for c in report.categories))
    cells = {(c.detector, c.category): c for c in report.categories}
    rows = []
    for category in CATEGORIES:
        counts = [cells[(d, category)] for d in detectors]
        if any(c.discrepancies for c in counts):
            rows.append((category, *(f"{c.discrepancies} ({c.material})" for c in counts)))
    return TableView(
        key="categories",
        title="Discrepancies by category on screened pairs: listed (material)",
        columns=("category", *("exact check" if d == EXACT else d for d in detectors)),
        rows=tuple(rows),
        note="For the exact check, material counts discrepancies that fail it.",
    )


def report_tables(report: AuditReport) -> list[TableView]:
    """Every table of the report, in reading order (empty breakdowns left out)."""
    tables = [_validity(report), _overall(report)]
    if report.controls:
        tables.append(_controls(report))
    if report.agreement:
        tables.append(_agreement(report))
    breakdowns: tuple[tuple[Breakdown, str], ...] = (
        ("transform", "Flag rates by transform (controls included)"),
        ("persona", "Flag rates by persona level (screened pairs)"),
        ("model", "Flag rates by rewrite model (screened pairs)"),
    )
    for by, title in breakdowns:
        if any(r.by == by for r in report.rates):
            tables.append(_breakdown(report, by, title))
    tables.append(_categories(report))
    return tables


def rich_table(view: TableView) -> Table:
    """A terminal table of ``view``; numbers right-aligned."""
    table = Table(title=view.title, caption=view.note or None)
    for i, column in enumerate(view.columns):
        table.add_column(column, justify="left" if i == 0 else "right")
    for row in view.rows:
        table.add_row(*row)
    return table
