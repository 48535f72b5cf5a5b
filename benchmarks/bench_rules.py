"""Persona-guise throughput of the rules engine against spaCy's blank tokenizer.

Usage: python benchmarks/bench_rules.py [--texts 1080] [--repeat 5]

Two workloads on synthetic 1,500-character complaints, each timed against spaCy's blank
English tokenizer on the same texts in the same process, reported as a ratio of rewrites/s
to tokenised texts/s (target >= 0.2, stretch 0.3):

- ``one_guise_per_text``: every text is new to the engine and gets one persona (cycling
  through the grid): protected-span detection and every stage are paid per rewrite;
- ``all_36_guises_per_text``: the matched-guise corpus workload, each text rewritten into
  all 36 personas, so a text's analysis and generator-free proposals are shared.

As in ``bench_facts.py``, the main ratios give both sides new texts in every round, after
both warmed up on other texts (the engine's per-text analysis cache is cleared, and spaCy's
tokenizer meets chunks it has not cached); ``*_repeated_texts`` ratios time the same
texts every round, where spaCy's cache has seen them all, for comparison with earlier runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import spacy
from synthetic import complaint_texts
from timing import interleaved_best, interleaved_best_fresh

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
    specs = [PersonaSpec(persona=p.as_dict()) for p in load_grid().personas()]
    engine = RulesEngine()

    def sources(texts: Sequence[str]) -> list[Source]:
        return [Source(id=f"s{i}", text=t) for i, t in enumerate(texts)]

    def one_guise_per_text(texts: Sequence[str]) -> None:
        analyse.cache_clear()
        for i, source in enumerate(sources(texts)):
            engine.transform(source, specs[i % 36])

    def all_guises(texts: Sequence[str]) -> None:
        analyse.cache_clear()
        for source in sources(texts[: max(1, len(texts) // 36)]):
            for spec in specs:
                engine.transform(source, spec)

    def tokenise(tokenizer: object, texts: Sequence[str]) -> None:
        for text in texts:
            tokenizer(text)  # type: ignore[operator]

    texts = complaint_texts(args.texts, seed=1)
    grid_texts = texts[: max(1, len(texts) // 36)]
    one_guise_per_text(texts[:50])  # load the lexicons outside the timing
    repeated = spacy.blank("en").tokenizer
    spacy_rep, cold_rep, grid_rep = interleaved_best(
        args.repeat,
        [
            lambda: tokenise(repeated, texts),
            lambda: one_guise_per_text(texts),
            lambda: all_guises(texts),
        ],
    )
    tokenizer = spacy.blank("en").tokenizer
    warm = complaint_texts(args.texts, seed=99)
    tokenise(tokenizer, warm)
    one_guise_per_text(warm)
    rounds = [complaint_texts(args.texts, seed=100 + r) for r in range(args.repeat)]
    spacy_new, cold_new, grid_new = interleaved_best_fresh(
        rounds, [lambda ts: tokenise(tokenizer, ts), one_guise_per_text, all_guises]
    )
    n, guises = len(texts), len(grid_texts) * 36
    report = {
        "texts": n,
        "mean_chars": round(sum(map(len, texts)) / n),
        "spacy_blank_tokenizer_texts_per_s": round(n / spacy_new),
        "one_guise_per_text_rewrites_per_s": round(n / cold_new),
        "one_guise_per_text_ratio": round(spacy_new / cold_new, 3),
        "all_36_guises_per_text_rewrites_per_s": round(guises / grid_new),
        "all_36_guises_per_text_ratio": round(guises / grid_new / (n / spacy_new), 3),
        "one_guise_per_text_ratio_repeated_texts": round(spacy_rep / cold_rep, 3),
        "all_36_guises_per_text_ratio_repeated_texts": round(
            guises / grid_rep / (n / spacy_rep), 3
        ),
        "target": 0.2,
        "stretch": 0.3,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
