"""Auditing a corpus rewritten by two LLM banks: the report breaks flag rates down by the
rewrite model, so an audit can see whether one bank drifts more than the other."""

from __future__ import annotations

import json

from test_llm_stub import _config, _corpus

from guisekit.cli import main
from guisekit.testing import StubConfig, StubServer
from guisekit.testing.responders import demo_responder


def test_flag_rates_by_rewrite_model(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    with StubServer(StubConfig(), demo_responder) as stub:
        config = _config(tmp_path, stub)
        assert _corpus(["corpus", str(config)]) == 0
        args = [
            "audit", str(tmp_path / "out"), "--corpus-config", str(config),
            "--auditor", f"openai:auditor-a@{stub.openai_base_url}",
            "--auditor", f"anthropic:auditor-b@{stub.anthropic_base_url}",
            "--out", str(tmp_path / "audit"), "--bootstrap", "50",
        ]  # fmt: skip
        try:
            main(args)
        except SystemExit as exc:
            assert exc.code in (0, None)
    report = json.loads((tmp_path / "audit/report.json").read_text())
    by_model = {r["group"] for r in report["rates"] if r["by"] == "model"}
    assert by_model == {"openai:stub-gpt", "anthropic:stub-claude"}
    results = [json.loads(x) for x in (tmp_path / "audit/results.jsonl").read_text().splitlines()]
    assert len(results) == 42
