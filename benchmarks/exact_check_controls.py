"""What the exact check sees of the rules engine's fact edits (the positive controls).

Usage: python benchmarks/exact_check_controls.py [--seeds 5] [--factors 10,2,0.5]

Applies every rules-engine fact edit to every bundled source (complaints, interview
answers, salary questions) under several seeds (each seed can pick another template) and
runs the exact check on each variant. Prints, as JSON, per kind:

- ``scale_amounts``: the share the check flags (any discrepancy, i.e. verdict warn or
  fail) and the share it fails; the issue requires 100% flagged;
- ``strengthen``: the variants that add an amount, and the share of those flagged (100%
  required) and failed;
- ``weaken``: the share the check cannot see (verdict pass): these change a claim, not a
  number, and are what the LLM auditors are for.

Variants whose check only warns are listed: a warning passes the screen's exact check, so
those controls rest on the auditors too.
"""

from __future__ import annotations

import argparse
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

from guisekit.facts import check_facts
from guisekit.models import Source
from guisekit.rules import RulesEngine
from guisekit.specs import FactEditSpec
from guisekit.tables import read_sources

ROOT = Path(__file__).resolve().parents[1]
SOURCE_FILES = ("complaints.jsonl", "interviews.jsonl", "salary_questions_in.jsonl")


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def control_figures(
    sources: list[Source], seeds: int = 5, factors: tuple[Decimal, ...] = (Decimal(10),)
) -> dict[str, Any]:
    """The exact check's verdicts on every distinct fact-edit variant of ``sources`` (see
    the module doc); a variant two seeds make alike is counted once."""
    engine = RulesEngine()
    specs = [FactEditSpec(kind="scale_amounts", factor=f) for f in factors]
    specs += [FactEditSpec(kind="strengthen"), FactEditSpec(kind="weaken")]
    report: dict[str, Any] = {}
    for spec in specs:
        label = spec.kind if spec.kind != "scale_amounts" else f"scale_amounts x{spec.factor}"
        texts = {
            (source.id, engine.transform(source, spec, seed).text or ""): source
            for seed in range(seeds)
            for source in sources
        }
        checks = [(sid, check_facts(s.text, text)) for (sid, text), s in texts.items()]
        if spec.kind == "strengthen":
            checks = [
                (sid, c)
                for sid, c in checks
                if any(d.kind == "money" and d.change == "added" for d in c.discrepancies)
            ]
        flagged = sum(c.verdict != "pass" for _, c in checks)
        row: dict[str, Any] = {
            "variants": len(texts),
            "flagged_share": _share(flagged, len(checks)),
            "failed_share": _share(sum(c.verdict == "fail" for _, c in checks), len(checks)),
        }
        if spec.kind == "strengthen":
            row["adding_an_amount"] = len(checks)
        if spec.kind == "weaken":
            row["unseen_share"] = _share(len(checks) - flagged, len(checks))
        row["warn_only"] = {
            sid: [d.describe() for d in c.discrepancies] for sid, c in checks if c.verdict == "warn"
        }
        report[label] = row
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--factors", default="10,2,0.5")
    args = parser.parse_args()
    sources = [s for name in SOURCE_FILES for s in read_sources(ROOT / "examples" / "data" / name)]
    factors = tuple(Decimal(f) for f in args.factors.split(","))
    figures = control_figures(sources, args.seeds, factors)
    print(json.dumps({"sources": len(sources), "seeds": args.seeds, **figures}, indent=2))


if __name__ == "__main__":
    main()
