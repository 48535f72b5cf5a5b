"""``guisekit audit`` end to end over real HTTP: a rules-engine corpus with persona variants
and fact edits, audited by an ``openai:`` and an ``anthropic:`` model on the loopback stub.

The stub answers with :func:`guisekit.testing.audit_responder.audit_responder` (the exact
check plus simple cues), so these tests check the machinery and the report, not what a
real auditor would find.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
import yaml
from e2e_helpers import cli

from guisekit.audit import read_report
from guisekit.testing import StubConfig, StubServer
from guisekit.testing.audit_responder import audit_responder

ROOT = Path(__file__).resolve().parents[1]
OPENAI_SECRET = "sk-oa-AUDIT-5e1f"
ANTHROPIC_SECRET = "sk-ant-AUDIT-93c0"
PERSONAS = [
    "young-rural-high_school-low",
    "old-urban-college-high",
    "young-urban-college-middle",
    "old-suburban-high_school-low",
]


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _uncached(rows: list[dict]) -> list[dict]:
    """Result rows without the per-run ``cached`` flags."""
    return [
        {**r, "auditors": {k: {**o, "cached": None} for k, o in r["auditors"].items()}}
        for r in rows
    ]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """4 complaints x (identity, 4 personas, hedged, 3 fact edits) on the rules engine."""
    folder = tmp_path_factory.mktemp("corpus")
    # The first four bundled complaints, each closing with an evaluation: the hedge
    # transform hedges only claims and evaluations (issue 13), and these narratives have
    # none of their own.
    complaints = [
        json.loads(line)
        for line in (ROOT / "examples/data/complaints.jsonl").read_text("utf-8").splitlines()
    ][:4]
    sources = folder / "complaints.jsonl"
    sources.write_text(
        "".join(
            json.dumps({**c, "text": c["text"] + " This is unfair."}) + "\n" for c in complaints
        ),
        encoding="utf-8",
    )
    config = {
        "sources": {"path": str(sources), "limit": 4},
        "engine": {"name": "rules"},
        "transforms": [
            {"transform": "identity"},
            {"transform": "persona", "personas": PERSONAS},
            {"transform": "hedge", "direction": "hedged", "strength": 0.8},
            {"transform": "fact_edit", "kind": ["scale_amounts", "strengthen", "weaken"]},
        ],
        "output": {"dir": "out"},
    }
    path = folder / "corpus.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    assert cli("corpus", str(path)) == 0
    return path


@pytest.fixture
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_SECRET)
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_SECRET)


def _audit_args(corpus: Path, stub: StubServer, out: Path) -> list[str]:
    return [
        "audit",
        str(corpus.parent / "out"),
        "--corpus-config",
        str(corpus),
        "--auditor",
        f"openai:stub-careful@{stub.openai_base_url}",
        "--auditor",
        f"anthropic:stub-strict@{stub.anthropic_base_url}",
        "--out",
        str(out),
        "--bootstrap",
        "300",
        "--seed",
        "1",
    ]


def test_audit_of_a_corpus_with_two_providers(corpus, keys, tmp_path, capsys):
    out = tmp_path / "audit"
    with StubServer(StubConfig(), audit_responder) as stub:
        args = _audit_args(corpus, stub, out)
        assert cli(*args) == 0
        stats = stub.stats()
        # 36 variants; the 4 identity variants are identical to their source: not sent
        assert stats.total_requests == 32 * 2
        assert stats.by_endpoint == {"POST /v1/chat/completions": 32, "POST /v1/messages": 32}

        assert cli(*args) == 2, "existing outputs are kept without --overwrite"
        assert "already exists" in capsys.readouterr().err
        before = _rows(out / "results.jsonl")
        assert cli(*args, "--overwrite") == 0
        assert stub.stats().total_requests == 64, "a re-run is served from the cache"
        after = _rows(out / "results.jsonl")
        asked = [o for r in after for o in r["auditors"].values() if o["status"] == "ok"]
        assert len(asked) == 64 and all(o["cached"] for o in asked)
        assert _uncached(after) == _uncached(before)

    corpus_rows = _rows(corpus.parent / "out/corpus.jsonl")
    results = _rows(out / "results.jsonl")
    assert [r["variant_id"] for r in results] == [r["variant_id"] for r in corpus_rows]
    auditors = ["openai:stub-careful", "anthropic:stub-strict"]
    for row in results:
        if row["transform"] == "identity":
            assert (row["status"], row["screen"]) == ("identical", "pass")
            assert {a["status"] for a in row["auditors"].values()} == {"not_asked"}
            continue
        assert row["status"] == "ok" and row["exact"]["verdict"] == row["exact_verdict"]
        assert list(row["auditors"]) == auditors
        for outcome in row["auditors"].values():
            assert outcome["status"] == "ok" and outcome["attempts"] == 1
            assert outcome["verdict"]["overall"] in ("preserved", "minor", "material")
        assert row["screen"] in ("pass", "fail")
    weaken = [r for r in results if r["transform"] == "fact_edit:weaken"]
    # a weakened claim is the auditors' to find; the exact check sees it only through a
    # negator in the claim (issue 14), and then only as a negation
    assert all(r["screen"] == "fail" for r in weaken)
    assert all(
        r["exact_verdict"] == "pass"
        or {d["kind"] for d in r["exact"]["discrepancies"]} == {"negation"}
        for r in weaken
    )
    categories = {
        d["category"]
        for r in weaken
        for d in r["auditors"]["openai:stub-careful"]["verdict"]["discrepancies"]
    }
    assert "responsibility" in categories
    persona = [r for r in results if r["transform"] == "persona"]
    assert {r["persona"]["age"] for r in persona} == {"young", "old"}

    report = read_report(out / "report.json")
    assert report.auditors == tuple(auditors)
    assert (report.n_pairs, report.population) == (36, 20)  # 16 persona + 4 hedged
    assert [(v.status, v.controls, v.rate) for v in report.validity] == [("valid", 12, 1.0)] * 2
    controls = {(c.detector, c.kind): (c.flagged, c.controls) for c in report.controls}
    assert controls[("exact_check (fail)", "scale_amounts")] == (4, 4)
    assert controls[("exact_check (warn or fail)", "strengthen")] == (4, 4)
    # one of the four weakened claims carries a negator, which the exact check sees (issue 14)
    assert controls[("exact_check (warn or fail)", "weaken")] == (1, 4)
    assert controls[("openai:stub-careful", "weaken")] == (4, 4)
    careful, strict = report.rate(auditors[0]), report.rate(auditors[1])
    assert careful.n == strict.n == 20 and careful.n_sources == 4
    assert strict.flagged > careful.flagged  # the strict auditor also flags hedging
    assert careful.ci_low is not None and careful.ci_low <= careful.estimate <= careful.ci_high
    material = next(a for a in report.agreement if a.scale == "material").agreement
    assert material.n == 20 and material.kappa is not None and material.kappa < 1
    levels = {r.group for r in report.rates if r.by == "persona"}
    assert {"age=young", "age=old", "education=college", "ses=low"} <= levels
    assert (report.resamples, report.seed, report.warnings) == (300, 1, ())

    html = (out / "report.html").read_text(encoding="utf-8")
    png = re.search(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert png is not None and base64.b64decode(png[1]).startswith(b"\x89PNG")
    for text in (
        "Flag rates by persona level",
        "Auditor validity",
        "Cohen",
        "age=young",
        "openai:stub-careful",
        "anthropic:stub-strict",
        "fact_edit:weaken",
    ):
        assert text in html  # fmt: skip
    assert not re.search(r'(src|href)="https?:', html), "the page must be self-contained"

    printed = capsys.readouterr()
    assert "Auditor validity" in printed.out and "Flag rates by persona level" in printed.out
    assert "36 pairs:" in printed.out
    secrets = (OPENAI_SECRET.encode(), ANTHROPIC_SECRET.encode())
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    leaked = [p for p in files if any(s in p.read_bytes() for s in secrets)]
    assert leaked == [] and OPENAI_SECRET not in printed.out + printed.err


def test_bad_input_pairs_each_end_with_a_status(keys, tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    lines = [
        {"id": "ok", "original": "I paid $40 on 03/14/2023.", "rewrite": "On 03/14/2023, $40."},
        {"id": "no-original", "rewrite": "I paid $40."},
        {"id": "null-original", "original": None, "rewrite": "I paid $40."},
        {"id": "same", "original": "I paid $40.", "rewrite": "I paid $40."},
        {"id": "empty", "original": "I paid $40.", "rewrite": "  "},
        {"id": "refused", "original": "I paid $40.", "rewrite": "I paid $40. [[refuse]]"},
    ]  # fmt: skip
    pairs.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    with StubServer(StubConfig(), audit_responder) as stub:
        config = tmp_path / "audit.yaml"
        config.write_text(
            yaml.safe_dump(
                {
                    "pairs": "pairs.jsonl",
                    "auditors": [
                        {"model": "openai:stub-careful", "base_url": stub.openai_base_url},
                        {"model": "anthropic:stub-garbled", "base_url": stub.anthropic_base_url},
                    ],
                    "runner": {"max_reasks": 1},
                    "resamples": 100,
                    "output": "out",
                }
            ),
            encoding="utf-8",
        )
        # The garbled auditor's invalid verdict is a failed item: exit 3 (outputs written).
        assert cli("audit", "--config", str(config)) == 3
        captured = capsys.readouterr()
        last = captured.err.strip().splitlines()[-1]
        assert last == (
            "1 of 4 auditor verdicts failed (25.0% > 0.0% allowed): "
            "1 invalid output (re-asks exhausted)"
        )
        # 2 auditable pairs; the garbled auditor is asked twice about "ok" and refuses the other
        assert stub.stats().total_requests == 2 + 2 + 1
    results = {r["pair_id"]: r for r in _rows(tmp_path / "out/results.jsonl")}
    assert list(results) == [r["id"] for r in lines]
    statuses = {k: (r["status"], r["screen"]) for k, r in results.items()}
    assert statuses == {
        "ok": ("ok", "incomplete"),  # the garbled auditor never gave a verdict
        "no-original": ("missing_original", "unscreened"),
        "null-original": ("missing_original", "unscreened"),
        "same": ("identical", "pass"),
        "empty": ("empty_rewrite", "unscreened"),
        "refused": ("ok", "incomplete"),
    }
    garbled = results["ok"]["auditors"]["anthropic:stub-garbled"]
    assert garbled["status"] == "error" and garbled["attempts"] == 2
    assert garbled["reason"].startswith("invalid output (re-asks exhausted)")
    assert results["refused"]["auditors"]["openai:stub-careful"]["status"] == "refused"
    assert results["ok"]["auditors"]["openai:stub-careful"]["verdict"]["overall"] == "preserved"
    report = read_report(tmp_path / "out/report.json")
    assert [v.status for v in report.validity] == ["unknown", "unknown"]
    assert any("no positive controls" in w for w in report.warnings)
    assert any("2 missing_original" in w and "1 empty_rewrite" in w for w in report.warnings)
    assert "warning: no positive controls" in captured.err


def test_missing_key_is_one_line_error_before_any_request(corpus, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_SECRET)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with StubServer(StubConfig(), audit_responder) as stub:
        assert cli(*_audit_args(corpus, stub, tmp_path / "audit")) == 2
        assert stub.stats().total_requests == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: no API key for anthropic:stub-strict: ANTHROPIC_API_KEY")
    assert not (tmp_path / "audit").exists()


def test_sources_file_without_some_originals(corpus, keys, tmp_path):
    sources = tmp_path / "sources.jsonl"
    kept = _rows(corpus.parent / "complaints.jsonl")[:3]  # the corpus used 4
    sources.write_text("".join(json.dumps(r) + "\n" for r in kept), encoding="utf-8")
    with StubServer(StubConfig(), audit_responder) as stub:
        args = ["audit", str(corpus.parent / "out/corpus.jsonl"), "--sources", str(sources),
                "--auditor", f"openai:stub-careful@{stub.openai_base_url}",
                "--out", str(tmp_path / "audit"), "--bootstrap", "0"]  # fmt: skip
        assert cli(*args) == 0
        assert stub.stats().total_requests == 24  # 3 sources x 8 non-identity variants
    results = _rows(tmp_path / "audit/results.jsonl")
    missing = [r for r in results if r["status"] == "missing_original"]
    assert len(missing) == 9 and {r["source_id"] for r in missing} == {"cfpb-004"}
    assert all(r["screen"] == "unscreened" and "cfpb-004" in r["reason"] for r in missing)
    report = read_report(tmp_path / "audit/report.json")
    assert report.rate("openai:stub-careful").ci_low is None  # --bootstrap 0: no intervals
    assert report.agreement == ()  # one auditor: nothing to agree with


def test_batch_mode_audits_through_both_providers_batch_apis(keys, tmp_path):
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(
        "id,source_id,transform,original,rewrite\n"
        'a,s1,persona,I paid $40 on 03/14/2023.,"On 03/14/2023, I paid $40."\n'
        "b,s1,fact_edit:scale_amounts,I paid $40 on 03/14/2023.,I paid $400 on 03/14/2023.\n"
        "c,s2,persona,The fee was $12.,The fee was not $12.\n",
        encoding="utf-8",
    )
    with StubServer(StubConfig(batch_delay_s=0.1), audit_responder) as stub:
        config = tmp_path / "audit.yaml"
        config.write_text(
            yaml.safe_dump(
                {
                    "pairs": "pairs.csv",
                    "auditors": [
                        {"model": "openai:stub-careful", "base_url": stub.openai_base_url},
                        {"model": "anthropic:stub-strict", "base_url": stub.anthropic_base_url},
                    ],
                    "mode": "batch",
                    "batch": {"poll_interval_s": 0.05},
                    "resamples": 50,
                    "output": "out",
                }
            ),
            encoding="utf-8",
        )
        assert cli("audit", "--config", str(config)) == 0
        endpoints = stub.stats().by_endpoint
    assert endpoints.get("POST /v1/batches") == 1
    assert endpoints.get("POST /v1/messages/batches") == 1
    assert "POST /v1/chat/completions" not in endpoints and "POST /v1/messages" not in endpoints
    results = {r["pair_id"]: r for r in _rows(tmp_path / "out/results.jsonl")}
    assert {k: r["screen"] for k, r in results.items()} == {"a": "pass", "b": "fail", "c": "fail"}
    assert (
        results["c"]["auditors"]["anthropic:stub-strict"]["verdict"]["discrepancies"][0]["category"]
        == "negation"
    )
    report = read_report(tmp_path / "out/report.json")
    assert [(v.status, v.controls) for v in report.validity] == [("valid", 1), ("valid", 1)]
