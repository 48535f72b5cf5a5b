"""The arrays a gap analysis works on: decisions joined to their variants.

Variants come from a corpus (persona levels, transform, intended fact change, rewrite
bank) or an identifier grid (axis, identifier, matched slot, base profile); decisions
from ``guisekit decide`` (one per variant x repeat x option order). Everything is coded
as integer arrays once, so the analysis and its bootstrap never touch Python objects per
row; a million decisions fit in tens of megabytes.

The intended fact change of a variant comes from the transform registry
(:func:`guisekit.transforms.entry_of`), never from parsing its label.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from guisekit.errors import InputError
from guisekit.stats.clusters import FloatArray, IntArray, group_codes

__all__ = ["NONE", "Axis", "GapsTable", "build_table", "coded_table", "outcome_values"]

NONE = -1


@dataclass(frozen=True)
class Axis:
    """A persona or identifier axis: level names (reference first) and, per variant, the
    level code (-1 where the variant has no level on this axis)."""

    name: str
    levels: tuple[str, ...]
    codes: IntArray
    kind: str  # "persona" or "identifier"


@dataclass(frozen=True)
class GapsTable:
    """Decisions (``y``, ``variant``, ``repeat``, ``order``, ``label``, ``probs``) and
    variants (``source``, ``transform``, ``change``, ``bank``, axes), all coded."""

    y: FloatArray
    variant: IntArray
    repeat: IntArray
    order: IntArray
    label: IntArray
    probs: FloatArray | None
    label_names: tuple[str, ...]
    source: IntArray
    source_names: tuple[str, ...]
    transform: IntArray
    transform_names: tuple[str, ...]
    change: tuple[str, ...]  # per transform code: none / scaled / added / removed / claim
    bank: IntArray
    axes: tuple[Axis, ...]
    outcome: str
    is_rate: bool
    weights: FloatArray | None = None  # per source
    grid: dict[str, Any] | None = None  # slot/profile/axis/identifier per variant
    left_out: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = self.y.shape[0]
        for name in ("variant", "repeat", "order", "label"):
            if getattr(self, name).shape != (n,):
                raise InputError(f"decision array {name!r} does not match the decisions")
        v = self.source.shape[0]
        if self.transform.shape != (v,) or self.bank.shape != (v,):
            raise InputError("variant arrays do not match the variants")
        if n and (self.variant.max() >= v or self.variant.min() < 0):
            raise InputError("a decision points at no variant")
        if self.weights is not None and self.weights.shape != (len(self.source_names),):
            raise InputError("give one weight per source")

    @property
    def n_variants(self) -> int:
        return int(self.source.shape[0])

    @property
    def n_sources(self) -> int:
        return len(self.source_names)

    def variant_means(self) -> FloatArray:
        """Mean outcome of every variant over its usable decisions (NaN if none)."""
        ok = np.isfinite(self.y)
        sums = np.bincount(self.variant[ok], weights=self.y[ok], minlength=self.n_variants)
        counts = np.bincount(self.variant[ok], minlength=self.n_variants)
        with np.errstate(invalid="ignore", divide="ignore"):
            out: FloatArray = sums / counts
        return out

    def source_weights(self) -> FloatArray:
        return np.ones(self.n_sources) if self.weights is None else self.weights


def outcome_values(rows: Sequence[Mapping[str, Any]], outcome: str) -> FloatArray:
    """The analysed value of each decision: a column (``outcome``, ``prob_monetary_action``) or an
    indicator ``label=monetary_action``; NaN for failed decisions."""
    name, eq, wanted = outcome.partition("=")
    values = np.full(len(rows), np.nan)
    if rows and not eq and name not in rows[0]:
        raise InputError(
            f"the decisions have no column {name!r}",
            hint="use outcome, a prob_<label> column or label=<label>",
        )
    for i, row in enumerate(rows):
        if row.get("status", "ok") != "ok":
            continue
        if eq:
            values[i] = float(str(row.get("label")) == wanted)
            continue
        value = row.get(name)
        if value is None or value == "":
            continue
        try:
            values[i] = float(value)
        except (TypeError, ValueError):
            raise InputError(f"decision {i + 1}: {name}={value!r} is not a number") from None
    return values


def rate_outcome(y: FloatArray, outcome: str) -> bool:
    """Whether the analysed values are a rate (gaps in percentage points)."""
    finite = y[np.isfinite(y)]
    return (
        bool(finite.size)
        and bool(((finite >= 0) & (finite <= 1)).all())
        and ("=" in outcome or outcome.startswith("prob_") or set(np.unique(finite)) <= {0.0, 1.0})
    )


def source_weights(
    weights: Mapping[str, float] | None, source_names: Sequence[Any]
) -> FloatArray | None:
    """The population weight of every source, in the order of ``source_names``."""
    if weights is None:
        return None
    missing = [str(s) for s in source_names if str(s) not in weights]
    if missing:
        raise InputError(f"no population weight for source {missing[0]!r}")
    w = np.array([float(weights[str(s)]) for s in source_names])
    if not (np.isfinite(w).all() and (w > 0).all()):
        raise InputError("population weights must be positive numbers")
    return w


def _spec_of(row: Mapping[str, Any]) -> Any:
    """The row's spec, decoded when a CSV kept it as JSON text; text that is not JSON is
    an input error naming the variant (was a JSONDecodeError traceback)."""
    spec = row.get("spec")
    if isinstance(spec, str):
        import json

        try:
            return json.loads(spec)
        except json.JSONDecodeError:
            raise InputError(
                f"variant {row.get('variant_id')!r}: spec is not JSON ({spec[:40]!r})",
                hint="pass the corpus file guisekit corpus wrote, unedited",
            ) from None
    return spec


def _probability(decision: Mapping[str, Any], i: int, key: str) -> float:
    """``decision[key]`` as a float (NaN when absent or blank); anything else that is not
    a number is an input error naming the decision (was a ValueError/TypeError traceback)."""
    value = decision.get(key)
    if value in (None, ""):
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InputError(
            f"decision {i + 1}: {key}={value!r} is not a number",
            hint=f"{key} is a probability, as guisekit decide writes it",
        ) from None


def change_of(row: Mapping[str, Any]) -> str:
    from guisekit.transforms import entry_of, parse_spec

    spec = _spec_of(row)
    if not isinstance(spec, Mapping):
        return "none"
    try:
        parsed = parse_spec(dict(spec))
    except Exception:  # a spec this version cannot read: treated as a style transform
        return "none"
    return str(entry_of(parsed).change(parsed))


def persona_of(row: Mapping[str, Any]) -> dict[str, str]:
    spec = _spec_of(row)
    levels = spec.get("persona") if isinstance(spec, Mapping) else None
    return {str(k): str(v) for k, v in levels.items()} if isinstance(levels, Mapping) else {}


def ordered_levels(axis: str, seen: Iterable[str], reference: str | None) -> tuple[str, ...]:
    from guisekit.personas import load_grid

    seen = list(dict.fromkeys(seen))
    try:
        known = [lv.name for lv in load_grid().axis(axis).levels]
    except Exception:  # not an axis of the built-in grid: first appearance
        known = []
    ordered = [lv for lv in known if lv in seen] + [lv for lv in seen if lv not in known]
    if reference is not None:
        if reference not in ordered:
            raise InputError(
                f"reference level {reference!r} never occurs on axis {axis!r}",
                hint=f"levels: {', '.join(ordered)}",
            )
        ordered.remove(reference)
        ordered.insert(0, reference)
    return tuple(ordered)


def build_table(
    variants: Sequence[Mapping[str, Any]],
    decisions: Sequence[Mapping[str, Any]],
    *,
    outcome: str = "outcome",
    variant_id: str = "variant_id",
    source_column: str | None = None,
    references: Mapping[str, str] | None = None,
    weights: Mapping[str, float] | None = None,
) -> GapsTable:
    """Join decisions to variants on ``variant_id`` and code everything.

    A corpus is recognised by its ``spec`` column, a grid by ``axis``/``identifier``/
    ``cell`` columns (its ``id`` column is the variant id and its cell the cluster).
    Decisions whose variant is not in the corpus are an error; variants with no decision
    are counted in ``left_out``.
    """
    references = dict(references or {})
    if not variants:
        raise InputError("the corpus has no variants")
    is_grid = all(k in variants[0] for k in ("axis", "identifier", "cell"))
    vid_col = "id" if is_grid and variant_id not in variants[0] else variant_id
    src_col = source_column or ("cell" if is_grid else "source_id")
    index: dict[str, int] = {}
    for number, row in enumerate(variants, start=1):
        for col in (vid_col, src_col):
            if col not in row:
                raise InputError(f"corpus row {number}: no column {col!r}")
        index.setdefault(str(row[vid_col]), len(index))
    kept = [row for row in variants if row.get("status", "ok") == "ok"]
    kept_ids = {str(r[vid_col]) for r in kept}
    index = {vid: i for i, vid in enumerate(dict.fromkeys(str(r[vid_col]) for r in kept))}
    dec_rows = [d for d in decisions if str(d.get("variant_id")) in kept_ids]
    unknown = sum(str(d.get("variant_id")) not in index for d in decisions)
    if unknown == len(decisions):
        raise InputError(
            "no decision matches a variant of the corpus",
            hint="give the corpus the decisions were taken on (joined on variant_id)",
        )
    source, source_names = group_codes([str(r[src_col]) for r in kept])
    labels = [str(r.get("transform", "grid" if is_grid else "variant")) for r in kept]
    transform, transform_names = group_codes(labels)
    first = {
        t: next(r for r, lab in zip(kept, labels, strict=True) if lab == t) for t in transform_names
    }
    change = tuple("none" if is_grid else change_of(first[t]) for t in transform_names)
    bank, _ = group_codes([str(r.get("model") or r.get("engine") or "-") for r in kept])
    axes: list[Axis] = []
    if is_grid:
        for name in dict.fromkeys(str(r["axis"]) for r in kept):
            mine = [str(r["identifier"]) for r in kept if str(r["axis"]) == name]
            levels = ordered_levels(name, mine, references.pop(name, None))
            lookup = {lv: j for j, lv in enumerate(levels)}
            codes = np.array(
                [lookup[str(r["identifier"])] if str(r["axis"]) == name else NONE for r in kept]
            )
            axes.append(Axis(name, levels, codes, "identifier"))
    else:
        personas = [persona_of(r) for r in kept]
        for name in dict.fromkeys(k for p in personas for k in p):
            levels = ordered_levels(
                name, (p[name] for p in personas if name in p), references.pop(name, None)
            )
            lookup = {lv: j for j, lv in enumerate(levels)}
            codes = np.array([lookup[p[name]] if name in p else NONE for p in personas])
            axes.append(Axis(name, levels, codes, "persona"))
    if references:
        raise InputError(f"--reference names an unknown axis {next(iter(references))!r}")
    y = outcome_values(dec_rows, outcome)
    label_list = [d.get("label") for d in dec_rows]
    label_names = tuple(
        k.removeprefix("prob_") for k in (dec_rows[0] if dec_rows else {}) if k.startswith("prob_")
    )
    if not label_names:
        label_names = tuple(sorted({str(lab) for lab in label_list if lab is not None}))
    lab_index = {name: j for j, name in enumerate(label_names)}
    label = np.array(
        [lab_index.get(str(lab), NONE) if lab is not None else NONE for lab in label_list],
        dtype=np.int64,
    )
    probs = None
    if dec_rows and any(k.startswith("prob_") for k in dec_rows[0]):
        probs = np.array(
            [
                [_probability(d, i, f"prob_{n}") for n in label_names]
                for i, d in enumerate(dec_rows)
            ],
            dtype=np.float64,
        ).reshape(len(dec_rows), len(label_names))
    grid = None
    if is_grid:
        grid = {
            "slot": [str(r["cell"]) for r in kept],
            "profile": [str(r.get("profile", "")) for r in kept],
            "axis": [str(r["axis"]) for r in kept],
            "identifier": [str(r["identifier"]) for r in kept],
        }

    def ints(key: str) -> IntArray:
        values = np.zeros(len(dec_rows), dtype=np.int64)
        for i, d in enumerate(dec_rows):
            try:
                values[i] = int(d.get(key) or 0)
            except (TypeError, ValueError, OverflowError):  # "x", [1], inf, 1e308
                raise InputError(
                    f"decision {i + 1}: {key}={d.get(key)!r} is not a whole number",
                    hint=f"{key} counts from 0, as guisekit decide writes it",
                ) from None
        return values

    decided = {str(d["variant_id"]) for d in dec_rows}
    return coded_table(
        y=y,
        variant=np.array([index[str(d["variant_id"])] for d in dec_rows], dtype=np.int64),
        repeat=ints("repeat"),
        order=ints("order"),
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
            "variants_not_ok": len(variants) - len(kept),
            "variants_without_decision": len(kept_ids - decided),
            "decisions_without_variant": unknown,
        },
    )


def coded_table(
    *,
    y: FloatArray,
    variant: IntArray,
    repeat: IntArray,
    order: IntArray,
    label: IntArray,
    probs: FloatArray | None,
    label_names: tuple[str, ...],
    source: IntArray,
    source_names: Sequence[Any],
    transform: IntArray,
    transform_names: Sequence[Any],
    change: tuple[str, ...],
    bank: IntArray,
    axes: Iterable[Axis],
    outcome: str,
    weights: Mapping[str, float] | None,
    grid: dict[str, Any] | None,
    left_out: Mapping[str, int],
) -> GapsTable:
    """The one construction of a :class:`GapsTable` from coded arrays, for the row path
    (:func:`build_table`) and the column path (:func:`guisekit.gaps.columns.from_tables`),
    so the two cannot drift apart: names become text, the outcome is judged a rate or
    not, the weights are put in source order, and the decisions whose outcome failed are
    counted in ``left_out`` after the caller's counts."""
    return GapsTable(
        y=y,
        variant=variant,
        repeat=repeat,
        order=order,
        label=label,
        probs=probs,
        label_names=label_names,
        source=source,
        source_names=tuple(map(str, source_names)),
        transform=transform,
        transform_names=tuple(map(str, transform_names)),
        change=change,
        bank=bank,
        axes=tuple(axes),
        outcome=outcome,
        is_rate=rate_outcome(y, outcome),
        weights=source_weights(weights, source_names),
        grid=grid,
        left_out={**left_out, "failed_decisions": int((~np.isfinite(y)).sum())},
    )
