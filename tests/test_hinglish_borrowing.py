"""Which subject a verb phrase after a clause borrows (``ClauseConverter.prefixes``),
and the closing plea kept as a unit of its own (dev21 reading, issue 20)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.hinglish import hinglish_rewrite
from guisekit.hinglish.clauses import ClauseConverter
from guisekit.hinglish.grammar import Renderer
from guisekit.hinglish.lexicon import default_lexicon
from guisekit.hinglish.text import mask
from guisekit.specs import HinglishSpec


def _converter(text: str) -> ClauseConverter:
    masked = mask(text)
    return ClauseConverter(Renderer(default_lexicon(), masked, random.Random(0), 0.0))


@pytest.mark.parametrize(
    ("left", "right", "conj", "expected"),
    [
        # a base verb after "had to X" depends on "had to", never the possessive "had"
        ("I had to learn Google Classroom", "make video lessons", "and", ["I had to"]),
        ("we needed to call the bank", "cancel the card", "and", ["we needed to"]),
        # "went to the bank": no infinitive; a past verb keeps its subject
        ("I went to the bank", "paid the fee", "and", ["I"]),
        # a base verb never after "had"/"have" as an auxiliary
        ("I had the receipt", "cancel the card", "and", ["I"]),
        ("I have finished X", "submitted it", "and", ["I have", "I"]),
        # a participle after a bare comma modifies a noun: no subject at all
        ("I have another offer of 27 LPA", "fully fixed with no variable", ",", []),
        ("They are offering a package", "paid with my first salary", ",", []),
        # no subject to borrow
        ("the offer is good", "paid monthly", "and", []),
    ],
)
def test_prefixes(left: str, right: str, conj: str, expected: list[str]) -> None:
    conv = _converter(f"{left} {conj} {right}")
    assert conv.prefixes(left, right, conj) == expected


_PARTICIPLES = ["paid", "fixed", "included", "capped", "credited", "deducted"]
_TAILS = ["with my first salary", "in two parts", "every month", "with no variable"]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(_PARTICIPLES), st.sampled_from(_TAILS), st.integers(0, 5))
def test_participle_after_comma_never_gets_a_subject(participle: str, tail: str, seed: int) -> None:
    """Whatever the participle, a phrase "..., <participle> <tail>" after a noun never
    becomes an act of the writer ("maine") or of "they" ("unhone")."""
    text = f"I have an offer of 27 LPA, {participle} {tail}."
    out = hinglish_rewrite(text, HinglishSpec(mix_ratio=0.5), random.Random(seed)).text
    assert "maine" not in out.lower()
    assert "unhone" not in out.lower()


@pytest.mark.parametrize("plea", ["pls help", "please help", "plz help me"])
def test_closing_plea_is_its_own_unit(plea: str) -> None:
    out = hinglish_rewrite(
        f"I did not get a refund {plea}.", HinglishSpec(mix_ratio=0.0), random.Random(0)
    ).text
    assert out == f"Mujhe refund nahi mila, {plea}."
