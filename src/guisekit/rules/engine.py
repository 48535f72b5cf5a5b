"""The embedded rules engine: deterministic, offline, seeded rewriting.

A transform becomes a set of operator rates (a persona's profile, a hedge direction's
weights, a standardisation style's operator list). The text then goes through two
stages (words, then orthographic noise); in each, the active operators propose edits, the
resolver samples and de-overlaps them with a generator seeded from (seed, source id,
transform, stage), and the survivors are applied and recorded. Protected spans are found
once and carried through the stages, so no stage can touch a fact.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from guisekit.errors import ConfigError, validate
from guisekit.ids import variant_id
from guisekit.models import AppliedEdit, EngineTask, Provenance, Source, Variant
from guisekit.resources import read_yaml
from guisekit.rules.doc import Doc
from guisekit.rules.edits import (
    Edit,
    TrackingRandom,
    apply_edits,
    local_rng,
    resolve,
    shift_spans,
    tracking_rng,
)
from guisekit.rules.lexicon import RulesLexicon, default_lexicon
from guisekit.rules.operators import REGISTRY, STAGES, get_operator
from guisekit.rules.protect import protected_spans
from guisekit.transforms import RulesOutput, TransformSpec, entry_of

if TYPE_CHECKING:
    from guisekit.personas import Persona

__all__ = [
    "ENGINE_VERSION",
    "Feature",
    "OperatorTrial",
    "PersonaProfiles",
    "RulesEngine",
    "load_profiles",
]

ENGINE_VERSION = "rules.v1"
BUILTIN_PROFILES = "personas/profiles.yaml"


@functools.lru_cache(maxsize=256)
def analyse(text: str) -> Doc:
    """A source text's protected spans and word index, shared by every transform of it.

    A matched-guise corpus rewrites each source under dozens of specs; the first stage of
    each sees the same text, so its analysis is done once (Doc only ever adds to caches).
    """
    return Doc(text, protected_spans(text))


class Feature(BaseModel):
    """One persona feature: an operator's rate and the source documenting it for the group."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    rate: float = Field(ge=0.0, le=1.0)
    source: str = Field(min_length=1)


class PersonaProfiles(BaseModel):
    """Feature inventory of each persona level: ``levels[axis][level][operator]`` is a
    :class:`Feature` (or a bare rate, for user files without sources), and ``unrealised``
    names the axes the engine leaves unmarked, with the reason."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    levels: dict[str, dict[str, dict[str, Feature | float]]]
    unrealised: dict[str, str] = Field(default_factory=dict)

    def rates(self, persona: Persona) -> dict[str, float]:
        """The persona's operator rates: each level's profile, the higher rate winning."""
        merged: dict[str, float] = {}
        for axis, level in persona.levels:
            profile = self.levels.get(axis, {}).get(level)
            if profile is None:
                if axis in self.unrealised:
                    continue
                raise ConfigError(
                    f"no rules profile for level {level!r} of axis {axis!r}",
                    hint="add it to the persona profiles file (--profiles)",
                )
            for name, feature in profile.items():
                rate = feature.rate if isinstance(feature, Feature) else feature
                merged[name] = max(rate, merged.get(name, 0.0))
        return merged

    def realised(self, axis: str) -> bool:
        """Whether the engine marks ``axis`` (an axis with features and not declared
        unrealised)."""
        levels = self.levels.get(axis, {})
        return axis not in self.unrealised and any(levels.values())


def load_profiles(path: str | Path | None = None) -> PersonaProfiles:
    ref = BUILTIN_PROFILES if path is None else Path(path).resolve()
    profiles = validate(
        PersonaProfiles,
        read_yaml(ref),
        where=f"{ref}:",
        hint="see lexicons/personas/profiles.yaml for the format",
    )
    for axis, levels in profiles.levels.items():
        for level, features in levels.items():
            for name, feature in features.items():
                get_operator(name)
                rate = feature.rate if isinstance(feature, Feature) else feature
                if not 0.0 <= rate <= 1.0:
                    raise ConfigError(
                        f"rate {rate} outside [0, 1]",
                        location=f"{ref}: levels.{axis}.{level}.{name}",
                    )
    return profiles


@dataclass(frozen=True)
class OperatorTrial:
    """What one operator does to a text at rate 1.0, and why it did nothing if so."""

    operator: str
    original: str
    text: str
    edits: tuple[AppliedEdit, ...]
    proposed: int
    blocked: int

    @property
    def applied(self) -> bool:
        return bool(self.edits)

    @property
    def reason(self) -> str:
        if self.edits:
            return f"applied {len(self.edits)} edit(s)"
        if self.proposed and self.proposed == self.blocked:
            return (
                f"does not apply: all {self.proposed} candidate(s) touch protected spans "
                "(facts, numbers, quotes, e-mails, URLs)"
            )
        if self.proposed:
            return "does not apply: candidates overlapped each other and none survived"
        return f"does not apply: nothing in the text matches what {self.operator} rewrites"


class _Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    lexicons: tuple[str, ...] = Field(default=())
    profiles: str | None = None


class RulesEngine:
    """Rewrites sources under transform specs with rule operators; no network, no keys.

    Parameters
    ----------
    lexicons:
        Folders whose lexicon files extend the packaged ones (same file names).
    profiles:
        A persona profiles YAML file replacing the packaged one.
    """

    name = "rules"

    def __init__(self, lexicons: Sequence[str | Path] = (), profiles: str | Path | None = None):
        self.settings = _Settings(
            lexicons=tuple(str(p) for p in lexicons),
            profiles=None if profiles is None else str(profiles),
        )
        self.lexicon = (
            RulesLexicon(tuple(Path(p) for p in lexicons)) if lexicons else default_lexicon()
        )
        self._profiles_path = profiles
        self._profiles: PersonaProfiles | None = None
        self._rates: dict[str, dict[str, float]] = {}  # by spec JSON

    def __getstate__(self) -> dict[str, Any]:
        return {"settings": self.settings}

    def __setstate__(self, state: dict[str, Any]) -> None:
        settings: _Settings = state["settings"]
        self.__init__(settings.lexicons, settings.profiles)  # type: ignore[misc]

    @functools.cached_property
    def config(self) -> dict[str, Any]:
        """What the output depends on besides the spec and seed (part of variant ids)."""
        return {"engine": ENGINE_VERSION, **self.settings.model_dump()}

    @property
    def profiles(self) -> PersonaProfiles:
        if self._profiles is None:
            self._profiles = load_profiles(self._profiles_path)
        return self._profiles

    # --- public API ----------------------------------------------------------------------

    def transform(self, source: Source, spec: TransformSpec, seed: int = 0) -> Variant:
        """Rewrite one source under one spec."""
        started = time.perf_counter()
        key = (seed, source.id, spec.transform, spec.model_dump_json())
        entry = entry_of(spec)  # the spec's version selects the implementation
        if entry.rewrite is not None:
            out = entry.rewrite(self, source.text, spec, local_rng(*key, spec.transform))
        else:
            rates = self._rates.get(key[3])
            if rates is None:
                rates = self._rates[key[3]] = entry.rates(self, spec)
            text, edits = self._rewrite(source.text, rates, key, rounds=entry.rounds)
            out = RulesOutput(text, edits)
        return Variant(
            source_id=source.id,
            variant_id=variant_id(source.id, spec, self.config, seed),
            spec=spec,
            text=out.text,
            provenance=Provenance(
                engine="rules",
                params=out.params,
                seed=seed,
                edits=tuple(out.edits),
                elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
                details=out.details,
            ),
        )

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]:
        """Every source under every spec, source-major."""
        return [self.transform(source, spec, seed) for source in sources for spec in specs]

    async def run(
        self,
        tasks: Sequence[EngineTask],
        seed: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> list[Variant]:
        """The engine contract: :meth:`run_tasks` (CPU-bound and local, so it does not
        yield to the event loop)."""
        return self.run_tasks(tasks, seed, progress)

    def run_tasks(
        self,
        tasks: Sequence[EngineTask],
        seed: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> list[Variant]:
        """A plan's tasks one by one; a task that raises becomes an ``error`` variant with
        its reason, never a dropped one."""
        variants = []
        for source, spec, key in tasks:
            try:
                variant = self.transform(source, spec, seed)
            except Exception as exc:  # recorded per task; the run goes on
                variant = Variant(
                    source_id=source.id,
                    variant_id=key,
                    spec=spec,
                    text=None,
                    status="error",
                    reason=f"{type(exc).__name__}: {exc}",
                    provenance=Provenance(engine="rules", seed=seed),
                )
            variants.append(variant)
            if progress is not None:
                progress(1)
        return variants

    def rates(self, spec: TransformSpec) -> dict[str, float]:
        """Operator rates a spec runs with (empty for identity, fact edits and other
        transforms that rewrite by their own function)."""
        return entry_of(spec).rates(self, spec)

    def try_operator(self, name: str, text: str, seed: int = 0) -> OperatorTrial:
        """Run one operator alone at rate 1.0 on ``text`` (for tests and ``--explain``)."""
        op = get_operator(name)
        doc = Doc(text, protected_spans(text))
        rng = tracking_rng(seed, "try", name)
        proposals = sorted(op.propose(doc, self.lexicon, rng))
        free = [e for e in proposals if not doc.is_protected(e.start, e.end)]
        blocked = len(proposals) - len(free)
        accepted = resolve([(name, free)], {name: 1.0}, rng, shuffle=False)
        new_text, records = apply_edits(text, accepted)
        return OperatorTrial(
            name,
            text,
            new_text,
            tuple(AppliedEdit.model_validate(r) for r in records),
            len(proposals),
            blocked,
        )

    # --- machinery -----------------------------------------------------------------------

    def _propose(self, doc: Doc, name: str, rng: TrackingRandom) -> list[Edit]:
        """An operator's proposals that touch no protected span, in position order; reused
        across the specs of one source when they did not depend on the generator."""
        key = (name, self.lexicon)
        cached = doc.proposals.get(key)
        if cached is not None:
            return cached
        rng.drawn = False
        found = sorted(
            e
            for e in REGISTRY[name].propose(doc, self.lexicon, rng)
            if not doc.is_protected(e.start, e.end)
        )
        if not rng.drawn:
            doc.proposals[key] = found
        return found

    def _rewrite(
        self, text: str, rates: Mapping[str, float], key: tuple[Any, ...], *, rounds: int
    ) -> tuple[str, list[dict[str, Any]]]:
        """Run the stages; with ``rounds`` > 1, repeat until the text stops changing
        (deterministic transforms: this makes them idempotent)."""
        active = [name for name in rates if rates[name] > 0]
        for name in active:
            get_operator(name)
        deterministic = rounds > 1
        records: list[dict[str, Any]] = []
        source_doc = analyse(text) if active else None
        protected = source_doc.protected if source_doc else []
        step = 0
        for round_no in range(rounds):
            before = text
            for stage in STAGES:
                # standardise visits operators in its configured order (priority); guises in
                # name order, then shuffle what they keep
                names = [n for n in active if REGISTRY[n].stage == stage]
                if not deterministic:
                    names.sort()
                if not names:
                    continue
                doc = source_doc if source_doc and text == source_doc.text else Doc(text, protected)
                rng = local_rng(*key, stage, round_no)
                proposing = tracking_rng(*key, stage, round_no, "propose")
                groups = [(n, self._propose(doc, n, proposing)) for n in names]
                whole = frozenset(n for n in names if REGISTRY[n].whole_text)
                accepted = resolve(groups, rates, rng, shuffle=not deterministic, whole=whole)
                text, applied = apply_edits(text, accepted)
                if stage != STAGES[-1] or rounds > 1:
                    protected = shift_spans(protected, accepted)
                if applied:
                    for record in applied:
                        record["step"] = step
                    records += applied
                    step += 1
            if text == before:
                break
        return text, records
