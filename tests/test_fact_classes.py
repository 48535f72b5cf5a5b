"""Every failure class of issue 14, by name: the exact check fails it, the standardiser's
gate (through the ``guisekit serve`` app) falls back on it, and the audit screen (through
``guisekit audit`` on the loopback stub) fails it. Legitimate style edits pass all three.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import yaml
from fastapi import FastAPI

from guisekit.cli import main
from guisekit.facts import SeverityPolicy, check_facts, extract_facts
from guisekit.models import Provenance, Source, Variant
from guisekit.specs import TransformSpec
from guisekit.standardise import Standardiser
from guisekit.standardise.service import bind_socket, create_app
from guisekit.testing import StubConfig, StubServer
from guisekit.testing.audit_responder import audit_responder

# (class name, original, rewrite, the kind of the failing discrepancy)
CLASSES = [
    ("year-changed", "I opened the account in 2021.", "I opened the account in 2022.", "year"),
    ("year-dropped", "I opened the account in 2021.", "I opened the account.", "year"),
    (
        "redacted-date-dropped",
        "The charge posted on XX/XX/2021.",
        "The charge posted that week.",
        "date",  # a partly redacted date (2021-XX-XX)
    ),
    ("redaction-token-dropped", "Call XXXX at the branch.", "Call the branch.", "redaction"),
    ("lpa-range-end-changed", "My CTC is 12-15 LPA.", "My CTC is 12-18 LPA.", "money"),
    ("crore-vs-lakh", "The flat sold for 1.4 crore.", "The flat sold for 14 lakh.", "money"),
    ("cr-abbreviation-changed", "The plot costs 1.2 Cr.", "The plot costs 12 Cr.", "money"),
    (
        "cr-dot-changed",
        "They quoted Rs. 2.5 cr. for it.",
        "They quoted Rs. 3.5 cr. for it.",
        "money",
    ),
    ("lakh-without-currency", "They offered me 18 lakhs.", "They offered me 16 lakhs.", "money"),
    ("lpa-without-currency", "My salary is 8.5 LPA.", "My salary is 9.5 LPA.", "money"),
    ("l-abbreviation-changed", "Joining bonus: 1.5 L.", "Joining bonus: 2.5 L.", "money"),
    ("percent-in-words", "The rate is fifteen percent.", "The rate is fifty percent.", "percent"),
    ("per-cent-in-words", "The hike is fifteen per cent.", "The hike is five per cent.", "percent"),
    ("us-dollars", "I paid 500 US dollars.", "I paid 600 US dollars.", "money"),
    ("money-in-words", "It cost twelve hundred dollars.", "It cost $1,100.", "money"),
    ("range-collapsed", "I expect 12-15 LPA.", "I expect around 13.5 LPA.", "money"),
    ("period-changed", "I paid ₹75,000 a month.", "I paid ₹75,000 every year.", "money"),
    ("period-dropped", "I paid ₹75,000 a month.", "I paid ₹75,000.", "money"),
    (
        "ctc-period-changed",
        "My CTC is Rs 18 lakh per annum.",
        "My CTC is Rs 18 lakh per month.",
        "money",
    ),
    (
        "roles-swapped",
        "The fee was $35 and the refund was $50.",
        "The fee was $50 and the refund was $35.",
        "money",
    ),
    ("count-changed", "I was charged 3 late fees.", "I was charged 4 late fees.", "quantity"),
    (
        "duration-changed",
        "The payment was 30 days late.",
        "The payment was 45 days late.",
        "quantity",
    ),
    ("count-in-words-changed", "I called six times.", "I called seven times.", "quantity"),
    (
        "months-changed",
        "I banked with them for 14 months.",
        "I banked with them for 4 months.",
        "quantity",
    ),
    ("hours-changed", "I waited 2 hours on hold.", "I waited 3 hours on hold.", "quantity"),
    (
        "approximator-added",
        "The payment was 30 days late.",
        "The payment was nearly 30 days late.",
        "quantity",
    ),
    (
        "approximator-removed",
        "It took about 8 weeks.",
        "It took 8 weeks.",
        "quantity",
    ),
    (
        "approximator-changed",
        "I used it for at least 5 years.",
        "I used it for up to 5 years.",
        "quantity",
    ),
    ("negator-added", "They refunded the fee.", "They never refunded the fee.", "negation"),
    ("negator-removed", "They did not refund the fee.", "They refunded the fee.", "negation"),
    ("name-changed", "I spoke to Priya at HDFC Bank.", "I spoke to Anita at HDFC Bank.", "entity"),
    (
        "organisation-dropped",
        "My account with Chase was closed.",
        "My account was closed.",
        "entity",
    ),
    (
        "account-number-changed",
        "The transfer went to account 123456789.",
        "The transfer went to account 123456788.",
        "identifier",
    ),
    (
        "negation-moved-to-another-clause",
        "I paid the fee but they did not refund it.",
        "I did not pay the fee but they refunded it.",
        "negation",
    ),
    (
        "sentence-initial-name-dropped",
        "Priya from the bank called me.",
        "Someone from the bank called me.",
        "entity",
    ),
    (
        "role-head-across-of-the",
        "The balance of the loan is $5,000.",
        "The loan is $5,000.",
        "money",
    ),
    (
        "hinglish-approximator-dropped",
        "The bank charged more than $500.",
        "Bank ne $500 charge kiya.",
        "money",
    ),
    (
        "indian-date-read-day-first",
        "On 3/4/2024 I paid ₹5,000 in Mumbai.",
        "On March 4, 2024 I paid ₹5,000 in Mumbai.",
        "date",
    ),
]
IDS = [c[0] for c in CLASSES]

# Legitimate style edits and paraphrases: no discrepancy at all.
STYLE_EDITS = [
    ("contraction", "They did not refund the fee.", "They didn't refund the fee."),
    ("contraction-no-apostrophe", "I do not accept the $40 fee.", "I dont accept the $40 fee."),
    ("casing", "I spoke to Priya at HDFC Bank.", "i spoke to priya at hdfc bank."),
    ("i-lower-case", "I was not informed.", "i was not informed."),
    ("cr-spelled-out", "The offer is ₹1.2 Cr.", "The offer is ₹1.2 crore."),
    ("lpa-spelled-out", "My salary is 8.5 LPA.", "My salary is 8.5 lakh per annum."),
    ("indian-grouping", "The deposit was ₹12,00,000.", "The deposit was ₹12 lakh."),
    ("count-in-digits", "I called six times.", "I called 6 times."),
    ("approximator-synonym", "It took about 8 weeks.", "It took around eight weeks."),
    ("sentences-reordered", "The fee was $35. I called twice.", "I called twice. The fee was $35."),
    ("hedge-moved", "I am not sure the $35 fee was fair.", "The $35 fee was unfair, I think."),
    ("indian-date-day-first", "On 3/4/2024 I paid ₹5,000.", "On 3 April 2024 I paid ₹5,000."),
    (
        "negation-kept-in-its-clause",
        "I paid the fee but they did not refund it.",
        "They did not refund it, though I paid the fee.",
    ),
    ("sentence-initial-adverb", "Yesterday I called the bank.", "I called the bank yesterday."),
    # a persona's misspelled clause link still ends the clause (hypothesis found "Must not
    # because." -> "Must not becuase." read as a negation moved onto "because")
    ("misspelled-clause-link", "Must not because.", "Must not becuase."),
    (
        "misspelled-link-after-a-negation",
        "They did not call because the line was down.",
        "They did not call becuase the line was down.",
    ),
    ("role-of-the-paraphrase", "The balance of the loan is $5,000.", "The loan balance is $5,000."),
    (
        "hinglish-approximator-kept",
        "The bank charged more than $500.",
        "Bank ne $500 se zyada charge kiya.",
    ),
]
STYLE_IDS = [c[0] for c in STYLE_EDITS]


@pytest.mark.parametrize(("name", "original", "rewrite", "kind"), CLASSES, ids=IDS)
def test_exact_check_fails_each_class(name: str, original: str, rewrite: str, kind: str) -> None:
    result = check_facts(original, rewrite)
    assert result.verdict == "fail", [d.describe() for d in result.discrepancies]
    assert kind in {d.kind for d in result.discrepancies if d.severity == "fail"}
    assert not result.passed


@pytest.mark.parametrize(("name", "original", "rewrite"), STYLE_EDITS, ids=STYLE_IDS)
def test_style_edits_pass(name: str, original: str, rewrite: str) -> None:
    result = check_facts(original, rewrite)
    assert result.discrepancies == (), [d.describe() for d in result.discrepancies]


def test_ambiguous_date_warns_with_its_reason_and_the_policy_decides() -> None:
    loose = check_facts("I paid on 3/4/2024.", "I paid on 4 March 2024.")
    assert loose.verdict == "warn" and loose.passed
    (warning,) = loose.discrepancies
    assert warning.reason is not None and "2024-04-03" in warning.reason
    assert "2024-03-04" in warning.reason
    assert not check_facts(
        "I paid on 3/4/2024.", "I paid on 4 March 2024.", SeverityPolicy(fail_on="warn")
    ).passed
    # a fixed order decides: day-first reads 3 April, so 4 March is a change
    dmy = SeverityPolicy(date_order="dmy")
    assert check_facts("I paid on 3/4/2024.", "I paid on 3 April 2024.", dmy).verdict == "pass"
    assert check_facts("I paid on 3/4/2024.", "I paid on 4 March 2024.", dmy).verdict == "fail"
    mdy = SeverityPolicy(date_order="mdy")
    assert check_facts("I paid on 3/4/2024.", "I paid on 4 March 2024.", mdy).verdict == "pass"


def test_warn_kinds_turn_a_kind_into_warnings_with_a_reason() -> None:
    policy = SeverityPolicy(warn_kinds=frozenset({"relative_date"}))
    result = check_facts("The call was yesterday.", "The call was last week.", policy)
    assert result.verdict == "warn"
    assert result.discrepancies[0].reason == "relative_date is in the policy's warn_kinds"
    assert check_facts("The call was yesterday.", "The call was last week.").verdict == "fail"


# --- the standardiser's gate, through the service ------------------------------------------


class MappedEngine:
    """An Engine whose candidate for each original is a given rewrite."""

    name = "mapped"

    def __init__(self, rewrites: dict[str, str]) -> None:
        self.rewrites = rewrites

    @property
    def config(self) -> dict[str, Any]:
        return {"engine": "mapped.v1", "model": "table"}

    def transform(self, source: Source, spec: TransformSpec, seed: int = 0) -> Variant:
        return Variant(
            source_id=source.id,
            variant_id=f"v-{source.id}",
            spec=spec,
            text=self.rewrites[source.text],
            status="ok",
            provenance=Provenance(engine="llm", model="table", prompt_version="v1"),
        )

    def transform_batch(
        self, sources: Iterable[Source], specs: Sequence[TransformSpec], seed: int = 0
    ) -> list[Variant]:
        return [self.transform(s, sp, seed) for s in sources for sp in specs]


@contextmanager
def serving(app: FastAPI) -> Iterator[httpx.Client]:
    sock = bind_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_config=None, access_log=False, ws="none", http="h11")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            yield client
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def test_service_gate_falls_back_on_each_class_and_keeps_style_edits() -> None:
    cases = [(o, r, k) for _, o, r, k in CLASSES] + [(o, r, None) for _, o, r in STYLE_EDITS]
    originals = list(dict.fromkeys(o for o, _, _ in cases))
    # one rewrite per original: each original appears in one case at most per batch
    batches: list[list[tuple[str, str, str | None]]] = [[]]
    for case in cases:
        if any(case[0] == seen[0] for seen in batches[-1]):
            batches.append([])
        batches[-1].append(case)
    assert len(originals) <= len(cases)
    for batch in batches:
        engine = MappedEngine({o: r for o, r, _ in batch})
        with serving(create_app(Standardiser(engine, cache_size=0))) as client:
            reply = client.post("/standardise", json={"texts": [o for o, _, _ in batch]})
        assert reply.status_code == 200
        for (original, rewrite, kind), result in zip(batch, reply.json()["results"], strict=True):
            if kind is None:
                assert (result["fallback"], result["text"]) == (False, rewrite), result["reasons"]
                continue
            assert result["fallback"] is True and result["text"] == original
            assert result["fact_check"]["verdict"] == "fail"
            assert any(d["kind"] == kind for d in result["fact_check"]["discrepancies"])
            assert any(reason.startswith("fact check fail: ") for reason in result["reasons"])


# --- the audit screen, through `guisekit audit` ---------------------------------------------


def _cli(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_audit_screen_fails_each_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-facts-0")
    rows = [{"id": n, "original": o, "rewrite": r} for n, o, r, _ in CLASSES]
    rows += [{"id": f"style-{n}", "original": o, "rewrite": r} for n, o, r in STYLE_EDITS]
    (tmp_path / "pairs.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    with StubServer(StubConfig(), audit_responder) as stub:
        config = tmp_path / "audit.yaml"
        config.write_text(
            yaml.safe_dump(
                {
                    "pairs": "pairs.jsonl",
                    "auditors": [
                        {"model": "openai:stub-careful", "base_url": stub.openai_base_url}
                    ],
                    "resamples": 100,
                    "output": "out",
                }
            ),
            encoding="utf-8",
        )
        assert _cli(["audit", "--config", str(config)]) == 0
    results = {
        r["pair_id"]: r
        for r in map(json.loads, (tmp_path / "out/results.jsonl").read_text("utf-8").splitlines())
    }
    for name, _, _, kind in CLASSES:
        row = results[name]
        assert (row["exact_verdict"], row["screen"]) == ("fail", "fail"), name
        assert kind in {d["kind"] for d in row["exact"]["discrepancies"]}, name
    for name, *_ in STYLE_EDITS:
        assert results[f"style-{name}"]["exact_verdict"] == "pass", name


def test_span_only_extraction_skips_the_word_kinds() -> None:
    text = (
        "I told Priya they did not refund the $35 late fee from 3/4/2024 for nearly 30 days "
        "(a/c 123456789)."
    )
    full = {f.kind for f in extract_facts(text)}
    spans = extract_facts(text, words=False)
    assert full >= {"negation", "entity", "quantity", "money", "date", "identifier"}
    assert {f.kind for f in spans} == {"money", "date", "identifier"}
    assert all(f.role is None and f.approx is None for f in spans)
