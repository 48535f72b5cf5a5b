"""The screen: the exact check beside the LLM auditors, and one verdict per pair.

A pair **passes** when the exact check passes and no auditor whose flags count (a valid
one, or one of unknown validity) rates it material. It **fails** when the exact check
fails or a counted auditor rates it material. It is **incomplete** when nothing failed it
but a counted auditor gave no verdict (refused, or invalid output after every re-ask):
passing it would rest on an answer that never came. It is **unscreened** when the pair
itself could not be audited (no original, an empty or failed rewrite); identical texts
pass without a call, since nothing can have changed.

The material flags of invalid auditors are kept in the results (``ignored``) but never
fail a pair.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from guisekit.audit.auditor import AuditOutcome, LLMAuditor, audit_pairs
from guisekit.audit.pairs import AuditPair
from guisekit.audit.validity import DEFAULT_THRESHOLD, AuditorValidity, auditor_validity
from guisekit.facts import DEFAULT_POLICY, FactCheckResult, SeverityPolicy, check_facts
from guisekit.facts.record import DiscrepancyRecord, FactCheckRecord
from guisekit.llm.runner import Executor
from guisekit.llm.store import Answer

__all__ = [
    "AuditRun",
    "ExactCheck",
    "ExactDiscrepancy",
    "PairResult",
    "ScreenResult",
    "ScreenVerdict",
    "screen_pair",
    "screen_pairs",
]

ScreenVerdict = Literal["pass", "fail", "incomplete", "unscreened"]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


ExactDiscrepancy = DiscrepancyRecord


class ExactCheck(FactCheckRecord):
    """The exact check's verdict on one pair, with every discrepancy and the facts compared."""

    original_facts: tuple[str, ...] = ()
    rewrite_facts: tuple[str, ...] = ()

    @classmethod
    def of(cls, result: FactCheckResult) -> ExactCheck:
        return cls(
            verdict=result.verdict,
            discrepancies=cls.records(result),
            fail_on=result.policy.fail_on,
            original_facts=tuple(f.key for f in result.original_facts),
            rewrite_facts=tuple(f.key for f in result.rewrite_facts),
        )


class ScreenResult(_Frozen):
    """A pair's screen verdict, why, and which material flags were ignored."""

    verdict: ScreenVerdict
    reasons: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()


def _material_note(outcome: AuditOutcome) -> str:
    found = [] if outcome.verdict is None else outcome.verdict.discrepancies
    detail = "; ".join(f"{d.category}: {d.description}" for d in found if d.material)
    return f"{outcome.auditor} rates it material" + (f" ({detail})" if detail else "")


def screen_pair(
    pair: AuditPair,
    exact: ExactCheck | None,
    outcomes: Sequence[AuditOutcome],
    counted: Collection[str],
) -> ScreenResult:
    """The screen verdict of one pair; ``counted`` names the auditors whose flags count."""
    if pair.status == "identical":
        return ScreenResult(verdict="pass", reasons=(pair.reason or "identical texts",))
    if pair.status != "ok" or exact is None:
        return ScreenResult(verdict="unscreened", reasons=(pair.reason or pair.status,))
    failing: list[str] = []
    if not exact.passed:
        failing += [
            f"exact check: {d.description}" for d in exact.discrepancies if d.severity == "fail"
        ]
    ignored = [
        _material_note(o) + " (auditor not valid for this run)"
        for o in outcomes
        if o.material and o.auditor not in counted
    ]
    mine = [o for o in outcomes if o.auditor in counted]
    failing += [_material_note(o) for o in mine if o.material]
    if failing:
        return ScreenResult(verdict="fail", reasons=tuple(failing), ignored=tuple(ignored))
    missing = [
        f"{o.auditor}: {o.status}: {o.reason or 'no verdict'}" for o in mine if o.verdict is None
    ]
    if missing:
        return ScreenResult(verdict="incomplete", reasons=tuple(missing), ignored=tuple(ignored))
    return ScreenResult(verdict="pass", ignored=tuple(ignored))


class PairResult(_Frozen):
    """Everything the audit found about one pair."""

    pair: AuditPair
    exact: ExactCheck | None
    outcomes: tuple[AuditOutcome, ...]
    screen: ScreenResult

    def outcome(self, auditor: str) -> AuditOutcome:
        return next(o for o in self.outcomes if o.auditor == auditor)

    def row(self) -> dict[str, Any]:
        """The output row: pair, texts, exact check, every auditor's full verdict, screen."""
        pair = self.pair
        return {
            "pair_id": pair.pair_id,
            "source_id": pair.source_id,
            "variant_id": pair.variant_id,
            "transform": pair.transform,
            "control": pair.control,
            "persona": pair.persona or None,
            "status": pair.status,
            "reason": pair.reason,
            "screen": self.screen.verdict,
            "screen_reasons": list(self.screen.reasons),
            "ignored_flags": list(self.screen.ignored),
            "exact_verdict": None if self.exact is None else self.exact.verdict,
            "exact": None if self.exact is None else self.exact.model_dump(mode="json"),
            "auditors": {o.auditor: o.model_dump(mode="json") for o in self.outcomes},
            "original": pair.original,
            "rewrite": pair.rewrite,
        }


@dataclass(frozen=True)
class AuditRun:
    """The results of one audit: every pair, and each auditor's validity."""

    auditors: tuple[str, ...]
    results: tuple[PairResult, ...]
    validity: tuple[AuditorValidity, ...]
    threshold: float

    @property
    def counted(self) -> frozenset[str]:
        return frozenset(v.auditor for v in self.validity if v.counts)


def screen_pairs(
    pairs: Sequence[AuditPair],
    auditors: Sequence[LLMAuditor],
    executor: Executor,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    on_answer: Callable[[Answer], None] | None = None,
    policy: SeverityPolicy = DEFAULT_POLICY,
) -> AuditRun:
    """Exact-check and audit every pair, judge each auditor's validity on the controls,
    and screen every pair. Pairs that cannot be audited are not sent to any auditor.
    ``policy`` is the exact check's severity policy (the one ``check-facts`` uses)."""
    ready = [p for p in pairs if p.status == "ok"]
    exact = {
        p.pair_id: ExactCheck.of(check_facts(p.original or "", p.rewrite or "", policy))
        for p in ready
    }
    answered = audit_pairs(
        auditors, [(p.original or "", p.rewrite or "") for p in ready], executor, on_answer
    )
    outcomes = {p.pair_id: tuple(o) for p, o in zip(ready, answered, strict=True)}
    validity = tuple(
        auditor_validity(
            auditor.name,
            [(p.edit_kind or "", outcomes[p.pair_id][i]) for p in ready if p.control],
            threshold,
        )
        for i, auditor in enumerate(auditors)
    )
    counted = frozenset(v.auditor for v in validity if v.counts)
    results = []
    for pair in pairs:
        found = outcomes.get(pair.pair_id) or tuple(
            a.not_asked(pair.reason or pair.status) for a in auditors
        )
        check = exact.get(pair.pair_id)
        results.append(
            PairResult(
                pair=pair,
                exact=check,
                outcomes=found,
                screen=screen_pair(pair, check, found, counted),
            )
        )
    return AuditRun(
        auditors=tuple(a.name for a in auditors),
        results=tuple(results),
        validity=validity,
        threshold=threshold,
    )
