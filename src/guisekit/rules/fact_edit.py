"""Fact edits: rewrites that change a fact on purpose, as positive controls for screens.

``scale_amounts`` multiplies every money amount by an exact factor and writes it back in
its own format (``$1,234.56`` x10 -> ``$12,345.60``, ``5 LPA`` -> ``50 LPA``,
``Rs. 12,00,000`` -> ``Rs. 1,20,00,000``, ``twelve hundred dollars`` -> ``twelve thousand
dollars``); a text with no amount gets one sentence stating the spec's amount.
``strengthen`` and ``weaken`` append a template sentence. Each returns the intended
change, which the fact report is checked against.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from num2words import num2words

from guisekit.facts import extract_facts
from guisekit.facts.model import Fact, canonical_decimal
from guisekit.facts.numbers import format_number, parse_digits, parse_words
from guisekit.models import AppliedEdit
from guisekit.rules.lexicon import RulesLexicon
from guisekit.specs import FactEditSpec

__all__ = ["apply_fact_edit", "scaled_number"]


def scaled_number(written: str, factor: Decimal) -> str:
    """The digits or words of an amount, multiplied by ``factor``, in the same format."""
    parsed = parse_digits(written) if written[:1].isdigit() else None
    if parsed is None:  # spelled out
        spelled = parse_words(written)
        if spelled is None:
            raise ValueError(f"not a number: {written!r}")
        scaled = Decimal(spelled) * factor
        words = num2words(scaled if scaled != scaled.to_integral_value() else int(scaled))
        return str(words).replace(",", "")
    value, grouping, decimals = parsed
    scaled = value * factor
    if decimals != 2:  # keep cents as cents; otherwise write only the decimals needed
        decimals = len(canonical_decimal(scaled).partition(".")[2])
    return format_number(scaled, grouping, decimals)


def _append(text: str, sentence: str) -> tuple[str, AppliedEdit]:
    body = text.rstrip()
    joiner = "" if not body else " "
    return body + joiner + sentence + text[len(body) :], AppliedEdit(
        operator="fact_edit.append.v1",
        start=len(body),
        end=len(body),
        before="",
        after=joiner + sentence,
    )


def apply_fact_edit(
    text: str, spec: FactEditSpec, lexicon: RulesLexicon, rng: random.Random
) -> tuple[str, list[AppliedEdit], list[dict[str, Any]]]:
    """Apply a fact edit; returns the text, the applied edits and the intended changes."""
    if spec.kind == "scale_amounts":
        money = [f for f in extract_facts(text) if f.kind == "money"]
        if not money:
            sentence = rng.choice(lexicon.templates("no_amount")).format(amount=spec.amount)
            new_text, edit = _append(text, sentence)
            return new_text, [edit], [{"change": "added", "text": spec.amount}]
        return _scale(text, money, spec.factor)
    template = rng.choice(lexicon.templates(spec.kind))
    new_text, edit = _append(text, template.format(amount=spec.amount))
    return new_text, [edit], [{"change": "appended", "kind": spec.kind, "text": edit.after.strip()}]


def _scale(
    text: str, money: list[Fact], factor: Decimal
) -> tuple[str, list[AppliedEdit], list[dict[str, Any]]]:
    pieces, edits, intended = [], [], []
    cursor = 0
    for fact in money:
        if fact.number_start is None or fact.number_end is None or fact.amount is None:
            continue
        written = text[fact.number_start : fact.number_end]
        scaled = scaled_number(written, factor)
        pieces += [text[cursor : fact.number_start], scaled]
        cursor = fact.number_end
        edits.append(
            AppliedEdit(
                operator="fact_edit.scale_amounts.v1",
                start=fact.number_start,
                end=fact.number_end,
                before=written,
                after=scaled,
            )
        )
        intended.append(
            {
                "change": "changed",
                "from": canonical_decimal(fact.amount),
                "to": canonical_decimal(fact.amount * factor),
                "currency": fact.currency,
            }
        )
    pieces.append(text[cursor:])
    return "".join(pieces), edits, intended
