"""``guisekit serve``: the standardiser as an HTTP service (FastAPI on uvicorn)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Annotated, cast, get_args

import typer

from guisekit.specs import StandardStyle

TOKEN_ENV = "GUISEKIT_TOKEN"


def serve_command(
    host: Annotated[
        str, typer.Option(help="Address to bind; any non-loopback address needs a token.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0 picks a free one).")] = 8000,
    token: Annotated[
        str | None,
        typer.Option(
            envvar=TOKEN_ENV,
            show_default=False,
            help=f"Bearer token clients must send; prefer the {TOKEN_ENV} variable, which "
            "keeps it out of the process list and shell history.",
        ),
    ] = None,
    max_bytes: Annotated[int, typer.Option(help="Largest request body, in bytes.")] = 1_000_000,
    max_batch: Annotated[int, typer.Option(help="Most texts in one request.")] = 256,
    concurrency: Annotated[
        int, typer.Option(help="Requests in progress at once; more wait for a slot (see below).")
    ] = 16,
    timeout: Annotated[
        float, typer.Option(help="Seconds per request, waiting for a slot included.")
    ] = 30.0,
    header_timeout: Annotated[
        float, typer.Option(help="Seconds a client may take to send its request headers.")
    ] = 10.0,
    body_timeout: Annotated[
        float, typer.Option(help="Seconds a client may take to send its request body.")
    ] = 10.0,
    log_text: Annotated[
        bool, typer.Option("--log-text", help="Also log request texts (off by default).")
    ] = False,
    engine_config: Annotated[
        Path | None,
        typer.Option(help="Engine config YAML (the engine: block of a corpus config)."),
    ] = None,
    style: Annotated[
        list[str] | None,
        typer.Option(help="Default style (repeat for several; plain, formal, simple)."),
    ] = None,
    cache_size: Annotated[int, typer.Option(help="Results cached per (text, style).")] = 4096,
    seed: Annotated[int, typer.Option(min=0, help="Engine seed.")] = 0,
    gate_auditor: Annotated[
        str | None,
        typer.Option(
            help="Also gate every candidate with this LLM fact auditor "
            "(provider:name[@url]); a material verdict returns the original."
        ),
    ] = None,
    gate_domain: Annotated[
        str, typer.Option(help="Auditor wording: complaints, interviews, salary or a YAML path.")
    ] = "complaints",
    gate_cache: Annotated[
        Path, typer.Option(help="Answer cache (SQLite) of the gate auditor.")
    ] = Path("llm-cache.sqlite"),
) -> None:
    """Serve the fact-gated standardiser over HTTP: POST /standardise, GET /health.

    Each text is rewritten into the default style(s) and checked for kept money amounts,
    dates and percentages (and, with --gate-auditor, by an LLM fact auditor); when a fact
    changed, the original comes back with "fallback": true and the reasons. Requests
    waiting for a free slot past --timeout get 503, requests still running get 504; a
    client slower than --header-timeout or --body-timeout gets 408 and is disconnected.
    Texts are not logged unless --log-text. The API schema is at /docs and /openapi.json.

    **Examples**

        guisekit serve --port 8000

        curl -s localhost:8000/standardise -d '{"text": "I dont want this!! Refund my $40."}'

        GUISEKIT_TOKEN=$(openssl rand -hex 16) guisekit serve --host 0.0.0.0
    """
    from guisekit.extras import require

    require("serve", feature="guisekit serve")
    if gate_auditor is not None:
        require("llm", feature="--gate-auditor")
    import uvicorn
    from pydantic import SecretStr, ValidationError

    from guisekit.console import err
    from guisekit.engines import EngineConfig, make_engine
    from guisekit.errors import ConfigError
    from guisekit.standardise import Standardiser
    from guisekit.standardise.service import (
        ServiceSettings,
        bind_socket,
        create_app,
        load_engine_config,
    )
    from guisekit.standardise.transport import make_server

    try:
        settings = ServiceSettings(
            host=host,
            port=port,
            token=None if token is None else SecretStr(token),
            max_bytes=max_bytes,
            max_batch=max_batch,
            concurrency=concurrency,
            timeout_s=timeout,
            header_timeout_s=header_timeout,
            body_timeout_s=body_timeout,
            log_text=log_text,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "settings"
        option = "--" + field.removesuffix("_s").replace("_", "-")
        raise ConfigError(first["msg"], location=option) from None
    settings.check_exposure()
    if engine_config is None:
        engine = make_engine(EngineConfig())
    else:  # a relative cache path in the file is relative to the file
        engine = make_engine(load_engine_config(engine_config), engine_config.resolve().parent)
    styles: list[StandardStyle] = [_style(s) for s in style or ["plain"]]
    auditor = None
    if gate_auditor is not None:
        from guisekit.backend import BankSettings
        from guisekit.standardise.gate import LLMGateAuditor

        # on the same cache as an llm engine, the gate shares that engine's runner
        bank = BankSettings(runner={"concurrency": concurrency})
        auditor = LLMGateAuditor.from_model(gate_auditor, gate_domain, gate_cache, bank)
    standardiser = Standardiser(
        engine, styles, seed=seed, gate_auditor=auditor, cache_size=max(cache_size, 0)
    )
    app = create_app(standardiser, settings)
    sock = bind_socket(host, port)
    bound_port = sock.getsockname()[1]
    log_config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    log_config["loggers"]["guisekit"] = {"handlers": ["default"], "level": "INFO"}
    server = make_server(
        app,
        header_timeout=settings.header_timeout_s,
        body_timeout=settings.body_timeout_s,
        log_config=log_config,
        access_log=False,  # the service logs one line per request itself
        server_header=False,
        timeout_graceful_shutdown=int(timeout) + 1,
    )
    where = f"[{host}]" if ":" in host else host
    err.print(
        f"guisekit standardiser listening on http://{where}:{bound_port} "
        f"(engine {engine.name}, styles {', '.join(styles)}, "
        f"{'bearer token required' if token else 'no token'})",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    server.run(sockets=[sock])


def _style(value: str) -> StandardStyle:
    from guisekit.errors import ConfigError

    if value in get_args(StandardStyle):
        return cast(StandardStyle, value)
    raise ConfigError(
        f"unknown style {value!r}", location="--style", hint="choose plain, formal or simple"
    )
