"""Every rule operator against the case table in tests/data/rules_operator_cases.yaml.

The table is the specification: for each operator registered in REGISTRY, texts it must
rewrite (with the acceptable outputs) and texts it must leave alone (with the reason:
nothing to match, or every candidate touching a protected span). See the table's header
for the fields.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from guisekit.rules.engine import OperatorTrial, RulesEngine
from guisekit.rules.operators import REGISTRY
from guisekit.rules.protect import protected_spans

DATA = Path(__file__).parent / "data"
CASES: list[dict[str, Any]] = yaml.safe_load(
    (DATA / "rules_operator_cases.yaml").read_text(encoding="utf-8")
)

_APPLIES_KEYS = ("accept", "accept_pattern", "contains_any")
_KNOWN_KEYS = {
    "operator",
    "text",
    "seed",
    "unchanged",
    "inverse",
    "idempotent",
    "note",
    *_APPLIES_KEYS,
}


def _case_ids(cases: list[dict[str, Any]]) -> list[str]:
    seen: Counter[str] = Counter()
    ids = []
    for case in cases:
        name = case["operator"]
        ids.append(f"{name}-{seen[name]}")
        seen[name] += 1
    return ids


IDS = _case_ids(CASES)
APPLIES = [(i, c) for i, c in zip(IDS, CASES, strict=True) if "unchanged" not in c]
UNCHANGED = [(i, c) for i, c in zip(IDS, CASES, strict=True) if "unchanged" in c]
INVERSES = [(i, c) for i, c in APPLIES if "inverse" in c]
IDEMPOTENT = [(i, c) for i, c in APPLIES if c.get("idempotent")]


@pytest.fixture(scope="module")
def engine() -> RulesEngine:
    return RulesEngine()


def _trial(engine: RulesEngine, case: dict[str, Any]) -> OperatorTrial:
    return engine.try_operator(case["operator"], case["text"], case.get("seed", 0))


def _describe(trial: OperatorTrial) -> str:
    edits = [(e.before, e.after) for e in trial.edits]
    return f"input {trial.original!r} -> output {trial.text!r}; {trial.reason}; edits {edits}"


def _matches(case: dict[str, Any], output: str) -> bool:
    if "accept" in case:
        return output in case["accept"]
    if "accept_pattern" in case:
        return re.fullmatch(case["accept_pattern"], output) is not None
    return any(s in output for s in case["contains_any"])


# --- the table itself ---------------------------------------------------------------------------


def test_table_is_well_formed() -> None:
    assert len(CASES) >= 130
    for case_id, case in zip(IDS, CASES, strict=True):
        assert set(case) <= _KNOWN_KEYS, f"{case_id}: unknown keys {set(case) - _KNOWN_KEYS}"
        assert case["operator"] in REGISTRY, f"{case_id}: unknown operator"
        assert isinstance(case["text"], str)
        expectations = [k for k in (*_APPLIES_KEYS, "unchanged") if k in case]
        assert len(expectations) == 1, f"{case_id}: needs exactly one of {expectations}"
        if "unchanged" in case:
            assert case["unchanged"] in ("nothing", "protected"), case_id
            assert "inverse" not in case and "idempotent" not in case, case_id
        if "accept_pattern" in case:
            re.compile(case["accept_pattern"])
        if "inverse" in case:
            assert case["inverse"] in REGISTRY, f"{case_id}: unknown inverse"


def test_table_covers_every_operator() -> None:
    applies = {c["operator"] for _, c in APPLIES}
    unchanged = {c["operator"] for _, c in UNCHANGED}
    live = {name for name, op in REGISTRY.items() if not op.retired}
    assert live - applies == set(), "operators without an 'applies' case"
    assert set(REGISTRY) - unchanged == set(), "operators without a 'does not apply' case"
    assert applies - live == set(), "a retired operator has an 'applies' case"


def test_retired_operators_propose_nothing(engine: RulesEngine) -> None:
    """Retired operators stay registered (configs naming them load) but never edit."""
    retired = [name for name, op in REGISTRY.items() if op.retired]
    assert retired, "the table should show at least one retired operator"
    for name in retired:
        assert REGISTRY[name].doc.startswith("Retired"), name
        for case in CASES:
            assert not engine.try_operator(name, case["text"]).applied, (name, case["text"])


def test_table_covers_both_reasons() -> None:
    reasons = Counter(c["unchanged"] for _, c in UNCHANGED)
    assert reasons["nothing"] >= 40
    assert reasons["protected"] >= 40


def test_every_operator_is_documented() -> None:
    """Listings (`guisekit operators`) show Operator.doc: none may be empty."""
    undocumented = sorted(name for name, op in REGISTRY.items() if not op.doc.strip())
    assert undocumented == [], f"operators with an empty doc: {undocumented}"


# --- the operators ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", [c for _, c in APPLIES], ids=[i for i, _ in APPLIES])
def test_operator_applies(engine: RulesEngine, case: dict[str, Any]) -> None:
    trial = _trial(engine, case)
    assert trial.applied, _describe(trial)
    assert trial.text != case["text"], _describe(trial)
    assert _matches(case, trial.text), _describe(trial)
    # Every recorded edit describes the original text, and replaying the edits gives
    # the output: the provenance is exact.
    pieces, cursor = [], 0
    for edit in trial.edits:
        assert edit.operator == case["operator"]
        assert edit.before == case["text"][edit.start : edit.end], _describe(trial)
        assert edit.start >= cursor, "edits overlap or are out of order"
        pieces += [case["text"][cursor : edit.start], edit.after]
        cursor = edit.end
    pieces.append(case["text"][cursor:])
    assert "".join(pieces) == trial.text


@pytest.mark.parametrize("case", [c for _, c in UNCHANGED], ids=[i for i, _ in UNCHANGED])
def test_operator_does_not_apply(engine: RulesEngine, case: dict[str, Any]) -> None:
    trial = _trial(engine, case)
    assert trial.text == case["text"], _describe(trial)
    assert not trial.applied, _describe(trial)
    assert trial.edits == ()
    assert case["unchanged"] in trial.reason, _describe(trial)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_protected_spans_survive(engine: RulesEngine, case: dict[str, Any]) -> None:
    """Each protected substring of the input stands byte-identical in the output, in order."""
    trial = _trial(engine, case)
    cursor = 0
    for start, end in protected_spans(case["text"]):
        span = case["text"][start:end]
        found = trial.text.find(span, cursor)
        assert found >= 0, f"protected {span!r} lost; {_describe(trial)}"
        cursor = found + len(span)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_trial_is_deterministic(engine: RulesEngine, case: dict[str, Any]) -> None:
    first = _trial(engine, case)
    again = _trial(RulesEngine(), case)
    assert (again.text, again.edits) == (first.text, first.edits)


@pytest.mark.parametrize("case", [c for _, c in INVERSES], ids=[i for i, _ in INVERSES])
def test_inverse_round_trip(engine: RulesEngine, case: dict[str, Any]) -> None:
    """The paired operator undoes the rewrite (expand after contract, and so on)."""
    forward = _trial(engine, case)
    back = engine.try_operator(case["inverse"], forward.text, case.get("seed", 0))
    assert back.text == case["text"], (
        f"{case['operator']} gave {forward.text!r}; {case['inverse']} gave {back.text!r}"
    )


@pytest.mark.parametrize("case", [c for _, c in IDEMPOTENT], ids=[i for i, _ in IDEMPOTENT])
def test_idempotent(engine: RulesEngine, case: dict[str, Any]) -> None:
    """Running the operator on its own output changes nothing more."""
    once = _trial(engine, case)
    twice = engine.try_operator(case["operator"], once.text, case.get("seed", 0))
    assert twice.text == once.text, _describe(twice)
    assert not twice.applied


PATTERNS = [(i, c) for i, c in APPLIES if "accept_pattern" in c]


@pytest.mark.parametrize("case", [c for _, c in PATTERNS], ids=[i for i, _ in PATTERNS])
def test_every_draw_is_acceptable(engine: RulesEngine, case: dict[str, Any]) -> None:
    """Where the operator draws from a lexicon, whatever it draws must read correctly:
    the pattern lists every entry, so every seed's output must match it."""
    bad = {}
    for seed in range(20):
        trial = engine.try_operator(case["operator"], case["text"], seed)
        if not trial.applied or re.fullmatch(case["accept_pattern"], trial.text) is None:
            bad[seed] = trial.text
    assert bad == {}
