"""Turning a model's reply into a validated object, a refusal, or a re-ask.

Every transform, auditor and attribute asks for one JSON object under a named schema.
Replies are parsed leniently (code fences and prose around the object are tolerated) and
validated strictly; a reply that does not validate produces the message sent back to the
model, instructor-style, so the next attempt can correct itself.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage
from pydantic import BaseModel, ValidationError

from guisekit.resources import read_lines

__all__ = ["Parsed", "is_refusal", "parse_reply", "reask_message", "reply_text"]

_MAX_ERROR_CHARS = 600


@dataclass(frozen=True, slots=True)
class Parsed:
    """A validated value, or the error that explains why the reply did not validate."""

    value: BaseModel | None
    error: str | None


def reply_text(message: AIMessage) -> str:
    """The text of a reply, whatever shape the provider gave its content."""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        block if isinstance(block, str) else str(block.get("text", ""))
        for block in content
        if isinstance(block, str) or block.get("type") == "text"
    )


@functools.cache
def _refusal_openings() -> tuple[str, ...]:
    return tuple(line.lower() for line in read_lines("llm/refusal_markers.txt"))


def is_refusal(message: AIMessage) -> str | None:
    """Why ``message`` is a refusal (the provider's own signal or a refusal opening), or
    ``None``. Only called on replies that did not validate, so a rewrite that happens to
    begin "I'm sorry" is never mistaken for one."""
    refusal = message.additional_kwargs.get("refusal")
    if refusal:
        return str(refusal)
    meta = message.response_metadata
    if meta.get("stop_reason") == "refusal" or meta.get("finish_reason") == "content_filter":
        return reply_text(message).strip() or "the provider flagged the reply as a refusal"
    text = reply_text(message).strip()
    if text.lower().startswith(_refusal_openings()):
        return text[:200]
    return None


def _json_object(text: str) -> Any:
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[-1].rsplit("```", 1)[0]
    start, end = stripped.find("{"), stripped.rfind("}")
    if start < 0 or end < start:
        raise ValueError("the reply holds no JSON object")
    return json.loads(stripped[start : end + 1])


def parse_reply(text: str, schema: type[BaseModel]) -> Parsed:
    """Validate ``text`` as one JSON object under ``schema``."""
    try:
        return Parsed(schema.model_validate(_json_object(text)), None)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'object'}: {e['msg']}" for e in exc.errors()
        )
        return Parsed(None, f"the JSON does not fit the schema: {problems}"[:_MAX_ERROR_CHARS])
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        return Parsed(None, f"the reply is not valid JSON: {exc}"[:_MAX_ERROR_CHARS])


def reask_message(error: str) -> str:
    """What the model is told after an invalid reply."""
    return (
        f"Your previous answer could not be used: {error}. Answer again with only the JSON "
        "object the instructions ask for, keeping every rule."
    )
