"""Scale of ``guisekit corpus``: wall time and peak memory at 20k, 200k and 1M variants,
2-worker against 1-worker throughput, and the summary's share of corpus time.

Usage:
    python benchmarks/bench_scale.py                      # 20k and 200k variants
    python benchmarks/bench_scale.py --sizes 20000 200000 1000000   # adds the 1M run
    python benchmarks/bench_scale.py --sizes 20000 --skip-summary   # quick look

Each size is a real ``guisekit corpus`` run (a subprocess, as a user runs it) of the
quickstart transforms (46 specs per source) over seeded synthetic ~1,150-character
complaints (``synthetic.complaint_texts``), so 20k variants are 435 sources. Memory is
the peak of the whole process tree's proportional set size (the command and its worker
processes, shared pages counted once, sampled from /proc every 0.1 s) and the peak RSS
of the command's own process (``wait4``); targets: peak at 200k within 1.3x of the peak
at 20k, under 2 GB at 1M.

Throughput at 20k variants is timed with ``--workers 1`` and ``--workers 2`` side by side
(alternating, best of ``--repeat``); the ratio is only meaningful on an otherwise idle
machine, so the load average (``os.getloadavg``) before and after is printed with it.

The summary share runs the corpus in this process on ``--summary-sources`` sources with
the summary's measures timed (source and variant measures, edit distance), against the
whole run (rewriting, fact checks, rows, writing); target < 25%.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import complaint_texts

ROOT = Path(__file__).resolve().parents[1]
SPECS = 46  # the quickstart transforms
TRANSFORMS = """\
transforms:
  - transform: identity
  - transform: persona
    personas: all
  - transform: hedge
    direction: [hedged, confident]
    strength: 0.8
  - transform: accent
    article_drop_rate: 0.5
    marker_rate: 0.5
  - transform: fact_edit
    kind: [scale_amounts, strengthen, weaken]
    factor: 10
    amount: "$500"
  - transform: standardise
    style: [plain, formal, simple]
"""


def _setup(folder: Path, variants: int) -> Path:
    """Sources for ``variants`` variants and a config writing to ``folder/out``."""
    sources = -(-variants // SPECS)
    data = folder / "sources.jsonl"
    with data.open("w", encoding="utf-8") as handle:
        for i, text in enumerate(complaint_texts(sources, chars=1150, seed=7)):
            handle.write(json.dumps({"id": f"s{i:07d}", "text": text}) + "\n")
    config = folder / "config.yaml"
    config.write_text(
        f"sources: {{path: {data}}}\nseed: 0\n{TRANSFORMS}output: {{dir: {folder / 'out'}}}\n",
        encoding="utf-8",
    )
    return config


def _tree_rss(pid: int) -> int:
    """Bytes resident in ``pid`` and its descendants (Linux /proc), as proportional set
    size: a page a forked worker still shares with its parent counts once, not twice."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
            with open(f"/proc/{current}/task/{current}/children") as handle:
                todo.extend(int(c) for c in handle.read().split())
        except OSError:
            continue
    return total


def run_corpus(config: Path, workers: int) -> dict[str, float]:
    """One ``guisekit corpus`` run: wall seconds, peak tree RSS and own peak RSS (MB)."""
    command = [
        sys.executable, str(ROOT / "cli.py"), "corpus", str(config), "--overwrite",
        "--workers", str(workers), "--no-resume",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _tree_rss(child.pid))
            stop.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    stop.set()
    sampler.join()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"corpus failed ({child.returncode}): {errors.decode()[-2000:]}")
    return {
        "wall_s": round(wall, 1),
        "tree_peak_mb": round(peak[0] / 2**20),
        "main_peak_mb": round(usage.ru_maxrss / 1024),
    }


def summary_share(sources: int) -> dict[str, float]:
    """Seconds in the summary's measures against the whole in-process corpus run."""
    import guisekit.corpus.run as run
    from guisekit.corpus import build_plan, load_config
    from guisekit.corpus.stream import run_corpus as stream
    from guisekit.engines import make_engines

    spent = [0.0]

    def timed(fn):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start

        return wrapper

    run.measures = timed(run.measures)  # type: ignore[assignment]  (the Tally's measures)
    run.shift = timed(run.shift)  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_config(_setup(Path(tmp), sources * SPECS))
        engines = make_engines(settings.engine, settings.base)
        plan = build_plan(settings, engines)
        warm = plan.model_copy(update={"sources": dict(list(plan.sources.items())[:2])})
        stream(warm, engines, Path(tmp) / "warm", "jsonl", overwrite=True, workers=1)
        spent[0] = 0.0
        start = time.perf_counter()
        stream(plan, engines, Path(tmp) / "out", "jsonl", overwrite=True, workers=1)
        total = time.perf_counter() - start
    return {
        "variants": plan.size,
        "corpus_s": round(total, 2),
        "summary_s": round(spent[0], 2),
        "summary_share": round(spent[0] / total, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=[20_000, 200_000],
        help="variant counts of the size runs (none: skip them)",
    )
    parser.add_argument("--workers", type=int, default=2, help="workers of the size runs")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of the 1-vs-2 timing")
    parser.add_argument("--throughput-size", type=int, default=20_000)
    parser.add_argument("--summary-sources", type=int, default=60)
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-summary", action="store_true")
    args = parser.parse_args()
    report: dict[str, object] = {"cores": len(os.sched_getaffinity(0))}
    if not args.skip_summary:
        report["summary"] = summary_share(args.summary_sources)
        print(json.dumps({"summary": report["summary"]}), flush=True)
    if not args.skip_throughput:
        with tempfile.TemporaryDirectory() as tmp:
            config = _setup(Path(tmp), args.throughput_size)
            load_before = os.getloadavg()
            best = {1: float("inf"), 2: float("inf")}
            for _ in range(args.repeat):
                for workers in (1, 2):
                    best[workers] = min(best[workers], run_corpus(config, workers)["wall_s"])
            load_after = os.getloadavg()
        variants = -(-args.throughput_size // SPECS) * SPECS
        report["throughput"] = {
            "variants": variants,
            "workers_1_per_s": round(variants / best[1]),
            "workers_2_per_s": round(variants / best[2]),
            "ratio_2_to_1": round(best[1] / best[2], 2),
            "loadavg_before": [round(x, 2) for x in load_before],
            "loadavg_after": [round(x, 2) for x in load_after],
        }
        print(json.dumps({"throughput": report["throughput"]}), flush=True)
    sizes = []
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            config = _setup(Path(tmp), size)
            result = {"variants": -(-size // SPECS) * SPECS, "workers": args.workers,
                      **run_corpus(config, args.workers)}  # fmt: skip
            result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
        sizes.append(result)
        print(json.dumps({"size": result}), flush=True)
    report["sizes"] = sizes
    if len(sizes) >= 2:
        report["peak_ratio_second_to_first"] = round(
            sizes[1]["tree_peak_mb"] / sizes[0]["tree_peak_mb"], 2
        )
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
