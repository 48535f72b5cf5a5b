"""``contractions.v1``: expand contractions (don't -> do not) or contract full forms.

A register transform with one parameter: ``direction: expand | contract``. Only forms
with a single reading are touched (the table and what it leaves out, with why, are in
``lexicons/transforms/contractions.tsv``); protected spans (facts, numbers, quotes, URLs)
are never touched. Both directions are deterministic and idempotent, and contracting an
expanded text gives back the contractions it expanded where the table marks them as
contractible in that context.
"""

from __future__ import annotations

import functools
import random
import re
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from guisekit.resources import read_table
from guisekit.transforms._registry import RulesOutput, Spec, Transform, implementation, register

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = ["ContractionsSpec", "contract", "expand"]

DATA = "transforms/contractions.tsv"
_SUBJECTS = r"(?:i|you|we|they|he|she|it|there)"
_EDGE_BEFORE = r"(?<![\w'’])"
_EDGE_AFTER = r"(?![\w'’])"
_NO_CONTRACT_AFTER = frozenset({"than", "as"})  # "taller than I am now": stressed verb


class ContractionsSpec(Spec):
    """Expand every contraction (``expand``) or contract every full form (``contract``)."""

    transform: Literal["contractions"] = "contractions"
    direction: Literal["expand", "contract"]


@functools.cache
def _table() -> tuple[tuple[str, str, str], ...]:
    rows = read_table(DATA, ("expanded", "contracted", "contract"))
    return tuple((full.lower(), short.lower(), when) for full, short, when in rows)


@functools.cache
def _patterns(direction: str) -> tuple[tuple[re.Pattern[str], str, str], ...]:
    """(pattern, replacement, context) in table order (earlier rows win an overlap)."""
    out = []
    for full, short, when in _table():
        if direction == "expand":
            head, _, tail = short.partition("'")
            # not before its subject ("Don't you ...?", "isn't it?"): "Do not you" is not English
            guard = rf"(?![ \t]+{_SUBJECTS}\b)" if tail == "t" else ""
            body = re.escape(head) + "['’]" + re.escape(tail)
            out.append((re.compile(_EDGE_BEFORE + body + _EDGE_AFTER + guard, re.I), full, ""))
        elif when != "never":
            body = r"[ \t]+".join(re.escape(w) for w in full.split())
            ahead = r"(?=[ \t]+[A-Za-z])" if when == "before_word" else ""
            if short.endswith("n't"):  # the inverse of expand's guard: "Do not I ...?"
                ahead += rf"(?![ \t]+{_SUBJECTS}\b)"
            out.append((re.compile(_EDGE_BEFORE + body + _EDGE_AFTER + ahead, re.I), short, when))
    return tuple(out)


def _cased(source: str, replacement: str) -> str:
    """The replacement in the source's case: ALL CAPS, a capital first letter, or as is."""
    letters = [c for c in source if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _previous_word(text: str, start: int) -> str:
    match = re.search(r"([A-Za-z]+)[ \t]*$", text[:start])
    return match.group(1).lower() if match else ""


_protected_spans = implementation("guisekit.rules.protect:protected_spans")
_apply_edits = implementation("guisekit.rules.edits:apply_edits")


class _Edit(NamedTuple):
    """The fields of :class:`guisekit.rules.edits.Edit` that apply_edits reads."""

    start: int
    end: int
    replacement: str
    operator: str


def _rewrite_text(text: str, direction: str) -> tuple[str, list[dict[str, Any]]]:
    protected = _protected_spans(text)
    apostrophe = "’" if "’" in text and "'" not in text else "'"
    taken: list[tuple[int, int]] = []
    edits: list[_Edit] = []
    operator = f"contractions.{direction}"
    for pattern, replacement, when in _patterns(direction):
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(s < end and start < e for s, e in protected + taken):
                continue
            if when == "before_word" and _previous_word(text, start) in _NO_CONTRACT_AFTER:
                continue
            new = _cased(match.group(0), replacement.replace("'", apostrophe))
            taken.append((start, end))
            edits.append(_Edit(start, end, new, operator))
    text, records = _apply_edits(text, sorted(edits))
    return str(text), list(records)


def expand(text: str) -> str:
    """``text`` with every contraction of the table written in full."""
    return _rewrite_text(text, "expand")[0]


def contract(text: str) -> str:
    """``text`` with every contractible full form of the table contracted."""
    return _rewrite_text(text, "contract")[0]


def _rewrite(
    engine: RulesEngine, text: str, spec: ContractionsSpec, rng: random.Random
) -> RulesOutput:
    # deterministic: no choice is drawn, so the generator is not used
    new_text, records = _rewrite_text(text, spec.direction)
    return RulesOutput(new_text, records)


CONTRACTIONS = register(
    Transform("contractions", 1, ContractionsSpec, label_field="direction", rewrite=_rewrite)
)
