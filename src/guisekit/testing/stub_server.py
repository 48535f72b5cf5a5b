"""Run the stub LLM server as a process: ``python -m guisekit.testing.stub_server``.

Every :class:`StubConfig` field is a flag (``--latency 1 --rate-429 0.05``); ``--config-json``
gives them all at once (flags win). ``--port 0`` (the default) takes a free port, and
``--port-file`` receives the port once the socket listens. SIGTERM or Ctrl-C stops it.

The handles :class:`StubServer` (in-process) and :class:`StubProcess` (this module as a
child) are re-exported here; ``guisekit.testing`` imports them from
:mod:`guisekit.testing.stub_handles` so that ``-m`` does not find this module pre-imported.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from guisekit.testing.stub_app import create_app, uvicorn_server
from guisekit.testing.stub_handles import StubProcess, StubServer, listening_socket
from guisekit.testing.stub_models import (
    StubConfig,
    StubError,
    default_responder,
    load_responder,
)
from guisekit.testing.stub_state import StubState

__all__ = ["StubProcess", "StubServer", "main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m guisekit.testing.stub_server",
        description="Loopback stub of the OpenAI and Anthropic HTTP APIs.",
    )
    for name, field in StubConfig.model_fields.items():
        parser.add_argument(f"--{name.replace('_', '-')}", dest=name, help=field.description)
    parser.add_argument("--config-json", help="A StubConfig as JSON; flags override it.")
    parser.add_argument("--responder", help="Responder as 'package.module:function'.")
    parser.add_argument("--port", type=int, default=0, help="Port on 127.0.0.1 (0: any free).")
    parser.add_argument("--port-file", type=Path, help="Write the port here once listening.")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse flags, then serve until stopped; returns the exit code (2 on bad flags)."""
    args = _parser().parse_args(argv)
    values = json.loads(args.config_json) if args.config_json else {}
    values |= {
        name: getattr(args, name)
        for name in StubConfig.model_fields
        if getattr(args, name) is not None
    }
    try:
        config = StubConfig.model_validate(values)
        responder = load_responder(args.responder) if args.responder else default_responder
    except (ValidationError, StubError) as exc:
        print(f"stub_server: {exc}", file=sys.stderr)
        return 2
    sock = listening_socket(args.port)
    if args.port_file is not None:
        partial = args.port_file.with_suffix(".partial")
        partial.write_text(str(sock.getsockname()[1]))
        os.replace(partial, args.port_file)  # the reader never sees a half-written port
    try:
        uvicorn_server(create_app(StubState(config=config, responder=responder))).run(
            sockets=[sock]
        )
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
