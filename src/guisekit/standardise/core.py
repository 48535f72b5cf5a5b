"""The Standardiser: rewrite inputs into one canonical style, never letting a fact change.

Every candidate passes the exact fact check (:func:`guisekit.facts.check_facts`) and, when
one is configured, a second auditor; a candidate that fails either, or an engine call that
fails, gives the original text back with ``fallback`` set and the reasons.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

from guisekit.engines import Engine, EngineConfig, make_engine
from guisekit.errors import ConfigError, InputError
from guisekit.facts import FactCheckResult, SeverityPolicy, check_facts
from guisekit.ids import stable_hash
from guisekit.models import Source, Variant
from guisekit.redact import Redactor
from guisekit.specs import StandardiseSpec, StandardStyle
from guisekit.standardise.cache import CacheInfo, ResultCache
from guisekit.standardise.coalesce import Coalescer
from guisekit.standardise.results import (
    FactGate,
    GateAuditor,
    GateVerdict,
    StandardiseResult,
    StyleResult,
)
from guisekit.tables import DEFAULT_MAX_CHARS

if TYPE_CHECKING:
    from langchain_core.runnables import Runnable

    from guisekit.standardise.runnable import (
        RunnableInput,
        StandardiserResultRunnable,
        StandardiserRunnable,
    )

__all__ = ["FallbackOn", "Standardiser"]

FallbackOn = Literal["warn", "fail"]
_STYLES: frozenset[str] = frozenset(get_args(StandardStyle))
_T = TypeVar("_T")
_MAX_REASON_CHARS = 500


@dataclass
class _Job:
    """One (text, style) pair that was not in the cache, on its way through the gates."""

    text: str
    style: StandardStyle
    variant: Variant | None = None
    error: str | None = None
    check: FactCheckResult | None = None
    audit: GateVerdict | None = None
    audit_error: str | None = None
    gate_ms: float = 0.0
    reasons: list[str] = field(default_factory=list)


def _off_loop(func: Callable[[], _T]) -> _T:
    """Call ``func`` here, or in a helper thread when this thread runs an event loop: an
    engine or auditor may call ``asyncio.run``, which a running loop forbids (notebooks,
    sync calls from async code)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return func()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(func).result()


class Standardiser:
    """Rewrites texts into canonical styles behind a fact gate.

    Parameters
    ----------
    engine:
        Any :class:`~guisekit.engines.Engine`; the offline rules engine by default.
    styles:
        Styles every call produces unless it names its own; the first is the primary one,
        whose text a single-style caller uses.
    seed:
        Passed to the engine, so the same text gives the same candidate.
    gate_auditor:
        Optional second gate, asked only about candidates that passed the exact check.
    cache_size:
        Results kept per (text, style); 0 disables the cache. Engine failures and auditor
        errors are not cached, so a transient failure is retried on the next call.
    fallback_on:
        ``"warn"`` (default) falls back on any fact discrepancy, warnings included (an
        ambiguous date read another way); ``"fail"`` only on a failing verdict. It is the
        ``fail_on`` of the exact check's :class:`~guisekit.facts.SeverityPolicy`, the same
        policy object ``check-facts`` and the audit screen use (``self.policy``).
    max_chars:
        Longest text accepted; longer ones raise :class:`~guisekit.errors.InputError`.
    redactor:
        Cleans free-text reasons; by default it blanks the values of credential-named
        environment variables (``*_API_KEY``, ``*_TOKEN`` ...).
    """

    def __init__(
        self,
        engine: Engine | None = None,
        styles: Sequence[StandardStyle] = ("plain",),
        seed: int = 0,
        gate_auditor: GateAuditor | None = None,
        cache_size: int = 1024,
        *,
        fallback_on: FallbackOn = "warn",
        max_chars: int = DEFAULT_MAX_CHARS,
        redactor: Redactor | None = None,
    ) -> None:
        if cache_size < 0:
            raise ConfigError("must be 0 or more", location="cache_size")
        if fallback_on not in ("warn", "fail"):
            raise ConfigError(
                f"unknown value {fallback_on!r}",
                location="fallback_on",
                hint="use 'warn' or 'fail'",
            )
        self.engine: Engine = engine if engine is not None else make_engine(EngineConfig())
        self.styles = self._resolve_styles(styles)
        self.seed = seed
        self.gate_auditor = gate_auditor
        self.fallback_on: FallbackOn = fallback_on
        self.policy = SeverityPolicy(fail_on=fallback_on)
        self.max_chars = max_chars
        self.redactor = redactor if redactor is not None else Redactor.from_environ()
        auditor = None if gate_auditor is None else _name_of(gate_auditor)
        # The engine's config is fixed once built; hashing it once keeps lookups cheap.
        self._settings_key = (
            self.engine.name,
            stable_hash(self.engine.name, self.engine.config),
            seed,
            fallback_on,
            auditor,
        )
        self._cache = ResultCache(cache_size)
        self._engine_calls = Coalescer(self._run_engine)

    # --- public API ----------------------------------------------------------------------

    def standardise(
        self, text: str, styles: Sequence[StandardStyle] | None = None
    ) -> StandardiseResult:
        """Standardise one text into ``styles`` (default: the instance's)."""
        return self.standardise_many([text], styles)[0]

    def standardise_many(
        self, texts: Sequence[str], styles: Sequence[StandardStyle] | None = None
    ) -> list[StandardiseResult]:
        """Standardise texts in order; the engine gets one batch per style, and calls from
        several threads take turns (engines need not be thread-safe)."""
        started = time.perf_counter()
        checked, chosen = self._check_texts(texts), self._pick_styles(styles)
        found, jobs = self._lookup(checked, chosen)
        if jobs:
            _off_loop(lambda: self._engine_calls.run(jobs))
        if self.gate_auditor is not None and any(self._needs_audit(j) for j in jobs):
            _off_loop(lambda: asyncio.run(self._audit_all(jobs)))
        return self._assemble(checked, chosen, found, jobs, started)

    async def astandardise(
        self, text: str, styles: Sequence[StandardStyle] | None = None
    ) -> StandardiseResult:
        """Async :meth:`standardise`: the engine runs in a worker thread."""
        return (await self.astandardise_many([text], styles))[0]

    async def astandardise_many(
        self, texts: Sequence[str], styles: Sequence[StandardStyle] | None = None
    ) -> list[StandardiseResult]:
        """Async :meth:`standardise_many`: the (synchronous) engine runs in a worker thread
        of the loop's default executor, one call at a time; texts of concurrent calls that
        arrive meanwhile go to the engine together in the next call. Auditors are awaited
        on the loop."""
        started = time.perf_counter()
        checked, chosen = self._check_texts(texts), self._pick_styles(styles)
        found, jobs = self._lookup(checked, chosen)
        if jobs:
            await self._engine_calls.arun(jobs)
        if self.gate_auditor is not None:
            await self._audit_all(jobs)
        return self._assemble(checked, chosen, found, jobs, started)

    def as_runnable(self) -> StandardiserRunnable:
        """A langchain-core Runnable: str (or ``{"text": ...}``) in, the text to use out."""
        from guisekit.standardise.runnable import StandardiserRunnable

        return StandardiserRunnable(self)

    def as_result_runnable(self) -> StandardiserResultRunnable:
        """Like :meth:`as_runnable`, returning the full :class:`StandardiseResult`."""
        from guisekit.standardise.runnable import StandardiserResultRunnable

        return StandardiserResultRunnable(self)

    def __or__(self, other: Any) -> Runnable[RunnableInput, Any]:
        """``standardiser | decision_chain``: pipe the text to use into ``other``."""
        chain: Runnable[RunnableInput, Any] = self.as_runnable() | other
        return chain

    def check_text(self, text: str) -> str:
        """``text`` if the standardiser accepts it, else :class:`InputError` saying why."""
        return self._check_texts([text])[0]

    def cache_info(self) -> CacheInfo:
        return self._cache.info()

    def clear_cache(self) -> None:
        self._cache.clear()

    # --- steps ---------------------------------------------------------------------------

    @staticmethod
    def _resolve_styles(styles: Sequence[StandardStyle]) -> tuple[StandardStyle, ...]:
        chosen = tuple(styles)
        if not chosen:
            raise ConfigError("give at least one style", location="styles")
        unknown = [s for s in chosen if s not in _STYLES]
        if unknown:
            raise ConfigError(
                f"unknown style {unknown[0]!r}",
                location="styles",
                hint=f"choose from {', '.join(sorted(_STYLES))}",
            )
        if len(set(chosen)) != len(chosen):
            raise ConfigError("a style is listed twice", location="styles")
        return chosen

    def _pick_styles(self, styles: Sequence[StandardStyle] | None) -> tuple[StandardStyle, ...]:
        return self.styles if styles is None else self._resolve_styles(styles)

    def _check_texts(self, texts: Sequence[str]) -> list[str]:
        if isinstance(texts, str):
            raise InputError(
                "expected a list of texts, got one string",
                hint="use standardise() for a single text",
            )
        checked = list(texts)
        for i, text in enumerate(checked):
            where = f"texts[{i}]" if len(checked) > 1 else "text"
            if not isinstance(text, str):
                raise InputError(f"{where}: expected a string, got {type(text).__name__}")
            if not text.strip():
                raise InputError(f"{where}: the text is empty or whitespace only")
            if len(text) > self.max_chars:
                raise InputError(
                    f"{where}: {len(text):,} characters, over the limit of {self.max_chars:,}",
                    hint="split the text or raise max_chars",
                )
        return checked

    def _key(self, text: str, style: str) -> tuple[Any, ...]:
        return (*self._settings_key, style, text)

    def _lookup(
        self, texts: list[str], styles: tuple[StandardStyle, ...]
    ) -> tuple[dict[tuple[str, str], StyleResult], list[_Job]]:
        found: dict[tuple[str, str], StyleResult] = {}
        jobs: dict[tuple[str, str], _Job] = {}
        for text in texts:
            for style in styles:
                if (text, style) in found or (text, style) in jobs:
                    continue
                hit = self._cache.get(self._key(text, style))
                if hit is not None:
                    found[text, style] = hit
                else:
                    jobs[text, style] = _Job(text, style)
        return found, list(jobs.values())

    def _run_engine(self, jobs: list[_Job]) -> None:
        """Engine call and exact gate for every job (sync: may run in a worker thread)."""
        for style in dict.fromkeys(j.style for j in jobs):
            group = [j for j in jobs if j.style == style]
            sources = [Source(id=_source_id(j.text), text=j.text) for j in group]
            try:
                variants = self.engine.transform_batch(
                    sources, [StandardiseSpec(style=style)], self.seed
                )
            except Exception as exc:  # any engine failure falls back; the caller sees why
                for job in group:
                    job.error = f"engine raised {type(exc).__name__}: {exc}"
                continue
            if len(variants) != len(group):
                for job in group:
                    job.error = f"engine returned {len(variants)} variants for {len(group)}"
                continue
            for job, variant in zip(group, variants, strict=True):
                job.variant = variant
                if variant.status != "ok" or variant.text is None:
                    job.error = f"engine {variant.status}: {variant.reason or 'no text'}"
                    continue
                started = time.perf_counter()
                job.check = check_facts(job.text, variant.text, self.policy)
                job.gate_ms = (time.perf_counter() - started) * 1000
                if not job.check.passed:
                    job.reasons = [
                        f"fact check {job.check.verdict}: {d.describe()}"
                        for d in self.policy.blocking(job.check.discrepancies)
                    ]

    def _needs_audit(self, job: _Job) -> bool:
        return job.error is None and job.check is not None and not job.reasons

    async def _audit_all(self, jobs: list[_Job]) -> None:
        await asyncio.gather(*(self._audit(j) for j in jobs if self._needs_audit(j)))

    async def _audit(self, job: _Job) -> None:
        if self.gate_auditor is None or job.variant is None or job.variant.text is None:
            return
        started = time.perf_counter()
        try:
            job.audit = await self.gate_auditor(job.text, job.variant.text)
        except Exception as exc:  # an auditor that cannot answer does not pass a candidate
            job.audit_error = f"auditor raised {type(exc).__name__}: {exc}"
        job.gate_ms += (time.perf_counter() - started) * 1000
        if job.audit_error is not None:
            job.reasons = [job.audit_error]
        elif job.audit is not None and job.audit.material:
            job.reasons = [f"auditor: {r}" for r in job.audit.reasons] or [
                "auditor: material change"
            ]

    def _finish(self, job: _Job) -> StyleResult:
        variant = job.variant
        candidate = None if variant is None or job.error is not None else variant.text
        reasons = [job.error] if job.error is not None else job.reasons
        fallback = bool(reasons)
        result = StyleResult(
            style=job.style,
            text=job.text if fallback or candidate is None else candidate,
            candidate=candidate,
            fallback=fallback,
            reasons=tuple(_clip(self.redactor(r)) for r in reasons),
            status=variant.status if variant is not None else "error",
            fact_check=None if job.check is None else FactGate.of(job.check),
            audit=job.audit,
            engine=self.engine.name,
            model=None if variant is None else variant.provenance.model,
            prompt_version=None if variant is None else variant.provenance.prompt_version,
            latency_ms=round(
                (0.0 if variant is None else variant.provenance.elapsed_ms) + job.gate_ms, 3
            ),
        )
        if job.error is None and job.audit_error is None:
            self._cache.put(self._key(job.text, job.style), result)
        return result

    def _assemble(
        self,
        texts: list[str],
        styles: tuple[StandardStyle, ...],
        found: dict[tuple[str, str], StyleResult],
        jobs: list[_Job],
        started: float,
    ) -> list[StandardiseResult]:
        made = {(j.text, j.style): self._finish(j) for j in jobs}
        latency = round((time.perf_counter() - started) * 1000, 3)
        results = []
        for text in texts:
            per_style = tuple(
                found[text, s] if (text, s) in found else made[text, s] for s in styles
            )
            cached = all((text, s) in found for s in styles)
            results.append(StandardiseResult.from_styles(text, per_style, latency, cached))
        return results


def _clip(reason: str) -> str:
    # Provider errors can quote a whole prompt (the user's text): keep reasons short.
    return reason if len(reason) <= _MAX_REASON_CHARS else reason[: _MAX_REASON_CHARS - 3] + "..."


def _source_id(text: str) -> str:
    # Derived from the text, so the engine's per-source generator (and the candidate) is
    # the same for the same text on every call.
    return "std-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _name_of(auditor: GateAuditor) -> str:
    name = getattr(auditor, "name", None) or getattr(auditor, "__qualname__", None)
    return str(name or type(auditor).__qualname__)
