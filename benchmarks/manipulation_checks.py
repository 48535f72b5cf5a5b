"""Manipulation table of the rules engine (issue 13): does each persona axis move its
declared cue, and does content stay put?

Usage: python benchmarks/manipulation_checks.py [--sources N] [--permutations K]

Prints one JSON line per (factor, measure): within-source eta squared of the axis level
(or hedge direction) next to the 95th percentile of a within-source permutation null.
Persona axes use the 36 guises of each bundled source (complaints, interview answers,
salary questions); the hedge direction is reported on the bundled sources, on the
bundled complaints alone, and on the hedged/confident pairs of
tests/data/hedge_pairs.yaml (each text as its own source).
A realised axis passes with eta squared >= 0.2 above the null; content (facts, named
entities) passes at <= 0.02; unrealised axes are reported, not required. Then the
standardise collapse rate per style (share of a source's 36 guises whose standardised text
equals the standardised source), idempotence, and how many sources get three different
texts from the three styles.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import yaml

from guisekit.models import Source
from guisekit.rules.checks import collapse_rates, hedge_row, manipulation_table
from guisekit.tables import read_sources

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=100)
    parser.add_argument("--permutations", type=int, default=200)
    args = parser.parse_args()
    data = ROOT / "examples" / "data"
    sources = [
        s
        for name in ("complaints", "interviews", "salary_questions_in")
        for s in read_sources(data / f"{name}.jsonl")
    ][: args.sources]
    for row in manipulation_table(sources, n_permutations=args.permutations):
        print(json.dumps({"texts": "bundled", **row.as_dict()}))
    complaints = read_sources(data / "complaints.jsonl")
    row = hedge_row(complaints, n_permutations=args.permutations)
    print(json.dumps({"texts": "bundled_complaints", **row.as_dict()}))
    pairs = yaml.safe_load((ROOT / "tests" / "data" / "hedge_pairs.yaml").read_text("utf-8"))
    texts = [Source(id=f"pair{i}-{side}", text=p[k]) for i, p in enumerate(pairs)
             for side, k in (("h", 1), ("c", 2))]  # fmt: skip
    row = hedge_row(texts, n_permutations=args.permutations)
    print(json.dumps({"texts": "hedge_pairs", **row.as_dict()}))
    collapse = collapse_rates(sources)
    for style in ("plain", "formal", "simple"):
        rates = [r.collapse for r in collapse if r.style == style]
        print(json.dumps({
            "texts": "bundled", "standardise": style, "sources": len(rates),
            "mean_collapse": round(sum(rates) / len(rates), 4), "min_collapse": min(rates),
            "sources_at_90pct": sum(r >= 0.9 for r in rates),
            "idempotent": all(r.idempotent for r in collapse if r.style == style),
        }))  # fmt: skip
    by_source: dict[str, set[str]] = {}
    for r in collapse:
        by_source.setdefault(r.source_id, set()).add(r.standard)
    distinct = sum(len(v) == 3 for v in by_source.values())
    print(json.dumps({"texts": "bundled", "styles_pairwise_different": distinct,
                      "sources": len(by_source)}))  # fmt: skip


if __name__ == "__main__":
    main()
