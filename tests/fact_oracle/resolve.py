"""Resolve overlapping candidates: a span is claimed by one fact only.

Greedy by priority, then position, then length: the result of checking each candidate
against all accepted ones, computed per group of overlapping candidates (most candidates
overlap nothing and are accepted at once).
"""

from __future__ import annotations

from fact_oracle.build import Candidate
from fact_oracle.model import Fact

__all__ = ["resolve"]


def resolve(candidates: list[Candidate]) -> list[Fact]:
    """The facts of the winning candidates, in order of appearance."""
    candidates.sort()
    accepted: list[Fact] = []
    append = accepted.append
    group: list[Candidate] = []  # the candidates that overlap, transitively, since ``last``
    last: Candidate | None = None
    end = -1
    for item in candidates:
        if item[0] < end:
            if not group:
                group.append(last)  # type: ignore[arg-type]
            group.append(item)
            if item[1] > end:
                end = item[1]
            continue
        if group:
            accepted += _resolve_group(group)
            group = []
        elif last is not None:
            append(last[4])
        last, end = item, item[1]
    if group:
        accepted += _resolve_group(group)
    elif last is not None:
        append(last[4])
    return accepted


def _resolve_group(group: list[Candidate]) -> list[Fact]:
    kept: list[Candidate] = []
    for item in sorted(group, key=_priority_order):
        start, end = item[0], item[1]
        for other in kept:
            if end > other[0] and start < other[1]:
                break
        else:
            kept.append(item)
    kept.sort(key=_position)
    return [item[4] for item in kept]


def _position(item: Candidate) -> tuple[int, int, int, int]:
    return item[0], item[1], item[2], item[3]


def _priority_order(item: Candidate) -> tuple[int, int, int, int]:
    return item[2], item[0], item[0] - item[1], item[3]
