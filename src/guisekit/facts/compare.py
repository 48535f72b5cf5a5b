"""Compare the facts of an original and a rewrite.

Facts are compared per kind as multisets, in three passes:

1. **match** equal facts (same ``kind:value``), then *compatible* ones that agree on every
   part both texts state: ``March 14`` matches ``March 14, 2023``; ``18 lakhs`` matches
   ``18 lakhs per annum``;
2. a bare year left over is still **covered** when the other text has a date in that year
   (the date itself must still be matched by a date);
3. left-overs of the same kind (money: same currency) are paired in
   order of appearance as **changed**; the rest are **omitted** (original only) or
   **added** (rewrite only).

Severity: explicit money, percentages and dates fail; money whose currency is only
implied, bare years, relative dates and redaction tokens warn (see ``Fact.severity``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from guisekit.facts.extract import extract_facts
from guisekit.facts.model import Discrepancy, Fact, FactCheckResult

__all__ = ["check_facts", "compare_facts"]


def _parts_agree(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return True
    return a == b


def _compatible(a: Fact, b: Fact) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind == "date":
        return (
            _parts_agree(a.year, b.year)
            and _parts_agree(a.month, b.month)
            and _parts_agree(a.day, b.day)
        )
    if a.kind == "money":
        return (
            a.amount == b.amount and a.currency == b.currency and _parts_agree(a.period, b.period)
        )
    return a.value == b.value


def _comparable(a: Fact, b: Fact) -> bool:
    """Whether two unmatched facts are the same slot, so a mismatch is a *change*."""
    return a.kind == b.kind and (a.kind != "money" or a.currency == b.currency)


def _pair_off(
    left: list[Fact], right: list[Fact], same: Callable[[Fact, Fact], bool]
) -> list[tuple[Fact, Fact]]:
    """Greedily pair items of ``left`` with the first unpaired ``right`` item ``same`` to it;
    paired items are removed from both lists."""
    pairs = []
    for a in list(left):
        for b in right:
            if same(a, b):
                pairs.append((a, b))
                left.remove(a)
                right.remove(b)
                break
    return pairs


def compare_facts(original: Sequence[Fact], rewrite: Sequence[Fact]) -> FactCheckResult:
    """Compare two fact lists (as from :func:`extract_facts`) into a result."""
    left, right = list(original), list(rewrite)
    _pair_off(left, right, lambda a, b: a.key == b.key)
    _pair_off(left, right, _compatible)
    left = [f for f in left if not _year_covered(f, rewrite)]
    right = [f for f in right if not _year_covered(f, original)]
    changed = _pair_off(left, right, _comparable)
    discrepancies = [
        Discrepancy(
            "changed", a.kind, a, b, "fail" if "fail" in (a.severity, b.severity) else "warn"
        )
        for a, b in changed
    ]
    discrepancies += [Discrepancy("omitted", f.kind, f, None, f.severity) for f in left]
    discrepancies += [Discrepancy("added", f.kind, None, f, f.severity) for f in right]
    return FactCheckResult(tuple(original), tuple(rewrite), tuple(discrepancies))


def _year_covered(fact: Fact, other: Sequence[Fact]) -> bool:
    return fact.kind == "year" and any(o.kind == "date" and o.year == fact.year for o in other)


def check_facts(original: str, rewrite: str) -> FactCheckResult:
    """Extract the facts of both texts and compare them: the exact fact check."""
    return compare_facts(extract_facts(original), extract_facts(rewrite))
