"""The word classes of the Hinglish transform: the fixed lists of English (and a few
romanised Hindi) words its rules test a word or phrase against, read from
``lexicons/hinglish/word_classes.yaml``.

The file says, above each key, what the class is for and why it holds what it holds; this
module only types and checks it. :func:`word_classes` reads it on first use (never at
import) and keeps it for the life of the process. :class:`WordPattern` turns a class into a
case-insensitive regular expression, compiled on first use, for the rules that match a word
class at a position in a string ("a subordinator, then a space").
"""

from __future__ import annotations

import functools
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, fields

from guisekit.errors import ResourceError
from guisekit.resources import read_yaml

__all__ = ["WordClasses", "WordPattern", "word_classes"]

_FILE = "hinglish/word_classes.yaml"


@dataclass(frozen=True, slots=True)
class WordClasses:
    """One field per key of ``word_classes.yaml``, in the file's order (see the file for
    what each class is for). A class tested for membership is a frozenset; one whose order
    matters (a suffix tuple for ``str.endswith``, a regular expression alternation) is a
    tuple in the order written."""

    # noun phrases (guisekit.hinglish.nouns)
    object_pronouns: frozenset[str]
    ing_compound_heads: frozenset[str]
    modifying_ing: frozenset[str]
    ing_compounds: frozenset[str]
    at_adverbials: frozenset[str]
    ing_object_starts: frozenset[str]
    verb_object_starts: frozenset[str]
    coordinated_verb_starts: frozenset[str]
    accounts: frozenset[str]
    amount_followers: frozenset[str]
    containing_places: frozenset[str]
    destination_nouns: frozenset[str]
    bare_spans: frozenset[str]
    not_a_role_after_as: frozenset[str]
    clause_verbs_after_as: frozenset[str]
    reflexive_pronouns: frozenset[str]
    no_noun_phrase_start: frozenset[str]
    negative_pronouns: frozenset[str]
    trailing_adverbs: frozenset[str]
    relative_clause_subjects: frozenset[str]
    noun_or_modifier_endings: tuple[str, ...]
    joint_heads: frozenset[str]
    ly_not_adverbs: frozenset[str]
    indefinite_pronouns: frozenset[str]
    time_words: frozenset[str]
    counting_words: frozenset[str]
    gendered_person_nouns: frozenset[str]
    adverb_prepositions: frozenset[str]
    amount_approximators: frozenset[str]
    # verb phrases (guisekit.hinglish.grammar)
    change_nouns: frozenset[str]
    after_verb_degree: frozenset[str]
    relative_time: frozenset[str]
    subject_only_pronouns: frozenset[str]
    multiple_after_times: frozenset[str]
    charged_things: frozenset[str]
    inquiry_nouns: frozenset[str]
    causative_verbs: frozenset[str]
    earned_amount_words: frozenset[str]
    earned_nouns: frozenset[str]
    earned_degrees: frozenset[str]
    to_adjectives: frozenset[str]
    paid_nouns: frozenset[str]
    # clauses (guisekit.hinglish.clauses)
    auxiliaries_before_base: frozenset[str]
    auxiliaries_before_participle: frozenset[str]
    ask_openings: frozenset[str]
    clause_finite_words: frozenset[str]
    continuing_auxiliaries: frozenset[str]
    subject_starts: frozenset[str]
    states_of_places: frozenset[str]
    object_starts: frozenset[str]
    gap_prepositions: frozenset[str]
    gerund_subject_openers: frozenset[str]
    noun_determiners: frozenset[str]
    ing_noun_determiners: tuple[str, ...]  # ordered: a WordPattern alternation
    unmarked_plurals: frozenset[str]
    non_agent_subjects: frozenset[str]
    personal_subjects: frozenset[str]
    measures: frozenset[str]
    end_states: frozenset[str]
    prepositional_ing: frozenset[str]
    # clause switching (guisekit.hinglish.switching)
    before_verb_stops: frozenset[str]
    singular_subjects: frozenset[str]
    before_modifier: frozenset[str]
    finite_auxiliaries: frozenset[str]
    # Hindi matrix frames (guisekit.hinglish.frames)
    frame_not_subjects: frozenset[str]
    frame_subject_stops: frozenset[str]
    frame_singular_subjects: frozenset[str]
    frame_non_agents: frozenset[str]
    # number roles (guisekit.hinglish.roles)
    range_words: frozenset[str]
    # sentences (guisekit.hinglish.transform)
    openers_not_alone: frozenset[str]
    indian_english: frozenset[str]
    masculine_possessives: frozenset[str]
    # word senses (guisekit.hinglish.senses)
    demanded_things: frozenset[str]
    # regular expression alternations (see WordPattern)
    asking_modals: tuple[str, ...]
    not_complement: tuple[str, ...]
    subordinators: tuple[str, ...]
    wh_words: tuple[str, ...]
    modal_starts: tuple[str, ...]
    place_prepositions: tuple[str, ...]
    object_clause_words: tuple[str, ...]
    object_clause_auxiliaries: tuple[str, ...]


@functools.cache
def word_classes() -> WordClasses:
    """The packaged word classes, checked: exactly the keys of :class:`WordClasses`, each a
    non-empty list of distinct non-empty strings (a repeated word is an edit that does
    nothing, as a repeated key would be)."""
    data = read_yaml(_FILE)
    if not isinstance(data, dict):
        raise ResourceError(f"{_FILE}: expected a mapping of word classes")
    hints = typing.get_type_hints(WordClasses)
    names = [f.name for f in fields(WordClasses)]
    missing, unknown = set(names) - set(data), set(data) - set(names)
    if missing or unknown:
        raise ResourceError(
            f"{_FILE}: missing classes {sorted(missing)}, unknown classes {sorted(unknown)}",
            hint="the keys must match guisekit.hinglish.word_classes.WordClasses",
        )
    values: dict[str, frozenset[str] | tuple[str, ...]] = {}
    for name in names:
        words = data[name]
        if not (isinstance(words, list) and words and all(isinstance(w, str) and w for w in words)):
            raise ResourceError(
                f"{_FILE}: {name} must be a non-empty list of words",
                hint='quote each word ("on", "no" and "%" are not strings unquoted)',
            )
        if len(set(words)) != len(words):
            twice = sorted({w for w in words if words.count(w) > 1})
            raise ResourceError(f"{_FILE}: {name} lists {twice} more than once")
        ordered = typing.get_origin(hints[name]) is tuple
        values[name] = tuple(words) if ordered else frozenset(words)
    return WordClasses(**values)  # type: ignore[arg-type]


class WordPattern:
    """A case-insensitive regular expression ``before(?:w1|w2|...)after`` over one word
    class, each word matched literally in the order the file lists them; compiled on first
    use, so that nothing is read at import time.

    ``words`` picks the class (``lambda w: w.subordinators``); ``before`` and ``after`` are
    the regular expressions around the alternation (a word boundary, a space)."""

    def __init__(
        self,
        words: Callable[[WordClasses], tuple[str, ...]],
        before: str = "",
        after: str = r"\b",
    ) -> None:
        self._words = words
        self._before = before
        self._after = after

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        alternation = "|".join(re.escape(w) for w in self._words(word_classes()))
        return re.compile(f"{self._before}(?:{alternation}){self._after}", re.IGNORECASE)

    def match(self, text: str) -> re.Match[str] | None:
        return self.pattern.match(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self.pattern.search(text)

    def split(self, text: str, maxsplit: int = 0) -> list[str]:
        return self.pattern.split(text, maxsplit=maxsplit)
