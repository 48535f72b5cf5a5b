"""Building the example salary grid (India set, English and Hinglish) with all its checks.

Usage: python benchmarks/bench_grid.py [--repeat 5] [--config examples/grid_salary.yaml]
                                       [--baseline GIT_REV]

Target: a grid of at least 4,000 prompts per language builds, checks included, in seconds.
Reported: prompts per language, the best build time (render + checks, inputs already
read) and, as a machine-independent figure, its ratio to serialising the same rows with
``json.dumps`` in the same run (what writing them as JSONL costs at the least). Also
reported: the same grid built in a benchmark's order (question fastest) with an id
template, i.e. with the reordering and numbering a reproduction adds.

``--baseline REV`` also builds the same grid with ``guisekit.grid`` as it was at git
revision REV, in the same process, taking turns with the current code (garbage collected
before each build, the order of the two alternating every round), and reports the ratio
of the best times: the comparison that stays meaningful on a busy machine, where two
separate runs differ by more than any change under test.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import interleaved_best

from guisekit.grid import IdSpec, build_grid, load_grid_config, resolve_inputs

ROOT = Path(__file__).resolve().parents[1]
_BASELINE = "_baseline_grid"


def _baseline_package(rev: str, folder: Path) -> object:
    """``guisekit.grid`` as of git revision ``rev``, imported as a separate package."""
    archive = subprocess.run(
        ["git", "archive", rev, "src/guisekit/grid"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python >= 3.10.12 / 3.11.4
            tar.extractall(folder, filter="data")
        else:  # pragma: no cover - our own repository's archive
            tar.extractall(folder)
    package = folder / _BASELINE
    (folder / "src" / "guisekit" / "grid").rename(package)
    for module in package.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        module.write_text(text.replace("guisekit.grid", _BASELINE), encoding="utf-8")
    sys.path.insert(0, str(folder))
    return importlib.import_module(_BASELINE)


def _against_baseline(rev: str, config: Path, repeat: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        old = _baseline_package(rev, Path(tmp))
        old_inputs = old.resolve_inputs(old.load_grid_config(config))  # type: ignore[attr-defined]
        new_inputs = resolve_inputs(load_grid_config(config))
        runs = {
            "baseline": lambda: old.build_grid(old_inputs),  # type: ignore[attr-defined]
            "current": lambda: build_grid(new_inputs),
        }
        same = [(r["id"], r["text"]) for r in runs["baseline"]().rows] == [
            (r["id"], r["text"]) for r in runs["current"]().rows
        ]
        best = dict.fromkeys(runs, float("inf"))
        for round_ in range(repeat):
            for name in list(runs) if round_ % 2 == 0 else list(runs)[::-1]:
                gc.collect()
                start = time.perf_counter()
                runs[name]()
                best[name] = min(best[name], time.perf_counter() - start)
    return {
        "baseline": rev,
        "same_ids_and_texts": same,
        "baseline_build_and_check_s": round(best["baseline"], 3),
        "current_build_and_check_s": round(best["current"], 3),
        "current_over_baseline": round(best["current"] / best["baseline"], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--config", type=Path, default=ROOT / "examples" / "grid_salary.yaml")
    parser.add_argument("--baseline", help="a git revision to compare the build time with")
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
    if args.baseline:
        report["against_baseline"] = _against_baseline(args.baseline, args.config, args.repeat)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
