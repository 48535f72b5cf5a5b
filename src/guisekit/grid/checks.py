"""The checks every grid must pass before it is written, each reported with its failures.

- ``slots_filled``: every prompt rendered, and no slot marker (``{{ x }}``, ``{% %}``,
  ``{x}``, ``$x``) is left in any text;
- ``differ_only_in_identifier``: within each cell (language, placement, profile, question)
  every prompt equals the cell's skeleton with the identifier phrase put in, and the
  skeleton places the phrase at least once;
- ``counts``: the prompts per axis and language equal the product of the inputs (that
  axis's identifiers and their placements x profiles x question variants);
- ``parallel``: every (placement, identifier, profile, question) exists in every language;
- ``unique_ids``: no two prompts share an id.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from guisekit.grid.build import SENTINEL, GridBuild
from guisekit.grid.model import GridInputs

__all__ = ["CheckName", "CheckResult", "expected_counts", "run_checks"]

CheckName = Literal["slots_filled", "differ_only_in_identifier", "counts", "parallel", "unique_ids"]
_LEFTOVER = re.compile(r"\{\{|\}\}|\{%|%\}|\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*")
_SHOWN = 20


@dataclass(frozen=True)
class CheckResult:
    """One check over the grid: how many items it looked at and which failed (the first
    few are kept, ``failed`` counts them all)."""

    name: CheckName
    checked: int
    failed: int
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return self.failed == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.name,
            "passed": self.passed,
            "checked": self.checked,
            "failed": self.failed,
            "failures": list(self.failures),
        }


def _result(name: CheckName, checked: int, failures: Sequence[str]) -> CheckResult:
    return CheckResult(name, checked, len(failures), tuple(failures[:_SHOWN]))


def _slots_filled(build: GridBuild) -> CheckResult:
    failures = [f"{f.where}: {f.reason}" for f in build.failures]
    for row in build.rows:
        leftover = _LEFTOVER.search(row["text"])
        if leftover:
            failures.append(f"{row['id']}: unfilled slot marker {leftover.group()!r}")
    return _result("slots_filled", len(build.rows) + len(build.failures), failures)


def _first_difference(a: str, b: str) -> str:
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return f"at character {at}: {a[at : at + 30]!r} vs {b[at : at + 30]!r}"


def _differ_only(build: GridBuild) -> CheckResult:
    failures = [
        f"{cell}: the template never places the identifier phrase"
        for cell, skeleton in build.skeletons.items()
        if SENTINEL not in skeleton
    ]
    for row in build.rows:
        skeleton = build.skeletons[row["cell"]]
        if SENTINEL not in skeleton:
            continue
        expected = skeleton.replace(SENTINEL, row["identity"])
        if row["text"] != expected:
            failures.append(
                f"{row['id']}: differs from its cell beyond the identifier phrase "
                + _first_difference(row["text"], expected)
            )
    return _result("differ_only_in_identifier", len(build.rows), failures)


def expected_counts(inputs: GridInputs) -> dict[tuple[str, str], int]:
    """Prompts per (axis, language) the inputs call for: for each identifier, its
    placements in the grid, times profiles, times question variants."""
    per_cell = len(inputs.profiles) * len(inputs.questions)
    expected: Counter[tuple[str, str]] = Counter()
    for language in inputs.languages:
        for ident in inputs.identifiers.identifiers:
            placements = [p for p in inputs.placements if p in ident.placements]
            expected[ident.axis, language] += len(placements) * per_cell
    return dict(expected)


def _counts(inputs: GridInputs, build: GridBuild) -> CheckResult:
    expected = expected_counts(inputs)
    actual = Counter((row["axis"], row["language"]) for row in build.rows)
    failures = [
        f"{axis}/{language}: {actual.get((axis, language), 0)} prompts, expected {n}"
        for (axis, language), n in expected.items()
        if actual.get((axis, language), 0) != n
    ]
    return _result("counts", len(expected), failures)


def _parallel(inputs: GridInputs, build: GridBuild) -> CheckResult:
    languages: dict[str, set[str]] = {}
    for row in build.rows:
        languages.setdefault(row["pair"], set()).add(row["language"])
    wanted = set(inputs.languages)
    failures = [
        f"{pair}: missing in {', '.join(sorted(wanted - present))}"
        for pair, present in languages.items()
        if present != wanted
    ]
    return _result("parallel", len(languages), failures)


def _unique_ids(build: GridBuild) -> CheckResult:
    counts = Counter(row["id"] for row in build.rows)
    return _result(
        "unique_ids", len(counts), [f"{i}: {n} prompts" for i, n in counts.items() if n > 1]
    )


def run_checks(inputs: GridInputs, build: GridBuild) -> tuple[CheckResult, ...]:
    """Every built-in check, in a fixed order."""
    return (
        _slots_filled(build),
        _differ_only(build),
        _counts(inputs, build),
        _parallel(inputs, build),
        _unique_ids(build),
    )
