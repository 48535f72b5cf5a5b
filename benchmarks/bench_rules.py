"""Persona-guise throughput of the rules engine against spaCy's blank tokenizer.

Usage: python benchmarks/bench_rules.py [--texts 1080] [--repeat 3]

Two workloads on synthetic 1,500-character complaints, each timed against spaCy's blank
English tokenizer on the same texts in the same process, reported as a ratio of rewrites/s
to tokenised texts/s (target >= 0.2, stretch 0.3):

- ``one_guise_per_text``: every text is new to the engine and gets one persona (cycling
  through the grid): protected-span detection and every stage are paid per rewrite;
- ``all_36_guises_per_text``: the matched-guise corpus workload, each text rewritten into
  all 36 personas, so a text's analysis and generator-free proposals are shared.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import spacy
from synthetic import complaint_texts
from timing import interleaved_best

from guisekit.models import Source
from guisekit.personas import load_grid
from guisekit.rules import RulesEngine
from guisekit.rules.engine import analyse
from guisekit.specs import PersonaSpec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=1080)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = complaint_texts(args.texts, seed=1)
    sources = [Source(id=f"s{i}", text=t) for i, t in enumerate(texts)]
    specs = [PersonaSpec(persona=p.as_dict()) for p in load_grid().personas()]
    engine = RulesEngine()
    engine.transform(sources[0], specs[0])  # load the lexicons outside the timing
    tokenizer = spacy.blank("en").tokenizer
    grid_sources = sources[: max(1, len(sources) // 36)]

    def one_guise_per_text() -> None:
        analyse.cache_clear()
        for i, source in enumerate(sources):
            engine.transform(source, specs[i % 36])

    def all_guises() -> None:
        analyse.cache_clear()
        for source in grid_sources:
            for spec in specs:
                engine.transform(source, spec)

    spacy_s, cold_s, grid_s = interleaved_best(
        args.repeat, [lambda: [tokenizer(t) for t in texts], one_guise_per_text, all_guises]
    )
    spacy_rate = len(texts) / spacy_s
    cold_rate = len(texts) / cold_s
    grid_rate = len(grid_sources) * 36 / grid_s
    report = {
        "texts": len(texts),
        "mean_chars": round(sum(map(len, texts)) / len(texts)),
        "spacy_blank_tokenizer_texts_per_s": round(spacy_rate),
        "one_guise_per_text_rewrites_per_s": round(cold_rate),
        "one_guise_per_text_ratio": round(cold_rate / spacy_rate, 3),
        "all_36_guises_per_text_rewrites_per_s": round(grid_rate),
        "all_36_guises_per_text_ratio": round(grid_rate / spacy_rate, 3),
        "target": 0.2,
        "stretch": 0.3,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
