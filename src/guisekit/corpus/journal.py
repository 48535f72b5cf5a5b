"""The resume journal of a streaming corpus run: finished chunks, kept until the set is out.

A rules-engine corpus of a million variants takes hours; a run killed at 90% used to leave
nothing. Each finished chunk is now journalled (its rows compressed, its summary totals,
its statuses, and which chunk holds each variant id) in one SQLite transaction, in the
same :class:`~guisekit.llm.store.Store` the LLM runner keeps its answers in. A re-run of
the same command replays the journalled chunks instead of redoing them and computes only
the rest, so its outputs are byte-identical to an uninterrupted run's. The journal lives
beside the output folder (``.<folder>.corpus-journal.sqlite``) and is deleted once the
output set is published.

A chunk's key hashes its variant ids (which include the spec, engine config and seed),
its sources' texts and the row schema (:func:`~guisekit.corpus.chunk.chunk_key`), so a
changed config or source never replays stale rows: it simply matches nothing.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from guisekit.corpus.chunk import ChunkRows, CorpusChunk
from guisekit.corpus.summary import SummaryTotals
from guisekit.llm.store import Store

__all__ = ["Journal", "journal_path"]


def journal_path(target: Path) -> Path:
    """Where the journal of a run writing to the folder ``target`` lives."""
    return target.parent / f".{target.name}.corpus-journal.sqlite"


class Journal:
    """Finished chunks of one output folder's run (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.store = Store(path)
        self.finished = self.store.chunk_keys()

    def load(self, chunk: CorpusChunk) -> ChunkRows:
        """The rows a finished chunk produced, exactly as it produced them."""
        found = self.store.chunk(chunk.key)
        if found is None:
            raise KeyError(chunk.key)
        blob, meta_text = found
        corpus, _, facts = zlib.decompress(blob).decode("utf-8").partition("\0")
        meta = json.loads(meta_text)
        return ChunkRows(
            index=chunk.index,
            key=chunk.key,
            keys=chunk.keys,
            corpus=tuple(corpus.split("\n")) if corpus else (),
            facts=tuple(facts.split("\n")) if facts else (),
            totals=SummaryTotals.from_json(meta["totals"]),
            statuses={k: int(v) for k, v in meta["statuses"].items()},
            failures=tuple((s, r) for s, r in meta["failures"]),
        )

    def save(self, rows: ChunkRows) -> None:
        """Journal a chunk just finished (JSON lines hold no raw newline or NUL)."""
        blob = zlib.compress(("\n".join(rows.corpus) + "\0" + "\n".join(rows.facts)).encode(), 1)
        self.store.put_chunk(rows.key, rows.keys, blob, json.dumps(rows.to_json()))
        self.finished.add(rows.key)

    def close(self) -> None:
        self.store.close()

    def discard(self) -> None:
        """Close and delete the journal (after the outputs are published)."""
        self.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
