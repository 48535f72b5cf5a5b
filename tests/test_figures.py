"""Figures and console numbers (issue #17, defect 20): the audit charts by transform and
by persona level (legend outside the bars, 0% drawn, capped whiskers, short model
labels), the Gelbach figure (labelled CIs, units) and the one console number format."""

from __future__ import annotations

import pytest
from matplotlib.container import ErrorbarContainer
from test_audit_stats import _run as audit_run
from test_gelbach import synthetic

from guisekit.audit import build_report, render_html
from guisekit.audit.html import chart_figure, short_label
from guisekit.console import cell, interval, number
from guisekit.gelbach import gelbach
from guisekit.gelbach.report import figure


@pytest.fixture(scope="module")
def report():
    return build_report(audit_run(), domain="d", prompt="p", resamples=100)


def _outside(fig, ax, legend) -> bool:
    fig.canvas.draw()
    box, area = legend.get_window_extent(), ax.get_window_extent()
    return box.x0 >= area.x1 or box.y0 >= area.y1 or box.x1 <= area.x0 or box.y1 <= area.y0


def _errorbars(ax) -> list[ErrorbarContainer]:
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)]


@pytest.mark.parametrize("by", ["transform", "persona"])
def test_audit_chart_legend_outside_caps_and_labels(report, by: str) -> None:
    fig = chart_figure(report, by)
    [ax] = fig.axes
    legend = ax.get_legend()
    assert _outside(fig, ax, legend)
    assert [t.get_text() for t in legend.get_texts()] == [
        "a",
        "b",
        "union (any auditor)",
        "intersection (all auditors)",
        "exact check fails",
        "screen fails",
    ]
    assert "95% CI" in legend.get_title().get_text()
    bars = _errorbars(ax)
    assert len(bars) == 6
    assert all(len(c.lines[1]) == 2 for c in bars)  # a lower and an upper cap line each
    assert (
        ax.get_title()
        == {
            "transform": "Flag rates by transform (controls included)",
            "persona": "Flag rates by persona level",
        }[by]
    )
    assert [t.get_text() for t in ax.get_xticklabels()] == {
        "transform": ["fact_edit:scale_amounts", "persona"],
        "persona": ["age=old", "age=young"],
    }[by]


def test_a_zero_rate_is_drawn_as_a_point_on_the_axis(report) -> None:
    # no screened pair of age=old is flagged by anyone: every measure's marker sits at 0
    assert report.rate("openai:a", "persona", "age=old").estimate == 0.0
    [ax] = chart_figure(report, "persona").axes
    for container in _errorbars(ax):
        marker = container.lines[0]
        assert marker.get_marker() == "o"
        assert float(marker.get_ydata()[0]) == 0.0


def test_audit_page_has_both_charts(report) -> None:
    page = render_html(report)
    assert page.count("data:image/png;base64,") == 2
    assert "<h2>Flag rates by persona level</h2>" in page
    assert "<h2>Flag rates by transform (controls included)</h2>" in page


@pytest.mark.parametrize(
    ("bank", "label"),
    [
        ("openai:gpt-4o-mini", "gpt-4o-mini"),
        ("openai-compatible:llama3@http://127.0.0.1:8000/v1", "llama3"),
        ("openai:gpt-4o-mini[temperature=0.7]", "gpt-4o-mini[temperature=0.7]"),
        ("union", "union (any auditor)"),
        ("exact_check", "exact check fails"),
    ],
)
def test_short_model_labels(bank: str, label: str) -> None:
    assert short_label(bank) == label


def test_gelbach_figure_labels_its_intervals_and_units() -> None:
    result = gelbach(synthetic(0), n_resamples=50, seed=0)
    fig = figure(result)
    waterfall, terms = fig.axes
    assert waterfall.get_ylabel() == "gap in outcome units (f0 vs base)"
    assert terms.get_xlabel() == "term: its part of base - full, in outcome units (f0 vs base)"
    assert "(whiskers: 95% CI, source-cluster bootstrap)" in waterfall.get_title()
    legend = terms.get_legend()
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts[-1] == "95% CI, source-cluster bootstrap"
    assert texts[:-1] == list(result.decomposition.family_names())
    assert _outside(fig, terms, legend)
    for ax in (waterfall, terms):
        [bars] = _errorbars(ax)
        assert bars.get_label() == "95% CI, source-cluster bootstrap"
        assert len(bars.lines[1]) == 2  # capped


def test_gelbach_figure_without_bootstrap_claims_no_interval() -> None:
    fig = figure(gelbach(synthetic(0), n_resamples=0))
    waterfall, terms = fig.axes
    assert not _errorbars(waterfall) and not _errorbars(terms)
    assert "CI" not in " ".join(t.get_text() for t in terms.get_legend().get_texts())


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0002702, "2.702e-04"),
        (-1.854e-05, "-1.854e-05"),
        (0.001, "0.001000"),
        (0.5, "0.5000"),
        (12.3456, "12.35"),
        (-3.14159, "-3.142"),
        (1234.5678, "1235"),
        (9.99996, "10.00"),
        (0.0, "0"),
        (7, "7"),
        (None, "-"),
        (float("nan"), "-"),
        (float("inf"), "-"),
    ],
)
def test_the_one_console_number_format(value, text: str) -> None:
    assert number(value) == text


def test_console_cells_and_intervals() -> None:
    assert [cell(v) for v in (None, True, 3, 0.00012, "x")] == ["-", "True", "3", "1.200e-04", "x"]
    assert interval(0.0002702, 1.5) == "[2.702e-04, 1.500]"
    assert interval(None, 1.0) == "-"
