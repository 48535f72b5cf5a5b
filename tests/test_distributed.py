"""The Dask backend (``guisekit.distributed``) on a local cluster: the same per-chunk
functions as the local pool, so the same rows as the local commands."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("distributed", reason="the distributed extra is not installed")

from guisekit import distributed
from guisekit.cli import app
from guisekit.tables import read_rows

ROOT = Path(__file__).parents[1]
RUNNER = CliRunner()
pytestmark = pytest.mark.slow  # a local cluster takes seconds to start


@pytest.fixture(scope="module")
def client() -> Iterator[object]:
    started = distributed.connect(workers=2)
    assert len(started.nthreads()) == 2
    yield started
    distributed.close(started)
    assert started.status == "closed"


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _parts(folder: Path) -> list[dict[str, object]]:
    rows = []
    for part in distributed.parts_of(folder):
        rows += [row for _, row in read_rows(part, required=())]
    return rows


def test_check_pairs_on_the_cluster_equals_check_facts(client: object, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    rows = _lines(ROOT / "examples/data/pairs.jsonl")
    pairs.write_text(
        "".join(json.dumps({**r, "id": f"{r['id']}-{c}"}) + "\n" for c in range(3) for r in rows),
        encoding="utf-8",
    )
    local = tmp_path / "report.parquet"
    done = RUNNER.invoke(app, ["check-facts", "--pairs", str(pairs), "--report", str(local)])
    assert done.exit_code == 1, done.output
    parts = distributed.partition(pairs, tmp_path / "parts", rows_per_part=10)
    assert len(parts) == 5
    totals = distributed.check_pairs(client, tmp_path / "parts", tmp_path / "out")
    assert totals == {"pass": 27, "warn": 3, "fail": 18}
    assert _parts(tmp_path / "out") == [row for _, row in read_rows(local, required=())]


def test_measure_on_the_cluster_equals_attributes(client: object, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    sources = _lines(ROOT / "examples/data/complaints.jsonl")
    corpus.write_text(
        "".join(
            json.dumps({"source_id": s["id"], "variant_id": f"v{i}", "text": s["text"]}) + "\n"
            for i, s in enumerate(sources)
        ),
        encoding="utf-8",
    )
    local = tmp_path / "attributes.parquet"
    done = RUNNER.invoke(app, ["attributes", str(corpus), "--out", str(local)])
    assert done.exit_code == 0, done.output
    distributed.partition(corpus, tmp_path / "parts", rows_per_part=7)
    written = distributed.measure(client, tmp_path / "parts", tmp_path / "out")
    assert [p.name for p in written] == [f"part-{i:05d}.parquet" for i in range(4)]
    remote = _parts(tmp_path / "out")
    assert remote == [row for _, row in read_rows(local, required=())]
    assert remote[0]["fk_grade"] > 0


def test_map_chunks_keeps_chunk_order(client: object) -> None:
    from guisekit.stages import measure_chunk

    chunks = [["A short text."], [None], ["Another one, a little longer than the first."]]
    results = list(distributed.map_chunks(client, measure_chunk, chunks, ahead=1))
    assert results[1] == [None]
    assert results[0][0]["n_words"] == 3 and results[2][0]["n_words"] == 8


def test_an_occupied_output_folder_is_refused(client: object, tmp_path: Path) -> None:
    from guisekit.errors import OutputError

    distributed.partition(ROOT / "examples/data/pairs.jsonl", tmp_path / "parts")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "part-00000.parquet").write_text("keep", encoding="utf-8")
    with pytest.raises(OutputError, match=r"already holds part-00000\.parquet"):
        distributed.check_pairs(client, tmp_path / "parts", tmp_path / "out")
    assert (tmp_path / "out" / "part-00000.parquet").read_text(encoding="utf-8") == "keep"


def test_corpus_on_a_local_cluster_equals_the_local_pool(tmp_path: Path) -> None:
    """2,000 sources: the corpus of ``guisekit corpus --workers 2`` (the local pool) and of
    a freshly started local Dask cluster, byte for byte; the cluster is then shut down."""
    sources = _lines(ROOT / "examples/data/complaints.jsonl")
    path = tmp_path / "sources.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for i in range(2000):
            source = sources[i % len(sources)]
            handle.write(json.dumps({"id": f"s{i:04d}", "text": source["text"]}) + "\n")
    config = tmp_path / "config.yaml"
    config.write_text(
        f"sources: {{path: {path}}}\nseed: 3\n"
        "transforms:\n  - transform: identity\n  - transform: hedge\n    direction: hedged\n"
        "output: {dir: local, format: jsonl}\n",
        encoding="utf-8",
    )
    done = RUNNER.invoke(app, ["corpus", str(config), "--workers", "2", "--chunk-size", "500"])
    assert done.exit_code == 0, done.output
    cluster = distributed.connect(workers=2)
    try:
        written = distributed.run_corpus(cluster, config, tmp_path / "dask", chunk_size=500)
    finally:
        distributed.close(cluster)
    assert cluster.status == "closed"
    for name in ("corpus.jsonl", "fact_report.jsonl"):
        local = (tmp_path / "local" / name).read_bytes()
        assert (tmp_path / "dask" / name).read_bytes() == local, name
    rows = _lines(tmp_path / "dask" / "corpus.jsonl")
    assert len(rows) == 4000 and rows[0]["source_id"] == "s0000"
    assert written.statuses.get("ok", 0) == 4000
    from guisekit.outputs import check_set

    manifests = [check_set(tmp_path / folder) for folder in ("local", "dask")]
    assert manifests[0]["models"] == manifests[1]["models"] != []  # the same engine
    assert manifests[1]["counts"] == {"ok": 4000}
