"""Fact-extraction throughput against spaCy's blank English tokenizer, in one run.

Usage: python benchmarks/bench_facts.py [--texts 2000] [--repeat 3]

Both are timed on the same synthetic 1,500-character complaint texts, in this process,
on one core; the report is the ratio (extraction texts/s over tokenizer texts/s), since
absolute times depend on the machine. Target >= 1.0, stretch 1.5.
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

from guisekit.facts import extract_facts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    texts = complaint_texts(args.texts)
    tokenizer = spacy.blank("en").tokenizer
    facts = sum(len(extract_facts(t)) for t in texts)
    spacy_s, facts_s = interleaved_best(
        args.repeat,
        [lambda: [tokenizer(t) for t in texts], lambda: [extract_facts(t) for t in texts]],
    )
    spacy_rate, facts_rate = len(texts) / spacy_s, len(texts) / facts_s
    report = {
        "texts": len(texts),
        "mean_chars": round(sum(map(len, texts)) / len(texts)),
        "facts_per_text": round(facts / len(texts), 1),
        "spacy_blank_tokenizer_texts_per_s": round(spacy_rate),
        "extract_facts_texts_per_s": round(facts_rate),
        "ratio": round(facts_rate / spacy_rate, 2),
        "target": 1.0,
        "stretch": 1.5,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
