"""`guisekit corpus`: the offline corpus job end to end, and its bad-input handling."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guisekit.cli import app

ROOT = Path(__file__).parents[1]
RUNNER = CliRunner()

CONFIG = """
sources: {{path: {sources}, limit: 3}}
seed: 0
transforms:
  - transform: identity
  - transform: persona
    personas: [young-urban-high_school-low, old-rural-college-high]
  - transform: hedge
    direction: [hedged, confident]
  - transform: fact_edit
    kind: scale_amounts
    factor: 10
  - transform: standardise
    style: plain
output: {{dir: out, format: {fmt}}}
"""


def _config(tmp_path: Path, fmt: str = "jsonl", **replace: str) -> Path:
    text = CONFIG.format(sources=ROOT / "examples/data/complaints.jsonl", fmt=fmt)
    for old, new in replace.items():
        text = text.replace(old, new)
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _run(*args: str):  # type: ignore[no-untyped-def]
    from guisekit.cli import main

    try:
        main(list(args))
    except SystemExit as exc:
        return exc.code
    return 0


def test_corpus_writes_corpus_fact_report_and_summary(tmp_path: Path) -> None:
    result = RUNNER.invoke(app, ["corpus", str(_config(tmp_path))])
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    corpus = [json.loads(x) for x in (out / "corpus.jsonl").read_text().splitlines()]
    facts = [json.loads(x) for x in (out / "fact_report.jsonl").read_text().splitlines()]
    summary = [json.loads(x) for x in (out / "summary.jsonl").read_text().splitlines()]
    assert len(corpus) == len(facts) == 3 * 7
    assert len({row["variant_id"] for row in corpus}) == 21
    assert {row["transform"] for row in summary} == {
        "identity",
        "persona",
        "hedge:hedged",
        "hedge:confident",
        "fact_edit:scale_amounts",
        "standardise:plain",
    }
    by_label = {row["transform"]: row for row in summary}
    assert by_label["persona"]["variants"] == 6
    assert by_label["persona"]["fact_pass"] == 1.0
    assert by_label["fact_edit:scale_amounts"]["fact_pass"] == 0.0
    assert by_label["fact_edit:scale_amounts"]["as_intended"] == 1.0
    assert by_label["identity"]["change"] == 0.0
    personas = [r for r in corpus if r["transform"] == "persona"]
    assert {r["persona"] for r in personas} == {
        "young-urban-high_school-low",
        "old-rural-college-high",
    }
    assert all(r["age"] in ("young", "old") for r in personas)
    assert all(f["verdict"] == "pass" for f in facts if f["transform"] != "fact_edit:scale_amounts")


def test_rerun_is_identical_and_refuses_to_clobber_without_overwrite(tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert RUNNER.invoke(app, ["corpus", str(config)]).exit_code == 0
    corpus = tmp_path / "out" / "corpus.jsonl"
    first = corpus.read_bytes()
    assert _run("corpus", str(config)) == 2
    assert corpus.read_bytes() == first
    assert RUNNER.invoke(app, ["corpus", str(config), "--overwrite"]).exit_code == 0
    texts = lambda data: [json.loads(x)["text"] for x in data.decode().splitlines()]  # noqa: E731
    assert texts(corpus.read_bytes()) == texts(first)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_corpus_other_formats(tmp_path: Path, fmt: str) -> None:
    assert RUNNER.invoke(app, ["corpus", str(_config(tmp_path, fmt))]).exit_code == 0
    from guisekit.tables import read_rows

    rows = read_rows(tmp_path / "out" / f"corpus.{fmt}", required=("variant_id", "text"))
    assert len(rows) == 21


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        ({"transform: hedge": "transform: shout"}, "transforms[2]"),
        (
            {"direction: [hedged, confident]": "direction: [hedged, confident]\n    strength: 2"},
            "strength",
        ),
        ({"young-urban-high_school-low": "young-urban-phd-low"}, "unknown level 'phd'"),
        ({"limit: 3": "limit: 3, text_column: body"}, "missing column 'body'"),
        ({"seed: 0": "seed: [0"}, "malformed YAML"),
        ({"format: jsonl": "format: xlsx"}, "output.format"),
        ({"seed: 0": "seed: 0\nworkers: 4"}, "workers"),
    ],
)
def test_bad_configs_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], replace: dict[str, str], message: str
) -> None:
    config = _config(tmp_path, **replace)
    assert _run("corpus", str(config)) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err
    assert message in err
    assert not (tmp_path / "out").exists()


def test_missing_sources_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path)
    config.write_text(config.read_text().replace("complaints.jsonl", "nope.jsonl"))
    assert _run("corpus", str(config)) == 2
    assert "nope.jsonl: file not found" in capsys.readouterr().err


def test_quickstart_config_is_valid_and_plans_1104_variants(tmp_path: Path) -> None:
    from guisekit.corpus import build_plan, load_config
    from guisekit.engines import EngineConfig, make_engine

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    config = load_config(tmp_path / "examples" / "quickstart.yaml")
    plan = build_plan(config, [make_engine(EngineConfig())])
    assert len(plan.sources) == 24
    assert len(plan.specs) == 1 + 36 + 2 + 1 + 3 + 3
    assert len(plan.tasks) == 24 * 46
    assert len({t.key for t in plan.tasks}) == len(plan.tasks)


def test_operators_lists_every_operator_and_try_shows_results_and_reasons() -> None:
    from guisekit.rules.operators import REGISTRY

    listing = RUNNER.invoke(app, ["operators"], env={"COLUMNS": "250"})
    assert listing.exit_code == 0
    assert all(name in listing.output for name in REGISTRY)
    tried = RUNNER.invoke(
        app, ["operators", "--try", "I do not want a $40 fee."], env={"COLUMNS": "250"}
    )
    assert tried.exit_code == 0
    assert "I don't want a $40 fee." in tried.output
    assert "does not apply: nothing in the text matches what caps.v1 rewrites" in tried.output


def test_personas_lists_the_36_personas() -> None:
    result = RUNNER.invoke(app, ["personas"], env={"COLUMNS": "250"})
    assert result.exit_code == 0
    assert "36 personas" in result.output
    assert "old-rural-college-high" in result.output
