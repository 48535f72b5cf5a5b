"""The decision-model contract and its two non-LLM implementations.

A decision model takes a batch of :class:`DecisionItem` (a text, and for labelled tasks
the label options in the order to show them) and returns one :class:`Decision` per item:
a numeric outcome, a label with label probabilities where known, or a refusal / error with
its reason. Three implementations share the contract, so callers never branch on them:

* :class:`~guisekit.decide.chat.ChatDecisionModel` - any chat model through the shared
  cached runner, with a versioned decision prompt;
* :class:`CallableDecisionModel` - a Python function ``package.module:function`` called
  with batches of plain dicts;
* :class:`HttpDecisionModel` - an HTTP endpoint taking and returning JSON.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guisekit.decide.tasks import DecisionTask
from guisekit.errors import ConfigError

__all__ = [
    "CallableDecisionModel",
    "Decision",
    "DecisionItem",
    "DecisionModel",
    "HttpDecisionModel",
    "Method",
    "load_callable",
]

Method = Literal["logprobs", "samples", "single", "callable", "http"]
Status = Literal["ok", "refused", "error"]


class DecisionItem(BaseModel):
    """One decision to take: ``key`` is unique per (variant, repeat, order)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    key: str
    variant_id: str
    text: str
    options: tuple[str, ...] = ()
    repeat: int = Field(default=0, ge=0)
    order: int = Field(default=0, ge=0)


class Decision(BaseModel):
    """What one decision ended as; ``probs`` maps every label to its probability."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    status: Status
    outcome: float | None = None
    label: str | None = None
    probs: dict[str, float] | None = None
    method: Method
    reason: str | None = None
    samples: int = Field(default=1, ge=0)

    @model_validator(mode="after")
    def _consistent(self) -> Decision:
        if self.status == "ok" and (self.outcome is None or not math.isfinite(self.outcome)):
            raise ValueError("an ok decision needs a finite outcome")
        if self.status != "ok" and not self.reason:
            raise ValueError("a failed decision needs a reason")
        if self.probs is not None and abs(sum(self.probs.values()) - 1.0) > 1e-6:
            raise ValueError("label probabilities must sum to 1")
        return self


class DecisionModel(Protocol):
    """Takes decisions in batches; ``identity`` goes into every cache key."""

    name: str
    method: Method

    def identity(self) -> dict[str, Any]: ...

    def decide(self, items: Sequence[DecisionItem]) -> list[Decision]: ...


class _Reply(BaseModel):
    """What a callable or endpoint returns per item (``outcome`` optional for labels)."""

    model_config = ConfigDict(extra="forbid")
    outcome: float | None = None
    label: str | None = None
    probs: dict[str, float] | None = None
    refused: bool = False
    reason: str | None = None


def _decision(reply: Any, task: DecisionTask, method: Method) -> Decision:
    try:
        parsed = _Reply.model_validate(reply)
    except ValidationError as exc:
        return Decision(
            status="error", method=method, reason=f"invalid reply: {exc}".split("\n")[0]
        )
    if parsed.refused:
        return Decision(status="refused", method=method, reason=parsed.reason or "refused")
    return finish(task, method, outcome=parsed.outcome, label=parsed.label, probs=parsed.probs)


def finish(
    task: DecisionTask,
    method: Method,
    *,
    outcome: float | None = None,
    label: str | None = None,
    probs: dict[str, float] | None = None,
    samples: int = 1,
) -> Decision:
    """Validate an answer against the task and fill the outcome from the label."""
    if task.kind == "labelled":
        names = task.label_names()
        if probs is not None:
            unknown = set(probs) - set(names)
            total = sum(probs.values())
            if unknown or total <= 0 or any(p < 0 for p in probs.values()):
                return Decision(status="error", method=method, reason="invalid label probabilities")
            probs = {n: probs.get(n, 0.0) / total for n in names}
            label = label or max(probs, key=probs.__getitem__)
        if label not in names:
            return Decision(
                status="error", method=method, reason=f"label {label!r} is not one of {list(names)}"
            )
        if probs is None:
            probs = {n: float(n == label) for n in names}
        outcome = sum(task.value_of(n) * p for n, p in probs.items())
        return Decision(
            status="ok", outcome=outcome, label=label, probs=probs, method=method, samples=samples
        )
    if outcome is None or not math.isfinite(outcome):
        return Decision(status="error", method=method, reason="no numeric outcome")
    if not task.in_range(outcome):
        return Decision(
            status="error",
            method=method,
            reason=f"{outcome} outside [{task.minimum}, {task.maximum}] {task.unit}",
        )
    return Decision(status="ok", outcome=outcome, method=method, samples=samples)


def _item_payload(item: DecisionItem) -> dict[str, Any]:
    return {
        "variant_id": item.variant_id,
        "text": item.text,
        "options": list(item.options),
        "repeat": item.repeat,
        "order": item.order,
    }


def load_callable(spec: str) -> Callable[..., Any]:
    """Import ``package.module:function``; a one-line error when it cannot be found."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(f"{spec!r} is not `package.module:function`", location="--model")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"cannot import {module_name!r}: {exc}", location="--model") from None
    func = getattr(module, attr, None)
    if not callable(func):
        raise ConfigError(f"{module_name} has no callable {attr!r}", location="--model")
    return func  # type: ignore[no-any-return]


class CallableDecisionModel:
    """A Python function taking a list of item dicts (``variant_id``, ``text``,
    ``options``, ``repeat``, ``order``) and the task name, returning one dict per item
    with ``outcome``, or ``label`` and/or ``probs``, or ``refused`` and ``reason``."""

    method: Method = "callable"

    def __init__(self, spec: str, task: DecisionTask, *, version: str = "") -> None:
        self.spec = spec
        self.task = task
        self.version = version
        self.name = f"python:{spec}"
        self._func = load_callable(spec)

    def identity(self) -> dict[str, Any]:
        return {"callable": self.spec, "version": self.version, "task": self.task.name}

    def decide(self, items: Sequence[DecisionItem]) -> list[Decision]:
        try:
            replies = self._func([_item_payload(i) for i in items], self.task.name)
        except Exception as exc:  # the user's function failed: record it on every item
            reason = f"{type(exc).__name__}: {exc}".split("\n")[0]
            return [Decision(status="error", method=self.method, reason=reason) for _ in items]
        if not isinstance(replies, list) or len(replies) != len(items):
            reason = "the callable must return a list with one reply per item"
            return [Decision(status="error", method=self.method, reason=reason) for _ in items]
        return [_decision(r, self.task, self.method) for r in replies]


def check_endpoint(url: str) -> None:
    """An endpoint with no host (``http://``) or a bad port was accepted, and then every
    decision failed on its own; refuse it before anything runs."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - parsing the port is the check
    except ValueError:
        raise ConfigError(
            f"endpoint {url!r} has a bad port; write http(s)://host[:port]/path",
            location="--model",
        ) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"endpoint {url!r} names no host; write http(s)://host[:port]/path",
            location="--model",
        )


class HttpDecisionModel:
    """An endpoint taking ``{"task": name, "items": [...]}`` (items as for the callable)
    and answering ``{"decisions": [...]}`` with one reply per item, in order."""

    method: Method = "http"

    def __init__(
        self, url: str, task: DecisionTask, *, timeout: float = 60.0, version: str = ""
    ) -> None:
        check_endpoint(url)
        self.url = url
        self.task = task
        self.timeout = timeout
        self.version = version
        self.name = url

    def identity(self) -> dict[str, Any]:
        return {"url": self.url, "version": self.version, "task": self.task.name}

    def decide(self, items: Sequence[DecisionItem]) -> list[Decision]:
        import httpx

        payload = {"task": self.task.name, "items": [_item_payload(i) for i in items]}
        try:
            response = httpx.post(self.url, json=payload, timeout=self.timeout)
            response.raise_for_status()
            replies = response.json().get("decisions")
        except (httpx.HTTPError, ValueError, AttributeError) as exc:
            reason = f"endpoint failed: {type(exc).__name__}: {exc}".split("\n")[0]
            return [Decision(status="error", method=self.method, reason=reason) for _ in items]
        if not isinstance(replies, list) or len(replies) != len(items):
            reason = "the endpoint must answer {'decisions': [...]} with one reply per item"
            return [Decision(status="error", method=self.method, reason=reason) for _ in items]
        return [_decision(r, self.task, self.method) for r in replies]
