"""The word tables the rules operators read from lexicons/rules/ (moved there from Python
literals in the operators' code): every key loads through the RulesLexicon as words, and
none is empty."""

from __future__ import annotations

from guisekit.resources import read_yaml
from guisekit.rules.lexicon import default_lexicon

# claims.yaml keys that were word tables in the code (the rest of word_classes.yaml too)
CLAIMS_KEYS = (
    "own_benefit_modals",
    "own_benefit_fillers",
    "own_benefit_objects",
    "own_benefit_links",
    "own_benefit_degree",
    "possibility_openers",
    "epistemic_words",
    "rounders",
    "degree_adaptors",
    "open_comparatives",
    "softened_modals",
    "seem_frames",
    "casual_stance",
    "candid_words",
    "stance_idioms",
    "concessions",
    "frame_negations",
    "record_errors",
    "reporting_words",
)


def test_every_moved_word_table_loads_as_words_and_is_not_empty() -> None:
    lex = default_lexicon()
    classes = read_yaml("rules/word_classes.yaml")
    claims = read_yaml("rules/claims.yaml")
    assert set(lex.word_classes) == set(classes)
    tables = {f"word_classes.{k}": (v, lex.word_classes[k]) for k, v in classes.items()}
    tables |= {f"claims.{k}": (claims[k], lex.claims[k]) for k in CLAIMS_KEYS}
    for name, (raw, loaded) in tables.items():
        items = [*raw.items()] if isinstance(raw, dict) else [(w, w) for w in raw]
        # a bare yes, no, on or off is a YAML boolean, not the word: it must be quoted
        assert all(isinstance(a, str) and isinstance(b, str) for a, b in items), name
        assert loaded, name
