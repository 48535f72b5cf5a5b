"""Throughput of the objective attribute extractors (texts/s), with the share of each part.

Usage: python benchmarks/bench_attributes.py [--texts 1000] [--repeat 3] [--cpu]

Synthetic ~1,500-character complaints (``synthetic.complaint_texts``), timed against
spaCy's blank English tokenizer as the yardstick (ratio = extractor texts/s / tokenizer
texts/s; target >= 0.3). As in ``bench_facts.py`` and ``bench_rules.py``, the main ratio
gives both sides *new* texts in every round, after both warmed up on other texts:
spaCy's tokenizer caches every chunk it has seen and textstat caches per text, so
repeating one set of texts would time their caches. The ratio on repeated texts is kept
for comparison with earlier runs. Each part of the extractor (spaCy tokens and sentences,
|VADER compound| over sentences, Flesch-Kincaid grade, the rules engine's cue counters) is
timed alone on repeated texts to show where the time goes. ``--cpu`` times the CPU time of
this process (``time.process_time``) instead of the wall clock, as in ``bench_facts.py``:
on a machine shared with other work, the wall clock also counts the time the process
waits for a core, which hits the longer side of each round more often.
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
from timing import interleaved_best, interleaved_best_fresh

from guisekit.attributes import objective_attributes_batch, sentences
from guisekit.attributes.vader import abs_compounds
from guisekit.rules import style_cues
from guisekit.style import flesch_kincaid_grade


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpu", action="store_true", help="time CPU time, not wall time")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    texts = complaint_texts(args.texts, seed=2)
    warm = complaint_texts(args.texts, seed=98)
    tokenizer = spacy.blank("en").tokenizer
    objective_attributes_batch(warm)  # build the pipeline, analyzer and lexicons; warm up
    for text in warm:
        tokenizer(text)
    rounds = [complaint_texts(args.texts, seed=200 + r) for r in range(args.repeat)]
    spacy_new, extractor_new = interleaved_best_fresh(
        rounds,
        [lambda ts: [tokenizer(t) for t in ts], objective_attributes_batch],
        clock=clock,
    )
    split = [sentence for t in texts for sentence in sentences(t)]
    parts = {
        "spacy_blank_tokenizer": lambda: [tokenizer(t) for t in texts],
        "objective_attributes_batch": lambda: objective_attributes_batch(texts),
        "part_sentences": lambda: [sentences(t) for t in texts],
        "part_vader_per_sentence": lambda: abs_compounds(split),
        "part_fk_grade": lambda: [flesch_kincaid_grade(t) for t in texts],
        "part_cues": lambda: [style_cues(t) for t in texts],
    }
    best = interleaved_best(args.repeat, list(parts.values()), clock=clock)
    seconds = dict(zip(parts, best, strict=True))
    rate = {name: len(texts) / s for name, s in seconds.items()}
    whole = seconds["objective_attributes_batch"]
    n = len(texts)
    report = {
        "texts": n,
        "clock": "cpu" if args.cpu else "wall",
        "mean_chars": round(sum(map(len, texts)) / n),
        "objective_texts_per_s": round(n / extractor_new),
        "spacy_blank_tokenizer_texts_per_s": round(n / spacy_new),
        "ratio_to_tokenizer": round(spacy_new / extractor_new, 3),
        "ratio_to_tokenizer_repeated_texts": round(
            rate["objective_attributes_batch"] / rate["spacy_blank_tokenizer"], 3
        ),
        "target": 0.3,
        "share_of_batch_time_repeated_texts": {
            name.removeprefix("part_"): round(seconds[name] / whole, 2)
            for name in parts
            if name.startswith("part_")
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
