"""How the HTTP service listens: its settings, the loopback rule, the listening socket and
the engine config file of ``guisekit serve``."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from guisekit.engines import EngineConfig
from guisekit.errors import ConfigError, validate
from guisekit.resources import read_config_file

__all__ = ["ServiceSettings", "bind_socket", "is_loopback", "load_engine_config"]


class ServiceSettings(BaseModel):
    """How the service listens and protects itself (the ``guisekit serve`` options)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    token: SecretStr | None = None
    max_bytes: int = Field(default=1_000_000, gt=0, description="Largest request body.")
    max_batch: int = Field(default=256, gt=0, description="Most texts in one request.")
    concurrency: int = Field(default=16, gt=0, description="Requests in progress at once.")
    timeout_s: float = Field(default=30.0, gt=0, description="Per request, waiting included.")
    header_timeout_s: float = Field(
        default=10.0, gt=0, description="Seconds for a client to send its request headers."
    )
    body_timeout_s: float = Field(
        default=10.0, gt=0, description="Seconds for a client to send its request body."
    )
    log_text: bool = False

    def check_exposure(self) -> None:
        """Refuse to serve beyond loopback without a token, and refuse an empty token."""
        if self.token is not None and not self.token.get_secret_value().strip():
            raise ConfigError("the bearer token is empty", location="token")
        if self.token is None and not is_loopback(self.host):
            raise ConfigError(
                f"binding to {self.host} needs a bearer token",
                hint="set GUISEKIT_TOKEN (or pass --token), or bind to 127.0.0.1",
            )


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses; any other name counts as exposed."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening-ready TCP socket on ``host:port`` (port 0 picks a free one), so a busy
    port is a one-line error here rather than a log line and exit inside uvicorn."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise ConfigError(f"cannot resolve {host!r}: {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise ConfigError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            hint="choose another --port or stop what is using it",
        ) from None
    return sock


def load_engine_config(path: str | Path) -> EngineConfig:
    """Read an engine config (YAML or JSON: the ``engine:`` block of a corpus config)."""
    path = Path(path)
    data = read_config_file(
        path, "a mapping of engine settings (the engine: block)", name="engine config"
    )
    return validate(EngineConfig, data, where=f"{path}:")
