"""An audit job from config to files: check keys, read pairs, screen, report, write.

The order is what makes failures cheap: the domain, the prompt and every auditor's API
key are checked, and existing outputs refused, before any input is read or any call is
made; the outputs are all computed before the first file is written.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from guisekit.audit.auditor import LLMAuditor
from guisekit.audit.config import AuditConfig, make_executor
from guisekit.audit.domains import AuditDomain, load_domain
from guisekit.audit.html import render_html
from guisekit.audit.pairs import (
    AuditPair,
    corpus_file,
    load_corpus_pairs,
    load_pairs_file,
    load_sources,
    load_weights,
)
from guisekit.audit.report import AuditReport, build_report
from guisekit.audit.screen import AuditRun, screen_pairs
from guisekit.corpus.plan import load_config
from guisekit.errors import ConfigError, OutputError
from guisekit.llm.chat import ChatFactory
from guisekit.llm.refs import parse_model
from guisekit.llm.store import Answer
from guisekit.tables import atomic_writer, write_rows

__all__ = ["OUTPUT_NAMES", "AuditJob", "prepare_job", "read_report"]

OUTPUT_NAMES = ("results.jsonl", "report.json", "report.html")


@dataclass(frozen=True)
class AuditJob:
    """A checked audit, ready to run: its config, domain and auditors."""

    config: AuditConfig
    domain: AuditDomain
    auditors: tuple[LLMAuditor, ...]

    @property
    def outputs(self) -> dict[str, Path]:
        return {name: self.config.output_dir / name for name in OUTPUT_NAMES}

    def input_files(self) -> list[Path]:
        """The files the audit reads (hashed into its manifest): the pairs, or the corpus
        and its originals (the sources file, or the corpus config and its sources), and
        the weights."""
        config = self.config
        found = [config.path(v) for v in (config.pairs, config.weights) if v is not None]
        if config.corpus is not None:
            corpus = config.path(config.corpus)
            found.append(corpus_file(corpus) if corpus.is_dir() else corpus)
        if config.sources is not None:
            found.append(config.path(config.sources.path))
        if config.corpus_config is not None:
            path = config.path(config.corpus_config)
            found.append(path)
            if path.is_file():
                corpus_config = load_config(path)
                found.append(corpus_config.path(corpus_config.sources.path))
        return found

    def load_pairs(self) -> list[AuditPair]:
        """The pairs to screen, from the corpus and its sources or from the pairs file."""
        config = self.config
        if config.pairs is not None:
            return load_pairs_file(config.path(config.pairs))
        if config.sources is not None:
            originals = load_sources(
                config.path(config.sources.path),
                config.sources.id_column,
                config.sources.text_column,
            )
        else:
            corpus_config = load_config(config.path(config.corpus_config or ""))
            originals = load_sources(
                corpus_config.path(corpus_config.sources.path),
                corpus_config.sources.id_column,
                corpus_config.sources.text_column,
            )
        return load_corpus_pairs(config.path(config.corpus or ""), originals)

    def run(
        self,
        pairs: list[AuditPair],
        chat_factory: ChatFactory | None = None,
        on_answer: Callable[[Answer], None] | None = None,
    ) -> tuple[AuditRun, AuditReport]:
        """Screen ``pairs`` and build the report."""
        config = self.config
        weights = None if config.weights is None else load_weights(config.path(config.weights))
        executor = make_executor(config, chat_factory)
        try:
            run = screen_pairs(
                pairs,
                self.auditors,
                executor,
                threshold=config.validity_threshold,
                on_answer=on_answer,
            )
        finally:
            executor.store.close()
        report = build_report(
            run,
            domain=self.domain.name,
            prompt=self.auditors[0].prompt_label,
            weights=weights,
            resamples=config.resamples,
            seed=config.seed,
            level=config.level,
        )
        return run, report

    def write(
        self, run: AuditRun, report: AuditReport, *, overwrite: bool, folder: Path | None = None
    ) -> dict[str, Path]:
        """Write the per-pair results, ``report.json`` and ``report.html``, each atomically,
        into the output folder or ``folder`` (the command's hidden folder of an output set,
        published together with its manifest)."""
        paths = self.outputs
        if folder is not None:
            paths = {name: folder / name for name in paths}
        html = render_html(report)
        write_rows(paths["results.jsonl"], (r.row() for r in run.results), overwrite=overwrite)
        with atomic_writer(paths["report.json"], overwrite=overwrite) as tmp:
            tmp.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
        with atomic_writer(paths["report.html"], overwrite=overwrite) as tmp:
            tmp.write_text(html, encoding="utf-8")
        return paths


def prepare_job(config: AuditConfig, *, overwrite: bool) -> AuditJob:
    """Check everything that can fail before work starts: the domain, the prompt, the
    auditors and their API keys, and the outputs (refused unless ``overwrite``)."""
    domain = load_domain(config.domain)
    refs = [parse_model(a) for a in config.auditors]
    banks = [r.bank for r in refs]  # one model under two settings is two auditors
    if len(set(banks)) != len(banks):
        raise ConfigError(
            "the same auditor is listed twice with the same settings", location="auditors"
        )
    auditors = tuple(LLMAuditor(ref, domain, config.prompt_version) for ref in refs)
    job = AuditJob(config=config, domain=domain, auditors=auditors)
    existing = [p for p in job.outputs.values() if p.exists()]
    if existing and not overwrite:
        raise OutputError(
            f"{existing[0]} already exists", hint="pass --overwrite to replace the audit outputs"
        )
    return job


def read_report(path: Path) -> AuditReport:
    """Read a written ``report.json`` back (for tests and later analysis)."""
    return AuditReport.model_validate(json.loads(path.read_text(encoding="utf-8")))
