"""Precision and recall of the exact check on the hand-labelled pairs of issue 14.

``tests/data/fact_pairs_labelled.jsonl``: each pair has a category, an expected verdict
(``fail``: a change of fact; ``pass``: a fact-preserving paraphrase or style edit;
``warn``: a change the check cannot decide, an ambiguous date) and a one-line reason. The
pairs were written before the new kinds were built; the figures after tuning are what
this test asserts (see the README section "Exact fact check" for the before figures).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from guisekit.facts import check_facts

PAIRS = [
    json.loads(line)
    for line in (Path(__file__).parent / "data/fact_pairs_labelled.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]


def test_pair_set_has_the_required_size_and_mix() -> None:
    categories = Counter(p["category"] for p in PAIRS)
    assert len(PAIRS) >= 200
    assert categories["inr"] >= 60
    assert categories["quantity"] >= 40
    assert categories["negation_entity"] >= 30
    assert categories["paraphrase"] >= 30
    assert all(p["reason"].strip() and p["expect"] in ("pass", "warn", "fail") for p in PAIRS)
    assert len({p["id"] for p in PAIRS}) == len(PAIRS)


def test_precision_and_recall_under_the_default_policy() -> None:
    tp = fp = fn = 0
    wrong = []
    for pair in PAIRS:
        verdict = check_facts(pair["original"], pair["rewrite"]).verdict
        positive, flagged = pair["expect"] == "fail", verdict == "fail"
        tp += positive and flagged
        fp += flagged and not positive
        fn += positive and not flagged
        if (verdict == "fail") != positive or (pair["expect"] == "warn" and verdict != "warn"):
            wrong.append((pair["id"], pair["expect"], verdict, pair["reason"]))
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"\nlabelled pairs: {len(PAIRS)}; precision {precision:.3f}, recall {recall:.3f}")
    print("misjudged:", wrong)
    assert precision >= 0.98 and recall >= 0.98, wrong
