"""Run a plan on an engine, check every variant's facts, and summarise the run.

The runner only needs the :class:`~guisekit.engines.Engine` contract, so the same plan,
run and export serve the rules engine and every LLM bank.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from rapidfuzz.distance import Levenshtein

from guisekit.corpus.plan import Plan
from guisekit.corpus.rows import variant_row
from guisekit.engines import Engine, run_engine
from guisekit.facts import FactCheckResult, compare_facts, extract_facts
from guisekit.frames import Tabular
from guisekit.models import Variant
from guisekit.rules.cues import style_cues
from guisekit.style import flesch_kincaid_grade
from guisekit.transforms import TransformSpec, entry_of, label_of

__all__ = ["RunResult", "as_intended", "label_of", "run_plan"]

Progress = Callable[[int], None]


@dataclass(frozen=True)
class RunResult(Tabular):
    """Variants of a run with the exact fact check of each against its source.

    ``to_frame()`` gives one row per variant, as in ``corpus.jsonl``."""

    plan: Plan
    variants: list[Variant]
    checks: list[FactCheckResult | None]

    def table_rows(self) -> list[dict[str, Any]]:
        return [variant_row(variant) for variant in self.variants]

    def table_title(self) -> str:
        counts = ", ".join(
            f"{n} {s}" for s, n in sorted(Counter(v.status for v in self.variants).items())
        )
        return (
            f"corpus: {len(self.variants)} variants of {len(self.plan.sources)} sources"
            f" ({counts or 'none'})"
        )

    def table_columns(self) -> list[str]:
        return ["source_id", "variant_id", "transform", "status", "reason", "text", "n_edits"]

    @functools.cached_property
    def summary(self) -> list[dict[str, Any]]:
        """One row per transform label: variants, how many are ``ok`` and how many failed
        their engine's validation, share passing the exact check, share
        whose facts changed exactly as intended, mean normalised edit distance from the
        source, and mean shifts (variant minus source) of Flesch-Kincaid grade and of hedge,
        informal-marker and sophisticated-word rates per 100 words."""
        groups: dict[str, list[int]] = {}
        for i, variant in enumerate(self.variants):
            groups.setdefault(label_of(variant.spec), []).append(i)
        return [self._group_row(label, idx) for label, idx in groups.items()]

    @functools.cached_property
    def _source_measures(self) -> dict[str, dict[str, float]]:
        return {sid: _measures(source.text) for sid, source in self.plan.sources.items()}

    def _shift(self, source_id: str, text: str) -> dict[str, float]:
        before, after = self._source_measures[source_id], _measures(text)
        shift = {key: after[key] - before[key] for key in before}
        shift["change"] = Levenshtein.normalized_distance(self.plan.sources[source_id].text, text)
        return shift

    def _group_row(self, label: str, indexes: list[int]) -> dict[str, Any]:
        ok = [i for i in indexes if self.variants[i].status == "ok"]
        checked = [(self.variants[i].spec, c) for i in ok if (c := self.checks[i]) is not None]
        shifts = [self._shift(self.variants[i].source_id, self.variants[i].text or "") for i in ok]
        row: dict[str, Any] = {
            "transform": label,
            "variants": len(indexes),
            "ok": len(ok),
            "failed_validation": sum(
                str(self.variants[i].reason or "").startswith("validation:") for i in indexes
            ),
            "fact_pass": round(fmean(c.passed for _, c in checked), 3) if checked else None,
            "as_intended": (
                round(fmean(as_intended(s, c) for s, c in checked), 3) if checked else None
            ),
        }
        for key in ("change", "d_fk_grade", "d_hedges", "d_informal", "d_sophisticated"):
            row[key] = round(fmean(s[key] for s in shifts), 3) if shifts else None
        return row


def _measures(text: str) -> dict[str, float]:
    cues = style_cues(text)
    return {
        "d_fk_grade": flesch_kincaid_grade(text),
        "d_hedges": cues.hedges,
        "d_informal": cues.informal_markers,
        "d_sophisticated": cues.sophisticated,
    }


def run_plan(plan: Plan, engines: Sequence[Engine], progress: Progress | None = None) -> RunResult:
    """Make every variant of ``plan`` on its engine and fact-check it; a failing task is
    recorded with status ``error`` and its reason, never dropped."""
    source_facts = {sid: extract_facts(source.text) for sid, source in plan.sources.items()}
    variants: list[Variant] = []
    for bank, engine in enumerate(engines):
        tasks = [(plan.sources[t.source_id], t.spec, t.key) for t in plan.tasks if t.bank == bank]
        made = run_engine(engine, tasks, plan.seed, progress)
        variants.extend(_enforce_validation(v) for v in made)
    checks: list[FactCheckResult | None] = [
        None
        if variant.text is None
        else compare_facts(
            source_facts[variant.source_id],
            extract_facts(variant.text),
            original_text=plan.sources[variant.source_id].text,
            rewrite_text=variant.text,
        )
        for variant in variants
    ]
    return RunResult(plan, variants, checks)


def _enforce_validation(variant: Variant) -> Variant:
    """A variant whose engine validated it (``provenance.details["validation"]``, as the
    Hinglish transform does) and found it failing is an ``error`` with the failures as its
    reason, never ``ok``; its text is kept so the failure can be inspected."""
    validation = variant.provenance.details.get("validation")
    if variant.status != "ok" or not isinstance(validation, dict) or validation.get("passed"):
        return variant
    failures = "; ".join(str(f) for f in validation.get("failures", ())) or "failed"
    return variant.model_copy(update={"status": "error", "reason": f"validation: {failures}"})


def as_intended(spec: TransformSpec, check: FactCheckResult) -> bool:
    """Whether a variant's facts changed exactly as its transform intends.

    The transform's registry entry says what it intends (see
    :data:`~guisekit.transforms.FactChange`): ``none`` must pass the check; ``scaled``
    must multiply every amount, in order, by the spec's factor and leave every other fact
    alone (an amount-free text gains exactly one amount); ``added`` adds exactly one
    amount; ``removed`` removes exactly one fact; ``claim`` changes no extractable fact
    but negators (its change is a claim, for the LLM auditors to find; a claim with a
    negator, "I had not read it", is also seen by the exact check).
    """
    change = entry_of(spec).change(spec)
    if change == "none":
        return check.passed
    before = Counter(f.key for f in check.original_facts)
    after = Counter(f.key for f in check.rewrite_facts)
    if change == "claim":  # its claim may carry a negator ("I had not read it")
        return Counter(k for k in before.elements() if not k.startswith("negation:")) == Counter(
            k for k in after.elements() if not k.startswith("negation:")
        )
    if change == "removed":
        return not after - before and sum((before - after).values()) == 1
    old = [f for f in check.original_facts if f.kind == "money"]
    if change == "added" or not old:
        added = after - before
        return (
            not before - after
            and sum(added.values()) == 1
            and next(iter(added)).startswith("money:")
        )
    factor = getattr(spec, "factor")  # noqa: B009  (a scaled transform's spec has a factor)
    new = [f for f in check.rewrite_facts if f.kind == "money"]
    others = Counter(k for k in before.elements() if not k.startswith("money:"))
    return (
        others == Counter(k for k in after.elements() if not k.startswith("money:"))
        and len(old) == len(new)
        and all(
            o.amount is not None and n.amount == o.amount * factor and n.currency == o.currency
            for o, n in zip(old, new, strict=True)
        )
    )
