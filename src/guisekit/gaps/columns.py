"""Gaps inputs read and coded as columns (pyarrow + numpy), not as Python row dicts.

:func:`guisekit.gaps.table.build_table` loops over every decision and every variant in
Python, after the row reader has turned each line into a dict; on a million decisions
that is most of what ``guisekit gaps`` spends before its (vectorised) statistics. Here the
corpus and the decisions are read by pyarrow's readers (:mod:`guisekit.columns`, shared
with ``gelbach``), strings are coded once per distinct value, and the join on
``variant_id`` is one ``index_in``.

The row path stays the reference: :func:`from_tables` gives exactly the
:class:`~guisekit.gaps.table.GapsTable` it gives, and answers ``None`` (the caller then
runs the row path, which builds the same table or raises its one-line error) wherever a
value needs its judgement: a null where a JSONL line may have left the key out (status,
ids, transform), a value that is not a clean number, a repeated variant id, a type pyarrow
cannot read. The rows whose *keys* the row path reads (the first variant, which tells a
grid from a corpus; the first decision, whose ``prob_*`` keys name the labels) and the
first spec of each transform (its intended fact change) are read exactly as written
(:func:`guisekit.columns.exact_rows`).

One difference, by design: a persona level stored as ``null`` in a spec (which a corpus
written by guisekit never holds: levels are validated strings) counts as no level on that
axis, where the row path would read the level ``"None"``; Arrow cannot tell a JSONL
line's absent key from its null.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from guisekit import columns as cols
from guisekit.errors import InputError
from guisekit.gaps.table import (
    NONE,
    Axis,
    GapsTable,
    build_table,
    change_of,
    coded_table,
    ordered_levels,
    persona_of,
)

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["CorpusLoader", "from_tables"]

Coded = tuple[np.ndarray, list[str]]


class CorpusLoader:
    """The gap tables of one corpus and one or more decision files (the decisions and,
    with ``--mitigated``, the mitigated ones): as columns where pyarrow can read both
    files and nothing needs the row path, else as rows. The corpus is read once."""

    def __init__(
        self,
        corpus: Path,
        *,
        outcome: str,
        references: Mapping[str, str] | None = None,
        weights: Mapping[str, float] | None = None,
    ) -> None:
        self.corpus = corpus
        self.outcome = outcome
        self.references = dict(references or {})
        self.weights = weights
        self._columns = cols.read_table(corpus)
        self._rows: list[dict[str, Any]] | None = None

    def variants(self) -> list[dict[str, Any]]:
        """The corpus as rows (read on first use)."""
        if self._rows is None:
            from guisekit.tables import read_rows

            self._rows = [r for _, r in read_rows(self.corpus, required=())]
        return self._rows

    def table(self, decisions: Path) -> GapsTable:
        """The coded table of ``decisions`` joined to the corpus."""
        if self._columns is not None:
            answers = cols.read_table(decisions)
            if answers is not None:
                built = from_tables(
                    self._columns,
                    answers,
                    corpus=self.corpus,
                    decisions=decisions,
                    outcome=self.outcome,
                    references=self.references,
                    weights=self.weights,
                )
                if built is not None:
                    return built
        from guisekit.tables import read_rows

        variants = self.variants()  # the corpus first, as the row path reads it
        rows = [r for _, r in read_rows(decisions, required=("variant_id",))]
        return build_table(
            variants, rows, outcome=self.outcome, references=self.references, weights=self.weights
        )


def _strings(table: pa.Table, name: str) -> Coded | None:
    """A column of scalars as codes of ``str(value)`` (-1 for null)."""
    return cols.labels(cols.column(table, name), blank="keep")


def _no_nulls(table: pa.Table, name: str) -> Coded | None:
    """A present column without nulls as string codes; ``None`` otherwise (absent: the
    row path names it; null: in JSONL maybe an absent key, which the row path judges)."""
    if name not in table.column_names or table.column(name).null_count:
        return None
    return _strings(table, name)


def _status_ok(table: pa.Table) -> np.ndarray | None:
    """``row.get("status", "ok") == "ok"`` per row."""
    if "status" not in table.column_names:
        return np.ones(table.num_rows, dtype=bool)
    coded = _no_nulls(table, "status")
    if coded is None:
        return None
    codes, names = coded
    return np.asarray(codes == (names.index("ok") if "ok" in names else -2), dtype=bool)


def _unique_first(codes: np.ndarray) -> np.ndarray:
    """The distinct codes (>= 0) in order of first appearance."""
    return cols.first_order(codes, int(codes.max()) + 1 if codes.size else 0)


def _grouped(codes: np.ndarray, names: list[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """``group_codes`` of the strings ``names[codes]`` (codes >= 0)."""
    renumbered, labels = cols.first_seen(codes, names)
    return np.asarray(renumbered, dtype=np.int64), labels


def _bank(variants: pa.Table, kept: np.ndarray) -> np.ndarray | None:
    """Codes of ``str(row.get("model") or row.get("engine") or "-")``."""
    import pyarrow as pa

    chosen = np.full(kept.size, -1, dtype=np.int64)
    space: dict[str, int] = {}
    for name in ("model", "engine"):
        values = cols.column(variants, name)
        if not (pa.types.is_null(values.type) or cols.is_string(values.type)):
            return None  # a number's truth value: the row path decides
        coded = cols.labels(values, blank="keep")
        if coded is None:
            return None
        codes, strings = coded
        remap = np.array([space.setdefault(s, len(space)) if s else -1 for s in strings] + [-1])
        mine = remap[codes[kept]]  # -1 (null) indexes the trailing -1
        chosen = np.where(chosen >= 0, chosen, mine)
    dash = space.setdefault("-", len(space))
    chosen[chosen < 0] = dash
    return _grouped(chosen, list(space))[0]


def _persona_levels(
    variants: pa.Table, kept: np.ndarray
) -> tuple[np.ndarray, list[dict[str, str]]] | None:
    """Per kept variant a persona code, and the persona (``persona_of``) of each code."""
    import pyarrow as pa
    import pyarrow.compute as pc

    spec = cols.column(variants, "spec")
    n = kept.size
    if pa.types.is_null(spec.type):
        return np.zeros(n, dtype=np.int64), [{}]
    if cols.is_string(spec.type):  # JSON text (CSV): parsed once per distinct spec
        coded = _strings(variants, "spec")
        if coded is None:
            return None
        codes, texts = coded
        try:
            found = [persona_of({"spec": text}) for text in texts]
        except (json.JSONDecodeError, AttributeError):
            return None
        return np.where(codes[kept] >= 0, codes[kept], len(found)), [*found, {}]
    if not pa.types.is_struct(spec.type):
        return None
    names = [spec.type.field(i).name for i in range(spec.type.num_fields)]
    if "persona" not in names:
        return np.zeros(n, dtype=np.int64), [{}]
    persona = pc.struct_field(spec, "persona")
    if pa.types.is_null(persona.type):
        return np.zeros(n, dtype=np.int64), [{}]
    if not pa.types.is_struct(persona.type):
        return None
    axes = [persona.type.field(i).name for i in range(persona.type.num_fields)]
    matrix, strings = [], []
    for axis in axes:
        coded = cols.labels(pc.struct_field(persona, axis), blank="keep")
        if coded is None:
            return None
        matrix.append(coded[0][kept])
        strings.append(coded[1])
    if not axes:
        return np.zeros(n, dtype=np.int64), [{}]
    if np.prod([float(len(names) + 1) for names in strings]) >= 2.0**62:
        return None  # too many combinations for one integer key: the row path
    # one integer per combination of levels (mixed radix, -1 -> 0), then its distinct values
    key = np.zeros(n, dtype=np.int64)
    for codes, names in zip(matrix, strings, strict=True):
        key = key * (len(names) + 1) + (codes + 1)
    values, inverse = np.unique(key, return_inverse=True)
    combos = np.empty((values.size, len(axes)), dtype=np.int64)
    rest = values.copy()
    for j in range(len(axes) - 1, -1, -1):
        base = len(strings[j]) + 1
        combos[:, j] = rest % base - 1
        rest //= base
    found = [
        {
            axis: strings[j][code]
            for j, (axis, code) in enumerate(zip(axes, combo, strict=True))
            if code >= 0
        }
        for combo in combos
    ]
    return np.asarray(inverse, dtype=np.int64).reshape(n), found


def _persona_axes(
    variants: pa.Table, kept: np.ndarray, references: dict[str, str]
) -> list[Axis] | None:
    """As ``build_table``: one axis per persona key in order of first appearance, levels
    in the grid's order (reference first), a code per kept variant."""
    levels_of = _persona_levels(variants, kept)
    if levels_of is None:
        return None
    codes, personas = levels_of
    order = _unique_first(codes)  # distinct personas in order of first appearance
    ordered = [personas[c] for c in order]
    axes = []
    for name in dict.fromkeys(k for p in ordered for k in p):
        levels = ordered_levels(
            name, (p[name] for p in ordered if name in p), references.pop(name, None)
        )
        lookup = {lv: j for j, lv in enumerate(levels)}
        per_persona = np.array([lookup[p[name]] if name in p else NONE for p in personas])
        axes.append(Axis(name, levels, per_persona[codes], "persona"))
    return axes


def _grid_axes(
    variants: pa.Table, kept: np.ndarray, references: dict[str, str]
) -> tuple[list[Axis], dict[str, Any]] | None:
    """As ``build_table`` on an identifier grid: the axes and the per-variant grid lists."""
    coded = {}
    for name in ("axis", "identifier", "cell"):
        found = _no_nulls(variants, name)
        if found is None:
            return None
        coded[name] = (found[0][kept], found[1])
    if "profile" in variants.column_names:
        found = _no_nulls(variants, "profile")
        if found is None:
            return None
        coded["profile"] = (found[0][kept], found[1])
    else:
        coded["profile"] = (np.zeros(kept.size, dtype=np.int64), [""])
    axis_codes, axis_names = coded["axis"]
    ident_codes, ident_names = coded["identifier"]
    axes = []
    for a in _unique_first(axis_codes):
        mine = axis_codes == a
        seen = [ident_names[i] for i in _unique_first(ident_codes[mine])]
        levels = ordered_levels(axis_names[a], seen, references.pop(axis_names[a], None))
        lookup = np.array([levels.index(s) if s in levels else NONE for s in ident_names])
        axes.append(
            Axis(axis_names[a], levels, np.where(mine, lookup[ident_codes], NONE), "identifier")
        )

    def strings(name: str) -> list[str]:
        codes, names = coded[name]
        return list(np.asarray(names, dtype=object)[codes])

    grid = {
        "slot": strings("cell"),
        "profile": strings("profile"),
        "axis": strings("axis"),
        "identifier": strings("identifier"),
    }
    return axes, grid


def _ints(table: pa.Table, name: str, rows: np.ndarray) -> np.ndarray | None:
    """``int(row.get(name) or 0)`` of the selected rows."""
    import pyarrow as pa
    import pyarrow.compute as pc

    values = cols.column(table, name)
    kind = values.type
    if pa.types.is_null(kind):
        return np.zeros(rows.size, dtype=np.int64)
    chosen = values.take(pa.array(rows, type=pa.int64()))
    if cols.is_string(kind):
        chosen = pc.if_else(pc.equal(chosen, ""), None, chosen)
    elif pa.types.is_floating(kind):
        numbers = np.asarray(chosen.fill_null(0.0).to_numpy(zero_copy_only=False))
        if not (np.abs(numbers) < 2.0**63).all():  # inf, nan, 1e308: the row path says which
            return None
        truncated: np.ndarray = np.trunc(numbers).astype(np.int64)  # as int() does
        return truncated
    elif not (pa.types.is_integer(kind) or pa.types.is_boolean(kind)):
        return None
    try:
        cast = pc.cast(chosen, pa.int64(), safe=True)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    return np.asarray(cast.fill_null(0).to_numpy(zero_copy_only=False), dtype=np.int64)


def _outcome(
    decisions: pa.Table, rows: np.ndarray, outcome: str, first: Mapping[str, Any]
) -> np.ndarray | None:
    """``outcome_values`` of the selected decisions."""
    name, eq, wanted = outcome.partition("=")
    if not eq and name not in first:
        return None  # the row path names the missing column
    ok = _status_ok(decisions)
    if ok is None:
        return None
    ok = ok[rows]
    values = np.full(rows.size, np.nan)
    if eq:
        if wanted == "None":
            return None  # a null label would match: the row path decides
        coded = _strings(decisions, "label")
        if coded is None:
            return None
        codes, names = coded
        target = names.index(wanted) if wanted in names else -2
        values[ok] = (codes[rows][ok] == target).astype(np.float64)
        return values
    column = cols.column(decisions, name)
    usable = ok & ~cols.missing(column, blank="empty")[rows]
    parsed = cols.numbers(column, rows[usable])
    if parsed is None:
        return None
    values[usable] = parsed
    return values


def from_tables(
    variants: pa.Table,
    answers: pa.Table,
    *,
    corpus: Path,
    decisions: Path,
    outcome: str = "outcome",
    references: Mapping[str, str] | None = None,
    weights: Mapping[str, float] | None = None,
) -> GapsTable | None:
    """``build_table`` on the corpus table ``variants`` (read from ``corpus``) and the
    decisions table ``answers`` (read from ``decisions``): the same table, or ``None``
    where the row path must decide (see the module)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    references = dict(references or {})
    first_variant = cols.exact_rows(corpus, variants, [0])[0]
    is_grid = all(k in first_variant for k in ("axis", "identifier", "cell"))
    vid_col = "id" if is_grid and "variant_id" not in first_variant else "variant_id"
    src_col = "cell" if is_grid else "source_id"
    ids, sources, ok = (
        _no_nulls(variants, vid_col),
        _no_nulls(variants, src_col),
        _status_ok(variants),
    )
    if ids is None or sources is None or ok is None:
        return None
    kept = np.flatnonzero(ok)
    kept_ids = ids[0][kept]
    if kept_ids.size and np.bincount(kept_ids).max() > 1:
        return None  # a repeated variant id: the row path decides
    # the join: each decision's variant id, as a position among the kept variants
    decided = _no_nulls(answers, "variant_id")
    if decided is None:
        return None
    d_codes, d_names = decided
    position = np.full(len(ids[1]) + 1, -1, dtype=np.int64)
    position[kept_ids] = np.arange(kept.size)
    found = pc.index_in(
        pa.array(d_names, type=pa.string()), value_set=pa.array(ids[1], type=pa.string())
    )
    to_variant = np.asarray(
        found.fill_null(len(ids[1])).to_numpy(zero_copy_only=False), dtype=np.int64
    )
    variant_of = position[to_variant][d_codes]
    rows = np.flatnonzero(variant_of >= 0)
    unknown = answers.num_rows - rows.size
    if unknown == answers.num_rows:
        raise InputError(
            "no decision matches a variant of the corpus",
            hint="give the corpus the decisions were taken on (joined on variant_id)",
        )
    source, source_names = _grouped(sources[0][kept], sources[1])
    if "transform" in variants.column_names:
        coded = _no_nulls(variants, "transform")
        if coded is None:
            return None
        transform, transform_names = _grouped(coded[0][kept], coded[1])
    else:
        transform = np.zeros(kept.size, dtype=np.int64)
        transform_names = ("grid" if is_grid else "variant",)
    if is_grid:
        change = tuple("none" for _ in transform_names)
    else:
        firsts = [int(kept[np.argmax(transform == t)]) for t in range(len(transform_names))]
        exact = cols.exact_rows(corpus, variants, firsts)
        change = tuple(change_of(exact[i]) for i in firsts)
    bank = _bank(variants, kept)
    if bank is None:
        return None
    grid = None
    if is_grid:
        built = _grid_axes(variants, kept, references)
        if built is None:
            return None
        axes, grid = built
    else:
        persona_axes = _persona_axes(variants, kept, references)
        if persona_axes is None:
            return None
        axes = persona_axes
    if references:
        raise InputError(f"--reference names an unknown axis {next(iter(references))!r}")
    first = cols.exact_rows(decisions, answers, [int(rows[0])])[int(rows[0])]
    y = _outcome(answers, rows, outcome, first)
    labelled = _strings(answers, "label")
    if y is None or labelled is None:
        return None
    label_codes = labelled[0][rows]
    label_names = tuple(k.removeprefix("prob_") for k in first if k.startswith("prob_"))
    if not label_names:
        present = np.unique(label_codes[label_codes >= 0])
        label_names = tuple(sorted(labelled[1][i] for i in present))
    index_of = np.array(
        [*(label_names.index(s) if s in label_names else NONE for s in labelled[1]), NONE]
    )
    label = np.asarray(index_of[label_codes], dtype=np.int64)
    probs = None
    if any(k.startswith("prob_") for k in first):
        matrix = np.full((rows.size, len(label_names)), np.nan)
        for j, name in enumerate(label_names):
            column = cols.column(answers, f"prob_{name}")
            usable = ~cols.missing(column, blank="empty")[rows]
            parsed = cols.numbers(column, rows[usable])
            if parsed is None:
                return None
            matrix[usable, j] = parsed
        probs = matrix
    repeat, order = _ints(answers, "repeat", rows), _ints(answers, "order", rows)
    if repeat is None or order is None:
        return None
    variant = variant_of[rows]
    return coded_table(
        y=y,
        variant=variant,
        repeat=repeat,
        order=order,
        label=label,
        probs=probs,
        label_names=label_names,
        source=source,
        source_names=source_names,
        transform=transform,
        transform_names=transform_names,
        change=change,
        bank=bank,
        axes=axes,
        outcome=outcome,
        weights=weights,
        grid=grid,
        left_out={
            "variants_not_ok": variants.num_rows - kept.size,
            "variants_without_decision": kept.size
            - int(np.count_nonzero(np.bincount(variant, minlength=kept.size))),
            "decisions_without_variant": unknown,
        },
    )
