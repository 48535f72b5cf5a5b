"""``guisekit check-facts --pairs`` with ``--report``: printing every pair (today) against
printing only the pairs that did not pass, and 1 against N workers, side by side.

Usage: python benchmarks/bench_check_facts.py [--pairs 100000] [--chars 400] [--workers 2]

A seeded file of ``--pairs`` pairs (complaint-like originals of about ``--chars``
characters from ``benchmarks/synthetic.py``; the rewrite is the same text, except that
one pair in ten has an amount changed, so it fails) is checked by the real command in a
subprocess, stdout to a file as in a script, each run timed end to end (start-up, read,
checks, report, printing):

- baseline (today): ``--show all --workers 1``, one table row per pair, one process;
- failures: the new default with ``--report`` (only the pairs that did not pass, and the
  totals), ``--workers 1``;
- failures with ``--workers N``.

The three reports must be byte-identical (checked), and the totals line the same.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import complaint_texts

ROOT = Path(__file__).resolve().parents[1]


def write_pairs(path: Path, count: int, chars: int) -> None:
    texts = complaint_texts(count, chars=chars, seed=0)
    with path.open("w", encoding="utf-8") as handle:
        for i, text in enumerate(texts):
            rewrite = text.replace("$", "$1", 1) if i % 10 == 0 else text
            row = {"id": f"pair-{i:06d}", "original": text, "rewrite": rewrite}
            handle.write(json.dumps(row) + "\n")


def run(pairs: Path, report: Path, stdout: Path, *options: str) -> float:
    command = [sys.executable, str(ROOT / "cli.py"), "check-facts", "--pairs", str(pairs)]
    command += ["--report", str(report), "--overwrite", *options]
    start = time.perf_counter()
    with stdout.open("w", encoding="utf-8") as handle:
        done = subprocess.run(command, stdout=handle, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"check-facts failed: {done.stderr.strip()}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--chars", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pairs = folder / "pairs.jsonl"
        write_pairs(pairs, args.pairs, args.chars)
        print(
            f"{args.pairs:,} pairs of ~{args.chars} characters "
            f"({pairs.stat().st_size / 1e6:.0f} MB); load average before: {load:.2f}"
        )
        runs = {
            "baseline: --show all --workers 1 (today)": ("--show", "all", "--workers", "1"),
            "failures only, --workers 1": ("--workers", "1"),
            f"failures only, --workers {args.workers}": ("--workers", str(args.workers)),
        }
        timings, reports, totals = {}, set(), set()
        for i, (name, options) in enumerate(runs.items()):
            report, stdout = folder / f"report-{i}.jsonl", folder / f"stdout-{i}.txt"
            timings[name] = run(pairs, report, stdout, *options)
            reports.add(report.read_bytes())
            text = stdout.read_text(encoding="utf-8")
            totals.add(text.strip().splitlines()[-1])
            print(f"{name:45s} {timings[name]:7.1f} s, stdout {len(text) / 1e6:6.1f} MB")
        base = timings[next(iter(runs))]
        for name in list(runs)[1:]:
            print(f"speed-up of '{name}' over the baseline: {base / timings[name]:.2f}x")
        print(f"reports byte-identical: {len(reports) == 1}; totals: {totals.pop()}")
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
