"""Objective attribute extractors: sentence splitting that survives amounts and
abbreviations, per-sentence |VADER compound|, the rules-engine cue rates, batching, and
running with the network blocked."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import get_args

import pytest
import spacy
import textstat
from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from guisekit.attributes import (
    OBJECTIVE_MEASURES,
    ObjectiveMeasure,
    objective_attributes,
    objective_attributes_batch,
    sentences,
)
from guisekit.errors import InputError
from guisekit.rules import hedge_score, style_cues
from guisekit.style import flesch_kincaid_grade

# (text, the sentences a reader sees)
SPLITS = [
    (
        "I was charged $1,234.56 on my card last week. The bank refused to refund it.",
        ["I was charged $1,234.56 on my card last week.", "The bank refused to refund it."],
    ),
    (
        "I transferred Rs. 5,00,000 to the builder in March. He has not replied since then.",
        [
            "I transferred Rs. 5,00,000 to the builder in March.",
            "He has not replied since then.",
        ],
    ),
    (
        "I spoke to Mr. Sharma and Dr. Rao about the loan of Rs. 5,00,000 last month.",
        ["I spoke to Mr. Sharma and Dr. Rao about the loan of Rs. 5,00,000 last month."],
    ),
    (
        "The penalty was approx. 2.5% of the loan amount. I was never told about it.",
        ["The penalty was approx. 2.5% of the loan amount.", "I was never told about it."],
    ),
    (
        "My complaint No. 4471 was closed without any reply. I want it reopened now.",
        ["My complaint No. 4471 was closed without any reply.", "I want it reopened now."],
    ),
    (
        "I paid Rs.12,500.00 in fees to the agent in Delhi. Nothing was ever delivered to me.",
        [
            "I paid Rs.12,500.00 in fees to the agent in Delhi.",
            "Nothing was ever delivered to me.",
        ],
    ),
]


@pytest.mark.parametrize(("text", "expected"), SPLITS)
def test_sentences_keep_amounts_and_abbreviations_whole(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(("text", "expected"), SPLITS)
def test_textstat_period_splitting_miscounts_these_texts(text: str, expected: list[str]) -> None:
    """Why sentence length does not come from textstat: its count is wrong on every case."""
    assert textstat.sentence_count(text) != len(expected)


@pytest.mark.parametrize(
    "text",
    [SPLITS[1][0], SPLITS[2][0], SPLITS[3][0], SPLITS[4][0]],
)
def test_plain_sentencizer_needs_the_abbreviation_special_cases(text: str) -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    assert len(list(nlp(text).sents)) > len(sentences(text))


def test_a_sentence_final_lowercase_no_still_ends_the_sentence() -> None:
    assert sentences("I asked for a refund and they said no. Then I wrote again.") == [
        "I asked for a refund and they said no.",
        "Then I wrote again.",
    ]


def test_mean_sentence_length_counts_words_not_symbols() -> None:
    # 8 words ("$" is not a word, "1,234.56" is one) and 6 words: mean 7.
    values = objective_attributes(
        "I was charged $1,234.56 on my card yesterday. The bank refused to refund it."
    )
    assert (values.n_words, values.n_sentences) == (14, 2)
    assert values.mean_sentence_length == pytest.approx(7.0)


def test_vader_is_the_mean_over_sentences_of_the_absolute_compound() -> None:
    text = (
        "The service was terrible and the staff were rude. "
        "I am happy with the new manager, who was wonderful. "
        "The branch is on Main Street."
    )
    analyzer = SentimentIntensityAnalyzer()
    by_hand = [abs(analyzer.polarity_scores(s)["compound"]) for s in sentences(text)]
    assert len(by_hand) == 3
    assert objective_attributes(text).vader_abs_compound == pytest.approx(sum(by_hand) / 3)


def test_per_sentence_vader_does_not_saturate_on_long_texts() -> None:
    text = " ".join(["The fee was unfair and the delay was annoying."] * 12)
    whole = abs(SentimentIntensityAnalyzer().polarity_scores(text)["compound"])
    one = abs(SentimentIntensityAnalyzer().polarity_scores(sentences(text)[0])["compound"])
    assert whole > 0.99
    assert objective_attributes(text).vader_abs_compound == pytest.approx(one)
    assert one < 0.8


def test_readability_and_cue_rates_come_from_the_shared_implementations() -> None:
    text = (
        "I dont think the bank will refund the $40 fee, maybe they might. "
        "Nevertheless, I definitely recieved no explanation whatsoever!"
    )
    values = objective_attributes(text)
    cues = style_cues(text)
    assert values.fk_grade == flesch_kincaid_grade(text)
    assert values.hedge_density == cues.hedges == hedge_score(text).density
    assert values.booster_density == hedge_score(text).booster_density
    assert (
        values.contraction_rate,
        values.misspelling_rate,
        values.sophisticated_rate,
        values.plain_rate,
        values.formal_marker_rate,
        values.informal_marker_rate,
    ) == (
        cues.contractions,
        cues.misspellings,
        cues.sophisticated,
        cues.plain,
        cues.formal_markers,
        cues.informal_markers,
    )
    assert values.misspelling_rate > 0
    assert values.hedge_density > 0


def test_batch_equals_one_at_a_time_in_input_order() -> None:
    texts = [text for text, _ in SPLITS]
    assert objective_attributes_batch(texts, batch_size=2) == [
        objective_attributes(t) for t in texts
    ]


@pytest.mark.parametrize("bad", ["", "   \n"])
def test_empty_texts_are_refused_with_their_position(bad: str) -> None:
    with pytest.raises(InputError, match="text 1 is empty"):
        objective_attributes_batch(["A fine text.", bad])


def test_measure_names_match_the_literal_used_by_attribute_sets() -> None:
    assert get_args(ObjectiveMeasure) == OBJECTIVE_MEASURES
    assert set(objective_attributes("One short text.").as_dict()) == set(OBJECTIVE_MEASURES)


_BLOCKED = """
import json, socket

def refuse(*args, **kwargs):
    raise OSError("network blocked by test")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
from guisekit.attributes import objective_attributes_batch
rows = objective_attributes_batch([
    "I paid Rs. 5,00,000 to Mr. Sharma. The bank was terrible and I am furious!",
    "Notwithstanding the aforementioned considerations, the reconciliation was unsatisfactory.",
])
print(json.dumps([r.as_dict() for r in rows]))
"""


def test_objective_extractors_run_with_the_network_blocked_in_a_fresh_process() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _BLOCKED], capture_output=True, text=True, check=True
    )
    simple, hard = json.loads(run.stdout)
    assert simple["n_sentences"] == 2
    assert simple["vader_abs_compound"] > 0.3
    assert hard["fk_grade"] > 15 > simple["fk_grade"]
