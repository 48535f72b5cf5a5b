"""Hinglish coverage per genre, and a random sample of converted sentences for judging.

Usage::

    python benchmarks/hinglish_sample.py SOURCES.jsonl [...] --n 100 --seed 7 --out sample.jsonl
        [--mix-ratio 0.5] [--unconverted unconverted.jsonl]

Each source file is a JSONL (or CSV/Parquet) corpus with ``id`` and ``text`` columns; a
source's genre is its ``genre`` column when it has one, else the file's stem
(``complaints.jsonl`` -> ``complaints``). Every source is rewritten by the rules engine's
Hinglish transform; the script prints, per genre, how many sentences were converted (the
rest stay English, as code-mixing allows) and how many variants passed validation, then
draws ``--n`` converted sentences uniformly at random (seeded) and writes one JSON object
per line: ``source_id``, ``genre``, ``sentence`` (index), ``english``, ``hinglish`` and the
blank judgement field ``judgement`` (natural / awkward / ungrammatical / meaning changed)
for a bilingual reader who did not write the templates. ``--unconverted`` writes the
sentences left in English with the reason, for whoever extends the templates.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

from guisekit.rules import RulesEngine
from guisekit.specs import HinglishSpec
from guisekit.tables import read_sources


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="+", type=Path)
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mix-ratio", type=float, default=0.5)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--unconverted", type=Path)
    args = parser.parse_args(argv)
    for path in args.sources:
        if not path.is_file():
            print(f"error: {path} does not exist; pass JSONL source files", file=sys.stderr)
            return 2
    engine = RulesEngine()
    spec = HinglishSpec(mix_ratio=args.mix_ratio)
    converted: list[dict[str, object]] = []
    unconverted: list[dict[str, object]] = []
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # sents, conv, vars, ok
    for path in args.sources:
        for source in read_sources(path):
            genre = str(source.meta.get("genre") or path.stem)
            variant = engine.transform(source, spec, seed=args.seed)
            details = variant.provenance.details
            row = counts[genre]
            row[2] += 1
            row[3] += bool(details["validation"]["passed"])
            for sent in details["sentences"]:
                row[0] += 1
                record = {
                    "source_id": source.id,
                    "genre": genre,
                    "sentence": sent["index"],
                    "english": sent["original"],
                }
                if sent["status"] == "converted":
                    row[1] += 1
                    converted.append({**record, "hinglish": sent["text"], "judgement": None})
                else:
                    unconverted.append({**record, "reason": sent["reason"]})
    print(f"{'genre':<24} {'sentences':>9} {'converted':>9} {'share':>6} {'valid':>9}")
    total = [0, 0, 0, 0]
    for genre, (n, c, v, ok) in sorted(counts.items()):
        print(f"{genre:<24} {n:>9} {c:>9} {c / max(n, 1):>6.0%} {ok:>4}/{v:<4}")
        total = [a + b for a, b in zip(total, (n, c, v, ok), strict=True)]
    n, c, v, ok = total
    print(f"{'all':<24} {n:>9} {c:>9} {c / max(n, 1):>6.0%} {ok:>4}/{v:<4}")
    rng = random.Random(args.seed)
    sample = rng.sample(converted, min(args.n, len(converted)))
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in sample))
    print(f"wrote {len(sample)} converted sentences to {args.out}")
    if args.unconverted:
        args.unconverted.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in unconverted)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
