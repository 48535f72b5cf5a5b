"""The literature pairs each hedge direction leaves unmoved (issue 13, README hedge rates).

    python benchmarks/hedge_pair_misses.py

For every pair of tests/data/hedge_pairs.yaml, the confident text is rewritten in the
hedged direction and the hedged text in the confident direction (strength 1.0, seed 0, as
in tests/test_rules_hedging.py); a pair counts when the hedge score (hedge density minus
booster density) rises, or falls. Prints one line per unmoved pair (direction, category,
input, output) and the two rates, so that each miss can be checked against the rules that
forbid it (a rounder on a figure, a restrictive particle, an extender, an attribution, the
writer's own experience ...).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from guisekit.models import Source
from guisekit.rules.cues import hedge_score
from guisekit.rules.engine import RulesEngine
from guisekit.specs import HedgeSpec

PAIRS = Path(__file__).resolve().parents[1] / "tests" / "data" / "hedge_pairs.yaml"


def _score(text: str) -> float:
    score = hedge_score(text)
    return score.density - score.booster_density


def main() -> None:
    pairs: list[list[str]] = yaml.safe_load(PAIRS.read_text("utf-8"))
    engine = RulesEngine()
    moved = {"hedged": 0, "confident": 0}
    for direction, index, sign in (("hedged", 2, 1), ("confident", 1, -1)):
        for category, *texts in pairs:
            text = texts[index - 1]
            spec = HedgeSpec(direction=direction, strength=1.0)
            out = engine.transform(Source(id="p", text=text), spec).text or ""
            if sign * (_score(out) - _score(text)) > 0:
                moved[direction] += 1
            else:
                print(f"{direction}\t{category}\t{text}\t{out}")
    n = len(pairs)
    for direction, k in moved.items():
        print(f"{direction}: {k}/{n} ({k / n:.3f}) moved")


if __name__ == "__main__":
    main()
