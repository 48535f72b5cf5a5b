"""The screen, auditor validity, the verdict schema, the audit prompt and pair statuses;
auditors are fakes answering by input (the stand-in responder or fixed verdicts)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from pydantic import ValidationError

from guisekit.audit import (
    AuditDiscrepancy,
    AuditOutcome,
    AuditVerdict,
    ExactCheck,
    LLMAuditor,
    auditor_validity,
    load_domain,
    make_pair,
    screen_pair,
    screen_pairs,
)
from guisekit.audit.auditor import AUDIT_PROMPT
from guisekit.errors import ConfigError
from guisekit.facts import check_facts
from guisekit.llm import LLMRunner, RunnerSettings, Store, load_prompt
from guisekit.llm.refs import ModelRef, parse_model
from guisekit.llm.store import Answer
from guisekit.rules import RulesEngine
from guisekit.specs import FactEditSpec
from guisekit.tables import read_sources
from guisekit.testing import KeyedFakeChatModel
from guisekit.testing.audit_responder import audit_chat_responder

ROOT = Path(__file__).resolve().parents[1]
A, B = "openai:auditor-a", "anthropic:auditor-b"
ORIGINAL = "I was charged a $35 late fee on 03/14/2023 even though I paid on time."
SAME = "On 03/14/2023 they charged me a $35 late fee, but I paid on time."
SCALED = "I was charged a $350 late fee on 03/14/2023 even though I paid on time."


def _verdict(overall: str, *categories: str) -> AuditVerdict:
    return AuditVerdict(
        discrepancies=tuple(
            AuditDiscrepancy(
                category=c,  # type: ignore[arg-type]
                kind="changed",
                material=overall == "material",
                description=f"{c} differs",
            )
            for c in categories
        ),
        overall=overall,  # type: ignore[arg-type]
    )


def _ok(auditor: str, overall: str, *categories: str) -> AuditOutcome:
    return AuditOutcome(auditor=auditor, status="ok", verdict=_verdict(overall, *categories))


def _failed(auditor: str) -> AuditOutcome:
    return AuditOutcome(auditor=auditor, status="error", reason="invalid output")


SCREEN_CASES = [
    # (name, rewrite, outcomes, counted auditors, verdict, reason fragment, ignored count)
    ("exact check fails", SCALED, [_ok(A, "preserved"), _ok(B, "preserved")], {A, B},
     "fail", "exact check: money changed", 0),
    ("one valid auditor material", SAME, [_ok(A, "material", "negation"), _ok(B, "minor", "other")],
     {A, B}, "fail", f"{A} rates it material (negation", 0),
    ("invalid auditor's flag ignored", SAME,
     [_ok(A, "minor", "other"), _ok(B, "material", "amount")], {A}, "pass", None, 1),
    ("both minor", SAME, [_ok(A, "minor", "certainty"), _ok(B, "minor", "other")], {A, B},
     "pass", None, 0),
    ("both preserved", SAME, [_ok(A, "preserved"), _ok(B, "preserved")], {A, B}, "pass", None, 0),
    ("valid auditor without a verdict", SAME, [_failed(A), _ok(B, "minor", "other")], {A, B},
     "incomplete", f"{A}: error: invalid output", 0),
    ("invalid auditor without a verdict", SAME, [_failed(A), _ok(B, "preserved")], {B},
     "pass", None, 0),
    ("no valid auditor: exact check alone", SAME, [_ok(A, "material", "amount")], set(),
     "pass", None, 1),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rewrite", "outcomes", "counted", "verdict", "reason", "ignored"),
    [case[1:] for case in SCREEN_CASES],
    ids=[case[0] for case in SCREEN_CASES],
)
def test_screen_verdicts(rewrite, outcomes, counted, verdict, reason, ignored):
    pair = make_pair("p1", "s1", ORIGINAL, rewrite)
    exact = ExactCheck.of(check_facts(ORIGINAL, rewrite))
    result = screen_pair(pair, exact, outcomes, counted)
    assert result.verdict == verdict
    if reason is None:
        assert result.reasons == ()
    else:
        assert any(reason in r for r in result.reasons), result.reasons
    assert len(result.ignored) == ignored
    if ignored:
        assert "not valid for this run" in result.ignored[0]


@pytest.mark.parametrize(
    ("original", "rewrite", "upstream", "status", "verdict"),
    [
        (None, SAME, None, "missing_original", "unscreened"),
        ("   ", SAME, None, "missing_original", "unscreened"),
        (ORIGINAL, "", None, "empty_rewrite", "unscreened"),
        (ORIGINAL, None, "the rewrite was refused: policy", "rewrite_failed", "unscreened"),
        (ORIGINAL, ORIGINAL + "  ", None, "identical", "pass"),
        (ORIGINAL, SAME, None, "ok", "pass"),
    ],
)
def test_pair_status_decides_what_is_audited(original, rewrite, upstream, status, verdict):
    pair = make_pair("p1", "s1", original, rewrite, upstream=upstream)
    assert pair.status == status
    assert (pair.reason is None) == (status == "ok")
    exact = ExactCheck.of(check_facts(ORIGINAL, SAME)) if status == "ok" else None
    outcomes = [_ok(A, "preserved")] if status == "ok" else []
    assert screen_pair(pair, exact, outcomes, {A}).verdict == verdict


def test_controls_are_fact_edit_transforms():
    assert make_pair("p", "s", "a", "b", transform="fact_edit:weaken").edit_kind == "weaken"
    assert not make_pair("p", "s", "a", "b", transform="persona").control
    assert make_pair("p", "s", "a", "b").edit_kind is None


def _flagged(flag: bool | None) -> AuditOutcome:
    """An outcome on a control: caught (True), missed (False) or unanswered (None)."""
    if flag is None:
        return _failed(A)
    return _ok(A, "material", "amount") if flag else _ok(A, "preserved")


@pytest.mark.parametrize(
    ("flags", "threshold", "status", "rate"),
    [
        ([True, True, True, True, False], 0.8, "valid", 0.8),  # exactly at the threshold
        ([True, True, True, False, False], 0.8, "invalid", 0.6),
        ([True, True, True, False, False], 0.6, "valid", 0.6),  # the threshold is configurable
        ([True, True, True, True, None], 0.8, "valid", 0.8),  # unanswered counts as missed
        ([True, True, True, None, None], 0.8, "invalid", 0.6),
        ([], 0.8, "unknown", None),
    ],
)
def test_validity_from_the_controls(flags, threshold, status, rate):
    outcomes = [("scale_amounts" if i % 2 else "weaken", _flagged(f)) for i, f in enumerate(flags)]
    validity = auditor_validity(A, outcomes, threshold)
    assert (validity.status, validity.rate) == (status, rate)
    assert validity.controls == len(flags)
    assert validity.unanswered == sum(f is None for f in flags)
    assert validity.flagged == sum(f is True for f in flags)
    assert sum(k.controls for k in validity.by_kind) == len(flags)
    assert validity.counts == (status != "invalid")


def test_validity_refuses_a_status_that_contradicts_its_counts():
    with pytest.raises(ValidationError, match="does not follow"):
        type(auditor_validity(A, [])).model_validate(
            {"auditor": A, "threshold": 0.8, "controls": 5, "flagged": 1, "unanswered": 0,
             "rate": 0.2, "status": "valid"}
        )  # fmt: skip


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"discrepancies": [], "overall": "material"}, "no discrepancy is marked material"),
        ({"discrepancies": [], "overall": "minor"}, "at least one discrepancy"),
        (
            {"discrepancies": [{"category": "amount", "kind": "changed", "material": True,
                                "description": "x"}], "overall": "preserved"},
            "discrepancies are listed",
        ),
        (
            {"discrepancies": [{"category": "amount", "kind": "changed", "material": True,
                                "description": "x"}], "overall": "minor"},
            "none material",
        ),
        (
            {"discrepancies": [{"category": "tone", "kind": "changed", "material": False,
                                "description": "x"}], "overall": "minor"},
            "category",
        ),
        ({"discrepancies": [], "overall": "preserved", "notes": "x"}, "notes"),
    ],
)  # fmt: skip
def test_verdict_schema_rejects_inconsistent_answers(data, message):
    with pytest.raises(ValidationError, match=message):
        AuditVerdict.model_validate(data)


def test_audit_prompt_defines_categories_style_redactions_and_domain_materiality():
    template = load_prompt(AUDIT_PROMPT, 1)  # v2: tests/test_prompts_v2.py
    assert (template.version, template.output_schema) == (1, "audit.v1")
    for name in ("complaints", "interviews", "salary"):
        domain = load_domain(name)
        prompt = template.render(original="A", rewrite="B", **domain.prompt_variables())
        system, user = (m.content for m in prompt.messages)
        for category in (
            "amount",
            "date_time",
            "chronology",
            "responsibility",
            "negation",
            "certainty",
            "requested_relief",
            "event_or_entity",
            "other",
        ):
            assert f"- {category}:" in system  # every category is defined
        assert "ignore (style" in system and "paragraphing" in system
        assert "placeholders" in system and "XX/XX/XXXX" in system
        assert domain.decision.split()[0] in system and domain.material[0] in system
        assert '"overall"' in system  # the JSON schema instructions
        assert "<text_a>\nA\n</text_a>" in user and "<text_b>\nB\n</text_b>" in user
    assert "hired" in load_domain("interviews").decision


def test_user_domain_files_and_bad_domains(tmp_path):
    path = tmp_path / "loans.yaml"
    path.write_text(
        "texts: loan applications\ndecision: whether the loan is approved\n"
        "material: [income changed]\nnot_material: [tone]\n",
        encoding="utf-8",
    )
    assert load_domain(str(path)).name == "loans"
    with pytest.raises(ConfigError, match="unknown audit domain 'loans'"):
        load_domain("loans")
    path.write_text("texts: x\ndecision: y\nmaterial: []\nnot_material: [z]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="material"):
        load_domain(str(path))


# --- fake auditors through the runner ----------------------------------------------------


class FakeModels:
    """Chat factory handing out keyed fakes that play the auditor their model name says."""

    def __init__(self) -> None:
        self.made: list[KeyedFakeChatModel] = []

    def __call__(self, ref: ModelRef, logprobs: bool) -> KeyedFakeChatModel:
        fake = KeyedFakeChatModel(responder=audit_chat_responder(ref.name), model_name=ref.name)
        self.made.append(fake)
        return fake

    @property
    def calls(self) -> int:
        return sum(len(fake.calls) for fake in self.made)


def _corpus_like_pairs() -> list:
    """Style rewrites and the rules engine's fact edits of three bundled complaints."""
    sources = read_sources(ROOT / "examples/data/complaints.jsonl")[:3]
    engine = RulesEngine()
    pairs = []
    for s in sources:
        for kind in ("scale_amounts", "strengthen", "weaken"):
            v = engine.transform(s, FactEditSpec(kind=kind, factor=Decimal(10)))
            pairs.append(
                make_pair(f"{s.id}-{kind}", s.id, s.text, v.text, transform=f"fact_edit:{kind}")
            )
        pairs.append(
            make_pair(
                f"{s.id}-same", s.id, s.text, s.text.replace(" I ", "  I "), transform="persona"
            )
        )
        refused = s.text + " [[refuse]]"
        pairs.append(make_pair(f"{s.id}-refused", s.id, s.text, refused, transform="persona"))
    return pairs  # fmt: skip


def test_screen_pairs_with_fake_auditors_answering_by_input(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    domain = load_domain("complaints")
    auditors = [
        LLMAuditor(parse_model("openai:careful"), domain),
        LLMAuditor(parse_model("anthropic:blind"), domain),
        LLMAuditor(parse_model("openai:garbled"), domain),
    ]
    pairs = _corpus_like_pairs()
    store = Store(tmp_path / "cache.sqlite")
    models = FakeModels()
    run = screen_pairs(pairs, auditors, LLMRunner(store, RunnerSettings(max_reasks=1), models))

    validity = {v.auditor: v for v in run.validity}
    assert validity["openai:careful"].status == "valid" and validity["openai:careful"].rate == 1.0
    assert [k.kind for k in validity["openai:careful"].by_kind] == [
        "scale_amounts", "strengthen", "weaken"
    ]  # fmt: skip
    assert (validity["anthropic:blind"].status, validity["anthropic:blind"].flagged) == (
        "invalid",
        0,
    )
    assert validity["openai:garbled"].status == "invalid"
    assert validity["openai:garbled"].unanswered == 9
    assert run.counted == {"openai:careful"}

    by_id = {r.pair.pair_id: r for r in run.results}
    assert len(by_id) == len(pairs) == 15
    for r in run.results:
        if r.pair.pair_id.endswith("refused"):
            continue
        garbled = r.outcome("openai:garbled")
        assert garbled.status == "error" and garbled.attempts == 2  # asked, re-asked once
        assert "invalid output (re-asks exhausted)" in (garbled.reason or "")
    weaken = by_id["cfpb-001-weaken"]
    assert weaken.exact is not None and weaken.exact.verdict == "pass"  # invisible to the check
    assert weaken.screen.verdict == "fail"
    careful = weaken.outcome("openai:careful").verdict
    assert careful is not None and "responsibility" in {d.category for d in careful.discrepancies}
    assert by_id["cfpb-001-scale_amounts"].screen.reasons[0].startswith("exact check: money")
    assert by_id["cfpb-001-same"].screen.verdict == "pass"
    refused = by_id["cfpb-001-refused"]
    assert refused.outcome("openai:careful").status == "refused"
    assert refused.screen.verdict == "incomplete"  # the valid auditor never answered

    # 15 pairs: careful and blind answer once each; garbled is asked twice on the 12 pairs
    # not refused, and refuses the 3 others at once
    assert models.calls == 15 + 15 + 12 * 2 + 3
    again = FakeModels()
    second = screen_pairs(pairs, auditors, LLMRunner(store, RunnerSettings(max_reasks=1), again))
    assert again.calls == 0, "every answer (errors and refusals included) comes from the cache"
    assert [r.screen for r in second.results] == [r.screen for r in run.results]


def test_missing_api_key_fails_when_the_auditor_is_built(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY is not set"):
        LLMAuditor(parse_model("anthropic:claude-x"), load_domain("complaints"))


def test_exact_check_catches_scaled_and_added_amounts_but_not_weakened_claims():
    """The issue's control figures on every bundled source (see
    benchmarks/exact_check_controls.py for the printed report)."""
    engine = RulesEngine()
    sources = [
        s
        for name in ("complaints", "interviews", "salary_questions_in")
        for s in read_sources(ROOT / "examples/data" / f"{name}.jsonl")
    ]
    verdicts: dict[str, list[str]] = {"scale_amounts": [], "strengthen": [], "weaken": []}
    for source in sources:
        for kind, found in verdicts.items():
            variant = engine.transform(source, FactEditSpec(kind=kind))
            check = check_facts(source.text, variant.text or "")
            if kind == "strengthen":
                assert any(d.kind == "money" and d.change == "added" for d in check.discrepancies)
            found.append(check.verdict)
    assert len(sources) == 54
    assert all(v != "pass" for v in verdicts["scale_amounts"])  # 100% flagged
    # issue 14: implied-currency LPA amounts fail too, so no scaled control only warns
    assert verdicts["scale_amounts"].count("warn") == 0
    assert all(v == "fail" for v in verdicts["strengthen"])  # 100% flagged and failed
    # a weakened claim changes no amount; the exact check sees it only when the claim's
    # sentence carries a negator ("I had not read it carefully"): 13 of 54, the rest pass
    assert (verdicts["weaken"].count("pass"), verdicts["weaken"].count("fail")) == (41, 13)


def test_an_ok_answer_without_a_value_is_an_error_outcome(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    auditor = LLMAuditor(parse_model(A), load_domain("complaints"))
    answer = Answer(key="k", model=A, prompt="audit/compare.v1", status="ok", value=None)
    outcome = auditor.outcome(answer)
    assert (outcome.status, outcome.reason) == ("error", "the answer holds no verdict")
    assert outcome.material is None
