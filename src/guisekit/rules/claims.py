"""Which sentences are claims or evaluations: the only places a hedge or booster may go.

A hedge qualifies the writer's commitment to a proposition; on the writer's own
experience ("I am 22"), possession ("I have the email"), request ("I want my money back"),
on a question, or on a figure it reads as absurd or changes a fact (issue 13). The engine
keeps to sentences that open with a third-person or demonstrative subject, are not
questions, and evaluate (an evaluative word or a deontic "should"); the word lists and
their sources are in ``lexicons/rules/claims.yaml``.
"""

from __future__ import annotations

import bisect
import functools
import re

from guisekit.rules.doc import Doc, Word
from guisekit.rules.lexicon import RulesLexicon

__all__ = ["claim_sentences", "in_claim", "in_statement"]

_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?")
# The main clause ends at a comma, semicolon or a subordinating/coordinating word.
_CLAUSE_END = re.compile(r"[,;:]| (?:and|but|because|since|when|after|before|while|so|if) ")
_COPULAS = frozenset(
    {"is", "are", "was", "were", "be", "been", "seems", "seemed", "seem", "looks", "looked",
     "remains", "remained", "'s", "isn't", "wasn't", "aren't", "weren't"}
)  # fmt: skip
# Words that may stand between a copula and its evaluative predicate.
_PREDICATE_FILLERS = frozenset(
    {"not", "very", "so", "too", "quite", "really", "completely", "totally", "simply",
     "clearly", "obviously", "the", "a", "an", "my", "their", "its", "our", "highly",
     "somewhat", "rather", "fairly", "also", "still", "just", "extremely", "to", "be",
     "probably", "possibly", "perhaps", "maybe", "likely", "definitely", "certainly",
     "surely", "undoubtedly", "slightly", "bit", "little", "absolutely"}
)  # fmt: skip
_ARTICLES = frozenset({"a", "an", "the"})
_COMPARATIVE = frozenset(
    {"below", "above", "beyond", "behind", "worse", "better", "higher", "lower"}
)
_PRESENT_COPULAS = frozenset({"is", "are", "isn't", "aren't", "seems", "seem"})
_PREDICTIVE = frozenset({"will", "won't", "would", "wouldn't"})
_REPORTING = re.compile(
    r"\b(?:said|says|told|tells|stated|wrote|claimed|claims|asked|agreed|confirmed|explained|"
    r"admitted|noted|responded|replied|informed|mentioned|insisted|argued|promised|assured|"
    r"that)\b"
)
_FIGURE = re.compile(
    r"\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"forty|fifty|hundred|thousand|million|lakh|crore|once|twice|half|dozen)\b",
    re.IGNORECASE,
)


def _sentence_spans(doc: Doc) -> list[tuple[int, int]]:
    starts = doc.sentence_starts
    if not starts:
        return []
    ends = [*starts[1:], len(doc.text)]
    return list(zip(starts, ends, strict=True))


@functools.cache
def _lead_cues(lex: RulesLexicon) -> tuple[str, ...]:
    """Hedge and booster openers a claim may already carry ("I think the fee is unfair",
    "Clearly, the fee is unfair"), longest first, each with "that" too."""
    cues = {
        c
        for direction in ("hedged", "confident")
        for slot in ("clause_start", "sentence_adverb")
        for c in lex.insertions(slot, direction)
    }
    cues |= {c + " that" for c in cues if not c.endswith(" that")}
    return tuple(sorted(cues, key=len, reverse=True))


def _subject(doc: Doc, start: int, lead: tuple[str, ...]) -> Word | None:
    """The first word of the sentence at ``start`` after any opening hedge or booster."""
    lowered = doc.lowered
    for cue in lead:
        end = doc.phrase_end(start, cue)
        if end is not None:
            while end < len(lowered) and lowered[end] in ", ":
                end += 1
            return doc.word_at(end)
    return doc.word_at(start)


def _evaluates(
    clause: str, evaluative: frozenset[str], deontic: frozenset[str], adjectives: frozenset[str]
) -> bool:
    """Whether a main clause makes a claim: a deontic or predictive modal not inside
    reported speech ("the bank should refund it", not "they said they would"), a copula
    with an evaluative predicate ("that was the right call"), or a present-tense copula
    with an adjective or noun predicate (a state of affairs the writer asserts: "the
    charge is a duplicate"; not "the address is in XXXX"). A past narrative ("the agent
    told me ...") is the writer's experience, not a claim."""
    words = _WORDS.findall(clause)
    for i, word in enumerate(words):
        modal = word in deontic or word in _PREDICTIVE
        if modal and not _REPORTING.search(" ".join(words[:i])):
            return True
        if word in _COPULAS:
            present = word in _PRESENT_COPULAS
            for nxt in words[i + 1 : i + 5]:
                if nxt in evaluative or (present and _predicate(nxt, adjectives)):
                    return True
                if nxt not in _PREDICATE_FILLERS:
                    break
    return False


def _predicate(word: str, adjectives: frozenset[str]) -> bool:
    """A word that opens the predicate of a present-tense claim beyond the evaluative
    list: only a comparison ("below market", "higher than"). Identifications ("is an old
    payday loan"), places ("is in XXXX") and events ("is charging me") are facts the
    writer reports, and a hedge on them changes their certainty (issue 13)."""
    return word in _COMPARATIVE


def claim_sentences(doc: Doc, lex: RulesLexicon) -> list[tuple[int, int]]:
    """Spans (first letter to the next sentence) of the claim sentences of ``doc``."""
    return [span for span, evaluates in _classified(doc, lex) if evaluates]


def statement_sentences(doc: Doc, lex: RulesLexicon) -> list[tuple[int, int]]:
    """Third-person statements: the sentences a claim could be, evaluative or not (a
    subject starter, no question, no figure). The confident direction may firm up an
    existing hedge in one; only claims receive new hedges or boosters."""
    return [span for span, _ in _classified(doc, lex)]


def _classified(doc: Doc, lex: RulesLexicon) -> list[tuple[tuple[int, int], bool]]:
    key = ("claim_sentences", lex)
    cached = doc.proposals.get(key)
    if cached is not None:
        return cached
    claims = lex.claims
    starters = frozenset(claims["subject_starters"])
    evaluative = frozenset(claims["evaluative"])
    deontic = frozenset(claims["deontic"])
    lead = _lead_cues(lex)
    found = []
    for start, end in _sentence_spans(doc):
        first = _subject(doc, start, lead)
        if first is None or first.lower not in starters:
            continue
        body = doc.text[start:end].rstrip()
        if "?" in body or _FIGURE.search(body):
            continue
        clause = _CLAUSE_END.split(doc.lowered[first.start : end], maxsplit=1)[0]
        found.append(((start, end), _evaluates(clause, evaluative, deontic, lex.adjectives)))
    doc.proposals[key] = found
    return found


def _inside(spans: list[tuple[int, int]], offset: int, size: int) -> bool:
    i = bisect.bisect_right(spans, (offset, size + 1)) - 1
    return i >= 0 and spans[i][0] <= offset < spans[i][1]


def in_claim(doc: Doc, lex: RulesLexicon, offset: int) -> bool:
    """Whether ``offset`` lies inside a claim sentence."""
    return _inside(claim_sentences(doc, lex), offset, len(doc.text))


def in_statement(doc: Doc, lex: RulesLexicon, offset: int) -> bool:
    """Whether ``offset`` lies inside a third-person statement (see
    :func:`statement_sentences`) and in its main clause, before any reported speech."""
    spans = statement_sentences(doc, lex)
    if not _inside(spans, offset, len(doc.text)):
        return False
    i = bisect.bisect_right(spans, (offset, len(doc.text) + 1)) - 1
    head = doc.lowered[spans[i][0] : offset]
    return _CLAUSE_END.search(head) is None and _REPORTING.search(head) is None
