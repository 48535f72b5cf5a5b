"""The LLM engine: every transform as a versioned prompt to one chat model (one "bank").

It implements the same :class:`~guisekit.engines.Engine` contract as the rules engine, so
plans, runs, exports and the standardiser never branch on which engine they hold. Many
engines (banks) may share one :class:`~guisekit.llm.runner.LLMRunner`, and with it the
cache, the rate limits and the accounting.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from guisekit.errors import ConfigError, ResourceError
from guisekit.ids import variant_id
from guisekit.llm.loop import run_sync
from guisekit.llm.prompts import load_prompt
from guisekit.llm.refs import ModelRef
from guisekit.llm.runner import Executor, LLMRequest
from guisekit.llm.schemas import RewriteOutput, schema
from guisekit.llm.store import Answer
from guisekit.models import EngineTask, Provenance, Source, Variant
from guisekit.transforms import TransformSpec, all_transforms, entry_of

__all__ = ["PROMPTS", "LLMEngine", "prompt_variables"]


def _prompts() -> dict[str, str]:
    # newest version of each transform wins; a transform without a prompt is rules-only
    return {t.name: t.prompt for t in all_transforms() if t.prompt is not None}


PROMPTS: dict[str, str] = _prompts()
"""The prompt each transform renders (its newest version unless the config pins one)."""


def prompt_variables(source: Source, spec: TransformSpec) -> dict[str, Any]:
    """The template variables of ``spec`` applied to ``source``."""
    return entry_of(spec).variables(source.text, spec)


class LLMEngine:
    """Rewrites through one chat model; see the module docstring."""

    name = "llm"

    def __init__(
        self,
        model: ModelRef,
        runner: Executor,
        prompt_versions: Mapping[str, int] | None = None,
    ) -> None:
        model.api_key()  # a missing key is an error now, before any work starts
        self.model = model
        self.runner = runner
        pinned = dict(prompt_versions or {})
        self._prompts = {
            transform: load_prompt(prompt_id, pinned.get(transform))
            for transform, prompt_id in PROMPTS.items()
        }
        for template in self._prompts.values():  # every rewrite prompt answers RewriteOutput
            if schema(template.output_schema) is not RewriteOutput:
                raise ResourceError(
                    f"prompt {template.id} answers {template.output_schema}, not a rewrite",
                    hint="a transform's prompt must use output_schema: rewrite.v1",
                )

    @property
    def config(self) -> dict[str, Any]:
        """Model identity and prompt versions: part of every variant id."""
        return {
            "engine": "llm",
            **self.model.identity(),
            "prompts": {t: p.version for t, p in self._prompts.items()},
        }

    def request(self, source: Source, spec: TransformSpec, seed: int) -> LLMRequest | None:
        """The call that makes ``spec``'s variant of ``source`` (none for identity)."""
        entry = entry_of(spec)
        if entry.name == "identity":
            return None
        template = self._prompts.get(spec.transform)
        if template is None:
            raise ConfigError(
                f"the llm engine has no prompt for transform {entry.id}",
                hint="run it with the rules engine",
            )
        return LLMRequest(
            model=self.model,
            prompt=template.render(**entry.variables(source.text, spec)),
            sample=seed,
            check=None if entry.llm_check is None else entry.llm_check(source.text, spec),
        )

    async def run(
        self,
        tasks: Sequence[EngineTask],
        seed: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> list[Variant]:
        """Make every task's variant; failures become ``error``/``refused`` variants."""
        requests = [self.request(source, spec, seed) for source, spec, _ in tasks]
        sent = [r for r in requests if r is not None]
        if progress is not None and len(sent) < len(tasks):
            progress(len(tasks) - len(sent))
        answers = await self.runner.arun(
            sent, None if progress is None else (lambda _answer: progress(1))
        )
        by_key = {r.key: a for r, a in zip(sent, answers, strict=True)}
        return [
            self._variant(source, spec, key, seed, None if r is None else by_key[r.key])
            for (source, spec, key), r in zip(tasks, requests, strict=True)
        ]

    def run_tasks(
        self,
        tasks: Sequence[EngineTask],
        seed: int = 0,
        progress: Callable[[int], None] | None = None,
    ) -> list[Variant]:
        """Blocking :meth:`run`."""
        return run_sync(self.run(tasks, seed, progress))

    def transform(self, source: Source, spec: TransformSpec, seed: int = 0) -> Variant:
        key = variant_id(source.id, spec, self.config, seed)
        return self.run_tasks([(source, spec, key)], seed)[0]

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]:
        tasks = [
            (source, spec, variant_id(source.id, spec, self.config, seed))
            for source in sources
            for spec in specs
        ]
        return self.run_tasks(tasks, seed)

    def _variant(
        self, source: Source, spec: TransformSpec, key: str, seed: int, answer: Answer | None
    ) -> Variant:
        if answer is None:  # identity: no call
            return Variant(
                source_id=source.id,
                variant_id=key,
                spec=spec,
                text=source.text,
                provenance=Provenance(engine="llm", model=self.model.bank, seed=seed),
            )
        template = self._prompts[spec.transform]
        # the runner validated the answer against the prompt's schema: read it typed
        typed = RewriteOutput.model_validate(answer.value) if answer.status == "ok" else None
        details: dict[str, Any] = {
            "changes": [] if typed is None else list(typed.changes),
            "attempts": answer.attempts,
            "request_key": answer.key,
        }
        llm_details = entry_of(spec).llm_details
        if llm_details is not None and typed is not None:
            details.update(llm_details(source.text, typed.text, spec))
        provenance = Provenance(
            engine="llm",
            model=self.model.bank,
            params=self.model.identity(),
            prompt_id=template.id,
            prompt_version=template.version_label,
            seed=seed,
            usage=answer.usage,
            elapsed_ms=answer.elapsed_ms,
            details=details,
        )
        return Variant(
            source_id=source.id,
            variant_id=key,
            spec=spec,
            text=None if typed is None else typed.text,
            status=answer.status,
            reason=answer.reason,
            provenance=provenance,
        )
