"""The columnar Gelbach loader (``guisekit.gelbach.columns``) against the row path it
replaces: on any table, in any format, both give identical arrays, codes and counts, or
both refuse with the same one-line error."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guisekit.attributes import load_attribute_set
from guisekit.commands import gelbach as command
from guisekit.errors import GuisekitError
from guisekit.gelbach import FocalContrast, GelbachData
from guisekit.gelbach import columns as columnar

FIXTURE = [HealthCheck.function_scoped_fixture]
ABSENT = object()  # a key left out of a JSON line
LEVELS = st.sampled_from(["college", "high_school", "phd", "", "  ", None, ABSENT])
NUMBER = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.integers(-5, 5),
    st.sampled_from([None, "", " ", "2.5", " 3 ", "x", "1e3", "nan"]),
)
CLEAN = st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.none())


def _row(draw: st.DrawFn, i: int, number: st.SearchStrategy[Any]) -> dict[str, Any]:
    return {
        "variant_id": f"v{i}",
        "source_id": draw(st.sampled_from(["s1", "s2", "s3", 7])),
        "education": draw(LEVELS),
        "age": draw(st.sampled_from(["young", "old", None, ABSENT])),
        "approved": draw(number),
        "fk_grade": draw(number),
        "hedge_density": draw(number),
    }


@st.composite
def tables(draw: st.DrawFn, number: st.SearchStrategy[Any] = NUMBER) -> list[dict[str, Any]]:
    n = draw(st.integers(1, 25))
    return [_row(draw, i, number) for i in range(n)]


def _write(rows: list[dict[str, Any]], folder: Path, fmt: str) -> Path:
    path = folder / f"data.{fmt}"
    names = list(rows[0])
    if fmt == "jsonl":
        with path.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps({k: v for k, v in row.items() if v is not ABSENT}) + "\n")
    elif fmt == "csv":
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(names)
            for row in rows:
                writer.writerow(["" if row[k] in (None, ABSENT) else row[k] for k in names])
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        def cell(value: Any) -> Any:
            return None if value is ABSENT or value is None else str(value)

        pq.write_table(pa.table({k: [cell(r[k]) for r in rows] for k in names}), path)
    return path


def _load(
    path: Path,
    *,
    rows_only: bool,
    controls: tuple[str, ...] = ("age",),
    attributes: str | None = "fk_grade,hedge_density",
    levels: tuple[str, ...] = ("college",),
    base: tuple[str, ...] = ("high_school",),
    decisions: Path | None = None,
    outcome: str = "approved",
) -> GelbachData | str:
    options: dict[str, Any] = {
        "outcome": outcome,
        "contrast": FocalContrast(column="education", levels=levels, base_levels=base),
        "source_column": "source_id",
        "controls": controls,
        "attributes": attributes,
        "attribute_set": load_attribute_set("complaints"),
    }
    try:
        if rows_only:
            with mock.patch.object(columnar, "read_table", return_value=None):
                return command._load(path, decisions, **options)
        return command._load(path, decisions, **options)
    except GuisekitError as exc:
        return f"{type(exc).__name__}: {exc}"


def _same(a: GelbachData | str, b: GelbachData | str) -> None:
    if isinstance(a, str) or isinstance(b, str):
        assert a == b
        return
    for name in ("y", "focal", "attributes", "sources"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
        assert getattr(a, name).dtype == getattr(b, name).dtype, name
    if a.controls is None or b.controls is None:
        assert a.controls is None and b.controls is None
    else:
        assert np.array_equal(a.controls, b.controls)
    for name in ("source_labels", "focal_names", "attribute_names", "families", "control_names"):
        assert getattr(a, name) == getattr(b, name), name
    assert dict(a.left_out) == dict(b.left_out)


# one source, every attribute constant in it: the defaults leave out every attribute
CONSTANT = [
    {"variant_id": f"v{i}", "source_id": "s1", "education": level, "age": "old",
     "approved": float(i), "fk_grade": 2.0, "hedge_density": 0.5}
    for i, level in enumerate(["college", "high_school"])
]  # fmt: skip


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE)
@given(
    rows=tables(),
    controls=st.sampled_from([(), ("age",)]),
    defaults=st.booleans(),
    numeric=st.booleans(),
)
@example(rows=CONSTANT, controls=(), defaults=True, numeric=False)
def test_columns_and_rows_agree_on_any_table(
    tmp_path: Path,
    fmt: str,
    rows: list[dict[str, Any]],
    controls: tuple[str, ...],
    defaults: bool,
    numeric: bool,
) -> None:
    if numeric:  # a numeric focal column: the levels are read as numbers
        for row in rows:
            row["education"] = row["fk_grade"]
    path = _write(rows, tmp_path, fmt)
    options: dict[str, Any] = {
        "controls": controls,
        "attributes": None if defaults else "fk_grade,hedge_density",
    }
    if numeric:
        options |= {"levels": (), "base": (), "attributes": "hedge_density"}
    _same(_load(path, rows_only=False, **options), _load(path, rows_only=True, **options))


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
@settings(max_examples=30, deadline=None, suppress_health_check=FIXTURE)
@given(rows=tables(CLEAN), controls=st.sampled_from([(), ("age",)]))
def test_clean_tables_take_the_columnar_path(
    tmp_path: Path, fmt: str, rows: list[dict[str, Any]], controls: tuple[str, ...]
) -> None:
    for row in rows:  # JSON values of one type per column (pyarrow reads no mixed ones);
        # a JSONL line without the outcome is the row path's to refuse
        row["approved"] = 1.0 if row["approved"] is None else row["approved"]
        row["source_id"] = str(row["source_id"])
    path = _write(rows, tmp_path, fmt)
    with mock.patch.object(GelbachData, "from_rows", side_effect=AssertionError("row path")):
        fast = _load(path, rows_only=False, controls=controls)
    _same(fast, _load(path, rows_only=True, controls=controls))


@st.composite
def decisions(draw: st.DrawFn, ids: int) -> list[dict[str, Any]]:
    n = draw(st.integers(1, 30))
    return [
        {
            "variant_id": f"v{draw(st.integers(0, ids + 2))}",
            "repeat": i,
            "status": draw(st.sampled_from(["ok", "ok", "ok", "error"])),
            "label": draw(st.sampled_from(["approve", "deny", None])),
            "outcome": draw(st.one_of(st.floats(-10, 10, allow_nan=False), st.none())),
        }
        for i in range(n)
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE)
@given(data=st.data(), outcome=st.sampled_from(["outcome", "label=approve"]))
def test_decisions_join_agrees_with_the_row_join(
    tmp_path: Path, data: st.DataObject, outcome: str
) -> None:
    rows = data.draw(tables(CLEAN))
    for row in rows:
        del row["approved"]
        row["source_id"] = str(row["source_id"])
    path = _write(rows, tmp_path, "jsonl")
    answers = data.draw(decisions(len(rows)))
    answer_path = tmp_path / "decisions.jsonl"
    answer_path.write_text("".join(json.dumps(r) + "\n" for r in answers), encoding="utf-8")
    both = [
        _load(path, rows_only=flag, decisions=answer_path, outcome=outcome)
        for flag in (False, True)
    ]
    _same(*both)


def test_a_bad_value_gets_the_row_paths_message(tmp_path: Path) -> None:
    rows = [
        {"variant_id": "a", "source_id": "s1", "education": "college", "approved": 1.0,
         "fk_grade": 2.0, "hedge_density": 0.1, "age": "old"},
        {"variant_id": "b", "source_id": "s1", "education": "high_school", "approved": 0.0,
         "fk_grade": "twelve", "hedge_density": 0.1, "age": "old"},
    ]  # fmt: skip
    path = _write(rows, tmp_path, "csv")
    message = _load(path, rows_only=False)
    assert message == (
        "InputError: row 2, column 'fk_grade': 'twelve' is not a number"
    ) or message.startswith("InputError: row 2, column 'fk_grade': 'twelve' is not a number")
    assert message == _load(path, rows_only=True)


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_no_attribute_left_gets_the_row_paths_message(tmp_path: Path, fmt: str) -> None:
    # regression: with every default attribute constant within its source, the columnar
    # path stacked no columns and crashed in numpy instead of the row path's refusal
    path = _write([dict(row) for row in CONSTANT], tmp_path, fmt)
    expected = "InputError: no attributes to decompose the gap into"
    assert _load(path, rows_only=False, controls=(), attributes=None) == expected
    assert _load(path, rows_only=True, controls=(), attributes=None) == expected


def test_jsonl_without_pyarrow_reads_row_by_row(tmp_path: Path) -> None:
    rows = [
        {"variant_id": "a", "source_id": "s1", "education": "college", "approved": 1.0,
         "fk_grade": 2.0, "hedge_density": 0.1, "age": "old"},
        {"variant_id": "b", "source_id": "s1", "education": "high_school", "approved": 0.0,
         "fk_grade": 3.0, "hedge_density": 0.3, "age": "old"},
    ]  # fmt: skip
    path = _write(rows, tmp_path, "jsonl")
    with mock.patch("guisekit.extras.has", return_value=False):
        assert columnar.read_table(path) is None
    table = _load(path, rows_only=False)
    assert isinstance(table, GelbachData)
    assert table.y.tolist() == [1.0, 0.0] and table.attributes[:, 0].tolist() == [2.0, 3.0]
