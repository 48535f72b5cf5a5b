"""Gelbach input loading: columns (pyarrow + numpy) against the row-by-row path, side by side.

Usage: python benchmarks/bench_gelbach_load.py [--rows 1000000] [--formats parquet,csv,jsonl]
       [--resamples 200] [--decisions]

Writes a seeded synthetic attribute table (``--rows`` rows: sources x 36 personas plus one
identity row per source that has no persona columns, as ``guisekit attributes`` writes it;
10 attributes, about 1% missing values) in each format, then times what ``guisekit
gelbach`` does before the statistics (read, check the columns, choose the attributes, leave
out the constant ones, validate and build the arrays) two ways in one run:

- columns: the command's loader as shipped (``guisekit.commands.gelbach._load``);
- rows (the baseline, today's path): the same loader with the columnar reader switched
  off, so every file goes through ``read_rows`` and ``GelbachData.from_rows``.

Both must give identical arrays; ``gelbach()`` on both (``--resamples`` cluster-bootstrap
resamples) must agree to 1e-12 (the max absolute difference over every estimate and
interval bound is printed). With ``--decisions`` the outcome comes from a decisions file
joined on ``variant_id`` (as ``gelbach --decisions``) instead of a column.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_setup
from load_setup import AXES, personas, row_path, timed

from guisekit.attributes import load_attribute_set
from guisekit.commands import gelbach as command
from guisekit.console import err
from guisekit.gelbach import FocalContrast, GelbachData, gelbach

# columns of the packaged complaints set (families from the set, as by default)
ATTRIBUTES = [
    "mean_sentence_length",
    "fk_grade",
    "vader_abs_compound",
    "hedge_density",
    "informal_marker_rate",
    "coherence",
    "chronology",
    "evidence",
    "harm",
    "money_demand",
]


def synthetic(rows: int, seed: int = 0) -> dict[str, Any]:
    """Columns of a synthetic attribute table (None where a value is missing)."""
    rng = np.random.default_rng(seed)
    n_sources = max(2, rows // 37)
    grid = personas()
    per_source = len(grid) + 1  # the identity variant has no persona
    n = n_sources * per_source
    source = np.repeat(np.arange(n_sources), per_source)
    slot = np.tile(np.arange(per_source), n_sources)
    is_persona = slot > 0
    college = np.array([False] + [p["education"] == "college" for p in grid])[slot]
    attributes = rng.normal(size=(n, len(ATTRIBUTES))) + rng.normal(size=(n_sources, 1))[source]
    attributes[:, 0] += 0.5 * college
    y = 0.3 * college + attributes @ rng.normal(size=len(ATTRIBUTES)) + rng.normal(size=n)
    columns: dict[str, Any] = {
        "variant_id": [f"v{i:08d}" for i in range(n)],
        "source_id": [f"cfpb-{s:06d}" for s in source],
        "transform": np.where(is_persona, "persona", "identity").tolist(),
        "status": ["ok"] * n,
    }
    for axis in AXES:
        levels = [None] + [p[axis] for p in grid]
        columns[axis] = [levels[k] for k in slot]
    columns["approved"] = y.tolist()
    gaps = rng.random(size=attributes.shape) < 0.01
    for j, name in enumerate(ATTRIBUTES):
        values = attributes[:, j].tolist()
        for i in np.flatnonzero(gaps[:, j]):
            values[i] = None
        columns[name] = values
    return columns


def write(columns: dict[str, Any], folder: Path, fmt: str) -> Path:
    import pyarrow as pa

    table = pa.table(columns)
    path = folder / f"attributes.{fmt}"
    if fmt == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, path)
    elif fmt == "csv":
        import pyarrow.csv as pc

        pc.write_csv(table, path)
    else:
        names = list(columns)
        with path.open("w", encoding="utf-8") as handle:
            for values in zip(*columns.values(), strict=True):
                row = {k: v for k, v in zip(names, values, strict=True)}
                for axis in AXES:  # identity rows leave the persona keys out
                    if row[axis] is None:
                        del row[axis]
                handle.write(json.dumps(row) + "\n")
    return path


def write_decisions(columns: dict[str, Any], folder: Path) -> Path:
    """Two repeats per variant (the second slightly off) as ``guisekit decide`` writes them."""
    path = folder / "decisions.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for vid, y in zip(columns["variant_id"], columns["approved"], strict=True):
            for repeat, shift in ((0, 0.0), (1, 0.25)):
                row = {"variant_id": vid, "repeat": repeat, "status": "ok", "approved": y + shift}
                handle.write(json.dumps(row) + "\n")
    return path


def load(path: Path, decisions: Path | None, *, rows_only: bool) -> GelbachData:
    options = {
        "outcome": "approved",
        "contrast": FocalContrast(
            column="education", levels=("college",), base_levels=("high_school",)
        ),
        "source_column": "source_id",
        "controls": ("age", "geography", "ses"),
        "attributes": None,
        "attribute_set": load_attribute_set("complaints"),
    }
    with (
        mock.patch.object(err, "print"),  # the notes on left-out attributes, once each
        row_path("guisekit.gelbach.columns.read_table", rows_only=rows_only),
    ):
        return command._load(path, decisions, **options)  # type: ignore[arg-type]


def same_arrays(a: GelbachData, b: GelbachData) -> bool:
    arrays = ("y", "focal", "attributes", "sources", "controls")
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in arrays) and (
        a.source_labels,
        a.attribute_names,
        a.control_names,
        dict(a.left_out),
    ) == (b.source_labels, b.attribute_names, b.control_names, dict(b.left_out))


def max_difference(a: GelbachData, b: GelbachData, resamples: int) -> float:
    left = gelbach(a, n_resamples=resamples, seed=0).rows()
    right = gelbach(b, n_resamples=resamples, seed=0).rows()
    return load_setup.max_difference(left, right, ("estimate", "ci_low", "ci_high"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--formats", default="parquet,csv,jsonl")
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--decisions", action="store_true")
    args = parser.parse_args()
    columns = synthetic(args.rows)
    n = len(columns["variant_id"])
    print(f"{n:,} rows, {len(set(columns['source_id'])):,} sources, {len(ATTRIBUTES)} attributes")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        decisions = None
        if args.decisions:
            decisions = write_decisions(columns, folder)
            del columns["approved"]
        for fmt in args.formats.split(","):
            path = write(columns, folder, fmt)
            size = path.stat().st_size / 1e6
            old_s, _, old = timed(lambda: load(path, decisions, rows_only=True))  # noqa: B023
            new_s, _, new = timed(lambda: load(path, decisions, rows_only=False))  # noqa: B023
            identical = same_arrays(old, new)
            gap = max_difference(old, new, args.resamples)
            print(
                f"{fmt:8s} ({size:6.0f} MB): rows {old_s:7.2f} s, columns {new_s:6.2f} s, "
                f"speed-up {old_s / new_s:5.1f}x; identical arrays: {identical}; "
                f"max |difference| over estimates and {args.resamples}-resample CIs: {gap:.1e}"
            )
            if not identical or gap > 1e-12:
                sys.exit(f"{fmt}: the columnar load differs from the row load")
            del old, new


if __name__ == "__main__":
    main()
