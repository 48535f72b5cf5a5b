"""Persona-guise throughput of the rules engine against spaCy's blank tokenizer.

Usage: python benchmarks/bench_rules.py [--texts 1000] [--repeat 3]

Each synthetic 1,500-character complaint is rewritten into one persona of the 36-persona
grid (cycling through the grid), with protected-span detection and every stage included;
spaCy's blank English tokenizer runs on the same texts in the same process. Reported as
a ratio of texts/s. Target >= 0.2, stretch 0.3.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import spacy
from synthetic import complaint_texts

from guisekit.models import Source
from guisekit.personas import load_grid
from guisekit.rules import RulesEngine
from guisekit.specs import PersonaSpec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = complaint_texts(args.texts, seed=1)
    sources = [Source(id=f"s{i}", text=t) for i, t in enumerate(texts)]
    specs = [PersonaSpec(persona=p.as_dict()) for p in load_grid().personas()]
    engine = RulesEngine()
    jobs = [(s, specs[i % len(specs)]) for i, s in enumerate(sources)]
    engine.transform(*jobs[0])  # load lexicons outside the timing
    tokenizer = spacy.blank("en").tokenizer

    def timed(func) -> float:  # type: ignore[no-untyped-def]
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            func()
            best = min(best, time.perf_counter() - start)
        return len(texts) / best

    spacy_rate = timed(lambda: [tokenizer(t) for t in texts])
    rules_rate = timed(lambda: [engine.transform(s, spec) for s, spec in jobs])
    print(
        json.dumps(
            {
                "texts": len(texts),
                "mean_chars": round(sum(map(len, texts)) / len(texts)),
                "spacy_blank_tokenizer_texts_per_s": round(spacy_rate),
                "persona_guise_texts_per_s": round(rules_rate),
                "ratio": round(rules_rate / spacy_rate, 3),
                "target": 0.2,
                "stretch": 0.3,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
