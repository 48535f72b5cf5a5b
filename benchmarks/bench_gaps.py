"""gaps on 1,000,000 decisions (27,778 sources x 36 persona guises) with 2,000 source-cluster
bootstrap resamples: fast per-source-sums bootstrap against a naive resample loop (target
>= 100x), and peak memory.

Usage: python benchmarks/bench_gaps.py [--sources 27778] [--resamples 2000] [--naive 3]

Every timing runs with one BLAS thread. Data: seeded synthetic decisions on the built-in
persona grid (age 2 x geography 3 x education 2 x SES 3), a 0/1 label whose probability
has a planted age and SES effect, label probabilities for three labels (so flip rate,
MPAD and TV all run), one repeat and one option order.

- guisekit: ``analyse(table, n_resamples=R)``, the whole analysis (6 persona contrasts
  with AIR, Cohen's h and TOST, instability at the persona scale, variance components),
  on a table already coded as arrays (as ``build_table`` leaves it).
- naive: the obvious loop - for each resample, draw sources with replacement, gather the
  drawn sources' rows and recompute the 6 contrasts from those rows (per-source level means,
  differences, mean over sources). It is timed on the first ``--naive`` resamples of the
  same draws and scaled to R (said in the output); its replicates are checked against
  guisekit's on those resamples.
- times are CPU seconds of this process (``time.process_time``; one BLAS thread), which a
  busy shared machine distorts less than wall time; wall time of the analysis is printed too.
- peak memory: ``tracemalloc`` peak of the guisekit run (numpy reports its buffers to it)
  and the process's maximum resident set size.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import json
import resource
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_setup

from guisekit.gaps import analyse
from guisekit.gaps.contrasts import contrast_columns, define_contrasts
from guisekit.gaps.table import Axis, GapsTable
from guisekit.stats import ratio_replicates
from guisekit.stats.clusters import cluster_draws

AXES = tuple(load_setup.AXES.items())


def synthetic(n_sources: int, seed: int = 0) -> GapsTable:
    rng = np.random.default_rng(seed)
    levels = np.array(np.meshgrid(*[np.arange(len(v)) for _, v in AXES], indexing="ij"))
    levels = levels.reshape(len(AXES), -1).T  # 36 personas x 4 axes
    n_personas = levels.shape[0]
    n = n_sources * n_personas
    source = np.repeat(np.arange(n_sources), n_personas)
    persona = np.tile(np.arange(n_personas), n_sources)
    base = rng.normal(-1.0, 0.8, n_sources)[source]
    logit = base - 0.3 * levels[persona, 0] + 0.15 * levels[persona, 3] + rng.normal(0, 0.3, n)
    p = 1 / (1 + np.exp(-logit))
    label = (rng.random(n) < p).astype(np.int64)
    probs = np.column_stack([(1 - p) / 2, (1 - p) / 2, p])
    y = label.astype(np.float64)
    axes = tuple(
        Axis(name, names, levels[persona, j], "persona") for j, (name, names) in enumerate(AXES)
    )
    return GapsTable(
        y=y,
        variant=np.arange(n),
        repeat=np.zeros(n, dtype=np.int64),
        order=np.zeros(n, dtype=np.int64),
        label=np.where(label == 1, 2, 0),
        probs=probs,
        label_names=("no_action", "non_monetary_action", "monetary_action"),
        source=source,
        source_names=tuple(f"s{i}" for i in range(n_sources)),
        transform=np.zeros(n, dtype=np.int64),
        transform_names=("persona",),
        change=("none",),
        bank=np.zeros(n, dtype=np.int64),
        axes=axes,
        outcome="label=monetary_action",
        is_rate=True,
    )


def naive_replicates(table: GapsTable, n_resamples: int, seed: int) -> np.ndarray:
    """Resample sources, gather their rows, recompute every contrast from the rows."""
    contrasts = define_contrasts(table)
    rows_of = np.argsort(table.source, kind="stable")
    sizes = np.bincount(table.source, minlength=table.n_sources)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    out = []
    done = 0
    for draws in cluster_draws(table.n_sources, n_resamples, seed):
        for draw in draws:
            if done == n_resamples:
                break
            rows = np.concatenate([rows_of[starts[s] : starts[s] + sizes[s]] for s in draw])
            copy = np.repeat(np.arange(draw.size), sizes[draw])  # each copy its own cluster
            y = table.y[rows]
            values = []
            for c in contrasts:
                f, r = c.focal_mask[rows], c.reference_mask[rows]
                fs = np.bincount(copy[f], weights=y[f], minlength=draw.size)
                fc = np.bincount(copy[f], minlength=draw.size)
                rs = np.bincount(copy[r], weights=y[r], minlength=draw.size)
                rc = np.bincount(copy[r], minlength=draw.size)
                both = (fc > 0) & (rc > 0)
                values.append(float(np.mean(fs[both] / fc[both] - rs[both] / rc[both])))
            out.append(values)
            done += 1
    return np.array(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=27_778)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--naive", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="Print one JSON line as well.")
    args = parser.parse_args()
    table = synthetic(args.sources)
    n = table.y.shape[0]
    print(f"{args.sources:,} sources x 36 guises = {n:,} decisions, {args.resamples:,} resamples")

    tracemalloc.start()
    wall = time.perf_counter()
    started = time.process_time()
    result = analyse(table, n_resamples=args.resamples, seed=0)
    fast_s = time.process_time() - started
    wall = time.perf_counter() - wall
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"guisekit analyse (everything): {fast_s:.2f} CPU s ({wall:.2f} s wall), "
        f"tracemalloc peak {peak / 2**20:.0f} MiB"
    )

    contrasts = define_contrasts(table)
    num, den, _ = contrast_columns(table, table.variant_means(), contrasts)
    started = time.process_time()
    reps = ratio_replicates(num, den, n_resamples=args.resamples, seed=0)
    boot_s = time.process_time() - started
    print(f"  of which the contrasts' bootstrap: {boot_s:.2f} CPU s")

    started = time.process_time()
    naive = naive_replicates(table, args.naive, seed=0)
    naive_each = (time.process_time() - started) / args.naive
    naive_total = naive_each * args.resamples
    gaps = reps[: args.naive, 0::3]
    np.testing.assert_allclose(naive, gaps, rtol=1e-9, atol=1e-12)
    print(
        f"naive loop: {naive_each:.2f} CPU s per resample, timed on {args.naive} resamples and "
        f"scaled to {args.resamples:,}: {naive_total:.0f} s (replicates equal guisekit's)"
    )
    print(f"ratio naive / guisekit bootstrap: {naive_total / boot_s:,.0f}x")
    print(f"ratio naive / guisekit whole analysis: {naive_total / fast_s:,.0f}x")
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process max RSS: {maxrss:.0f} MiB")
    age = next(c for c in result.contrasts if c.name.startswith("age"))
    print(
        f"check: age gap {100 * age.gap:.2f} pp [{100 * age.ci_low:.2f}, {100 * age.ci_high:.2f}]"
    )
    if args.json:
        print(
            json.dumps(
                {
                    "decisions": n,
                    "resamples": args.resamples,
                    "analyse_s": fast_s,
                    "bootstrap_s": boot_s,
                    "naive_s_scaled": naive_total,
                    "ratio_bootstrap": naive_total / boot_s,
                    "ratio_analyse": naive_total / fast_s,
                    "tracemalloc_peak_mib": peak / 2**20,
                    "max_rss_mib": maxrss,
                }
            )
        )


if __name__ == "__main__":
    main()
