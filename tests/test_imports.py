"""The core import path stays light: no provider SDK, web, Parquet or plotting library."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = (
    "openai",
    "anthropic",
    "langchain_core",
    "langchain_openai",
    "langchain_anthropic",
    "fastapi",
    "uvicorn",
    "pyarrow",
    "matplotlib",
    "spacy",
)


@pytest.mark.parametrize(
    "module",
    ["guisekit", "guisekit.corpus", "guisekit.cli", "guisekit.engines", "guisekit.transforms"],
)
def test_importing_the_core_loads_no_optional_library(module: str) -> None:
    code = (
        f"import sys, json, {module}; "
        f"print(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout) == []


def test_a_rules_corpus_run_loads_no_optional_library(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    root = Path(__file__).parents[1]
    code = (
        "import sys, json\n"
        "from guisekit.cli import main\n"
        "try:\n"
        f"    main(['corpus', {str(root / 'examples/quickstart.yaml')!r}, '--overwrite',"
        f" '--out', {str(tmp_path / 'out')!r}])\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        f"print(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=root
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
