"""The report of an audit run: validity, flag rates with intervals, agreement, breakdowns.

Flag rates describe the *screened population*: pairs that were audited and are not
positive controls (the controls are changed on purpose; they measure the detectors, not
the rewrites). The breakdown by transform covers every audited pair, controls included, so
it also shows each detector's catch rate per kind of fact edit. The measures are each
auditor's material flag (over the pairs it answered), their union and intersection (over
pairs every auditor answered), the exact check's failures, and the screen's failures
(over pairs with a pass or fail verdict).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from guisekit.audit.screen import AuditRun, PairResult
from guisekit.audit.stats import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    Agreement,
    RateEstimate,
    agreement,
    cluster_rate,
)
from guisekit.audit.validity import AuditorValidity, KindDetection
from guisekit.audit.verdict import CATEGORIES, Category
from guisekit.errors import InputError
from guisekit.facts.model import FactKind
from guisekit.frames import Tabular

__all__ = [
    "EXACT",
    "INTERSECTION",
    "SCREEN",
    "UNION",
    "AgreementRow",
    "AuditReport",
    "CategoryCount",
    "ControlRow",
    "RateRow",
    "build_report",
]

UNION, INTERSECTION, EXACT, SCREEN = "union", "intersection", "exact_check", "screen"
Breakdown = Literal["all", "transform", "persona", "model"]
Flag = Callable[[PairResult], bool | None]
# Where the exact check's fact kinds fall among the auditors' categories.
_EXACT_CATEGORY: dict[FactKind, Category] = {
    "money": "amount",
    "percent": "amount",
    "date": "date_time",
    "year": "date_time",
    "relative_date": "date_time",
    "redaction": "other",
    "quantity": "amount",
    "negation": "negation",
    "entity": "event_or_entity",
    "identifier": "event_or_entity",
}


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RateRow(_Frozen):
    """One measure's flag rate in one group (``all``, a transform, ``axis=level`` or a
    rewrite model)."""

    by: Breakdown
    group: str
    measure: str
    rate: RateEstimate


class AgreementRow(_Frozen):
    """Agreement of two auditors on the binary material flag or the 3-way verdict."""

    first: str
    second: str
    scale: Literal["material", "overall"]
    agreement: Agreement


class CategoryCount(_Frozen):
    """How many discrepancies a detector listed in one category, and how many were material
    (for the exact check: how many made it fail)."""

    detector: str
    category: Category
    discrepancies: int = Field(ge=0)
    material: int = Field(ge=0)


class ControlRow(KindDetection):
    """A detector's catch rate on the positive controls of one fact-edit kind."""

    detector: str


class AuditReport(_Frozen, Tabular):
    """Everything ``guisekit audit`` reports about a run (written as ``report.json``).

    ``to_frame()`` gives the flag rates: one row per breakdown, group and measure."""

    domain: str
    prompt: str
    auditors: tuple[str, ...]
    threshold: float
    n_pairs: int
    population: int = Field(description="Audited pairs that are not positive controls.")
    statuses: dict[str, int]
    screen: dict[str, int]
    validity: tuple[AuditorValidity, ...]
    rates: tuple[RateRow, ...]
    agreement: tuple[AgreementRow, ...]
    categories: tuple[CategoryCount, ...]
    controls: tuple[ControlRow, ...]
    warnings: tuple[str, ...]
    resamples: int
    seed: int
    level: float
    weighted: bool

    def rate(self, measure: str, by: Breakdown = "all", group: str = "all") -> RateEstimate:
        """The rate of ``measure`` in one group (raises KeyError when absent)."""
        for row in self.rates:
            if (row.by, row.group, row.measure) == (by, group, measure):
                return row.rate
        raise KeyError((by, group, measure))

    def table_rows(self) -> list[dict[str, Any]]:
        return [
            {"by": r.by, "group": r.group, "measure": r.measure, **r.rate.model_dump()}
            for r in self.rates
        ]

    def table_title(self) -> str:
        return (
            f"audit of {self.domain}: flag rates over {self.population} screened pairs "
            f"({self.level:.0%} CI)"
        )

    @property
    def measures(self) -> tuple[str, ...]:
        extra = (UNION, INTERSECTION) if len(self.auditors) > 1 else ()
        return (*self.auditors, *extra, EXACT, SCREEN)


def _flags(auditors: Sequence[str]) -> dict[str, Flag]:
    def auditor_flag(name: str) -> Flag:
        return lambda r: r.outcome(name).material

    def combined(pick: Callable[[list[bool]], bool]) -> Flag:
        def flag(r: PairResult) -> bool | None:
            found = [o.material for o in r.outcomes]
            known = [f for f in found if f is not None]
            return pick(known) if len(known) == len(found) else None

        return flag

    flags: dict[str, Flag] = {name: auditor_flag(name) for name in auditors}
    if len(auditors) > 1:
        flags[UNION] = combined(any)
        flags[INTERSECTION] = combined(all)
    flags[EXACT] = lambda r: None if r.exact is None else not r.exact.passed
    flags[SCREEN] = lambda r: {"fail": True, "pass": False}.get(r.screen.verdict)
    return flags


def _groups(results: Sequence[PairResult]) -> list[tuple[Breakdown, str, list[PairResult]]]:
    audited = [r for r in results if r.pair.status == "ok"]
    population = [r for r in audited if not r.pair.control]
    groups: list[tuple[Breakdown, str, list[PairResult]]] = [("all", "all", population)]
    transforms = sorted({r.pair.transform for r in audited if r.pair.transform})
    for label in transforms:
        groups.append(("transform", label, [r for r in audited if r.pair.transform == label]))
    levels = sorted({(a, lv) for r in population for a, lv in r.pair.persona.items()})
    for axis, level in levels:
        chosen = [r for r in population if r.pair.persona.get(axis) == level]
        groups.append(("persona", f"{axis}={level}", chosen))
    models = sorted({r.pair.model for r in population if r.pair.model})
    if len(models) > 1:  # several rewrite banks: does one drift more than the other?
        for model in models:
            groups.append(("model", model, [r for r in population if r.pair.model == model]))
    return groups


def _rates(
    run: AuditRun,
    weights: Mapping[str, float] | None,
    resamples: int,
    seed: int,
    level: float,
) -> list[RateRow]:
    rows = []
    flags = _flags(run.auditors)
    for by, group, members in _groups(run.results):
        for measure, flag in flags.items():
            seen = [(r.pair.source_id, f) for r in members if (f := flag(r)) is not None]
            rate = cluster_rate(
                [f for _, f in seen],
                [s for s, _ in seen],
                None if weights is None else [weights[s] for s, _ in seen],
                n_resamples=resamples,
                seed=seed,
                level=level,
            )
            rows.append(RateRow(by=by, group=group, measure=measure, rate=rate))
    return rows


def _agreement(run: AuditRun, population: Sequence[PairResult]) -> list[AgreementRow]:
    rows = []
    for first, second in itertools.combinations(run.auditors, 2):
        pairs = [
            (a, b)
            for r in population
            if (a := r.outcome(first).verdict) is not None
            and (b := r.outcome(second).verdict) is not None
        ]
        rows.append(
            AgreementRow(
                first=first,
                second=second,
                scale="material",
                agreement=agreement([a.material for a, _ in pairs], [b.material for _, b in pairs]),
            )
        )
        rows.append(
            AgreementRow(
                first=first,
                second=second,
                scale="overall",
                agreement=agreement([a.overall for a, _ in pairs], [b.overall for _, b in pairs]),
            )
        )
    return rows


def _categories(run: AuditRun, population: Sequence[PairResult]) -> list[CategoryCount]:
    rows = []
    for name in run.auditors:
        found = [
            d
            for r in population
            if (v := r.outcome(name).verdict) is not None
            for d in v.discrepancies
        ]
        total = Counter(d.category for d in found)
        material = Counter(d.category for d in found if d.material)
        rows += [
            CategoryCount(detector=name, category=c, discrepancies=total[c], material=material[c])
            for c in CATEGORIES
        ]
    exact = [d for r in population if r.exact is not None for d in r.exact.discrepancies]
    total = Counter(_EXACT_CATEGORY[d.kind] for d in exact)
    failing = Counter(_EXACT_CATEGORY[d.kind] for d in exact if d.severity == "fail")
    rows += [
        CategoryCount(detector=EXACT, category=c, discrepancies=total[c], material=failing[c])
        for c in CATEGORIES
    ]
    return rows


def _caught_by(auditor: str) -> Callable[[PairResult], bool]:
    return lambda r: r.outcome(auditor).material is True


def _controls(run: AuditRun) -> list[ControlRow]:
    controls = [r for r in run.results if r.pair.status == "ok" and r.pair.control]
    kinds = sorted({r.pair.edit_kind or "" for r in controls})
    detectors: dict[str, Callable[[PairResult], bool]] = {
        f"{EXACT} (fail)": lambda r: r.exact is not None and not r.exact.passed,
        f"{EXACT} (warn or fail)": lambda r: r.exact is not None and r.exact.verdict != "pass",
    }
    for name in run.auditors:
        detectors[name] = _caught_by(name)
    rows = []
    for detector, caught in detectors.items():
        for kind in kinds:
            mine = [r for r in controls if r.pair.edit_kind == kind]
            rows.append(
                ControlRow(
                    detector=detector,
                    kind=kind,
                    controls=len(mine),
                    flagged=sum(caught(r) for r in mine),
                )
            )
    return rows


def _warnings(run: AuditRun, statuses: Mapping[str, int]) -> list[str]:
    notes = []
    if not any(v.controls for v in run.validity):
        notes.append(
            "no positive controls (fact_edit variants) were audited: auditor validity is "
            "unknown and every auditor's flags count"
        )
    for v in run.validity:
        if v.status == "invalid":
            notes.append(
                f"{v.auditor} flagged {v.flagged} of {v.controls} controls, under the "
                f"{v.threshold:.0%} threshold: its material flags are ignored by the screen"
            )
    if run.auditors and not run.counted:
        notes.append("no auditor is valid: the screen rests on the exact check alone")
    providers = {name.partition(":")[0] for name in run.auditors}
    if len(run.auditors) > 1 and len(providers) == 1:
        notes.append("every auditor comes from one provider; the design calls for two")
    skipped = {s: n for s, n in statuses.items() if s not in ("ok", "identical")}
    if skipped:
        listed = ", ".join(f"{n} {s}" for s, n in sorted(skipped.items()))
        notes.append(f"pairs not audited: {listed} (see their status and reason)")
    return notes


def build_report(
    run: AuditRun,
    *,
    domain: str,
    prompt: str,
    weights: Mapping[str, float] | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    level: float = DEFAULT_LEVEL,
) -> AuditReport:
    """The report of ``run``; ``weights`` (by source id) must cover every audited source."""
    if weights is not None:
        missing = sorted(
            {r.pair.source_id for r in run.results if r.pair.status == "ok"} - set(weights)
        )
        if missing:
            raise InputError(
                f"no population weight for {len(missing)} source(s), e.g. {missing[0]!r}",
                hint="give every source of the corpus a weight",
            )
    population = [r for r in run.results if r.pair.status == "ok" and not r.pair.control]
    statuses: dict[str, int] = dict(Counter(r.pair.status for r in run.results))
    return AuditReport(
        domain=domain,
        prompt=prompt,
        auditors=run.auditors,
        threshold=run.threshold,
        n_pairs=len(run.results),
        population=len(population),
        statuses=dict(sorted(statuses.items())),
        screen=dict(sorted(Counter(r.screen.verdict for r in run.results).items())),
        validity=run.validity,
        rates=tuple(_rates(run, weights, resamples, seed, level)),
        agreement=tuple(_agreement(run, population)),
        categories=tuple(_categories(run, population)),
        controls=tuple(_controls(run)),
        warnings=tuple(_warnings(run, statuses)),
        resamples=resamples,
        seed=seed,
        level=level,
        weighted=weights is not None,
    )
