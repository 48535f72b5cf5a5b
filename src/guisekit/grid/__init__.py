"""Explicit identifier counterfactual grids (English, Hinglish and any other language).

An audit varies one demographic identifier at a time in otherwise identical prompts. A
grid is built from data files (identifier table, base profiles, templates, question
variants), checked (no unfilled slot, prompts of a cell differ only in the identifier
phrase, counts equal the product of the inputs, languages parallel), and written
atomically; its ``id`` and ``text`` columns feed ``guisekit corpus`` like any source file.

A published benchmark is reproduced from its own files: field mappings read its
identifier and profile files as they are (:mod:`~guisekit.grid.sources`), an id template
and a factor order rebuild its ids and row order (:mod:`~guisekit.grid.ids`), and
:func:`compare_rows` checks the result against its prompt file.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guisekit.grid.build import GridBuild, build_rows
from guisekit.grid.checks import CheckResult, expected_counts, run_checks
from guisekit.grid.compare import Comparison, compare_rows, read_reference
from guisekit.grid.config import GridConfig, load_grid_config, load_identifier_set, resolve_inputs
from guisekit.grid.ids import IdSpec, slugify
from guisekit.grid.model import GridInputs, Identifier, IdentifierSet, Profile, Question
from guisekit.grid.sources import IdentifierSource, ProfileSource
from guisekit.tables import Format, write_rows

__all__ = [
    "CheckResult",
    "Comparison",
    "GridConfig",
    "GridInputs",
    "GridResult",
    "IdSpec",
    "Identifier",
    "IdentifierSet",
    "IdentifierSource",
    "Profile",
    "ProfileSource",
    "Question",
    "build_grid",
    "compare_rows",
    "expected_counts",
    "load_grid_config",
    "load_identifier_set",
    "read_reference",
    "resolve_inputs",
    "slugify",
]


@dataclass(frozen=True)
class GridResult:
    """A built grid: its prompt rows and the result of every check."""

    inputs: GridInputs
    build: GridBuild
    checks: tuple[CheckResult, ...]

    @property
    def rows(self) -> list[dict[str, Any]]:
        return self.build.rows

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def counts(self) -> dict[tuple[str, str], int]:
        """Prompts per (axis, language), in the order of the identifier set's axes."""
        found = Counter((row["axis"], row["language"]) for row in self.rows)
        return {
            (axis, language): found.get((axis, language), 0)
            for axis in self.inputs.identifiers.axes
            for language in self.inputs.languages
        }

    def write(
        self, path: str | Path, *, fmt: Format | None = None, overwrite: bool = False
    ) -> Path:
        """Write the rows atomically (JSONL, CSV or Parquet by suffix or ``fmt``)."""
        return write_rows(path, self.rows, fmt=fmt, overwrite=overwrite)


def build_grid(inputs: GridInputs) -> GridResult:
    """Render every prompt of the grid and run the built-in checks on it."""
    build = build_rows(inputs)
    return GridResult(inputs, build, run_checks(inputs, build))
