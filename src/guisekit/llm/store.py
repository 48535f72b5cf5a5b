"""The SQLite store that is both the answer cache and the resume journal.

Each answer is committed the moment it arrives, keyed by a hash of everything that decides
it (model identity, rendered messages, prompt id and version, output schema, sample index).
It also remembers which structured-output mode each server accepted (see
:mod:`guisekit.llm.structured`).
The same store journals finished chunks of a rules-engine corpus run
(:mod:`guisekit.corpus.journal`), keyed by chunk and by variant id.
A re-run of a finished job therefore sends no request, and a run killed at any point loses
at most the calls in flight. Answers that failed without a usable reply from the model (the
provider was down and retries ran out, or it rejected the request) are journalled but not
served as cache hits, so a re-run retries them. Batch submissions are journalled before
polling, so a restart resumes them.

Nothing secret is stored: keys never enter a request's identity.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from guisekit.errors import OutputError
from guisekit.models import TokenUsage

__all__ = ["Answer", "AnswerStatus", "BatchRecord", "Store"]

AnswerStatus = Literal["ok", "refused", "truncated", "error"]
"""``truncated``: the reply stopped at the token limit even after a re-ask with more room."""

# Append-only, named migrations; PRAGMA user_version counts the ones applied.
_MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "answers",
        """CREATE TABLE answers (
            key TEXT PRIMARY KEY, model TEXT NOT NULL, prompt TEXT NOT NULL,
            status TEXT NOT NULL, value TEXT, raw TEXT, reason TEXT,
            input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
            attempts INTEGER NOT NULL, transient INTEGER NOT NULL, logprobs TEXT,
            elapsed_ms REAL NOT NULL, batch INTEGER NOT NULL, created REAL NOT NULL)""",
    ),
    (
        "batches",
        """CREATE TABLE batches (
            id TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL,
            keys TEXT NOT NULL, status TEXT NOT NULL, created REAL NOT NULL)""",
    ),
    (
        "output_modes",
        """CREATE TABLE output_modes (
            server TEXT PRIMARY KEY, mode TEXT NOT NULL, created REAL NOT NULL)""",
    ),
    # the corpus resume journal: a finished chunk's rows (compressed) and totals, and
    # which chunk holds each variant
    (
        "corpus_chunks",
        """CREATE TABLE corpus_chunks (
            key TEXT PRIMARY KEY, variants INTEGER NOT NULL, rows BLOB NOT NULL,
            meta TEXT NOT NULL, created REAL NOT NULL)""",
    ),
    (
        "corpus_variants",
        """CREATE TABLE corpus_variants (
            variant_id TEXT PRIMARY KEY, chunk TEXT NOT NULL)""",
    ),
)


class Answer(BaseModel):
    """What one request ended as. ``value`` is the validated object as JSON data."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    key: str
    model: str
    prompt: str
    status: AnswerStatus
    value: dict[str, Any] | None = None
    raw: str | None = None
    reason: str | None = None
    usage: TokenUsage = TokenUsage()
    attempts: int = Field(default=0, ge=0)
    transient: bool = False
    logprobs: list[dict[str, Any]] | None = None
    elapsed_ms: float = 0.0
    batch: bool = False
    cached: bool = False


class BatchRecord(BaseModel):
    """A submitted provider batch and the request keys it carries."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    provider: str
    model: str
    keys: tuple[str, ...]
    status: str


class Store:
    """A SQLite file (WAL mode) shared by every stage of a job; one writer at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Used from the LLM loop thread; every access is serialised by that loop.
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=10000")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise OutputError(
                f"{self.path}: cannot open the cache: {exc}",
                hint="point cache at a writable path, or delete a corrupt cache file",
            ) from None

    def _migrate(self) -> None:
        done = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        for index, (_, sql) in enumerate(_MIGRATIONS[done:], start=done + 1):
            self._db.execute("BEGIN")
            self._db.execute(sql)
            self._db.execute(f"PRAGMA user_version={index}")
            self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def get(self, key: str) -> Answer | None:
        """The final answer for ``key`` (transient failures do not count)."""
        row = self._db.execute(
            "SELECT * FROM answers WHERE key = ? AND transient = 0", (key,)
        ).fetchone()
        return None if row is None else _answer(row)

    def get_many(self, keys: Iterable[str]) -> dict[str, Answer]:
        """Final answers for those of ``keys`` that have one."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, Answer] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self._db.execute(
                f"SELECT * FROM answers WHERE transient = 0 AND key IN ({marks})", chunk
            ):
                found[row[0]] = _answer(row)
        return found

    def put(self, answer: Answer) -> None:
        """Commit one answer now (autocommit), replacing an earlier transient one."""
        self._db.execute(
            "INSERT OR REPLACE INTO answers VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                answer.key,
                answer.model,
                answer.prompt,
                answer.status,
                None if answer.value is None else json.dumps(answer.value, ensure_ascii=False),
                answer.raw,
                answer.reason,
                answer.usage.input_tokens,
                answer.usage.output_tokens,
                answer.attempts,
                int(answer.transient),
                None if answer.logprobs is None else json.dumps(answer.logprobs),
                answer.elapsed_ms,
                int(answer.batch),
                time.time(),
            ),
        )

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    def output_mode(self, server: str) -> str | None:
        """The structured-output mode a probe found to work for ``server``, if any."""
        row = self._db.execute(
            "SELECT mode FROM output_modes WHERE server = ?", (server,)
        ).fetchone()
        return None if row is None else str(row[0])

    def save_output_mode(self, server: str, mode: str) -> None:
        """Remember the mode that worked, so later runs skip the probe."""
        self._db.execute(
            "INSERT OR REPLACE INTO output_modes VALUES (?,?,?)", (server, mode, time.time())
        )

    def save_batch(self, record: BatchRecord) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO batches VALUES (?,?,?,?,?,?)",
            (
                record.id,
                record.provider,
                record.model,
                json.dumps(record.keys),
                record.status,
                time.time(),
            ),
        )

    def open_batches(self) -> Iterator[BatchRecord]:
        """Batches submitted but not yet joined back (resumed after a restart)."""
        for row in self._db.execute(
            "SELECT id, provider, model, keys, status FROM batches WHERE status = 'submitted' "
            "ORDER BY created"
        ).fetchall():
            yield BatchRecord(
                id=row[0],
                provider=row[1],
                model=row[2],
                keys=tuple(json.loads(row[3])),
                status=row[4],
            )

    # -- the corpus resume journal --------------------------------------------------------

    def put_chunk(self, key: str, variant_ids: Iterable[str], rows: bytes, meta: str) -> None:
        """Journal one finished corpus chunk and its variants in one transaction. A chunk
        journalled twice is an error: a finished chunk is never redone."""
        ids = list(variant_ids)
        self._db.execute("BEGIN")
        try:
            self._db.execute(
                "INSERT INTO corpus_chunks VALUES (?,?,?,?,?)",
                (key, len(ids), rows, meta, time.time()),
            )
            self._db.executemany(
                "INSERT OR REPLACE INTO corpus_variants VALUES (?,?)", ((v, key) for v in ids)
            )
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def chunk(self, key: str) -> tuple[bytes, str] | None:
        """A journalled chunk's rows and meta."""
        row = self._db.execute(
            "SELECT rows, meta FROM corpus_chunks WHERE key = ?", (key,)
        ).fetchone()
        return None if row is None else (bytes(row[0]), str(row[1]))

    def chunk_keys(self) -> set[str]:
        """Keys of every journalled corpus chunk."""
        return {str(r[0]) for r in self._db.execute("SELECT key FROM corpus_chunks")}

    def chunk_of(self, variant_id: str) -> str | None:
        """The journalled chunk that holds ``variant_id``."""
        row = self._db.execute(
            "SELECT chunk FROM corpus_variants WHERE variant_id = ?", (variant_id,)
        ).fetchone()
        return None if row is None else str(row[0])


def _answer(row: tuple[Any, ...]) -> Answer:
    return Answer(
        key=row[0],
        model=row[1],
        prompt=row[2],
        status=row[3],
        value=None if row[4] is None else json.loads(row[4]),
        raw=row[5],
        reason=row[6],
        usage=TokenUsage(input_tokens=row[7], output_tokens=row[8]),
        attempts=row[9],
        transient=bool(row[10]),
        logprobs=None if row[11] is None else json.loads(row[11]),
        elapsed_ms=row[12],
        batch=bool(row[13]),
        cached=True,
    )
