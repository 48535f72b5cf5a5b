"""The stub's ASGI app: provider routes, fault injection, rate caps and the control routes.

Handlers are async and never block, so one event loop sustains thousands of concurrent
slow calls: a call's latency is an ``asyncio.sleep``.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from guisekit.testing import stub_anthropic, stub_openai
from guisekit.testing.stub_batches import AnthropicBatches, OpenAIBatches, parse_multipart
from guisekit.testing.stub_limits import (
    RateWindow,
    body_digest,
    call_fault,
    rate_limit_headers,
    retry_after_headers,
)
from guisekit.testing.stub_models import (
    Fault,
    InvalidRequest,
    Provider,
    StubConfig,
    StubReply,
    StubRequest,
    estimate_tokens,
)
from guisekit.testing.stub_state import StubState

__all__ = ["create_app", "uvicorn_server"]

Handler = Callable[[StubState, Request], Awaitable[Response]]

# A 200 whose body stops mid-object, as from a proxy that cut the stream.
_MALFORMED = b'{"id": "stub", "object": "chat.completion", "choices": [{"message": '


@dataclass(frozen=True)
class _Wire:
    parse: Callable[[Any], StubRequest]
    build: Callable[[StubRequest, list[StubReply]], dict[str, Any]]
    error: Callable[[int, str], dict[str, Any]]
    request_id_header: str


_WIRES: dict[Provider, _Wire] = {
    "openai": _Wire(
        stub_openai.parse_chat, stub_openai.chat_completion, stub_openai.error_body, "x-request-id"
    ),
    "anthropic": _Wire(
        stub_anthropic.parse_messages,
        lambda request, replies: stub_anthropic.message(request, replies[0]),
        stub_anthropic.error_body,
        "request-id",
    ),
}


def _reply(
    state: StubState,
    provider: Provider,
    status: int,
    payload: dict[str, Any] | bytes,
    headers: dict[str, str] | None = None,
    media_type: str = "application/json",
) -> Response:
    """A response with the provider's rate-limit and request-id headers."""
    all_headers = rate_limit_headers(
        provider, state.config, state.requests, state.tokens, time.monotonic()
    )
    all_headers[_WIRES[provider].request_id_header] = f"req_{uuid.uuid4().hex}"
    all_headers.update(headers or {})
    content = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
    return Response(content, status_code=status, headers=all_headers, media_type=media_type)


def _error(
    state: StubState, provider: Provider, status: int, message: str, **headers: str
) -> Response:
    return _reply(state, provider, status, _WIRES[provider].error(status, message), headers)


async def _json(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except ValueError as exc:
        raise InvalidRequest(f"request body is not valid JSON: {exc}") from exc


async def _disconnected(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _client_stays(request: Request, seconds: float) -> bool:
    """Wait up to ``seconds``; False as soon as the client disconnects.

    Lets a hung "timeout" call end when its client gives up, so stopping the server does
    not wait for hangs nobody is listening to, and lets a test see that an abandoned
    request closed its connection (counted under status 499).
    """
    if seconds <= 0:
        return True
    try:
        await asyncio.wait_for(_disconnected(request), seconds)
    except TimeoutError:
        return True
    return False


async def _process(state: StubState, request: Request, seconds: float) -> bool:
    """Take ``seconds`` to answer, in a processing slot when ``capacity`` is set (queueing
    for one first, like a local server); False when the client left first."""
    slots = state.slots()
    if slots is None:
        return await _client_stays(request, seconds)
    gone = asyncio.ensure_future(_disconnected(request))
    slot = asyncio.ensure_future(slots.acquire())
    try:
        await asyncio.wait({gone, slot}, return_when=asyncio.FIRST_COMPLETED)
        if not slot.done():  # the client left while queued: a cancelling server drops it
            slot.cancel()
            return False
        stats = state.stats
        stats.processing += 1
        stats.peak_processing = max(stats.peak_processing, stats.processing)
        try:
            if gone.done():
                return False
            done, _ = await asyncio.wait({gone}, timeout=seconds)
            return not done
        finally:
            stats.processing -= 1
            slots.release()
    finally:
        gone.cancel()


def _cut(replies: list[StubReply], max_tokens: int | None) -> list[StubReply]:
    """Replies longer than ``max_tokens`` cut to it, marked truncated."""
    if max_tokens is None:
        return replies
    return [
        r.model_copy(update={"text": r.text[: max_tokens * 4], "truncated": True})
        if estimate_tokens(r.text) > max_tokens and not r.refusal
        else r
        for r in replies
    ]


async def _model_call(state: StubState, request: Request, provider: Provider) -> Response:
    state.stats.arrivals.append(time.time())
    wire = _WIRES[provider]
    body = await _json(request)
    call = wire.parse(body)
    state.stats.bodies.append(body)
    config = state.config
    rejection = (
        stub_openai.format_rejection(body, config.response_formats)
        if provider == "openai"
        else None
    )
    if rejection is not None:
        return _error(state, provider, *rejection)
    now = time.monotonic()
    caps: tuple[tuple[Fault, RateWindow, int | None], ...] = (
        ("rpm_limit", state.requests, config.rpm_limit),
        ("tpm_limit", state.tokens, config.tpm_limit),
    )
    for cap, window, limit in caps:
        wait = 0.0 if limit is None else window.wait(now, config.rate_window_s, limit)
        if wait > 0:
            state.stats.faults[cap] += 1
            message = f"Rate limit reached: {limit} per {config.rate_window_s:g}s ({cap})"
            return _error(state, provider, 429, message, **retry_after_headers(wait))
    state.requests.add(now, 1)
    draw, jitter = state.drawer.draw(config.seed, body_digest(body))
    fault = call_fault(config, draw)
    if fault is not None:
        state.stats.faults[fault] += 1
    if fault == "rate_429":
        message = "Rate limit reached (injected by the stub)"
        return _error(state, provider, 429, message, **retry_after_headers(config.retry_after))
    if fault == "timeout":
        if not await _client_stays(request, config.timeout_hang_s):
            return Response(status_code=499)
    elif not await _process(state, request, config.latency + config.latency_jitter * jitter):
        return Response(status_code=499)
    if fault == "rate_500":
        return _error(state, provider, 500, "The server had an error (injected by the stub)")
    if fault == "malformed":
        return _reply(state, provider, 200, _MALFORMED)
    try:
        replies = state.replies(call, fault)
    except Exception as exc:  # the responder is user code: report its failure as a 500
        state.stats.responder_errors += 1
        return _error(state, provider, 500, f"stub responder failed: {exc!r}")
    if config.honour_max_tokens:
        replies = _cut(replies, call.params.max_tokens)
    state.spend_tokens(call, replies)
    return _reply(state, provider, 200, wire.build(call, replies))


async def _chat(state: StubState, request: Request) -> Response:
    return await _model_call(state, request, "openai")


async def _messages(state: StubState, request: Request) -> Response:
    return await _model_call(state, request, "anthropic")


def _path(request: Request, name: str) -> str:
    return str(request.path_params[name])


def _openai_routes(batches: OpenAIBatches) -> list[tuple[str, str, Handler]]:
    async def upload(state: StubState, request: Request) -> Response:
        fields = parse_multipart(request.headers.get("content-type", ""), await request.body())
        filename, data = fields.get("file", (None, b""))
        purpose = fields.get("purpose", (None, b""))[1].decode("utf-8")
        if filename is None or not purpose:
            raise InvalidRequest("a file upload needs a 'file' part and a 'purpose'")
        return _reply(state, "openai", 200, batches.upload(filename, purpose, data))

    async def file(state: StubState, request: Request) -> Response:
        return _reply(state, "openai", 200, batches.file(_path(request, "file_id")))

    async def content(state: StubState, request: Request) -> Response:
        data = batches.content(_path(request, "file_id"))
        return _reply(state, "openai", 200, data, media_type="application/octet-stream")

    async def create(state: StubState, request: Request) -> Response:
        return _reply(state, "openai", 200, batches.create(await _json(request)))

    async def retrieve(state: StubState, request: Request) -> Response:
        return _reply(state, "openai", 200, batches.retrieve(_path(request, "batch_id"), state))

    async def cancel(state: StubState, request: Request) -> Response:
        return _reply(state, "openai", 200, batches.cancel(_path(request, "batch_id")))

    return [
        ("POST", "/v1/chat/completions", _chat),
        ("POST", "/v1/files", upload),
        ("GET", "/v1/files/{file_id}", file),
        ("GET", "/v1/files/{file_id}/content", content),
        ("POST", "/v1/batches", create),
        ("GET", "/v1/batches/{batch_id}", retrieve),
        ("POST", "/v1/batches/{batch_id}/cancel", cancel),
    ]


def _anthropic_routes(batches: AnthropicBatches) -> list[tuple[str, str, Handler]]:
    async def create(state: StubState, request: Request) -> Response:
        return _reply(state, "anthropic", 200, batches.create(await _json(request)))

    async def retrieve(state: StubState, request: Request) -> Response:
        base_url = str(request.base_url).rstrip("/")
        batch = batches.retrieve(_path(request, "batch_id"), state, base_url)
        return _reply(state, "anthropic", 200, batch)

    async def cancel(state: StubState, request: Request) -> Response:
        return _reply(state, "anthropic", 200, batches.cancel(_path(request, "batch_id")))

    async def results(state: StubState, request: Request) -> Response:
        data = batches.results(_path(request, "batch_id"))
        return _reply(state, "anthropic", 200, data, media_type="application/x-jsonl")

    return [
        ("POST", "/v1/messages", _messages),
        ("POST", "/v1/messages/batches", create),
        ("GET", "/v1/messages/batches/{batch_id}", retrieve),
        ("POST", "/v1/messages/batches/{batch_id}/cancel", cancel),
        ("GET", "/v1/messages/batches/{batch_id}/results", results),
    ]


def _tracked(state: StubState, method: str, path: str, handler: Handler) -> Route:
    """A route that counts its request in the stats and turns InvalidRequest into the
    provider's error shape."""
    key = f"{method} {path}"
    provider: Provider = "anthropic" if path.startswith("/v1/messages") else "openai"

    async def endpoint(request: Request) -> Response:
        state.stats.begin(key)
        status = 499  # stays so if the handler is cancelled (client gone, server stopping)
        try:
            try:
                response = await handler(state, request)
            except InvalidRequest as exc:
                response = _error(state, provider, exc.status, exc.message)
            status = response.status_code
            return response
        finally:
            state.stats.end(status)

    return Route(path, endpoint, methods=[method])


def _control_routes(state: StubState) -> list[Route]:
    async def stats(request: Request) -> Response:
        return Response(state.stats.snapshot().model_dump_json(), media_type="application/json")

    async def reset(request: Request) -> Response:
        state.reset()
        return Response(status_code=204)

    async def configure(request: Request) -> Response:
        try:
            state.config = StubConfig.model_validate_json(await request.body())
        except ValidationError as exc:
            return Response(str(exc), status_code=400, media_type="text/plain")
        return Response(state.config.model_dump_json(), media_type="application/json")

    return [
        Route("/_stub/stats", stats, methods=["GET"]),
        Route("/_stub/reset", reset, methods=["POST"]),
        Route("/_stub/config", configure, methods=["POST"]),
    ]


def create_app(state: StubState) -> Starlette:
    """The ASGI app serving ``state``: OpenAI and Anthropic routes plus ``/_stub/*``.

    ``GET /_stub/stats`` returns :class:`StubStats` as JSON, ``POST /_stub/reset`` zeroes
    stats, fault occurrences and rate windows (batches and files stay), and
    ``POST /_stub/config`` replaces the :class:`StubConfig`.
    """
    routes = _openai_routes(OpenAIBatches()) + _anthropic_routes(AnthropicBatches())
    tracked = [_tracked(state, method, path, handler) for method, path, handler in routes]
    return Starlette(routes=[*tracked, *_control_routes(state)])


def uvicorn_server(app: Starlette) -> uvicorn.Server:
    """A quiet uvicorn server for ``app``, tuned for many concurrent slow calls.

    No access log and no logging setup (the host process keeps its own), a large backlog,
    keep-alive, and a short graceful shutdown so a stalled call cannot hold up stopping.
    """
    config = uvicorn.Config(
        app,
        log_config=None,
        log_level="warning",
        access_log=False,
        lifespan="off",
        ws="none",
        backlog=4096,
        timeout_keep_alive=30,
        timeout_graceful_shutdown=2,
    )
    return uvicorn.Server(config)
