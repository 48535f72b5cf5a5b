"""What the standardiser returns, and the contract of an optional second gate (an auditor).

A result always keeps the original next to the candidate and says which one to use, so a
caller can store either and explain every fallback.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guisekit.facts.record import DiscrepancyRecord, FactCheckRecord
from guisekit.models import VariantStatus
from guisekit.specs import StandardStyle

__all__ = [
    "FactGate",
    "GateAuditor",
    "GateDiscrepancy",
    "GateVerdict",
    "StandardiseResult",
    "StyleResult",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GateVerdict(_Frozen):
    """An auditor's judgement of one candidate: ``material`` means a fact changed."""

    material: bool
    reasons: tuple[str, ...] = ()
    auditor: str | None = Field(default=None, description="Name of the auditor, if it has one.")


class GateAuditor(Protocol):
    """A second fact gate run after the exact check passed, e.g. an LLM fact auditor.

    Any ``async def audit(original, candidate) -> GateVerdict`` function fits. It is async
    because the auditors worth plugging in call a model over the network.
    """

    async def __call__(self, original: str, candidate: str, /) -> GateVerdict: ...


GateDiscrepancy = DiscrepancyRecord
FactGate = FactCheckRecord
"""The exact fact check of a candidate against its original."""


class StyleResult(_Frozen):
    """One text standardised into one style, gated.

    ``text`` is what to use: the candidate when it passed every gate, else the original
    (``fallback`` is then true and ``reasons`` say why). ``candidate`` is None only when
    the engine produced nothing (``status`` refused or error).
    """

    style: StandardStyle
    text: str
    candidate: str | None
    fallback: bool
    reasons: tuple[str, ...] = ()
    status: VariantStatus = "ok"
    fact_check: FactGate | None = Field(
        description="The exact check; None when there was no candidate to check."
    )
    audit: GateVerdict | None = Field(
        default=None,
        description="The auditor's verdict; None without an auditor, or when "
        "the exact check already failed (an auditor is not asked about a rejected candidate).",
    )
    engine: str
    model: str | None = None
    prompt_version: str | None = None
    latency_ms: float = Field(ge=0, description="Engine call plus gates for this style.")

    @model_validator(mode="after")
    def _consistent(self) -> StyleResult:
        if self.fallback and not self.reasons:
            raise ValueError("a fallback must say why")
        if not self.fallback and (self.candidate is None or self.text != self.candidate):
            raise ValueError("without a fallback the text to use is the candidate")
        return self


class StandardiseResult(StyleResult):
    """One text standardised into one or more styles.

    The fields inherited from :class:`StyleResult` are those of the primary (first)
    style, so single-style callers read ``result.text``; ``styles`` holds every requested
    style, primary first, for callers that average decisions across styles. Exception:
    ``latency_ms`` here times the whole call for this text (near zero on a cache hit).
    """

    original: str
    styles: tuple[StyleResult, ...] = Field(min_length=1)
    cached: bool = Field(description="Every style came from the cache.")

    @model_validator(mode="after")
    def _primary_first(self) -> StandardiseResult:
        primary = self.styles[0]
        for name in StyleResult.model_fields:
            if name != "latency_ms" and getattr(self, name) != getattr(primary, name):
                raise ValueError(f"{name} differs from the primary style's")
        if any(s.fallback and s.text != self.original for s in self.styles):
            raise ValueError("a fallback uses the original text")
        return self

    @classmethod
    def from_styles(
        cls, original: str, styles: tuple[StyleResult, ...], latency_ms: float, cached: bool
    ) -> StandardiseResult:
        """Assemble the result of one text from its per-style results (primary first)."""
        fields = {name: getattr(styles[0], name) for name in StyleResult.model_fields}
        fields["latency_ms"] = latency_ms
        return cls(**fields, original=original, styles=styles, cached=cached)
