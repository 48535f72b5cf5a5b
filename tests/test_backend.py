"""One backend: every model job in a process shares one runner per answer cache."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from guisekit.backend import BankSettings, open_backend, shared_runner
from guisekit.corpus import build_plan, run_plan
from guisekit.corpus.plan import CorpusConfig
from guisekit.engines import EngineConfig, make_engines
from guisekit.errors import ConfigError, validate
from guisekit.llm.refs import ModelRef
from guisekit.standardise.gate import LLMGateAuditor
from guisekit.testing import KeyedFakeChatModel, StubReply
from guisekit.testing.audit_responder import answer_audit
from guisekit.testing.responders import chat_responder

ROOT = Path(__file__).parents[1]
MODEL = "openai:gpt-4o-mini"


class OneModel:
    """Chat factory of a fake that rewrites (corpus prompts) and audits (gate prompts)."""

    def __init__(self) -> None:
        self.made: list[KeyedFakeChatModel] = []

    def _reply(self, messages: Sequence[BaseMessage]) -> StubReply:
        user = next((str(m.content) for m in messages if m.type == "human"), "")
        if "<text_a>" in user:
            return answer_audit(user, "stub-careful")
        return chat_responder(messages)

    def __call__(self, ref: ModelRef, logprobs: bool) -> KeyedFakeChatModel:
        fake = KeyedFakeChatModel(responder=self._reply, model_name=ref.name)
        self.made.append(fake)
        return fake


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


def test_the_gate_auditor_and_a_corpus_run_share_one_store_and_one_rpm_budget(
    tmp_path: Path, keys: None
) -> None:
    factory = OneModel()
    cache = tmp_path / "llm-cache.sqlite"
    config = CorpusConfig.model_validate(
        {
            "sources": {"path": str(ROOT / "examples/data/complaints.jsonl"), "limit": 2},
            "engine": {"name": "llm", "models": [MODEL], "cache": str(cache)},
            "transforms": [{"transform": "hedge", "direction": "hedged"}],
            "output": {"dir": str(tmp_path / "out")},
        }
    )
    engines = make_engines(config.engine, tmp_path, factory)
    # what `guisekit serve --gate-auditor MODEL --gate-cache CACHE` builds
    gate = LLMGateAuditor.from_model(MODEL, cache=cache, chat_factory=factory)
    runner = engines[0].runner  # type: ignore[attr-defined]
    assert gate.executor is runner
    result = run_plan(build_plan(config, engines), engines)
    assert [v.status for v in result.variants] == ["ok", "ok"]

    import asyncio

    verdict = asyncio.run(
        gate("I paid $35.00 on 03/14/2023.", "I did not pay $35.00 on 03/14/2023.")
    )
    assert verdict.material
    # one store, one limiter (the model's RPM budget) and one account for both jobs
    assert list(runner._limiters) == ["openai:gpt-4o-mini"]
    assert runner.tally["openai:gpt-4o-mini"].requests == 3
    assert sum(len(f.calls) for f in factory.made) == 3
    assert runner.store.path == cache.resolve()


def test_another_cache_is_another_runner(tmp_path: Path) -> None:
    a = shared_runner(tmp_path / "a.sqlite")
    assert shared_runner(tmp_path / "a.sqlite") is a
    assert shared_runner(str(tmp_path / "a.sqlite")) is a
    assert shared_runner(tmp_path / "b.sqlite") is not a


def test_a_closed_store_is_reopened_not_reused(tmp_path: Path) -> None:
    first = shared_runner(tmp_path / "c.sqlite")
    first.store.close()
    again = shared_runner(tmp_path / "c.sqlite")
    assert again is not first and again.store.get("nothing") is None


@pytest.mark.parametrize(
    ("bank", "message"),
    [
        ({"runner": {"concurrency": 0}}, "engine.runner.concurrency: Input should be greater"),
        ({"runner": {"workers": 2}}, "engine.runner.workers: Extra inputs are not permitted"),
        (
            {"mode": "batch", "batch": {"poll_interval_s": -1}},
            "engine.batch.poll_interval_s: Input should be greater than 0",
        ),
    ],
)
def test_bad_bank_settings_are_one_line_errors_located_in_the_config(
    tmp_path: Path, bank: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        open_backend(BankSettings.model_validate(bank), tmp_path / "x.sqlite", where="engine")
    assert message in info.value.one_line()


def test_engine_and_audit_configs_share_the_bank_settings() -> None:
    from guisekit.audit.config import AuditConfig

    assert issubclass(EngineConfig, BankSettings) and issubclass(AuditConfig, BankSettings)


def test_validate_locates_the_first_error() -> None:
    with pytest.raises(ConfigError) as info:
        validate(BankSettings, {"mode": "slow"}, where="audit.yaml:")
    assert info.value.one_line().startswith("audit.yaml: mode: Input should be 'online' or 'batch'")
    with pytest.raises(ConfigError) as info:
        validate(BankSettings, {"cache": 3}, where="engine")
    assert info.value.location == "engine.cache"
