"""`--workers N`: the corpus is byte-identical for any number of worker processes and any
chunk size, and the chunked map of guisekit.parallel keeps chunk order."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from corpus_helpers import outputs, run_cli, write_config

from guisekit.parallel import WorkerError, chunked, map_chunks, usable_cores


def _square_sum(chunk: list[int]) -> tuple[int, int]:
    return os.getpid(), sum(x * x for x in chunk)


def _fail_on_three(chunk: list[int]) -> int:
    if 3 in chunk:
        raise ValueError(f"bad chunk {chunk}")
    return sum(chunk)


def _die(chunk: list[int]) -> int:
    os._exit(9)  # a worker killed mid-chunk (as by the OOM killer)


def test_chunked_cuts_lazily_and_keeps_every_item() -> None:
    assert list(chunked(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(chunked([], 3)) == []
    with pytest.raises(ValueError, match="at least 1"):
        list(chunked(range(3), 0))


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_map_chunks_yields_in_chunk_order(workers: int) -> None:
    chunks = list(chunked(range(50), 4))
    results = list(map_chunks(_square_sum, chunks, workers=workers, ahead=2))
    assert [total for _, total in results] == [sum(x * x for x in c) for c in chunks]
    pids = {pid for pid, _ in results}
    assert (pids == {os.getpid()}) if workers == 1 else (os.getpid() not in pids)


@pytest.mark.parametrize("workers", [1, 2])
def test_map_chunks_reraises_the_first_failing_chunk(workers: int) -> None:
    got = []
    with pytest.raises(ValueError, match=r"bad chunk \[2, 3\]"):
        for value in map_chunks(_fail_on_three, chunked(range(10), 2), workers=workers):
            got.append(value)
    assert got == [1]  # the chunk before the failure, nothing after it


def test_a_dead_worker_is_a_one_line_error() -> None:
    with pytest.raises(WorkerError, match="worker process died") as caught:
        list(map_chunks(_die, chunked(range(4), 1), workers=2))
    assert "fewer --workers" in caught.value.one_line()


def test_usable_cores_is_the_affinity_set() -> None:
    assert usable_cores() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_workers_1_and_2_write_byte_identical_outputs(tmp_path: Path, fmt: str) -> None:
    config = write_config(tmp_path, limit=6, fmt=fmt)
    suffix = f".{fmt}"
    folders = {}
    for workers, chunk in ((1, 1000), (2, 11), (2, 30)):
        out = tmp_path / f"w{workers}-{chunk}"
        code = run_cli(
            "corpus", str(config), "--out", str(out), "--workers", str(workers),
            "--chunk-size", str(chunk),
        )  # fmt: skip
        assert code == 0
        folders[(workers, chunk)] = outputs(out, suffix)
    one = folders[(1, 1000)]
    assert folders[(2, 11)] == one and folders[(2, 30)] == one
    if fmt == "jsonl":
        rows = [json.loads(line) for line in one["corpus"].decode().splitlines()]
        assert len(rows) == 6 * 10 and len({r["variant_id"] for r in rows}) == 60
        # plan order: source, then spec; the variants differ from their sources
        assert [r["source_id"] for r in rows[:10]] == [rows[0]["source_id"]] * 10
        assert sum(r["n_edits"] > 0 for r in rows) > 30


def test_the_streamed_corpus_equals_the_in_memory_run(tmp_path: Path) -> None:
    """The library's all-in-memory path (run_plan + export_run) and the streaming CLI
    give the same bytes: rows and the exact summary means agree."""
    from guisekit.corpus import build_plan, export_run, load_config, run_plan
    from guisekit.engines import make_engines

    config = write_config(tmp_path, limit=5)
    settings = load_config(config)
    engines = make_engines(settings.engine, settings.base)
    result = run_plan(build_plan(settings, engines), engines)
    export_run(result, tmp_path / "memory", "jsonl", overwrite=False)
    assert run_cli("corpus", str(config), "--out", str(tmp_path / "stream"), "--workers", "2",
                   "--chunk-size", "22") == 0  # fmt: skip
    assert outputs(tmp_path / "memory") == outputs(tmp_path / "stream")


def test_workers_help_says_llm_engines_keep_one_process() -> None:
    from typer.testing import CliRunner

    from guisekit.cli import app

    shown = CliRunner().invoke(app, ["corpus", "--help"], env={"COLUMNS": "200"}).output
    text = " ".join(shown.replace("│", " ").split())
    assert "--workers" in text and "LLM engines ignore it" in text
