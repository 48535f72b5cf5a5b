"""The edit reader (`guisekit edits`): each edit alone in the sentence it was made in,
drawn reproducibly and stratified."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guisekit.cli import app
from guisekit.models import Source
from guisekit.rules.engine import RulesEngine
from guisekit.rules.operators import REGISTRY
from guisekit.rules.sampling import allot, draw, in_context
from guisekit.specs import HedgeSpec, PersonaSpec

ENGINE = RulesEngine()


def test_in_context_replays_earlier_steps_and_shows_one_edit() -> None:
    source = "I do not know. The bank did not call."
    edits = [
        {
            "operator": "contract.v1",
            "start": 2,
            "end": 8,
            "before": "do not",
            "after": "don't",
            "step": 0,
        },
        {
            "operator": "contract.v1",
            "start": 24,
            "end": 31,
            "before": "did not",
            "after": "didn't",
            "step": 0,
        },
        {
            "operator": "drop_apostrophe.v1",
            "start": 2,
            "end": 7,
            "before": "don't",
            "after": "dont",
            "step": 1,
        },
    ]
    assert in_context(source, edits, 1) == ("The bank did not call.", "The bank didn't call.")
    assert in_context(source, edits, 2) == ("I don't know.", "I dont know.")
    with pytest.raises(ValueError):
        in_context("Something else entirely here.", edits, 0)


def test_allot_gives_equal_shares_and_passes_leftovers_on() -> None:
    assert allot({"a": 100, "b": 2, "c": 100}, 12) == {"a": 5, "b": 2, "c": 5}
    assert allot({"a": 1, "b": 1}, 10) == {"a": 1, "b": 1}


def test_draw_is_reproducible_stratified_and_matches_the_engine() -> None:
    sources = {
        "s1": "I do not think the fee is fair. The representative was rude to me.",
        "s2": "I will not pay this. It is not my debt and I have told them twice.",
    }
    specs = [
        PersonaSpec(
            persona={"age": "young", "geography": "urban", "education": "high_school", "ses": "low"}
        ),
        HedgeSpec(direction="hedged", strength=1.0),
    ]
    rows = []
    for sid, text in sources.items():
        for spec in specs:
            v = ENGINE.transform(Source(id=sid, text=text), spec, 0)
            rows.append(
                {
                    "source_id": sid,
                    "variant_id": v.variant_id,
                    "transform": spec.transform if spec.transform == "persona" else "hedge:hedged",
                    "spec": spec.model_dump(),
                    "edits": [e.model_dump() for e in v.provenance.edits],
                }
            )
    first, sizes = draw(rows, sources, 6, seed=3)
    again, _ = draw(rows, sources, 6, seed=3)
    assert first == again
    assert set(sizes) <= {"persona", "hedge:hedged"}
    assert {e.stratum for e in first} == set(sizes)
    for e in first:
        assert e.sentence_before != e.sentence_after
        if REGISTRY[e.operator].stage == "words":  # the first step indexes the source
            assert e.sentence_before in sources[e.source_id]
    pairs = [(e.operator, e.sentence_before, e.sentence_after) for e in first]
    assert len(pairs) == len(set(pairs))


def test_edits_command_writes_judge_lines(tmp_path: Path) -> None:
    src = tmp_path / "src.jsonl"
    src.write_text(
        json.dumps({"id": "a", "text": "I do not think the fee is fair. The agent was rude."})
        + "\n",
        encoding="utf-8",
    )
    config = tmp_path / "c.yaml"
    config.write_text(
        "sources: {path: src.jsonl}\nengine: {name: rules}\nseed: 0\n"
        "transforms:\n  - transform: persona\n    personas: all\n"
        "output: {dir: out}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["edits", str(config), "--sample", "5", "--jsonl"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 5
    for line in lines:
        assert {
            "operator",
            "label",
            "sentence_before",
            "sentence_after",
            "source_id",
            "variant_id",
        } <= set(line)
        assert line["label"].startswith("persona:")


def test_edits_command_rejects_a_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["edits", str(tmp_path / "nope.jsonl")])
    assert result.exit_code != 0
