"""A manifest beside every command's outputs (issue #17, "A manifest.json in every output
folder"): ``attributes``, ``check-facts --report``, ``decide``, ``grid``, ``gaps``,
``gelbach`` and ``audit`` publish their files together with a manifest (command, arguments,
config, version, input hashes, models, counts per status, start and end times), and a run
that fails while writing leaves the previous outputs, and their manifest, as they were.

Folder outputs (``gaps``, ``gelbach``, ``audit``) hold ``manifest.json``; file outputs hold
``<file>.manifest.json`` beside the (first) file. ``corpus`` is covered by
``tests/test_output_sets.py`` and ``study`` by ``tests/test_study.py``.
"""

from __future__ import annotations

import csv
import datetime as dt
import errno
import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from corpus_helpers import run_cli, write_config
from test_bad_inputs import GELBACH

import guisekit
from guisekit.outputs import check_set, manifest_path

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "examples/data/pairs.jsonl"
GRID = ROOT / "examples/grid_salary.yaml"
PLANTED = "python:guisekit.testing.decision_responder:planted"


# -- helpers -------------------------------------------------------------------------------


def _sha256(path: Path) -> str:
    """The real hash of a file, computed here and not by the code under test."""
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def _rows(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".csv":
        with path.open(encoding="utf-8", newline="") as handle:
            return list(csv.DictReader(handle))
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _checked(output: Path, command: str, inputs: Iterable[Path]) -> dict[str, Any]:
    """The manifest of ``output`` after the checks every command shares: every listed file
    has its recorded hash and row count, the inputs carry their real sha256, and the
    version and ordered times are there; no hidden temporaries are left."""
    manifest = check_set(output)
    folder = manifest_path(output).parent
    assert manifest["command"] == command
    assert manifest["inputs"] == {str(p): _sha256(p) for p in inputs}
    assert manifest["guisekit_version"] == guisekit.__version__
    started = dt.datetime.fromisoformat(manifest["started"])
    finished = dt.datetime.fromisoformat(manifest["finished"])
    assert started <= finished <= dt.datetime.now(dt.UTC)
    for name, entry in manifest["files"].items():
        assert entry["sha256"] == _sha256(folder / name), name
        if "rows" in entry and not name.endswith(".parquet"):
            assert len(_rows(folder / name)) == entry["rows"], name
    assert _leftovers(folder) == []
    return manifest


def _leftovers(folder: Path) -> list[str]:
    """Hidden folders or files of unpublished runs, beside or inside ``folder``."""
    places = [folder, folder.parent] if folder.is_dir() else [folder.parent]
    return sorted(p.name for place in places for p in place.iterdir() if ".guisekit-" in p.name)


def _state(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, by relative path, with its bytes."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _full_disk(monkeypatch: pytest.MonkeyPatch, module: Any, after: str = "") -> None:
    """Make ``module.write_rows`` write half a file and then fail as on a full disk (for
    the file whose name starts with ``after``, or the first one)."""
    real = module.write_rows

    def write_rows(path: Path, rows: Any, **kwargs: Any) -> Path:
        if not Path(path).name.startswith(after):
            return real(path, rows, **kwargs)
        Path(path).write_text('{"half": ', encoding="utf-8")
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(module, "write_rows", write_rows)


def _fails_cleanly(
    capsys: pytest.CaptureFixture[str], args: list[str], folder: Path, public: Path
) -> None:
    """``guisekit ARGS`` fails (exit 2, one line naming ``public``, not a hidden copy) and
    leaves ``folder`` byte for byte as it was, with no temporaries."""
    before = _state(folder)
    capsys.readouterr()
    assert run_cli(*args) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    [line] = [x for x in err.splitlines() if x.startswith("error: ")]
    assert f"cannot write {public}: No space left on device" in line, line
    assert ".guisekit-" not in line
    assert _state(folder) == before
    assert _leftovers(folder) == []


# -- a small run of the chain, built once ----------------------------------------------------


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rules-engine corpus (3 sources), its attributes and manipulation report, and the
    planted model's decisions on it."""
    folder = tmp_path_factory.mktemp("chain")
    config = write_config(folder, limit=3)
    assert run_cli("corpus", str(config)) == 0
    corpus = folder / "out" / "corpus.jsonl"
    assert (
        run_cli(
            "attributes",
            str(corpus),
            "--out",
            str(folder / "attributes.csv"),
            "--report",
            str(folder / "manipulation.jsonl"),
            "--resamples",
            "50",
        )
        == 0
    )
    decided = ["decide", str(corpus), "--task", "complaint_remedy", "--model", PLANTED]
    assert run_cli(*decided, "--out", str(folder / "decisions.jsonl")) == 0
    return folder


# -- file outputs --------------------------------------------------------------------------


def test_attributes_manifest(chain: Path) -> None:
    out, report = chain / "attributes.csv", chain / "manipulation.jsonl"
    assert manifest_path(out) == chain / "attributes.csv.manifest.json"
    corpus = chain / "out" / "corpus.jsonl"
    manifest = _checked(out, "attributes", [corpus])
    table = _rows(out)
    assert manifest["files"] == {
        "attributes.csv": {"rows": len(table), "sha256": _sha256(out), "bytes": out.stat().st_size},
        "manipulation.jsonl": {
            "rows": len(_rows(report)),
            "sha256": _sha256(report),
            "bytes": report.stat().st_size,
        },
    }
    assert manifest["counts"] == dict(Counter(row["status"] for row in table))
    assert manifest["arguments"]["corpus"] == str(corpus)
    assert manifest["arguments"]["resamples"] == 50
    assert manifest["config"]["name"] == "complaints"  # the attribute set, copied
    assert manifest["models"] == []  # the rules engine asks no model


def test_attributes_failing_run_leaves_the_previous_outputs(
    chain: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import guisekit.tables

    corpus = chain / "out" / "corpus.jsonl"
    out, report = tmp_path / "attributes.csv", tmp_path / "r.jsonl"
    # a refusal found after measuring: neither the table nor a manifest is written
    args = ["attributes", str(corpus), "--out", str(out), "--report", str(report)]
    assert run_cli(*args, "--persona-column", "nope") == 2
    assert list(tmp_path.iterdir()) == []
    assert run_cli(*args, "--resamples", "20") == 0
    first = _checked(out, "attributes", [corpus])
    _full_disk(monkeypatch, guisekit.tables, after="attributes.csv")  # after the report
    _fails_cleanly(capsys, [*args, "--resamples", "20", "--overwrite"], tmp_path, out)
    assert check_set(out)["run_id"] == first["run_id"]


def test_decide_manifest(chain: Path) -> None:
    out = chain / "decisions.jsonl"
    manifest = _checked(out, "decide", [chain / "out" / "corpus.jsonl"])
    rows = _rows(out)
    assert manifest["files"]["decisions.jsonl"]["rows"] == len(rows) > 0
    assert manifest["counts"] == dict(Counter(row["status"] for row in rows))
    assert manifest["arguments"]["task_name"] == "complaint_remedy"
    assert manifest["arguments"]["model_spec"] == PLANTED
    [model] = manifest["models"]
    assert model["model"] == rows[0]["model"]
    assert model["prompt"] == rows[0].get("prompt_version")


def test_decide_failing_run_leaves_the_previous_outputs(
    chain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import guisekit.tables

    corpus = chain / "out" / "corpus.jsonl"
    folder = tmp_path / "d"
    folder.mkdir()
    out = folder / "decisions.jsonl"
    args = ["decide", str(corpus), "--task", "complaint_remedy", "--model", PLANTED]
    args += ["--out", str(out), "--cache", str(tmp_path / "c.sqlite")]  # the answer cache
    with monkeypatch.context() as patch:  # a first run that fails writes nothing
        _full_disk(patch, guisekit.tables)
        _fails_cleanly(capsys, args, folder, out)
    assert list(folder.iterdir()) == []
    assert run_cli(*args) == 0
    first = _checked(out, "decide", [corpus])
    _full_disk(monkeypatch, guisekit.tables)
    _fails_cleanly(capsys, [*args, "--overwrite"], folder, out)
    assert check_set(out)["run_id"] == first["run_id"]


def test_check_facts_report_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import guisekit.tables

    report = tmp_path / "report.jsonl"
    args = ["check-facts", "--pairs", str(PAIRS), "--report", str(report), "--workers", "1"]
    assert run_cli(*args) in (0, 1)  # 1: some pair failed, as in diff
    manifest = _checked(report, "check-facts", [PAIRS])
    rows = _rows(report)
    assert len(rows) == len(_rows(PAIRS))
    assert manifest["counts"] == dict(Counter(row["verdict"] for row in rows))
    assert manifest["arguments"]["pairs"] == str(PAIRS)
    assert manifest["config"] == {"fail_on": "fail", "date_order": "auto"}
    _full_disk(monkeypatch, guisekit.tables)
    _fails_cleanly(capsys, [*args, "--overwrite"], tmp_path, report)
    assert check_set(report)["run_id"] == manifest["run_id"]


def test_check_facts_takes_a_long_text_for_a_text_not_a_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: a text over 255 characters was taken for a file name and ended in
    "File name too long" (exit 2) instead of being checked."""
    long = "I paid $40 on 3 May. " * 20
    assert run_cli("check-facts", long, long) == 0
    assert "1 pairs: 1 pass" in capsys.readouterr().out


def test_grid_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import guisekit.grid

    out = tmp_path / "grid.jsonl"
    assert run_cli("grid", str(GRID), "--out", str(out)) == 0
    manifest = check_set(out)
    inputs = [Path(p) for p in manifest["inputs"]]
    assert inputs[0] == GRID and len(inputs) > 1  # the config, then the files it reads
    assert all(p.resolve().is_relative_to((ROOT / "examples").resolve()) for p in inputs)
    _checked(out, "grid", inputs)
    rows = _rows(out)
    assert manifest["counts"]["prompts"] == manifest["files"]["grid.jsonl"]["rows"] == len(rows)
    assert manifest["config"]["name"] == rows[0].get("grid", manifest["config"]["name"])
    assert manifest["arguments"]["out_file"] == str(out)
    _full_disk(monkeypatch, guisekit.grid)
    _fails_cleanly(capsys, ["grid", str(GRID), "--out", str(out), "--overwrite"], tmp_path, out)
    assert check_set(out)["run_id"] == manifest["run_id"]


# -- folder outputs ------------------------------------------------------------------------


def test_gaps_manifest(
    chain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import guisekit.gaps.report

    corpus, decisions = chain / "out" / "corpus.jsonl", chain / "decisions.jsonl"
    out = tmp_path / "gaps"
    args = ["gaps", str(corpus), str(decisions), "--outcome", "prob_monetary_action"]
    args += ["--out", str(out), "--resamples", "50"]
    assert run_cli(*args) == 0
    manifest = _checked(out, "gaps", [corpus, decisions])
    assert set(manifest["files"]) == {p.name for p in out.iterdir()} - {"manifest.json"}
    contrasts = _rows(out / "contrasts.csv")
    assert manifest["files"]["contrasts.csv"]["rows"] == len(contrasts)
    verdicts = Counter(r["verdict"] for r in contrasts if r["kind"] in ("persona", "identifier"))
    for verdict in ("equivalent", "exists", "inconclusive"):
        assert manifest["counts"][verdict] == verdicts[verdict]
    assert manifest["counts"]["contrasts"] == len(contrasts)
    assert manifest["arguments"]["resamples"] == 50
    _full_disk(monkeypatch, guisekit.gaps.report, after="instability")
    _fails_cleanly(capsys, [*args, "--overwrite"], tmp_path, out / "instability.csv")
    assert check_set(out)["run_id"] == manifest["run_id"]


def _gelbach(folder: Path) -> tuple[Path, list[str]]:
    data = folder / "g.csv"
    data.write_text(GELBACH, encoding="utf-8")
    args = ["gelbach", str(data), "--outcome", "approved", "--focal-column", "education"]
    args += ["--focal-level", "college", "--attributes", "a=delivery,b=content"]
    return data, [*args, "--out", str(folder / "g"), "--resamples", "20"]


def test_gelbach_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import guisekit.gelbach.report

    data, args = _gelbach(tmp_path)
    out = tmp_path / "g"
    with monkeypatch.context() as patch:  # a first run that fails leaves no folder
        _full_disk(patch, guisekit.gelbach.report)
        _fails_cleanly(capsys, args, tmp_path, out / "gelbach.csv")
    assert not out.exists()
    assert run_cli(*args) == 0
    manifest = _checked(out, "gelbach", [data])
    assert sorted(manifest["files"]) == ["gelbach.csv", "gelbach.json", "gelbach.png"]
    assert manifest["files"]["gelbach.csv"]["rows"] == len(_rows(out / "gelbach.csv"))
    used = json.loads((out / "gelbach.json").read_text(encoding="utf-8"))
    n_obs = used.get("n_obs") or used["decomposition"]["n_obs"]
    assert manifest["counts"] == {"rows_used": n_obs, "outside_contrast": 0, "missing_values": 0}
    assert manifest["arguments"]["focal_level"] == "college"
    _full_disk(monkeypatch, guisekit.gelbach.report)
    _fails_cleanly(capsys, [*args, "--overwrite"], tmp_path, out / "gelbach.csv")
    assert check_set(out)["run_id"] == manifest["run_id"]


def test_audit_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import guisekit.audit.job
    from guisekit.testing import StubConfig, StubServer
    from guisekit.testing.audit_responder import audit_responder

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-manifest")
    out = tmp_path / "audit"
    with StubServer(StubConfig(), audit_responder) as stub:
        args = ["audit", "--pairs", str(PAIRS), "--out", str(out), "--bootstrap", "50"]
        args += ["--auditor", f"openai:stub-a@{stub.openai_base_url}"]
        args += ["--cache", str(tmp_path / "cache.sqlite")]
        assert run_cli(*args) == 0
        manifest = _checked(out, "audit", [PAIRS])
        results = _rows(out / "results.jsonl")
        assert manifest["files"]["results.jsonl"]["rows"] == len(results) == len(_rows(PAIRS))
        assert manifest["counts"] == dict(Counter(r["screen"] for r in results))
        [model] = manifest["models"]
        assert model["model"] == "openai:stub-a"
        assert model["prompt"].startswith("audit/")
        assert manifest["config"]["resamples"] == 50
        _full_disk(monkeypatch, guisekit.audit.job)
        _fails_cleanly(capsys, [*args, "--overwrite"], out, out / "results.jsonl")
    assert check_set(out)["run_id"] == manifest["run_id"]


def test_edits_out_manifest(
    chain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = chain / "out" / "corpus.jsonl"
    out = tmp_path / "sample.jsonl"
    args = ["edits", str(corpus), "--sample", "12", "--seed", "1", "--out", str(out)]
    assert run_cli(*args) == 0
    manifest = _checked(out, "edits", [corpus])
    rows = _rows(out)
    assert manifest["files"]["sample.jsonl"]["rows"] == len(rows) == 12
    assert manifest["counts"] == dict(Counter(row["stratum"] for row in rows))
    assert (manifest["arguments"]["sample"], manifest["arguments"]["seed"]) == (12, 1)
    real = Path.write_text

    def full_disk(path: Path, *a: Any, **k: Any) -> int:
        if path.name == "sample.jsonl":
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(Path, "write_text", full_disk)
    _fails_cleanly(capsys, [*args, "--overwrite"], tmp_path, out)
    assert check_set(out)["run_id"] == manifest["run_id"]


# -- the file transaction itself -------------------------------------------------------------


def _publish(out: Path, text: str, *, overwrite: bool = True) -> str:
    """Publish ``out`` holding ``text`` through :class:`OutputFiles`; the run id."""
    from guisekit.output_files import OutputFiles

    with OutputFiles([out], overwrite=overwrite, command="t") as outputs:
        outputs.path(out).write_text(text, encoding="utf-8")
        outputs.add(out, text.count("\n"))
    return outputs.run_id


def test_a_publish_cut_short_leaves_no_manifest_vouching_for_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old manifest goes first and the new one comes last: cut between them (here the
    final move fails), the files stand without a manifest, which a reader refuses, and the
    next run cleans up and publishes whole."""
    import os

    from guisekit.errors import OutputError

    out = tmp_path / "a.jsonl"
    _publish(out, "1\n")
    real = os.replace

    def cut(src: Any, dst: Any) -> None:
        if str(dst).endswith(".manifest.json"):
            raise OSError(errno.EIO, "Input/output error", str(dst))
        real(src, dst)

    monkeypatch.setattr(os, "replace", cut)
    with pytest.raises(OutputError, match="Input/output error"):
        _publish(out, "2\n2\n")
    monkeypatch.undo()
    assert out.read_text(encoding="utf-8") == "2\n2\n"
    with pytest.raises(OutputError, match="has no manifest"):
        check_set(out)
    assert _leftovers(tmp_path) == []
    run = _publish(out, "3\n")
    assert check_set(out)["run_id"] == run and check_set(out)["files"]["a.jsonl"]["rows"] == 1


def test_a_killed_runs_hidden_folder_is_removed_by_the_next_run(tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    stale = tmp_path / ".a.jsonl.guisekit-0123456789ab"
    stale.mkdir()
    (stale / "a.jsonl").write_text("x" * 10_000, encoding="utf-8")
    _publish(out, "1\n", overwrite=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "a.jsonl.manifest.json"]


def test_two_outputs_at_one_path_are_refused_before_writing(tmp_path: Path) -> None:
    from guisekit.errors import OutputError
    from guisekit.output_files import OutputFiles

    same = OutputFiles([tmp_path / "a.csv", tmp_path / "a.csv"], overwrite=True, command="t")
    with pytest.raises(OutputError, match="two outputs at one path"):
        same.check()
    assert list(tmp_path.iterdir()) == []
