"""Golden outputs of the rules engine: any change to what a spec produces is visible.

Update after an intended change with:  pytest tests/test_golden.py --update-golden
(then review the diff of tests/golden/ before committing).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from guisekit.rules import RulesEngine
from guisekit.specs import (
    AccentSpec,
    FactEditSpec,
    HedgeSpec,
    PersonaSpec,
    StandardiseSpec,
)
from guisekit.tables import read_sources

ROOT = Path(__file__).parents[1]
GOLDEN = Path(__file__).parent / "golden" / "rules_variants.jsonl"
SPECS = [
    PersonaSpec(
        persona={"age": "young", "geography": "urban", "education": "high_school", "ses": "low"}
    ),
    PersonaSpec(
        persona={"age": "old", "geography": "rural", "education": "college", "ses": "high"}
    ),
    HedgeSpec(direction="hedged"),
    HedgeSpec(direction="confident"),
    AccentSpec(),
    FactEditSpec(kind="scale_amounts", factor=Decimal(10)),
    StandardiseSpec(style="plain"),
    StandardiseSpec(style="formal"),
]


def _current() -> list[dict[str, object]]:
    engine = RulesEngine()
    sources = (
        read_sources(ROOT / "examples/data/complaints.jsonl")[:2]
        + read_sources(ROOT / "examples/data/salary_questions_in.jsonl")[:1]
    )
    rows = []
    for source in sources:
        for spec in SPECS:
            variant = engine.transform(source, spec, seed=7)
            rows.append(
                {
                    "source_id": source.id,
                    "variant_id": variant.variant_id,
                    "spec": spec.model_dump(mode="json"),
                    "text": variant.text,
                    "edits": [e.operator for e in variant.provenance.edits],
                }
            )
    return rows


def test_rules_engine_output_matches_golden(update_golden: bool) -> None:
    rows = _current()
    if update_golden:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
    expected = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    assert len(expected) == len(rows) == 24
    for want, got in zip(expected, rows, strict=True):
        assert got == want, (
            f"{got['source_id']} {got['spec']} changed; if intended, run "
            "pytest tests/test_golden.py --update-golden and review the diff"
        )
