"""OpenAI wire format of the stub: chat-completion requests in, completions and errors out."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

from guisekit.testing.stub_models import (
    InvalidRequest,
    Role,
    StubParams,
    StubReply,
    StubRequest,
    TokenLogprob,
    TopLogprob,
    content_text,
    estimate_tokens,
)

__all__ = [
    "chat_completion",
    "error_body",
    "forced_tool",
    "format_rejection",
    "openai_logprobs",
    "parse_chat",
    "token_logprobs",
]

_ROLES: dict[str, Role] = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
    "function": "tool",
}
_DEFAULT_REFUSAL = "I'm sorry, I can't help with that request."
_WORD = re.compile(r"\s*\S+|\s+")


def _int(body: dict[str, Any], name: str, low: int, high: int) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidRequest(f"'{name}' must be an integer in [{low}, {high}]")
    return value


def _float(body: dict[str, Any], name: str) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidRequest(f"'{name}' must be a number")
    return float(value)


def parse_chat(body: Any) -> StubRequest:
    """Validate a chat-completions body and normalise it; raises :class:`InvalidRequest`."""
    if not isinstance(body, dict):
        raise InvalidRequest("request body must be a JSON object")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise InvalidRequest("'model' is required")
    raw = body.get("messages")
    if not isinstance(raw, list) or not raw:
        raise InvalidRequest("'messages' must be a non-empty array")
    messages: list[tuple[Role, str]] = []
    for item in raw:
        if not isinstance(item, dict) or item.get("role") not in _ROLES:
            raise InvalidRequest(f"each message needs a role among {sorted(_ROLES)}")
        messages.append((_ROLES[item["role"]], content_text(item.get("content"))))
    logprobs = body.get("logprobs") or False
    if not isinstance(logprobs, bool):
        raise InvalidRequest("'logprobs' must be a boolean")
    top = _int(body, "top_logprobs", 0, 20)
    if top is not None and not logprobs:
        raise InvalidRequest("'top_logprobs' requires 'logprobs' to be true")
    max_tokens = _int(body, "max_completion_tokens", 1, 10**7)
    params = StubParams(
        temperature=_float(body, "temperature"),
        max_tokens=max_tokens if max_tokens is not None else _int(body, "max_tokens", 1, 10**7),
        n=_int(body, "n", 1, 128) or 1,
        logprobs=logprobs,
        top_logprobs=top,
    )
    return StubRequest(
        provider="openai", model=model, messages=tuple(messages), params=params, body=body
    )


def format_rejection(body: dict[str, Any], dialect: str) -> tuple[int, str] | None:
    """The error a server of ``dialect`` gives a structured-output request it does not
    take: llama-cpp-python's server answers OpenAI's ``json_schema`` with a 500 (it knows
    ``text`` and ``json_object`` with a ``schema``); a text-only server rejects any
    ``response_format`` or ``tools`` with a 400."""
    response_format = body.get("response_format")
    kind = response_format.get("type") if isinstance(response_format, dict) else None
    if dialect == "llama.cpp" and kind == "json_schema":
        return 500, (
            "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  "
            "Input should be 'text' or 'json_object' [type=literal_error, "
            "input_value='json_schema']"
        )
    if dialect == "text_only" and (response_format is not None or "tools" in body):
        return 400, "this server supports neither response_format nor tools"
    return None


def token_logprobs(text: str, top: int) -> tuple[TokenLogprob, ...]:
    """Made-up logprobs for ``text``: one token per word, the word itself most likely."""
    tokens = _WORD.findall(text)
    return tuple(
        TokenLogprob(
            token=token,
            logprob=-0.01,
            top=tuple(
                TopLogprob(token=token if rank == 0 else f"<alt{rank}>", logprob=-0.01 - 2 * rank)
                for rank in range(top)
            ),
        )
        for token in tokens
    )


def _logprob_entry(token: TokenLogprob, top: int | None) -> dict[str, Any]:
    return {
        "token": token.token,
        "logprob": token.logprob,
        "bytes": list(token.token.encode("utf-8")),
        "top_logprobs": [
            {"token": alt.token, "logprob": alt.logprob, "bytes": list(alt.token.encode("utf-8"))}
            for alt in token.top[:top]
        ],
    }


def openai_logprobs(reply: StubReply, top: int | None) -> dict[str, Any]:
    """A choice's ``logprobs`` object: the reply's own logprobs, or made-up ones.

    ``top`` alternatives are kept per token; ``None`` keeps all that the reply gives.
    """
    tokens = reply.logprobs
    if tokens is None:
        tokens = token_logprobs(reply.text, top or 0)
    return {"content": [_logprob_entry(t, top) for t in tokens], "refusal": None}


def forced_tool(body: dict[str, Any]) -> str | None:
    """The function a request forces the model to call (``tool_choice``), if any."""
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and isinstance(choice.get("function"), dict):
        name = choice["function"].get("name")
        return name if isinstance(name, str) else None
    return None


def _choice(index: int, reply: StubReply, request: StubRequest) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "annotations": []}
    tool = forced_tool(request.body)
    finish = "length" if reply.truncated else "stop"
    if reply.refusal:
        message |= {"content": None, "refusal": reply.text or _DEFAULT_REFUSAL}
    elif tool is not None:  # the reply text is the forced call's arguments
        call = {"name": tool, "arguments": reply.text}
        message |= {
            "content": None,
            "refusal": None,
            "tool_calls": [{"id": f"call_{index}", "type": "function", "function": call}],
        }
        finish = "length" if reply.truncated else "tool_calls"
    else:
        message |= {"content": reply.text, "refusal": None}
    logprobs = None
    if request.params.logprobs and not reply.refusal:
        logprobs = openai_logprobs(reply, request.params.top_logprobs or 0)
    return {"index": index, "message": message, "logprobs": logprobs, "finish_reason": finish}


def chat_completion(request: StubRequest, replies: list[StubReply]) -> dict[str, Any]:
    """A ``chat.completion`` object with one choice per reply and estimated usage."""
    completion = sum(estimate_tokens(reply.text) for reply in replies)
    prompt = request.input_tokens
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.model,
        "choices": [_choice(i, reply, request) for i, reply in enumerate(replies)],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
        "system_fingerprint": "fp_stub",
    }


def error_body(status: int, message: str) -> dict[str, Any]:
    """OpenAI's error object for ``status``."""
    kind, code = {
        400: ("invalid_request_error", None),
        404: ("invalid_request_error", "not_found"),
        429: ("requests", "rate_limit_exceeded"),
    }.get(status, ("server_error", None))
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}
