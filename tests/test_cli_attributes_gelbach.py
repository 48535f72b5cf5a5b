"""`guisekit attributes` on a corpus written by `guisekit corpus`, then `guisekit gelbach`
on the attribute table with an outcome; bad input exits 2 with one line."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from e2e_helpers import cli
from typer.testing import CliRunner

from guisekit.attributes import OBJECTIVE_MEASURES
from guisekit.cli import app

ROOT = Path(__file__).parents[1]
RUNNER = CliRunner()
PERSONAS = [
    "young-urban-high_school-low",
    "young-urban-college-low",
    "old-rural-high_school-high",
    "old-rural-college-high",
]
CONFIG = f"""
sources: {{path: {ROOT / "examples/data/complaints.jsonl"}, limit: 6}}
seed: 0
transforms:
  - transform: identity
  - transform: persona
    personas: [{", ".join(PERSONAS)}]
output: {{dir: out, format: jsonl}}
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real corpus (6 sources x identity + 4 personas) plus one refused variant."""
    folder = tmp_path_factory.mktemp("corpus")
    config = folder / "config.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    result = RUNNER.invoke(app, ["corpus", str(config)])
    assert result.exit_code == 0, result.output
    path = folder / "out" / "corpus.jsonl"
    refused = {
        "source_id": "cfpb-001",
        "variant_id": "v-refused",
        "transform": "persona",
        "status": "refused",
        "reason": "declined",
        "text": "",
        "persona": PERSONAS[0],
        "education": "high_school",
    }
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(refused) + "\n")
    return path


@pytest.fixture(scope="module")
def attributes(corpus: Path) -> Path:
    target = corpus.parent / "attributes.jsonl"
    result = RUNNER.invoke(
        app,
        [
            "attributes",
            str(corpus),
            "--out",
            str(target),
            "--report",
            str(corpus.parent / "manipulation.csv"),
            "--resamples",
            "200",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Manipulation" in result.stdout
    return target


def test_attributes_writes_one_row_per_variant_with_every_objective_measure(
    corpus: Path, attributes: Path
) -> None:
    variants = [json.loads(line) for line in corpus.read_text().splitlines()]
    rows = [json.loads(line) for line in attributes.read_text().splitlines()]
    assert [r["variant_id"] for r in rows] == [v["variant_id"] for v in variants]
    assert len(rows) == 6 * 5 + 1
    for row in rows:
        assert "text" not in row and "spec" not in row
        assert set(OBJECTIVE_MEASURES) <= set(row)
    refused = rows[-1]
    assert refused["status"] == "refused"
    assert all(refused[m] is None for m in OBJECTIVE_MEASURES)
    measured = rows[0]
    assert measured["n_words"] > 50 and measured["fk_grade"] > 0
    assert {r.get("education") for r in rows} == {None, "college", "high_school"}


def test_manipulation_report_rows(attributes: Path) -> None:
    with (attributes.parent / "manipulation.csv").open(encoding="utf-8") as handle:
        report = {row["attribute"]: row for row in csv.DictReader(handle)}
    assert set(report) == set(OBJECTIVE_MEASURES)
    assert report["fk_grade"]["family"] == "delivery"
    assert report["n_words"]["n_personas"] == "4"
    assert report["n_words"]["n_sources"] == "6"
    assert 0 < float(report["sophisticated_rate"]["eta_squared"]) <= 1


def test_attributes_refuses_to_clobber_and_an_llm_engine_without_model(
    corpus: Path, attributes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("attributes", str(corpus), "--out", str(attributes)) == 2
    target = attributes.parent / "llm.jsonl"
    result = RUNNER.invoke(
        app, ["attributes", str(corpus), "--out", str(target), "--engine", "llm"]
    )
    assert result.exit_code == 1  # CliRunner on app sees the raw exception
    assert "--engine llm needs --model" in str(result.exception)
    assert cli("attributes", str(corpus), "--out", str(target), "--engine", "llm") == 2
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    args = ("--engine", "llm", "--model", "openai:gpt-4o-mini")
    assert cli("attributes", str(corpus), "--out", str(target), *args) == 2
    assert not target.exists()


def _with_outcome(attributes: Path, folder: Path) -> Path:
    rows = [json.loads(line) for line in attributes.read_text().splitlines()]
    rng = np.random.default_rng(0)
    for row in rows:
        if row["n_words"] is not None:
            row["approved"] = (
                0.3 * row["sophisticated_rate"] - 0.2 * row["misspelling_rate"] + rng.normal()
            )
        else:
            row["approved"] = None
    path = folder / "decisions.csv"
    columns = list(dict.fromkeys(k for row in rows for k in row))
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_gelbach_on_the_attribute_table(attributes: Path, tmp_path: Path) -> None:
    data = _with_outcome(attributes, tmp_path)
    args = [
        "gelbach",
        str(data),
        "--outcome",
        "approved",
        "--focal-column",
        "education",
        "--focal-level",
        "college",
        "--base-level",
        "high_school",
        "--attributes",
        "sophisticated_rate,misspelling_rate,mean_sentence_length=structure",
        "--resamples",
        "300",
        "--out",
        str(tmp_path / "g"),
    ]
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "g" / "gelbach.json").read_text())
    assert doc["n_obs"] == 24 and doc["n_sources"] == 6
    assert doc["attributes"] == {
        "sophisticated_rate": "delivery",
        "misspelling_rate": "delivery",
        "mean_sentence_length": "structure",
    }
    assert doc["left_out"] == {"outside_contrast": 6, "missing_values": 1}
    rows = {(r["kind"], r["term"]): r for r in doc["rows"]}
    explained = rows[("explained", "explained")]["estimate"]
    assert explained == pytest.approx(
        rows[("family", "delivery")]["estimate"] + rows[("family", "structure")]["estimate"]
    )
    assert (tmp_path / "g" / "gelbach.png").read_bytes()[:4] == b"\x89PNG"
    assert "Gelbach decomposition of approved" in result.stdout
    assert cli(*args) == 2  # outputs exist


def test_gelbach_defaults_to_the_sets_attributes_present(attributes: Path, tmp_path: Path) -> None:
    data = _with_outcome(attributes, tmp_path)
    args = ["gelbach", str(data), "--outcome", "approved", "--focal-column", "education"]
    args += ["--focal-level", "college", "--resamples", "0", "--out", str(tmp_path / "g")]
    args += ["--plot-format", "svg"]
    result = RUNNER.invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "g" / "gelbach.json").read_text())
    expected = set(OBJECTIVE_MEASURES) - {"n_words", "n_sentences"}
    # a measure the guises never move (booster density: no persona adds boosters) is
    # reported and left out of the defaults
    line = next((x for x in result.stderr.splitlines() if x.startswith("constant")), "")
    constant = {m for m in expected if m in line}
    assert set(doc["attributes"]) == expected - constant
    assert set(doc["attributes"]) >= {"fk_grade", "sophisticated_rate", "informal_marker_rate"}
    assert doc["bootstrap"] is None
    assert "politeness" in result.stderr  # the set's LLM attributes are reported missing


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--attributes", "fk_grade=tone"], "unknown family 'tone'"),
        (["--attributes", "my_score"], "has no family in the set"),
        (["--attributes", "fk_grade", "--focal-level", "phd"], "level 'phd' never occurs"),
        (["--attributes", "fk_grade", "--base-level", "college"], "focal and base"),
        (["--attributes", "fk_grade", "--attribute-set", "nope"], "neither a packaged set"),
        (["--attributes", "fk_grade", "--outcome", "status"], "is not a number"),
    ],
)
def test_gelbach_bad_input_exits_2_with_one_line(
    attributes: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    data = _with_outcome(attributes, tmp_path)
    base = ["gelbach", str(data), "--outcome", "approved", "--focal-column", "education"]
    base += ["--focal-level", "college", "--out", str(tmp_path / "g"), "--resamples", "0"]
    assert cli(*base, *extra) == 2
    printed = capsys.readouterr().err.strip()
    assert printed.startswith("error:") and message in printed
    assert len(printed.splitlines()) == 1


def test_gelbach_reads_the_attributes_jsonl_as_columns_issue_17_defect_15(
    attributes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Identity rows of the JSONL ``attributes`` writes have no persona keys: the columnar
    loader reads them as outside the contrast, exactly as the row path does."""
    from guisekit.gelbach import GelbachData
    from guisekit.gelbach import columns as columnar

    with _with_outcome(attributes, tmp_path).open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    lines = [json.loads(line) for line in attributes.read_text().splitlines()]
    assert any("education" not in row for row in lines)  # the defect's shape
    data = tmp_path / "scored.jsonl"
    with data.open("w", encoding="utf-8") as handle:
        for line, row in zip(lines, rows, strict=True):
            value = row["approved"]
            line["approved"] = None if value in ("", None) else float(value)
            handle.write(json.dumps(line) + "\n")
    args = ["gelbach", str(data), "--outcome", "approved", "--focal-column", "education"]
    args += ["--focal-level", "college", "--control", "age", "--resamples", "200"]
    args += ["--attributes", "sophisticated_rate,misspelling_rate"]
    with monkeypatch.context() as patch:
        patch.setattr(GelbachData, "from_rows", None)  # any use of the row path would fail
        fast = RUNNER.invoke(app, [*args, "--out", str(tmp_path / "columns")])
    assert fast.exit_code == 0, fast.output
    with monkeypatch.context() as patch:
        patch.setattr(columnar, "read_table", lambda path: None)
        slow = RUNNER.invoke(app, [*args, "--out", str(tmp_path / "rows")])
    assert slow.exit_code == 0, slow.output
    doc = json.loads((tmp_path / "columns" / "gelbach.json").read_text())
    assert doc["n_obs"] == 24 and doc["left_out"] == {"outside_contrast": 6, "missing_values": 1}
    assert doc == json.loads((tmp_path / "rows" / "gelbach.json").read_text())
