"""Batch APIs of the stub: OpenAI files + batches and Anthropic Message Batches, in memory.

A batch does no work until it is looked at: the first retrieve after ``batch_delay_s``
answers every item with the responder (each item with its own fault draw) and ends the
batch. Polling clients therefore see validating/in_progress, then the final state.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from guisekit.testing import stub_anthropic, stub_openai
from guisekit.testing.stub_models import InvalidRequest
from guisekit.testing.stub_state import StubState

__all__ = ["AnthropicBatches", "OpenAIBatches", "parse_multipart"]

_DAY = 24 * 3600
_DISPOSITION = re.compile(r'(\w+)="([^"]*)"')


def parse_multipart(content_type: str, body: bytes) -> dict[str, tuple[str | None, bytes]]:
    """Fields of a ``multipart/form-data`` body: name -> (filename or None, data).

    Hand-rolled because Starlette's form parser needs ``python-multipart``, which guisekit
    does not depend on; the OpenAI SDK sends nothing beyond plain parts.
    """
    match = re.search(r'boundary="?([^";]+)"?', content_type)
    if not content_type.startswith("multipart/form-data") or match is None:
        raise InvalidRequest("expected a multipart/form-data body")
    fields: dict[str, tuple[str | None, bytes]] = {}
    for part in body.split(b"--" + match.group(1).encode("latin-1"))[1:]:
        if part.startswith(b"--"):
            break
        head, _, data = part.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        params = {}
        for line in head.decode("utf-8").split("\r\n"):
            if line.lower().startswith("content-disposition:"):
                params = dict(_DISPOSITION.findall(line))
        if "name" in params:
            fields[params["name"]] = (params.get("filename"), data.removesuffix(b"\r\n"))
    return fields


def _jsonl(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(row) + "\n" for row in rows).encode("utf-8")


@dataclass
class _File:
    id: str
    filename: str
    purpose: str
    data: bytes
    created_at: int = field(default_factory=lambda: int(time.time()))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": "file",
            "bytes": len(self.data),
            "created_at": self.created_at,
            "filename": self.filename,
            "purpose": self.purpose,
            "status": "processed",
        }


@dataclass
class _OpenAIBatch:
    id: str
    input_file_id: str
    lines: list[tuple[str, str, Any]]
    metadata: dict[str, str] | None
    status: Literal["validating", "in_progress", "completed", "cancelling", "cancelled"] = (
        "validating"
    )
    created: float = field(default_factory=time.monotonic)
    times: dict[str, int] = field(default_factory=lambda: {"created_at": int(time.time())})
    counts: tuple[int, int] = (0, 0)
    output_file_id: str | None = None
    error_file_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        completed, failed = self.counts
        total = 0 if self.status == "validating" else len(self.lines)
        return {
            "id": self.id,
            "object": "batch",
            "endpoint": "/v1/chat/completions",
            "input_file_id": self.input_file_id,
            "completion_window": "24h",
            "status": self.status,
            "output_file_id": self.output_file_id,
            "error_file_id": self.error_file_id,
            "errors": None,
            "expires_at": self.times["created_at"] + _DAY,
            "metadata": self.metadata,
            "request_counts": {"total": total, "completed": completed, "failed": failed},
            **self.times,
        }


class OpenAIBatches:
    """OpenAI ``/v1/files`` and ``/v1/batches`` for ``/v1/chat/completions`` items."""

    def __init__(self) -> None:
        self._files: dict[str, _File] = {}
        self._batches: dict[str, _OpenAIBatch] = {}

    def upload(self, filename: str, purpose: str, data: bytes) -> dict[str, Any]:
        """Store a file; returns its file object."""
        stored = _File(id=f"file-{uuid.uuid4().hex}", filename=filename, purpose=purpose, data=data)
        self._files[stored.id] = stored
        return stored.to_json()

    def _file(self, file_id: str) -> _File:
        if file_id not in self._files:
            raise InvalidRequest(f"No such File object: {file_id}", status=404)
        return self._files[file_id]

    def file(self, file_id: str) -> dict[str, Any]:
        """The file object of ``file_id``."""
        return self._file(file_id).to_json()

    def content(self, file_id: str) -> bytes:
        """The bytes of ``file_id``."""
        return self._file(file_id).data

    def create(self, body: Any) -> dict[str, Any]:
        """Start a batch over an uploaded JSONL file; every line is checked now."""
        if not isinstance(body, dict) or not isinstance(body.get("input_file_id"), str):
            raise InvalidRequest("'input_file_id' is required")
        if body.get("endpoint") != "/v1/chat/completions":
            raise InvalidRequest("the stub batches only '/v1/chat/completions'")
        if body.get("completion_window") != "24h":
            raise InvalidRequest("'completion_window' must be '24h'")
        lines: list[tuple[str, str, Any]] = []
        text = self._file(body["input_file_id"]).data.decode("utf-8")
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except ValueError as exc:
                raise InvalidRequest(f"input line {number} is not JSON: {exc}") from exc
            if not isinstance(row, dict) or not isinstance(row.get("custom_id"), str):
                raise InvalidRequest(f"input line {number} needs a string 'custom_id'")
            lines.append((row["custom_id"], str(row.get("url")), row.get("body")))
        if len({custom_id for custom_id, _, _ in lines}) != len(lines):
            raise InvalidRequest("custom_id values must be unique within a batch")
        if not lines:
            raise InvalidRequest("the input file holds no requests")
        batch = _OpenAIBatch(
            id=f"batch_{uuid.uuid4().hex}",
            input_file_id=body["input_file_id"],
            lines=lines,
            metadata=body.get("metadata"),
        )
        self._batches[batch.id] = batch
        return batch.to_json()

    def _batch(self, batch_id: str) -> _OpenAIBatch:
        if batch_id not in self._batches:
            raise InvalidRequest(f"No batch found with id '{batch_id}'.", status=404)
        return self._batches[batch_id]

    def retrieve(self, batch_id: str, state: StubState) -> dict[str, Any]:
        """The batch, advanced by the time passed: validating -> in_progress -> completed."""
        batch = self._batch(batch_id)
        now = int(time.time())
        if batch.status == "validating":
            batch.status = "in_progress"
            batch.times["in_progress_at"] = now
        if batch.status == "in_progress" and (
            time.monotonic() - batch.created >= state.config.batch_delay_s
        ):
            self._complete(batch, state)
            batch.times |= {"finalizing_at": now, "completed_at": now}
            batch.status = "completed"
        if batch.status == "cancelling":
            batch.status = "cancelled"
            batch.times["cancelled_at"] = now
        return batch.to_json()

    def cancel(self, batch_id: str) -> dict[str, Any]:
        """Cancel a batch that has not ended; the next retrieve shows it cancelled."""
        batch = self._batch(batch_id)
        if batch.status in ("validating", "in_progress"):
            batch.status = "cancelling"
            batch.times["cancelling_at"] = int(time.time())
        return batch.to_json()

    def _complete(self, batch: _OpenAIBatch, state: StubState) -> None:
        done: list[dict[str, Any]] = []
        failed: list[dict[str, Any]] = []
        for custom_id, url, body in batch.lines:
            row: dict[str, Any] = {"id": f"batch_req_{uuid.uuid4().hex}", "custom_id": custom_id}
            request_id = f"req_{uuid.uuid4().hex}"
            try:
                if url != "/v1/chat/completions":
                    raise InvalidRequest(f"line url {url!r} is not '/v1/chat/completions'")
                request = stub_openai.parse_chat(body)
            except InvalidRequest as exc:
                body_400 = stub_openai.error_body(400, exc.message)
                response = {"status_code": 400, "request_id": request_id, "body": body_400}
                failed.append(row | {"response": response, "error": None})
                continue
            outcome = state.answer_item(request, body)
            if outcome.expired:
                expired = {
                    "code": "batch_expired",
                    "message": "This request could not be executed before the "
                    "completion window expired.",
                }
                failed.append(row | {"response": None, "error": expired})
            elif outcome.error is not None:
                status = {"status_code": 500, "request_id": request_id}
                body_500 = stub_openai.error_body(500, outcome.error)
                failed.append(row | {"response": status | {"body": body_500}, "error": None})
            else:
                completion = stub_openai.chat_completion(request, list(outcome.replies))
                response = {"status_code": 200, "request_id": request_id, "body": completion}
                done.append(row | {"response": response, "error": None})
        batch.counts = (len(done), len(failed))
        if done:
            batch.output_file_id = self.upload("batch_output.jsonl", "batch_output", _jsonl(done))[
                "id"
            ]
        if failed:
            batch.error_file_id = self.upload("batch_errors.jsonl", "batch_output", _jsonl(failed))[
                "id"
            ]


def _rfc3339(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


@dataclass
class _AnthropicBatch:
    id: str
    requests: list[tuple[str, Any]]
    status: Literal["in_progress", "canceling", "ended"] = "in_progress"
    created: float = field(default_factory=time.monotonic)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    ended_at: datetime | None = None
    cancel_initiated_at: datetime | None = None
    results: list[dict[str, Any]] = field(default_factory=list)
    results_url: str | None = None

    def to_json(self) -> dict[str, Any]:
        counts = dict.fromkeys(("succeeded", "errored", "expired", "canceled"), 0)
        for row in self.results:
            counts[row["result"]["type"]] += 1
        pending = 0 if self.status == "ended" else len(self.requests)
        return {
            "id": self.id,
            "type": "message_batch",
            "processing_status": self.status,
            "request_counts": {"processing": pending, **counts},
            "created_at": _rfc3339(self.created_at),
            "expires_at": _rfc3339(self.created_at + timedelta(days=1)),
            "ended_at": None if self.ended_at is None else _rfc3339(self.ended_at),
            "cancel_initiated_at": (
                None if self.cancel_initiated_at is None else _rfc3339(self.cancel_initiated_at)
            ),
            "archived_at": None,
            "results_url": self.results_url,
        }


class AnthropicBatches:
    """Anthropic ``/v1/messages/batches``: create, retrieve, cancel and results."""

    def __init__(self) -> None:
        self._batches: dict[str, _AnthropicBatch] = {}

    def create(self, body: Any) -> dict[str, Any]:
        """Start a batch; item params are checked when it runs, as the real API does."""
        requests = body.get("requests") if isinstance(body, dict) else None
        if not isinstance(requests, list) or not requests:
            raise InvalidRequest("requests: at least one request is required")
        items: list[tuple[str, Any]] = []
        for item in requests:
            if not isinstance(item, dict) or not isinstance(item.get("custom_id"), str):
                raise InvalidRequest("requests: each request needs a string 'custom_id'")
            items.append((item["custom_id"], item.get("params")))
        if len({custom_id for custom_id, _ in items}) != len(items):
            raise InvalidRequest("requests: custom_id values must be unique")
        batch = _AnthropicBatch(id=f"msgbatch_{uuid.uuid4().hex}", requests=items)
        self._batches[batch.id] = batch
        return batch.to_json()

    def _batch(self, batch_id: str) -> _AnthropicBatch:
        if batch_id not in self._batches:
            raise InvalidRequest(f"message batch {batch_id} not found", status=404)
        return self._batches[batch_id]

    def retrieve(self, batch_id: str, state: StubState, base_url: str) -> dict[str, Any]:
        """The batch, ended once ``batch_delay_s`` has passed (or cancelled)."""
        batch = self._batch(batch_id)
        due = time.monotonic() - batch.created >= state.config.batch_delay_s
        if batch.status == "canceling":
            batch.results = [
                {"custom_id": custom_id, "result": {"type": "canceled"}}
                for custom_id, _ in batch.requests
            ]
        elif batch.status == "in_progress" and due:
            batch.results = [
                self._run(custom_id, params, state) for custom_id, params in batch.requests
            ]
        if batch.status != "ended" and batch.results:
            batch.status = "ended"
            batch.ended_at = datetime.now(UTC)
            batch.results_url = f"{base_url}/v1/messages/batches/{batch.id}/results"
        return batch.to_json()

    def cancel(self, batch_id: str) -> dict[str, Any]:
        """Cancel a running batch; the next retrieve shows it ended, every item canceled."""
        batch = self._batch(batch_id)
        if batch.status == "in_progress":
            batch.status = "canceling"
            batch.cancel_initiated_at = datetime.now(UTC)
        return batch.to_json()

    def results(self, batch_id: str) -> bytes:
        """The JSONL results of an ended batch."""
        batch = self._batch(batch_id)
        if batch.status != "ended":
            raise InvalidRequest(f"message batch {batch_id} has not ended yet")
        return _jsonl(batch.results)

    @staticmethod
    def _run(custom_id: str, params: Any, state: StubState) -> dict[str, Any]:
        try:
            request = stub_anthropic.parse_messages(params)
        except InvalidRequest as exc:
            error = stub_anthropic.error_body(400, exc.message)
            return {"custom_id": custom_id, "result": {"type": "errored", "error": error}}
        outcome = state.answer_item(request, params)
        if outcome.expired:
            return {"custom_id": custom_id, "result": {"type": "expired"}}
        if outcome.error is not None:
            error = stub_anthropic.error_body(500, outcome.error)
            return {"custom_id": custom_id, "result": {"type": "errored", "error": error}}
        message = stub_anthropic.message(request, outcome.replies[0])
        return {"custom_id": custom_id, "result": {"type": "succeeded", "message": message}}
