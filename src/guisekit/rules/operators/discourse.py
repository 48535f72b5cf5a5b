"""Insertions and deletions around sentences: fillers, openings and closings, intensifiers,
hedge and booster cues, and article dropping."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator

from guisekit.rules.doc import Doc, capital_i
from guisekit.rules.edits import CHOICE, Edit
from guisekit.rules.lexicon import RulesLexicon
from guisekit.rules.operators.base import map_edits, operator, recase_first

_COPULAS = frozenset(
    {
        "is",
        "was",
        "are",
        "were",
        "be",
        "been",
        "am",
        "seemed",
        "seems",
        "felt",
        "feel",
        "feels",
        "looked",
        "looks",
        "became",
        "become",
        "remain",
        "remained",
        "got",
        "get",
    }
)
_MODALS = frozenset({"will", "would", "can", "should", "i'll", "we'll"})
_MODAL_SUBJECTS = frozenset({"i", "we"})
_NOT_A_VERB = frozenset(
    {
        "not",
        "be",
        "have",
        "you",
        "i",
        "we",
        "they",
        "it",
        "also",
        "still",
        "never",
        "always",
        "just",
        "the",
        "a",
        "an",
        "to",
    }
)
_ARTICLES = frozenset({"the", "a", "an"})
_GREETINGS = frozenset(
    {"hi", "hello", "hey", "dear", "greetings", "good", "morning", "to", "howdy", "hiya"}
)


def _sentence_marker(
    doc: Doc,
    lex: RulesLexicon,
    rng: random.Random,
    choices: tuple[str, ...],
    name: str,
    *,
    comma: bool,
) -> Iterator[Edit]:
    """Put a marker before the first word of each sentence ("Honestly, the bank ...")."""
    if not choices:
        return
    joiner = ", " if comma else " "
    text = doc.text
    for word in doc.sentence_words:
        if word.lower in lex.sentence_openers or text[word.end : word.end + 1] == ",":
            continue
        rest = joiner + recase_first(word, lex)
        yield Edit(word.start, word.end, CHOICE + rest, name, _capitalised(choices))


@functools.lru_cache(maxsize=256)
def _capitalised(markers: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(capital_i(m[:1].upper() + m[1:]) for m in markers)


def _filler(style: str) -> None:
    name = f"filler_{style}.v1"

    @operator(
        name,
        "discourse_marker",
        "words",
        doc=f"Sentence-initial {style} discourse markers and fillers (Honestly, ...).",
    )
    def propose(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        return _sentence_marker(doc, lex, rng, lex.fillers(style), name, comma=True)


for _style in ("young", "casual", "older"):
    _filler(_style)


@operator("remove_filler.v1", "discourse_marker", "words")
def remove_filler(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete sentence-initial fillers followed by a comma (Honestly, the -> The)."""
    for edit in map_edits(doc, lex.all_fillers, "remove_filler.v1", sentence_start=True):
        if "," in doc.text[edit.start : edit.end]:
            yield edit


def _all(lex: RulesLexicon, part: str) -> tuple[str, ...]:
    return lex.politeness(part, "formal") + lex.politeness(part, "casual")


def _opening(register: str) -> None:
    name = f"open_{register}.v1"

    @operator(
        name,
        "politeness",
        "words",
        doc=f"A {register} opening line (Dear Sir or Madam, / Hi,).",
    )
    def propose(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        choices = lex.politeness("openings", register)
        first = doc.word_at(0)
        greeted = first is not None and first.lower in _GREETINGS
        if (
            choices
            and not greeted
            and not any(doc.text.startswith(o) for o in _all(lex, "openings"))
        ):
            yield Edit(0, 0, CHOICE + "\n\n", name, choices)


def _closing(register: str) -> None:
    name = f"close_{register}.v1"

    @operator(
        name,
        "politeness",
        "words",
        doc=f"A {register} closing sentence (Thank you for your time.).",
    )
    def propose(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        choices = lex.politeness("closings", register)
        body = doc.text.rstrip()
        if choices and not any(body.endswith(c) for c in _all(lex, "closings")):
            yield Edit(len(body), len(body), "\n\n" + CHOICE, name, choices)


for _register in ("formal", "casual"):
    _opening(_register)
    _closing(_register)


@operator("remove_opening.v1", "politeness", "words")
def remove_opening(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete a known opening line."""
    for opening in sorted(_all(lex, "openings"), key=len, reverse=True):
        if doc.text.startswith(opening):
            end = len(opening)
            while end < len(doc.text) and doc.text[end].isspace():
                end += 1
            if end < len(doc.text) and doc.text[end].isalpha():
                yield Edit(0, end + 1, doc.text[end].upper(), "remove_opening.v1")
            elif end < len(doc.text):
                yield Edit(0, end, "", "remove_opening.v1")
            return


@operator("remove_closing.v1", "politeness", "words")
def remove_closing(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete a known closing sentence."""
    body = doc.text.rstrip()
    for closing in sorted(_all(lex, "closings"), key=len, reverse=True):
        if body.endswith(closing):
            start = len(body) - len(closing)
            while start > 0 and doc.text[start - 1].isspace():
                start -= 1
            if start > 0:
                yield Edit(start, len(doc.text), "", "remove_closing.v1")
            return


def _before_adjective(
    doc: Doc,
    lex: RulesLexicon,
    rng: random.Random,
    choices: tuple[str, ...],
    name: str,
    *,
    adjectives: frozenset[str],
    after_copula: bool,
) -> Iterator[Edit]:
    """Insert a word before adjectives ("was late" -> "was somewhat late")."""
    if not choices:
        return
    for word in doc.words(adjectives):
        prev = doc.prev_word(word.start)
        if prev is None or prev.lower in lex.degree_words:
            continue
        if after_copula and prev.lower not in _COPULAS:
            continue
        yield Edit(word.start, word.start, CHOICE + " ", name, choices)


@operator("intensify.v1", "emphasis", "words")
def intensify(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """General intensifiers before emotive adjectives (very frustrated)."""
    return _before_adjective(
        doc,
        lex,
        rng,
        lex.intensifiers("general"),
        "intensify.v1",
        adjectives=lex.emotive_adjectives,
        after_copula=False,
    )


@operator("intensify_young.v1", "emphasis", "words")
def intensify_young(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Young intensifiers before emotive adjectives (super frustrated)."""
    return _before_adjective(
        doc,
        lex,
        rng,
        lex.intensifiers("young"),
        "intensify_young.v1",
        adjectives=lex.emotive_adjectives,
        after_copula=False,
    )


def _remove_before_adjective(
    doc: Doc, lex: RulesLexicon, words: frozenset[str], name: str
) -> Iterator[Edit]:
    """Delete an intensifier before an adjective, but not the "so" of "so late that"."""
    for word in doc.words(words):
        nxt = doc.next_word(word.end)
        if nxt is None or nxt.lower not in lex.adjectives or doc.is_sentence_start(word.start):
            continue
        after = doc.next_word(nxt.end)
        if word.lower == "so" and after is not None and after.lower == "that":
            continue
        yield Edit(word.start, nxt.start, "", name)


@operator("remove_young_intensifier.v1", "emphasis", "words")
def remove_young_intensifier(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete young intensifiers before adjectives (super frustrated -> frustrated)."""
    return _remove_before_adjective(doc, lex, lex.young_intensifiers, "remove_young_intensifier.v1")


@operator("remove_intensifier.v1", "emphasis", "words")
def remove_intensifier(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete every intensifier before an adjective (very frustrated -> frustrated)."""
    return _remove_before_adjective(doc, lex, lex.all_intensifiers, "remove_intensifier.v1")


def _marker_operator(
    name: str, family: str, slot: str, direction: str, comma: bool, doc: str
) -> None:
    @operator(name, family, "words", doc=doc)
    def propose(text: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        return _sentence_marker(text, lex, rng, lex.insertions(slot, direction), name, comma=comma)


def _slots(direction: str, label: str) -> None:
    family = "hedge" if direction == "hedged" else "booster"
    prefix = "hedge" if direction == "hedged" else "booster"

    for suffix, slot, comma, what in (
        ("clause", "clause_start", False, "clause at sentence start (I think / I know that)"),
        ("adverb", "sentence_adverb", True, "sentence adverb (Perhaps, / Clearly,)"),
    ):
        _marker_operator(
            f"{prefix}_{suffix}.v1", family, slot, direction, comma, f"{label} {what}."
        )

    @operator(
        f"{prefix}_adjective.v1",
        family,
        "words",
        doc=f"{label} word before a predicative adjective (somewhat / extremely).",
    )
    def adjective(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        return _before_adjective(
            doc,
            lex,
            rng,
            lex.insertions("pre_adjective", direction),
            f"{prefix}_adjective.v1",
            adjectives=lex.adjectives,
            after_copula=True,
        )

    @operator(
        f"{prefix}_modal.v1",
        family,
        "words",
        doc=f"{label} after I/we + modal (will try to / will definitely).",
    )
    def modal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        choices = lex.insertions("after_modal", direction)
        for word in doc.words(_MODALS):
            prev = doc.prev_word(word.start)
            nxt = doc.next_word(word.end)
            subject_ok = word.lower in ("i'll", "we'll") or (
                prev is not None and prev.lower in _MODAL_SUBJECTS
            )
            if subject_ok and nxt is not None and nxt.lower not in _NOT_A_VERB and choices:
                yield Edit(nxt.start, nxt.start, CHOICE + " ", f"{prefix}_modal.v1", choices)


_slots("hedged", "Hedge")
_slots("confident", "Booster")


_QUANTITY = re.compile(
    r"(?<![\w$₹.,/:#-])(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty)"
    r"(?= (?:more )?(?:minutes?|hours?|days?|business days|weeks?|months?|years?|times|calls"
    r"|letters|emails|e-mails|visits|attempts|people|employees|customers)\b)",
    re.IGNORECASE,
)


@operator("hedge_approximator.v1", "hedge", "words")
def hedge_approximator(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Approximators before counts and durations ("45 minutes" -> "about 45 minutes");
    never before money, dates or percentages."""
    choices = lex.insertions("before_quantity", "hedged")
    for match in _QUANTITY.finditer(doc.text):
        prev = doc.prev_word(match.start())
        if choices and (prev is None or prev.lower not in lex.approximators):
            yield Edit(match.start(), match.start(), CHOICE + " ", "hedge_approximator.v1", choices)


@operator("article_drop.v1", "l2_marker", "words")
def article_drop(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Drop the articles the/a/an (a written second-language marker)."""
    for word in doc.words(_ARTICLES):
        nxt = doc.next_word(word.end)
        if nxt is None:
            continue
        if doc.is_sentence_start(word.start):
            yield Edit(word.start, nxt.start + 1, nxt.text[:1].upper(), "article_drop.v1")
        else:
            yield Edit(word.start, nxt.start, "", "article_drop.v1")
