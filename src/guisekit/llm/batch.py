"""Batch mode: the same requests through the OpenAI Batch API or Anthropic Message Batches.

At scale a provider's batch endpoint halves the price and lifts rate limits. Requests are
grouped by model and chunked within provider limits; each batch id is journalled in the
store *before* polling, so a restarted process joins the batches it had submitted instead
of paying for them twice. Results are joined back by custom id (the request key), judged
exactly as online replies (validation, re-ask, refusal), and committed one by one. Items
that errored or expired, and replies that need a re-ask, go into the next round; after the
last round they are recorded as transient errors, so a later run retries them.

Request bodies and replies are converted by the same langchain chat model classes the
online path uses, so a batch request is byte-for-byte the online request.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, ConfigDict, Field

from guisekit.llm.loop import run_sync
from guisekit.llm.refs import ModelRef
from guisekit.llm.runner import LLMRequest, LLMRunner, ModelTally, failed, opening_messages
from guisekit.llm.store import Answer, BatchRecord
from guisekit.models import TokenUsage

__all__ = ["BatchRunner", "BatchSettings"]

OnAnswer = Callable[[Answer], None]
Outcome = AIMessage | str  # a reply, or why the item failed


class BatchSettings(BaseModel):
    """Polling and chunking for batch mode."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    poll_interval_s: float = Field(default=30.0, gt=0)
    chunk_size: int = Field(default=10_000, ge=1, le=50_000)
    max_rounds: int = Field(default=3, ge=1, description="Resubmissions of failed items + 1.")


class BatchRunner:
    """Runs requests through provider batch APIs, sharing the online runner's store,
    validation and accounting."""

    def __init__(self, runner: LLMRunner, settings: BatchSettings | None = None) -> None:
        self.runner = runner
        self.settings = settings or BatchSettings()
        self.store = runner.store
        self.tally = runner.tally
        self._clients: dict[str, Any] = {}

    def run(
        self, requests: Sequence[LLMRequest], on_answer: OnAnswer | None = None
    ) -> list[Answer]:
        return run_sync(self.arun(requests, on_answer))

    async def arun(
        self, requests: Sequence[LLMRequest], on_answer: OnAnswer | None = None
    ) -> list[Answer]:
        store = self.runner.store
        unique, done = self.runner.recall(requests, on_answer)
        pending = {k: r for k, r in unique.items() if k not in done}
        started = time.perf_counter()
        conversation = {k: opening_messages(r) for k, r in pending.items()}
        attempts = dict.fromkeys(pending, 0)
        usage = {k: TokenUsage() for k in pending}
        failures: dict[str, str] = {}

        def settle(key: str, outcome: Outcome) -> None:
            request = pending[key]
            attempts[key] += 1
            if isinstance(outcome, str):
                failures[key] = outcome
                return
            spent = _tokens(outcome)
            usage[key] = TokenUsage(
                input_tokens=usage[key].input_tokens + spent[0],
                output_tokens=usage[key].output_tokens + spent[1],
            )
            tally = self.runner.tally.setdefault(request.model.bank, ModelTally())
            tally.input_tokens += spent[0]
            tally.output_tokens += spent[1]
            tally.cost += request.model.prices.cost(*spent, batch=True)
            verdict = self.runner.judge(
                request, outcome, attempts[key], usage[key], started, batch=True
            )
            if isinstance(verdict, Answer):
                store.put(verdict)
                done[key] = verdict
                self.runner.report(verdict, on_answer)
            else:
                conversation[key] = [*conversation[key], *verdict.append]

        try:
            await self._resume(pending, done, settle)
            for _ in range(self.settings.max_rounds + self.runner.settings.max_reasks):
                todo = [k for k in pending if k not in done]
                if not todo:
                    break
                await self._round(todo, pending, conversation, settle)
        finally:
            clients, self._clients = self._clients, {}
            for client in clients.values():
                await client.close()
            await self.runner.aclose()
        for key in pending:
            if key not in done:
                answer = failed(
                    pending[key],
                    f"batch item failed in every round: {failures.get(key, 'no valid reply')}",
                    attempts[key],
                    usage[key],
                    started,
                    transient=True,
                    batch=True,
                )
                store.put(answer)
                done[key] = answer
                self.runner.report(answer, on_answer)
        return [done[r.key] for r in requests]

    async def _resume(
        self,
        pending: dict[str, LLMRequest],
        done: dict[str, Answer],
        settle: Callable[[str, Outcome], None],
    ) -> None:
        """Join the batches a killed run submitted, instead of paying for them twice."""
        for record in list(self.store.open_batches()):
            known = [k for k in record.keys if k in pending and k not in done]
            if known:
                outcomes = await self._collect(record, pending[known[0]].model)
                for key in known:
                    settle(key, outcomes.get(key, "missing from the batch results"))
            self.store.save_batch(record.model_copy(update={"status": "joined"}))

    async def _round(
        self,
        todo: list[str],
        pending: dict[str, LLMRequest],
        conversation: dict[str, list[BaseMessage]],
        settle: Callable[[str, Outcome], None],
    ) -> None:
        """Submit every open item (per model, in chunks), wait for all, judge each reply."""
        by_model: dict[str, list[str]] = {}
        for key in todo:
            by_model.setdefault(pending[key].model.bank, []).append(key)
        submitted = []
        for keys in by_model.values():
            for start in range(0, len(keys), self.settings.chunk_size):
                chunk = keys[start : start + self.settings.chunk_size]
                record = await self._submit(chunk, pending, conversation)
                self.store.save_batch(record)  # journalled before polling
                submitted.append((record, pending[chunk[0]].model))
        results = await asyncio.gather(*(self._collect(r, m) for r, m in submitted))
        for (record, _), outcomes in zip(submitted, results, strict=True):
            for key in record.keys:
                settle(key, outcomes.get(key, "missing from the batch results"))
            self.store.save_batch(record.model_copy(update={"status": "joined"}))

    def _client(self, model: ModelRef) -> Any:
        """The provider SDK client for batch endpoints (langchain has none), one per model."""
        if model.label not in self._clients:
            self._clients[model.label] = (
                _anthropic(model) if model.provider == "anthropic" else _openai(model)
            )
        return self._clients[model.label]

    def _chat(self, model: ModelRef) -> BaseChatModel:
        return self.runner._chat(model, False)

    async def _submit(
        self,
        keys: list[str],
        pending: dict[str, LLMRequest],
        conversation: dict[str, list[BaseMessage]],
    ) -> BatchRecord:
        model = pending[keys[0]].model
        chat = self._chat(model)
        # An explicit output mode is honoured; `auto` cannot probe inside a batch: prompt.
        mode = "prompt" if model.output == "auto" else model.output
        payloads = {
            k: chat._get_request_payload(  # type: ignore[attr-defined]
                conversation[k], **self.runner.call_kwargs(pending[k], mode)
            )
            for k in keys
        }
        tally = self.runner.tally.setdefault(model.bank, ModelTally())
        tally.requests += len(keys)
        if model.provider == "anthropic":
            client = self._client(model)
            batch = await client.messages.batches.create(
                requests=[
                    {"custom_id": k, "params": _anthropic_params(p)} for k, p in payloads.items()
                ]
            )
            batch_id = batch.id
        else:
            oai = self._client(model)
            lines = "\n".join(
                json.dumps(
                    {
                        "custom_id": k,
                        "method": "POST",
                        "url": "/v1/chat/completions",
                        "body": _anthropic_params(p),
                    }
                )
                for k, p in payloads.items()
            )
            upload = await oai.files.create(
                file=("batch.jsonl", io.BytesIO(lines.encode("utf-8"))), purpose="batch"
            )
            created = await oai.batches.create(
                input_file_id=upload.id, endpoint="/v1/chat/completions", completion_window="24h"
            )
            batch_id = created.id
        return BatchRecord(
            id=batch_id,
            provider=model.provider,
            model=model.bank,
            keys=tuple(keys),
            status="submitted",
        )

    async def _collect(self, record: BatchRecord, model: ModelRef) -> dict[str, Outcome]:
        """Poll ``record`` until it ends; each custom id's reply or failure reason."""
        chat = self._chat(model)
        outcomes: dict[str, Outcome] = {}
        if model.provider == "anthropic":
            client = self._client(model)
            while (await client.messages.batches.retrieve(record.id)).processing_status != "ended":
                await asyncio.sleep(self.settings.poll_interval_s)
            async for entry in await client.messages.batches.results(record.id):
                result = entry.result
                if result.type == "succeeded":
                    message = chat._format_output(result.message).generations[0].message  # type: ignore[attr-defined]
                    outcomes[entry.custom_id] = _ai(message)
                else:
                    outcomes[entry.custom_id] = f"batch item {result.type}"
            return outcomes
        oai = self._client(model)
        while True:
            batch = await oai.batches.retrieve(record.id)
            if batch.status in ("completed", "failed", "expired", "cancelled"):
                break
            await asyncio.sleep(self.settings.poll_interval_s)
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            content = await oai.files.content(file_id)
            for line in content.text.splitlines():
                if not line.strip():
                    continue
                item = json.loads(line)
                response = item.get("response") or {}
                if response.get("status_code") == 200:
                    result = chat._create_chat_result(response["body"])  # type: ignore[attr-defined]
                    outcomes[item["custom_id"]] = _ai(result.generations[0].message)
                else:
                    error = item.get("error") or response.get("body", {}).get("error") or {}
                    outcomes[item["custom_id"]] = f"batch item error: {error.get('message', error)}"
        return outcomes


def _ai(message: BaseMessage) -> AIMessage:
    if not isinstance(message, AIMessage):
        raise TypeError(f"batch result converted to {type(message).__name__}, not AIMessage")
    return message


def _tokens(reply: AIMessage) -> tuple[int, int]:
    meta = reply.usage_metadata
    return (0, 0) if meta is None else (int(meta["input_tokens"]), int(meta["output_tokens"]))


def _anthropic_params(payload: dict[str, Any]) -> dict[str, Any]:
    """langchain puts some parameters in ``extra_body`` (an SDK feature); a batch request
    carries them in its body (OpenAI) or ``params`` (Anthropic) itself."""
    params = {k: v for k, v in payload.items() if k != "extra_body"}
    params.update(payload.get("extra_body") or {})
    return params


def _openai(model: ModelRef) -> Any:
    import openai

    return openai.AsyncOpenAI(
        api_key=model.api_key(), base_url=model.resolved_base_url(), timeout=model.timeout
    )


def _anthropic(model: ModelRef) -> Any:
    import anthropic

    return anthropic.AsyncAnthropic(
        api_key=model.api_key(), base_url=model.resolved_base_url(), timeout=model.timeout
    )
