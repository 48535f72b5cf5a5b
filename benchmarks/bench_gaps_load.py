"""gaps input loading: columns (pyarrow + numpy) against the row-by-row path, side by side.

Usage: python benchmarks/bench_gaps_load.py [--sources 13514] [--repeats 2]
       [--formats jsonl,parquet,csv] [--resamples 200] [--text-chars 200]

Writes, with ``guisekit.tables.write_rows`` (as ``guisekit corpus`` and ``decide`` write
them), a seeded synthetic corpus (``--sources`` sources x 37 variants: the identity and
the 36 persona guises of the built-in grid, specs nested as the rules engine writes them,
texts of ``--text-chars`` characters, 1% refused) and its decisions (``--repeats``
repeats per variant, label probabilities for three labels, 1% failed): by default
500,018 variants and 1,000,036 decisions. Then times what ``guisekit gaps`` does before
its statistics (read both files, join the decisions to the variants, code everything) two
ways in one run:

- columns: the command's loader as shipped (``guisekit.gaps.columns.CorpusLoader``);
- rows (the baseline, the path before): the same loader with the columnar reader switched
  off, so both files go through ``read_rows`` and ``build_table``.

Both must give identical coded tables; ``analyse()`` on both (``--resamples``
source-cluster resamples) must agree to 1e-12 (the max absolute difference over every
contrast's gap and interval bounds is printed). pyarrow (and the pandas it imports on first
use) is imported before the timings.
Times are wall seconds
(``time.perf_counter``) and CPU seconds of this process (``time.process_time``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import resource
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_setup
from load_setup import personas, row_path, timed

from guisekit.gaps import GapsTable, analyse
from guisekit.gaps.columns import CorpusLoader
from guisekit.tables import write_rows

LABELS = ("no_action", "non_monetary_action", "monetary_action")
OUTCOME = "prob_monetary_action"


def corpus(n_sources: int, text_chars: int, seed: int = 0) -> list[dict[str, Any]]:
    """Corpus rows as the rules engine writes them (the columns gaps reads and the rest)."""
    rng = np.random.default_rng(seed)
    text = ("I was charged $1,250.00 twice and nobody answered my letters. " * 40)[:text_chars]
    specs = [{"version": 1, "transform": "identity"}] + [
        {"version": 1, "transform": "persona", "persona": p, "grid": None} for p in personas()
    ]
    refused = rng.random(n_sources * len(specs)) < 0.01
    rows = []
    for s in range(n_sources):
        for k, spec in enumerate(specs):
            i = s * len(specs) + k
            rows.append(
                {
                    "source_id": f"cfpb-{s:06d}",
                    "variant_id": f"v-{i:016x}",
                    "transform": spec["transform"],
                    "spec": spec,
                    "status": "refused" if refused[i] else "ok",
                    "reason": None,
                    "text": text,
                    "engine": "rules",
                    "model": None,
                    "seed": 0,
                    "n_edits": k % 5,
                }
            )
    return rows


def decisions(variants: list[dict[str, Any]], repeats: int, seed: int = 1) -> list[dict[str, Any]]:
    """Decision rows as ``guisekit decide`` writes them, a planted age effect."""
    rng = np.random.default_rng(seed)
    n = len(variants) * repeats
    old = np.repeat([v["spec"].get("persona", {}).get("age") == "old" for v in variants], repeats)
    logits = rng.normal(size=(n, 3))
    logits[:, 2] += 0.3 * old
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    failed = rng.random(n) < 0.01
    rows = []
    for i in range(n):
        v = variants[i // repeats]
        p = probs[i]
        bad = bool(failed[i])
        rows.append(
            {
                "variant_id": v["variant_id"],
                "source_id": v["source_id"],
                "repeat": i % repeats,
                "order": 0,
                "model": "python:planted",
                "status": "error" if bad else "ok",
                "reason": "timeout" if bad else None,
                "outcome": None if bad else float(p[2] * 2),
                "label": None if bad else LABELS[int(np.argmax(p))],
                **{f"prob_{k}": None if bad else float(x) for k, x in zip(LABELS, p, strict=True)},
            }
        )
    return rows


def load(corpus_path: Path, decisions_path: Path, *, rows_only: bool) -> GapsTable:
    with row_path("guisekit.columns.read_table", rows_only=rows_only):
        return CorpusLoader(corpus_path, outcome=OUTCOME).table(decisions_path)


def same_table(a: GapsTable, b: GapsTable) -> bool:
    for name in a.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            if not (isinstance(y, np.ndarray) and x.dtype == y.dtype):
                return False
            if not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
                return False
        elif name == "axes":
            if [(p.name, p.levels, p.kind) for p in x] != [(q.name, q.levels, q.kind) for q in y]:
                return False
            if not all(np.array_equal(p.codes, q.codes) for p, q in zip(x, y, strict=True)):
                return False
        elif x != y:
            return False
    return True


def max_difference(a: GapsTable, b: GapsTable, resamples: int) -> float:
    left = analyse(a, n_resamples=resamples, seed=0).contrasts
    right = analyse(b, n_resamples=resamples, seed=0).contrasts
    return load_setup.max_difference(left, right, ("gap", "ci_low", "ci_high"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=13_514)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--formats", default="jsonl,parquet,csv")
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--text-chars", type=int, default=200)
    args = parser.parse_args()
    pa.array([0])  # pyarrow imports pandas on first use: once per process, not loading
    variants = corpus(args.sources, args.text_chars)
    answers = decisions(variants, args.repeats)
    print(
        f"{len(variants):,} variants ({args.sources:,} sources x 37), {len(answers):,} decisions "
        f"({args.repeats} repeats), texts of {args.text_chars} chars"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for fmt in args.formats.split(","):
            corpus_path = write_rows(folder / f"corpus.{fmt}", variants)
            decisions_path = write_rows(folder / f"decisions.{fmt}", answers)
            size = (corpus_path.stat().st_size + decisions_path.stat().st_size) / 1e6
            old_s, old_cpu, old = timed(
                lambda: load(corpus_path, decisions_path, rows_only=True)  # noqa: B023
            )
            new_s, new_cpu, new = timed(
                lambda: load(corpus_path, decisions_path, rows_only=False)  # noqa: B023
            )
            identical = same_table(old, new)
            gap = max_difference(old, new, args.resamples)
            print(
                f"{fmt:8s} ({size:5.0f} MB): rows {old_s:7.2f} s ({old_cpu:.2f} CPU s), "
                f"columns {new_s:6.2f} s ({new_cpu:.2f} CPU s), speed-up {old_s / new_s:5.1f}x "
                f"wall, {old_cpu / new_cpu:5.1f}x CPU; identical tables: {identical}; "
                f"max |difference| over gaps and {args.resamples}-resample CIs: {gap:.1e}",
                flush=True,
            )
            if not identical or gap > 1e-12:
                sys.exit(f"{fmt}: the columnar load differs from the row load")
            del old, new
            corpus_path.unlink()
            decisions_path.unlink()
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process max RSS: {maxrss:.0f} MiB")


if __name__ == "__main__":
    main()
