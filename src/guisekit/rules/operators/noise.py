"""Orthographic and punctuation markers: apostrophes, lower-case i, commas, run-ons,
exclamation and capitals, and their calm counterparts for standardisation."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator

from guisekit.rules.doc import NOT_SENTENCE_END, Doc, Word
from guisekit.rules.edits import CHOICE, Edit
from guisekit.rules.lexicon import RulesLexicon
from guisekit.rules.operators.base import map_edits, operator, recase_first, sentence_capital

_I_FORMS = frozenset({"i", "i'm", "i've", "i'll", "i'd"})
_ABBREVIATION = re.compile(r"\.[A-Za-z]")  # after an "i": "i.e." / "i.e", not "i."
_COMMA = re.compile(r"(?<=[A-Za-z]), (?=[A-Za-z])")
_PERIOD = re.compile(rf"\.(?<=[a-z]\.){NOT_SENTENCE_END} +(?=[A-Z])")
_SENTENCE_PERIOD = re.compile(rf"\.(?<=[a-z]\.){NOT_SENTENCE_END}(?=\s|$)")
_NEXT_LETTER = re.compile(r"\s+[\"'“‘(\[]*([A-Za-z])")
_LOUD = re.compile(r"!{2,}|!(?=\s|$)|\?{2,}|\?!+|!\?+")
_SHOUTED = re.compile(r"\b[A-Z]{3,}\b")
# a closing bracket or quote and then the sentence's own stop: an exclamation inside them
# is dropped, not made a full stop (heldout53 edit judgement, UNGRAMMATICAL: "Thane.).")
_CLOSED_THEN_STOPPED = re.compile(r"[)\]\"'’”]+[.?!]")


@operator("drop_apostrophe.v1", "orthography", "noise")
def drop_apostrophe(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Apostrophes dropped from contractions (don't -> dont), not where the bare form is a
    word itself (it's -> its, I'd -> Id, we're -> were): that reads as another word, and
    standardisation could not tell it back."""
    for word in doc.words(lex.contracted_forms):
        bare = word.text.replace("'", "").replace("’", "")
        if bare.lower() not in lex.words:
            yield Edit(word.start, word.end, bare, "drop_apostrophe.v1")


@operator("restore_apostrophe.v1", "orthography", "noise")
def restore_apostrophe(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Apostrophes restored in contractions that lost them (dont -> don't)."""
    return map_edits(doc, lex.apostrophe_free, "restore_apostrophe.v1")


@functools.cache
def _formal_patterns(lex: RulesLexicon) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(opening, anywhere) patterns of formal_register.yaml, whole words, lower-case."""
    data = lex.formal_register

    def alternatives(words: frozenset[str]) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) or "(?!)"

    opening = re.compile(r"\W*(?:" + alternatives(data["openings"]) + r")(?![\w'])")
    anywhere = re.compile(r"(?<![\w'])(?:" + alternatives(data["phrases"]) + r")(?![\w'])")
    return opening, anywhere


def formal_text(doc: Doc, lex: RulesLexicon) -> bool:
    """Whether the whole text is in a formal register (formal_register.yaml): it opens
    with a letter salutation or subject line ("Dear Branch Manager,", "Re:") or holds a
    complimentary close, a formula of formal correspondence or an inverted conditional
    ("Yours faithfully", "I respectfully request", "had I been told")."""
    opening, anywhere = _formal_patterns(lex)
    lowered = doc.lowered.replace("’", "'")
    return opening.match(lowered) is not None or anywhere.search(lowered) is not None


@operator("lowercase_i.v1", "orthography", "noise", whole_text=True)
def lowercase_i(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """The pronoun I written lower-case (I'm -> i'm), a casual-writer feature; nothing in
    a formal text (see :func:`formal_text`): a letter or formal complaint with "i" in it
    is not a casual writer's text but a damaged formal one (heldout19-dev edit judgement,
    IMPLAUSIBLE). The whole text is judged, so a guise is casual throughout or not at all."""
    if formal_text(doc, lex):
        return
    for word in doc.words(_I_FORMS):
        if word.text[0] == "I" and not (len(word.text) > 1 and word.text.isupper()):
            if word.text == "I" and _numeral(doc, word):
                continue
            yield Edit(word.start, word.start + 1, "i", "lowercase_i.v1")


def _numeral(doc: Doc, word: Word) -> bool:
    """Whether a capital "I" is a Roman numeral closing a name ("Level I.", "Part I,",
    "World War I)"): a title-case word right before it that does not open the sentence,
    and no word after it ("I've already passed Level I." never "Level i"; round 34
    judgement, UNGRAMMATICAL). "Then I went", "On Monday I noticed" and "On XX/XX/XXXX I
    noticed" keep the pronoun reading."""
    prev = doc.prev_word(word.start)
    if prev is None or doc.is_sentence_start(prev.start):
        return False
    title = prev.text.isalpha() and prev.text[:1].isupper() and prev.text[1:].islower()
    rest = doc.text[word.end :].lstrip(" ")
    return title and not rest[:1].isalpha()


@operator("capitalise_i.v1", "orthography", "noise")
def capitalise_i(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """The pronoun i capitalised (i'm -> I'm); never the "i" of an abbreviation ("i.e.",
    "i.e", where a full stop and a letter follow): "I.e." mid-sentence is malformed."""
    for word in doc.words(_I_FORMS):
        if word.text[0] == "i" and not _ABBREVIATION.match(doc.text, word.end):
            yield Edit(word.start, word.start + 1, "I", "capitalise_i.v1")


@operator("capitalise_sentence.v1", "orthography", "noise")
def capitalise_sentence(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Capital letter at the start of each sentence; a listed acronym in lower case is
    written in capitals ("hr asked" -> "HR asked", never "Hr"; acronyms.txt), and a token
    with digits ("sde2", "4g") keeps the case its writer gave it."""
    for start in doc.sentence_starts:
        word = doc.word_at(start)
        if word is None or not doc.text[start].islower():
            continue
        if word.end < len(doc.text) and doc.text[word.end].isdigit():
            continue
        written = sentence_capital(word.text, lex.acronyms)
        if written != word.text[:1].upper() + word.text[1:]:
            yield Edit(word.start, word.end, written, "capitalise_sentence.v1")
        elif word.text[1:].islower() or len(word.text) == 1:
            yield Edit(start, start + 1, doc.text[start].upper(), "capitalise_sentence.v1")


@operator("drop_comma.v1", "punctuation", "noise")
def drop_comma(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Commas between words left out."""
    for match in _COMMA.finditer(doc.text):
        yield Edit(match.start(), match.start() + 1, "", "drop_comma.v1")


@operator("run_on.v1", "punctuation", "noise")
def run_on(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Two sentences joined with a comma splice (late. The -> late, the)."""
    for match in _PERIOD.finditer(doc.text):
        word = doc.word_at(match.end())
        if word is not None and doc.is_sentence_start(word.start):  # not "no. HL0092"
            recased = recase_first(word, lex)
            if recased is not None:
                yield Edit(match.start(), word.end, ", " + recased, "run_on.v1")


@operator("exclaim.v1", "emphasis", "noise")
def exclaim(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Sentence-final full stops made exclamation marks."""
    text = doc.text
    for match in _SENTENCE_PERIOD.finditer(text):
        after = _NEXT_LETTER.match(text, match.end())
        if after is not None and not doc.is_sentence_start(after.start(1)):
            continue  # the stop of an abbreviation: "account no. HL0092", "B.E. in"
        yield Edit(match.start(), match.end(), CHOICE, "exclaim.v1", ("!", "!", "!!"))


@operator("caps.v1", "emphasis", "noise")
def caps(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Emotive adjectives in capitals (UNACCEPTABLE)."""
    for word in doc.words(lex.emotive_adjectives):
        if not word.text.isupper():
            yield Edit(word.start, word.end, word.text.upper(), "caps.v1")


@operator("calm_punctuation.v1", "emphasis", "noise")
def calm_punctuation(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Calm punctuation: ! and !! -> ., ?? -> ?, shouted adjectives in lower case."""
    for match in _LOUD.finditer(doc.text):
        calm = "?" if "?" in match.group() else "."
        if calm == "." and _CLOSED_THEN_STOPPED.match(doc.text, match.end()):
            calm = ""  # "(it ended in Thane!!)." -> "(... in Thane).", never "Thane.)."
        yield Edit(match.start(), match.end(), calm, "calm_punctuation.v1")
    for match in _SHOUTED.finditer(doc.text):
        lower = match.group().lower()
        if lower in lex.adjectives:
            if doc.is_sentence_start(match.start()):
                lower = lower[0].upper() + lower[1:]  # "URGENT." -> "Urgent.", never "urgent."
            yield Edit(match.start(), match.end(), lower, "calm_punctuation.v1")
