"""Anthropic wire format of the stub: Messages requests in, messages and errors out."""

from __future__ import annotations

import json
import uuid
from typing import Any

from guisekit.testing.stub_models import (
    InvalidRequest,
    Role,
    StubParams,
    StubReply,
    StubRequest,
    content_text,
    estimate_tokens,
)

__all__ = ["error_body", "message", "parse_messages"]

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}


def parse_messages(body: Any) -> StubRequest:
    """Validate a Messages body and normalise it; raises :class:`InvalidRequest`.

    Like the real API, ``max_tokens`` is required and roles are only user and assistant
    (the system prompt is the top-level ``system``, string or text blocks).
    """
    if not isinstance(body, dict):
        raise InvalidRequest("request body must be a JSON object")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise InvalidRequest("model: Field required")
    max_tokens = body.get("max_tokens")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise InvalidRequest("max_tokens: Field required (a positive integer)")
    raw = body.get("messages")
    if not isinstance(raw, list) or not raw:
        raise InvalidRequest("messages: at least one message is required")
    messages: list[tuple[Role, str]] = []
    if body.get("system") is not None:
        messages.append(("system", content_text(body["system"])))
    for item in raw:
        if not isinstance(item, dict) or item.get("role") not in _ROLES:
            raise InvalidRequest("messages: each message needs role 'user' or 'assistant'")
        messages.append((_ROLES[item["role"]], content_text(item.get("content"))))
    temperature = body.get("temperature")
    if temperature is not None and (
        isinstance(temperature, bool) or not isinstance(temperature, int | float)
    ):
        raise InvalidRequest("temperature: must be a number")
    params = StubParams(
        temperature=None if temperature is None else float(temperature), max_tokens=max_tokens
    )
    return StubRequest(
        provider="anthropic", model=model, messages=tuple(messages), params=params, body=body
    )


def message(request: StubRequest, reply: StubReply) -> dict[str, Any]:
    """A ``message`` object: one text block (none for an empty refusal) and usage.

    When the request forces a tool (``tool_choice: {type: tool}``) and the reply text is a
    JSON object, the object comes back as that tool's ``tool_use`` input instead.
    """
    content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
    choice = request.body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") == "tool" and not reply.refusal:
        try:
            arguments = json.loads(reply.text)
        except ValueError:
            arguments = None
        if isinstance(arguments, dict):
            call = {"type": "tool_use", "id": "toolu_stub", "name": choice.get("name")}
            content = [{**call, "input": arguments}]
    return {
        "id": f"msg_{uuid.uuid4().hex}",
        "type": "message",
        "role": "assistant",
        "model": request.model,
        "content": content,
        "stop_reason": "refusal"
        if reply.refusal
        else ("max_tokens" if reply.truncated else "end_turn"),
        "stop_sequence": None,
        "usage": {
            "input_tokens": request.input_tokens,
            "output_tokens": estimate_tokens(reply.text),
        },
    }


def error_body(status: int, message: str) -> dict[str, Any]:
    """Anthropic's error object for ``status``."""
    kind = {
        400: "invalid_request_error",
        404: "not_found_error",
        429: "rate_limit_error",
    }.get(status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": message}}
