"""Attribute sets as data (loader and its errors), the scoring math for LLM-scored
attributes (log-probabilities, samples, single answer) and the attribute table."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from guisekit.attributes import (
    FAMILIES,
    AnswerLabels,
    AttributeScore,
    LevelProbabilities,
    answer_alternatives,
    attribute_rows,
    load_attribute_set,
    measurable_text,
    parse_level,
    score_from_logprobs,
    score_from_samples,
    score_from_single,
)
from guisekit.errors import ConfigError, InputError, ResourceError

COMPLAINT_FAMILIES = {
    "delivery": [
        "vocabulary",
        "grammar",
        "formality",
        "confidence",
        "politeness",
        "rudeness",
        "emotion",
        "entitlement",
    ],
    "structure": ["coherence", "chronology", "argument", "request_clarity", "concision"],
    "content": [
        "evidence",
        "harm",
        "bank_error",
        "money_demand",
        "legal_basis",
        "prior_attempts",
    ],
}


def test_complaint_set_has_the_19_attributes_in_their_families() -> None:
    complaints = load_attribute_set("complaints")
    assert len(complaints.attributes) == 19
    for family, names in COMPLAINT_FAMILIES.items():
        assert [a.name for a in complaints.attributes if a.family == family] == names
    assert set(complaints.objective) >= {"mean_sentence_length", "fk_grade", "vader_abs_compound"}


@pytest.mark.parametrize("name", ["complaints", "interviews"])
def test_packaged_sets_define_three_distinct_levels_for_every_attribute(name: str) -> None:
    attribute_set = load_attribute_set(name)
    assert attribute_set.name == name
    assert {a.family for a in attribute_set.attributes} == set(FAMILIES)
    for attribute in attribute_set.attributes:
        levels = attribute.levels
        assert len({levels.low, levels.medium, levels.high}) == 3, attribute.name
        assert attribute.property.strip()
    families = attribute_set.families()
    assert families["politeness"] == "delivery"
    assert families["fk_grade"] == "delivery"


def _valid() -> dict[str, object]:
    return {
        "name": "mine",
        "version": 1,
        "description": "A user set.",
        "attributes": [
            {
                "name": "clarity",
                "family": "structure",
                "property": "How clear it is.",
                "levels": {"low": "Unclear.", "medium": "Mostly clear.", "high": "Clear."},
            },
            {
                "name": "warmth",
                "family": "delivery",
                "property": "How warm it sounds.",
                "levels": {"low": "Cold.", "medium": "Neutral.", "high": "Warm."},
            },
        ],
        "objective": {"fk_grade": "delivery"},
    }


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "set.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_a_user_set_loads_by_path(tmp_path: Path) -> None:
    attribute_set = load_attribute_set(_write(tmp_path, _valid()))
    assert attribute_set.families() == {
        "clarity": "structure",
        "warmth": "delivery",
        "fk_grade": "delivery",
    }
    assert attribute_set.attribute("warmth").levels.high == "Warm."
    with pytest.raises(ConfigError, match="no attribute 'tone'"):
        attribute_set.attribute("tone")


def _broken(change: str) -> object:
    data = _valid()
    attributes = data["attributes"]
    assert isinstance(attributes, list)
    warmth = attributes[1]
    if change == "missing level":
        del warmth["levels"]["medium"]
    elif change == "bad family":
        warmth["family"] = "tone"
    elif change == "empty property":
        warmth["property"] = ""
    elif change == "unknown field":
        warmth["colour"] = "red"
    elif change == "duplicate":
        attributes.append(dict(warmth))
    elif change == "objective measure":
        data["objective"] = {"word_salad": "delivery"}
    elif change == "shared label":
        data["answer_labels"] = {"low": ["low"], "medium": ["mid"], "high": ["high", "MID"]}
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("missing level", "attribute 'warmth': levels.medium"),
        ("bad family", "attribute 'warmth': family"),
        ("empty property", "attribute 'warmth': property"),
        ("unknown field", "attribute 'warmth': colour"),
        ("duplicate", "attribute 'warmth' is defined twice"),
        ("objective measure", "objective.word_salad"),
        ("shared label", "label 'MID' is given for both medium and high"),
    ],
)
def test_bad_sets_name_the_attribute_and_field(tmp_path: Path, change: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_attribute_set(_write(tmp_path, _broken(change)))
    assert message in caught.value.message


def test_unknown_set_and_malformed_yaml(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="neither a packaged set nor a file"):
        load_attribute_set("recipes")
    broken = tmp_path / "broken.yaml"
    broken.write_text("attributes: [unclosed\n", encoding="utf-8")
    with pytest.raises(ResourceError, match="malformed YAML"):
        load_attribute_set(broken)


# --- scoring -----------------------------------------------------------------------------


def test_logprob_score_sums_spellings_and_renormalises() -> None:
    # high: 0.6 + 0.1 (" High"), medium: 0.2, "Hmm" names no level; level mass 0.9.
    score = score_from_logprobs(
        [
            ("high", math.log(0.6)),
            (" High", math.log(0.1)),
            ("medium", math.log(0.2)),
            ("Hmm", math.log(0.05)),
        ]
    )
    assert score.method == "logprobs"
    assert score.probabilities.high == pytest.approx(7 / 9)
    assert score.probabilities.medium == pytest.approx(2 / 9)
    assert score.probabilities.low == 0.0
    assert score.score == pytest.approx(0.5 * 2 / 9 + 7 / 9)  # 8/9
    assert (score.n, score.discarded) == (3, 1)
    assert score.coverage == pytest.approx(0.9)


def test_logprob_score_uses_the_sets_answer_labels() -> None:
    labels = load_attribute_set("complaints").answer_labels
    score = score_from_logprobs(
        [("low", math.log(0.25)), ("mid", math.log(0.25)), ("Med", math.log(0.5))], labels
    )
    assert score.probabilities.medium == pytest.approx(0.75)
    assert score.score == pytest.approx(0.375)


def test_logprob_score_is_stable_for_very_small_log_probabilities() -> None:
    score = score_from_logprobs([("low", -1000.0), ("high", -1000.0 + math.log(3))])
    assert score.score == pytest.approx(0.75)
    assert score.coverage == 0.0


def test_logprob_score_without_any_level_token_raises() -> None:
    with pytest.raises(InputError, match="no alternative token"):
        score_from_logprobs([("Sure", -0.1), ("I", -2.0)])


def test_answer_alternatives_are_read_at_the_token_that_names_the_level() -> None:
    positions = [
        ("Level", [("Level", -0.01)]),
        (":", [(":", -0.01)]),
        (" medium", [(" medium", math.log(0.5)), (" low", math.log(0.5))]),
    ]
    score = score_from_logprobs(answer_alternatives(positions))
    assert score.score == pytest.approx(0.25)
    with pytest.raises(InputError, match="no generated token"):
        answer_alternatives(positions[:2])


def test_samples_score_is_the_share_of_answers_per_level() -> None:
    score = score_from_samples(["High", "medium.", "high", "low", "no idea"])
    assert score.method == "samples"
    assert (score.probabilities.low, score.probabilities.medium, score.probabilities.high) == (
        0.25,
        0.25,
        0.5,
    )
    assert score.score == pytest.approx(0.625)
    assert (score.n, score.discarded, score.coverage) == (4, 1, 0.8)
    with pytest.raises(InputError, match="none of the 2 sampled answers"):
        score_from_samples(["?", "maybe"])


@pytest.mark.parametrize(
    ("answer", "expected"), [("Low", 0.0), (" medium\n", 0.5), ('"HIGH".', 1.0)]
)
def test_single_answer_scores_its_level(answer: str, expected: float) -> None:
    score = score_from_single(answer)
    assert (score.score, score.method, score.n, score.coverage) == (expected, "single", 1, 1.0)
    with pytest.raises(InputError, match="names no level"):
        score_from_single("It depends.")


@pytest.mark.parametrize(
    ("answer", "level"),
    [
        ("high", "high"),
        ("Medium.", "medium"),
        ("Level: low", "low"),
        ("I would say high", "high"),
        ("not high but medium", None),
        ("higher", None),
        ("", None),
    ],
)
def test_parse_level(answer: str, level: str | None) -> None:
    assert parse_level(answer) == level


def test_scores_must_agree_with_their_probabilities() -> None:
    probabilities = LevelProbabilities(low=0.5, medium=0.0, high=0.5)
    with pytest.raises(ValidationError, match="expected level"):
        AttributeScore(
            score=0.9,
            method="single",
            probabilities=probabilities,
            n=1,
            discarded=0,
            coverage=1.0,
        )
    with pytest.raises(ValidationError, match="sum to"):
        LevelProbabilities(low=0.5, medium=0.5, high=0.5)
    with pytest.raises(ValidationError, match="given for both"):
        AnswerLabels(low=("x",), medium=("X",))


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["low", "Medium", " high", "other", "med"]),
            st.floats(min_value=-50, max_value=0),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_logprob_scores_are_expected_levels_in_the_unit_interval(
    alternatives: list[tuple[str, float]],
) -> None:
    if all(token in ("other", "med") for token, _ in alternatives):
        with pytest.raises(InputError):
            score_from_logprobs(alternatives)
        return
    score = score_from_logprobs(alternatives)
    p = score.probabilities
    assert 0.0 <= score.score <= 1.0
    assert score.score == pytest.approx(0.5 * p.medium + p.high)
    assert p.low + p.medium + p.high == pytest.approx(1.0)


# --- the attribute table ---------------------------------------------------------------------


def test_measurable_text_skips_refused_and_empty_variants() -> None:
    assert measurable_text({"text": "Hi there.", "status": "ok"}, text_column="text") == (
        "Hi there."
    )
    assert measurable_text({"text": "Hi there."}, text_column="text") == "Hi there."
    assert measurable_text({"text": "x", "status": "refused"}, text_column="text") is None
    assert measurable_text({"text": "  ", "status": "ok"}, text_column="text") is None
    assert measurable_text({"text": None}, text_column="text") is None


def test_attribute_rows_merge_paths_and_keep_scalar_columns() -> None:
    rows = [
        {"variant_id": "a", "text": "t1", "spec": {"x": 1}, "education": "college"},
        {"variant_id": "b", "text": "t2", "spec": {"x": 2}, "education": "high_school"},
    ]
    objective = [{"fk_grade": 7.5}, None]
    scored = [{"politeness": score_from_single("high")}, {"politeness": None}]
    table = attribute_rows(rows, [objective, scored])
    assert table == [
        {
            "variant_id": "a",
            "education": "college",
            "fk_grade": 7.5,
            "politeness": 1.0,
            "politeness_method": "single",
        },
        {
            "variant_id": "b",
            "education": "high_school",
            "fk_grade": None,
            "politeness": None,
            "politeness_method": None,
        },
    ]
    with pytest.raises(InputError, match="one entry per row"):
        attribute_rows(rows, [objective[:1]])
