"""Hinglish variants in the corpus outputs: every format carries the per-word language
tags, the per-sentence conversion record and the validation result, and a variant that
fails its validation is an ``error`` row with the reason, counted in the summary."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guisekit.cli import app

SOURCES = [
    # converted: passes the default band
    {"id": "ok-1", "text": "My rent is Rs 25,000 per month."},
    # no template fits, stays English: Hindi share 0.00 is below the band
    {"id": "bad-1", "text": "Placements there average 28 LPA."},
]


def _run(tmp_path: Path, fmt: str) -> Path:
    data = tmp_path / "src.jsonl"
    data.write_text("".join(json.dumps(s) + "\n" for s in SOURCES), encoding="utf-8")
    config = tmp_path / "corpus.yaml"
    config.write_text(
        f"sources: {{path: {data}}}\nseed: 0\n"
        "transforms:\n  - transform: hinglish\n    mix_ratio: 0.0\n"
        f"output: {{dir: out, format: {fmt}}}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["corpus", str(config)])
    # the outputs are written, and the run says a variant failed: exit status 3
    assert result.exit_code == 3, result.output
    assert "1 validation" in result.output
    return tmp_path / "out"


def _rows(out: Path, name: str, fmt: str) -> list[dict[str, object]]:
    path = out / f"{name}.{fmt}"
    if fmt == "jsonl":
        return [json.loads(x) for x in path.read_text().splitlines()]
    if fmt == "csv":
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(path).to_pylist()
    for row in rows:
        if isinstance(row.get("details"), str):
            row["details"] = json.loads(row["details"])
    return rows


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_every_format_carries_tags_conversions_and_validation(tmp_path: Path, fmt: str) -> None:
    out = _run(tmp_path, fmt)
    rows = {r["source_id"]: r for r in _rows(out, "corpus", fmt)}
    good, bad = rows["ok-1"]["details"], rows["bad-1"]["details"]
    assert isinstance(good, dict) and isinstance(bad, dict)
    assert good["language_tags"][0] == ["Mera", "hi"]
    assert [s["status"] for s in good["sentences"]] == ["converted"]
    assert good["sentences"][0]["original"] == "My rent is Rs 25,000 per month."
    assert good["validation"]["passed"] is True
    assert rows["ok-1"]["status"] == "ok"
    assert [s["status"] for s in bad["sentences"]] == ["english"]
    assert bad["validation"]["passed"] is False


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_a_failed_validation_is_an_error_counted_in_the_summary(tmp_path: Path, fmt: str) -> None:
    out = _run(tmp_path, fmt)
    rows = {r["source_id"]: r for r in _rows(out, "corpus", fmt)}
    assert rows["bad-1"]["status"] == "error"
    assert rows["bad-1"]["reason"] == "validation: mix: Hindi share 0.00 outside [0.06, 0.90]"
    (summary,) = _rows(out, "summary", fmt)
    assert (summary["variants"], summary["ok"], summary["failed_validation"]) == (2, 1, 1)
