"""Manipulation checks: did the rules engine's guises move the cues they declare, and
leave content alone?

For every persona axis, the 36 guises of each source are grouped by the axis level and
the within-source eta squared of the level is computed on the axis's declared cue
measure (the share of the within-source variance the level explains), next to a
permutation null: the level labels are shuffled within each source with a seeded
generator and eta squared recomputed. An axis is realised when its eta squared is at
least 0.2 and above the null's 95th percentile. Content measures (facts and named
entities per text) must not move (eta squared at most 0.02). The hedge transform is
checked the same way: hedged vs confident variants of each source on hedge density.
Axes the persona profiles declare unrealised are reported as such, with their figures.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from guisekit.facts import extract_facts
from guisekit.models import Source
from guisekit.personas import load_grid
from guisekit.rules.cues import hedge_score, style_cues
from guisekit.rules.edits import local_rng
from guisekit.rules.engine import RulesEngine
from guisekit.specs import HedgeSpec, PersonaSpec, StandardiseSpec
from guisekit.style import flesch_kincaid_grade

__all__ = [
    "CollapseRow",
    "ManipulationRow",
    "collapse_rates",
    "eta_squared",
    "hedge_row",
    "manipulation_table",
    "permutation_null",
]

# The cue measure each axis declares (what its features move) and the content measures.
DECLARED = {
    "age": "informal_markers_per_100",
    "education": "sophisticated_words_per_100",
    "geography": "informal_markers_per_100",
    "ses": "informal_markers_per_100",
}
CONTENT = ("facts", "named_entities")
MIN_ETA = 0.2
MAX_CONTENT_ETA = 0.02
# Named entities, approximated without a tagger: capitalised words inside a sentence and
# redactions (XXXX); the pronoun I and its apostrophe-less contractions (Im, Ive) are not.
_ENTITY = re.compile(r"(?<=[a-z,;] )(?!I(?:m|ve|d|ll)\b)[A-Z][A-Za-z]+|X{2,}")


def eta_squared(values: np.ndarray, groups: np.ndarray, sources: np.ndarray) -> float:
    """Within-source eta squared of ``groups``: with source means removed, the share of
    the remaining sum of squares that the group means (of the demeaned values) explain.
    0 when nothing varies within sources."""
    demeaned = values.astype(np.float64).copy()
    for s in np.unique(sources):
        mask = sources == s
        demeaned[mask] -= demeaned[mask].mean()
    total = float(np.sum(demeaned**2))
    if total <= 1e-12:
        return 0.0
    between = 0.0
    for g in np.unique(groups):
        mask = groups == g
        between += mask.sum() * float(demeaned[mask].mean()) ** 2
    return between / total


def permutation_null(
    values: np.ndarray, groups: np.ndarray, sources: np.ndarray, n: int, seed: int
) -> np.ndarray:
    """Eta squared under ``n`` within-source shuffles of the group labels."""
    rng = np.random.default_rng(local_rng(seed, "manipulation-null").getrandbits(63))
    out = np.empty(n)
    shuffled = groups.copy()
    blocks = [np.flatnonzero(sources == s) for s in np.unique(sources)]
    for i in range(n):
        for idx in blocks:
            shuffled[idx] = groups[rng.permutation(idx)]
        out[i] = eta_squared(values, shuffled, sources)
    return out


@dataclass(frozen=True)
class ManipulationRow:
    """One factor (a persona axis or the hedge direction) on one measure."""

    factor: str
    measure: str
    kind: str  # "cue" (must move when realised) or "content" (must not move)
    eta_squared: float
    null_p95: float
    realised: bool
    level_means: dict[str, float]

    @property
    def passed(self) -> bool:
        if self.kind == "content":
            return self.eta_squared <= MAX_CONTENT_ETA
        if not self.realised:
            return True  # reported, not required
        return self.eta_squared >= MIN_ETA and self.eta_squared > self.null_p95

    def as_dict(self) -> dict[str, object]:
        return {
            "factor": self.factor,
            "measure": self.measure,
            "kind": self.kind,
            "realised": bool(self.realised),
            "eta_squared": round(self.eta_squared, 4),
            "null_p95": round(self.null_p95, 4),
            "level_means": {k: round(v, 3) for k, v in self.level_means.items()},
            "passed": bool(self.passed),
        }


def _measures(text: str, engine: RulesEngine) -> dict[str, float]:
    cues = style_cues(text, engine.lexicon)
    return {
        "informal_markers_per_100": cues.informal_markers,
        "sophisticated_words_per_100": cues.sophisticated,
        "flesch_kincaid_grade": flesch_kincaid_grade(text),
        "facts": float(len(extract_facts(text))),
        "named_entities": float(len(_ENTITY.findall(text))),
    }


def _row(
    factor: str,
    measure: str,
    kind: str,
    realised: bool,
    values: np.ndarray,
    groups: np.ndarray,
    sources: np.ndarray,
    n_permutations: int,
    seed: int,
) -> ManipulationRow:
    null = permutation_null(values, groups, sources, n_permutations, seed)
    return ManipulationRow(
        factor,
        measure,
        kind,
        eta_squared(values, groups, sources),
        float(np.quantile(null, 0.95)) if n_permutations else float("nan"),
        realised,
        {str(g): float(values[groups == g].mean()) for g in np.unique(groups)},
    )


def manipulation_table(
    sources: Sequence[Source],
    engine: RulesEngine | None = None,
    *,
    seed: int = 0,
    n_permutations: int = 200,
) -> list[ManipulationRow]:
    """Per persona axis: eta squared of its level on its declared cue and on the content
    measures, with the permutation null; then the hedge direction on hedge density."""
    engine = engine or RulesEngine()
    grid = load_grid()
    personas = grid.personas()
    rows: list[dict[str, float]] = []
    labels: list[dict[str, str]] = []
    source_ids: list[str] = []
    for source in sources:
        for persona in personas:
            text = engine.transform(source, PersonaSpec(persona=persona.as_dict()), seed).text
            rows.append(_measures(text or "", engine))
            labels.append(persona.as_dict())
            source_ids.append(source.id)
    src = np.asarray(source_ids)
    table: list[ManipulationRow] = []
    for axis in grid.axes:
        groups = np.asarray([lab[axis.name] for lab in labels])
        realised = engine.profiles.realised(axis.name)
        measure = DECLARED.get(axis.name, "informal_markers_per_100")
        for name, kind in ((measure, "cue"), *((c, "content") for c in CONTENT)):
            values = np.asarray([r[name] for r in rows])
            table.append(
                _row(axis.name, name, kind, realised, values, groups, src, n_permutations, seed)
            )
    table.append(hedge_row(sources, engine, seed=seed, n_permutations=n_permutations))
    return table


def hedge_row(
    sources: Sequence[Source],
    engine: RulesEngine | None = None,
    *,
    seed: int = 0,
    n_permutations: int = 200,
) -> ManipulationRow:
    """Hedged vs confident variants of each source: eta squared of the direction on hedge
    minus booster density, with its permutation null."""
    engine = engine or RulesEngine()
    scores, directions, hedge_sources = [], [], []
    for source in sources:
        for direction in ("hedged", "confident"):
            text = engine.transform(source, HedgeSpec(direction=direction), seed).text or ""
            score = hedge_score(text, engine.lexicon)
            scores.append(score.density - score.booster_density)
            directions.append(direction)
            hedge_sources.append(source.id)
    return _row(
        "hedge_direction",
        "hedge_minus_booster_per_100",
        "cue",
        True,
        np.asarray(scores),
        np.asarray(directions),
        np.asarray(hedge_sources),
        n_permutations,
        seed,
    )


@dataclass(frozen=True)
class CollapseRow:
    """Standardisation of one source's guises in one style: the share of guises whose
    standardised text equals the standardised source (the collapse rate), whether the
    standardised source is a fixed point (idempotence)."""

    source_id: str
    style: str
    collapse: float
    idempotent: bool
    standard: str


def collapse_rates(
    sources: Sequence[Source],
    engine: RulesEngine | None = None,
    *,
    styles: Sequence[str] = ("plain", "formal", "simple"),
    seed: int = 0,
) -> list[CollapseRow]:
    """For every source and style: standardise the source and each of its persona
    guises, and count how many guises land on the standardised source."""
    engine = engine or RulesEngine()
    personas = load_grid().personas()
    rows = []
    for source in sources:
        guises = [
            engine.transform(source, PersonaSpec(persona=p.as_dict()), seed).text or ""
            for p in personas
        ]
        for style in styles:
            spec = StandardiseSpec(style=style)
            standard = engine.transform(source, spec, seed).text or ""
            again = engine.transform(Source(id=source.id, text=standard), spec, seed).text
            same = sum(
                engine.transform(Source(id=source.id, text=g), spec, seed).text == standard
                for g in guises
            )
            rows.append(
                CollapseRow(source.id, style, same / len(guises), again == standard, standard)
            )
    return rows
