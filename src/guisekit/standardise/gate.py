"""The project's LLM fact auditor as the standardiser's second gate.

A candidate that passed the exact check is also shown to one LLM auditor (the
``audit/compare`` prompt of :mod:`guisekit.audit`, through the cached, paced runner); a
material verdict makes the standardiser return the original. An auditor that gives no
verdict (refusal, invalid output, provider down) raises, and the standardiser falls back:
a gate that cannot look never lets a candidate through.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from guisekit.audit.auditor import LLMAuditor, aaudit_pairs
from guisekit.audit.domains import load_domain
from guisekit.backend import DEFAULT_CACHE, BankSettings, open_backend
from guisekit.errors import GuisekitError
from guisekit.llm.refs import parse_model
from guisekit.llm.runner import Executor
from guisekit.standardise.results import GateVerdict

__all__ = ["LLMGateAuditor"]


class LLMGateAuditor:
    """``await gate(original, candidate)`` -> :class:`GateVerdict` from one LLM auditor."""

    def __init__(self, auditor: LLMAuditor, executor: Executor) -> None:
        self.auditor = auditor
        self.executor = executor
        self.name = auditor.name

    @classmethod
    def from_model(
        cls,
        model: str,
        domain: str = "complaints",
        cache: str | Path = DEFAULT_CACHE,
        bank: BankSettings | None = None,
        chat_factory: Callable[..., Any] | None = None,
    ) -> LLMGateAuditor:
        """An auditor on ``model`` (``provider:name[@url]``) on the process's shared runner
        of ``cache``: a corpus run or an audit in the same process on the same cache
        shares its store and its request limits."""
        auditor = LLMAuditor(parse_model(model), load_domain(domain))
        return cls(auditor, open_backend(bank or BankSettings(), cache, chat_factory))

    async def __call__(self, original: str, candidate: str, /) -> GateVerdict:
        [[outcome]] = await aaudit_pairs([self.auditor], [(original, candidate)], self.executor)
        if outcome.verdict is None:
            raise GuisekitError(
                f"auditor {self.name} gave no verdict ({outcome.status}: {outcome.reason})"
            )
        reasons = tuple(
            f"{d.category} {d.kind}: {d.description}"
            for d in outcome.verdict.discrepancies
            if d.material
        )
        return GateVerdict(material=outcome.verdict.material, reasons=reasons, auditor=self.name)
