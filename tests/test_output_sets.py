"""Output sets as transactions (issue #17, defects 1, 9, 12, 14, 16): ``corpus`` publishes
corpus, fact report, summary and manifest together; a kill, a full disk, a clashing path or
a dangling symlink never leaves a folder mixing two runs."""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from guisekit.outputs import OutputSet, check_set, file_digest
from guisekit.rules import RulesEngine

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "examples/data/complaints.jsonl"
SET = ("corpus.jsonl", "fact_report.jsonl", "summary.jsonl")


def _config(tmp_path: Path, sources: Path = SOURCES, limit: int = 4) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(
        f"sources:\n  path: {sources}\n  limit: {limit}\nseed: 0\n"
        "transforms:\n  - transform: identity\n  - transform: hedge\n"
        "    direction: [hedged, confident]\n"
        f"output:\n  dir: {tmp_path / 'out'}\n",
        encoding="utf-8",
    )
    return path


def _run(*args: str) -> Any:
    from guisekit.cli import main

    try:
        main(list(args))
    except SystemExit as exc:
        return exc.code
    return 0


def _rows(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def _complete(folder: Path) -> dict[str, Any]:
    """The manifest, after checking hashes and row counts of every file of the set."""
    manifest = check_set(folder)
    assert sorted(manifest["files"]) == sorted(SET)
    for name, entry in manifest["files"].items():
        assert _rows(folder / name) == entry["rows"], name
    return manifest


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.parent.iterdir() if ".guisekit-" in p.name)


def test_manifest_records_the_run(tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert _run("corpus", str(config)) == 0
    manifest = _complete(tmp_path / "out")
    assert manifest["command"] == "corpus"
    assert manifest["arguments"]["config"] == str(config)
    assert manifest["config"]["transforms"][1]["direction"] == ["hedged", "confident"]
    assert manifest["inputs"] == {
        str(config): file_digest(config),
        str(SOURCES): file_digest(SOURCES),
    }
    assert manifest["counts"] == {"ok": 12}
    [engine] = manifest["models"]  # the engine's identity, as in every variant id
    assert engine["engine"] == RulesEngine().config["engine"]
    assert manifest["files"]["corpus.jsonl"]["rows"] == 12
    assert manifest["started"] <= manifest["finished"]
    assert manifest["guisekit_version"]
    assert _leftovers(tmp_path / "out") == []


def test_enospc_while_writing_leaves_the_old_set_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path)
    assert _run("corpus", str(config)) == 0
    before = _complete(tmp_path / "out")
    import guisekit.corpus.export as export

    real = export._open

    class FullDisk:
        """A file whose writes fail as on a full disk."""

        def __init__(self, path: Path) -> None:
            self.handle = real(path)

        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self) -> None:
            self.handle.close()

    def full_disk(path: Path) -> Any:
        # the corpus is written, the fact report hits a full disk
        return FullDisk(path) if path.name.startswith("fact_report") else real(path)

    monkeypatch.setattr(export, "_open", full_disk)
    capsys.readouterr()
    assert _run("corpus", str(config), "--overwrite") == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    err = err.splitlines()[-1]  # after the progress line
    assert err.startswith(f"error: cannot write {tmp_path / 'out' / 'fact_report.jsonl'}: ")
    assert "No space left on device" in err
    assert "previous outputs were left as they were" in err
    assert _complete(tmp_path / "out")["run_id"] == before["run_id"]
    assert _leftovers(tmp_path / "out") == []


def test_guards_refuse_before_writing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.symlink_to(tmp_path / "nowhere")  # dangling: no --overwrite may replace it
    config = _config(tmp_path)
    assert _run("corpus", str(config), "--overwrite") == 2
    assert "is a dangling symlink" in capsys.readouterr().err
    out.unlink()
    out.write_text("a file, not a folder", encoding="utf-8")
    assert _run("corpus", str(config), "--overwrite") == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    out.unlink()
    # the sources are the corpus of an earlier run in the output folder
    assert _run("corpus", str(config)) == 0
    own = out / "corpus.jsonl"
    reused = _config(tmp_path, sources=own)
    text = reused.read_text(encoding="utf-8").replace(
        "limit: 4", "limit: 4\n  id_column: variant_id"
    )
    reused.write_text(text, encoding="utf-8")
    digest = file_digest(own)
    capsys.readouterr()
    assert _run("corpus", str(reused), "--overwrite") == 2
    err = capsys.readouterr().err.strip()
    assert f"the output {own} is also an input" in err and "\n" not in err
    assert file_digest(own) == digest


def test_leftover_temporaries_are_removed_by_the_next_run(tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert _run("corpus", str(config)) == 0
    stale = tmp_path / ".out.guisekit-0123456789ab"
    stale.mkdir()
    (stale / "corpus.jsonl").write_text("{}\n" * 10_000, encoding="utf-8")
    assert _run("corpus", str(config), "--overwrite") == 0
    assert _leftovers(tmp_path / "out") == []
    _complete(tmp_path / "out")


def test_foreign_files_and_folders_in_the_output_folder_survive(tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert _run("corpus", str(config)) == 0
    out = tmp_path / "out"
    (out / "llm-cache.sqlite").write_bytes(b"cache")
    (out / "notes").mkdir()
    (out / "notes" / "a.txt").write_text("mine", encoding="utf-8")
    assert _run("corpus", str(config), "--overwrite") == 0
    assert (out / "llm-cache.sqlite").read_bytes() == b"cache"
    assert (out / "notes" / "a.txt").read_text(encoding="utf-8") == "mine"


def test_usage_is_appended_across_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import guisekit.engines as engines

    row = {"model": "m", "calls": 3, "input_tokens": 10, "output_tokens": 5, "cost_usd": 0.5}
    current = [row]
    monkeypatch.setattr(engines, "usage_rows", lambda _engines: [current[0]])
    config = _config(tmp_path)
    assert _run("corpus", str(config)) == 0
    current[0] = {**row, "calls": 0, "cost_usd": 0.0}  # a fully cached re-run
    assert _run("corpus", str(config), "--overwrite") == 0
    usage = [json.loads(line) for line in (tmp_path / "out/usage.jsonl").read_text().splitlines()]
    assert [(row["calls"], row["cost_usd"]) for row in usage] == [(3, 0.5), (0, 0.0)]
    assert usage[0]["run_id"] != usage[1]["run_id"]


def test_output_set_refuses_an_unwritten_file(tmp_path: Path) -> None:
    from guisekit.errors import OutputError

    unwritten = OutputSet(tmp_path / "o", ["a.jsonl"], overwrite=False, command="t")
    with pytest.raises(OutputError, match="was not written"), unwritten:
        pass
    assert not (tmp_path / "o").exists() and os.listdir(tmp_path) == []


# --- SIGKILL during publication ---------------------------------------------------------

# In the child: say when the hidden folder exists, and slow each publishing step a little
# so that kill points spread over writing, manifest, fsync, links, exchange and clean-up.
_PROBE = """
import os, sys, time
import guisekit.outputs as o
enter = o.OutputSet.__enter__
def announce(self):
    result = enter(self)
    print("STAGING", file=sys.stderr, flush=True)
    return result
o.OutputSet.__enter__ = announce
def slow(f):
    def wrapped(*a, **k):
        time.sleep(0.03)
        return f(*a, **k)
    return wrapped
os.fsync, os.link, os.rename = slow(os.fsync), slow(os.link), slow(os.rename)
o._exchange, o.shutil.rmtree = slow(o._exchange), slow(o.shutil.rmtree)
from guisekit.cli import main
main()
"""


def _child(config: Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-c", _PROBE, "corpus", str(config), "--overwrite"]
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


def _wait_for_staging(proc: subprocess.Popen[str]) -> float:
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("STAGING"):
            return time.monotonic()
    raise AssertionError("the child ended before writing")


@pytest.mark.slow
def test_sigkill_at_20_random_points_while_publishing(tmp_path: Path) -> None:
    config = _config(tmp_path, limit=40)
    out = tmp_path / "out"
    assert _run("corpus", str(config)) == 0
    (out / "llm-cache.sqlite").write_bytes(b"cache")
    (out / "notes").mkdir()
    (out / "notes" / "a.txt").write_text("mine", encoding="utf-8")
    with _child(config) as proc:  # one unkilled run measures the window
        started = _wait_for_staging(proc)
        assert proc.wait(60) == 0
        window = time.monotonic() - started
    rng = random.Random(17)
    outcomes = []
    for _ in range(20):
        previous = _complete(out)["run_id"]
        with _child(config) as proc:
            started = _wait_for_staging(proc)
            time.sleep(max(rng.uniform(0, window * 1.1) - (time.monotonic() - started), 0))
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
        manifest = _complete(out)  # the old set or the new one, whole
        outcomes.append("old" if manifest["run_id"] == previous else "new")
        assert (out / "llm-cache.sqlite").read_bytes() == b"cache"
    assert {"old", "new"} <= set(outcomes), outcomes
    assert _run("corpus", str(config), "--overwrite") == 0  # cleans up after the kills
    assert _leftovers(out) == []
    assert (out / "notes" / "a.txt").read_text(encoding="utf-8") == "mine"
    _complete(out)


def test_single_file_writer_cleans_its_temporaries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defect 9: a killed run's hidden temp is removed by the next write of that file, and a
    failing final replace removes the temp it made."""
    from guisekit.errors import OutputError
    from guisekit.tables import write_rows

    target = tmp_path / "report.jsonl"
    stale = tmp_path / ".report.jsonl.abc123.tmp"
    stale.write_text("x" * 100_000, encoding="utf-8")
    write_rows(target, [{"a": 1}])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.jsonl"]

    def refuse(*_args: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputError, match=r"cannot write .*report\.jsonl: Invalid cross-device"):
        write_rows(target, [{"a": 2}], overwrite=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.jsonl"]
    assert target.read_text(encoding="utf-8") == '{"a": 1}\n'
