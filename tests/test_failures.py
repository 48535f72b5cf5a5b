"""Failed work is loud: the exit policy (code 3 past --max-error-rate) and its last line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from guisekit.cli import main
from guisekit.failures import EXIT_FAILED, reason_group, tally
from guisekit.testing import StubConfig, StubReply, StubRequest, StubServer
from guisekit.testing.stub_handles import listening_socket

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("status", "reason", "group"),
    [
        (
            "error",
            "timed out after 60 s (a slow or overloaded server: lower `concurrency` in the "
            "runner settings or raise the model's `timeout`); gave up after 6 retries",
            "timed out after 60 s",
        ),
        (
            "error",
            "connection refused (is the server running at the model's base URL?); "
            "gave up after 6 retries",
            "connection refused",
        ),
        ("error", "server error (500): boom; gave up after 6 retries", "server error (500)"),
        (
            "error",
            "invalid output (re-asks exhausted): the reply is not valid JSON: Expecting value",
            "invalid output (re-asks exhausted)",
        ),
        ("truncated", "the reply was cut at the token limit (max_tokens=8)", "truncated"),
        ("error", None, "error"),
    ],
)
def test_reasons_are_grouped_by_their_leading_phrase(status, reason, group):
    assert reason_group(status, reason) == group


def test_tally_counts_error_and_truncated_as_failed_not_refused():
    found = tally(
        "variants",
        [
            ("ok", None),
            ("refused", "I'm sorry"),
            ("truncated", "cut"),
            ("error", "connection refused; gave up after 1 retries"),
            ("error", "connection refused; gave up after 1 retries"),
        ],
    )
    assert (found.total, found.failed) == (5, 3)
    assert found.exceeds(0.0) and found.exceeds(0.5) and not found.exceeds(0.6)
    assert found.line(0.0) == (
        "3 of 5 variants failed (60.0% > 0.0% allowed): 2 connection refused, 1 truncated"
    )
    assert not tally("variants", [("ok", None), ("refused", "no")]).exceeds(0.0)


def _corpus_config(tmp_path: Path, base_url: str, **runner) -> Path:
    config = {
        "sources": {"path": str(ROOT / "examples/data/complaints.jsonl"), "limit": 2},
        "engine": {
            "name": "llm",
            "models": [{"model": f"openai-compatible:local@{base_url}", "output": "prompt"}],
            "cache": str(tmp_path / "cache.sqlite"),
            "runner": {"max_retries": 0, "backoff_base_s": 0.01, **runner},
        },
        "transforms": [{"transform": "standardise", "style": "plain"}],
        "output": {"dir": str(tmp_path / "out")},
    }
    path = tmp_path / "llm.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def _exit(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_corpus_exits_3_when_the_server_is_down_and_says_connection_refused(tmp_path, capsys):
    sock = listening_socket(0)
    port = sock.getsockname()[1]
    sock.close()
    config = _corpus_config(tmp_path, f"http://127.0.0.1:{port}/v1")
    assert _exit(["corpus", str(config)]) == EXIT_FAILED
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "2 of 2 variants failed (100.0% > 0.0% allowed): 2 connection refused"
    rows = [json.loads(x) for x in (tmp_path / "out/corpus.jsonl").read_text().splitlines()]
    assert [r["status"] for r in rows] == ["error", "error"]  # written, and marked
    # A tolerated share of failures exits 0, still saying what failed.
    assert _exit(["corpus", str(config), "--overwrite", "--max-error-rate", "1"]) == 0
    assert "within the 100.0% allowed" in capsys.readouterr().err


def _truncating(request: StubRequest) -> StubReply:
    return StubReply(text=json.dumps({"text": "word " * 200, "changes": []}))


def test_corpus_truncation_is_its_own_status_and_fails_the_run(tmp_path, capsys):
    config_stub = StubConfig(honour_max_tokens=True)
    with StubServer(config_stub, responder=_truncating) as stub:
        config = yaml.safe_load(_corpus_config(tmp_path, stub.openai_base_url).read_text())
        config["engine"]["models"][0]["max_tokens"] = 20
        config["engine"]["runner"]["token_budget"] = 1500
        path = tmp_path / "llm.yaml"
        path.write_text(yaml.safe_dump(config), encoding="utf-8")
        assert _exit(["corpus", str(path)]) == EXIT_FAILED
    rows = [json.loads(x) for x in (tmp_path / "out/corpus.jsonl").read_text().splitlines()]
    assert [r["status"] for r in rows] == ["truncated", "truncated"]
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith("allowed): 2 truncated")
