"""Decision callables for the decide tests (imported as tests.decision_models / by path)."""

from __future__ import annotations

from typing import Any

CALLS: list[int] = []


def counting(items: list[dict[str, Any]], task: str) -> list[dict[str, Any]]:
    """Monetary when the text mentions a refund; counts calls (batches) in CALLS."""
    CALLS.append(len(items))
    return [{"label": "monetary_action" if "refund" in i["text"] else "no_action"} for i in items]


def bad_labels(items: list[dict[str, Any]], task: str) -> list[dict[str, Any]]:
    """Every other answer is a label the task does not have; one refusal."""
    out: list[dict[str, Any]] = []
    for n, _ in enumerate(items):
        if n == 0:
            out.append({"refused": True, "reason": "policy"})
        else:
            out.append({"label": "maybe" if n % 2 else "monetary_action"})
    return out


def first_option(items: list[dict[str, Any]], task: str) -> list[dict[str, Any]]:
    """Always the first option shown: pure option-order dependence."""
    return [{"label": i["options"][0]} for i in items]
