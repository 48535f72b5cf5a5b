"""The LLM layer: one way to call a chat model, cached, paced, retried and validated."""

from guisekit.llm.chat import make_chat_model
from guisekit.llm.engine import LLMEngine
from guisekit.llm.prompts import PromptTemplate, RenderedPrompt, load_prompt
from guisekit.llm.refs import ModelRef, parse_model
from guisekit.llm.runner import LLMRequest, LLMRunner, RunnerSettings
from guisekit.llm.store import Answer, Store

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
