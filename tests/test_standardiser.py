"""The Standardiser in process: the fact gate and its fallbacks, the optional auditor, the
cache, multi-style mode, async calls, and the langchain-core runnables in a decision chain.

Engines here are small fakes implementing the ``Engine`` protocol, keyed by input (never
by call order); the default rules engine is used where the real standardisation matters.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, ValidationError

from guisekit.engines import EngineConfig, make_engine, make_engines
from guisekit.errors import ConfigError, InputError
from guisekit.facts import check_facts
from guisekit.models import Provenance, Source, Variant, VariantStatus
from guisekit.specs import StandardiseSpec, TransformSpec
from guisekit.standardise import (
    GateVerdict,
    Redactor,
    Standardiser,
    StandardiseResult,
    StyleResult,
)
from guisekit.standardise.coalesce import Coalescer
from guisekit.standardise.runnable import RunnableInput

INFORMAL = "I dont think the bank will refund the $40 fee!! I recieved it on 03/14/2023."
SHOUTY = "I dont want this card anymore!!"
AMOUNT = "I dont accept the $40 fee!!"
SECRET = "sk-test-9f8e7d6c5b4a3f2e1d0c"


def _tidy(text: str) -> str:
    """What the fakes do to a text: the informal cues a standardiser removes."""
    return text.replace("dont", "do not").replace("!!", ".")


def _scale_amounts(text: str) -> str:
    """A buggy rewrite: every dollar amount times ten."""
    return re.sub(r"\$(\d+)", lambda m: f"${Decimal(m.group(1)) * 10}", _tidy(text))


class FakeEngine:
    """An Engine whose candidate is ``rewrite(text)``; it can refuse, fail or raise, and
    records what it was asked (texts per batch)."""

    name = "fake"

    def __init__(
        self,
        rewrite: Callable[[str], str] = _tidy,
        *,
        status: VariantStatus = "ok",
        reason: str | None = None,
        raises: Exception | None = None,
        model: str = "fake-model-1",
    ) -> None:
        self.rewrite, self.status, self.reason, self.raises = rewrite, status, reason, raises
        self.model = model
        self.batches: list[list[tuple[str, str]]] = []

    @property
    def config(self) -> dict[str, Any]:
        return {"engine": "fake.v1", "model": self.model}

    @property
    def calls(self) -> int:
        return sum(len(b) for b in self.batches)

    def transform(self, source: Source, spec: TransformSpec, seed: int = 0) -> Variant:
        if self.raises is not None:
            raise self.raises
        asyncio.run(asyncio.sleep(0))  # like the LLM engine, which runs its own loop
        ok = self.status == "ok"
        return Variant(
            source_id=source.id,
            variant_id=f"v-{source.id}",
            spec=spec,
            text=self.rewrite(source.text) if ok else None,
            status=self.status,
            reason=None if ok else self.reason,
            provenance=Provenance(
                engine="llm", model=self.model, prompt_version="standardise.v1", seed=seed
            ),
        )

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]:
        sources = list(sources)
        self.batches.append(
            [(s.text, sp.style) for s in sources for sp in specs if isinstance(sp, StandardiseSpec)]
        )
        return [self.transform(s, sp, seed) for s in sources for sp in specs]


class KeyedAuditor:
    """A fake auditor keyed by input: material when the candidate mentions ``word`` and
    the original does not; records the pairs it was asked about."""

    name = "keyed-fake-auditor"

    def __init__(self, word: str = "refund", raises: Exception | None = None) -> None:
        self.word, self.raises = word, raises
        self.asked: list[tuple[str, str]] = []

    async def __call__(self, original: str, candidate: str, /) -> GateVerdict:
        self.asked.append((original, candidate))
        if self.raises is not None:
            raise self.raises
        added = self.word in candidate and self.word not in original
        return GateVerdict(
            material=added,
            reasons=(f"{self.word!r} was added",) if added else (),
            auditor=self.name,
        )


class DecisionModel(BaseChatModel):
    """A fake decision model keyed by input: it escalates complaints written informally
    ('dont', '!!'), the writing-style effect standardising removes; records what it saw."""

    seen: list[str] = Field(default_factory=list)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        text = str(messages[-1].content)
        self.seen.append(text)
        decision = "escalate" if ("dont" in text or "!!" in text) else "routine"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=decision))])

    @property
    def _llm_type(self) -> str:
        return "keyed-fake-decision"


def _rules_text(text: str, style: str = "plain") -> str:
    variant = make_engine(EngineConfig()).transform(
        Source(id="x", text=text),
        StandardiseSpec(style=style),  # type: ignore[arg-type]
    )
    assert variant.text is not None
    return variant.text


# --- the gate ----------------------------------------------------------------------------


@pytest.mark.parametrize("style", ["plain", "formal", "simple"])
def test_rules_engine_standardises_and_keeps_facts(style: str) -> None:
    result = Standardiser(styles=[style]).standardise(INFORMAL)  # type: ignore[list-item]
    assert result.text == _rules_text(INFORMAL, style) != INFORMAL
    assert "dont" not in result.text and "!!" not in result.text
    assert (result.original, result.candidate, result.style) == (INFORMAL, result.text, style)
    assert (result.fallback, result.reasons, result.status) == (False, (), "ok")
    assert result.fact_check is not None and result.fact_check.verdict == "pass"
    assert check_facts(INFORMAL, result.text).verdict == "pass"
    assert (result.engine, result.model, result.prompt_version) == ("rules", None, None)
    assert result.latency_ms > 0 and not result.cached


def test_changed_amount_falls_back_to_the_original_with_reasons() -> None:
    result = Standardiser(FakeEngine(_scale_amounts)).standardise(AMOUNT)
    assert result.fallback is True
    assert result.text == result.original == AMOUNT
    assert result.candidate == "I do not accept the $400 fee."
    assert result.reasons == ("fact check fail: money changed: '$40' -> '$400'",)
    assert result.fact_check is not None and result.fact_check.verdict == "fail"
    [found] = result.fact_check.discrepancies
    assert (found.change, found.kind, found.original, found.rewrite) == (
        "changed",
        "money",
        "$40",
        "$400",
    )
    assert (result.engine, result.model, result.prompt_version) == (
        "fake",
        "fake-model-1",
        "standardise.v1",
    )


@pytest.mark.parametrize(
    ("fallback_on", "falls_back", "reasons"),
    [
        (
            "warn",
            True,
            (
                "fact check warn: date changed: '3/4/2019' -> 'March 4, 2019' ('3/4/2019' could "
                "be 2019-03-04 or 2019-04-03 (day/month order not settled by the text; pass "
                "--date-order mdy or dmy))",
            ),
        ),
        ("fail", False, ()),
    ],
)
def test_fallback_on_sets_whether_warnings_fall_back(
    fallback_on: str, falls_back: bool, reasons: tuple[str, ...]
) -> None:
    # an ambiguous numeric date rewritten month-first: the one kind of change that warns
    engine = FakeEngine(lambda t: _tidy(t).replace("3/4/2019", "March 4, 2019"))
    std = Standardiser(engine, fallback_on=fallback_on)  # type: ignore[arg-type]
    result = std.standardise("I dont bank here since 3/4/2019!!")
    assert result.fact_check is not None and result.fact_check.verdict == "warn"
    assert (result.fallback, result.reasons) == (falls_back, reasons)
    expected = (
        "I dont bank here since 3/4/2019!!" if falls_back else "I do not bank here since March 4, 2019."
    )
    assert result.text == expected


@pytest.mark.parametrize(
    ("engine", "status", "reason"),
    [
        (
            FakeEngine(status="refused", reason="content policy"),
            "refused",
            "engine refused: content policy",
        ),
        (FakeEngine(status="error", reason="rate limited"), "error", "engine error: rate limited"),
        (FakeEngine(status="error"), "error", "engine error: no text"),
        (
            FakeEngine(raises=TimeoutError("provider timed out")),
            "error",
            "engine raised TimeoutError: provider timed out",
        ),
    ],
)
def test_failed_engine_call_falls_back_and_is_not_cached(
    engine: FakeEngine, status: str, reason: str
) -> None:
    std = Standardiser(engine)
    for _ in range(2):
        result = std.standardise(SHOUTY)
        assert (result.text, result.candidate, result.fallback) == (SHOUTY, None, True)
        assert (result.status, result.reasons, result.fact_check) == (status, (reason,), None)
    assert len(engine.batches) == 2  # retried, not served from the cache
    assert std.cache_info().size == 0


def test_long_reasons_are_clipped() -> None:
    result = Standardiser(FakeEngine(status="error", reason="x" * 2000)).standardise(SHOUTY)
    [reason] = result.reasons
    assert len(reason) == 500 and reason == "engine error: " + "x" * 483 + "..."


def test_engine_reasons_are_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    std = Standardiser(FakeEngine(status="error", reason=f"invalid api key {SECRET}"))
    result = std.standardise(SHOUTY)
    assert result.reasons == ("engine error: invalid api key [redacted]",)
    assert SECRET not in result.model_dump_json()


@pytest.mark.parametrize(
    ("environ", "extra", "text", "expected"),
    [
        ({"OPENAI_API_KEY": SECRET}, (), f"key {SECRET}!", "key [redacted]!"),
        ({"GUISEKIT_TOKEN": "tok-123456789"}, (), "tok-123456789", "[redacted]"),
        ({"AWS_SECRET_ACCESS_KEY": "abcdefgh12"}, (), "x abcdefgh12", "x [redacted]"),
        ({"HOME": "/home/someone"}, (), "/home/someone", "/home/someone"),  # not a secret
        ({"OPENAI_API_KEY": "short"}, (), "short", "short"),  # too short to redact safely
        ({}, ("extra-secret-1",), "extra-secret-1.", "[redacted]."),
        (
            {"A_TOKEN": "secret-abc", "B_TOKEN": "secret-abc-long"},
            (),
            "secret-abc-long",
            "[redacted]",
        ),
    ],
)
def test_redactor(
    environ: dict[str, str], extra: tuple[str, ...], text: str, expected: str
) -> None:
    assert Redactor.from_environ(environ, extra)(text) == expected


class ProviderFake(BaseChatModel):
    """A fake provider behind the project's LLM engine, keyed by input: answers the
    standardise prompt in its JSON schema, tidying the text and scaling dollar amounts."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        user = next(str(m.content) for m in messages if m.type == "human")
        found = re.search(r"<text>\n(.*?)\n</text>", user, re.DOTALL)
        assert found is not None, user
        answer = json.dumps({"text": _scale_amounts(found.group(1)), "changes": ["tidied"]})
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=answer))])

    @property
    def _llm_type(self) -> str:
        return "provider-fake"


def test_the_projects_llm_engine_plugs_in_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    config = EngineConfig(
        name="llm", models=("openai:gpt-4o-mini",), cache=str(tmp_path / "llm.sqlite")
    )
    [engine] = make_engines(config, tmp_path, chat_factory=lambda ref, logprobs: ProviderFake())
    try:
        std = Standardiser(engine)
        kept, fell_back = std.standardise_many([SHOUTY, AMOUNT])
        assert (kept.text, kept.fallback) == ("I do not want this card anymore.", False)
        assert (kept.engine, kept.model) == ("llm", "openai:gpt-4o-mini")
        assert kept.prompt_version is not None
        assert (fell_back.text, fell_back.fallback) == (AMOUNT, True)
        assert fell_back.candidate == "I do not accept the $400 fee."
        assert fell_back.reasons == ("fact check fail: money changed: '$40' -> '$400'",)
        again = asyncio.run(std.astandardise("I dont know!!"))
        assert again.text == "I do not know."
        assert SECRET not in kept.model_dump_json() + fell_back.model_dump_json()
    finally:
        engine.runner.store.close()  # type: ignore[attr-defined]


# --- the auditor -------------------------------------------------------------------------


def test_auditor_material_verdict_falls_back() -> None:
    auditor = KeyedAuditor("refund")
    std = Standardiser(FakeEngine(lambda t: _tidy(t) + " Please refund me."), gate_auditor=auditor)
    result = std.standardise(SHOUTY)
    assert (result.fallback, result.text) == (True, SHOUTY)
    assert result.reasons == ("auditor: 'refund' was added",)
    assert result.audit == GateVerdict(
        material=True, reasons=("'refund' was added",), auditor="keyed-fake-auditor"
    )
    assert result.fact_check is not None and result.fact_check.verdict == "pass"


def test_auditor_pass_keeps_the_candidate_and_is_not_asked_about_rejected_ones() -> None:
    auditor = KeyedAuditor("refund")
    std = Standardiser(FakeEngine(_scale_amounts), gate_auditor=auditor)
    kept, rejected = std.standardise_many([SHOUTY, AMOUNT])
    assert (kept.fallback, kept.text) == (False, "I do not want this card anymore.")
    assert kept.audit == GateVerdict(material=False, auditor="keyed-fake-auditor")
    assert (rejected.fallback, rejected.audit) == (True, None)
    assert auditor.asked == [(SHOUTY, "I do not want this card anymore.")]


def test_auditor_failure_falls_back_and_is_retried() -> None:
    auditor = KeyedAuditor(raises=RuntimeError(f"auditor down {SECRET}"))
    std = Standardiser(FakeEngine(), gate_auditor=auditor, redactor=Redactor((SECRET,)))
    for _ in range(2):
        result = std.standardise(SHOUTY)
        assert (result.fallback, result.text) == (True, SHOUTY)
        assert result.reasons == ("auditor raised RuntimeError: auditor down [redacted]",)
    assert len(auditor.asked) == 2


def test_sync_calls_work_inside_a_running_loop() -> None:
    # The engine and the auditor both call asyncio.run, which a running loop forbids.
    auditor = KeyedAuditor("refund")
    std = Standardiser(FakeEngine(), gate_auditor=auditor)

    async def inside_a_loop() -> StandardiseResult:
        return std.standardise(SHOUTY)  # sync call while this thread runs a loop

    result = asyncio.run(inside_a_loop())
    assert (result.text, result.fallback) == ("I do not want this card anymore.", False)
    assert len(auditor.asked) == 1


# --- cache, batches, styles, input -------------------------------------------------------


def test_cache_returns_identical_results_without_calling_the_engine() -> None:
    engine = FakeEngine()
    std = Standardiser(engine)
    first, second = std.standardise(SHOUTY), std.standardise(SHOUTY)
    assert (first.cached, second.cached) == (False, True)
    assert second.styles == first.styles
    assert engine.calls == 1
    assert std.cache_info()[:3] == (1, 1, 1)


def test_cache_is_least_recently_used_and_can_be_disabled() -> None:
    engine = FakeEngine()
    std = Standardiser(engine, cache_size=2)
    for text in ("a dont", "b dont", "a dont", "c dont"):  # "b" is the least recent
        std.standardise(text)
    assert engine.calls == 3
    std.standardise("a dont")
    assert engine.calls == 3
    std.standardise("b dont")
    assert engine.calls == 4
    off = Standardiser(engine, cache_size=0)
    off.standardise("a dont")
    off.standardise("a dont")
    assert engine.calls == 6 and off.cache_info().size == 0


def test_cache_key_includes_the_seed_and_engine_config() -> None:
    a = Standardiser(FakeEngine(model="m1"), seed=0)
    assert a._key("t", "plain") != Standardiser(FakeEngine(model="m1"), seed=1)._key("t", "plain")
    assert a._key("t", "plain") != Standardiser(FakeEngine(model="m2"))._key("t", "plain")
    assert a._key("t", "plain") == Standardiser(FakeEngine(model="m1"))._key("t", "plain")


def test_standardise_many_keeps_order_and_batches_per_style() -> None:
    engine = FakeEngine()
    std = Standardiser(engine, styles=("plain", "formal"))
    texts = ["one dont", "two!!", "one dont"]
    results = std.standardise_many(texts)
    assert [r.original for r in results] == texts
    assert [r.text for r in results] == ["one do not", "two.", "one do not"]
    assert engine.batches == [
        [("one dont", "plain"), ("two!!", "plain")],
        [("one dont", "formal"), ("two!!", "formal")],
    ]


def test_multi_style_returns_every_style_primary_first() -> None:
    std = Standardiser(styles=("formal", "plain", "simple"))
    result = std.standardise(INFORMAL)
    assert [s.style for s in result.styles] == ["formal", "plain", "simple"]
    assert [s.text for s in result.styles] == [
        _rules_text(INFORMAL, s) for s in ("formal", "plain", "simple")
    ]
    assert (result.style, result.text) == ("formal", result.styles[0].text)
    override = std.standardise(INFORMAL, styles=["simple"])
    assert [s.style for s in override.styles] == ["simple"] and override.cached


def test_multi_style_fallback_is_per_style() -> None:
    engine = FakeEngine(lambda t: t.replace("$40", "$400") if "$" in t else _tidy(t))
    std = Standardiser(engine, styles=("plain", "simple"))
    result = std.standardise(AMOUNT)
    assert [s.fallback for s in result.styles] == [True, True]
    assert all(s.text == AMOUNT for s in result.styles)


@pytest.mark.parametrize(
    ("styles", "message"),
    [
        ((), "styles: give at least one style"),
        (("fancy",), "styles: unknown style 'fancy'"),
        (("plain", "plain"), "styles: a style is listed twice"),
    ],
)
def test_bad_styles_raise_config_error(styles: tuple[str, ...], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        Standardiser(FakeEngine(), styles=styles)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=re.escape(message)):
        Standardiser(FakeEngine()).standardise("x", styles=styles)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        ([""], "text: the text is empty or whitespace only"),
        (["ok", " \n "], "texts[1]: the text is empty or whitespace only"),
        (["x" * 51], "text: 51 characters, over the limit of 50"),
        ([5], "text: expected a string, got int"),
        ("a string", "expected a list of texts, got one string"),
    ],
)
def test_bad_input_raises_input_error(texts: Any, message: str) -> None:
    std = Standardiser(FakeEngine(), max_chars=50)
    with pytest.raises(InputError, match=re.escape(message)):
        std.standardise_many(texts)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cache_size": -1}, "cache_size: must be 0 or more"),
        ({"fallback_on": "never"}, "fallback_on: unknown value 'never'"),
    ],
)
def test_bad_settings_raise_config_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        Standardiser(FakeEngine(), **kwargs)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"fallback": True, "reasons": ()}, "a fallback must say why"),
        ({"text": "something else"}, "without a fallback the text to use is the candidate"),
    ],
)
def test_results_check_their_invariants(fields: dict[str, Any], message: str) -> None:
    good = Standardiser(FakeEngine()).standardise(SHOUTY).styles[0].model_dump()
    with pytest.raises(ValidationError, match=message):
        StyleResult.model_validate({**good, **fields})


def test_result_round_trips_through_json() -> None:
    result = Standardiser(FakeEngine(_scale_amounts), styles=("plain", "formal")).standardise(
        AMOUNT
    )
    assert StandardiseResult.model_validate_json(result.model_dump_json()) == result


# --- async -------------------------------------------------------------------------------


def test_async_calls_match_sync_calls() -> None:
    std = Standardiser(FakeEngine(_scale_amounts), gate_auditor=KeyedAuditor())

    async def both() -> tuple[StandardiseResult, list[StandardiseResult]]:
        return await std.astandardise(SHOUTY), await std.astandardise_many([AMOUNT, SHOUTY])

    one, many = asyncio.run(both())
    assert (one.text, one.cached) == ("I do not want this card anymore.", False)
    assert [(r.text, r.fallback, r.cached) for r in many] == [
        (AMOUNT, True, False),
        ("I do not want this card anymore.", False, True),
    ]
    assert std.standardise(SHOUTY).styles == one.styles


# --- langchain-core ----------------------------------------------------------------------


@pytest.mark.parametrize("value", [SHOUTY, {"text": SHOUTY, "customer": 7}])
def test_runnable_takes_a_str_or_a_text_mapping(value: Any) -> None:
    std = Standardiser(FakeEngine())
    runnable = std.as_runnable()
    assert runnable.invoke(value) == "I do not want this card anymore."
    assert asyncio.run(runnable.ainvoke(value)) == "I do not want this card anymore."
    full = std.as_result_runnable().invoke(value)
    assert isinstance(full, StandardiseResult) and full.original == SHOUTY
    assert (runnable.InputType, runnable.OutputType) == (RunnableInput, str)
    assert std.as_result_runnable().OutputType is StandardiseResult


@pytest.mark.parametrize("value", [5, {"txt": "x"}, {"text": 5}, None])
def test_runnable_rejects_other_input(value: Any) -> None:
    with pytest.raises(InputError, match="takes a str or a mapping with a 'text' string"):
        Standardiser(FakeEngine()).as_runnable().invoke(value)


def test_runnable_batch_and_abatch_make_one_engine_batch() -> None:
    engine = FakeEngine(_scale_amounts)
    runnable = Standardiser(engine, cache_size=0).as_runnable()
    expected = ["I do not want this card anymore.", AMOUNT]
    assert runnable.batch([SHOUTY, AMOUNT]) == expected
    assert asyncio.run(runnable.abatch([SHOUTY, {"text": AMOUNT}])) == expected
    assert engine.batches == [[(SHOUTY, "plain"), (AMOUNT, "plain")]] * 2


def test_runnable_batch_fails_bad_inputs_alone() -> None:
    runnable = Standardiser(FakeEngine()).as_runnable()
    got = runnable.batch([SHOUTY, 5, "  "], return_exceptions=True)  # type: ignore[list-item]
    assert got[0] == "I do not want this card anymore."
    assert [type(g) for g in got[1:]] == [InputError, InputError]
    assert "whitespace only" in str(got[2])
    with pytest.raises(InputError, match="got int"):
        runnable.batch([SHOUTY, 5])  # type: ignore[list-item]
    got = asyncio.run(runnable.abatch([{"txt": 1}, SHOUTY], return_exceptions=True))
    assert isinstance(got[0], InputError) and got[1] == "I do not want this card anymore."


def test_decision_chain_sees_standardised_text_and_the_original_on_fallback() -> None:
    model = DecisionModel()
    std = Standardiser(FakeEngine(_scale_amounts))
    chain = std.as_runnable() | model | StrOutputParser()
    decisions = chain.batch([SHOUTY, AMOUNT])
    # SHOUTY is standardised (no informal cues left: routine); AMOUNT's candidate changed
    # $40 into $400, so the gate fell back and the model decided on the original.
    assert decisions == ["routine", "escalate"]
    assert sorted(model.seen) == sorted(["I do not want this card anymore.", AMOUNT])
    assert (DecisionModel() | StrOutputParser()).batch([SHOUTY, AMOUNT]) == [
        "escalate",
        "escalate",
    ]  # without the standardiser both are escalated on style alone


def test_standardiser_pipes_directly_into_a_chain_with_the_rules_engine() -> None:
    model = DecisionModel()
    chain = Standardiser() | model | StrOutputParser()
    assert chain.invoke(SHOUTY) == "routine"
    assert model.seen == [_rules_text(SHOUTY)]
    assert asyncio.run(chain.ainvoke({"text": INFORMAL})) == "routine"


# --- one engine call at a time -------------------------------------------------------------


class GatedEngine(FakeEngine):
    """Blocks its first batch until released, and records the most batches in flight."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.entered = threading.Event()
        self.in_flight = self.most_in_flight = 0
        self._lock = threading.Lock()

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]:
        with self._lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.entered.set()
        self.release.wait(5)
        time.sleep(0.005)
        try:
            return super().transform_batch(sources, specs, seed)
        finally:
            with self._lock:
                self.in_flight -= 1


def test_concurrent_async_calls_coalesce_into_the_next_engine_batch() -> None:
    engine = GatedEngine()
    std = Standardiser(engine)

    async def scenario() -> list[StandardiseResult]:
        first = asyncio.ensure_future(std.astandardise("first dont"))
        await asyncio.get_running_loop().run_in_executor(None, engine.entered.wait, 5)
        rest = [asyncio.ensure_future(std.astandardise(f"t{i} dont")) for i in range(3)]
        await asyncio.sleep(0.05)  # all three queued behind the blocked call
        engine.release.set()
        return [await first] + [await r for r in rest]

    results = asyncio.run(scenario())
    assert [r.text for r in results] == ["first do not", "t0 do not", "t1 do not", "t2 do not"]
    assert [len(b) for b in engine.batches] == [1, 3]
    assert engine.most_in_flight == 1


def test_sync_calls_from_many_threads_take_turns() -> None:
    engine = GatedEngine()
    engine.release.set()
    std = Standardiser(engine)
    with ThreadPoolExecutor(8) as pool:
        texts = list(pool.map(lambda i: std.standardise(f"t{i} dont").text, range(16)))
    assert texts == [f"t{i} do not" for i in range(16)]
    assert engine.most_in_flight == 1


def test_coalescer_hands_an_error_to_every_caller_in_the_call() -> None:
    calls: list[list[int]] = []
    release = threading.Event()

    def process(items: list[int]) -> None:
        calls.append(items)
        release.wait(5)
        if 99 in items:
            raise ValueError("boom")

    coalescer = Coalescer(process)

    async def scenario() -> list[BaseException | None]:
        first = asyncio.ensure_future(coalescer.arun([1]))
        await asyncio.sleep(0.05)
        rest = [asyncio.ensure_future(coalescer.arun(items)) for items in ([2], [99])]
        await asyncio.sleep(0.05)
        release.set()
        outcomes = await asyncio.gather(first, *rest, return_exceptions=True)
        return [o if isinstance(o, BaseException) else None for o in outcomes]

    first, second, third = asyncio.run(scenario())
    assert calls == [[1], [2, 99]]
    assert first is None
    assert isinstance(second, ValueError) and isinstance(third, ValueError)
