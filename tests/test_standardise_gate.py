"""The LLM fact auditor as the standardiser's second gate, over real HTTP to the stub: a
candidate that keeps every number but reverses a claim passes the exact check and is
caught by the auditor; an auditor that cannot answer makes the standardiser fall back."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import pytest

from guisekit.audit.auditor import LLMAuditor
from guisekit.audit.domains import load_domain
from guisekit.llm import LLMRunner, Store
from guisekit.llm.refs import parse_model
from guisekit.models import Provenance, Source, Variant
from guisekit.specs import TransformSpec
from guisekit.standardise import Standardiser
from guisekit.standardise.gate import LLMGateAuditor
from guisekit.testing import StubConfig, StubServer
from guisekit.testing.audit_responder import audit_responder

TEXT = "The bank charged me $35.00 on 03/14/2023 and I did authorize it."


class NegatingEngine:
    """Standardises by turning "did" into "did not": every fact kept, the claim reversed."""

    name = "negating"
    config: ClassVar[dict[str, Any]] = {"engine": "negating"}

    def transform(self, source: Source, spec: TransformSpec, seed: int = 0) -> Variant:
        return Variant(
            source_id=source.id,
            variant_id=f"v-{source.id}",
            spec=spec,
            text=source.text.replace(" did ", " did not "),
            provenance=Provenance(engine="rules", seed=seed),
        )

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]:
        return [self.transform(s, spec, seed) for s in sources for spec in specs]


@pytest.fixture
def gate(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with StubServer(StubConfig(), audit_responder) as stub:
        model = parse_model({"model": "openai:auditor", "base_url": stub.openai_base_url})
        auditor = LLMAuditor(model, load_domain("complaints"))
        yield LLMGateAuditor(auditor, LLMRunner(Store(tmp_path / "c.sqlite"))), stub


def test_a_reversed_claim_is_caught_by_the_exact_check_before_the_auditor(gate):
    # Issue 14: an added negator is a fact the exact check sees, so the candidate falls
    # back without asking the auditor (which was the only gate to see it before).
    auditor, stub = gate
    result = Standardiser(NegatingEngine(), gate_auditor=auditor).standardise(TEXT)
    assert result.candidate is not None and "did not" in result.candidate
    assert result.fact_check.verdict == "fail"
    assert result.fallback and result.text == TEXT
    assert any("negation added" in reason for reason in result.reasons)
    assert stub.stats().total_requests == 0


def test_a_clean_candidate_passes_both_gates(gate):
    auditor, _ = gate
    result = Standardiser(gate_auditor=auditor).standardise("i was charged $35.00 twice!!")
    assert not result.fallback and result.text != "i was charged $35.00 twice!!"
    assert "$35.00" in result.text


def test_an_auditor_without_a_verdict_means_fallback(gate):
    auditor, _ = gate
    text = "Refund my $35.00 please [[refuse]]"
    result = Standardiser(gate_auditor=auditor).standardise(text)
    assert result.fallback and result.text == text
