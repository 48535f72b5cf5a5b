"""Throughput of the objective attribute extractors (texts/s), with the share of each part.

Usage: python benchmarks/bench_attributes.py [--texts 1000] [--repeat 3]

Synthetic ~1,500-character complaints (``synthetic.complaint_texts``). Timed in one
process, interleaved (best of ``--repeat``): the whole batch extractor
(``objective_attributes_batch``), and each of its parts alone on the same texts: the
spaCy sentence pipeline, |VADER compound| over those sentences, textstat's
Flesch-Kincaid grade, and the rules engine's cue counters. spaCy's blank tokenizer is
timed alongside as the yardstick (ratio = extractor texts/s / tokenizer texts/s). More
texts than textstat's 128-entry LRU caches hold, so repeats are not served from them.
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
from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from guisekit.attributes import objective_attributes_batch, sentences
from guisekit.rules import hedge_score, style_cues
from guisekit.style import flesch_kincaid_grade


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = complaint_texts(args.texts, seed=2)
    objective_attributes_batch(texts[:2])  # build the pipeline, analyzer and lexicons
    tokenizer = spacy.blank("en").tokenizer
    analyzer = SentimentIntensityAnalyzer()
    split = [sentences(t) for t in texts]
    parts = {
        "spacy_blank_tokenizer": lambda: [tokenizer(t) for t in texts],
        "objective_attributes_batch": lambda: objective_attributes_batch(texts),
        "part_sentences": lambda: [sentences(t) for t in texts],
        "part_vader_per_sentence": lambda: [
            [analyzer.polarity_scores(s) for s in ss] for ss in split
        ],
        "part_fk_grade": lambda: [flesch_kincaid_grade(t) for t in texts],
        "part_cues": lambda: [(style_cues(t), hedge_score(t)) for t in texts],
    }
    seconds = dict(zip(parts, interleaved_best(args.repeat, list(parts.values())), strict=True))
    rate = {name: len(texts) / s for name, s in seconds.items()}
    whole = seconds["objective_attributes_batch"]
    report = {
        "texts": len(texts),
        "mean_chars": round(sum(map(len, texts)) / len(texts)),
        "objective_texts_per_s": round(rate["objective_attributes_batch"]),
        "spacy_blank_tokenizer_texts_per_s": round(rate["spacy_blank_tokenizer"]),
        "ratio_to_tokenizer": round(
            rate["objective_attributes_batch"] / rate["spacy_blank_tokenizer"], 3
        ),
        "share_of_batch_time": {
            name.removeprefix("part_"): round(seconds[name] / whole, 2)
            for name in parts
            if name.startswith("part_")
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
