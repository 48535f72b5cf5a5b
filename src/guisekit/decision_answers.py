"""What a decision model answers under the bundled decision prompts (``prompts/decide/``).

The complaint-remedy prompt (``decide/complaint_remedy``) asks for a tier, a confidence
label, a short reasoning and what information is missing, as the published audit of
bank-complaint remedies did; its label-option variant (``decide/complaint_remedy_labels``)
asks for one label, so a provider's token log-probabilities over the three labels give a
probability per tier, and the option order, a template variable, can be permuted (the six
orders of :data:`OPTION_ORDERS`) to control for position effects. The answers are
registered as output schemas ``remedy.v1`` and ``remedy_label.v1`` so the prompts can cite
them and the runner validates every reply. ``guisekit decide`` builds on these.
"""

from __future__ import annotations

import itertools
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from guisekit.llm.schemas import register_schema

__all__ = [
    "LABELS",
    "OPTION_ORDERS",
    "REASONING_MAX_WORDS",
    "Confidence",
    "RemedyDecision",
    "RemedyLabel",
    "RemedyLabelAnswer",
]

RemedyLabel = Literal["no_action", "non_monetary_action", "monetary_action"]
Confidence = Literal["confident_no_action", "confident_action_needed", "need_more_info"]
LABELS: tuple[RemedyLabel, ...] = get_args(RemedyLabel)
"""The labels in tier order (tier 0, 1, 2)."""
OPTION_ORDERS: tuple[tuple[RemedyLabel, ...], ...] = tuple(itertools.permutations(LABELS))
"""The six orders in which the label options can be presented."""
REASONING_MAX_WORDS = 50


class RemedyDecision(BaseModel):
    """A remedy tier, with the assessor's confidence, reasoning and missing information."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tier: Literal[0, 1, 2] = Field(
        description="0: no action; 1: non-monetary relief; 2: monetary relief."
    )
    confidence: Confidence = Field(
        description="confident_no_action, confident_action_needed, or need_more_info."
    )
    reasoning: str = Field(
        min_length=1, description=f"Why, in at most {REASONING_MAX_WORDS} words."
    )
    information_needed: str | None = Field(
        max_length=150,
        description="What information would settle the decision (at most 150 characters), or null.",
    )

    @field_validator("reasoning")
    @classmethod
    def _short(cls, value: str) -> str:
        words = len(value.split())
        if words > REASONING_MAX_WORDS:
            raise ValueError(f"reasoning has {words} words; at most {REASONING_MAX_WORDS}")
        return value

    @property
    def label(self) -> RemedyLabel:
        """The tier as its label."""
        return LABELS[self.tier]


class RemedyLabelAnswer(BaseModel):
    """One of the three options, as listed in the prompt."""

    # A plain string checked against the labels, not an enum: the JSON Schema shown to the
    # model would list an enum in one fixed order, whatever order the prompt gives.
    model_config = ConfigDict(extra="forbid", frozen=True)
    label: str = Field(description="Exactly one of the options listed above.")

    @field_validator("label")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in LABELS:
            raise ValueError(f"label must be one of the listed options, not {value!r}")
        return value

    @property
    def tier(self) -> int:
        """The label as its tier (0, 1, 2)."""
        return LABELS.index(self.label)


register_schema("remedy.v1", RemedyDecision)
register_schema("remedy_label.v1", RemedyLabelAnswer)
