"""Slow and flooding clients against a real ``guisekit serve`` process (issue #17, defect 4).

The server runs with one-second header and body timeouts; raw sockets play the stalled
clients, so nothing in the client library can close the connection for us.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

TOKEN = "tok-slow-clients-7f3a"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TIMEOUT_S = 1.0
SLACK_S = 2.5  # scheduling on a busy machine; far below the 17-40 s stalls of the defect


class Server:
    def __init__(self, proc: subprocess.Popen[str], base: str) -> None:
        self.proc, self.base = proc, base
        host, port = base.removeprefix("http://").split(":")
        self.address = (host, int(port))

    def rss_kib(self) -> int:
        status = Path(f"/proc/{self.proc.pid}/status").read_text(encoding="ascii")
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        assert found, status
        return int(found.group(1))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with 1 s read deadlines, for the stalling clients."""
    yield from _serve(tmp_path_factory, TIMEOUT_S)


@pytest.fixture(scope="module")
def flood_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with the default 10 s read deadlines, for the flood: on a loaded 2-core
    machine the test's own client (64 connections in one event loop) has been slower
    than 1 s to send a new connection's first request line, and was cut off as a stalled
    client (a ReadError; 1 CI run in 3 on 2026-12-02)."""
    yield from _serve(tmp_path_factory, 10.0)


def _serve(tmp_path_factory: pytest.TempPathFactory, timeout_s: float) -> Iterator[Server]:
    env = {**os.environ, "GUISEKIT_TOKEN": TOKEN, "NO_COLOR": "1", "COLUMNS": "200"}
    command = [sys.executable, "-c", "from guisekit.cli import main; main()", "serve"]
    command += ["--port", "0", "--header-timeout", str(timeout_s)]
    command += ["--body-timeout", str(timeout_s), "--concurrency", "16"]
    # the log goes to a file: one line per request would fill (and block) a pipe
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with (
        log.open("w") as sink,
        subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=sink) as proc,
    ):
        deadline = time.monotonic() + 30
        found = None
        while found is None:
            assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", log.read_text())
            time.sleep(0.05)
        base = found.group(1)
        while True:
            try:
                httpx.get(base + "/health", timeout=5)
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.05)
        try:
            yield Server(proc, base)
        finally:
            proc.terminate()
            proc.wait(timeout=15)


def _until_closed(sock: socket.socket, limit_s: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes, and the seconds that took."""
    started = time.monotonic()
    sock.settimeout(limit_s)
    received = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            raise AssertionError(f"still open after {limit_s} s; got {received!r}") from None
        if not chunk:
            return received, time.monotonic() - started
        received += chunk


def _connect(server: Server) -> socket.socket:
    return socket.create_connection(server.address, timeout=5)


def test_stalled_headers_are_cut_off_with_408_before_any_auth(server: Server) -> None:
    with _connect(server) as sock:
        sock.sendall(b"POST /standardise HTTP/1.1\r\nHost: x\r\nContent-Type: appl")
        received, took = _until_closed(sock, TIMEOUT_S + SLACK_S)
    assert received.startswith(b"HTTP/1.1 408"), received
    body = json.loads(received.split(b"\r\n\r\n", 1)[1])
    assert body == {"error": "timeout", "detail": "the request headers took longer than 1 s"}
    assert TIMEOUT_S * 0.8 <= took <= TIMEOUT_S + SLACK_S


def test_a_silent_connection_is_cut_off(server: Server) -> None:
    with _connect(server) as sock:
        received, took = _until_closed(sock, TIMEOUT_S + SLACK_S)
    assert received.startswith(b"HTTP/1.1 408")
    assert took <= TIMEOUT_S + SLACK_S


def test_stalled_body_gets_a_json_408_and_is_closed(server: Server) -> None:
    head = (
        "POST /standardise HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {TOKEN}\r\nContent-Length: 200\r\n\r\n"
    )
    with _connect(server) as sock:
        sock.sendall(head.encode() + b'{"text": "I dont')
        received, took = _until_closed(sock, TIMEOUT_S + SLACK_S)
    status, _, rest = received.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout", received
    body = json.loads(rest.split(b"\r\n\r\n", 1)[1])
    assert body == {"error": "timeout", "detail": "the request body took longer than 1 s to arrive"}
    assert TIMEOUT_S * 0.8 <= took <= TIMEOUT_S + SLACK_S


def test_a_body_trickling_after_a_401_is_still_cut_off(server: Server) -> None:
    head = b"POST /standardise HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"
    with _connect(server) as sock:
        sock.sendall(head)
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 401"), first
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < TIMEOUT_S + 1 + SLACK_S:
            try:
                sock.sendall(b"x")  # a byte at a time, never finishing
                sock.settimeout(0.2)
                if sock.recv(65536) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:  # reset by the server
                closed = True
                break
    assert closed, "a trickling body kept the connection open"


def test_many_stalled_bodies_are_all_closed_and_the_server_still_answers(server: Server) -> None:
    head = b"POST /standardise HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"
    socks = [_connect(server) for _ in range(200)]
    try:
        for sock in socks:
            sock.sendall(head)
        deadline = time.monotonic() + TIMEOUT_S + 1 + SLACK_S
        for sock in socks:
            _until_closed(sock, max(deadline - time.monotonic(), 0.1))
    finally:
        for sock in socks:
            sock.close()
    reply = httpx.post(server.base + "/standardise", json={"text": "I dont know!!"}, headers=AUTH)
    assert reply.status_code == 200 and reply.json()["original"] == "I dont know!!"


@pytest.mark.slow
def test_a_flood_of_2000_requests_at_concurrency_64_gives_no_5xx_and_flat_memory(
    flood_server: Server,
) -> None:
    server = flood_server
    texts = [f"I dont want card number {i} anymore!! Refund my ${i}." for i in range(5000)]

    resent: list[int] = []

    async def flood(count: int, offset: int) -> list[int]:
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        statuses: list[int] = []
        queue = iter(range(offset, offset + count))
        async with httpx.AsyncClient(base_url=server.base, limits=limits, timeout=60) as client:

            async def post(i: int) -> httpx.Response:
                try:
                    return await client.post("/standardise", json={"text": texts[i]}, headers=AUTH)
                except httpx.ReadError:
                    # a pooled keep-alive connection the server closed as idle just as
                    # this request went out (the HTTP/1.1 keep-alive race; seen once in
                    # a CI run on a loaded 2-core machine, the server logging only 200s):
                    # a client sends it again on a new connection, as browsers do
                    resent.append(i)
                    return await client.post("/standardise", json={"text": texts[i]}, headers=AUTH)

            async def worker() -> None:
                for i in queue:
                    statuses.append((await post(i)).status_code)

            await asyncio.gather(*(worker() for _ in range(64)))
        return statuses

    warm = asyncio.run(flood(300, 0))  # caches, pools and allocator arenas fill up first
    before = server.rss_kib()
    statuses = asyncio.run(flood(2000, 300))
    after = server.rss_kib()
    assert len(warm) == 300 and len(statuses) == 2000
    assert sorted(set(warm + statuses)) == [200]
    # a race is rare; a server that drops connections would need many resends
    assert len(resent) <= 20, resent
    # the result cache holds 4096 entries; 2,000 short results are well under 40 MiB
    assert after - before < 40 * 1024, (before, after)
