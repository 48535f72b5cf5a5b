"""Hinglish grammar that agrees: every noun of the gender lexicon takes the possessive
and copula of its gender, and a noun missing from the lexicon is never given one."""

from __future__ import annotations

import random

import pytest

from guisekit.hinglish import hinglish_rewrite
from guisekit.hinglish.lexicon import default_lexicon
from guisekit.specs import HinglishSpec

NOUNS = sorted(
    (english, entry.gender)
    for english, entry in default_lexicon().content.items()
    if entry.gender is not None and english not in ("fees", "costs", "parents", "school fees")
)


def _rewrite(text: str, mix: float = 0.0, seed: int = 0) -> str:
    return hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed)).text


@pytest.mark.parametrize(("noun", "gender"), NOUNS, ids=[n for n, _ in NOUNS])
def test_every_lexicon_noun_agrees_with_its_gender(noun: str, gender: str) -> None:
    mera, tha = ("Meri", "thi") if gender == "f" else ("Mera", "tha")
    assert _rewrite(f"My {noun} was late.") == f"{mera} {noun} late {tha}."


@pytest.mark.parametrize(
    ("text", "right", "wrong"),
    [
        ("I need your permission.", "Mujhe aapki permission chahiye.", "aapka permission"),
        ("My report was late.", "Meri report late thi.", "Mera report"),
        ("I submitted my application.", "Maine apni application submit ki.", "apna application"),
        ("My company is in Pune.", "Meri company Pune mein hai.", "Mera company"),
    ],
)
def test_possessives_and_participles_agree_with_their_head(
    text: str, right: str, wrong: str
) -> None:
    out = _rewrite(text)
    assert out == right
    assert wrong not in out


def test_a_noun_missing_from_the_lexicon_gets_no_gender() -> None:
    # "widget" has no gender in Hinglish usage we could source: no mera/meri is guessed
    assert "widget" not in default_lexicon().content
    out = _rewrite("My widget was late.")
    assert out == "My widget was late."
