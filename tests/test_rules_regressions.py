"""Known bad edits never come back (tests/data/edit_regressions.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from guisekit.models import Source
from guisekit.rules.engine import RulesEngine
from guisekit.rules.operators import REGISTRY
from guisekit.specs import parse_spec

DATA = Path(__file__).parent / "data"
CASES: list[dict[str, Any]] = yaml.safe_load(
    (DATA / "edit_regressions.yaml").read_text(encoding="utf-8")
)
ENGINE = RulesEngine()


def _outputs(case: dict[str, Any]) -> list[str]:
    if "operator" in case:
        if case["operator"] not in REGISTRY:
            return []  # a deleted operator proposes nothing
        # every seed draws its own choice of marker or frame ("Tbh," or "I mean,")
        name, text = case["operator"], case["text"]
        return [ENGINE.try_operator(name, text, seed).text for seed in range(10)]
    data = dict(case["transform"])
    if data["transform"] == "hedge":
        data["strength"] = 1.0
    spec = parse_spec(data)
    return [
        ENGINE.transform(Source(id="r", text=case["text"]), spec, seed).text for seed in range(10)
    ]


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: c.get("operator") or c["transform"]["transform"]
)
def test_known_bad_edit_does_not_come_back(case: dict[str, Any]) -> None:
    for output in _outputs(case):
        found = [f for f in case["forbidden"] if f in output]
        assert not found, f"{found} in {output!r}"


def test_every_case_names_its_origin_and_something_forbidden() -> None:
    for case in CASES:
        assert case["forbidden"] and "issue" in case and "text" in case
        assert ("operator" in case) != ("transform" in case)


def test_regression_file_can_fail() -> None:
    """The check bites: a forbidden string the engine does produce is found."""
    out = ENGINE.try_operator("contract.v1", "I do not know the amount.").text
    assert "don't" in out
