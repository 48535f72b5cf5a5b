"""The operator contract, its registry, and helpers shared by the operator families.

An operator is registered under a versioned name (``contract.v1``); a change of
behaviour is a new version beside the old, so stored variants stay reproducible.
``propose`` looks at a :class:`Doc` and returns edits; it never changes text itself and
draws any choice (which filler, which opening) from the generator it is given.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from guisekit.errors import ConfigError
from guisekit.rules.doc import Doc, Word, match_case
from guisekit.rules.edits import Edit
from guisekit.rules.lexicon import PhraseMap, RulesLexicon, default_lexicon

__all__ = [
    "REGISTRY",
    "STAGES",
    "Operator",
    "Stage",
    "capital_edit",
    "get_operator",
    "map_edits",
    "operator",
    "recase_first",
    "sentence_capital",
]

# Two passes: word and phrase edits on the source text, then orthographic noise on the
# result (so "do not" -> "don't" can become "dont", and an inserted "I mean" can be "i mean").
Stage = Literal["words", "noise"]
STAGES: tuple[Stage, ...] = ("words", "noise")
Propose = Callable[[Doc, RulesLexicon, random.Random], Iterable[Edit]]


@dataclass(frozen=True)
class Operator:
    """A named, versioned rule that proposes edits of one kind."""

    name: str
    family: str
    stage: Stage
    propose: Propose
    doc: str
    retired: bool = False
    # the rate is drawn once per text, not per proposal: a feature a writer uses
    # throughout or not at all (see :func:`operator`)
    whole_text: bool = False


REGISTRY: dict[str, Operator] = {}


def operator(
    name: str,
    family: str,
    stage: Stage,
    doc: str | None = None,
    *,
    retired: bool = False,
    whole_text: bool = False,
) -> Callable[[Propose], Propose]:
    """Register ``propose`` under ``name``; ``doc`` (default: its docstring) describes it.

    A ``retired`` operator proposes nothing: it stays registered so that configs and
    stored variants naming it still load, while its edits (which could not be made
    precise) are gone. A ``whole_text`` operator's rate is the chance that a text gets
    all its proposals, not each one: a writer who writes "i" writes it throughout, and
    one lower-case "i" among capitals reads as a slip (round 38 judgement, IMPLAUSIBLE)."""

    def register(func: Propose) -> Propose:
        if name in REGISTRY:
            raise ValueError(f"operator {name} registered twice")
        text = (doc or func.__doc__ or "").strip()
        REGISTRY[name] = Operator(name, family, stage, func, text, retired, whole_text)
        return func

    return register


def get_operator(name: str) -> Operator:
    try:
        return REGISTRY[name]
    except KeyError:
        raise ConfigError(
            f"unknown operator {name!r}", hint="run `guisekit operators` for the list"
        ) from None


def map_edits(
    doc: Doc,
    phrases: PhraseMap,
    name: str,
    *,
    sentence_start: bool | None = None,
    accept: Callable[[int, int, str], bool] | None = None,
    lex: RulesLexicon | None = None,
) -> Iterator[Edit]:
    """Edits replacing every occurrence of a ``phrases`` key by its value, case kept
    (longest key first at each position).

    ``sentence_start``: True keeps only matches that start a sentence, False only those
    that don't, None both. ``accept(start, end, value)`` can veto a match in context.
    An empty value deletes the phrase (see :func:`deletion`; ``lex`` gives it the
    acronyms a new sentence capital writes in full, default the packaged ones).
    """
    text, vocab = doc.text, doc.vocab
    for first in phrases.firsts & vocab:
        # only keys whose every word is in the text can match: skip the rest up front
        candidates = [p for p in phrases.by_first[first] if phrases.words[p] <= vocab]
        if not candidates:
            continue
        for start in doc.occurrences(first):
            if sentence_start is not None and doc.is_sentence_start(start) != sentence_start:
                continue
            for phrase in candidates:
                end = doc.phrase_end(start, phrase)
                if end is None:
                    continue
                value = phrases.mapping[phrase]
                if phrase in phrases.wraps and doc.wrapped(start, end, *phrases.wraps[phrase]):
                    break
                if accept is not None and not accept(start, end, value):
                    continue  # a shorter key may still fit here
                if value:
                    yield Edit(start, end, match_case(text[start:end], value), name)
                else:
                    edit = deletion(doc, start, end, name, lex)
                    if edit is not None:
                        yield edit
                break


def deletion(
    doc: Doc, start: int, end: int, name: str, lex: RulesLexicon | None = None
) -> Edit | None:
    """Delete ``text[start:end]`` with the comma/spaces after it; at a sentence start the
    next word takes the capital (see :func:`sentence_capital`). None when the result would
    not read (nothing follows)."""
    text = doc.text
    stop = end
    while stop < len(text) and text[stop] in ", ":
        stop += 1
    if stop >= len(text):
        return None
    if doc.is_sentence_start(start) and text[stop].isalpha():
        return capital_edit(doc, start, stop, name, (lex or default_lexicon()).acronyms)
    return Edit(start, stop, "", name)


def capital_edit(doc: Doc, start: int, at: int, name: str, acronyms: Mapping[str, str]) -> Edit:
    """Replace ``text[start:at]`` by nothing and give the word at ``at`` the sentence
    capital: only its first letter is edited, unless it is a listed acronym, which is
    written in capitals whole ("Honestly, hr asked" -> "HR asked", never "Hr asked").
    A writer who opened the sentence in lower case keeps it so ("it feels like nobody
    is there" -> "nobody is there", never "Nobody"; heldout38h judgement): the edit
    changes the certainty, not the writer's casing."""
    if doc.text[start : start + 1].islower():
        return Edit(start, at, "", name)
    word = doc.word_at(at)
    if word is not None and word.start == at:
        written = sentence_capital(word.text, acronyms)
        if written[1:] != word.text[1:]:
            return Edit(start, word.end, written, name)
    return Edit(start, at + 1, doc.text[at].upper(), name)


def sentence_capital(word: str, acronyms: Mapping[str, str]) -> str:
    """``word`` as it reads first in a sentence: a known acronym written in lower case
    takes its capitals ("hr" -> "HR", where "Hr" is malformed; acronyms.txt), any other
    word a capital first letter. Only listed acronyms: an unknown word is never guessed
    to be one."""
    written = acronyms.get(word.lower()) if word.islower() else None
    if written is not None:
        return written
    return word[:1].upper() + word[1:]


def recase_first(word: Word, lex: RulesLexicon) -> str | None:
    """A sentence's first word as it reads after a marker is put before it, or None when
    that cannot be known: a capitalised word that is not a function word may be a name
    ("Under RESPA" -> "under", but "Chase" stays), so no marker goes before it. The
    pronoun I and words in capitals ("RESPA") keep their case; the article "A" does not.
    """
    if word.lower == "i" or word.lower.startswith(("i'", "i’")):
        return word.text
    if word.lower in lex.function_words:
        if len(word.text) > 1 and word.text.isupper():
            return word.text
        return word.text[:1].lower() + word.text[1:]
    return None


def phrase_spans(doc: Doc, phrases: Iterable[str]) -> list[tuple[int, int]]:
    """Where any of ``phrases`` (lower-case, whole words) stands in ``doc``: the spans
    that fixed expressions and article idioms protect from an edit."""
    spans = []
    for phrase in phrases:
        first = phrase.split()[0]
        if first not in doc.vocab:
            continue
        for start in doc.occurrences(first):
            end = doc.phrase_end(start, phrase)
            if end is not None:
                spans.append((start, end))
    return spans
