"""LLM Hinglish end to end against the stub server: the versioned prompt, validation of
every answer (Latin script, facts, Hindi share), and a re-ask when an answer fails it."""

from __future__ import annotations

import pytest

from guisekit.llm import LLMEngine, LLMRunner, Store, load_prompt
from guisekit.llm.refs import parse_model
from guisekit.models import Source
from guisekit.specs import parse_spec
from guisekit.testing import StubConfig, StubServer
from guisekit.testing.responders import rewrite_responder

TEXT = "I am a software engineer with 3 years of experience. How much should I ask for?"


@pytest.fixture
def engine(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with StubServer(StubConfig(), rewrite_responder) as stub:
        ref = parse_model({"model": "openai:stub-gpt", "base_url": stub.openai_base_url})
        yield LLMEngine(ref, LLMRunner(Store(tmp_path / "c.sqlite"))), stub


def test_prompt_asks_for_latin_script_and_keeps_facts():
    system, user = (
        load_prompt("hinglish/rewrite")
        .render(text="I got 12 LPA.", mix_ratio=0.5, spelling="clipped", script="latin")
        .messages
    )
    assert "Latin alphabet only" in system.content and "12 LPA stays 12 LPA" in system.content
    assert "h for hai" in system.content and "about 50%" in user.content


def test_hinglish_variant_is_validated_and_tagged(engine):
    llm, stub = engine
    [variant] = llm.transform_batch(
        [Source(id="s", text=TEXT)], [parse_spec({"transform": "hinglish"})]
    )
    assert variant.status == "ok" and "hoon" in (variant.text or "")
    details = variant.provenance.details
    assert details["validation"]["passed"] and details["attempts"] == 1
    tags = dict((w, t) for w, t in details["language_tags"])
    assert tags.get("hoon") == "hi" and tags.get("engineer") == "en"
    assert stub.stats().total_requests == 1


def test_devanagari_answer_is_reasked_then_accepted(engine):
    llm, stub = engine
    source = Source(id="d", text=TEXT + " [[devanagari]]")
    [variant] = llm.transform_batch([source], [parse_spec({"transform": "hinglish"})])
    assert variant.status == "ok" and variant.provenance.details["attempts"] == 2
    assert all(not ("\u0900" <= ch <= "\u097f") for ch in variant.text or "")
    assert stub.stats().total_requests == 2


def test_an_answer_that_never_validates_ends_as_an_error_with_the_reason(engine):
    llm, _ = engine
    spec = parse_spec({"transform": "hinglish", "min_hindi_share": 0.95, "max_hindi_share": 1.0})
    [variant] = llm.transform_batch([Source(id="m", text=TEXT)], [spec])
    assert variant.status == "error" and variant.text is None
    assert "mix: Hindi share" in (variant.reason or "")
