"""Handles that run the stub: in this process (:class:`StubServer`) or in a child process
(:class:`StubProcess`), both with the same URLs and stats API.

The child process exists for benchmarks: there the server's CPU does not compete with the
event loop of the client being measured.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TypeVar

import httpx
import uvicorn

from guisekit.testing.stub_app import create_app, uvicorn_server
from guisekit.testing.stub_models import (
    Responder,
    StubConfig,
    StubError,
    StubStats,
    default_responder,
)
from guisekit.testing.stub_state import StubState

__all__ = ["StubProcess", "StubServer", "listening_socket"]

_T = TypeVar("_T")


_Handle = TypeVar("_Handle", bound="_StubUrls")


class _StubUrls:
    """The URLs clients are pointed at (``base_url`` is set once the server listens), and
    the context-manager protocol over ``start``/``stop``."""

    base_url: str = ""

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self: _Handle) -> _Handle:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def openai_base_url(self) -> str:
        """``base_url + "/v1"``: what ``openai.OpenAI(base_url=...)`` expects."""
        return f"{self.base_url}/v1"

    @property
    def anthropic_base_url(self) -> str:
        """``base_url``: the Anthropic SDK appends ``/v1/messages`` itself."""
        return self.base_url


def listening_socket(port: int = 0) -> socket.socket:
    """A socket bound on 127.0.0.1 (a free port for 0), listening before uvicorn starts so
    no early connection is refused.

    ``proto=IPPROTO_TCP`` matters: asyncio sets TCP_NODELAY only on sockets that say so,
    and without it every response waits ~40 ms on Nagle's algorithm and delayed ACKs.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(4096)
    return sock


class StubServer(_StubUrls):
    """The stub served by uvicorn in a background thread of this process.

    >>> with StubServer(StubConfig(latency=0.1)) as stub:          # doctest: +SKIP
    ...     client = openai.OpenAI(base_url=stub.openai_base_url, api_key="test-key")
    ...     stub.responder = mapping_responder({text_key("hi"): "hello"})
    ...     stub.stats().total_requests

    Stats, reset, config and responder changes run on the server's event loop, so they
    never race a request in flight.
    """

    def __init__(
        self,
        config: StubConfig | None = None,
        responder: Responder = default_responder,
        *,
        startup_timeout: float = 10.0,
    ) -> None:
        self._state = StubState(config=config or StubConfig(), responder=responder)
        self._startup_timeout = startup_timeout
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Listen on a free port of 127.0.0.1 and return once uvicorn serves."""
        if self._thread is not None:
            raise StubError("the stub server is already running")
        sock = listening_socket()
        server = uvicorn_server(create_app(self._state))

        async def serve() -> None:
            self._loop = asyncio.get_running_loop()
            await server.serve(sockets=[sock])

        def run() -> None:
            try:
                asyncio.run(serve())
            finally:
                sock.close()

        self._server, self._thread = server, threading.Thread(target=run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + self._startup_timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise StubError("the stub server did not start")
            time.sleep(0.005)
        host, port = sock.getsockname()[:2]
        self.base_url = f"http://{host}:{port}"

    def stop(self) -> None:
        """Stop serving; calls still stalled after two seconds are cancelled."""
        if self._server is None or self._thread is None:
            return
        self._server.should_exit = True
        self._thread.join(timeout=10)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(timeout=5)
        self._server = self._thread = self._loop = None

    def _on_loop(self, action: Callable[[], _T]) -> _T:
        if self._loop is None:
            return action()

        async def call() -> _T:
            return action()

        return asyncio.run_coroutine_threadsafe(call(), self._loop).result(timeout=10)

    def stats(self) -> StubStats:
        """Counts since start or the last :meth:`reset`."""
        return self._on_loop(self._state.stats.snapshot)

    def reset(self) -> None:
        """Zero the stats, forget fault occurrences and empty the rate windows."""
        self._on_loop(self._state.reset)

    @property
    def config(self) -> StubConfig:
        """The config in force."""
        return self._state.config

    def update_config(self, config: StubConfig) -> None:
        """Replace the config; calls already past their fault draw keep the old one."""
        self._on_loop(lambda: setattr(self._state, "config", config))

    @property
    def responder(self) -> Responder:
        """What the model says; assign to swap it while the server runs."""
        return self._state.responder

    @responder.setter
    def responder(self, responder: Responder) -> None:
        self._on_loop(lambda: setattr(self._state, "responder", responder))


class StubProcess(_StubUrls):
    """The stub in a child process (``python -m guisekit.testing.stub_server``).

    ``responder`` is a dotted path ``"package.module:function"`` importable in the child;
    ``pythonpath`` entries are put in front of its ``PYTHONPATH`` (e.g. the tests folder).
    Stats, reset and config go over HTTP (``/_stub/*``).
    """

    def __init__(
        self,
        config: StubConfig | None = None,
        responder: str | None = None,
        *,
        pythonpath: Sequence[str | Path] = (),
        startup_timeout: float = 30.0,
    ) -> None:
        self._config = config or StubConfig()
        self._responder = responder
        self._pythonpath = [str(p) for p in pythonpath]
        self._startup_timeout = startup_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._folder: Path | None = None
        self._client: httpx.Client | None = None

    def start(self) -> None:
        """Start the child and return once it answers on its port."""
        if self._process is not None:
            raise StubError("the stub process is already running")
        self._folder = Path(tempfile.mkdtemp(prefix="guisekit-stub-"))
        port_file, log = self._folder / "port", self._folder / "stderr.log"
        command = [sys.executable, "-m", "guisekit.testing.stub_server"]
        command += ["--config-json", self._config.model_dump_json(), "--port-file", str(port_file)]
        if self._responder is not None:
            command += ["--responder", self._responder]
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([*self._pythonpath, env.get("PYTHONPATH", "")])
        with log.open("wb") as stderr:
            self._process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, env=env
            )
        deadline = time.monotonic() + self._startup_timeout
        while not port_file.exists():
            if self._process.poll() is not None or time.monotonic() > deadline:
                message = log.read_text(errors="replace").strip()[-2000:]
                self.stop()
                raise StubError(f"the stub process did not start: {message or 'no output'}")
            time.sleep(0.02)
        self.base_url = f"http://127.0.0.1:{int(port_file.read_text())}"
        self._client = httpx.Client(base_url=self.base_url, timeout=10)

    def stop(self) -> None:
        """Terminate the child (SIGTERM, then SIGKILL after ten seconds) and clean up."""
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def _call(self, method: str, path: str, content: str | None = None) -> httpx.Response:
        if self._client is None:
            raise StubError("the stub process is not running")
        response = self._client.request(method, path, content=content)
        if response.is_error:
            raise StubError(f"{method} {path} failed with {response.status_code}: {response.text}")
        return response

    def stats(self) -> StubStats:
        """Counts since start or the last :meth:`reset` (``GET /_stub/stats``)."""
        return StubStats.model_validate_json(self._call("GET", "/_stub/stats").content)

    def reset(self) -> None:
        """Zero the stats, fault occurrences and rate windows (``POST /_stub/reset``)."""
        self._call("POST", "/_stub/reset")

    @property
    def config(self) -> StubConfig:
        """The config in force."""
        return self._config

    def update_config(self, config: StubConfig) -> None:
        """Replace the config of the running child (``POST /_stub/config``)."""
        self._call("POST", "/_stub/config", config.model_dump_json())
        self._config = config
