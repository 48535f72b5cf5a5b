"""Results for analysts (issue #17): ``to_frame()`` and ``_repr_html_`` of every result
object, ``read_corpus`` over every output format, and the README's notebook example run
exactly as written."""

from __future__ import annotations

import importlib.util
import json
import random
import re
from pathlib import Path

import pandas as pd
import pytest
from e2e_helpers import cli
from test_audit_stats import _run as audit_run
from test_gelbach import synthetic

import guisekit
from guisekit.audit import build_report
from guisekit.errors import MissingExtra
from guisekit.gaps.analysis import analyse
from guisekit.gaps.table import build_table
from guisekit.gelbach import gelbach

ROOT = Path(__file__).parents[1]
DATA = ROOT / "examples" / "data"
EVIL = '<b>&"x"</b>'


def _corpus(tmp_path: Path, fmt: str, sources: Path | None = None) -> Path:
    """A small mixed corpus (identity, persona, hedge, fact edit, standardise, Hinglish)."""
    config = tmp_path / f"corpus-{fmt}.yaml"
    config.write_text(
        f"sources: {{path: {sources or DATA / 'salary_questions_in.jsonl'}, limit: 2}}\n"
        "seed: 0\n"
        "transforms:\n"
        "  - transform: identity\n"
        "  - transform: persona\n    personas: [young-urban-college-high]\n"
        "  - transform: hedge\n    direction: hedged\n"
        "  - transform: fact_edit\n    kind: scale_amounts\n    factor: 10\n"
        "  - transform: standardise\n    style: formal\n"
        "  - transform: hinglish\n    mix_ratio: [0.0, 0.5]\n"
        f"output: {{dir: {tmp_path / fmt}, format: {fmt}}}\n",
        encoding="utf-8",
    )
    assert cli("corpus", str(config), "--max-error-rate", "1") == 0
    return tmp_path / fmt


def _gaps_result():
    rng = random.Random(0)
    variants, decisions = [], []
    for s in range(8):
        for level in ("young", "old"):
            vid = f"v{s}{level}"
            spec = {"transform": "persona", "persona": {"age": level}}
            variants.append({"variant_id": vid, "source_id": f"s{s}", "spec": spec})
            decisions.append({"variant_id": vid, "outcome": rng.random() + (level == "old")})
    return analyse(build_table(variants, decisions), n_resamples=50)


def _html_cells(page: str) -> list[str]:
    return re.findall(r"<td>(.*?)</td>", page)


def test_read_corpus_gives_the_same_rows_from_every_format(tmp_path: Path) -> None:
    """Defect 19: JSONL, CSV and Parquet read back to identical rows, nested columns
    restored; Parquet holds spec, edits and details as native nested types."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    read = {
        fmt: guisekit.read_corpus(_corpus(tmp_path, fmt)) for fmt in ("jsonl", "csv", "parquet")
    }
    assert read["jsonl"] == read["csv"] == read["parquet"]
    rows = read["jsonl"]
    text = (tmp_path / "jsonl" / "corpus.jsonl").read_text(encoding="utf-8")
    stored = [json.loads(line) for line in text.splitlines()]
    assert [r["spec"] for r in rows] == [r["spec"] for r in stored]
    assert [r["edits"] for r in rows] == [r["edits"] for r in stored]
    assert [r["details"] for r in rows] == [r["details"] for r in stored]
    hinglish = [r for r in rows if r["spec"]["transform"] == "hinglish"]
    assert hinglish and all(r["details"]["language_tags"] for r in hinglish)
    assert {tag for r in hinglish for _, tag in r["details"]["language_tags"]} >= {"hi", "en"}
    schema = pq.read_table(tmp_path / "parquet" / "corpus.parquet").schema
    assert pa.types.is_struct(schema.field("spec").type)
    assert pa.types.is_list(schema.field("edits").type)
    assert pa.types.is_struct(schema.field("details").type)
    frame = guisekit.read_corpus(tmp_path / "parquet", as_frame=True)
    assert isinstance(frame, pd.DataFrame) and len(frame) == len(rows)
    assert frame.loc[0, "spec"] == rows[0]["spec"]


def test_run_result_frame_and_html(tmp_path: Path) -> None:
    from guisekit.corpus import build_plan, load_config, run_plan
    from guisekit.engines import make_engines

    sources = tmp_path / "src.jsonl"
    sources.write_text(json.dumps({"id": EVIL, "text": "I paid $120 & was not refunded."}) + "\n")
    config = tmp_path / "c.yaml"
    config.write_text(
        f"sources: {{path: {sources}}}\nseed: 0\ntransforms:\n  - transform: identity\n"
        "  - transform: fact_edit\n    kind: scale_amounts\n    factor: 10\n"
        f"output: {{dir: {tmp_path / 'out'}}}\n",
        encoding="utf-8",
    )
    settings = load_config(config)
    engines = make_engines(settings.engine, settings.base)
    result = run_plan(build_plan(settings, engines), engines)
    frame = result.to_frame()
    assert list(frame["transform"]) == ["identity", "fact_edit:scale_amounts"]
    assert frame.loc[1, "text"] == "I paid $1200 & was not refunded."
    page = result._repr_html_()
    assert "corpus: 2 variants of 1 sources (2 ok)" in page
    assert "<th>variant_id</th>" in page and "<th>text</th>" in page
    assert "&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;" in page and EVIL not in page
    assert "I paid $1200 &amp; was not refunded." in _html_cells(page)


def test_audit_report_frame_and_html() -> None:
    report = build_report(audit_run(), domain=EVIL, prompt="audit/compare.v1", resamples=50)
    frame = report.to_frame()
    assert list(frame.columns[:4]) == ["by", "group", "measure", "n"]
    young = frame[(frame["group"] == "age=young") & (frame["measure"] == "openai:a")]
    assert young["estimate"].iloc[0] == pytest.approx(2 / 3)
    page = report._repr_html_()
    assert "audit of &lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;" in page and EVIL not in page
    assert "<th>estimate</th>" in page and "0.3333" in _html_cells(page)  # A flags 2 of 6
    assert "more rows (to_frame() has them all)" in page  # 20 rows shown of more


def test_gelbach_result_frame_and_html() -> None:
    result = gelbach(synthetic(0), n_resamples=50, seed=0)
    frame = result.to_frame()
    assert list(frame["kind"][:3]) == ["base", "full", "explained"]
    base = result.rows()[0].estimate
    assert frame.loc[0, "estimate"] == base
    page = result._repr_html_()
    assert "Gelbach decomposition of y" in page and "95% CI" in page
    assert "<th>ci_low</th>" in page
    from guisekit.console import number

    assert number(base) in _html_cells(page)


def test_gaps_result_frame_and_html() -> None:
    result = _gaps_result()
    frame = result.to_frame()
    assert frame.loc[0, "contrast"] == "age: old - young"
    page = result._repr_html_()
    assert "<th>contrast</th><th>kind</th><th>gap</th>" in page
    assert "age: old - young" in _html_cells(page) and "exists" in _html_cells(page)


def test_to_frame_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def no_pandas(name: str, *args: object):
        return None if name == "pandas" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", no_pandas)
    with pytest.raises(MissingExtra) as info:
        gelbach(synthetic(0), n_resamples=0).to_frame()
    line = info.value.one_line()
    assert "to_frame() needs the optional 'frames' extra" in line
    assert "pip install 'guisekit[frames]'" in line and "\n" not in line


def test_the_readme_notebook_example_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- notebook-example -->\n```python\n(.*?)```", readme, re.S)
    assert block is not None
    # the README's first command, into this test's folder
    assert (
        cli(
            "corpus",
            str(ROOT / "examples" / "quickstart.yaml"),
            "--out",
            str(tmp_path / "out" / "quickstart"),
        )
        == 0
    )
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    scope: dict[str, object] = {}
    exec(compile(block.group(1), "README.md", "exec"), scope)
    printed = capsys.readouterr().out
    assert "accent" in printed and "informal_marker_rate" in printed
    table = scope["table"]
    assert isinstance(table, pd.DataFrame)
    rows = table.set_index("term")
    # the planted model's age gap runs through the informal-marker rate alone
    assert rows.loc["informal_marker_rate", "estimate"] == pytest.approx(
        rows.loc["explained", "estimate"], abs=1e-9
    )
    assert rows.loc["full", "estimate"] == pytest.approx(0.0, abs=1e-9)
    assert rows.loc["base", "estimate"] < 0


def test_corpus_rows_carry_flat_spec_columns(tmp_path: Path) -> None:
    """Defect 19: the spec's scalar fields beside the nested spec, in every format."""
    rows = guisekit.read_corpus(_corpus(tmp_path, "csv"))
    by_label = {r["transform"]: r for r in rows}
    assert by_label["hedge:hedged"]["direction"] == "hedged"
    assert by_label["fact_edit:scale_amounts"]["kind"] == "scale_amounts"
    assert by_label["standardise:formal"]["style"] == "formal"
    assert by_label["hinglish:0.5"]["mix_ratio"] == 0.5
    assert by_label["hinglish:0.5"]["spelling"] == "standard"
    assert by_label["identity"]["transform_version"] == 1
    assert by_label["identity"]["mix_ratio"] is None
    # the rules engine has no prompt and spends no tokens
    assert {(r["prompt_version"], r["input_tokens"]) for r in rows} == {(None, None)}


def test_llm_variants_carry_prompt_version_and_token_usage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import yaml

    from guisekit.testing import StubConfig, StubServer
    from guisekit.testing.responders import rewrite_responder

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with StubServer(StubConfig(), rewrite_responder) as stub:
        config = {
            "sources": {"path": str(DATA / "complaints.jsonl"), "limit": 1},
            "engine": {
                "name": "llm",
                "models": [{"model": "openai:stub-gpt", "base_url": stub.openai_base_url}],
                "cache": str(tmp_path / "cache.sqlite"),
            },
            "transforms": [
                {"transform": "identity"},
                {"transform": "hedge", "direction": "hedged"},
            ],
            "output": {"dir": str(tmp_path / "out"), "format": "parquet"},
        }
        path = tmp_path / "llm.yaml"
        path.write_text(yaml.safe_dump(config), encoding="utf-8")
        assert cli("corpus", str(path)) == 0
    rows = {r["transform"]: r for r in guisekit.read_corpus(tmp_path / "out")}
    hedged = rows["hedge:hedged"]
    assert hedged["prompt_id"] == "hedge/rewrite" and hedged["prompt_version"]
    assert hedged["input_tokens"] > 0 and hedged["output_tokens"] > 0
    assert hedged["direction"] == "hedged" and hedged["model"] == "openai:stub-gpt"
    assert rows["identity"]["input_tokens"] in (None, 0)
