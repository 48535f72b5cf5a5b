"""Compare the facts of an original and a rewrite.

Facts are compared per kind as multisets, in three passes:

1. **match** equal facts, then *compatible* ones that agree on every part both texts
   state: ``March 14`` matches ``March 14, 2023``. Two facts are only equal or compatible
   when they also carry the same approximator (``nearly 30 days`` is not ``30 days``),
   the same period (``₹75,000 a month`` is not ``₹75,000`` nor ``₹75,000 a year``) and,
   when both are bound to a role word, the same role (a fee and a refund that trade
   values are two changes, though the multiset of amounts is the same);
2. a bare year left over is still **covered** when the other text has a date in that year
   (the date itself must still be matched by a date); an entity left over is **covered**
   when its words appear in the other text in any case (a persona that writes in lower
   case keeps ``chase``);
   A negation whose negated word the other text uses only in clauses without a
   negator has moved (:mod:`.scope`) and is left out of the matching, so "I paid the fee
   but they did not refund it" -> "I did not pay the fee but they refunded it" is a
   change though the count of negators is the same;
3. left-overs of the same kind (money: same currency) are paired in order of appearance
   as **changed**; the rest are **omitted** (original only) or **added** (rewrite only).

Severity comes from the :class:`~guisekit.facts.policy.SeverityPolicy`: every change fails
unless the check could not decide. The one such case is a numeric date whose day/month
order the text leaves open (``3/4/2024`` with no Indian or US context) matched against a
date written another way: that warns, giving both readings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from guisekit.facts.context import spelling_blind
from guisekit.facts.extract import extract_facts
from guisekit.facts.model import Discrepancy, Fact, FactCheckResult
from guisekit.facts.policy import DEFAULT_POLICY, SeverityPolicy
from guisekit.facts.scope import moved_negations

__all__ = ["check_facts", "compare_facts"]


def _parts_agree(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return True
    return a == b


def _same_frame(a: Fact, b: Fact) -> bool:
    """Approximator equal (a bare "over" may also be absent or "more than": the comparison
    warns), and roles equal where both texts bind one."""
    return (a.approx == b.approx or _loose_over(a, b) or _loose_about(a, b)) and (
        a.role is None or b.role is None or a.role == b.role
    )


def _loose_about(a: Fact, b: Fact) -> bool:
    """Hindi ``lagbhag`` (class ``about~``) is both "about" and "nearly"."""
    return "about~" in (a.approx, b.approx) and {a.approx, b.approx} <= {
        "about~",
        "about",
        "nearly",
    }


def _loose_over(a: Fact, b: Fact) -> bool:
    return "over?" in (a.approx, b.approx) and {a.approx, b.approx} <= {"over?", "over", None}


def _equal(a: Fact, b: Fact) -> bool:
    return a.kind == b.kind and a.value == b.value and _same_frame(a, b)


def _compatible(a: Fact, b: Fact) -> bool:
    if a.kind != b.kind or not _same_frame(a, b):
        return False
    if a.kind == "date":
        return (
            _parts_agree(a.year, b.year)
            and _parts_agree(a.month, b.month)
            and _parts_agree(a.day, b.day)
        )
    if a.kind == "money":
        return a.amount == b.amount and a.currency == b.currency and a.period == b.period
    return a.value == b.value


def _alt_compatible(a: Fact, b: Fact) -> bool:
    """Dates that match only when an ambiguous one is read the other way round."""
    if a.kind != "date" or b.kind != "date" or not _same_frame(a, b):
        return False
    return any(x.alt is not None and _date_parts_agree(x.alt, y) for x, y in ((a, b), (b, a)))


def _date_parts_agree(alt: str, other: Fact) -> bool:
    year, month, day = alt.split("-") if alt.count("-") == 2 else (None, None, None)
    return (
        _parts_agree(year or None, other.year)
        and _parts_agree(month, other.month)
        and _parts_agree(day, other.day)
    )


def _comparable(a: Fact, b: Fact) -> bool:
    """Whether two unmatched facts are the same slot, so a mismatch is a *change*."""
    if a.kind != b.kind:
        return False
    if a.kind == "money":
        return a.currency == b.currency
    if a.kind == "quantity":
        return a.unit == b.unit
    return True


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


def _ambiguity(a: Fact, b: Fact) -> str | None:
    """Why a matched pair cannot be confirmed, or None."""
    if a.approx != b.approx and _loose_over(a, b):
        return (
            f"{(a if a.approx == 'over?' else b).text!r} follows a bare 'over', which may mean "
            "'more than' or 'during'"
        )
    if a.kind != "date" or (a.alt is None and b.alt is None):
        return None
    if a.alt is not None and b.alt is not None and a.text == b.text:
        return None  # the same numeric date written the same way on both sides
    loose = a if a.alt is not None else b
    return (
        f"{loose.text!r} could be {loose.value} or {loose.alt} (day/month order not settled "
        "by the text; pass --date-order mdy or dmy)"
    )


def compare_facts(
    original: Sequence[Fact],
    rewrite: Sequence[Fact],
    policy: SeverityPolicy = DEFAULT_POLICY,
    *,
    original_text: str | None = None,
    rewrite_text: str | None = None,
) -> FactCheckResult:
    """Compare two fact lists (as from :func:`extract_facts`) into a result; with the
    texts given, entities are also looked up in the other text in any case."""
    left, right = list(original), list(rewrite)
    moved_left: list[Fact] = []
    moved_right: list[Fact] = []
    if original_text is not None and rewrite_text is not None:
        # a negation moved to another clause is left out of the matching (issue 14)
        moved_left = moved_negations(left, original_text, right, rewrite_text)
        moved_right = moved_negations(right, rewrite_text, left, original_text)
        left = [f for f in left if f not in moved_left]
        right = [f for f in right if f not in moved_right]
    matched = _pair_off(left, right, _equal)
    matched += _pair_off(left, right, _compatible)
    matched += _pair_off(left, right, _alt_compatible)
    left = [f for f in left if not _covered(f, rewrite, rewrite_text)]
    right = [f for f in right if not _covered(f, original, original_text)]
    left += moved_left
    right += moved_right
    discrepancies = []
    for a, b in matched:
        reason = _ambiguity(a, b)
        if reason is not None:
            severity, why = policy.severity(a.kind, reason)
            discrepancies.append(Discrepancy("changed", a.kind, a, b, severity, why))
    for a, b in _pair_off(left, right, _comparable):
        severity, why = policy.severity(a.kind)
        discrepancies.append(Discrepancy("changed", a.kind, a, b, severity, why))
    for f in left:
        severity, why = policy.severity(f.kind)
        discrepancies.append(Discrepancy("omitted", f.kind, f, None, severity, why))
    for f in right:
        severity, why = policy.severity(f.kind)
        discrepancies.append(Discrepancy("added", f.kind, None, f, severity, why))
    return FactCheckResult(tuple(original), tuple(rewrite), tuple(discrepancies), policy)


def _covered(fact: Fact, other: Sequence[Fact], other_text: str | None) -> bool:
    if fact.kind == "year":
        return any(o.kind == "date" and o.year == fact.year for o in other)
    if fact.kind == "entity" and other_text is not None:
        pattern = rf"(?<!\w){re.escape(fact.value)}(?!\w)"
        return re.search(pattern, spelling_blind(other_text.lower())) is not None
    return False


def check_facts(
    original: str, rewrite: str, policy: SeverityPolicy = DEFAULT_POLICY
) -> FactCheckResult:
    """Extract the facts of both texts and compare them: the exact fact check."""
    return compare_facts(
        extract_facts(original, date_order=policy.date_order),
        extract_facts(rewrite, date_order=policy.date_order),
        policy,
        original_text=original,
        rewrite_text=rewrite,
    )
