"""Contractions: the persona operators (contract.v1, expand.v1) and the standardise
styles' operators, all on the one contraction table of the contractions.v1 transform
(``lexicons/transforms/contractions.tsv``; its rows say where each form may contract and
what kind of contraction it is)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

from guisekit.rules.doc import Doc
from guisekit.rules.edits import Edit
from guisekit.rules.lexicon import RulesLexicon
from guisekit.rules.operators.base import operator
from guisekit.transforms.contractions import Action, Row
from guisekit.transforms.contractions import edits as contraction_edits

__all__ = ["contract", "expand"]


def _contraction_edits(
    doc: Doc, name: str, action: Callable[[Row], Action | None], *, settle: bool = False
) -> Iterator[Edit]:
    for start, end, replacement in contraction_edits(doc.text, action, settle=settle):
        yield Edit(start, end, replacement, name)


def _always(action: Action) -> Callable[[Row], Action | None]:
    def decide(row: Row) -> Action | None:
        return action

    return decide


@operator("contract.v1", "contraction", "words")
def contract(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """do not -> don't, I am -> I'm, it is -> it's, each only in the context its row of
    lexicons/transforms/contractions.tsv allows: never clause-finally ("Yes, I am."),
    never "have" ("I have a car" stays), never an emphatic form in capitals ("is NOT"),
    never "it is" before a participle ("it is done" could not be told back)."""
    return _contraction_edits(doc, "contract.v1", _always("contract"))


@operator("expand.v1", "contraction", "words")
def expand(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """don't -> do not; 's and 'd by the word after them ("he's been" -> "he has been",
    "I'd paid" -> "I had paid", "I'd like" -> "I would like"; "it's done" stays); not in
    questions that put the subject after the verb ("Can't you ...?")."""
    return _contraction_edits(doc, "expand.v1", _always("expand"))


def _style_contractions(name: str, kinds: frozenset[str]) -> None:
    """Register a standardise operator that contracts the rows of ``kinds`` where their
    context allows and writes every other contraction in full: one canonical form per
    style, whichever way a guise changed it."""

    def decide(row: Row) -> Action | None:
        return "contract" if row.kind in kinds and row.when != "never" else "expand"

    @operator(
        name,
        "contraction",
        "words",
        doc=f"Standardise: contract {' and '.join(sorted(kinds))} contractions where their "
        "context allows (lexicons/transforms/contractions.tsv), write the rest in full.",
    )
    def propose(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        kept = list(_contraction_edits(doc, name, decide, settle=True))
        kept = [e for e in kept if not _elliptical(doc, lex, e)]
        yield from kept
        # a guise's "it's on paper" standardises to the same full form as its source
        for edit in _contraction_edits(doc, name, _always("expand"), settle=True):
            clash = any(e.start < edit.end and edit.start < e.end for e in kept)
            written = doc.text[edit.start : edit.end]
            positive = "'" in written and "n't" not in written.lower()
            if not clash and positive and _ellipsis_at(doc, lex, edit):
                yield edit


_ELLIPSIS_END = re.compile(r"\s*(?:[.,;:!?)\n]|$)")


def _elliptical(doc: Doc, lex: RulesLexicon, edit: Edit) -> bool:
    """Whether ``edit`` contracts a positive auxiliary (it is -> it's) before a word that
    may not start its complement: a preposition or adverb, punctuation or the end."""
    if "'" not in edit.replacement or "n't" in edit.replacement.lower():
        return False
    if "'" in doc.text[edit.start : edit.end]:
        return False  # an expansion or a re-spelling, not a new contraction
    return _ellipsis_at(doc, lex, edit)


def _ellipsis_at(doc: Doc, lex: RulesLexicon, edit: Edit) -> bool:
    """Whether the word after ``edit`` may not start a complement: punctuation, the end,
    or a word of word_classes.yaml ``ellipsis_after``, after which a contracted
    is/are/am/have/will/would may stand for an ellipsis ("I guess it is on paper", "yes
    it is."): a contraction there is ungrammatical or drops the stress, so the plain
    style keeps the full form (hedgefix3 judgement)."""
    if _ELLIPSIS_END.match(doc.text, edit.end):
        return True
    nxt = doc.next_word(edit.end)
    return nxt is None or nxt.lower in lex.word_classes["ellipsis_after"]


# plain: US Federal Plain Language Guidelines ("use contractions when appropriate");
# simple: Readability Guidelines (negative contractions in full). See the table's header.
_style_contractions("contractions_plain.v1", frozenset({"negative", "simple"}))
_style_contractions("contractions_simple.v1", frozenset({"simple"}))
