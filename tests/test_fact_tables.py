"""The exact fact check against the case tables in tests/data/.

The tables are the specification: every supported format, the negatives that must not
be read as facts, and the expected added/omitted/changed sets of each comparison.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from guisekit.facts import check_facts, compare_facts, extract_facts

DATA = Path(__file__).parent / "data"
EXTRACTION = yaml.safe_load((DATA / "fact_extraction_cases.yaml").read_text(encoding="utf-8"))
COMPARISON = yaml.safe_load((DATA / "fact_comparison_cases.yaml").read_text(encoding="utf-8"))


def test_tables_are_large_enough() -> None:
    assert len(EXTRACTION) >= 80
    assert len(COMPARISON) >= 40
    assert sum(1 for c in EXTRACTION if c["id"].startswith("neg-")) >= 20


# The kinds the extraction table specifies; quantities, negation, entities and identifiers
# are specified by tests/test_fact_kinds.py and the labelled pairs.
TABLE_KINDS = ("money", "percent", "date", "year", "relative_date", "redaction")


@pytest.mark.parametrize("case", EXTRACTION, ids=[c["id"] for c in EXTRACTION])
def test_extraction(case: dict) -> None:
    facts = [f for f in extract_facts(case["text"]) if f.kind in TABLE_KINDS]
    assert [f.key for f in facts] == case["facts"]
    for fact in facts:
        assert case["text"][fact.start : fact.end] == fact.text


@pytest.mark.parametrize("case", COMPARISON, ids=[c["id"] for c in COMPARISON])
def test_comparison(case: dict) -> None:
    result = check_facts(case["original"], case["rewrite"])
    result = compare_facts(
        [f for f in result.original_facts if f.kind in TABLE_KINDS],
        [f for f in result.rewrite_facts if f.kind in TABLE_KINDS],
    )
    added = Counter(d.rewrite.key for d in result.by_change("added") if d.rewrite)
    omitted = Counter(d.original.key for d in result.by_change("omitted") if d.original)
    changed = [
        [d.original.key, d.rewrite.key]
        for d in result.by_change("changed")
        if d.original and d.rewrite
    ]
    assert added == Counter(case["added"])
    assert omitted == Counter(case["omitted"])
    assert sorted(changed) == sorted(case["changed"])
    assert result.verdict == case["verdict"]
