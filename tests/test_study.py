"""guisekit study end to end offline: a Python-callable decision model on a rules-engine
corpus; the second run makes zero new calls; a failing stage stops with a non-zero exit."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from e2e_helpers import cli, rules_corpus

from guisekit.outputs import check_set

sys.path.insert(0, str(Path(__file__).parent))
import decision_models

SCALE_AMOUNTS = "  - transform: fact_edit\n    kind: [scale_amounts]\n"
# the study writes the corpus into its own output folder
CORPUS = rules_corpus(limit=4, out="unused", extra=SCALE_AMOUNTS)

STUDY = """
name: tiny
corpus: corpus.yaml
decide:
  task: complaint_remedy
  model: python:decision_models:{model}
  repeats: 2
  max_failure_rate: 0.0
attributes: {{engine: rules}}
gaps: {{outcome: prob_monetary_action, resamples: 200}}
gelbach:
  focal_column: age
  focal_level: [old]
  base_level: [young]
  attributes: [informal_marker_rate, fk_grade]
  control: [education]
  resamples: 100
output: out
"""


def _write(tmp_path: Path, model: str) -> Path:
    (tmp_path / "corpus.yaml").write_text(CORPUS)
    study = tmp_path / "study.yaml"
    study.write_text(STUDY.format(model=model))
    return study


def _sha256(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def _manifest(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "out" / "manifest.json").read_text())


def test_study_end_to_end_then_cached(tmp_path: Path) -> None:
    study = _write(tmp_path, "counting")
    decision_models.CALLS.clear()
    assert cli("study", str(study)) == 0
    first = _manifest(tmp_path)
    assert [s["name"] for s in first["stages"]] == [
        "corpus",
        "decide",
        "attributes",
        "gaps",
        "gelbach",
    ]
    assert {s["status"] for s in first["stages"]} == {"ran"}
    decide = first["stages"][1]
    assert decide["counts"]["decisions"] == 4 * 38 * 2
    assert decide["counts"]["new_decisions"] == 4 * 38 * 2
    assert sum(decision_models.CALLS) == 4 * 38 * 2
    assert first["config"] == study.read_text()
    assert first["guisekit_version"] and first["started"] <= first["finished"]
    assert (first["command"], first["status"], first["counts"]) == ("study", "complete", {"ran": 5})
    assert first["inputs"] == {str(p): _sha256(p) for p in (study, tmp_path / "corpus.yaml")}
    assert first["models"] == [{"model": decide["counts"]["model"], "prompt": None}]
    for stage in first["stages"]:
        assert stage["outputs"] == {p: _sha256(Path(p)) for p in stage["outputs"]}
    # every stage published its outputs as one set, with its own manifest
    out = tmp_path / "out"
    for output, command in [
        (out / "corpus", "corpus"),
        (out / "decisions.jsonl", "decide"),
        (out / "attributes.csv", "attributes"),
        (out / "gaps", "gaps"),
        (out / "gelbach", "gelbach"),
    ]:
        assert check_set(output)["command"] == command
    assert (tmp_path / "out" / "gaps" / "report.html").is_file()
    assert (tmp_path / "out" / "gelbach" / "gelbach.csv").is_file()
    # second run: every stage cached, no call
    assert cli("study", str(study)) == 0
    assert {s["status"] for s in _manifest(tmp_path)["stages"]} == {"cached"}
    assert sum(decision_models.CALLS) == 4 * 38 * 2
    # rerun: every stage runs again, decisions come from the answer cache
    assert cli("study", str(study), "--rerun") == 0
    again = _manifest(tmp_path)
    assert {s["status"] for s in again["stages"]} == {"ran"}
    assert again["stages"][1]["counts"]["new_decisions"] == 0
    assert sum(decision_models.CALLS) == 4 * 38 * 2


def test_failing_stage_stops_the_study(tmp_path: Path, capsys) -> None:
    study = _write(tmp_path, "bad_labels")
    assert cli("study", str(study)) == 2
    assert "decisions failed" in capsys.readouterr().err
    manifest = _manifest(tmp_path)
    stages = {s["name"]: s for s in manifest["stages"]}
    assert stages["decide"]["status"] == "failed"
    assert "gaps" not in stages and not (tmp_path / "out" / "gaps").exists()
    # the study's manifest says it failed (it is the record the next run resumes from)
    assert (manifest["status"], manifest["counts"]) == ("failed", {"ran": 1, "failed": 1})
    assert "finished" not in manifest
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if ".guisekit-" in p.name) == []


def test_study_that_fails_before_any_stage_leaves_nothing(tmp_path: Path) -> None:
    study = _write(tmp_path, "counting")
    (tmp_path / "corpus.yaml").write_text("sources: {path: missing.jsonl}\n", encoding="utf-8")
    assert cli("study", str(study)) == 2
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("decide: {task: complaint_remedy, model: x}\n", "exactly one of corpus"),
        ("corpus: c.yaml\ndecide: {task: complaint_remedy}\n", "decide.model"),
        ("corpus: c.yaml\ndecide: {task: t, model: m}\nbogus: 1\n", "bogus"),
    ],
)
def test_bad_study_config_is_one_line(tmp_path: Path, capsys, text: str, message: str) -> None:
    study = tmp_path / "s.yaml"
    study.write_text(text)
    assert cli("study", str(study)) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


AUDITED = """
name: audited
corpus: corpus.yaml
audit:
  auditors: ["openai:stub-careful@{openai}", "anthropic:stub-strict@{anthropic}"]
  bootstrap: 50
decide:
  task: complaint_remedy
  model: python:decision_models:counting
gaps: {{outcome: prob_monetary_action, resamples: 50}}
output: out
"""

SMALL_CORPUS = rules_corpus(
    limit=2,
    out="unused",
    personas="[young-urban-high_school-low, old-rural-college-high]",
    extra=SCALE_AMOUNTS,
)


def test_study_with_an_audit_stage_through_the_stub(tmp_path: Path, monkeypatch) -> None:
    from guisekit.testing import StubConfig, StubServer
    from guisekit.testing.audit_responder import audit_responder

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    (tmp_path / "corpus.yaml").write_text(SMALL_CORPUS)
    with StubServer(StubConfig(), audit_responder) as stub:
        study = tmp_path / "study.yaml"
        study.write_text(
            AUDITED.format(openai=stub.openai_base_url, anthropic=stub.anthropic_base_url)
        )
        assert cli("study", str(study)) == 0
        calls = stub.stats().total_requests
        # each auditor sees every non-identity variant whose text differs from its source
        corpus = (tmp_path / "out" / "corpus" / "corpus.jsonl").read_text().splitlines()
        rows = [json.loads(x) for x in corpus]
        source = {r["source_id"]: r["text"] for r in rows if r["transform"] == "identity"}
        changed = [r for r in rows if r["transform"] != "identity"]
        changed = [r for r in changed if r["text"] != source[r["source_id"]]]
        assert 4 <= len(changed) <= 2 * 3  # 2 sources x 3 non-identity variants
        assert calls == len(changed) * 2  # x 2 auditors
        stages = {s["name"]: s for s in _manifest(tmp_path)["stages"]}
        assert stages["audit"]["status"] == "ran" and stages["audit"]["counts"]["files"] > 0
        assert cli("study", str(study), "--rerun") == 0
        assert stub.stats().total_requests == calls, "the audit answers come from the cache"
