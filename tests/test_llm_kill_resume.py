"""Safe to kill: SIGKILL the corpus runner at random points, restart it, and the final corpus
is complete, with no duplicate and no missing variant, while the provider saw at most
N + concurrency requests per kill (only the calls in flight are lost)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import yaml

from guisekit.testing import StubConfig, StubProcess

ROOT = Path(__file__).resolve().parents[1]
CONCURRENCY = 16
KILLS = 10


def test_sigkill_at_ten_random_points_then_resume(tmp_path):
    with StubProcess(StubConfig(latency=0.1), "guisekit.testing.responders:echo_responder") as stub:
        config = {
            "sources": {"path": str(ROOT / "examples/data/complaints.jsonl")},
            "engine": {
                "name": "llm",
                "models": [{"model": "openai:stub-gpt", "base_url": stub.openai_base_url}],
                "cache": str(tmp_path / "cache.sqlite"),
                "runner": {"concurrency": CONCURRENCY},
            },
            "transforms": [
                {"transform": "persona", "personas": "all"},
                {"transform": "standardise", "style": ["plain", "formal", "simple"]},
            ],
            "output": {"dir": str(tmp_path / "out")},
        }
        path = tmp_path / "kill.yaml"
        path.write_text(yaml.safe_dump(config), encoding="utf-8")
        command = [sys.executable, str(ROOT / "cli.py"), "corpus", str(path), "--overwrite"]
        env = {**os.environ, "OPENAI_API_KEY": "sk-kill-test"}
        rng = random.Random(20261129)
        landed = []
        for _ in range(KILLS):
            before = stub.stats().total_requests
            process = subprocess.Popen(
                command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            # Kill mid-run: once this process has started calling (start-up takes a few
            # seconds), at a random point of what is left (a whole run is ~6 s of calls).
            while stub.stats().total_requests == before and process.poll() is None:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.0, 1.5))
            process.kill()
            process.wait()
            landed.append(stub.stats().total_requests - before)
        finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        assert finished.returncode == 0, finished.stderr
        sent = stub.stats().total_requests

    rows = [json.loads(line) for line in (tmp_path / "out/corpus.jsonl").read_text().splitlines()]
    n = 24 * (36 + 3)
    assert len(rows) == n
    assert len({r["variant_id"] for r in rows}) == n, "no duplicates"
    assert all(r["status"] == "ok" and r["text"] for r in rows), "no missing variant"
    print(
        f"\n{KILLS} SIGKILLs after {landed} new requests each: {sent} requests for {n} "
        f"variants (bound {n + CONCURRENCY * KILLS})"
    )
    assert all(0 < new < n for new in landed), "every kill landed mid-run"
    assert sent <= n + CONCURRENCY * KILLS, f"{sent} requests for {n} variants"
