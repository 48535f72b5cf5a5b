"""The LLM layer without a network: model refs, prompts, and the runner on a fake chat
model that answers by a hash of its input (never by call order)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from guisekit.errors import ConfigError, ResourceError
from guisekit.llm import LLMEngine, LLMRequest, LLMRunner, RunnerSettings, Store, load_prompt
from guisekit.llm.prompts import PromptTemplate
from guisekit.llm.refs import parse_model
from guisekit.models import Source
from guisekit.specs import parse_spec
from guisekit.testing import KeyedFakeChatModel, StubReply
from guisekit.testing.responders import chat_responder

SOURCE = Source(id="s1", text="I was charged $35.00 twice on 03/14/2023. Please refund it.")
PERSONA = parse_spec(
    {
        "transform": "persona",
        "persona": {"age": "young", "geography": "rural", "education": "college", "ses": "low"},
    }
)


@pytest.mark.parametrize(
    ("spelled", "provider", "name", "base_url"),
    [
        ("openai:gpt-4o-mini", "openai", "gpt-4o-mini", None),
        ("anthropic:claude-3-5-haiku-latest", "anthropic", "claude-3-5-haiku-latest", None),
        (
            "openai-compatible:llama3@http://127.0.0.1:8000/v1",
            "openai-compatible",
            "llama3",
            "http://127.0.0.1:8000/v1",
        ),
    ],
)
def test_model_references_parse(spelled, provider, name, base_url):
    ref = parse_model(spelled)
    assert (ref.provider, ref.name, ref.base_url) == (provider, name, base_url)
    assert ref.label == spelled


@pytest.mark.parametrize(
    ("spelled", "message"),
    [
        ("gpt-4o", "not `provider:name`"),
        ("mistral:large", "provider"),
        ("openai-compatible:llama3", "needs a base URL"),
        ({"model": "openai:gpt-4o", "temperature": 5}, "temperature"),
        ({"model": "openai:gpt-4o", "colour": "red"}, "colour"),
    ],
)
def test_bad_model_references_are_config_errors(spelled, message):
    with pytest.raises(ConfigError, match=message):
        parse_model(spelled)


def test_missing_key_is_one_line_error_naming_the_variable(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY is not set"):
        parse_model("anthropic:claude-x").api_key()
    monkeypatch.delenv("OPENAI_COMPATIBLE_API_KEY", raising=False)
    assert parse_model("openai-compatible:m@http://127.0.0.1:1/v1").api_key() == "not-needed"


def test_every_transform_prompt_renders_with_fidelity_rules_and_schema():
    for prompt_id in ("persona/rewrite", "hedge/rewrite", "accent/rewrite", "standardise/rewrite"):
        template = load_prompt(prompt_id)
        assert template.version >= 1 and template.output_schema == "rewrite.v1"
        values = {
            "text": "I paid $40.",
            "strength": 0.5,
            "article_drop_rate": 0.5,
            "marker_rate": 0.5,
            "persona": ["a writer"],
        }
        variables = {v: values.get(v, "x") for v in template.variables}
        system, user = template.render(**variables).messages
        assert "Keep every fact" in system.content
        assert '"text"' in system.content  # the JSON schema is spelled out
        assert "<text>\nI paid $40.\n</text>" in user.content


def test_missing_or_unknown_prompt_variables_are_errors():
    template = load_prompt("standardise/rewrite")
    with pytest.raises(ConfigError, match="missing variables \\['style'\\]"):
        template.render(text="hi")
    with pytest.raises(ConfigError, match="unexpected variables"):
        template.render(text="hi", style="plain", tone="warm")
    with pytest.raises(ResourceError, match="no version 9"):
        load_prompt("standardise/rewrite", 9)


def test_templates_are_sandboxed_and_strict():
    base = {
        "id": "t/x",
        "version": 1,
        "purpose": "p",
        "output_schema": "rewrite.v1",
        "variables": ["text"],
        "system": "s",
    }
    leaky = PromptTemplate(**base, user="{{ text.__class__.__mro__[1].__subclasses__() }}")
    with pytest.raises(ConfigError, match="failed to render"):
        leaky.render(text="hi")
    typo = PromptTemplate(**base, user="{{ txet }}")
    with pytest.raises(ConfigError, match="'txet' is undefined"):
        typo.render(text="hi")


def _runner(tmp_path: Path, fake: KeyedFakeChatModel, **settings) -> LLMRunner:
    return LLMRunner(
        Store(tmp_path / "cache.sqlite"), RunnerSettings(**settings), lambda ref, logprobs: fake
    )


def _request(text: str = SOURCE.text, model: str = "openai:gpt-4o-mini") -> LLMRequest:
    prompt = load_prompt("standardise/rewrite").render(text=text, style="plain")
    return LLMRequest(model=parse_model(model), prompt=prompt)


def test_runner_validates_caches_and_answers_in_input_order(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake = KeyedFakeChatModel(responder=chat_responder)
    runner = _runner(tmp_path, fake, concurrency=4)
    texts = [f"I paid ${n}.00 on 0{n}/01/2023. Fix it!!" for n in range(1, 9)]
    answers = runner.run([_request(t) for t in texts])
    assert [a.status for a in answers] == ["ok"] * 8
    for text, answer in zip(texts, answers, strict=True):
        assert answer.value is not None and answer.value["text"] != text
        assert text.split()[2] in answer.value["text"]  # the amount survives
    assert len(fake.calls) == 8
    again = _runner(tmp_path, fake).run([_request(t) for t in reversed(texts)])
    assert len(fake.calls) == 8, "a finished job must re-run without a single call"
    assert [a.value for a in again] == [a.value for a in reversed(answers)]
    assert all(a.cached for a in again)


def test_invalid_reply_is_reasked_with_the_error_then_accepted(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    def answer(messages: list[BaseMessage]) -> str:
        if len(messages) == 2:
            return '{"txt": "missing the right field"}'
        assert "text: Field required" in str(messages[-1].content)
        return json.dumps({"text": "I paid $35.00.", "changes": ["plain"]})

    fake = KeyedFakeChatModel(responder=answer)
    [result] = _runner(tmp_path, fake).run([_request()])
    assert (result.status, result.attempts, result.value["text"]) == ("ok", 2, "I paid $35.00.")
    assert result.usage.input_tokens > 0


@pytest.mark.parametrize(
    ("reply", "status", "reason"),
    [
        ("not json at all", "error", "invalid output (re-asks exhausted): the reply is not"),
        ("I'm sorry, but I can't help with that.", "refused", "I'm sorry"),
        (StubReply(text="Policy.", refusal=True), "refused", "Policy."),
    ],
)
def test_refusals_and_exhausted_reasks_are_recorded_not_dropped(
    tmp_path, monkeypatch, reply, status, reason
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake = KeyedFakeChatModel(default=reply)
    [result] = _runner(tmp_path, fake, max_reasks=2).run([_request()])
    assert result.status == status and result.reason is not None
    assert result.reason.startswith(reason)
    assert len(fake.calls) == (3 if status == "error" else 1)


def test_token_budget_stops_reasks(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake = KeyedFakeChatModel(default="nope")
    [result] = _runner(tmp_path, fake, max_reasks=5, token_budget=10).run([_request()])
    assert result.status == "error" and "token budget" in (result.reason or "")
    assert len(fake.calls) == 1


def test_missing_key_fails_before_any_call(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    from guisekit.llm import make_chat_model

    runner = LLMRunner(Store(tmp_path / "c.sqlite"), chat_factory=make_chat_model)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        runner.run([_request()])
    assert runner.store.count() == 0


def test_engine_banks_give_independent_variants_with_provenance(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    fake = KeyedFakeChatModel(responder=chat_responder)
    runner = _runner(tmp_path, fake)
    banks = [
        LLMEngine(parse_model(m), runner) for m in ("openai:gpt-4o-mini", "anthropic:claude-x")
    ]
    specs = [
        parse_spec({"transform": "identity"}),
        PERSONA,
        parse_spec({"transform": "fact_edit", "kind": "scale_amounts", "factor": 10}),
    ]
    results = [bank.transform_batch([SOURCE], specs, seed=0) for bank in banks]
    ids = [[v.variant_id for v in variants] for variants in results]
    assert not set(ids[0]) & set(ids[1]), "each bank must have its own variant ids"
    identity, persona, scaled = results[0]
    assert identity.text == SOURCE.text and identity.provenance.usage is None
    assert persona.status == "ok" and persona.text != SOURCE.text
    assert persona.provenance.prompt_id == "persona/rewrite"
    assert persona.provenance.prompt_version == "v2"  # the newest persona prompt
    assert persona.provenance.model == "openai:gpt-4o-mini"
    assert "$350.00" in (scaled.text or "")
    assert results[1][1].provenance.model == "anthropic:claude-x"


def test_refusal_becomes_a_refused_variant(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake = KeyedFakeChatModel(responder=chat_responder)
    engine = LLMEngine(parse_model("openai:gpt-4o-mini"), _runner(tmp_path, fake))
    source = Source(id="r", text="Please refund me [[refuse]] now.")
    [variant] = engine.transform_batch([source], [PERSONA])
    assert (variant.status, variant.text) == ("refused", None)
    assert "can't help" in (variant.reason or "")


def test_runner_is_usable_inside_a_running_loop(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake = KeyedFakeChatModel(responder=chat_responder)
    runner = _runner(tmp_path, fake)

    async def main():
        return await runner.arun([_request(), _request()])

    first, second = asyncio.run(main())
    assert first == second and len(fake.calls) == 1, "identical requests are sent once"
