"""How a model is held to an output schema, per server: the structured-output modes.

Every prompt states its JSON Schema in its text and every reply is validated (and
re-asked) by the runner, whatever the mode. A mode adds a server-side constraint:

- ``json_schema``: OpenAI's ``response_format: {type: json_schema}``;
- ``json_object_schema``: ``response_format: {type: json_object, schema: ...}``, the
  llama.cpp servers' extension (they answer OpenAI's form with a 500);
- ``guided_json``: vLLM's ``guided_json`` body field;
- ``ollama_format``: Ollama's ``format`` field holding the schema;
- ``tools``: one forced tool call whose arguments are the object;
- ``prompt``: no constraint; the schema in the prompt, parse and re-ask.

``auto`` tries the provider's modes in order (:attr:`Provider.probe_order`), falling back
when the server rejects the request with an error that names the response format, and the
mode that worked is remembered in the store, so the probe happens once per server.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import AIMessage

from guisekit.llm.answers import reply_text
from guisekit.llm.refs import OutputMode

__all__ = ["names_response_format", "reply_json_text", "schema_fields", "tool_name"]

# Words a server's error uses when it rejects the structured-output part of a request.
_FORMAT_WORDS = re.compile(
    r"response_format|json_schema|json_object|guided_json|grammar|\bschema\b|\bformat\b|"
    r"\btools?\b|tool_choice|function",
    re.IGNORECASE,
)


def tool_name(schema_name: str) -> str:
    """A function name for the schema (``rewrite.v1`` -> ``rewrite_v1``)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", schema_name)


def schema_fields(
    mode: OutputMode, schema_name: str, json_schema: dict[str, Any], *, anthropic: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What ``mode`` adds to a request: (body fields sent as ``extra_body``, call keyword
    arguments such as ``tools``)."""
    name = tool_name(schema_name)
    if mode == "json_schema":
        spec = {"name": name, "schema": json_schema, "strict": False}
        return {"response_format": {"type": "json_schema", "json_schema": spec}}, {}
    if mode == "json_object_schema":
        return {"response_format": {"type": "json_object", "schema": json_schema}}, {}
    if mode == "guided_json":
        return {"guided_json": json_schema}, {}
    if mode == "ollama_format":
        return {"format": json_schema}, {}
    if mode == "tools":
        description = str(json_schema.get("description") or f"Return the {name} object.")
        if anthropic:
            tool = {"name": name, "description": description, "input_schema": json_schema}
            return {}, {"tools": [tool], "tool_choice": {"type": "tool", "name": name}}
        function = {"name": name, "description": description, "parameters": json_schema}
        return {}, {
            "tools": [{"type": "function", "function": function}],
            "tool_choice": {"type": "function", "function": {"name": name}},
        }
    return {}, {}  # prompt (and auto, which is resolved before a call)


def reply_json_text(reply: AIMessage) -> str:
    """The reply's answer as text: a forced tool call's arguments as JSON, else the text."""
    for call in reply.tool_calls:
        return json.dumps(call.get("args") or {}, ensure_ascii=False)
    return reply_text(reply)


def names_response_format(detail: str) -> bool:
    """Whether a server's error message is about the structured-output request."""
    return bool(_FORMAT_WORDS.search(detail))
