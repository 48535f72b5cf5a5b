"""Manipulation checks: did the rules engine's guises shift the styles they claim to?

Each check compares guises that differ on one axis (or one transform parameter) over
the same sources, with the objective measures guisekit ships (textstat's Flesch-Kincaid
grade and the rules lexicons' cue counters), so a user can see that "college" reads as
more educated than "high_school" before auditing a model with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from rapidfuzz.distance import Levenshtein

from guisekit.models import Source
from guisekit.personas import Persona, load_grid
from guisekit.rules.cues import hedge_score, style_cues
from guisekit.rules.engine import RulesEngine
from guisekit.specs import HedgeSpec, PersonaSpec, StandardiseSpec, StandardStyle
from guisekit.style import flesch_kincaid_grade

__all__ = ["ManipulationReport", "run_manipulation_checks"]


@dataclass(frozen=True)
class Contrast:
    """Mean of a measure in two groups of variants, and whether it moved as intended."""

    measure: str
    high_group: str
    low_group: str
    high_mean: float
    low_mean: float
    min_ratio: float = 1.0

    @property
    def passed(self) -> bool:
        return (
            self.high_mean > self.low_mean * self.min_ratio
            if self.low_mean > 0
            else self.high_mean > 0
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "measure": self.measure,
            "high": self.high_group,
            "low": self.low_group,
            "high_mean": round(self.high_mean, 3),
            "low_mean": round(self.low_mean, 3),
            "required_ratio": self.min_ratio,
            "passed": self.passed,
        }


@dataclass(frozen=True)
class Convergence:
    """Mean pairwise edit distance of one source's guises before and after standardising."""

    style: str
    source_id: str
    before: float
    after: float

    @property
    def reduction(self) -> float:
        return 1.0 - self.after / self.before if self.before else 0.0


@dataclass(frozen=True)
class ManipulationReport:
    contrasts: tuple[Contrast, ...]
    convergence: tuple[Convergence, ...]

    def as_dict(self) -> dict[str, object]:
        by_style: dict[str, list[float]] = {}
        for item in self.convergence:
            by_style.setdefault(item.style, []).append(item.reduction)
        return {
            "contrasts": [c.as_dict() for c in self.contrasts],
            "standardise_distance_reduction": {
                style: {"mean": round(fmean(v), 3), "min": round(min(v), 3), "sources": len(v)}
                for style, v in by_style.items()
            },
        }


def _mean_pairwise_distance(texts: Sequence[str]) -> float:
    return fmean(Levenshtein.distance(a, b) for a, b in itertools.combinations(texts, 2))


def run_manipulation_checks(
    sources: Sequence[Source],
    engine: RulesEngine | None = None,
    *,
    seed: int = 0,
    styles: Sequence[StandardStyle] = ("plain", "formal", "simple"),
) -> ManipulationReport:
    """Rewrite every source into the 36 guises (and hedged/confident variants) and
    measure the intended shifts."""
    engine = engine or RulesEngine()
    personas = load_grid().personas()
    fk: dict[Persona, list[float]] = {}
    soph: dict[Persona, list[float]] = {}
    informal: dict[Persona, list[float]] = {}
    hedged: list[float] = []
    confident: list[float] = []
    convergence = []
    for source in sources:
        guises = {
            p: engine.transform(source, PersonaSpec(persona=p.as_dict()), seed).text or ""
            for p in personas
        }
        for persona, text in guises.items():
            cues = style_cues(text, engine.lexicon)
            fk.setdefault(persona, []).append(flesch_kincaid_grade(text))
            soph.setdefault(persona, []).append(cues.sophisticated)
            informal.setdefault(persona, []).append(cues.informal_markers)
        for direction, bucket in (("hedged", hedged), ("confident", confident)):
            text = engine.transform(source, HedgeSpec(direction=direction), seed).text or ""
            bucket.append(hedge_score(text, engine.lexicon).density)
        before = _mean_pairwise_distance(list(guises.values()))
        for style in styles:
            spec = StandardiseSpec(style=style)
            standard = [
                engine.transform(Source(id=source.id, text=t), spec, seed).text or ""
                for t in guises.values()
            ]
            convergence.append(
                Convergence(style, source.id, before, _mean_pairwise_distance(standard))
            )

    def by_axis(
        measure: str, values: dict[Persona, list[float]], axis: str, high: str, low: str
    ) -> Contrast:
        def mean(level: str) -> float:
            return fmean(v for p, vs in values.items() if p.as_dict()[axis] == level for v in vs)

        return Contrast(measure, high, low, mean(high), mean(low))

    contrasts = (
        by_axis("flesch_kincaid_grade", fk, "education", "college", "high_school"),
        by_axis("sophisticated_words_per_100", soph, "education", "college", "high_school"),
        by_axis("informal_markers_per_100", informal, "age", "young", "old"),
        Contrast(
            "hedge_density_per_100",
            "hedged",
            "confident",
            fmean(hedged),
            fmean(confident),
            min_ratio=3.0,
        ),
    )
    return ManipulationReport(contrasts, tuple(convergence))
