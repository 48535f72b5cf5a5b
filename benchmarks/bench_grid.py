"""Building the example salary grid (India set, English and Hinglish) with all its checks.

Usage: python benchmarks/bench_grid.py [--repeat 5] [--config examples/grid_salary.yaml]

Target: a grid of at least 4,000 prompts per language builds, checks included, in seconds.
Reported: prompts per language, the best build time (render + checks, inputs already
read) and, as a machine-independent figure, its ratio to serialising the same rows with
``json.dumps`` in the same run (what writing them as JSONL costs at the least). Also
reported: the same grid built in a benchmark's order (question fastest) with an id
template, i.e. with the reordering and numbering a reproduction adds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import interleaved_best

from guisekit.grid import IdSpec, build_grid, load_grid_config, resolve_inputs

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--config", type=Path, default=ROOT / "examples" / "grid_salary.yaml")
    args = parser.parse_args()
    started = time.perf_counter()
    inputs = resolve_inputs(load_grid_config(args.config))
    read_s = time.perf_counter() - started
    result = build_grid(inputs)
    rows = result.rows
    reordered = inputs.model_copy(
        update={
            "order": ("language", "placement", "identifier", "profile", "question"),
            "ids": IdSpec(template="{grid}_{language}_{index:05d}", count_within=("language",)),
        }
    )
    build_s, dumps_s, reordered_s = interleaved_best(
        args.repeat,
        [
            lambda: build_grid(inputs),
            lambda: [json.dumps(r, ensure_ascii=False) for r in rows],
            lambda: build_grid(reordered),
        ],
    )
    report = {
        "config": str(
            args.config.relative_to(ROOT) if args.config.is_relative_to(ROOT) else args.config
        ),
        "prompts": len(rows),
        "prompts_per_language": dict(Counter(r["language"] for r in rows)),
        "checks_passed": result.passed,
        "read_inputs_s": round(read_s, 3),
        "build_and_check_s": round(build_s, 3),
        "prompts_per_s": round(len(rows) / build_s),
        "ratio_to_json_dumps": round(build_s / dumps_s, 2),
        "reordered_with_id_template_s": round(reordered_s, 3),
        "reordered_ratio_to_json_dumps": round(reordered_s / dumps_s, 2),
        "target": "at least 4,000 prompts per language in seconds",
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
