"""The three standardise styles (issue 13): each sets its own declared features, so the
styles differ from each other, while every guise of a source still standardises to the
standardised source (collapse) and standardising is idempotent."""

from __future__ import annotations

from pathlib import Path

import pytest

from guisekit.models import Source
from guisekit.rules import RulesEngine
from guisekit.rules.checks import collapse_rates
from guisekit.specs import StandardiseSpec
from guisekit.tables import read_sources

DATA = Path(__file__).parents[1] / "examples" / "data"
SOURCES = [
    s
    for name in ("complaints", "interviews", "salary_questions_in")
    for s in read_sources(DATA / f"{name}.jsonl")
]
ENGINE = RulesEngine()
STYLES = ("plain", "formal", "simple")


def _standard(text: str, style: str) -> str:
    out = ENGINE.transform(Source(id="s", text=text), StandardiseSpec(style=style)).text
    assert out is not None
    return out


def test_the_three_styles_differ_pairwise_in_at_least_90_percent_of_bundled_sources() -> None:
    distinct = [len({_standard(s.text, style) for style in STYLES}) == 3 for s in SOURCES]
    assert len(SOURCES) == 54
    assert sum(distinct) / len(SOURCES) >= 0.9, sum(distinct)


@pytest.mark.parametrize(
    ("text", "style", "expected"),
    [
        # contractions: plain contracts negative and common positive forms ...
        ("I do not think it is fair and I am asking again.", "plain",
         "I don't think it's fair and I'm asking again."),
        # ... formal writes every contraction in full ...
        ("I don't think it's fair and I'm asking again.", "formal",
         "I do not think it is fair and I am asking again."),
        # ... simple writes negative ones in full and keeps common positive ones
        ("I don't think it's fair and I'm asking again.", "simple",
         "I do not think it's fair and I'm asking again."),
        # an emphatic negator stays as written in every style that contracts
        ("This debt is NOT mine.", "plain", "This debt is NOT mine."),
        # simple splits a long sentence at a safe clause boundary
        ("Two days later the bank placed a hold on the entire deposit, and I was charged "
         "three overdraft fees.", "simple",
         "Two days later the bank placed a hold on the whole deposit. I was charged three "
         "overdraft fees."),
        # formal links the same clauses with a conjunctive adverb
        ("I sent a letter with a copy of my license, but I have not received any response.",
         "formal",
         "I sent a letter with a copy of my license; however, I have not received any "
         "response."),
        # simple swaps a less common word for an everyday one; plain keeps it
        ("I am currently earning 12 LPA.", "simple", "I'm now earning 12 LPA."),
        ("I am currently earning 12 LPA.", "plain", "I'm currently earning 12 LPA."),
    ],
)  # fmt: skip
def test_each_style_sets_its_declared_features(text: str, style: str, expected: str) -> None:
    assert _standard(text, style) == expected


@pytest.mark.parametrize("style", STYLES)
def test_clean_text_without_style_features_is_unchanged(style: str) -> None:
    text = "The bank charged me a fee of $35 on 03/14/2023."
    assert _standard(text, style) == text


@pytest.mark.slow
def test_every_bundled_source_collapses_in_every_style() -> None:
    """Collapse >= 90% per style over the 36 guises of every bundled source, idempotent."""
    rows = collapse_rates(SOURCES)
    for style in STYLES:
        rates = [r.collapse for r in rows if r.style == style]
        assert len(rates) == 54
        assert min(rates) >= 0.9, (style, min(rates))
    assert all(r.idempotent for r in rows)
