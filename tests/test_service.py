"""The HTTP service through the real stack: uvicorn on a free loopback port in a
background thread, httpx as the client; plus ``guisekit serve`` itself.

Engines are fakes implementing the ``Engine`` protocol and keyed by input: one rewrites
through a fake langchain-core chat model that multiplies dollar amounts (an LLM changing a
fact), one blocks until released (timeouts and saturation).
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import SecretStr

import guisekit
from guisekit.cli import main
from guisekit.errors import ConfigError
from guisekit.facts import check_facts
from guisekit.models import Provenance, Source, Variant
from guisekit.specs import TransformSpec
from guisekit.standardise import Standardiser
from guisekit.standardise.service import (
    ServiceSettings,
    bind_socket,
    create_app,
    is_loopback,
    load_engine_config,
)

INFORMAL = "I dont think the bank will refund the $40 fee!! I recieved it on 03/14/2023."
SHOUTY = "I dont want this card anymore!!"
AMOUNT = "I was charged $40 twice!! Fix it."
TOKEN = "tok-5c1d0e9a7b3f4e2a"
SECRET = "sk-test-api-key-0123456789abcdef"


class ScalingChatModel(BaseChatModel):
    """A fake LLM keyed by input: tidies informal cues and multiplies every dollar amount
    by ten, the fact change the gate must catch."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        text = str(messages[-1].content).replace("dont", "do not").replace("!!", ".")
        text = re.sub(r"\$(\d+)", lambda m: f"${Decimal(m.group(1)) * 10}", text)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    @property
    def _llm_type(self) -> str:
        return "scaling-fake"


class ChatEngine:
    """An Engine that rewrites through a chat model (here a fake one); it can block on an
    event to hold a request in flight, and can fail with a reason."""

    name = "chat"

    def __init__(
        self,
        model: BaseChatModel | None = None,
        *,
        release: threading.Event | None = None,
        error: str | None = None,
    ) -> None:
        self.model = model or ScalingChatModel()
        self.release, self.error = release, error
        self.entered = threading.Event()

    @property
    def config(self) -> dict[str, Any]:
        return {"engine": "chat.v1", "model": "scaling-fake"}

    def transform(self, source: Source, spec: TransformSpec, seed: int = 0) -> Variant:
        self.entered.set()
        if self.release is not None:
            self.release.wait(10)
        failed = self.error is not None
        return Variant(
            source_id=source.id,
            variant_id=f"v-{source.id}",
            spec=spec,
            text=None if failed else str(self.model.invoke(source.text).content),
            status="error" if failed else "ok",
            reason=self.error,
            provenance=Provenance(engine="llm", model="scaling-fake", prompt_version="v1"),
        )

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]:
        return [self.transform(s, sp, seed) for s in sources for sp in specs]


@contextmanager
def serving(app: FastAPI) -> Iterator[httpx.Client]:
    """Run ``app`` on uvicorn on a free loopback port; yield a client for it."""
    sock = bind_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_config=None, access_log=False, ws="none", http="h11")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            yield client
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="module")
def rules_client() -> Iterator[httpx.Client]:
    with serving(create_app(Standardiser(cache_size=0))) as client:
        yield client


# --- values ------------------------------------------------------------------------------


def test_health(rules_client: httpx.Client) -> None:
    reply = rules_client.get("/health")
    assert reply.status_code == 200
    assert reply.json() == {
        "status": "ok",
        "version": guisekit.__version__,
        "engine": "rules",
        "styles": ["plain"],
    }


def test_single_text_is_standardised_with_facts_kept(rules_client: httpx.Client) -> None:
    reply = rules_client.post("/standardise", json={"text": INFORMAL})
    assert reply.status_code == 200
    assert reply.headers["cache-control"] == "no-store"
    body = reply.json()
    expected = Standardiser().standardise(INFORMAL)
    assert body["text"] == expected.text != INFORMAL
    assert "dont" not in body["text"] and "!!" not in body["text"]
    assert check_facts(INFORMAL, body["text"]).verdict == "pass"
    assert {k: body[k] for k in ("original", "candidate", "style", "fallback", "engine")} == {
        "original": INFORMAL,
        "candidate": expected.text,
        "style": "plain",
        "fallback": False,
        "engine": "rules",
    }
    assert body["fact_check"] == {"verdict": "pass", "discrepancies": []}
    assert (body["model"], body["prompt_version"], body["reasons"]) == (None, None, [])
    assert body["latency_ms"] > 0 and [s["style"] for s in body["styles"]] == ["plain"]


def test_batch_keeps_order(rules_client: httpx.Client) -> None:
    texts = [SHOUTY, INFORMAL, SHOUTY]
    reply = rules_client.post("/standardise", json={"texts": texts})
    assert reply.status_code == 200
    results = reply.json()["results"]
    assert [r["original"] for r in results] == texts
    assert [r["text"] for r in results] == [r.text for r in Standardiser().standardise_many(texts)]
    assert all(r["text"] != r["original"] and not r["fallback"] for r in results)


def test_multi_style(rules_client: httpx.Client) -> None:
    styles = ["formal", "plain", "simple"]
    reply = rules_client.post("/standardise", json={"text": INFORMAL, "styles": styles})
    assert reply.status_code == 200
    body = reply.json()
    expected = Standardiser(styles=("formal", "plain", "simple")).standardise(INFORMAL)
    assert [s["style"] for s in body["styles"]] == styles
    assert [s["text"] for s in body["styles"]] == [s.text for s in expected.styles]
    assert (body["style"], body["text"]) == ("formal", expected.styles[0].text)


def test_changed_amount_falls_back_to_the_original() -> None:
    with serving(create_app(Standardiser(ChatEngine()))) as client:
        reply = client.post("/standardise", json={"texts": [SHOUTY, AMOUNT]})
    assert reply.status_code == 200
    kept, fell_back = reply.json()["results"]
    assert (kept["text"], kept["fallback"]) == ("I do not want this card anymore.", False)
    assert (fell_back["text"], fell_back["original"], fell_back["fallback"]) == (
        AMOUNT,
        AMOUNT,
        True,
    )
    assert fell_back["candidate"] == "I was charged $400 twice. Fix it."
    assert fell_back["reasons"] == ["fact check fail: money changed: '$40' -> '$400'"]
    assert fell_back["fact_check"]["verdict"] == "fail"
    assert (fell_back["engine"], fell_back["model"], fell_back["prompt_version"]) == (
        "chat",
        "scaling-fake",
        "v1",
    )


# --- auth --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Bearer wrong-token"}, 401),
        ({"Authorization": f"Basic {TOKEN}"}, 401),
        ({"Authorization": TOKEN}, 401),
        ({"Authorization": f"Bearer {TOKEN}"}, 200),
        ({"Authorization": f"bearer {TOKEN}"}, 200),
    ],
)
def test_token_is_required_when_configured(
    auth_client: httpx.Client, headers: dict[str, str], status: int
) -> None:
    reply = auth_client.post("/standardise", json={"text": SHOUTY}, headers=headers)
    assert reply.status_code == status
    if status == 401:
        assert reply.json() == {"error": "unauthorized", "detail": "missing or wrong bearer token"}
        assert reply.headers["www-authenticate"] == "Bearer"
    assert auth_client.get("/health").status_code == 200  # probes need no token


@pytest.fixture(scope="module")
def auth_client() -> Iterator[httpx.Client]:
    settings = ServiceSettings(token=SecretStr(TOKEN))
    with serving(create_app(Standardiser(), settings)) as client:
        yield client


# --- bad requests ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_client() -> Iterator[httpx.Client]:
    settings = ServiceSettings(max_bytes=300, max_batch=3)
    with serving(create_app(Standardiser(max_chars=100), settings)) as client:
        yield client


@pytest.mark.parametrize(
    ("body", "status", "error", "detail"),
    [
        (b"{", 400, "bad_json", "the request body is not valid JSON"),
        (b"", 400, "bad_json", "the request body is not valid JSON"),
        (b"\xff\xfe", 400, "bad_json", "the request body is not valid JSON"),
        (b"[]", 422, "invalid", "body: Input should be an object"),
        (b"{}", 422, "invalid", 'body: give exactly one of "text" or "texts"'),
        (b'{"text": 5}', 422, "invalid", "text: Input should be a valid string"),
        (b'{"text": "a", "texts": ["b"]}', 422, "invalid", "body: give exactly one of"),
        (b'{"texts": []}', 422, "invalid", "texts: List should have at least 1 item"),
        (b'{"txt": "a"}', 422, "invalid", 'txt: unknown field; did you mean "text"?'),
        (
            b'{"text": "a", "style": ["formal"]}',
            422,
            "invalid",
            'style: unknown field; did you mean "styles"? the fields are text, texts, styles',
        ),
        (b'{"text": "a", "zzz": 1}', 422, "invalid", "zzz: unknown field; the fields are"),
        (b'{"text": "  "}', 422, "invalid", "text: the text is empty or whitespace only"),
        (b'{"texts": ["a", 7]}', 422, "invalid", "texts.1: Input should be a valid string"),
        (b'{"texts": ["a", "b", "c", "d"]}', 422, "invalid", "texts: 4 texts, over the limit"),
        (b'{"text": "%s"}' % (b"x" * 101), 422, "invalid", "text: 101 characters, over"),
        (b'{"text": "a", "styles": ["fancy"]}', 422, "invalid", "styles.0: Input should be"),
        (b'{"text": "a", "styles": []}', 422, "invalid", "styles: List should have at least"),
        (
            b'{"text": "a", "styles": ["plain", "plain"]}',
            422,
            "invalid",
            "styles: a style is listed twice",
        ),
    ],
)
def test_malformed_requests_get_a_clear_4xx(
    small_client: httpx.Client, body: bytes, status: int, error: str, detail: str
) -> None:
    reply = small_client.post(
        "/standardise", content=body, headers={"Content-Type": "application/json"}
    )
    assert reply.status_code == status
    answer = reply.json()
    assert answer["error"] == error and answer["detail"].startswith(detail), answer


def test_oversized_declared_body_is_refused_before_reading(small_client: httpx.Client) -> None:
    reply = small_client.post("/standardise", json={"text": "x" * 400})
    assert reply.status_code == 413
    assert reply.json() == {"error": "too_large", "detail": "the request body is over 300 bytes"}


def test_oversized_declared_body_is_refused_without_waiting_for_it(
    small_client: httpx.Client,
) -> None:
    # Headers only: a server that read the body first would wait here until the timeout.
    port = small_client.base_url.port
    assert port is not None
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(
            b"POST /standardise HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 50000000\r\n\r\n"
        )
        answer = ""
        while not answer.endswith("}"):  # headers and body may come in separate segments
            chunk = raw.recv(4096)
            if not chunk:
                break
            answer += chunk.decode("latin-1")
    assert answer.startswith("HTTP/1.1 413 ")
    assert answer.endswith('{"error": "too_large", "detail": "the request body is over 300 bytes"}')


def test_oversized_streamed_body_is_refused(small_client: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"text": "'
        for _ in range(20):
            yield b"x" * 50
        yield b'"}'

    reply = small_client.post("/standardise", content=chunks())  # chunked: no Content-Length
    assert reply.status_code == 413
    assert reply.json()["error"] == "too_large"


class BrokenStandardiser(Standardiser):
    """A bug inside the standardiser, with the input in its message."""

    async def astandardise_many(self, texts: Sequence[str], styles: Any = None) -> Any:
        raise RuntimeError(f"bug while handling {texts[0]}")


def test_a_bug_is_a_500_that_echoes_nothing(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with serving(create_app(BrokenStandardiser())) as client:
        reply = client.post("/standardise", json={"text": SHOUTY})
    assert reply.status_code == 500
    assert reply.json() == {"error": "internal", "detail": "internal error; see the server log"}
    assert "standardise id=1 status=500 error=RuntimeError" in caplog.text
    assert SHOUTY not in caplog.text


def test_unknown_route_and_method_are_4xx(small_client: httpx.Client) -> None:
    assert small_client.get("/nope").status_code == 404
    assert small_client.get("/standardise").status_code == 405


# --- time and load -----------------------------------------------------------------------


def test_timeout_gives_504_and_the_server_stays_responsive() -> None:
    release = threading.Event()
    engine = ChatEngine(release=release)
    settings = ServiceSettings(timeout_s=0.3)
    with serving(create_app(Standardiser(engine), settings)) as client:
        try:
            started = time.monotonic()
            reply = client.post("/standardise", json={"text": SHOUTY})
            assert reply.status_code == 504
            assert reply.json() == {
                "error": "timeout",
                "detail": "standardising took longer than 0.3 s",
            }
            assert time.monotonic() - started < 3
            assert client.get("/health").status_code == 200  # the loop is not blocked
        finally:
            release.set()


def test_saturated_server_answers_503_and_a_timed_out_call_keeps_its_slot() -> None:
    release = threading.Event()
    engine = ChatEngine(release=release)
    settings = ServiceSettings(concurrency=1, timeout_s=0.5)
    with serving(create_app(Standardiser(engine, cache_size=0), settings)) as client:
        first: dict[str, httpx.Response] = {}
        holder = threading.Thread(
            target=lambda: first.update(r=client.post("/standardise", json={"text": SHOUTY}))
        )
        holder.start()
        try:
            assert engine.entered.wait(5)
            second = client.post("/standardise", json={"text": INFORMAL})
        finally:
            release.set()
            holder.join(10)
        third = client.post("/standardise", json={"text": INFORMAL})
    # The first call ran past the timeout (504) but kept the only slot while its engine
    # call went on, so the second waited in vain (503); once released, service resumes.
    assert first["r"].status_code == 504
    assert second.status_code == 503 and second.headers["retry-after"] == "1"
    assert second.json() == {
        "error": "busy",
        "detail": "every slot stayed busy for the 0.5 s timeout; retry later",
    }
    assert third.status_code == 200


# --- logs --------------------------------------------------------------------------------


@pytest.mark.parametrize("log_text", [False, True])
def test_texts_are_logged_only_with_log_text(
    caplog: pytest.LogCaptureFixture, log_text: bool
) -> None:
    caplog.set_level(logging.DEBUG)
    settings = ServiceSettings(log_text=log_text)
    with serving(create_app(Standardiser(), settings)) as client:
        assert client.post("/standardise", json={"text": INFORMAL}).status_code == 200
        assert client.post("/standardise", content=b'{"text": "  "}').status_code == 422
    lines = [r.getMessage() for r in caplog.records if r.name == "guisekit.service"]
    assert len(lines) == 2 and lines[0].startswith("standardise id=1 status=200 texts=1")
    assert (INFORMAL in caplog.text) is log_text
    assert ("recieved" in caplog.text) is log_text


def test_api_keys_and_token_never_reach_responses_or_logs(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    engine = ChatEngine(error=f"401 Incorrect API key provided: {SECRET}")
    settings = ServiceSettings(token=SecretStr(TOKEN), log_text=True)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with serving(create_app(Standardiser(engine), settings)) as client:
        replies = [
            client.post("/standardise", json={"text": SHOUTY}, headers=auth),
            client.post("/standardise", json={"texts": [SHOUTY, AMOUNT]}, headers=auth),
            client.post("/standardise", json={"text": SHOUTY}),
            client.post("/standardise", content=b"{", headers=auth),
            client.get("/health"),
        ]
    assert [r.status_code for r in replies] == [200, 200, 401, 400, 200]
    assert replies[0].json()["reasons"] == [
        "engine error: 401 Incorrect API key provided: [redacted]"
    ]
    for reply in replies:
        assert SECRET not in reply.text and TOKEN not in reply.text
        assert SECRET not in str(reply.headers) and TOKEN not in str(reply.headers)
    assert SHOUTY in caplog.text  # log_text is on, so the log was written with texts
    assert SECRET not in caplog.text and TOKEN not in caplog.text


# --- settings, CLI -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.5.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.10", False),
        ("example.org", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (ServiceSettings(host="0.0.0.0"), "binding to 0.0.0.0 needs a bearer token"),
        (ServiceSettings(token=SecretStr(" ")), "token: the bearer token is empty"),
    ],
)
def test_unsafe_settings_are_refused(settings: ServiceSettings, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        create_app(Standardiser(), settings)


def test_busy_port_is_a_config_error() -> None:
    with bind_socket("127.0.0.1", 0) as taken:
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match=f"cannot listen on 127.0.0.1:{port}"):
            bind_socket("127.0.0.1", port).close()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "engine config not found"),
        ("name: [", "malformed YAML"),
        ("name: nope", "unknown engine 'nope' (known: llm, rules)"),
        ("colour: red", "colour: Extra inputs are not permitted"),
    ],
)
def test_bad_engine_configs(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "engine.yaml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_engine_config(path)


def test_engine_config_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "engine.yaml"
    path.write_text("name: rules\n", encoding="utf-8")
    assert load_engine_config(path).name == "rules"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--host", "0.0.0.0"], "error: binding to 0.0.0.0 needs a bearer token"),
        (["--token", ""], "error: token: the bearer token is empty"),
        (["--concurrency", "0"], "error: --concurrency: Input should be greater than 0"),
        (["--timeout", "0"], "error: --timeout: Input should be greater than 0"),
        (["--style", "fancy"], "error: --style: unknown style 'fancy'"),
        (["--engine-config", "missing.yaml"], "error: missing.yaml: engine config not found"),
    ],
)
def test_serve_refuses_bad_options_with_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.delenv("GUISEKIT_TOKEN", raising=False)
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", "0", *args])
    assert exit_info.value.code == 2
    printed = capsys.readouterr().err.strip()
    assert printed.startswith(message) and "\n" not in printed, printed


def test_serve_command_runs_with_the_token_from_the_environment(tmp_path: Path) -> None:
    env = {**os.environ, "GUISEKIT_TOKEN": TOKEN, "NO_COLOR": "1", "COLUMNS": "200"}
    engine = tmp_path / "engine.yaml"
    engine.write_text("name: rules\n", encoding="utf-8")
    probe = "from guisekit.cli import main; main()"
    command = [sys.executable, "-c", probe, "serve", "--port", "0", "--style", "formal"]
    command += ["--engine-config", str(engine)]
    with subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    ) as proc:
        try:
            assert proc.stderr is not None
            first = ""
            for _ in range(20):  # the banner, after any import-time noise
                first += proc.stderr.readline()
                found = re.search(
                    r"listening on (http://127\.0\.0\.1:\d+) \(engine rules, "
                    r"styles formal, bearer token required\)",
                    first,
                )
                if found:
                    break
            assert found, first
            with httpx.Client(base_url=found.group(1), timeout=10) as client:
                deadline = time.monotonic() + 10
                while True:
                    try:
                        health = client.get("/health")
                        break
                    except httpx.ConnectError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.05)
                assert health.json()["styles"] == ["formal"]
                assert client.post("/standardise", json={"text": SHOUTY}).status_code == 401
                reply = client.post(
                    "/standardise",
                    json={"text": SHOUTY},
                    headers={"Authorization": f"Bearer {TOKEN}"},
                )
                assert (reply.status_code, reply.json()["style"]) == (200, "formal")
        finally:
            proc.terminate()
            rest = proc.communicate(timeout=10)[1]
    assert TOKEN not in first + rest
    assert "standardise id=2 status=200" in rest and SHOUTY not in rest


def test_batch_response_is_json_serialisable_by_the_standard_library(
    rules_client: httpx.Client,
) -> None:
    reply = rules_client.post("/standardise", json={"texts": [SHOUTY]})
    assert json.loads(reply.content)["results"][0]["original"] == SHOUTY


def test_openapi_schema_and_docs_describe_the_request(small_client: httpx.Client) -> None:
    schema = small_client.get("/openapi.json").json()
    post = schema["paths"]["/standardise"]["post"]
    body = post["requestBody"]["content"]["application/json"]
    assert set(body["schema"]["properties"]) == {"text", "texts", "styles"}
    assert body["schema"]["additionalProperties"] is False
    assert body["example"]["text"].startswith("I dont want this card")
    assert {"200", "401", "408", "413", "422", "503", "504"} <= set(post["responses"])
    assert "StandardiseResult" in schema["components"]["schemas"]
    docs = small_client.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text
