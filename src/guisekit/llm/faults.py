"""Which provider errors are worth retrying, and how long to wait before the next try.

Rate limits (429), server errors (5xx, Anthropic's 529), timeouts, dropped connections and
malformed response bodies are transient. An authentication failure is fatal for the whole
job (every call would fail the same way). Any other 4xx is a per-request error: retrying
the same request cannot fix it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

import anthropic
import openai

from guisekit.errors import ConfigError

__all__ = ["Fault", "classify"]

FaultKind = Literal["rate_limit", "server", "timeout", "connection", "malformed", "request"]


@dataclass(frozen=True, slots=True)
class Fault:
    """A failed call: what kind, whether a retry may help, and the provider's Retry-After."""

    kind: FaultKind
    transient: bool
    retry_after: float | None
    detail: str


def _retry_after(headers: object) -> float | None:
    get = getattr(headers, "get", None)
    if get is None:
        return None
    for name in ("retry-after-ms", "retry-after"):
        raw = get(name)
        if raw is None:
            continue
        try:
            seconds = float(raw)
        except ValueError:
            continue
        return seconds / 1000.0 if name.endswith("-ms") else seconds
    return None


def classify(exc: BaseException) -> Fault:
    """Sort an exception from a chat model call; raises :class:`ConfigError` on bad keys."""
    if isinstance(exc, openai.AuthenticationError | anthropic.AuthenticationError):
        raise ConfigError(
            "the provider rejected the API key (401)",
            hint="check the key in the environment variable for this provider",
        ) from None
    if isinstance(exc, openai.APITimeoutError | anthropic.APITimeoutError | TimeoutError):
        return Fault("timeout", True, None, "the request timed out")
    if isinstance(exc, openai.APIConnectionError | anthropic.APIConnectionError):
        return Fault("connection", True, None, f"connection failed: {exc}")
    if isinstance(exc, openai.APIStatusError | anthropic.APIStatusError):
        status = exc.status_code
        after = _retry_after(exc.response.headers)
        if status == 429:
            return Fault("rate_limit", True, after, "rate limited (429)")
        if status >= 500:
            return Fault("server", True, after, f"server error ({status})")
        return Fault("request", False, None, f"request rejected ({status}): {exc.message}")
    if isinstance(
        exc, json.JSONDecodeError | openai.APIResponseValidationError
    ) or "Expecting value" in str(exc):
        return Fault("malformed", True, None, "the response body was not valid JSON")
    return Fault("request", False, None, f"{type(exc).__name__}: {exc}")
