"""Bad values inside otherwise valid data files (a corpus or decisions file edited by hand,
or written by another tool): each case changes one row of a real file from ``guisekit
corpus`` / ``guisekit decide`` and asserts exit code 2, one ``error:`` line starting with
the expected text, no traceback, and that nothing was written.

Companion of ``test_bad_inputs.py``, whose cases are files written from scratch; these need
the small rules-engine corpus and its decisions, built once per module.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import cli, decide_remedy, rules_corpus
from test_bad_inputs import _snapshot

Row = dict[str, Any]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Row]]:
    """The rows of a two-source corpus (identity and two personas) and of its decisions."""
    folder = tmp_path_factory.mktemp("made")
    config = folder / "c.yaml"
    config.write_text(
        rules_corpus(
            limit=2,
            out=folder / "out",
            personas="[young-urban-high_school-low, old-rural-college-high]",
        ),
        encoding="utf-8",
    )
    assert cli("corpus", str(config)) == 0
    corpus = folder / "out" / "corpus.jsonl"
    decisions = decide_remedy(
        corpus, "python:guisekit.testing.decision_responder:planted", folder / "d.jsonl"
    )

    def rows(path: Path) -> list[Row]:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]

    return {"corpus": rows(corpus), "decisions": rows(decisions)}


def _edited(rows: list[Row], change: Callable[[Row], None]) -> str:
    """JSONL of ``rows`` with ``change`` applied to the first row that records edits."""
    rows = json.loads(json.dumps(rows))
    change(next(r for r in rows if r.get("edits")))
    return "".join(json.dumps(r) + "\n" for r in rows)


def _set(key: str, value: Any) -> Callable[[Row], None]:
    def change(row: Row) -> None:
        row[key] = value

    return change


def _set_edit(key: str, value: Any) -> Callable[[Row], None]:
    def change(row: Row) -> None:
        row["edits"][0][key] = value

    return change


def _drop_edit(key: str) -> Callable[[Row], None]:
    def change(row: Row) -> None:
        del row["edits"][0][key]

    return change


EDITS = ["edits", "{d}/c.jsonl", "--sample", "3", "--out", "{d}/o/e.jsonl"]
GAPS = ["gaps", "{d}/c.jsonl", "{d}/d.jsonl", "--outcome", "prob_monetary_action"]
GAPS += ["--out", "{d}/o", "--resamples", "20"]

# (name, arguments, the corrupted file: which, change; expected start of the message)
CASES: list[tuple[str, list[str], str, Callable[[Row], None], str]] = [
    # regressions: a JSONDecodeError / TypeError / KeyError traceback in `edits`
    ("edits-spec-not-json", EDITS, "corpus", _set("spec", "x"), "column 'spec' is not JSON"),
    ("edits-spec-a-number", EDITS, "corpus", _set("spec", 3), "column 'spec' is int"),
    ("edits-edits-not-json", EDITS, "corpus", _set("edits", "x"), "column 'edits' is not JSON"),
    ("edits-edits-a-number", EDITS, "corpus", _set("edits", 7), "column 'edits' is int"),
    ("edits-item-a-number", EDITS, "corpus", _set("edits", [1]), "column 'edits' item 1 is int"),
    ("edits-item-null", EDITS, "corpus", _set("edits", [None]), "column 'edits' item 1 is None"),
    (
        "edits-item-no-operator",
        EDITS,
        "corpus",
        _drop_edit("operator"),
        "column 'edits' item 1: operator=None is not a str",
    ),
    (
        "edits-item-start-text",
        EDITS,
        "corpus",
        _set_edit("start", "x"),
        "column 'edits' item 1: start='x' is not a int",
    ),
    (
        "edits-item-end-negative",
        EDITS,
        "corpus",
        _set_edit("end", -1),
        "column 'edits' item 1: end=-1 is negative",
    ),
    # regressions: a ValueError / TypeError / JSONDecodeError traceback in `gaps`
    (
        "gaps-probability-text",
        GAPS,
        "decisions",
        _set("prob_no_action", "x"),
        "decision 1: prob_no_action='x' is not a number",
    ),
    (
        "gaps-probability-list",
        GAPS,
        "decisions",
        _set("prob_no_action", [1]),
        "decision 1: prob_no_action=[1] is not a number",
    ),
    ("gaps-spec-not-json", GAPS, "corpus", _set("spec", "x"), "spec is not JSON ('x')"),
    # regressions: an OverflowError traceback (inf) / a silently garbage int64 (1e308)
    (
        "gaps-repeat-inf",
        GAPS,
        "decisions",
        _set("repeat", float("inf")),
        "decision 1: repeat=inf is not a whole number",
    ),
    (
        "gaps-order-huge",
        GAPS,
        "decisions",
        _set("order", 1e308),
        "decision 1: order=1e+308 is not a whole number",
    ),
]


def test_a_decision_value_that_is_not_utf8(
    made: dict[str, list[Row]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Regression: Arrow's JSON reader let the byte into a string column, and decoding the
    first decision for its columns raised UnicodeDecodeError (a traceback in ``gaps``)."""
    from guisekit.cli import main

    (tmp_path / "c.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in made["corpus"]), encoding="utf-8"
    )
    text = "".join(json.dumps(r) + "\n" for r in made["decisions"]).encode()
    (tmp_path / "d.jsonl").write_bytes(text.replace(b'"label": "', b'"label": "\xff', 1))
    monkeypatch.chdir(tmp_path)
    before = _snapshot(tmp_path)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main([a.replace("{d}", str(tmp_path)) for a in GAPS])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err, captured.err
    errors = [line for line in captured.err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and errors[0].startswith(f"error: {tmp_path}/d.jsonl:1: invalid UTF-8")
    assert exited.value.code == 2
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_row(
    case: tuple[str, list[str], str, Callable[[Row], None], str],
    made: dict[str, list[Row]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from guisekit.cli import main

    _, args, which, change, message = case
    for name, key in (("c.jsonl", "corpus"), ("d.jsonl", "decisions")):
        rows = made[key]
        if key == which and which == "corpus":
            text = _edited(rows, change)
        elif key == which:
            rows = json.loads(json.dumps(rows))
            change(rows[0])
            text = "".join(json.dumps(r) + "\n" for r in rows)
        else:
            text = "".join(json.dumps(r) + "\n" for r in rows)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    before = _snapshot(tmp_path)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main([a.replace("{d}", str(tmp_path)) for a in args])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out, captured.err
    errors = [line for line in captured.err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, captured.err
    assert message in errors[0], errors[0]
    assert exited.value.code == 2
    assert _snapshot(tmp_path) == before
