"""A core install (the wheel without extras) runs the main jobs; a job that needs an
extra says which, in one line. Builds a fresh virtual environment: slow, and it needs the
package registry (pip's cache is reused)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

pytestmark = pytest.mark.slow


def _run(*args: str | Path, cwd: Path, timeout: int = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


@pytest.fixture(scope="module")
def core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with only the core install of this checkout's wheel."""
    work = tmp_path_factory.mktemp("core")
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", work, ROOT, cwd=work)
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = work.glob("guisekit-*.whl")
    venv.create(work / "venv", with_pip=True)
    python = work / "venv" / "bin" / "python"
    installed = _run(python, "-m", "pip", "install", "-q", wheel, cwd=work)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return work / "venv" / "bin"


def test_core_install_has_no_optional_library(core: Path) -> None:
    listed = _run(core / "python", "-m", "pip", "list", "--format=freeze", cwd=ROOT)
    names = {line.split("==")[0].lower() for line in listed.stdout.splitlines()}
    for extra in ("openai", "anthropic", "langchain-core", "fastapi", "pyarrow", "matplotlib"):
        assert extra not in names
    assert "spacy" not in names


def test_core_install_runs_the_quickstart_corpus_and_check_facts(
    core: Path, tmp_path: Path
) -> None:
    # run outside the checkout, so the installed package (and its bundled data) is used
    examples = tmp_path / "examples"
    shutil.copytree(ROOT / "examples", examples)
    done = _run(
        core / "guisekit",
        "corpus",
        examples / "quickstart.yaml",
        "--out",
        tmp_path / "out",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "out" / "corpus.jsonl").is_file()
    lines = (tmp_path / "out" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1104
    facts = _run(
        core / "guisekit",
        "check-facts",
        "I paid $1,200 on 03/14/2023.",
        "On March 14, 2023 I paid twelve hundred dollars.",
        cwd=tmp_path,
    )
    assert facts.returncode == 0, facts.stderr[-3000:]
    assert "pass" in facts.stdout.lower()


def test_core_install_audit_says_which_extra_is_missing(core: Path, tmp_path: Path) -> None:
    done = _run(
        core / "guisekit",
        "audit",
        "--pairs",
        ROOT / "examples/data/pairs.jsonl",
        "--out",
        tmp_path / "audit",
        cwd=tmp_path,
    )
    assert done.returncode == 2
    err = done.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert "'llm' extra" in err and "pip install 'guisekit[llm]'" in err
    assert not (tmp_path / "audit").exists()
