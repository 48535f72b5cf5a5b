"""One chunk of a corpus run: sources x specs -> finished rows. The per-chunk map function.

:func:`corpus_chunk` is a plain top-level function from a :class:`CorpusChunk` (plain,
picklable data) to a :class:`ChunkRows` (plain, picklable data). It is the one function
every executor calls: this process for ``--workers 1``, the local process pool of
:mod:`guisekit.parallel`, or a distributed engine's map over partitions. It

1. makes the chunk's variants (the rules engine, seeded per source and spec, so a chunk
   gives the same variants wherever and whenever it runs), or takes variants an LLM
   engine already made;
2. fact-checks each variant against its source, extracting each source's facts once;
3. measures each source once and each distinct variant text once (an unchanged text
   reuses its source's measures), adding the shifts to the chunk's summary totals;
4. encodes the corpus and fact-report rows as JSON lines (the bytes the export writes).

Nothing in it depends on which process runs it or what ran before it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from guisekit.corpus.export import fact_row, variant_row
from guisekit.corpus.run import Tally, enforce_validation
from guisekit.corpus.summary import SummaryTotals
from guisekit.facts import FactCheckResult, compare_facts, extract_facts
from guisekit.models import Provenance, Source, Variant
from guisekit.transforms import TransformSpec

__all__ = ["ChunkRows", "CorpusChunk", "chunk_key", "corpus_chunk", "encode_row"]

JOURNAL_SCHEMA = "corpus-chunk-1"
"""Part of every chunk key: a change to what a chunk's rows hold must bump it, so a
resume journal never replays rows of the old shape."""


def encode_row(row: dict[str, Any]) -> str:
    """One output row as a JSON line (without the newline), as ``write_rows`` writes it."""
    return json.dumps(row, ensure_ascii=False, default=str)


def chunk_key(keys: Sequence[str], sources: Sequence[Source]) -> str:
    """Stable identity of a chunk: its variant ids and its sources' texts (an edited
    source keeps its id, so its text must be part of the key), with the row schema."""
    digest = hashlib.sha256(JOURNAL_SCHEMA.encode())
    for key in keys:
        digest.update(b"\0" + key.encode())
    for source in sources:
        digest.update(b"\1" + source.text.encode("utf-8", "surrogatepass"))
    return "c-" + digest.hexdigest()[:32]


@dataclass(frozen=True)
class CorpusChunk:
    """Some sources of a plan under every spec, with the variant ids the plan gave them.

    ``keys`` are source-major (``keys[i * len(specs) + j]`` is source ``i`` under spec
    ``j``). Give ``engine`` (a picklable CPU engine: the rules engine pickles as its
    settings) to make the variants in the chunk, or ``variants`` (in key order) when an
    engine already made them."""

    index: int
    key: str
    seed: int
    specs: tuple[TransformSpec, ...]
    sources: tuple[Source, ...]
    keys: tuple[str, ...]
    engine: Any = None
    variants: tuple[Variant, ...] | None = None


@dataclass(frozen=True)
class ChunkRows:
    """What a chunk contributes to the outputs: its rows as JSON lines, its summary
    totals, how many variants ended in each status and each failure's reason."""

    index: int
    key: str
    keys: tuple[str, ...]
    corpus: tuple[str, ...]
    facts: tuple[str, ...]
    totals: SummaryTotals
    statuses: dict[str, int]
    failures: tuple[tuple[str, str | None], ...]

    def to_json(self) -> dict[str, Any]:
        """Everything but the rows, for the resume journal."""
        return {
            "totals": self.totals.to_json(),
            "statuses": self.statuses,
            "failures": [list(f) for f in self.failures],
        }


_ENGINES: dict[str, Any] = {}


def _engine(engine: Any) -> Any:
    """This process's copy of ``engine``: the first one unpickled here is kept, so its
    caches (operator rates per spec, loaded profiles) stay warm across chunks."""
    key = json.dumps(engine.config, sort_keys=True, default=str)
    return _ENGINES.setdefault(key, engine)


def _make(chunk: CorpusChunk) -> list[Variant]:
    if chunk.variants is not None:
        return list(chunk.variants)
    if chunk.engine is None:
        raise ValueError("a corpus chunk needs an engine or variants")
    tasks = [
        (source, spec, chunk.keys[i * len(chunk.specs) + j])
        for i, source in enumerate(chunk.sources)
        for j, spec in enumerate(chunk.specs)
    ]
    engine = _engine(chunk.engine)
    try:
        made = engine.run_tasks(tasks, chunk.seed)
    except Exception as exc:  # an engine without per-task recording: fail every task
        reason = f"{type(exc).__name__}: {exc}"
        made = [
            Variant(
                source_id=s.id,
                variant_id=k,
                spec=p,
                text=None,
                status="error",
                reason=reason,
                provenance=Provenance(engine=getattr(engine, "name", "?"), seed=chunk.seed),
            )
            for s, p, k in tasks
        ]
    return [enforce_validation(v) for v in made]


def corpus_chunk(chunk: CorpusChunk) -> ChunkRows:
    """Make, check, measure and encode one chunk (see the module docstring)."""
    variants = _make(chunk)
    sources = {s.id: s for s in chunk.sources}
    source_facts: dict[str, list[Any]] = {}
    tally = Tally()
    statuses: dict[str, int] = {}
    failures: list[tuple[str, str | None]] = []
    corpus: list[str] = []
    facts: list[str] = []
    for variant in variants:
        source = sources[variant.source_id]
        check: FactCheckResult | None = None
        if variant.text is not None:
            if source.id not in source_facts:
                source_facts[source.id] = extract_facts(source.text)
            check = compare_facts(
                source_facts[source.id],
                extract_facts(variant.text),
                original_text=source.text,
                rewrite_text=variant.text,
            )
        tally.add(variant, source, check)
        statuses[variant.status] = statuses.get(variant.status, 0) + 1
        if variant.status != "ok":
            failures.append((variant.status, variant.reason))
        corpus.append(encode_row(variant_row(variant)))
        facts.append(encode_row(fact_row(variant, check)))
    return ChunkRows(
        index=chunk.index,
        key=chunk.key,
        keys=tuple(v.variant_id for v in variants),
        corpus=tuple(corpus),
        facts=tuple(facts),
        totals=tally.totals,
        statuses=statuses,
        failures=tuple(failures),
    )
