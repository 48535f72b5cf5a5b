"""Optional extras: what each needs, and the one-line error when one is missing.

The core install runs the rules engine, fact checks, grids, the CLI and JSONL/CSV files.
Everything else is an extra (``pip install 'guisekit[llm]'``); code that needs one calls
:func:`require` before importing it, so a missing extra is a one-line error naming the
extra (exit code 2 in the CLI), never an ImportError traceback.
"""

from __future__ import annotations

import importlib.util
from typing import Literal

from guisekit.errors import MissingExtra

__all__ = ["EXTRAS", "Extra", "has", "require"]

Extra = Literal["llm", "serve", "parquet", "plots", "attributes", "frames"]

EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "llm": ("calling LLM providers", ("langchain_core", "langchain_openai", "langchain_anthropic")),
    "serve": ("the HTTP service", ("fastapi", "uvicorn")),
    "parquet": ("Parquet files", ("pyarrow",)),
    "plots": ("plots", ("matplotlib",)),
    "attributes": ("objective attribute measures", ("spacy", "vaderSentiment")),
    "frames": ("pandas DataFrames", ("pandas",)),
}
"""Extra -> (what it is for, the modules it provides)."""


def has(extra: Extra) -> bool:
    """Whether every module of ``extra`` can be imported."""
    return all(importlib.util.find_spec(m) is not None for m in EXTRAS[extra][1])


def require(extra: Extra, *modules: str, feature: str | None = None) -> None:
    """Raise :class:`MissingExtra` unless ``modules`` (default: all of the extra's) import."""
    for module in modules or EXTRAS[extra][1]:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingExtra(extra, feature or EXTRAS[extra][0])
