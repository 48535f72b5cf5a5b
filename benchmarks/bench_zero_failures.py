"""Exact-check failures of the rules engine's style transforms on generated texts.

Usage: python benchmarks/bench_zero_failures.py [--texts 10000]

Every generated complaint-like text (money in US and Indian formats, dates, redactions,
percentages, years, account numbers, phone numbers) is rewritten by a persona (cycling
through the 36), hedged, confident, accent and standardise (cycling through the styles)
transform, and by scale_amounts x10. Style transforms must give zero exact-check
discrepancies; scale_amounts must change every amount by exactly the factor and nothing
else.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import complaint_texts

from guisekit.corpus.run import as_intended, label_of
from guisekit.facts import compare_facts, extract_facts
from guisekit.models import Source
from guisekit.personas import load_grid
from guisekit.rules import RulesEngine
from guisekit.specs import (
    AccentSpec,
    FactEditSpec,
    HedgeSpec,
    PersonaSpec,
    StandardiseSpec,
    TransformSpec,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=10_000)
    args = parser.parse_args()
    engine = RulesEngine()
    personas = [PersonaSpec(persona=p.as_dict()) for p in load_grid().personas()]
    styles = [StandardiseSpec(style=s) for s in ("plain", "formal", "simple")]
    scale = FactEditSpec(kind="scale_amounts", factor=Decimal(10))
    checked: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    examples: list[dict[str, str]] = []
    started = time.perf_counter()
    for i, text in enumerate(complaint_texts(args.texts, seed=2)):
        source = Source(id=f"g{i}", text=text)
        before = extract_facts(text)
        specs: list[TransformSpec] = [
            personas[i % 36],
            HedgeSpec(direction="hedged"),
            HedgeSpec(direction="confident"),
            AccentSpec(),
            styles[i % 3],
            scale,
        ]
        for spec in specs:
            variant = engine.transform(source, spec, seed=i)
            result = compare_facts(
                before,
                extract_facts(variant.text or ""),
                original_text=text,
                rewrite_text=variant.text or "",
            )
            label = (
                label_of(spec).split(":")[0] if spec.transform != "fact_edit" else "scale_amounts"
            )
            checked[label] += 1
            ok = as_intended(spec, result) if spec is scale else not result.discrepancies
            if not ok:
                failed[label] += 1
                if len(examples) < 5:
                    examples.append(
                        {
                            "source": source.id,
                            "transform": label,
                            "problem": "; ".join(d.describe() for d in result.discrepancies),
                        }
                    )
    print(
        json.dumps(
            {
                "texts": args.texts,
                "variants_checked": dict(checked),
                "failures": {k: failed[k] for k in checked},
                "examples": examples,
                "seconds": round(time.perf_counter() - started, 1),
            },
            indent=2,
        )
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
