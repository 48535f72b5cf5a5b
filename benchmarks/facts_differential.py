"""Differential check of the exact fact check: record what ``extract_facts`` and
``check_facts`` give on a large, fixed set of inputs, then compare two recordings.

Usage:
  python benchmarks/facts_differential.py record OUT.json.gz [--synthetic 40000]
  python benchmarks/facts_differential.py compare A.json.gz B.json.gz

Speed work on the extractor must not change a single fact; the goldens
(``tests/test_fact_golden.py``) pin a few thousand inputs, this pins far more, in the
same run as the work: record on the commit before, record after each change, compare.
The inputs:

- seeded synthetic complaint texts (``synthetic.py``, several seeds), each in ``auto``,
  a share of them also in ``mdy``, ``dmy`` and with ``words=False``, and also
  lower-cased, upper-cased and with every space doubled;
- every string of 20 characters or more in ``examples/data/*.jsonl`` and
  ``evaluation/heldout*/*.jsonl`` (texts, sentences, edits, Hinglish), in every order;
- the rules engine's variants of every source there (``id`` and ``text``) under a set
  of specs (the engine protects fact spans with ``extract_facts``, so the variants are
  compared too), and ``check_facts`` on each source and variant, on the pairs of
  ``examples/data/pairs.jsonl``, ``tests/data/fact_pairs_labelled.jsonl``, the judged
  edits (``sentence_before``/``sentence_after``) and English/Hinglish sentences.

Each result is stored as a SHA-256 of its ``repr`` (every field of every fact; the full
``to_dict`` of a check), keyed by input, so a recording stays small; ``compare`` lists
the inputs whose results differ (rerun ``extract_facts`` on them to see how).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "tests"))

from synthetic import complaint_texts
from test_golden import SPECS  # the golden test's transforms, over many more texts

from guisekit.facts import check_facts, extract_facts
from guisekit.facts.policy import SeverityPolicy
from guisekit.models import Source
from guisekit.rules import RulesEngine

ROOT = Path(__file__).resolve().parents[1]
ORDERS = ("auto", "mdy", "dmy")


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:24]


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        if len(value) >= 20:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _rows() -> Iterator[dict[str, object]]:
    files = sorted((ROOT / "examples/data").glob("*.jsonl")) + sorted(
        (ROOT / "evaluation").glob("heldout*/*.jsonl")
    )
    files.append(ROOT / "tests/data/fact_pairs_labelled.jsonl")
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if isinstance(row, dict):
                    yield row


_PAIR_KEYS = (
    ("original", "rewrite"),
    ("sentence_before", "sentence_after"),
    ("english", "hinglish"),
    ("a", "b"),
)


def record(out: Path, synthetic: int) -> None:
    results: dict[str, str] = {}
    started = time.perf_counter()
    rows = list(_rows())
    real = sorted({s for row in rows for s in _strings(row)})
    for i, text in enumerate(real):
        for order in ORDERS:
            results[f"real:{i}:{order}"] = _digest(extract_facts(text, order))
        results[f"real:{i}:nowords"] = _digest(extract_facts(text, words=False))
    pairs = []
    for row in rows:
        for a, b in _PAIR_KEYS:
            if isinstance(row.get(a), str) and isinstance(row.get(b), str):
                pairs.append((row[a], row[b]))
    sources = {}
    for row in rows:
        text = row.get("text")
        if isinstance(row.get("id"), str) and isinstance(text, str) and text.strip():
            sources.setdefault(text, Source(id=row["id"], text=text))
    engine = RulesEngine()
    for i, source in enumerate(sources.values()):
        for j, spec in enumerate(SPECS):
            variant = engine.transform(source, spec, seed=7)
            results[f"variant:{i}:{j}:text"] = _digest(variant.text)
            results[f"variant:{i}:{j}:facts"] = _digest(extract_facts(variant.text))
            pairs.append((source.text, variant.text))
    day_first = SeverityPolicy(fail_on="warn", date_order="dmy")
    for i, (a, b) in enumerate(pairs):
        results[f"pair:{i}"] = _digest(check_facts(a, b).to_dict())
        results[f"pair:{i}:rev:dmy"] = _digest(check_facts(b, a, day_first).to_dict())
    print(f"real texts {len(real)}, pairs {len(pairs)}, sources {len(sources)}", file=sys.stderr)
    for seed in (0, 1, 2, 3, 11):
        texts = complaint_texts(synthetic // 5, seed=seed)
        for i, text in enumerate(texts):
            key = f"syn:{seed}:{i}"
            results[key] = _digest(extract_facts(text))
            if i % 10 == 0:
                for order in ("mdy", "dmy"):
                    results[f"{key}:{order}"] = _digest(extract_facts(text, order))
                results[f"{key}:nowords"] = _digest(extract_facts(text, words=False))
            if i % 20 == 0:
                results[f"{key}:lower"] = _digest(extract_facts(text.lower()))
                results[f"{key}:upper"] = _digest(extract_facts(text.upper()))
                results[f"{key}:spaces"] = _digest(extract_facts(text.replace(" ", "  ")))
                other = texts[i - 1]
                results[f"{key}:check"] = _digest(check_facts(text, other).to_dict())
    with gzip.open(out, "wt", encoding="utf-8") as f:
        json.dump(results, f)
    print(f"{len(results)} results in {time.perf_counter() - started:.0f}s -> {out}")


def compare(a: Path, b: Path) -> int:
    with gzip.open(a, "rt", encoding="utf-8") as f:
        old = json.load(f)
    with gzip.open(b, "rt", encoding="utf-8") as f:
        new = json.load(f)
    differ = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    print(f"{len(old)} vs {len(new)} results; {len(differ)} differ")
    for key in differ[:40]:
        print("  ", key)
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--synthetic", type=int, default=40000)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("a", type=Path)
    cmp_.add_argument("b", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.synthetic)
    else:
        sys.exit(compare(args.a, args.b))


if __name__ == "__main__":
    main()
