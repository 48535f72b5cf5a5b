"""Simplification for the simple standardise style: less common words swapped for
everyday ones of the same part of speech (``utilize`` -> ``use``), and a long sentence
split at a safe clause boundary (``..., and I called again`` -> ``... . I called again``;
``..., which was $40,000`` -> ``... . This was $40,000``). Where a split is safe is data
(``lexicons/rules/sentence_split.yaml``)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import NamedTuple

from guisekit.rules.doc import Doc
from guisekit.rules.edits import Edit
from guisekit.rules.lexicon import RulesLexicon, SentenceSplit
from guisekit.rules.operators.base import map_edits, operator, sentence_capital
from guisekit.rules.operators.clause_start import opens_clause
from guisekit.rules.operators.lexical import (
    echoes,
    linkable,
    phrasal_particle,
    swap_allowed,
    with_article,
)

__all__ = ["simple_words", "split_sentence"]

_BOUNDARY = re.compile(r", (and then|and|but|so|which) (?=[A-Za-z])")
_WORDS = re.compile(r"[A-Za-z0-9'’$%.-]+")


def _one_clause(left: str, words: list[str], rules: SentenceSplit) -> bool:
    """Whether the part before the split is one main clause: not opened by a
    subordinator, and with no comma but the one closing an opening prepositional phrase
    ("Within a year, ..."; a second comma is a list: "My son, my wife, and I ...").
    Commas inside figures ("1,450") do not count."""
    if words[0].lower() in rules.subordinators:
        return False
    commas = left.count(", ")
    if commas == 0:
        return True
    head = left.split(", ", 1)[0].split()
    return commas == 1 and words[0].lower() in rules.openers and len(head) <= rules.opener_words


def _reports(words: list[str], rules: SentenceSplit) -> bool:
    """Whether the first part holds a verb of saying or thinking (sentence_split.yaml
    ``reporting``) with a finite clause after it within ``report_window`` words: a clause
    after "and", "so" or "which" may belong to the report, so
    splitting there would make it the writer's own claim ("My manager said the result was
    weak, so the pool was cut" never "... weak. So the pool was cut")."""
    lowered = [w.lower() for w in words]
    for i, word in enumerate(lowered):
        if word in rules.reporting:
            # a reported clause follows within a few words ("said the result was weak",
            # "told me on 12 August it would be fixed"); a noun "claim" or a verb with
            # only an object ("told me in confidence") reports no clause
            ahead = range(i + 1, min(len(lowered), i + 1 + rules.report_window))
            if any(opens_clause(lowered[j:], rules) is not None for j in ahead):
                return True
    return False


class _Boundary(NamedTuple):
    start: int  # the comma
    end: int  # end of the connective (a space follows)
    connective: str  # and, but, so, and then, which
    right: list[str]  # lower-cased words of the second part
    length: int  # words in the whole sentence
    complement_verb: bool  # the first part holds a verb of object + participle ("want")


def _boundaries(doc: Doc, rules: SentenceSplit) -> Iterator[_Boundary]:
    """Commas before a connective where the first part is one main clause of at least
    ``min_left`` words and the second has at least ``min_right``."""
    text = doc.text
    for match in _BOUNDARY.finditer(text):
        start, end = doc.sentence_around(match.start())
        left_words = _WORDS.findall(text[start : match.start()])
        right_words = [w.lower() for w in _WORDS.findall(text[match.end() : end])]
        if (
            len(left_words) >= rules.min_left
            and len(right_words) >= rules.min_right
            and _one_clause(text[start : match.start()], left_words, rules)
            and not (
                match.group(1).lower() in rules.reporting_connectives
                and _reports(left_words, rules)
            )
        ):
            yield _Boundary(
                match.start(),
                match.end() - 1,
                match.group(1).lower(),
                right_words,
                len(left_words) + len(right_words) + 1,
                any(w.lower() in rules.object_complement for w in left_words),
            )


def _main_clause(b: _Boundary, rules: SentenceSplit) -> int | None:
    """Words before the subject when a finite main clause follows the connective
    (0, or the length of a short opening prepositional phrase before a subject pronoun:
    ", and in 2023 I led ..."); None when no clause follows."""
    words = b.right
    clause = opens_clause(words, rules)
    skip = 0
    if clause is None and words and words[0] in rules.openers:
        skip = next(
            (n for n in range(2, rules.opener_words + 1)
             if n < len(words) and words[n] in rules.subjects),
            0,
        )  # fmt: skip
        clause = opens_clause(words[skip:], rules) if skip else None
    if clause is None or (b.connective == "so" and clause[1] in rules.no_split_after_so):
        return None
    if b.complement_verb and words[skip] in rules.determiners and clause[1] not in rules.finite:
        return None  # "I want my bag located, and those expenses reimbursed": one clause
    return skip


@operator("split_sentence.v1", "sentence", "words")
def split_sentence(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """A long sentence split in two where a comma and a coordinator (and/but/so) open a
    second finite main clause, or a comma and "which" open a non-restrictive relative
    clause ("This was ..."); never in a list ("My son, my wife, and I"), after an opening
    subordinate clause ("When I called, ..."), at a purpose "so" ("so I could pay"), or
    at "and", "so" or "which" after a verb of saying or thinking (the second clause may
    be part of the report).
    Conditions and sources: sentence_split.yaml."""
    rules = lex.sentence_split
    text = doc.text
    for b in _boundaries(doc, rules):
        if b.length < rules.min_words:
            continue
        if b.connective == "which":
            verb = b.right[0]
            if verb in rules.which_singular:
                yield Edit(b.start, b.end, ". This", "split_sentence.v1")
            elif verb in rules.which_plural:
                yield Edit(b.start, b.end, ". These", "split_sentence.v1")
            continue
        if _main_clause(b, rules) is None:
            continue
        first = text[b.end + 1 :].split(" ", 1)[0]
        if first.lower() == "i" or first.lower().startswith(("i'", "i’")):
            first = "I" + first[1:]
        opener = rules.coordinators[b.connective]
        if opener:
            first = first if first.startswith("I") else first[:1].lower() + first[1:]
            replacement = f". {opener} {first}"
        else:
            replacement = f". {sentence_capital(first, lex.acronyms)}"
        yield Edit(b.start, b.end + 1 + len(first), replacement, "split_sentence.v1")


@operator("connective_clause_formal.v1", "connective", "words")
def connective_clause_formal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Between two main clauses, a plain coordinator -> a formal conjunctive adverb after
    a semicolon (", but I have not" -> "; however, I have not"; ", so I called" ->
    "; therefore, I called"), under the same conditions as a sentence split (one main
    clause before, a finite clause after, no purpose "so"). Pairs: sentence_split.yaml."""
    rules = lex.sentence_split
    consequence = lex.word_classes["consequence_connectives"]
    for b in _boundaries(doc, rules):
        formal = rules.formal_coordinators.get(b.connective)
        if formal in consequence and not linkable(doc, lex, b.start, b.end, inner=True):
            continue  # "Hi, so I'm Rohit ..." never "; therefore, I'm Rohit" (round 12)
        if formal and _main_clause(b, rules) is not None:
            yield Edit(b.start, b.end, f"; {formal},", "connective_clause_formal.v1")


@operator("simple_words.v1", "register", "words")
def simple_words(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """A less common word -> the everyday word of the same part of speech and sense
    (utilize -> use, regarding -> about, is able to -> can), never inside a fixed
    expression or a name; a verb row not after a determiner nor in a phrasal verb
    ("assist out"); a/an kept right.
    Pairs and sources: simple_words.tsv."""
    pos_of = lex.simple_pos
    determiners = lex.word_classes["determiners"]

    def accept(start: int, end: int, value: str) -> bool:
        pos = pos_of.get(doc.lowered[start:end])
        if not swap_allowed(doc, lex, start, end) or echoes(doc, start, value, pos):
            return False
        if pos == "verb":
            if phrasal_particle(doc, lex, end):
                return False  # "use up" is not "utilize up"
            prev = doc.prev_word(start)
            return prev is None or prev.lower not in determiners
        return True

    return with_article(doc, map_edits(doc, lex.simple_words, "simple_words.v1", accept=accept))
