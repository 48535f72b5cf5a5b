"""Proposed edits, the resolver that samples them, and their application.

Operators *propose* edits; they never change text themselves. The resolver keeps each
proposal with its operator's rate, using a local generator, visits the kept ones in a
random order and accepts those that overlap neither a protected span nor an edit already
accepted. The accepted edits are applied right to left and recorded.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

__all__ = [
    "CHOICE",
    "Edit",
    "TrackingRandom",
    "apply_edits",
    "local_rng",
    "resolve",
    "shift_spans",
    "tracking_rng",
]


CHOICE = "\x00"


class Edit(NamedTuple):
    """Replace ``text[start:end]`` by ``replacement`` (an insertion when start == end).

    When ``options`` are given, ``replacement`` holds :data:`CHOICE` where one of them goes;
    the resolver draws it only for edits it accepts, so proposing needs no generator.
    """

    start: int
    end: int
    replacement: str
    operator: str
    options: tuple[str, ...] = ()


class TrackingRandom(random.Random):
    """A generator that notes whether anything was drawn from it since ``drawn`` was reset.

    Defining both ``random`` and ``getrandbits`` keeps the base class's stream exactly.
    """

    drawn = False

    def random(self) -> float:
        self.drawn = True
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.drawn = True
        return super().getrandbits(k)


def _seed(parts: tuple[object, ...]) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode("utf-8")).digest()[:8], "big")


def local_rng(*parts: object) -> random.Random:
    """A generator seeded from ``parts`` (e.g. seed, source id, transform, stage).

    Python's Mersenne Twister gives the same stream on every platform for the same seed,
    and the global random state is never touched.
    """
    return random.Random(_seed(parts))


def tracking_rng(*parts: object) -> TrackingRandom:
    """Like :func:`local_rng`, but notes draws (slower per draw: used only for proposing,
    to learn whether proposals depended on the generator)."""
    return TrackingRandom(_seed(parts))


def _conflicts(a: Edit, b: Edit) -> bool:
    if a.start == a.end or b.start == b.end:  # an insertion touches what it borders
        return a.start <= b.end and b.start <= a.end
    return a.start < b.end and b.start < a.end


def resolve(
    groups: Sequence[tuple[str, Sequence[Edit]]],
    rates: Mapping[str, float],
    rng: random.Random,
    *,
    shuffle: bool = True,
    whole: frozenset[str] = frozenset(),
) -> list[Edit]:
    """Sample each operator's proposals at its rate and drop overlaps; sorted by position.

    ``groups`` holds, per operator, its proposals in a stable order with those touching a
    protected span already removed. Each proposal is kept independently with the
    operator's rate; the gaps between kept ones are drawn from the geometric distribution
    (the same sampling, with one draw per kept proposal instead of one per proposal). The
    kept proposals are then visited in a random order (``shuffle=False``: in group order,
    used by deterministic transforms such as standardise, where order is priority) and
    accepted unless they overlap an accepted one. An operator in ``whole`` keeps all its
    proposals or none, with one draw at its rate.
    """
    kept: list[Edit] = []
    for name, edits in groups:
        rate = rates.get(name, 0.0)
        if rate >= 1.0:
            kept += edits
        elif name in whole:
            if edits and rng.random() < rate:
                kept += edits
        elif rate > 0.0:
            at = _gap(rng, rate)
            while at < len(edits):
                kept.append(edits[at])
                at += 1 + _gap(rng, rate)
    if shuffle:
        rng.shuffle(kept)
    accepted: list[Edit] = []  # sorted by (start, end); disjoint except touching insertions
    for edit in kept:
        i = bisect.bisect_left(accepted, (edit.start, edit.end))
        j = i - 1
        clash = False
        while j >= 0 and accepted[j].end >= edit.start and not clash:
            clash = _conflicts(edit, accepted[j])
            j -= 1
        j = i
        while j < len(accepted) and accepted[j].start <= edit.end and not clash:
            clash = _conflicts(edit, accepted[j])
            j += 1
        if not clash:
            accepted.insert(i, edit)
    return [
        e._replace(replacement=e.replacement.replace(CHOICE, rng.choice(e.options)), options=())
        if e.options
        else e
        for e in accepted
    ]


def _gap(rng: random.Random, rate: float) -> int:
    """Proposals to pass over before the next kept one (geometric with success ``rate``)."""
    gap = math.log1p(-rng.random()) / math.log1p(-rate)
    return int(gap) if gap < 2**62 else 2**62  # a vanishing rate keeps nothing


def apply_edits(text: str, edits: Sequence[Edit]) -> tuple[str, list[dict[str, Any]]]:
    """Apply sorted, non-overlapping edits; return the new text and their records, as
    the field values of :class:`~guisekit.models.AppliedEdit` (validated in one batch
    when the variant is built: far cheaper than one model per edit on this hot path)."""
    pieces = []
    cursor = 0
    for edit in edits:
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.replacement)
        cursor = edit.end
    pieces.append(text[cursor:])
    records = [
        {
            "operator": e.operator,
            "start": e.start,
            "end": e.end,
            "before": text[e.start : e.end],
            "after": e.replacement,
        }
        for e in edits
    ]
    return "".join(pieces), records


def shift_spans(spans: Sequence[tuple[int, int]], edits: Sequence[Edit]) -> list[tuple[int, int]]:
    """Move spans that no edit overlaps to their offsets after the (sorted) edits apply."""
    ends = [e.end for e in edits]
    deltas = [0, *itertools.accumulate(len(e.replacement) - (e.end - e.start) for e in edits)]
    shifted = []
    for start, end in spans:
        delta = deltas[bisect.bisect_right(ends, start)]
        shifted.append((start + delta, end + delta))
    return shifted
