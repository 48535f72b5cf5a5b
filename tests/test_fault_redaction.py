"""Provider errors never carry the key into a stored reason, and a 403 stops the job
(issue #17, defects 5 and 11)."""

from __future__ import annotations

import httpx
import openai
import pytest

from guisekit.errors import ConfigError
from guisekit.llm.faults import classify

KEY = "sk-test-echoed-key-0123456789abcdef"


def _error(kind: type[openai.APIStatusError], status: int, message: str) -> openai.APIStatusError:
    response = httpx.Response(status, request=httpx.Request("POST", "http://127.0.0.1/v1"))
    return kind(message, response=response, body=None)


def test_a_key_echoed_in_an_error_is_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    fault = classify(_error(openai.BadRequestError, 400, f"invalid request for key {KEY}"))
    assert KEY not in fault.detail
    assert fault.detail == "request rejected (400): invalid request for key [redacted]"
    server = classify(_error(openai.InternalServerError, 500, f"boom {KEY}"))
    assert server.transient and server.detail == "server error (500): boom [redacted]"


@pytest.mark.parametrize(
    ("kind", "status", "message"),
    [
        (openai.AuthenticationError, 401, "the provider rejected the API key (401)"),
        (openai.PermissionDeniedError, 403, "the provider refused access with this API key (403)"),
    ],
)
def test_401_and_403_stop_the_job_without_echoing_the_key(
    monkeypatch: pytest.MonkeyPatch, kind: type[openai.APIStatusError], status: int, message: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with pytest.raises(ConfigError) as caught:
        classify(_error(kind, status, f"key {KEY} is not allowed"))
    assert caught.value.one_line().startswith(message)
    assert KEY not in caught.value.one_line()
