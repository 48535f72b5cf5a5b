"""Style attributes of texts: objective measures, LLM-scored attribute sets (as data), the
scoring math that turns a scorer's answer into [0, 1], and the manipulation report."""

from guisekit.attributes.manipulation import ManipulationRow, manipulation_report
from guisekit.attributes.objective import (
    OBJECTIVE_MEASURES,
    ObjectiveAttributes,
    ObjectiveMeasure,
    objective_attributes,
    objective_attributes_batch,
    sentences,
)
from guisekit.attributes.scoring import (
    LEVEL_VALUES,
    AttributeScore,
    LevelProbabilities,
    ScoreMethod,
    answer_alternatives,
    parse_level,
    score_from_logprobs,
    score_from_samples,
    score_from_single,
)
from guisekit.attributes.sets import (
    BUILTIN_SETS,
    FAMILIES,
    LEVELS,
    AnswerLabels,
    AttributeDefinition,
    AttributeSet,
    Family,
    LevelDefinitions,
    LevelName,
    load_attribute_set,
)
from guisekit.attributes.table import (
    Measured,
    attribute_rows,
    measurable_text,
    objective_measurements,
)

__all__ = [
    "BUILTIN_SETS",
    "FAMILIES",
    "LEVELS",
    "LEVEL_VALUES",
    "OBJECTIVE_MEASURES",
    "AnswerLabels",
    "AttributeDefinition",
    "AttributeScore",
    "AttributeSet",
    "Family",
    "LevelDefinitions",
    "LevelName",
    "LevelProbabilities",
    "ManipulationRow",
    "Measured",
    "ObjectiveAttributes",
    "ObjectiveMeasure",
    "ScoreMethod",
    "answer_alternatives",
    "attribute_rows",
    "load_attribute_set",
    "manipulation_report",
    "measurable_text",
    "objective_attributes",
    "objective_attributes_batch",
    "objective_measurements",
    "parse_level",
    "score_from_logprobs",
    "score_from_samples",
    "score_from_single",
    "sentences",
]
