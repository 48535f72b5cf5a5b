"""Run a plan on an engine, check every variant's facts, and summarise the run.

The runner only needs the :class:`~guisekit.engines.Engine` contract, so the same plan,
run and export serve the rules engine and every LLM bank.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from guisekit.corpus.plan import Plan
from guisekit.corpus.rows import variant_row
from guisekit.corpus.summary import SummaryTotals, measures, shift
from guisekit.engines import Engine, run_engine
from guisekit.facts import FactCheckResult, compare_facts, extract_facts
from guisekit.frames import Tabular
from guisekit.models import Source, Variant
from guisekit.transforms import TransformSpec, entry_of, label_of

__all__ = ["RunResult", "Tally", "as_intended", "enforce_validation", "label_of", "run_plan"]

Progress = Callable[[int], None]


@dataclass(frozen=True)
class RunResult(Tabular):
    """Variants of a run with the exact fact check of each against its source, all in
    memory: the library API for small runs. ``guisekit corpus`` streams instead (see
    :mod:`guisekit.corpus.stream`); both give the same rows and summary. ``to_frame()``
    gives one row per variant, as in ``corpus.jsonl``."""

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
        informal-marker and sophisticated-word rates per 100 words. Each source and each
        distinct text is measured once."""
        tally = Tally()
        for variant, check in zip(self.variants, self.checks, strict=True):
            tally.add(variant, self.plan.sources[variant.source_id], check)
        return tally.totals.rows()


class Tally:
    """A run's summary totals, built one variant at a time: each source and each distinct
    variant text is measured once (an unchanged text reuses its source's measures), the
    same whether the variants come all at once (:class:`RunResult`) or chunk by chunk."""

    def __init__(self) -> None:
        self.totals = SummaryTotals()
        self._sources: dict[str, tuple[float, ...]] = {}
        self._texts: dict[str, tuple[float, ...]] = {}

    def add(self, variant: Variant, source: Source, check: FactCheckResult | None) -> None:
        """Count ``variant`` of ``source``; ``check`` is its exact fact check, if any."""
        ok = variant.status == "ok"
        shifts = None
        if ok:
            before = self._sources.get(source.id)
            if before is None:
                before = self._sources[source.id] = measures(source.text)
            text = variant.text or ""
            after = before if text == source.text else self._texts.get(text)
            if after is None:
                after = self._texts[text] = measures(text)
            shifts = shift(source.text, before, text, after)
        self.totals.add(
            label_of(variant.spec),
            ok=ok,
            failed_validation=str(variant.reason or "").startswith("validation:"),
            check=(
                (check.passed, as_intended(variant.spec, check))
                if ok and check is not None
                else None
            ),
            shifts=shifts,
        )


def run_plan(plan: Plan, engines: Sequence[Engine], progress: Progress | None = None) -> RunResult:
    """Make every variant of ``plan`` on its engine and fact-check it; a failing task is
    recorded with status ``error`` and its reason, never dropped."""
    source_facts = {sid: extract_facts(source.text) for sid, source in plan.sources.items()}
    variants: list[Variant] = []
    for bank, engine in enumerate(engines):
        tasks = [(plan.sources[t.source_id], t.spec, t.key) for t in plan.tasks if t.bank == bank]
        made = run_engine(engine, tasks, plan.seed, progress)
        variants.extend(enforce_validation(v) for v in made)
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


def enforce_validation(variant: Variant) -> Variant:
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
