"""Streaming corpus pieces: exact running sums, summary totals that merge and survive the
journal, variant ids made on demand, CSV/Parquet written from a spool."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pytest
from corpus_helpers import outputs, run_cli, write_config
from hypothesis import given
from hypothesis import strategies as st

from guisekit.corpus.summary import ExactSum, SummaryTotals
from guisekit.ids import variant_id

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)


@given(st.lists(finite, max_size=60), st.integers(min_value=1, max_value=7))
def test_exact_sum_equals_fsum_under_any_grouping(values: list[float], size: int) -> None:
    total = ExactSum()
    for start in range(0, len(values), size):
        part = ExactSum()
        for x in values[start : start + size]:
            part.add(x)
        total.merge(part)
    assert total.value == math.fsum(values)


@given(st.lists(st.tuples(st.sampled_from("abc"), finite, st.booleans()), max_size=40))
def test_totals_merge_and_round_trip_like_one_pass(rows: list[tuple[str, float, bool]]) -> None:
    one, merged = SummaryTotals(), SummaryTotals()
    part = SummaryTotals()
    for i, (label, x, passed) in enumerate(rows):
        for totals in (one, part):
            totals.add(label, ok=True, failed_validation=False, check=(passed, not passed),
                       shifts=(x, x, -x, 0.5 * x, 2.0))  # fmt: skip
        if i % 3 == 2:
            merged.merge(SummaryTotals.from_json(part.to_json()))
            part = SummaryTotals()
    merged.merge(part)
    assert merged.rows() == one.rows()
    for row in one.rows():
        xs = [x for label, x, _ in rows if label == row["transform"]]
        assert row["change"] == round(statistics.fmean(xs), 3)
        assert row["d_sophisticated"] == 2.0


def test_an_empty_label_has_no_means() -> None:
    totals = SummaryTotals()
    totals.add("x", ok=False, failed_validation=True, check=None, shifts=None)
    assert totals.rows() == [
        {"transform": "x", "variants": 1, "ok": 0, "failed_validation": 1, "fact_pass": None,
         "as_intended": None, "change": None, "d_fk_grade": None, "d_hedges": None,
         "d_informal": None, "d_sophisticated": None}
    ]  # fmt: skip


def test_plan_keys_on_demand_are_the_variant_ids(tmp_path: Path) -> None:
    from guisekit.corpus import build_plan, load_config
    from guisekit.engines import make_engines

    settings = load_config(write_config(tmp_path, limit=4))
    engines = make_engines(settings.engine, settings.base)
    plan = build_plan(settings, engines)
    assert plan.size == len(plan.tasks) == 40
    for task in plan.tasks:
        expected = variant_id(task.source_id, task.spec, engines[0].config, plan.seed)
        assert task.key == expected


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_spooled_csv_and_parquet_equal_the_in_memory_writer(tmp_path: Path, fmt: str) -> None:
    """The streamed CSV/Parquet files hold the same columns and cells as write_rows of all
    rows at once (the export of an in-memory run)."""
    from guisekit.corpus import build_plan, export_run, load_config, run_plan
    from guisekit.engines import make_engines
    from guisekit.tables import read_rows

    config = write_config(tmp_path, limit=4, fmt=fmt)
    assert run_cli("corpus", str(config), "--out", str(tmp_path / "s"), "--workers", "2",
                   "--chunk-size", "10") == 0  # fmt: skip
    settings = load_config(config)
    engines = make_engines(settings.engine, settings.base)
    export_run(run_plan(build_plan(settings, engines), engines), tmp_path / "m", fmt,
               overwrite=False)  # fmt: skip
    if fmt == "csv":
        assert outputs(tmp_path / "s", ".csv") == outputs(tmp_path / "m", ".csv")
        return
    for name in ("corpus", "fact_report", "summary"):
        streamed = read_rows(tmp_path / "s" / f"{name}.parquet", required=())
        memory = read_rows(tmp_path / "m" / f"{name}.parquet", required=())
        assert streamed == memory and len(streamed) in (40, 9)
