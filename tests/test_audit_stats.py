"""Audit statistics: Cohen's kappa against hand-computed values and statsmodels, the
source-cluster bootstrap against a naive resample loop on the same draws, weights, and the
report built from a run of known pairs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

from guisekit.audit import (
    AuditDiscrepancy,
    AuditOutcome,
    AuditRun,
    AuditVerdict,
    ExactCheck,
    PairResult,
    agreement,
    auditor_validity,
    build_report,
    cluster_rate,
    cohens_kappa,
    make_pair,
    render_html,
    screen_pair,
)
from guisekit.audit.report import EXACT, INTERSECTION, SCREEN, UNION
from guisekit.audit.views import report_tables
from guisekit.errors import InputError
from guisekit.facts import check_facts
from guisekit.gelbach.clusters import cluster_draws

T, F = True, False


def test_binary_kappa_by_hand():
    # 2x2 table: both yes 3, a yes/b no 2, a no/b yes 1, both no 4.
    # p_o = 7/10; p_a(yes) = .5, p_b(yes) = .4; p_e = .5*.4 + .5*.6 = .5; kappa = .2/.5 = .4
    a = [T, T, T, T, T, F, F, F, F, F]
    b = [T, T, T, F, F, F, F, F, F, T]
    result = agreement(a, b)
    assert result.n == 10
    assert result.percent == pytest.approx(70.0)
    assert result.expected == pytest.approx(0.5)
    assert result.kappa == pytest.approx(0.4)


def test_three_way_kappa_by_hand():
    # a: 3 preserved, 3 minor, 4 material; b: 3 preserved, 4 minor, 3 material; 7 agree.
    # p_e = .3*.3 + .3*.4 + .4*.3 = .33; kappa = (.7 - .33) / .67 = 0.5522388...
    a = ["preserved"] * 3 + ["minor"] * 3 + ["material"] * 4
    b = ["preserved", "preserved", "minor", "minor", "minor", "preserved",
         "material", "material", "minor", "material"]  # fmt: skip
    assert cohens_kappa(a, b) == pytest.approx(0.37 / 0.67, abs=1e-12)
    assert agreement(a, b).percent == pytest.approx(70.0)


@pytest.mark.parametrize(
    ("a", "b", "percent", "kappa"),
    [
        ([T, F, T], [T, F, T], 100.0, 1.0),  # perfect agreement
        ([T, T, T], [T, T, T], 100.0, None),  # chance agreement is 1: undefined
        ([F, F, F, F], [F, F, T, T], 50.0, 0.0),  # one rater constant: no agreement beyond chance
        ([T, F], [F, T], 0.0, -1.0),  # perfect disagreement
        ([], [], None, None),
    ],
)
def test_kappa_edge_cases(a, b, percent, kappa):
    result = agreement(a, b)
    assert result.percent == percent
    assert result.kappa == (None if kappa is None else pytest.approx(kappa))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("xyz"), st.sampled_from("xyz")), min_size=1, max_size=40))
def test_kappa_matches_statsmodels(pairs):
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    labels = sorted(set(a) | set(b))
    table = np.array([[sum(x == i and y == j for x, y in pairs) for j in labels] for i in labels])
    got = cohens_kappa(a, b)
    if len(labels) == 1:  # both raters always give the same single answer
        assert got is None
        return
    with np.errstate(divide="ignore", invalid="ignore"):  # its z statistic, unused here
        expected = sm_kappa(table).kappa
    assert got == pytest.approx(expected, abs=1e-12)


def test_agreement_needs_the_same_items():
    with pytest.raises(InputError):
        agreement([T], [T, F])


# --- cluster bootstrap --------------------------------------------------------------------

FLAGS = [T, F, F, T, T, F, F, F, T, F, F, F, T, T, T, F]
CLUSTERS = ["s1", "s1", "s2", "s2", "s3", "s3", "s4", "s4", "s5", "s5", "s6", "s6",
            "s7", "s7", "s8", "s8"]  # fmt: skip


def test_bootstrap_is_reproducible_for_a_seed():
    first = cluster_rate(FLAGS, CLUSTERS, n_resamples=500, seed=7)
    again = cluster_rate(FLAGS, CLUSTERS, n_resamples=500, seed=7)
    other = cluster_rate(FLAGS, CLUSTERS, n_resamples=500, seed=8)
    assert first == again
    assert (first.ci_low, first.ci_high) != (other.ci_low, other.ci_high)
    assert first.estimate == pytest.approx(7 / 16)
    assert (first.n, first.n_sources, first.flagged) == (16, 8, 7)
    assert first.ci_low is not None and first.ci_high is not None
    assert first.ci_low <= first.estimate <= first.ci_high


def test_bootstrap_equals_a_naive_resample_of_sources():
    weights = [1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 0.5, 0.5, 1.0, 1.0, 3.0, 3.0, 1.0, 1.0, 1.0, 1.0]
    rate = cluster_rate(FLAGS, CLUSTERS, weights, n_resamples=700, seed=3, level=0.9)
    labels = list(dict.fromkeys(CLUSTERS))
    members = {c: [i for i, k in enumerate(CLUSTERS) if k == c] for c in labels}
    replicates = []
    for draws in cluster_draws(len(labels), 700, 3):
        for row in draws:
            rows = [i for code in row for i in members[labels[code]]]
            hit = sum(weights[i] * FLAGS[i] for i in rows)
            replicates.append(hit / sum(weights[i] for i in rows))
    low, high = np.quantile(replicates, [0.05, 0.95])
    assert (rate.ci_low, rate.ci_high) == (
        pytest.approx(low, abs=1e-12),
        pytest.approx(high, abs=1e-12),
    )
    expected = sum(w * f for w, f in zip(weights, FLAGS, strict=True)) / sum(weights)
    assert rate.estimate == pytest.approx(expected)


def test_weights_scale_sources():
    # s1: one of two flagged, weight 3; s2: none of two, weight 1 -> 3 / (6 + 2)
    rate = cluster_rate([T, F, F, F], ["s1", "s1", "s2", "s2"], [3, 3, 1, 1], n_resamples=0)
    assert rate.estimate == pytest.approx(3 / 8)
    assert (rate.ci_low, rate.ci_high) == (None, None)
    assert rate.flagged == 1


def test_one_source_has_a_degenerate_interval_and_no_pairs_no_estimate():
    rate = cluster_rate([T, F, F], ["s", "s", "s"], n_resamples=50)
    assert rate.ci_low == rate.ci_high == pytest.approx(1 / 3)
    empty = cluster_rate([], [], n_resamples=50)
    assert (empty.n, empty.estimate, empty.ci_low) == (0, None, None)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"weights": [1.0, 0.0]}, "positive"),
        ({"weights": [1.0, float("nan")]}, "positive"),
        ({"weights": [1.0]}, "same length"),
        ({"level": 1.0}, "between 0 and 1"),
        ({"n_resamples": -1}, "negative"),
    ],
)
def test_bad_bootstrap_inputs(kwargs, message):
    with pytest.raises(InputError, match=message):
        cluster_rate([T, F], ["a", "b"], **kwargs)


# --- the report of a known run ------------------------------------------------------------

A, B = "openai:a", "anthropic:b"
ORIGINAL = "I paid a $40 fee on 03/14/2023 and I did not get it back."
STYLE = "On 03/14/2023 I paid a $40 fee and I didn't get it back."
SCALED = "I paid a $400 fee on 03/14/2023 and I did not get it back."


def _outcome(auditor: str, overall: str) -> AuditOutcome:
    found = () if overall == "preserved" else (
        AuditDiscrepancy(category="negation" if overall == "material" else "certainty",
                         kind="changed", material=overall == "material", description="d"),
    )  # fmt: skip
    return AuditOutcome(
        auditor=auditor, status="ok", verdict=AuditVerdict(discrepancies=found, overall=overall)
    )


# (source, transform, persona level, rewrite, verdict of A, verdict of B)
ROWS = [
    ("s1", "persona", "young", STYLE, "material", "material"),
    ("s1", "persona", "old", STYLE, "preserved", "preserved"),
    ("s2", "persona", "young", STYLE, "material", "minor"),
    ("s2", "persona", "old", STYLE, "minor", "minor"),
    ("s3", "persona", "young", STYLE, "preserved", "material"),
    ("s3", "persona", "old", STYLE, "preserved", "preserved"),
    ("s1", "fact_edit:scale_amounts", None, SCALED, "material", "preserved"),
    ("s2", "fact_edit:scale_amounts", None, SCALED, "material", "preserved"),
    ("s3", "fact_edit:scale_amounts", None, SCALED, "material", "material"),
]


def _run() -> AuditRun:
    pairs = [
        make_pair(f"p{i}", src, ORIGINAL, text, transform=transform,
                  persona={"age": level} if level else None)
        for i, (src, transform, level, text, _, _) in enumerate(ROWS)
    ]  # fmt: skip
    outcomes = [(_outcome(A, a), _outcome(B, b)) for *_, a, b in ROWS]
    controls = [o for p, o in zip(pairs, outcomes, strict=True) if p.control]
    validity = tuple(
        auditor_validity(name, [("scale_amounts", o[k]) for o in controls])
        for k, name in enumerate((A, B))
    )
    counted = {v.auditor for v in validity if v.counts}
    results = []
    for pair, found in zip(pairs, outcomes, strict=True):
        exact = ExactCheck.of(check_facts(ORIGINAL, pair.rewrite or ""))
        screen = screen_pair(pair, exact, found, counted)
        results.append(PairResult(pair=pair, exact=exact, outcomes=found, screen=screen))
    results.append(
        PairResult(
            pair=make_pair("gone", "s4", None, STYLE, transform="persona"),
            exact=None,
            outcomes=(AuditOutcome(auditor=A, status="not_asked"),
                      AuditOutcome(auditor=B, status="not_asked")),
            screen=screen_pair(make_pair("gone", "s4", None, STYLE), None, (), counted),
        )
    )  # fmt: skip
    return AuditRun(auditors=(A, B), results=tuple(results), validity=validity, threshold=0.8)


def test_report_of_a_known_run():
    run = _run()
    assert [v.status for v in run.validity] == ["valid", "invalid"]  # B caught 1 of 3 controls
    report = build_report(run, domain="complaints", prompt="audit/compare.v1", resamples=200)
    assert (report.n_pairs, report.population) == (10, 6)
    assert report.statuses == {"missing_original": 1, "ok": 9}
    # A flags 2 of 6 screened pairs, B 2, union 3 (p0, p2, p4), intersection 1 (p0)
    assert report.rate(A).estimate == pytest.approx(2 / 6)
    assert report.rate(B).estimate == pytest.approx(2 / 6)
    assert report.rate(UNION).flagged == 3 and report.rate(INTERSECTION).flagged == 1
    assert report.rate(EXACT).flagged == 0
    assert report.rate(SCREEN).flagged == 2  # only A counts: B is invalid
    assert report.rate(A, "persona", "age=young").estimate == pytest.approx(2 / 3)
    assert report.rate(EXACT, "transform", "fact_edit:scale_amounts").estimate == 1.0
    binary = next(r for r in report.agreement if r.scale == "material").agreement
    # A: T F T F F F, B: T F F F T F -> p_o 4/6, p_e = (2/6)(2/6) + (4/6)(4/6) = 20/36
    assert binary.kappa == pytest.approx((4 / 6 - 20 / 36) / (1 - 20 / 36))
    three = next(r for r in report.agreement if r.scale == "overall").agreement
    assert three.percent == pytest.approx(100 * 4 / 6)
    negation = {(c.detector, c.category): c for c in report.categories}
    assert negation[(A, "negation")].discrepancies == 2 and negation[(A, "certainty")].material == 0
    controls = {(c.detector, c.kind): c.flagged for c in report.controls}
    assert (
        controls[(B, "scale_amounts")] == 1
        and controls[("exact_check (fail)", "scale_amounts")] == 3
    )
    assert any("anthropic:b flagged 1 of 3 controls" in w for w in report.warnings)
    assert any("1 missing_original" in w for w in report.warnings)
    titles = [t.key for t in report_tables(report)]
    assert titles == [
        "validity",
        "rates",
        "controls",
        "agreement",
        "transform",
        "persona",
        "categories",
    ]
    html = render_html(report)
    assert "data:image/png;base64," in html and "Flag rates by persona level" in html
    assert "age=young" in html and "66.7%" in html


def test_weights_must_cover_every_source():
    run = _run()
    with pytest.raises(InputError, match="no population weight"):
        build_report(run, domain="d", prompt="p", weights={"s1": 1.0, "s2": 1.0})
    weighted = build_report(
        run, domain="d", prompt="p", weights={"s1": 4.0, "s2": 1.0, "s3": 1.0}, resamples=50
    )
    # A on screened pairs: s1 (1 of 2, weight 4), s2 (1 of 2), s3 (0 of 2) -> 5 / 12
    assert weighted.rate(A).estimate == pytest.approx(5 / 12)
    assert weighted.weighted
