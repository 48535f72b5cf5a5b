"""Error table of a judged edit sample (shared/EDIT-JUDGING.md): rates with 95% Wilson intervals.

    python benchmarks/judged_table.py evaluation/heldout/edit_judged.jsonl

Reads one JSON line per judged edit (``stratum``, ``stratum_share``, ``operator``, ``verdict``)
and prints the sample rate overall, by stratum, by transform family and by operator, and the
rate weighted by each stratum's share of all edits.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

VERDICTS = ("OK", "UNGRAMMATICAL", "MEANING", "IMPLAUSIBLE")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + z * z / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # clamped: rounding puts the bound of 0 or n successes a hair outside [0, 1] ('-0.000')
    return (max(0.0, (centre - half) / denom), min(1.0, (centre + half) / denom))


def table(rows: list[dict[str, object]], key: str) -> None:
    groups: dict[str, list[dict[str, object]]] = defaultdict(list)
    for row in rows:
        groups[str(row[key])].append(row)
    print(
        f"\n{key:28s} {'n':>4s} " + " ".join(f"{v[:5]:>5s}" for v in VERDICTS) + "  error [95% CI]"
    )
    for name, group in sorted(groups.items()):
        counts = [sum(r["verdict"] == v for r in group) for v in VERDICTS]
        errors = len(group) - counts[0]
        lo, hi = wilson(errors, len(group))
        cells = " ".join(f"{c:5d}" for c in counts)
        print(f"{name:28s} {len(group):4d} {cells}  {errors / len(group):.3f} [{lo:.3f}, {hi:.3f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("judged", type=Path)
    args = parser.parse_args()
    rows = [
        json.loads(line) for line in args.judged.read_text(encoding="utf-8").splitlines() if line
    ]
    for row in rows:
        row["family"] = str(row["stratum"]).split(":")[0]
    errors = sum(r["verdict"] != "OK" for r in rows)
    lo, hi = wilson(errors, len(rows))
    print(f"all: n={len(rows)} errors={errors} rate={errors / len(rows):.3f} [{lo:.3f}, {hi:.3f}]")
    shares: dict[str, float] = {str(r["stratum"]): float(r["stratum_share"]) for r in rows}  # type: ignore[arg-type]
    weighted = sum(
        share
        * sum(r["verdict"] != "OK" for r in rows if r["stratum"] == s)
        / sum(r["stratum"] == s for r in rows)
        for s, share in shares.items()
    ) / sum(shares.values())
    print(f"weighted by each stratum's share of all edits: {weighted:.3f}")
    for key in ("stratum", "family", "operator"):
        table(rows, key)


if __name__ == "__main__":
    main()
