"""Read deadlines for the HTTP service: a client that stalls while sending its request is
cut off, so stalled connections cannot pile up (issue #17, defect 4).

uvicorn only times out *idle* keep-alive connections; a client that sends half its headers,
or declares a body and then sends nothing, would hold its connection (and a file
descriptor) for ever. :class:`ReadDeadlineProtocol` is uvicorn's h11 protocol with two
clocks on the reading side of each request:

- **headers**: from the moment the connection opens (or the previous response ends) until
  the request line and headers are complete, at most ``header_timeout`` seconds; past it
  the client gets ``408`` and the connection is closed. This runs before any auth check,
  so an unauthenticated client cannot hold a connection open either.
- **body**: from complete headers until the body is complete, at most ``body_timeout``
  seconds. The service itself answers a late body with a JSON ``408`` (see
  :func:`guisekit.standardise.service._read_body`); this clock is the backstop, a second
  later, that also covers a body still trickling in after an early answer (a 401, a 413).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["ReadDeadlineProtocol", "make_server"]

logger = logging.getLogger("guisekit.service")
_HEADERS_408 = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)
_BACKSTOP_S = 1.0  # the service's own 408 for a slow body comes first


class ReadDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with header and body read deadlines (see the module docs).

    Subclassed per server by :func:`protocol_class`, which sets the two timeouts."""

    header_timeout: float = 10.0
    body_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._read_timer: asyncio.TimerHandle | None = None
        self._read_phase: str | None = None
        super().connection_made(transport)
        self._arm("headers")  # a new connection must start its request at once

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # between requests the connection is idle, and uvicorn's keep-alive timeout
        # governs it; the header clock of the next request starts with its first byte
        if self.conn.their_state is h11.IDLE and not self._buffered():
            self._arm("idle")
        else:  # a body still arriving keeps its clock; a pipelined request gets one
            self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        self._arm(None)
        super().connection_lost(exc)

    def _track(self) -> None:
        """Arm the clock for the phase the client is in; a phase keeps the clock it got."""
        if self.transport.is_closing():
            self._arm(None)
            return
        state = self.conn.their_state
        phase = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if phase == "headers" and self._read_phase == "idle" and not self._buffered():
            return
        if phase != self._read_phase:
            self._arm(phase)

    def _buffered(self) -> bool:
        """Whether bytes of a next request have arrived (h11 holds them until complete)."""
        return bool(self.conn.trailing_data[0])

    def _arm(self, phase: str | None) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None
        self._read_phase = phase
        if phase == "headers":  # "idle" has no clock of its own
            self._read_timer = self.loop.call_later(self.header_timeout, self._expired, phase)
        elif phase == "body":
            delay = self.body_timeout + _BACKSTOP_S
            self._read_timer = self.loop.call_later(delay, self._expired, phase)

    def _expired(self, phase: str) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        limit = self.header_timeout if phase == "headers" else self.body_timeout
        logger.info("connection closed: %s not complete within %g s", phase, limit)
        # no response is under way while headers are awaited (h11 starts a new cycle only
        # after both sides finished the last one); during the body, only if none began
        if phase == "headers" or (self.cycle is not None and not self.cycle.response_started):
            body = b'{"error": "timeout", "detail": "the request %s took longer than %g s"}' % (
                phase.encode(),
                limit,
            )
            self.transport.write(_HEADERS_408 % (len(body), body))
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.close()


def protocol_class(header_timeout: float, body_timeout: float) -> type[ReadDeadlineProtocol]:
    """A :class:`ReadDeadlineProtocol` subclass with these timeouts, for ``uvicorn.Config``."""
    return type(
        "ReadDeadlineProtocol",
        (ReadDeadlineProtocol,),
        {"header_timeout": header_timeout, "body_timeout": body_timeout},
    )


def make_server(
    app: Any, *, header_timeout: float, body_timeout: float, **config: Any
) -> uvicorn.Server:
    """A uvicorn server for ``app`` whose connections have the read deadlines."""
    http = protocol_class(header_timeout, body_timeout)
    return uvicorn.Server(uvicorn.Config(app, http=http, ws="none", **config))
