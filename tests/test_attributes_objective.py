"""Objective attribute extractors: sentence splitting that survives amounts and
abbreviations, per-sentence |VADER compound|, the rules-engine cue rates, batching, and
running with the network blocked."""

from __future__ import annotations

import functools
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest
import spacy
import textstat
from hypothesis import given, settings
from hypothesis import strategies as st
from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from guisekit.attributes import (
    OBJECTIVE_MEASURES,
    ObjectiveMeasure,
    objective_attributes,
    objective_attributes_batch,
    sentences,
)
from guisekit.attributes.vader import abs_compound, abs_compounds
from guisekit.errors import InputError
from guisekit.resources import read_lines
from guisekit.rules import cues, hedge_score, style_cues
from guisekit.rules.doc import Doc
from guisekit.rules.lexicon import PhraseMap, default_lexicon
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


# --- The fast extractor equals the plain pipeline -------------------------------------
# The reference below is the extractor as it was before the speed work (spaCy pipeline with
# the sentencizer, a regex per token, VADER's polarity_scores per sentence, textstat's own
# Flesch-Kincaid grade), kept here frozen so a speed change cannot move a value.

_WORDLIKE = re.compile(r"[^\W_]")


@functools.cache
def _reference_pipeline() -> spacy.language.Language:
    from spacy.symbols import ORTH

    nlp = spacy.blank("en")
    for abbreviation in read_lines("attributes/abbreviations.txt"):
        nlp.tokenizer.add_special_case(abbreviation, [{ORTH: abbreviation}])
    nlp.add_pipe("sentencizer")
    return nlp


@functools.cache
def _reference_analyzer() -> SentimentIntensityAnalyzer:
    return SentimentIntensityAnalyzer()


def _reference_sentences(text: str) -> list[str]:
    return [span.text for span in _reference_pipeline()(text).sents]


def _reference_measures(text: str) -> dict[str, float]:
    lengths: list[int] = []
    polarity = 0.0
    for span in _reference_pipeline()(text).sents:
        words = sum(1 for token in span if _WORDLIKE.search(token.text))
        if words:
            lengths.append(words)
            polarity += abs(_reference_analyzer().polarity_scores(span.text)["compound"])
    n_words = sum(lengths)
    return {
        "n_words": n_words,
        "n_sentences": len(lengths),
        "mean_sentence_length": n_words / len(lengths) if lengths else 0.0,
        "fk_grade": textstat.flesch_kincaid_grade(text),
        "vader_abs_compound": polarity / len(lengths) if lengths else 0.0,
    }


# Fragments chosen to exercise every branch: amounts and abbreviations, ellipses and
# repeated marks, quotes after a full stop, emoji and non-ASCII, ALL-CAPS sentiment
# words, "but", "kind of", "no"/"never so" negation, "least", idioms, contractions,
# stray apostrophes and hyphens, numbers, newlines and runs of spaces.
_FRAGMENTS = [
    "I was charged $1,234.56 on my card.",
    "I paid Rs. 5,00,000 to Mr. Sharma",
    "The penalty was approx. 2.5% of the loan",
    "complaint No. 4471 was closed",
    "The service was TERRIBLE and the staff were rude!",
    "I am happy with the new manager, but the fees are awful.",
    "It was kind of good, sort of.",
    "There was no help and no refund",
    "I have never so much as been thanked",
    "At least it was not the worst bank ever.",
    "The least helpful agent yelled at me?!",
    "That was the bomb, yeah right.",
    "I don't think it's fair that they've charged me twice -- twice!!!",
    "Wait... what happened??",
    '"This is unacceptable." she said.',
    "I love it 😀 and hate it 😡",
    "Café fees rose to €40 in São Paulo.",
    "The ‘fee’ was “waived” – supposedly.",
    "U.S. banks vs. Indian banks, e.g. SBI, i.e. the state bank.",
    "my account ending in 4417 (see XX/XX/XXXX)",
    "ok",
    "...",
    "Thanks!",
    "\n\nSecond paragraph:   spaced   out words.\n",
    "The interest rate went from 12% to 24.99% in 2023.",
    "I'm not sad, I'm FURIOUS :(",
    "Good. Great. Excellent. Wonderful.",
    "no good no bad",
    "the 'amount' was 'wrong'",
    "It's nearly 3 a.m. and I can't sleep!",
    "They wouldn't've been helpful",
]


def _generated_texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        parts = rng.choices(_FRAGMENTS, k=rng.randint(1, 12))
        joins = [rng.choice([" ", "  ", "\n", ". ", "! ", "? ", "", ", "]) for _ in parts]
        text = "".join(p + j for p, j in zip(parts, joins, strict=True))
        if text.strip():
            texts.append(text)
    return texts


def _bundled_texts() -> list[str]:
    root = Path(__file__).resolve().parent.parent / "examples" / "data"
    texts = []
    for path in sorted(root.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            texts.extend(v for v in row.values() if isinstance(v, str) and len(v) > 40)
    return texts


def _assert_equal_to_reference(text: str) -> None:
    fast = objective_attributes(text).as_dict()
    for name, expected in _reference_measures(text).items():
        assert fast[name] == pytest.approx(expected, rel=0, abs=1e-12), (name, text)
    assert sentences(text) == _reference_sentences(text), text


def test_bundled_examples_exist_for_the_differential_test() -> None:
    assert len(_bundled_texts()) >= 60


@pytest.mark.parametrize("text", _bundled_texts()[:200])
def test_fast_extractor_equals_the_plain_pipeline_on_bundled_texts(text: str) -> None:
    _assert_equal_to_reference(text)


def test_fast_extractor_equals_the_plain_pipeline_on_generated_texts() -> None:
    texts = _generated_texts(400, seed=13)
    for text in texts:
        _assert_equal_to_reference(text)
    # The generated set reaches the branches it is meant to: emoji, "but", sentences
    # without words, and sentences VADER scores.
    assert any("😀" in t and "but" in t for t in texts)
    assert any(r.vader_abs_compound > 0.5 for r in objective_attributes_batch(texts))


def test_vader_fast_path_equals_the_library_per_sentence() -> None:
    analyzer = _reference_analyzer()
    cases = [*_FRAGMENTS, "", "   ", "GOOD", "not good", "no", "no no", "kind of bad"]
    for sentence in cases:
        expected = abs(analyzer.polarity_scores(sentence)["compound"])
        assert abs_compound(sentence) == expected, sentence


def test_vader_fast_path_equals_the_library_on_every_sentence_of_many_texts() -> None:
    analyzer = _reference_analyzer()
    rng = random.Random(17)
    texts = _generated_texts(300, seed=17) + _bundled_texts() + _phrase_texts(100, seed=17)
    cased = ["".join(c.upper() if rng.random() < 0.2 else c for c in t) for t in texts[:200]]
    scored = 0
    everything, expected_all = [], []
    for text in texts + cased:
        split = sentences(text)
        expected = [abs(analyzer.polarity_scores(sentence)["compound"]) for sentence in split]
        assert [abs_compound(sentence) for sentence in split] == expected, text
        assert abs_compounds(split) == expected, text
        everything += split
        expected_all += expected
        scored += sum(e > 0 for e in expected)
    assert abs_compounds(everything) == expected_all
    assert scored > 500


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([*"abcABC .!?,'-$1\n😀é", "good", "bad", "but", " no ", "Rs.", "NOT"]),
        min_size=1,
        max_size=40,
    )
    .map("".join)
    .filter(str.strip)
)
def test_fast_extractor_equals_the_plain_pipeline_on_random_strings(text: str) -> None:
    _assert_equal_to_reference(text)


def _reference_spans(doc: Doc, phrases: PhraseMap) -> list[tuple[str, int, int]]:
    """``guisekit.rules.cues._spans`` before the per-first-word regex: phrase by phrase."""
    hits = []
    for first in phrases.firsts & doc.vocab:
        for start in doc.occurrences(first):
            for phrase in phrases.by_first[first]:
                end = doc.phrase_end(start, phrase)
                if end is not None:
                    hits.append((start, end, phrase))
                    break
    hits.sort()
    found, cursor = [], 0
    for start, end, phrase in hits:
        if start >= cursor:
            found.append((phrase, start, end))
            cursor = end
    return found


_GLUE = [" ", " ", ", ", ". ", "-", "'", "s ", " 5 ", " $40 ", "! "]


def _phrase_texts(n: int, seed: int) -> list[str]:
    """Texts dense in every cue lexicon's phrases, glued with word characters, spaces,
    apostrophes, hyphens and punctuation so phrase ends fall inside and outside words."""
    lex = default_lexicon()
    maps = [
        lex.expansions,
        lex.apostrophe_free,
        lex.fix_spelling,
        lex.sophisticated_words,
        lex.plain_words,
        lex.formal_markers,
        lex.hedge_cue_map,
    ]
    phrases = sorted({p for m in maps for p in m.mapping})
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        parts = [rng.choice(phrases) for _ in range(rng.randint(1, 15))]
        parts = [p.upper() if rng.random() < 0.1 else p for p in parts]
        glue = [
            rng.choice([" ", " ", ", ", ". ", "-", "'", "s ", " 5 ", " $40 ", "! "]) for _ in parts
        ]
        texts.append("".join(p + g for p, g in zip(parts, glue, strict=True)))
    return texts


def test_cue_rates_equal_the_phrase_by_phrase_matcher(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _phrase_texts(600, seed=21) + _generated_texts(100, seed=5) + _bundled_texts()
    fast = [(style_cues(t), hedge_score(t)) for t in texts]
    monkeypatch.setattr(cues, "_spans", _reference_spans)
    assert [(style_cues(t), hedge_score(t)) for t in texts] == fast
    # The texts exercise the matcher: most of them have cues of several kinds.
    assert sum(c.hedges > 0 and c.sophisticated > 0 for c, _ in fast) > 100


def test_fk_grade_equals_textstat_on_generated_texts() -> None:
    for text in _phrase_texts(200, seed=3) + _generated_texts(200, seed=4):
        assert flesch_kincaid_grade(text) == textstat.flesch_kincaid_grade(text), text


def _reference_occurrences(doc: Doc, word: str) -> list[int]:
    """``Doc.occurrences`` before the whole-word regex: every ``find`` hit, tested."""
    lowered, found = doc.lowered, []
    boundary = frozenset("abcdefghijklmnopqrstuvwxyz0123456789'-")
    at = lowered.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or lowered[at - 1] not in boundary) and (
            end == len(lowered) or lowered[end] not in boundary
        ):
            found.append(at)
        at = lowered.find(word, at + 1)
    return found


def test_word_occurrences_equal_the_find_loop() -> None:
    texts = _phrase_texts(200, seed=8) + _generated_texts(100, seed=9) + _bundled_texts()[:50]
    texts += ["x.x.x e.g.e.g. a-a a'a 'a' -a- A a1 1a", "aaa a a  a\na", "é a é", ""]
    words = ["a", "i", "the", "to", "x.x", "e.g.", "a-a", "'a'", "don't", "no", "é", "1a"]
    checked = 0
    for text in texts:
        doc = Doc(text, ())
        for word in [*words, *sorted(doc.vocab)[:20]]:
            expected = _reference_occurrences(doc, word)
            assert doc.occurrences(word) == expected, (word, text)
            checked += bool(expected)
    assert checked > 1000
    # Self-overlapping words (with a character that does not continue words) are found.
    assert Doc("x.x.x", ()).occurrences("x.x") == [0, 2]


def test_cue_word_count_equals_the_word_regex() -> None:
    word = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*")
    rng = random.Random(23)
    glued = ["".join(rng.choices("ab'- -'x.Z9’", k=rng.randint(0, 30))) for _ in range(2000)]
    texts = glued + _phrase_texts(200, seed=23) + _generated_texts(200, seed=23)
    texts += ["", "a", "'", "a-b-c", "a--b", "don't", "'a' -a- a'", "a’b", "x-"]
    for text in texts:
        assert cues._word_count(text) == len(word.findall(text)), text
    assert sum(cues._word_count(t) for t in glued) > 2000


def test_abbreviations_without_special_cases_split_as_the_special_cases_do() -> None:
    """The extractor's tokenizer leaves the abbreviations to its own flag arrays instead of
    spaCy's special cases (see ``objective._tokenizer``): in every context, glued to
    brackets, quotes, digits, letters, stops and spaces, the sentences and word counts
    equal the pipeline with the special cases."""
    abbreviations = read_lines("attributes/abbreviations.txt")
    before = ["", " ", "(", '"', "'", "x", "5", ".", "!", "\n", "-", "Hi. ", "ok! "]
    after = ["", " ", ")", '"', ".", "..", "5", "A", "a", "!", "?", " .", "\n.", ",", " Next"]
    rng = random.Random(41)
    texts = [b + a + f for a in abbreviations for b in before for f in after]
    for _ in range(400):
        parts = rng.choices([*abbreviations, *before, *after, "Next one.", "paid Rs 5."], k=8)
        texts.append("".join(parts))
    texts += [a[:-1] + " ." for a in abbreviations] + ["NO. 5. Yes", "RS.5 Rs.A Rs..B"]
    for text in filter(str.strip, texts):
        _assert_equal_to_reference(text)


def test_cue_spans_equal_the_phrase_by_phrase_matcher_for_odd_first_words() -> None:
    """First words with a character that does not continue words ("x—x", "café") can
    overlap themselves; the matcher tries each occurrence for them."""
    phrases = PhraseMap.build(
        (p, p) for p in ["x—x", "x—x—x y", "café", "café au", "a", "a bit", "b x", "'em"]
    )
    rng = random.Random(5)
    bits = ["x—x", "—x", "café", " au", " y", "a", " bit", "a-b", "'em", " ", " ", "-", "b"]
    texts = ["".join(rng.choices(bits, k=rng.randint(1, 12))) for _ in range(3000)]
    found = 0
    for text in texts:
        doc = Doc(text, ())
        assert cues._spans(doc, phrases) == _reference_spans(doc, phrases), text
        found += sum(phrase[0] in "xc" for phrase, _, _ in cues._spans(doc, phrases))
    assert found > 200
    # "b x" covers the first "x—x" in "x—x—x"; the one overlapping it still counts.
    overlapping = Doc("x—x b x—x—x", ())
    assert cues._spans(overlapping, phrases) == [("x—x", 0, 3), ("b x", 4, 7), ("x—x", 8, 11)]
