"""Edits in context, for reading and judging: each applied edit shown alone in its sentence.

A variant records its edits with the pass (``step``) that applied them; replaying the
steps before an edit gives the text it indexes, and applying that edit alone gives the
sentence a judge reads (see /EDIT-JUDGING: "the sentence with only that edit applied").
Sampling is stratified by transform family or operator with a local generator, so a
sample is reproducible from its seed and every family is seen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from guisekit.rules.edits import local_rng

__all__ = ["EditInContext", "EditRef", "Strata", "allot", "collect_refs", "draw", "in_context"]

Strata = Literal["transform", "operator", "none"]
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]”’]*\s+|\n+")
# Transforms whose edits are meant to change facts (positive controls): not style edits.
EXCLUDED_FAMILIES = frozenset({"fact_edit", "identity"})


@dataclass(frozen=True)
class EditRef:
    """Where one applied edit lives: a variant (by index) and the edit's index in it."""

    variant: int
    edit: int
    transform: str
    operator: str

    def stratum(self, by: Strata) -> str:
        return {"transform": self.transform, "operator": self.operator, "none": "all"}[by]


@dataclass(frozen=True)
class EditInContext:
    """One edit as a judge reads it (the fields of a ``--jsonl`` line)."""

    operator: str
    transform: str
    label: str
    sentence_before: str
    sentence_after: str
    before: str
    after: str
    source_id: str
    variant_id: str
    stratum: str
    stratum_share: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or line) holding ``text[start:end]``, as offsets."""
    left = 0
    for match in _BOUNDARY.finditer(text, 0, max(start, 0)):
        left = match.end()
    right = len(text)
    for match in _BOUNDARY.finditer(text, max(end, left)):
        right = match.start()
        if right >= end:
            break
    # an edit that itself spans a boundary (an inserted opening line) keeps its neighbours
    return left, max(right, end)


def _apply(text: str, edits: Iterable[Mapping[str, Any]]) -> str:
    """Apply one step's edits (disjoint, indexing ``text``) right to left."""
    for edit in sorted(edits, key=lambda e: (e["start"], e["end"]), reverse=True):
        text = text[: edit["start"]] + edit["after"] + text[edit["end"] :]
    return text


def in_context(source_text: str, edits: Sequence[Mapping[str, Any]], index: int) -> tuple[str, str]:
    """The sentence around ``edits[index]`` before and after that edit alone is applied.

    The steps before the edit's own are replayed first, so the sentence is the one the
    operator saw. Raises ``ValueError`` when the records do not fit the text (a corpus
    whose sources were changed after it was made).
    """
    target = edits[index]
    step = int(target.get("step", 0))
    text = source_text
    for earlier in sorted({int(e.get("step", 0)) for e in edits if int(e.get("step", 0)) < step}):
        text = _apply(text, [e for e in edits if int(e.get("step", 0)) == earlier])
    start, end = int(target["start"]), int(target["end"])
    if text[start:end] != target["before"]:
        raise ValueError("edit records do not match the source text")
    left, right = _sentence(text, start, end)
    delta = len(target["after"]) - (end - start)
    edited = text[:start] + target["after"] + text[end:]
    return text[left:right].strip(), edited[left : right + delta].strip()


def collect_refs(variants: Sequence[Mapping[str, Any]]) -> list[EditRef]:
    """Every style edit of ``variants`` (rows with ``transform`` and ``edits``); edits of
    fact-edit controls and of the identity are left out."""
    refs = []
    for i, row in enumerate(variants):
        label = str(row.get("transform") or "")
        if label.split(":", 1)[0] in EXCLUDED_FAMILIES:
            continue
        for j, edit in enumerate(row.get("edits") or ()):
            refs.append(EditRef(i, j, label, str(edit["operator"])))
    return refs


def allot(sizes: Mapping[str, int], n: int) -> dict[str, int]:
    """Equal shares of ``n`` over strata, capped by each stratum's size, leftovers passed on
    (ties broken by name, so the allotment is reproducible)."""
    share = dict.fromkeys(sizes, 0)
    left = n
    open_ = sorted(s for s in sizes if sizes[s] > 0)
    while left > 0 and open_:
        each, extra = divmod(left, len(open_))
        for k, name in enumerate(open_):
            take = min(each + (1 if k < extra else 0), sizes[name] - share[name])
            share[name] += take
            left -= take
        open_ = [s for s in open_ if share[s] < sizes[s]]
    return share


def draw(
    variants: Sequence[Mapping[str, Any]],
    sources: Mapping[str, str],
    n: int,
    seed: int,
    by: Strata = "transform",
) -> tuple[list[EditInContext], dict[str, int]]:
    """``n`` random style edits of ``variants`` in context, stratified ``by``, and the
    number of edits in each stratum (their shares weight a stratified error rate).

    Strata get equal shares of ``n`` (what a small one cannot fill goes to the others);
    an edit that reads exactly like one already drawn (the same edit made in several
    guises of a source) is passed over. Output is in stratum order, then drawn order.
    """
    refs = collect_refs(variants)
    groups: dict[str, list[EditRef]] = {}
    for ref in refs:
        groups.setdefault(ref.stratum(by), []).append(ref)
    sizes = {name: len(pool) for name, pool in groups.items()}
    total = sum(sizes.values()) or 1
    wanted = allot(sizes, n)
    drawn: list[EditInContext] = []
    for name in sorted(groups):
        pool = list(groups[name])
        local_rng(seed, "edits", by, name).shuffle(pool)
        seen: set[tuple[str, str, str]] = set()
        taken = 0
        for ref in pool:
            if taken >= wanted[name]:
                break
            row = variants[ref.variant]
            edits = row["edits"]
            source_text = sources.get(str(row["source_id"]))
            if source_text is None:
                continue
            try:
                before, after = in_context(source_text, edits, ref.edit)
            except ValueError:
                continue
            key = (ref.operator, before, after)
            if key in seen:
                continue
            seen.add(key)
            edit = edits[ref.edit]
            drawn.append(
                EditInContext(
                    operator=ref.operator,
                    transform=ref.transform,
                    label=label_of_row(row),
                    sentence_before=before,
                    sentence_after=after,
                    before=str(edit["before"]),
                    after=str(edit["after"]),
                    source_id=str(row["source_id"]),
                    variant_id=str(row["variant_id"]),
                    stratum=name,
                    stratum_share=round(sizes[name] / total, 4),
                )
            )
            taken += 1
    return drawn, sizes


def label_of_row(row: Mapping[str, Any]) -> str:
    """The transform label, with a persona's levels (persona:young/rural/college/low)."""
    spec = row.get("spec") or {}
    persona = spec.get("persona") if isinstance(spec, Mapping) else None
    label = str(row.get("transform") or "")
    if isinstance(persona, Mapping):
        return label + ":" + "/".join(str(v) for v in persona.values())
    return label
