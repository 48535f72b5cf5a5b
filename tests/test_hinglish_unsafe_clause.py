"""The unsafe-construction gate per clause (lexicons/hinglish/unsafe.tsv, column scope).

A construction of ``clause`` scope that lies wholly inside one clause of a sentence with a
safe cut keeps only that clause English, exactly as written; the other clauses convert by
their templates and the report names the construction. A match that spans a cut, and any
construction of ``sentence`` scope, keeps the sentence English as before. The converted
clauses below were read by a bilingual reader (dev21 sets) before they were written here.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.errors import ResourceError
from guisekit.hinglish.lexicon import HinglishLexicon, default_lexicon
from guisekit.hinglish.transform import hinglish_rewrite
from guisekit.specs import HinglishSpec

RUNS = [(mix, seed) for mix in (0.0, 0.5, 1.0) for seed in range(3)]

# (sentence, the clause kept English as written, the unsafe row, the Hindi clause forms)
PER_CLAUSE = [
    (
        "I guess it worked out, we're fine now.",
        "I guess it worked out,",
        "phrasal verb",
        ["hum ab fine hain."],
    ),
    (
        "I never received an itemized bill, even though I requested one in writing twice.",
        "even though I requested one in writing twice.",
        "concessive even",
        ["Mujhe kabhi koi itemized bill nahi mila,"],
    ),
    (
        "It was just a $2,300 payment, but they got a $240 penalty.",
        "It was just a $2,300 payment,",
        "temporal just",
        ["but unhe $240 ki penalty mili.", "lekin unhe $240 ki penalty mili."],
    ),
    (
        "I'm a fresh graduate, so I don't have years of banking behind me.",
        "I don't have years of banking behind me.",
        "behind a person",
        ["Main ek fresh graduate hoon, so", "Main ek fresh graduate hoon, isliye"],
    ),
    (
        "Now it is August, there is no car.",
        "Now it is August,",
        "it is a month",
        ["koi car nahi hai.", "koi gaadi nahi hai."],
    ),
    (
        "The agent was rude, and we didn't get over $5 back.",
        "and we didn't get over $5 back.",  # the writer's contraction, not "did not"
        "approximator",
        ["Agent rude tha,"],
    ),
]


@pytest.mark.parametrize(("text", "english", "row", "hindi"), PER_CLAUSE)
def test_the_unsafe_clause_stays_english_and_the_other_converts(
    text: str, english: str, row: str, hindi: list[str]
) -> None:
    for mix, seed in RUNS:
        result = hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed))
        (sentence,) = result.sentences
        assert sentence.status == "converted", (mix, seed)
        assert english in sentence.text, (mix, seed, sentence.text)
        assert any(h in sentence.text for h in hindi), (mix, seed, sentence.text)
        assert sentence.reason is not None and row in sentence.reason
        assert sentence.reason.startswith("clause kept in English:")
        assert "switch.unsafe_clause" in sentence.templates


def test_every_construction_of_a_sentence_is_named() -> None:
    """Two constructions in the clause kept English: the report names both."""
    text = "My salary is 40,000, but I've spent over 3 hours on this."
    (sentence,) = hinglish_rewrite(text, HinglishSpec(), random.Random(0)).sentences
    assert sentence.text == "Meri salary 40,000 hai, but I've spent over 3 hours on this."
    assert sentence.reason == (
        "clause kept in English: approximator, time spent are not rendered safely"
    )


class _NoGate(HinglishLexicon):
    """The packaged lexicon without the unsafe-construction gate."""

    @property
    def unsafe(self) -> tuple[tuple[str, re.Pattern[str]], ...]:  # type: ignore[override]
        return ()


@pytest.mark.parametrize(
    ("text", "row"),
    [
        # "with the manager and the ...": the match spans the cut at "and"
        ("I spoke with the manager and the agent refunded me.", "with X and Y"),
        ("I spoke with the manager, and the agent refunded me.", "with X and Y"),
    ],
)
def test_a_match_across_a_cut_keeps_the_sentence_english(text: str, row: str) -> None:
    """Both clauses convert without the gate; with it, the match crossing the cut keeps
    the whole sentence English, as before the per-clause gate."""
    ungated = hinglish_rewrite(text, HinglishSpec(), random.Random(0), _NoGate())
    assert ungated.sentences[0].status == "converted"
    for mix, seed in RUNS:
        result = hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed))
        assert result.text == text
        assert result.sentences[0].reason == f"left in English: {row} is not rendered safely"


@pytest.mark.parametrize(
    ("text", "row"),
    [
        # the duration "1 hour and 10 minutes" is coordinated across the cut at "and"
        (
            "I called your number on April 2 and waited 1 hour and 10 minutes before the "
            "call dropped.",
            "duration before or after",
        ),
        # what was asked may go on past "and": a Hindi statement there would assert it
        ("I asked whether the fee is refundable, and they said no.", "embedded question"),
    ],
)
def test_a_sentence_scope_row_keeps_the_sentence_english(text: str, row: str) -> None:
    assert row in default_lexicon().unsafe_sentence
    for mix, seed in RUNS:
        result = hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed))
        assert result.text == text
        assert result.sentences[0].reason == f"left in English: {row} is not rendered safely"


def test_constructions_that_cross_clauses_are_sentence_scope() -> None:
    """The rows whose effect crosses a clause link are marked whole-sentence."""
    sentence = default_lexicon().unsafe_sentence
    for row in ("relative then coordinated verb", "two for-phrases", "elided passive auxiliary"):
        assert row in sentence
    assert "approximator" not in sentence


def test_a_bad_scope_is_a_resource_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import guisekit.hinglish.lexicon as module

    monkeypatch.setattr(
        module, "read_table", lambda *_: (("x", "clauses", r"\bx\b"),), raising=True
    )
    with pytest.raises(ResourceError, match="scope of 'x' is 'clauses'"):
        _ = HinglishLexicon().unsafe


# clauses a template converts, and unsafe clauses (clause scope) that may follow them
_HINDI = ["The agent was rude", "I paid the fee", "My salary is 40,000", "I work in Pune"]
_UNSAFE = [
    "they never got back to me",
    "I have spent over 3 hours on this",
    "we did not get over $5 back",
    "I have been stuck in traffic for the last 3 days",
]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(_HINDI),
    st.sampled_from(_UNSAFE),
    st.sampled_from([", but", ", and", " but"]),
    st.sampled_from([0.0, 0.5, 1.0]),
    st.integers(0, 5),
)
def test_an_unsafe_clause_is_never_half_converted(
    hindi: str, unsafe: str, link: str, mix: float, seed: int
) -> None:
    """Whatever is converted, the clause holding the construction is written exactly as
    the writer wrote it, or the sentence stays English whole."""
    text = f"{hindi}{link} {unsafe}."
    (sentence,) = hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed)).sentences
    assert sentence.text == text or f" {unsafe}." in sentence.text, sentence.text
    if sentence.status == "converted":
        assert sentence.reason is not None and sentence.reason.startswith("clause kept")
