"""Planning, running and recording decisions: one item per variant x repeat x option
order, cached in the answer store so a re-run makes no new calls and a killed run resumes.

Option orders are shared by every variant (the canonical order first, then every
permutation or ``k - 1`` seeded random ones), so order is crossed with persona and its
noise can be separated from persona effects.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np

from guisekit.decide.model import Decision, DecisionItem, DecisionModel
from guisekit.decide.tasks import DecisionTask
from guisekit.errors import ConfigError
from guisekit.ids import stable_hash
from guisekit.llm.store import Answer, Store

__all__ = ["decision_rows", "health", "option_orders", "plan_items", "run_decisions"]

MAX_ALL_PERMUTATIONS = 24
Orders = int | Literal["all"]


def option_orders(task: DecisionTask, orders: Orders, seed: int) -> list[tuple[str, ...]]:
    """The label orders to show: canonical first; ``"all"`` permutations or ``k`` in all."""
    names = task.label_names()
    if task.kind == "numeric" or task.fixed_order:
        if orders not in (1, "all"):
            raise ConfigError(f"task {task.name!r} has no options to reorder", location="--orders")
        return [()] if task.kind == "numeric" else [names]
    if orders == "all":
        count = math.factorial(len(names))
        if count > MAX_ALL_PERMUTATIONS:
            raise ConfigError(
                f"{len(names)} labels have {count} orders",
                location="--orders",
                hint="give a number of random orders instead, e.g. --orders 4",
            )
        return [tuple(p) for p in itertools.permutations(names)]
    if orders < 1:
        raise ConfigError("need at least one option order", location="--orders")
    if orders > math.factorial(len(names)):
        raise ConfigError(f"only {math.factorial(len(names))} orders exist", location="--orders")
    rng = np.random.default_rng([seed, int(stable_hash("orders", task.name, length=8), 16)])
    chosen = [names]
    while len(chosen) < orders:
        candidate = tuple(names[i] for i in rng.permutation(len(names)))
        if candidate not in chosen:
            chosen.append(candidate)
    return chosen


def plan_items(
    variants: Sequence[tuple[str, str]],
    task: DecisionTask,
    *,
    orders: Orders = 1,
    repeats: int = 1,
    seed: int = 0,
) -> list[DecisionItem]:
    """One item per (variant_id, text) x repeat x option order."""
    if repeats < 1:
        raise ConfigError("need at least one repeat", location="--repeats")
    permutations = option_orders(task, orders, seed)
    return [
        DecisionItem(
            key=stable_hash(variant_id, text, options, repeat),
            variant_id=variant_id,
            text=text,
            options=options,
            repeat=repeat,
            order=o,
        )
        for variant_id, text in variants
        for repeat in range(repeats)
        for o, options in enumerate(permutations)
    ]


def _cache_key(model: DecisionModel, task: DecisionTask, item: DecisionItem) -> str:
    return "d-" + stable_hash(model.identity(), task.name, item.text, item.options, item.repeat)


def run_decisions(
    model: DecisionModel,
    task: DecisionTask,
    items: Sequence[DecisionItem],
    store: Store,
    *,
    batch_size: int = 64,
    advance: Callable[[int], None] | None = None,
) -> tuple[list[Decision], int]:
    """Every item's decision, reusing stored ones; also how many were newly taken.

    Decisions are stored batch by batch as they come back, so an interrupted run resumes
    where it stopped. Failed decisions are stored too (with their reason) only when the
    model is a chat model, whose runner already retried them; callable and HTTP failures
    are retried on the next run.
    """
    keys = [_cache_key(model, task, item) for item in items]
    stored = store.get_many(keys)
    out: dict[str, Decision] = {}
    for key, answer in stored.items():
        if answer.value is not None:
            out[key] = Decision.model_validate(answer.value)
    todo = [(k, i) for k, i in zip(keys, items, strict=True) if k not in out]
    if advance is not None and len(out):
        advance(len(items) - len(todo))
    size = max(batch_size, 1) if model.method in ("callable", "http") else max(len(todo), 1)
    for start in range(0, len(todo), size):
        batch = todo[start : start + size]
        decisions = model.decide([item for _, item in batch])
        for (key, _), decision in zip(batch, decisions, strict=True):
            out[key] = decision
            if decision.status == "ok" or model.method not in ("callable", "http"):
                store.put(
                    Answer(
                        key=key,
                        model=model.name,
                        prompt=f"decide/{task.name}",
                        status=decision.status,
                        value=decision.model_dump(),
                        reason=decision.reason,
                    )
                )
        if advance is not None:
            advance(len(batch))
    return [out[k] for k in keys], len(todo)


def decision_rows(
    items: Sequence[DecisionItem],
    decisions: Sequence[Decision],
    *,
    model_name: str,
    task: DecisionTask,
    prompt_version: str | None,
    carry: Mapping[str, Mapping[str, Any]] | None = None,
) -> Iterable[dict[str, Any]]:
    """Tidy output rows keyed by ``variant_id``, ``repeat`` and ``order``; label
    probabilities flattened into ``prob_<label>`` columns; ``carry`` adds columns from
    the corpus (e.g. ``source_id``) per variant."""
    labels = task.label_names()
    for item, decision in zip(items, decisions, strict=True):
        row: dict[str, Any] = {
            "variant_id": item.variant_id,
            **(dict(carry.get(item.variant_id, {})) if carry else {}),
            "repeat": item.repeat,
            "order": item.order,
            "options_order": ",".join(item.options) if item.options else None,
            "model": model_name,
            "task": task.name,
            "prompt": prompt_version,
            "method": decision.method,
            "status": decision.status,
            "reason": decision.reason,
            "outcome": decision.outcome,
            "label": decision.label,
        }
        for name in labels:
            row[f"prob_{name}"] = None if decision.probs is None else decision.probs.get(name)
        yield row


def health(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per model: decisions, ok, refused, failed to parse, parse health and refusal rate."""
    out = []
    for model in dict.fromkeys(r["model"] for r in rows):
        mine = [r for r in rows if r["model"] == model]
        n = len(mine)
        ok = sum(r["status"] == "ok" for r in mine)
        refused = sum(r["status"] == "refused" for r in mine)
        out.append(
            {
                "model": model,
                "decisions": n,
                "ok": ok,
                "refused": refused,
                "errors": n - ok - refused,
                "parse_health": round(ok / max(n - refused, 1), 4),
                "refusal_rate": round(refused / max(n, 1), 4),
            }
        )
    return out
