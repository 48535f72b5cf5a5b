"""Which provider errors are worth retrying, and how long to wait before the next try.

Rate limits (429), server errors (5xx, Anthropic's 529), timeouts, dropped connections and
malformed response bodies are transient. An authentication failure is fatal for the whole
job (every call would fail the same way). Any other 4xx is a per-request error: retrying
the same request cannot fix it. A reply cut at the token limit (the SDK's
``LengthFinishReasonError``) is not a fault at all: it is a ``truncated`` answer, which the
runner re-asks with more room, never an identical retry.

Each detail says what happened in words a user can act on: "connection refused" (nothing
listens there) is told apart from "timed out" (the server is slow or overloaded, and
the fix is lower ``concurrency`` or a longer ``timeout``).

The vendor SDKs are imported only when an exception is classified (they are loaded by then).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Literal

from guisekit.errors import ConfigError
from guisekit.redact import Redactor

__all__ = ["Fault", "FaultKind", "classify", "connection_refused"]

FaultKind = Literal[
    "rate_limit",
    "server",
    "timeout",
    "connection",
    "refused_connection",
    "malformed",
    "request",
    "truncated",
]


@dataclass(frozen=True, slots=True)
class Fault:
    """A failed call: what kind, whether a retry may help, and the provider's Retry-After."""

    kind: FaultKind
    transient: bool
    retry_after: float | None
    detail: str
    status: int | None = None


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


def connection_refused(exc: BaseException) -> bool:
    """Whether ``exc`` (or anything in its cause chain) is a refused connection."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ConnectionRefusedError):
            return True
        text = str(current).lower()
        if "connection refused" in text or "connect call failed" in text:
            return True
        current = current.__cause__ or current.__context__
    return False


def _vendor_errors() -> tuple[tuple[type[BaseException], ...], ...]:
    """(auth, timeout, connection, status, validation, length) exception classes."""
    import anthropic
    import openai

    return (
        (openai.AuthenticationError, anthropic.AuthenticationError),
        (openai.APITimeoutError, anthropic.APITimeoutError),
        (openai.APIConnectionError, anthropic.APIConnectionError),
        (openai.APIStatusError, anthropic.APIStatusError),
        (openai.APIResponseValidationError,),
        (openai.LengthFinishReasonError,),
    )


def classify(exc: BaseException, timeout: float | None = None) -> Fault:
    """Sort an exception from a chat model call; raises :class:`ConfigError` on bad keys.

    ``timeout`` (the model's, in seconds) goes into the timeout message. The detail is
    stored as the item's ``reason`` and in the cache, and provider error texts can echo the
    key they were sent, so every known secret value is redacted from it.
    """
    fault = _classify(exc, timeout)
    clean = Redactor.from_environ()(fault.detail)
    return fault if clean == fault.detail else dataclasses.replace(fault, detail=clean)


def _classify(exc: BaseException, timeout: float | None) -> Fault:
    auth, timeouts, connection, status_error, validation, length = _vendor_errors()
    if isinstance(exc, auth):
        raise ConfigError(
            "the provider rejected the API key (401)",
            hint="check the key in the environment variable for this provider",
        ) from None
    if isinstance(exc, length):
        return Fault("truncated", False, None, "the reply was cut at the token limit")
    # Before timeouts: the SDKs' aiohttp transport reports a refused connection as a
    # connect *timeout*, which would send the user off raising the timeout.
    if isinstance(exc, (*connection, TimeoutError)) and connection_refused(exc):
        return Fault(
            "refused_connection",
            True,
            None,
            "connection refused (is the server running at the model's base URL?)",
        )
    if isinstance(exc, (*timeouts, TimeoutError)):
        waited = f" after {timeout:g} s" if timeout else ""
        return Fault(
            "timeout",
            True,
            None,
            f"timed out{waited} (a slow or overloaded server: lower `concurrency` in the "
            "runner settings or raise the model's `timeout`)",
        )
    if isinstance(exc, connection):
        cause = exc.__cause__ or exc.__context__
        return Fault("connection", True, None, f"connection failed: {cause or exc}")
    if isinstance(exc, status_error):
        status = int(getattr(exc, "status_code", 0))
        after = _retry_after(getattr(getattr(exc, "response", None), "headers", None))
        message = str(getattr(exc, "message", exc))
        if status == 403:  # key or account lacks access: every call would fail alike
            raise ConfigError(
                "the provider refused access with this API key (403)",
                hint="check the key's permissions for this model",
            ) from None
        if status == 429:
            return Fault("rate_limit", True, after, "rate limited (429)", status)
        if status >= 500:
            return Fault("server", True, after, f"server error ({status}): {message}", status)
        return Fault("request", False, None, f"request rejected ({status}): {message}", status)
    if isinstance(exc, (json.JSONDecodeError, *validation)) or "Expecting value" in str(exc):
        return Fault("malformed", True, None, "the response body was not valid JSON")
    return Fault("request", False, None, f"{type(exc).__name__}: {exc}")
