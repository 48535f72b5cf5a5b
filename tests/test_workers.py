"""``--workers N`` for ``attributes`` and ``check-facts --pairs``: the chunks run in a process
pool (``guisekit.parallel``), and every output byte is the same for any N."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guisekit import stages
from guisekit.cli import app

ROOT = Path(__file__).parents[1]
RUNNER = CliRunner()


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of a few items, so a small input makes many chunks for the pool."""
    monkeypatch.setattr(stages, "CHECK_CHUNK", 7)
    monkeypatch.setattr(stages, "MEASURE_CHUNK", 5)


def _pairs(folder: Path) -> Path:
    rows = [
        json.loads(line) for line in (ROOT / "examples/data/pairs.jsonl").read_text().splitlines()
    ]
    path = folder / "pairs.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for copy in range(4):
            for row in rows:
                handle.write(json.dumps({**row, "id": f"{row['id']}-{copy}"}) + "\n")
    return path


def _corpus(folder: Path) -> Path:
    rows = [
        json.loads(line)
        for line in (ROOT / "examples/data/complaints.jsonl").read_text().splitlines()
    ]
    path = folder / "corpus.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for i, row in enumerate(rows * 2):
            status = "refused" if i % 11 == 3 else "ok"
            variant = {"source_id": row["id"], "variant_id": f"v{i}", "status": status}
            handle.write(json.dumps({**variant, "text": row["text"]}) + "\n")
    return path


@pytest.mark.usefixtures("small_chunks")
def test_check_facts_pairs_are_byte_identical_for_any_workers(tmp_path: Path) -> None:
    pairs = _pairs(tmp_path)
    outputs = {}
    for workers in (1, 2, 3):
        report = tmp_path / f"report-{workers}.jsonl"
        args = ["check-facts", "--pairs", str(pairs), "--report", str(report)]
        result = RUNNER.invoke(app, [*args, "--workers", str(workers), "--show", "all"])
        assert result.exit_code == 1, result.output  # the example pairs include failures
        outputs[workers] = (report.read_bytes(), result.stdout)
    assert outputs[1] == outputs[2] == outputs[3]
    rows = [json.loads(line) for line in outputs[1][0].decode().splitlines()]
    assert [r["id"] for r in rows][:3] == ["pair-01-0", "pair-02-0", "pair-03-0"]
    assert len(rows) == 64
    assert "64 pairs: 36 pass, 4 warn, 24 fail" in outputs[1][1]


@pytest.mark.usefixtures("small_chunks")
def test_attributes_are_byte_identical_for_any_workers(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    tables = {}
    for workers in (1, 2):
        out = tmp_path / f"attributes-{workers}.jsonl"
        result = RUNNER.invoke(
            app, ["attributes", str(corpus), "--out", str(out), "--workers", str(workers)]
        )
        assert result.exit_code == 0, result.output
        tables[workers] = out.read_bytes()
    assert tables[1] == tables[2]
    rows = [json.loads(line) for line in tables[1].decode().splitlines()]
    assert [r["variant_id"] for r in rows] == [f"v{i}" for i in range(48)]
    assert rows[3]["fk_grade"] is None and rows[4]["fk_grade"] > 0  # refused: not measured


def test_chunks_do_not_depend_on_the_worker_count() -> None:
    from guisekit.facts import SeverityPolicy

    items = [(f"p{i}", f"I paid ${i}.", f"I paid ${i}.") for i in range(12)]
    chunks = [(SeverityPolicy(), items[i : i + 5]) for i in range(0, 12, 5)]
    one = stages.run_chunks(stages.check_pairs_chunk, chunks, workers=1)
    two = stages.run_chunks(stages.check_pairs_chunk, chunks, workers=2)
    assert [(p, r.to_dict()) for p, r in one] == [(p, r.to_dict()) for p, r in two]
    assert [p for p, _ in one] == [f"p{i}" for i in range(12)]
    assert all(r.passed for _, r in one)
