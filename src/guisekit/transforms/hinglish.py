"""``hinglish.v1``: romanised Hindi-English code-mixing with Hindi as the frame."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from guisekit.transforms._registry import RulesOutput, Spec, Transform, implementation, register

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = ["LLM_FLOOR", "RULES_FLOOR", "HinglishSpec"]

# the default minimum Hindi share of a valid variant: an LLM rewrite; the rules engine at
# mix ratio 0 and 1 (linear between). Measured on the spent texts (examples/data and
# evaluation/heldout*): the 10th percentile of texts with half or more sentences converted
# is 0.062-0.075 at every ratio (python benchmarks/hinglish_mix.py --floor).
LLM_FLOOR = 0.2
RULES_FLOOR = (0.06, 0.065)

_hinglish_rewrite = implementation("guisekit.hinglish:hinglish_rewrite")
_validate_hinglish = implementation("guisekit.hinglish:validate_hinglish")
_tag_words = implementation("guisekit.hinglish.tagging:tag_words")


class HinglishSpec(Spec):
    """Rewrite as romanised Hindi-English code-mixing (Hinglish), Hindi as the frame.

    ``mix_ratio`` is the share of English content words with a common Hindi equivalent
    written in Hindi (0: every content word stays English); ``min_hindi_share`` and
    ``max_hindi_share`` bound the share of Hindi-tagged words a valid variant has (no
    ``min_hindi_share``: the minimum calibrated for the engine and the mix ratio, see
    :meth:`hindi_band`);
    ``spelling`` picks the romanisation (``standard`` hai/raha/nahi, ``formal``
    nahin/kyon, ``clipped`` h/rha/nhi, ``mixed`` a seeded mix of standard and clipped);
    ``script`` is ``latin`` or ``devanagari`` (for the Hindi words).
    """

    transform: Literal["hinglish"] = "hinglish"
    mix_ratio: float = Field(default=0.5, ge=0.0, le=1.0)
    min_hindi_share: float | None = Field(default=None, ge=0.0, le=1.0)
    max_hindi_share: float = Field(default=0.9, ge=0.0, le=1.0)
    spelling: Literal["standard", "formal", "clipped", "mixed"] = "standard"
    script: Literal["latin", "devanagari"] = "latin"

    @model_validator(mode="after")
    def _band_in_order(self) -> HinglishSpec:
        if self.min_hindi_share is not None and self.min_hindi_share > self.max_hindi_share:
            raise ValueError("min_hindi_share is above max_hindi_share")
        return self

    def hindi_band(self, rules: bool = True) -> tuple[float, float]:
        """The Hindi-share band a valid variant lies in. Without ``min_hindi_share``:
        for an LLM rewrite (the whole text in Hinglish) 0.2; for the rules engine, which
        frames clauses in Hindi and keeps the clauses that carry the facts English, the
        minimum measured on good conversions (half or more of a text's sentences
        converted: 9 in 10 of them lie above it; benchmarks/hinglish_mix.py), so that a
        variant with almost no Hindi still fails."""
        if self.min_hindi_share is not None:
            return self.min_hindi_share, self.max_hindi_share
        floor = RULES_FLOOR[0] + (RULES_FLOOR[1] - RULES_FLOOR[0]) * self.mix_ratio
        return (round(floor, 4) if rules else LLM_FLOOR), self.max_hindi_share


def _rewrite(engine: RulesEngine, text: str, spec: HinglishSpec, rng: random.Random) -> RulesOutput:
    """The Hinglish rewrite, one edit per converted sentence, and its details: per-word
    language tags, the per-sentence report and the validation of the variant."""
    result = _hinglish_rewrite(text, spec, rng)
    edits = [
        {
            "operator": "hinglish:" + "+".join(s.templates),
            "start": s.start,
            "end": s.end,
            "before": s.original,
            "after": s.text,
        }
        for s in result.sentences
        if s.status == "converted"
    ]
    low, high = spec.hindi_band(rules=True)
    validation = _validate_hinglish(
        text,
        result.text,
        script=spec.script,
        min_hindi_share=low,
        max_hindi_share=high,
        tags=list(result.tags),
    )
    details = {
        "language_tags": [list(pair) for pair in result.tags],
        "sentences": [s.to_dict() for s in result.sentences],
        "converted_share": round(result.converted_share, 4),
        "validation": validation.to_dict(),
    }
    return RulesOutput(result.text, edits, details=details)


def _variables(text: str, spec: HinglishSpec) -> dict[str, Any]:
    return {
        "text": text,
        "mix_ratio": spec.mix_ratio,
        "spelling": spec.spelling,
        "script": spec.script,
    }


def _llm_check(original: str, spec: HinglishSpec) -> Callable[[dict[str, Any]], str | None]:
    """Re-ask a Hinglish rewrite that breaks script, facts or the Hindi-share band."""

    def check(value: dict[str, Any]) -> str | None:
        low, high = spec.hindi_band(rules=False)
        result = _validate_hinglish(
            original,
            str(value.get("text", "")),
            script=spec.script,
            min_hindi_share=low,
            max_hindi_share=high,
        )
        return (
            None if result.passed else "the rewrite fails validation: " + "; ".join(result.failures)
        )

    return check


def _llm_details(original: str, text: str, spec: HinglishSpec) -> dict[str, Any]:
    """Per-word language tags and the validation record, as the rules engine gives them."""
    tags = _tag_words(text)
    low, high = spec.hindi_band(rules=False)
    validation = _validate_hinglish(
        original,
        text,
        script=spec.script,
        min_hindi_share=low,
        max_hindi_share=high,
        tags=tags,
    )
    return {"language_tags": [list(t) for t in tags], "validation": validation.to_dict()}


HINGLISH = register(
    Transform(
        "hinglish",
        1,
        HinglishSpec,
        label_field="mix_ratio",
        rewrite=_rewrite,
        prompt="hinglish/rewrite",
        variables=_variables,
        llm_check=_llm_check,
        llm_details=_llm_details,
    )
)
