"""The HTTP face of the Standardiser: ``POST /standardise`` and ``GET /health`` (FastAPI).

Behaviour a deployer relies on:

- **Auth**: with a token configured, ``/standardise`` needs ``Authorization: Bearer
  <token>`` (401 otherwise). ``/health`` stays open for probes and reveals only the
  version, engine name and default styles. Off loopback a token is mandatory.
- **Size**: a declared ``Content-Length`` over ``max_bytes`` is refused (413) before any of
  the body is read; a body without one is counted while it streams in and refused as soon
  as it passes the limit.
- **Bad input**: a body that is not JSON gets 400; the wrong shape, a blank or too long
  text, an unknown style or too many texts get 422. Each carries ``{"error", "detail"}``.
- **Concurrency**: at most ``concurrency`` requests are in progress at once; the others
  wait for a slot. Waiting counts against the request's ``timeout_s``: a request still
  waiting when it runs out gets 503 ``busy`` with ``Retry-After``; one whose engine call
  is still running gets 504. The engine runs off the event loop, in a worker thread, one
  call at a time; the texts of requests that arrive meanwhile go to it together in the
  next call (see :mod:`guisekit.standardise.coalesce`), so an LLM engine still works on
  many texts at once. A timed-out engine call cannot be interrupted, so its request keeps
  its slot until the call really ends: a stuck engine shows up as 503s rather than as an
  unbounded queue.
- **Logs**: one line per request with counts and timings; request texts only with
  ``log_text``; the token and credential values never.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import hmac
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import FastAPI, Request, Response
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from starlette.requests import ClientDisconnect

from guisekit import __version__
from guisekit.errors import GuisekitError
from guisekit.specs import StandardStyle
from guisekit.standardise.core import Standardiser
from guisekit.standardise.results import StandardiseResult
from guisekit.standardise.settings import (
    ServiceSettings,
    bind_socket,
    is_loopback,
    load_engine_config,
)

__all__ = [
    "ErrorResponse",
    "HealthResponse",
    "ServiceSettings",
    "StandardiseBatchResponse",
    "StandardiseRequest",
    "bind_socket",
    "create_app",
    "is_loopback",
    "load_engine_config",
]

logger = logging.getLogger("guisekit.service")
_T = TypeVar("_T")


class StandardiseRequest(BaseModel):
    """``{"text": ...}`` or ``{"texts": [...]}``, with optional ``styles``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    text: str | None = None
    texts: list[str] | None = Field(default=None, min_length=1)
    styles: list[StandardStyle] | None = Field(default=None, min_length=1)

    @field_validator("styles")
    @classmethod
    def _unique(cls, styles: list[StandardStyle] | None) -> list[StandardStyle] | None:
        if styles is not None and len(set(styles)) != len(styles):
            raise ValueError("a style is listed twice")
        return styles

    @model_validator(mode="after")
    def _one_of(self) -> StandardiseRequest:
        if (self.text is None) == (self.texts is None):
            raise ValueError('give exactly one of "text" or "texts"')
        return self


class StandardiseBatchResponse(BaseModel):
    """The answer to ``{"texts": [...]}``: one result per text, in order."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    results: list[StandardiseResult]


class HealthResponse(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    status: str = "ok"
    version: str
    engine: str
    styles: list[StandardStyle]


class ErrorResponse(BaseModel):
    """Every 4xx/5xx answer: a short code, a one-line detail and, for 422, every problem."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    error: str = Field(description="bad_json, invalid, too_large, unauthorized, busy, timeout...")
    detail: str
    errors: list[dict[str, str]] | None = None


_EXAMPLE = {"text": "I dont want this card anymore!! Refund my $40.", "styles": ["plain"]}
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse, "description": what}
    for code, what in {
        400: "the body is not JSON",
        401: "missing or wrong bearer token",
        408: "the request body arrived too slowly",
        413: "the body is over --max-bytes",
        422: "wrong shape, blank or too long text, unknown style or field",
        503: "every slot stayed busy for --timeout",
        504: "standardising took longer than --timeout",
    }.items()
}


class _ApiError(Exception):
    """A request that ends in a 4xx/5xx answer with a clear JSON message."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        errors: list[dict[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail
        self.errors, self.headers = errors, headers or {}

    def response(self) -> Response:
        body: dict[str, Any] = {"error": self.code, "detail": self.detail}
        if self.errors is not None:
            body["errors"] = self.errors
        return _json(json.dumps(body), self.status, self.headers)


def _json(content: str, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    # Answers hold users' texts: no intermediary should keep a copy.
    return Response(
        content,
        status_code=status,
        media_type="application/json",
        headers={"Cache-Control": "no-store", **(headers or {})},
    )


class _Slots:
    """The concurrency limit and the per-request deadline (see the module docs)."""

    def __init__(self, concurrency: int, timeout_s: float) -> None:
        self._free = asyncio.Semaphore(concurrency)
        self._timeout = timeout_s
        self._running: set[asyncio.Task[Any]] = set()

    async def run(self, work: Callable[[], Awaitable[_T]]) -> _T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._timeout
        if not self._free.locked():  # the common case: a slot is free, take it without a task
            await self._free.acquire()
        elif not await self._wait_for_slot():
            raise _ApiError(
                503,
                "busy",
                f"every slot stayed busy for the {self._timeout:g} s timeout; retry later",
                headers={"Retry-After": "1"},
            )
        task = asyncio.ensure_future(self._hold(work))
        self._running.add(task)
        task.add_done_callback(self._forget)
        try:
            return await asyncio.wait_for(asyncio.shield(task), max(deadline - loop.time(), 0))
        except TimeoutError:
            raise _ApiError(
                504, "timeout", f"standardising took longer than {self._timeout:g} s"
            ) from None

    async def _wait_for_slot(self) -> bool:
        acquiring = asyncio.ensure_future(self._free.acquire())
        done, _ = await asyncio.wait({acquiring}, timeout=self._timeout)
        if done:
            return True
        acquiring.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await acquiring
        if not acquiring.cancelled():  # a slot came free at the last moment: give it back
            self._free.release()
        return False

    async def _hold(self, work: Callable[[], Awaitable[_T]]) -> _T:
        try:
            return await work()
        finally:
            self._free.release()

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved, so an abandoned failure is not reported twice


def _authorise(request: Request, token: SecretStr | None) -> None:
    if token is None:
        return
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    expected = token.get_secret_value().encode("utf-8")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        given.strip().encode("utf-8"), expected
    ):
        raise _ApiError(
            401,
            "unauthorized",
            "missing or wrong bearer token",
            headers={"WWW-Authenticate": "Bearer"},
        )


async def _read_body(request: Request, max_bytes: int, timeout_s: float) -> bytes:
    """The whole body, within ``timeout_s`` (a stalled client gets 408 and is cut off)."""
    try:
        async with asyncio.timeout(timeout_s):
            return await _read_body_unbounded(request, max_bytes)
    except TimeoutError:
        raise _ApiError(
            408,
            "timeout",
            f"the request body took longer than {timeout_s:g} s to arrive",
            headers={"Connection": "close"},
        ) from None


async def _read_body_unbounded(request: Request, max_bytes: int) -> bytes:
    declared = request.headers.get("content-length")
    too_large = _ApiError(413, "too_large", f"the request body is over {max_bytes:,} bytes")
    if declared is not None:
        if not declared.isdigit():
            raise _ApiError(400, "bad_request", "Content-Length is not a number")
        if int(declared) > max_bytes:
            raise too_large
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > max_bytes:
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:
        raise _ApiError(400, "bad_request", "the client disconnected mid-body") from None
    return b"".join(chunks)


def _parse(body: bytes, max_batch: int) -> StandardiseRequest:
    try:
        request = StandardiseRequest.model_validate_json(body)
    except ValidationError as exc:
        problems = exc.errors(include_url=False, include_input=False)
        if any(p["type"] == "json_invalid" for p in problems):
            raise _ApiError(400, "bad_json", "the request body is not valid JSON") from None
        listed = [
            {"loc": ".".join(str(x) for x in p["loc"]) or "body", "msg": _message(p)}
            for p in problems
        ]
        first = listed[0]
        raise _ApiError(422, "invalid", f"{first['loc']}: {first['msg']}", errors=listed) from None
    if request.texts is not None and len(request.texts) > max_batch:
        raise _ApiError(
            422, "invalid", f"texts: {len(request.texts)} texts, over the limit of {max_batch}"
        )
    return request


def _message(problem: Any) -> str:
    """Pydantic's message, with the field meant when an unknown field is a near miss."""
    message = str(problem["msg"]).removeprefix("Value error, ")
    if problem["type"] != "extra_forbidden" or not problem["loc"]:
        return message
    fields = list(StandardiseRequest.model_fields)
    close = difflib.get_close_matches(str(problem["loc"][-1]), fields, n=1, cutoff=0.6)
    meant = f'did you mean "{close[0]}"? ' if close else ""
    return f"unknown field; {meant}the fields are {', '.join(fields)}"


def create_app(
    standardiser: Standardiser | None = None, settings: ServiceSettings | None = None
) -> FastAPI:
    """Build the service around a standardiser (default: rules engine, plain style)."""
    settings = settings if settings is not None else ServiceSettings()
    settings.check_exposure()
    std = standardiser if standardiser is not None else Standardiser()

    app = FastAPI(
        title="guisekit standardiser",
        version=__version__,
        description="Rewrites texts into a standard style and keeps their facts; "
        "see POST /standardise.",
        docs_url="/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    slots = _Slots(settings.concurrency, settings.timeout_s)
    ids = itertools.count(1)

    @app.get("/health", responses={200: {"model": HealthResponse}})
    async def health() -> Response:
        body = HealthResponse(version=__version__, engine=std.engine.name, styles=list(std.styles))
        return _json(body.model_dump_json())

    @app.post(
        "/standardise",
        summary="Standardise one text or a batch",
        responses={200: {"model": StandardiseResult | StandardiseBatchResponse}, **_ERRORS},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": StandardiseRequest.model_json_schema(),
                        "example": _EXAMPLE,
                    }
                },
            }
        },
    )
    async def standardise(request: Request) -> Response:
        started, rid = time.perf_counter(), next(ids)
        texts: list[str] = []
        try:
            _authorise(request, settings.token)
            body = await _read_body(request, settings.max_bytes, settings.body_timeout_s)
            parsed = _parse(body, settings.max_batch)
            texts = [parsed.text] if parsed.text is not None else list(parsed.texts or ())
            results = await slots.run(lambda: std.astandardise_many(texts, parsed.styles))
        except _ApiError as exc:
            _log(rid, exc.status, started, texts, settings.log_text, error=exc.code)
            return exc.response()
        except GuisekitError as exc:  # blank or too long text, bad styles
            _log(rid, 422, started, texts, settings.log_text, error="invalid")
            return _ApiError(422, "invalid", exc.one_line()).response()
        except Exception as exc:  # a bug: answer 500 without echoing anything of the input
            logger.error("standardise id=%d status=500 error=%s", rid, type(exc).__name__)
            return _ApiError(500, "internal", "internal error; see the server log").response()
        _log(rid, 200, started, texts, settings.log_text, results=results)
        if parsed.text is not None:
            return _json(results[0].model_dump_json())
        return _json(StandardiseBatchResponse(results=results).model_dump_json())

    return app


def _log(
    rid: int,
    status: int,
    started: float,
    texts: list[str],
    log_text: bool,
    *,
    error: str | None = None,
    results: list[StandardiseResult] | None = None,
) -> None:
    parts = [f"standardise id={rid} status={status}", f"texts={len(texts)}"]
    parts.append(f"chars={sum(len(t) for t in texts)}")
    if results is not None:
        parts.append(f"styles={','.join(s.style for s in results[0].styles)}")
        parts.append(f"fallbacks={sum(s.fallback for r in results for s in r.styles)}")
        parts.append(f"cached={sum(r.cached for r in results)}")
    if error is not None:
        parts.append(f"error={error}")
    parts.append(f"ms={(time.perf_counter() - started) * 1000:.1f}")
    if log_text:
        parts.append(f"text={json.dumps(texts, ensure_ascii=False)}")
    logger.info(" ".join(parts))
