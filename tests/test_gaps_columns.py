"""The columnar gaps loader (``guisekit.gaps.columns``) against the row path it replaces:
on generated corpora and identifier grids in every format, the coded tables are identical
and so is the whole analysis; files with values only the row path may judge go down it
and get its result or its error."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest

from guisekit.errors import InputError
from guisekit.gaps import GapsTable, Margins, analyse
from guisekit.gaps.columns import CorpusLoader
from guisekit.tables import write_rows

AXES = {"age": ["young", "old"], "education": ["high_school", "college"], "ses": ["low", "high"]}
LABELS = ("no_action", "non_monetary_action", "monetary_action")


def corpus_rows(n_sources: int, seed: int) -> list[dict[str, Any]]:
    """Identity, 8 persona guises (some with one axis left out) and a fact edit per
    source, a few variants refused, two models."""
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for s in range(n_sources):
        base = {"source_id": f"src-{s:03d}", "engine": "rules", "model": None}
        rows.append(
            {
                **base,
                "variant_id": f"v{s}-id",
                "transform": "identity",
                "spec": {"version": 1, "transform": "identity"},
                "status": "ok",
            }
        )
        for a in AXES["age"]:
            for e in AXES["education"]:
                for ses in AXES["ses"]:
                    persona = {"age": a, "education": e, "ses": ses}
                    if (s + len(a) + len(e)) % 7 == 0:
                        del persona["ses"]  # a partial persona: no level on that axis
                    rows.append(
                        {
                            **base,
                            "variant_id": f"v{s}-{a}-{e}-{ses}",
                            "transform": "persona",
                            "spec": {
                                "version": 1,
                                "transform": "persona",
                                "persona": persona,
                                "grid": None,
                            },
                            "status": "refused" if rng.random() < 0.03 else "ok",
                            "model": "m-b" if s % 3 == 0 else None,
                        }
                    )
        rows.append(
            {
                **base,
                "variant_id": f"v{s}-x10",
                "transform": "fact_edit:scale_amounts",
                "spec": {
                    "version": 1,
                    "transform": "fact_edit",
                    "kind": "scale_amounts",
                    "factor": "10",
                },
                "status": "ok",
            }
        )
    return rows


def decision_rows(variants: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """Two repeats x two option orders, some failures, some variants never decided, and
    one decision on a variant the corpus lacks."""
    rng = np.random.default_rng(seed)
    rows = []
    for v in variants:
        if rng.random() < 0.05:
            continue
        for repeat in range(2):
            for order in range(2):
                p = rng.dirichlet(np.ones(3))
                failed = rng.random() < 0.02
                rows.append(
                    {
                        "variant_id": v["variant_id"],
                        "repeat": repeat,
                        "order": order,
                        "status": "error" if failed else "ok",
                        "outcome": None if failed else float(rng.normal()),
                        "label": None if failed else LABELS[int(np.argmax(p))],
                        **{
                            f"prob_{k}": None if failed else float(x)
                            for k, x in zip(LABELS, p, strict=True)
                        },
                    }
                )
    rows.append({**rows[0], "variant_id": "not-in-the-corpus"})
    return rows


def both(
    corpus: Path, decisions: Path, outcome: str, **options: Any
) -> tuple[GapsTable, GapsTable]:
    """The table by rows (the columnar reader switched off) and by columns (the row
    path switched off, so a fall-back would fail the test)."""
    with mock.patch("guisekit.columns.read_table", return_value=None):
        rows = CorpusLoader(corpus, outcome=outcome, **options).table(decisions)
    with mock.patch("guisekit.gaps.columns.build_table", side_effect=AssertionError("row path")):
        columns = CorpusLoader(corpus, outcome=outcome, **options).table(decisions)
    return rows, columns


def assert_same(a: GapsTable, b: GapsTable) -> None:
    for name in a.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            assert isinstance(y, np.ndarray) and x.dtype == y.dtype, name
            np.testing.assert_array_equal(x, y, err_msg=name)
        elif name == "axes":
            assert [(ax.name, ax.levels, ax.kind) for ax in x] == [
                (ax.name, ax.levels, ax.kind) for ax in y
            ]
            for p, q in zip(x, y, strict=True):
                assert p.codes.dtype == q.codes.dtype
                np.testing.assert_array_equal(p.codes, q.codes)
        else:
            assert x == y, name


def assert_same_analysis(a: GapsTable, b: GapsTable) -> None:
    margins = Margins(gap=0.01)
    left = analyse(a, margins=margins, n_resamples=50, seed=3).to_dict()
    right = analyse(b, margins=margins, n_resamples=50, seed=3).to_dict()
    assert json.dumps(left, sort_keys=True) == json.dumps(right, sort_keys=True)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    folder = tmp_path_factory.mktemp("gaps-columns")
    variants = corpus_rows(24, seed=1)
    decisions = decision_rows(variants, seed=2)
    out = {}
    for fmt in ("jsonl", "csv", "parquet"):
        out[fmt] = (
            write_rows(folder / f"corpus.{fmt}", variants),
            write_rows(folder / f"decisions.{fmt}", decisions),
        )
    return out


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
@pytest.mark.parametrize("outcome", ["outcome", "prob_monetary_action", "label=monetary_action"])
def test_columns_give_the_row_table_and_analysis(
    generated: dict[str, tuple[Path, Path]], fmt: str, outcome: str
) -> None:
    corpus, decisions = generated[fmt]
    rows, columns = both(corpus, decisions, outcome, references={"age": "old"})
    assert_same(rows, columns)
    assert [ax.name for ax in columns.axes] == ["age", "education", "ses"]
    assert columns.axes[0].levels[0] == "old"  # the reference first
    assert columns.change[columns.transform_names.index("fact_edit:scale_amounts")] == "scaled"
    assert columns.left_out["decisions_without_variant"] > 1  # one unknown, the rest refused
    assert columns.left_out["variants_not_ok"] > 0
    assert columns.left_out["variants_without_decision"] > 0
    assert columns.left_out["failed_decisions"] > 0
    assert_same_analysis(rows, columns)


def test_mixed_formats_and_weights(generated: dict[str, tuple[Path, Path]]) -> None:
    weights = {f"src-{s:03d}": 1.0 + s % 4 for s in range(24)}
    rows, columns = both(
        generated["parquet"][0], generated["csv"][1], "prob_no_action", weights=weights
    )
    assert_same(rows, columns)
    assert columns.weights is not None and columns.weights[1] == 2.0


def test_identifier_grid(tmp_path: Path) -> None:
    grid, decisions = [], []
    for profile in ("p1", "p2"):
        for question in ("q1", "q2", "q3"):
            cell = f"salary.en.{profile}.{question}"
            for axis, idents in (("caste", ("dalit", "brahmin", "other")), ("gender", ("f", "m"))):
                for k, ident in enumerate(idents):
                    vid = f"{cell}.{axis}.{ident}"
                    grid.append(
                        {
                            "id": vid,
                            "text": "...",
                            "axis": axis,
                            "identifier": ident,
                            "cell": cell,
                            "profile": profile,
                            "question": question,
                        }
                    )
                    for repeat in range(2):
                        decisions.append(
                            {
                                "variant_id": vid,
                                "repeat": repeat,
                                "order": 0,
                                "status": "ok",
                                "outcome": 1000.0 * (k + 1) + repeat,
                            }
                        )
    for fmt in ("jsonl", "csv", "parquet"):
        corpus = write_rows(tmp_path / f"grid.{fmt}", grid)
        answers = write_rows(tmp_path / f"d.{fmt}", decisions)
        rows, columns = both(corpus, answers, "outcome", references={"caste": "brahmin"})
        assert_same(rows, columns)
        assert columns.grid is not None and columns.grid["slot"][0] == "salary.en.p1.q1"
        assert columns.axes[0].levels[0] == "brahmin"
        assert_same_analysis(rows, columns)


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "by_rows"),
    [
        ({"outcome": "high"}, True),  # not a number: the row path names the decision
        ({"repeat": "2"}, True),  # a string among numbers: Arrow cannot type the column
        ({"status": None}, True),  # a JSONL null status: maybe a key left out
        ({"repeat": 1.5}, False),  # a float column: truncated as int() does
        ({"repeat": "x"}, True),  # regression: was a ValueError traceback on the row path
        ({"repeat": float("inf")}, True),  # regression: was an OverflowError traceback
        ({"order": 1e308}, True),  # regression: the column path cast it to a garbage int64
        ({"order": float("nan")}, True),  # not a whole number either
    ],
)
def test_values_the_row_path_must_judge_go_down_it(
    generated: dict[str, tuple[Path, Path]], tmp_path: Path, change: dict[str, Any], by_rows: bool
) -> None:
    corpus = generated["jsonl"][0]
    rows = [json.loads(line) for line in generated["jsonl"][1].read_text().splitlines()]
    rows[5] = {**rows[5], **change}
    decisions = _jsonl(tmp_path / "d.jsonl", rows)
    with mock.patch("guisekit.columns.read_table", return_value=None):
        try:
            expected: GapsTable | str = CorpusLoader(corpus, outcome="outcome").table(decisions)
        except InputError as exc:
            expected = str(exc)
    with mock.patch(
        "guisekit.gaps.columns.build_table",
        wraps=__import__("guisekit.gaps.table", fromlist=["build_table"]).build_table,
    ) as row_path:
        try:
            got: GapsTable | str = CorpusLoader(corpus, outcome="outcome").table(decisions)
        except InputError as exc:
            got = str(exc)
    assert row_path.call_count == int(by_rows)
    if isinstance(expected, str):
        assert got == expected and re.search("is not a (whole )?number", expected)
    else:
        assert isinstance(got, GapsTable)
        assert_same(expected, got)


def test_a_decision_file_matching_no_variant_is_the_same_error(
    generated: dict[str, tuple[Path, Path]], tmp_path: Path
) -> None:
    decisions = _jsonl(tmp_path / "d.jsonl", [{"variant_id": "nope", "outcome": 1.0}])
    with pytest.raises(InputError, match="no decision matches a variant of the corpus"):
        CorpusLoader(generated["parquet"][0], outcome="outcome").table(decisions)
