"""Gelbach decomposition with a source-cluster bootstrap: cross-product bootstrap against a
naive resample-and-refit (target >= 100x) and, where available, pyfixest's ``decompose``.

Usage: python benchmarks/bench_gelbach.py [--sources 1000] [--personas 36]
       [--resamples 2000] [--naive 20] [--pyfixest-python PATH] [--pyfixest-reps 5]

Every timing runs with one BLAS thread (set before numpy loads). Data: seeded synthetic
panel, ``--sources`` x ``--personas`` rows, a 0/1 focal contrast (half the personas),
22 attributes in 3 families (11 delivery, 5 structure, 6 content).

- guisekit: ``gelbach(data, n_resamples=R)`` end to end (demeaning, per-source
  cross-products, point estimates, R resamples), best of ``--repeat`` runs.
- naive: for each resample, stack the drawn sources' rows (each copy its own cluster and
  fixed effect), demean within cluster and refit the three least-squares problems. It is
  timed on the first ``--naive`` resamples of the *same* draws and scaled to R (said in
  the output); its replicates are checked against guisekit's.
- pyfixest (benchmark only, never a dependency): ``feols("y ~ focal + attributes | source")``
  then ``decompose(decomp_var="focal", x1_vars=<the source dummies>, combine_covariates=
  <families>, nthreads=1, reps=K)``, i.e. the fixed effects as background covariates,
  timed for K reps and scaled to R. Run in this interpreter if ``import pyfixest`` works,
  else with ``--pyfixest-python`` (a separate throwaway venv) in a subprocess. Its
  bootstrap draws differ from ours, so only its point estimates are compared.
"""

from __future__ import annotations

import os

# One BLAS thread for every timing (and pyfixest's nthreads=1): a like-for-like single-core
# comparison, and no OpenBLAS thread thrashing on a busy machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import interleaved_best

from guisekit.gelbach import CrossProducts, GelbachData, bootstrap, gelbach
from guisekit.gelbach.clusters import cluster_draws

FAMILY_SIZES = {"delivery": 11, "structure": 5, "content": 6}


def synthetic(n_sources: int, n_personas: int, seed: int = 0) -> GelbachData:
    rng = np.random.default_rng(seed)
    source = np.repeat(np.arange(n_sources), n_personas)
    focal = (np.tile(np.arange(n_personas), n_sources) < n_personas // 2).astype(float)
    names = [f"{family}_{i}" for family, size in FAMILY_SIZES.items() for i in range(size)]
    k = len(names)
    attributes = (
        rng.normal(size=(source.size, k))
        + np.outer(focal, rng.normal(size=k))
        + rng.normal(size=(n_sources, k))[source]
    )
    y = (
        0.2 * focal
        + attributes @ rng.normal(scale=0.3, size=k)
        + rng.normal(size=n_sources)[source]
        + rng.normal(size=source.size)
    )
    return GelbachData.from_arrays(
        y=y,
        focal=focal,
        attributes=attributes,
        sources=list(source),
        outcome="y",
        focal_names=["focal"],
        families={name: name.split("_")[0] for name in names},
    )


def naive_refit(
    data: GelbachData, draw: np.ndarray, rows_of: list[np.ndarray], solver: str
) -> np.ndarray:
    """One resample refitted from its rows; returns the attribute terms (k2,).

    The drawn sources' rows are stacked copy after copy, so each copy (its own cluster and
    fixed effect) is a contiguous block and is demeaned with one ``reduceat``. ``solver``
    is ``lstsq`` (what a user would call) or ``normal`` (normal equations on the demeaned
    rows: the cheapest refit, still O(rows) per resample).
    """
    parts = [rows_of[g] for g in draw]
    sizes = np.array([len(p) for p in parts])
    index = np.concatenate(parts)
    z = np.column_stack([data.focal[index], data.attributes[index], data.y[index]])
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    z -= np.repeat(np.add.reduceat(z, starts, axis=0) / sizes[:, None], sizes, axis=0)
    x, y = z[:, :-1], z[:, -1]
    if solver == "lstsq":
        full = np.linalg.lstsq(x, y, rcond=None)[0]
        gamma = np.linalg.lstsq(x[:, :1], x[:, 1:], rcond=None)[0][0]
    else:
        ztz = z.T @ z  # one BLAS call on the contiguous block; X'X and X'y are its parts
        full = np.linalg.solve(ztz[:-1, :-1], ztz[:-1, -1])
        gamma = ztz[0, 1:-1] / ztz[0, 0]
    terms: np.ndarray = gamma * full[1:]
    return terms


_PYFIXEST = r"""
import json, sys, time, warnings
import numpy as np, pandas as pd, pyfixest as pf
warnings.filterwarnings("ignore")
z = np.load(sys.argv[1], allow_pickle=False)
reps = int(sys.argv[2])
names = [str(n) for n in z["names"]]
families = json.loads(str(z["families"]))
df = pd.DataFrame(z["attributes"], columns=names)
df["y"], df["focal"], df["source"] = z["y"], z["focal"], z["source"]
start = time.perf_counter()
fit = pf.feols("y ~ focal + " + " + ".join(names) + " | source", data=df,
               vcov={"CRV1": "source"})
_, _, coefnames = fit._model_matrix_one_hot(output="sparse")
background = [c for c in coefnames if c not in ["Intercept", "focal", *names]]
combine = {f: [n for n in names if families[n] == f] for f in dict.fromkeys(families.values())}
point = fit.decompose(decomp_var="focal", x1_vars=background, combine_covariates=dict(combine),
                      only_coef=True, nthreads=1)
point_s = time.perf_counter() - start
start = time.perf_counter()
fit.decompose(decomp_var="focal", x1_vars=background, combine_covariates=dict(combine),
              reps=reps, seed=0, nthreads=1, cluster="source")
boot_s = time.perf_counter() - start
tidy = point.tidy()
levels = tidy[tidy["panels"] == "Levels (units)"]["coefficients"]
print(json.dumps({"point_s": point_s, "boot_s": boot_s, "reps": reps,
                  "families": {f: float(levels[f]) for f in combine},
                  "version": pf.__version__}))
"""


def run_pyfixest(data: GelbachData, python: str | None, reps: int) -> dict[str, object] | str:
    """pyfixest timings and family totals, or why it could not run."""
    command = None
    if python is None:
        try:
            import pyfixest  # noqa: F401
        except ImportError:
            return "not importable here and no --pyfixest-python given"
        command = [sys.executable]
    else:
        command = [python]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.npz"
        np.savez(
            path,
            y=data.y,
            focal=data.focal[:, 0],
            attributes=data.attributes,
            source=data.sources,
            names=np.array(data.attribute_names),
            families=json.dumps(dict(zip(data.attribute_names, data.families, strict=True))),
        )
        script = Path(tmp) / "pf.py"
        script.write_text(_PYFIXEST, encoding="utf-8")
        run = subprocess.run(
            [*command, str(script), str(path), str(reps)], capture_output=True, text=True
        )
    if run.returncode != 0:
        return "failed: " + (run.stderr.strip().splitlines() or ["?"])[-1]
    result: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=1000)
    parser.add_argument("--personas", type=int, default=36)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--naive", type=int, default=20, help="naive resamples timed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pyfixest-python", default=None)
    parser.add_argument("--pyfixest-reps", type=int, default=5)
    args = parser.parse_args()
    data = synthetic(args.sources, args.personas)
    r = args.resamples
    threads = os.environ["OPENBLAS_NUM_THREADS"]
    print(
        f"BLAS threads: {threads}; data: {data.y.size:,} rows = {data.n_sources:,} sources "
        f"x {args.personas} personas, {len(data.attribute_names)} attributes in "
        f"{len(FAMILY_SIZES)} families, {r:,} resamples"
    )
    cross = CrossProducts.from_data(data)
    fast_s, boot_s = interleaved_best(
        args.repeat,
        [
            lambda: gelbach(data, n_resamples=r, seed=0),
            lambda: bootstrap(cross, n_resamples=r, seed=0),
        ],
    )
    reps = bootstrap(cross, n_resamples=r, seed=0)
    draws = np.concatenate(list(cluster_draws(data.n_sources, r, 0)))[: args.naive]
    rows_of = [np.flatnonzero(data.sources == g) for g in range(data.n_sources)]
    print(f"guisekit gelbach(), end to end:      {fast_s:8.3f} s")
    print(f"  of which the {r:,} resamples:     {boot_s:8.3f} s")
    for solver in ("normal", "lstsq"):
        start = time.perf_counter()
        naive_terms = [naive_refit(data, draw, rows_of, solver) for draw in draws]
        naive_each = (time.perf_counter() - start) / len(draws)
        diff = float(np.max(np.abs(np.array(naive_terms) - reps.terms[: len(draws), 0])))
        naive_total = naive_each * r
        print(
            f"naive resample-and-refit ({solver}): {naive_total:8.1f} s (estimated: "
            f"{len(draws)} resamples timed, {naive_each * 1e3:.1f} ms each, x {r:,})"
        )
        print(f"  max |naive - guisekit| over those replicates' terms: {diff:.2e}")
        print(f"  speed ratio, end to end: {naive_total / fast_s:6.0f}x (target >= 100x)")
        print(f"  speed ratio, resamples:  {naive_total / boot_s:6.0f}x")
    outcome = run_pyfixest(data, args.pyfixest_python, args.pyfixest_reps)
    if isinstance(outcome, str):
        print(f"pyfixest: {outcome}")
        return
    point_s = float(str(outcome["point_s"]))
    pf_boot_s = float(str(outcome["boot_s"]))
    k = int(str(outcome["reps"]))
    pf_total = point_s + pf_boot_s / k * r
    ours = gelbach(data, n_resamples=0).decomposition
    totals = dict(zip(ours.family_names(), ours.family_totals()[0], strict=True))
    families = cast(dict[str, float], outcome["families"])
    gap = max(abs(float(families[f]) - totals[f]) for f in totals)
    print(
        f"pyfixest {outcome['version']} decompose (FE as background covariates, nthreads=1): "
        f"point {point_s:.2f} s, {k} reps {pf_boot_s:.2f} s -> estimated {pf_total:.0f} s for "
        f"{r:,} reps ({k} timed, scaled)"
    )
    print(f"  max |pyfixest - guisekit| over family totals: {gap:.2e}")
    print(f"speed ratio vs pyfixest, end to end: {pf_total / fast_s:8.0f}x")


if __name__ == "__main__":
    main()
