"""Fact-fidelity screening: two LLM auditors beside the exact check, with validity, agreement
and a screen verdict per pair.

Flow: pairs (:mod:`~guisekit.audit.pairs`) -> exact check and auditors
(:mod:`~guisekit.audit.auditor`, through the one LLM runner) -> auditor validity on the
positive controls (:mod:`~guisekit.audit.validity`) -> screen verdicts
(:mod:`~guisekit.audit.screen`) -> report with cluster-bootstrap flag rates and agreement
(:mod:`~guisekit.audit.report`, :mod:`~guisekit.audit.stats`) -> terminal tables and a
self-contained HTML page (:mod:`~guisekit.audit.views`, :mod:`~guisekit.audit.html`).
:mod:`~guisekit.audit.job` runs it all from a config, as ``guisekit audit`` does.
"""

from guisekit.audit.auditor import AUDIT_PROMPT, AuditOutcome, LLMAuditor, audit_pairs
from guisekit.audit.config import DEFAULT_AUDITORS, AuditConfig, load_audit_config
from guisekit.audit.domains import AuditDomain, load_domain
from guisekit.audit.html import render_html
from guisekit.audit.job import AuditJob, prepare_job, read_report
from guisekit.audit.pairs import AuditPair, load_corpus_pairs, load_pairs_file, make_pair
from guisekit.audit.report import AuditReport, build_report
from guisekit.audit.screen import (
    AuditRun,
    ExactCheck,
    PairResult,
    ScreenResult,
    screen_pair,
    screen_pairs,
)
from guisekit.audit.stats import Agreement, RateEstimate, agreement, cluster_rate, cohens_kappa
from guisekit.audit.validity import AuditorValidity, auditor_validity
from guisekit.audit.verdict import AuditDiscrepancy, AuditVerdict

__all__ = [
    "AUDIT_PROMPT",
    "DEFAULT_AUDITORS",
    "Agreement",
    "AuditConfig",
    "AuditDiscrepancy",
    "AuditDomain",
    "AuditJob",
    "AuditOutcome",
    "AuditPair",
    "AuditReport",
    "AuditRun",
    "AuditVerdict",
    "AuditorValidity",
    "ExactCheck",
    "LLMAuditor",
    "PairResult",
    "RateEstimate",
    "ScreenResult",
    "agreement",
    "audit_pairs",
    "auditor_validity",
    "build_report",
    "cluster_rate",
    "cohens_kappa",
    "load_audit_config",
    "load_corpus_pairs",
    "load_domain",
    "load_pairs_file",
    "make_pair",
    "prepare_job",
    "read_report",
    "render_html",
    "screen_pair",
    "screen_pairs",
]
