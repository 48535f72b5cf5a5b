"""ruff and mypy stay clean: run as tests so CI enforces them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", "src", "tests", "benchmarks", "cli.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean_on_src() -> None:
    result = _run("mypy", "src")
    assert result.returncode == 0, result.stdout + result.stderr
