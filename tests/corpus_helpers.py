"""Shared helpers of the streaming-corpus tests: a quickstart-like config and a CLI call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "examples/data/complaints.jsonl"
FILES = ("corpus", "fact_report", "summary")


def write_config(
    tmp_path: Path,
    *,
    limit: int = 6,
    fmt: str = "jsonl",
    name: str = "c",
    sources: Path = SOURCES,
) -> Path:
    """Personas, hedging, accent, fact edits and standardising over ``limit`` sources."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"sources: {{path: {sources}, limit: {limit}}}\n"
        "seed: 3\n"
        "transforms:\n"
        "  - transform: identity\n"
        "  - transform: persona\n"
        "    personas: [young-urban-high_school-low, old-rural-college-high]\n"
        "  - transform: hedge\n"
        "    direction: [hedged, confident]\n"
        "  - transform: accent\n"
        "    article_drop_rate: 0.5\n"
        "    marker_rate: 0.5\n"
        "  - transform: fact_edit\n"
        "    kind: [scale_amounts, weaken]\n"
        "    factor: 10\n"
        "  - transform: standardise\n"
        "    style: [plain, formal]\n"
        f"output: {{dir: out, format: {fmt}}}\n",
        encoding="utf-8",
    )
    return path


def many_sources(tmp_path: Path, copies: int) -> Path:
    """The bundled complaints ``copies`` times over under new ids: a run long enough that a
    test can stop it part-way on a loaded machine."""
    rows = [json.loads(line) for line in SOURCES.read_text(encoding="utf-8").splitlines()]
    path = tmp_path / "many.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for copy in range(copies):
            for row in rows:
                out.write(json.dumps({**row, "id": f"{row['id']}-{copy}"}) + "\n")
    return path


def run_cli(*args: str) -> Any:
    """``guisekit ARGS`` in this process; the exit code."""
    from guisekit.cli import main

    try:
        main(list(args))
    except SystemExit as exc:
        return exc.code
    return 0


def outputs(folder: Path, suffix: str = ".jsonl") -> dict[str, bytes]:
    """The bytes of a run's corpus, fact report and summary."""
    return {name: (folder / f"{name}{suffix}").read_bytes() for name in FILES}
