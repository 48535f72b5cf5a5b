"""The LLM layer: one way to call a chat model, cached, paced, retried and validated.

Names are imported on first use (PEP 562), so importing a light module of this package
(``guisekit.llm.loop``, ``guisekit.llm.refs``) does not load the provider SDKs, and a core
install without the ``llm`` extra can still import them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from guisekit.llm.chat import make_chat_model as make_chat_model
    from guisekit.llm.engine import LLMEngine as LLMEngine
    from guisekit.llm.prompts import (
        PromptTemplate as PromptTemplate,
    )
    from guisekit.llm.prompts import (
        RenderedPrompt as RenderedPrompt,
    )
    from guisekit.llm.prompts import (
        load_prompt as load_prompt,
    )
    from guisekit.llm.refs import ModelRef as ModelRef
    from guisekit.llm.refs import parse_model as parse_model
    from guisekit.llm.runner import (
        LLMRequest as LLMRequest,
    )
    from guisekit.llm.runner import (
        LLMRunner as LLMRunner,
    )
    from guisekit.llm.runner import (
        RunnerSettings as RunnerSettings,
    )
    from guisekit.llm.store import Answer as Answer
    from guisekit.llm.store import Store as Store

_HOME = {
    "Answer": "store",
    "LLMEngine": "engine",
    "LLMRequest": "runner",
    "LLMRunner": "runner",
    "ModelRef": "refs",
    "PromptTemplate": "prompts",
    "RenderedPrompt": "prompts",
    "RunnerSettings": "runner",
    "Store": "store",
    "load_prompt": "prompts",
    "make_chat_model": "chat",
    "parse_model": "refs",
}

__all__ = [
    "Answer",
    "LLMEngine",
    "LLMRequest",
    "LLMRunner",
    "ModelRef",
    "PromptTemplate",
    "RenderedPrompt",
    "RunnerSettings",
    "Store",
    "load_prompt",
    "make_chat_model",
    "parse_model",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])
