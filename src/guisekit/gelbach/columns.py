"""Gelbach inputs read and validated as columns (pyarrow + numpy), not as Python row dicts.

A million-row table validated one row at a time spends most of its time in the Python
loop of :meth:`GelbachData.from_rows`. Here the file is read by pyarrow's readers, each
column is checked and converted in one vectorised pass, and strings (source ids, persona
levels) are handled once per distinct value through a dictionary encoding.

The row path stays the reference: these functions produce exactly the arrays it would
produce, and whenever a value needs the row path's per-row judgement (a blank source id,
a non-number, a type pyarrow cannot read, a key absent from one JSON line) they return
``None`` and the caller runs the row path, which then either builds the same data or
raises its one-line error naming the row and column. So a bad file gets the same message
as before, and only clean files take the fast path.

One difference, by design: in a JSONL table, an outcome or attribute key absent from some
lines (not from the whole file) reads as a missing value, like an explicit ``null``, and
the row is left out and counted; the row path refused such a file. pyarrow reads both as
null, and refusing every null would send every attribute table with a refused variant
down the slow path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from guisekit import columns as cols
from guisekit.columns import read_table
from guisekit.errors import InputError
from guisekit.gelbach.data import FocalContrast, GelbachData, _check_levels_seen

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "constant_within_sources",
    "from_table",
    "has_nulls",
    "join_decisions_table",
    "read_table",
]


def from_table(
    table: pa.Table,
    *,
    outcome: str,
    focal: FocalContrast,
    families: Mapping[str, str],
    source: str,
    controls: Sequence[str] = (),
) -> GelbachData | None:
    """:meth:`GelbachData.from_rows` on a table: the same arrays, codes, labels and counts
    of rows left out, or ``None`` when the row path must decide (see the module)."""
    numeric = (outcome, *families)
    for name in (source, *numeric):
        if name not in table.column_names:
            return None  # the row path names the column and the columns present
    n = table.num_rows
    sources = cols.labels(cols.column(table, source))
    levels = cols.labels(cols.column(table, focal.column))
    if sources is None or levels is None:
        return None
    source_codes, source_names = sources
    if (source_codes < 0).any():
        return None  # an empty source id: the row path names the row
    level_codes, level_names = levels
    seen = dict.fromkeys(level_names, 1)  # a dictionary holds only the values present
    outside = level_codes < 0
    if focal.base_levels:
        wanted = set(focal.levels) | set(focal.base_levels)
        keep = np.array([name in wanted for name in level_names] + [False], dtype=bool)
        outside |= ~keep[level_codes]
    control_codes = []
    missing = np.zeros(n, dtype=bool)
    for name in controls:
        coded = cols.labels(cols.column(table, name))
        if coded is None:
            return None
        control_codes.append(coded)
        missing |= coded[0] < 0
    for name in numeric:
        missing |= cols.missing(cols.column(table, name))
    missing &= ~outside
    rows = np.flatnonzero(~outside & ~missing)
    columns = []
    for name in numeric:
        parsed = cols.numbers(cols.column(table, name), rows)
        if parsed is None:
            return None
        columns.append(parsed)
    if focal.levels:
        _check_levels_seen(seen, focal)
        chosen = level_codes[rows]
        x1 = np.column_stack(
            [chosen == (level_names.index(lv) if lv in level_names else -2) for lv in focal.levels]
        ).astype(np.float64)
    else:
        x1_values = cols.numbers(cols.column(table, focal.column), rows)
        if x1_values is None:
            return None
        x1 = x1_values[:, None]
    codes, labels = cols.first_seen(source_codes[rows], source_names)
    dummies, dummy_names = _control_dummies(control_codes, controls, rows)
    y, *attributes = columns
    # no attributes (every default one constant within sources): an (n, 0) array, as the
    # row path builds, so GelbachData refuses it with the row path's one-line error
    # (np.column_stack of nothing would raise numpy's ValueError instead)
    x2 = np.column_stack(attributes) if attributes else np.empty((rows.size, 0))
    return GelbachData(
        y=y,
        focal=x1.reshape(rows.size, len(focal.names())),
        attributes=x2.reshape(rows.size, len(families)),
        sources=codes,
        source_labels=labels,
        outcome=outcome,
        focal_names=focal.names(),
        attribute_names=tuple(families),
        families=tuple(families.values()),
        left_out={
            "outside_contrast": int(outside.sum()),
            "missing_values": int(missing.sum()),
        },
        controls=dummies,
        control_names=dummy_names,
    )


def _control_dummies(
    coded: Sequence[tuple[np.ndarray, list[str]]], columns: Sequence[str], rows: np.ndarray
) -> tuple[np.ndarray | None, tuple[str, ...]]:
    """As ``guisekit.gelbach.data._dummies``: one 0/1 column per level after the first
    (sorted) among the used rows of each control column."""
    blocks, names = [], []
    for (codes, strings), column in zip(coded, columns, strict=True):
        used = codes[rows]
        present = sorted(strings[i] for i in np.unique(used))
        for level in present[1:]:
            blocks.append(used == strings.index(level))
            names.append(f"{column}={level}")
    if not blocks:
        return None, ()
    return np.column_stack(blocks).astype(np.float64), tuple(names)


def constant_within_sources(
    table: pa.Table, names: Sequence[str], source: str, focal_column: str
) -> list[str] | None:
    """Attributes whose value never changes within a source, among rows with a focal
    value (as the command's row version); ``None`` for a column of nested values."""
    import pyarrow as pa
    import pyarrow.compute as pc

    has_level = ~np.asarray(
        cols.column(table, focal_column).is_null().to_numpy(zero_copy_only=False), dtype=bool
    )
    sources = cols.labels(cols.column(table, source))
    if sources is None:
        return None
    groups = sources[0]
    constant = []
    for name in names:
        values = cols.column(table, name)
        if not cols.is_scalar(values.type):
            return None
        valid = pc.is_valid(values)
        if cols.is_string(values.type):
            valid = pc.and_(valid, pc.not_equal(values, ""))
        rows = np.flatnonzero(
            has_level & np.asarray(valid.fill_null(False).to_numpy(zero_copy_only=False))
        )
        # constant within every source <=> each value equals some one value of its source
        # (whichever member the assignment keeps): one vectorised comparison, no sort
        group = groups[rows]
        member = np.zeros(max(len(sources[1]), 1) + 1, dtype=np.int64)
        member[group] = rows
        chosen = values.take(pa.array(rows, type=pa.int64()))
        reference = values.take(pa.array(member[group], type=pa.int64()))
        if pc.all(pc.equal(chosen, reference)).as_py() is not False:
            constant.append(name)
    return constant


def join_decisions_table(table: pa.Table, decisions: pa.Table, outcome: str) -> pa.Table | None:
    """The attribute table with the decisions' mean ``outcome`` per ``variant_id`` as a
    column (null where a variant has no usable decision), as the command's
    ``join_decisions`` does row by row; ``None`` when the row version must decide."""
    import pyarrow as pa

    name, eq, wanted = outcome.partition("=")
    if "variant_id" not in table.column_names or "variant_id" not in decisions.column_names:
        return None
    d_ids = cols.labels(cols.column(decisions, "variant_id"))
    v_ids = cols.labels(cols.column(table, "variant_id"))
    if d_ids is None or v_ids is None or (d_ids[0] < 0).any() or (v_ids[0] < 0).any():
        return None  # blank or null ids: the row version's str() of them decides
    m = decisions.num_rows
    ok = np.ones(m, dtype=bool)
    if "status" in decisions.column_names:
        status = cols.column(decisions, "status")
        if status.null_count or not cols.is_string(status.type):
            return None
        ok = np.asarray(status.to_numpy(zero_copy_only=False) == "ok", dtype=bool)
    values = np.full(m, np.nan)
    if eq:
        if not wanted.strip() or wanted == "None":
            return None  # blank or null labels would match: the row version decides
        labels = cols.labels(cols.column(decisions, "label"))
        if labels is None:
            return None
        codes, strings = labels
        target = strings.index(wanted) if wanted in strings else -2
        values[ok] = (codes[ok] == target).astype(np.float64)
    else:
        if name not in decisions.column_names or not decisions.column(name).is_valid()[0]:
            return None  # the row version says the column is absent
        column = cols.column(decisions, name)
        usable = ok & ~cols.missing(column, blank="empty")
        rows = np.flatnonzero(usable)
        parsed = cols.numbers(column, rows) if rows.size else np.empty(0)
        if parsed is None:
            return None
        values[rows] = parsed
    counted = ~np.isnan(values)
    # decision ids and table ids share one code space through their strings
    space: dict[str, int] = {}
    d_map = np.array([space.setdefault(s, len(space)) for s in d_ids[1]], dtype=np.int64)
    v_map = np.array([space.setdefault(s, len(space)) for s in v_ids[1]], dtype=np.int64)
    d_codes = d_map[d_ids[0]][counted]
    sums = np.bincount(d_codes, weights=values[counted], minlength=len(space))
    counts = np.bincount(d_codes, minlength=len(space))
    v_codes = v_map[v_ids[0]]
    if not (counts[v_codes] > 0).any():
        raise InputError(
            "no decision matches a variant of the attributes table",
            hint="give the attributes of the corpus the decisions were taken on",
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts
    found = counts[v_codes] > 0
    column = pa.array(means[v_codes], type=pa.float64(), mask=~found)
    if outcome in table.column_names:
        return table.set_column(table.column_names.index(outcome), outcome, column)
    return table.append_column(outcome, column)


def has_nulls(table: pa.Table, names: Sequence[str]) -> bool:
    """Whether any of ``names`` (present columns) holds a null."""
    return any(name in table.column_names and table.column(name).null_count for name in names)
