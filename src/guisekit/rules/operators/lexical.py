"""Word- and phrase-level swaps: contractions, register, spelling, regional vocabulary,
connectives, request frames, modals and written second-language markers."""

from __future__ import annotations

import random
from collections.abc import Iterator

from guisekit.rules.doc import Doc, match_case
from guisekit.rules.edits import Edit
from guisekit.rules.lexicon import RulesLexicon
from guisekit.rules.operators.base import map_edits, operator

_THIRD_PERSON_SUBJECTS = frozenset({"he", "she", "it", "this", "that"})


@operator("contract.v1", "contraction", "lexical")
def contract(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """do not -> don't."""
    return map_edits(doc, lex.contractions, "contract.v1")


@operator("expand.v1", "contraction", "lexical")
def expand(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """don't -> do not."""
    return map_edits(doc, lex.expansions, "expand.v1")


@operator("register_up.v1", "register", "lexical")
def register_up(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Plain word -> sophisticated word (buy -> purchase)."""
    return map_edits(doc, lex.register_up, "register_up.v1")


@operator("register_down.v1", "register", "lexical")
def register_down(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Sophisticated word -> plain word (purchase -> buy)."""
    return map_edits(doc, lex.register_down, "register_down.v1")


@operator("misspell.v1", "spelling", "lexical")
def misspell(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Common misspellings (receive -> recieve)."""
    return map_edits(doc, lex.misspell, "misspell.v1")


@operator("fix_spelling.v1", "spelling", "lexical")
def fix_spelling(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Known misspellings corrected (recieve -> receive)."""
    return map_edits(doc, lex.fix_spelling, "fix_spelling.v1")


def _regional(region: str) -> None:
    name = f"regional_{region}.v1"

    @operator(name, "regional", "lexical")
    def propose(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        return map_edits(doc, lex.regional(region), name)

    propose.__doc__ = f"Standard word -> {region} regional vocabulary."


for _region in ("rural", "urban", "suburban"):
    _regional(_region)


@operator("deregionalise.v1", "regional", "lexical")
def deregionalise(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Regional vocabulary -> standard word."""
    return map_edits(doc, lex.deregionalise, "deregionalise.v1")


@operator("connective_formal.v1", "connective", "lexical")
def connective_formal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Sentence-initial but/so/also -> However,/Therefore,/Furthermore,."""
    yield from map_edits(doc, lex.connectives("start", formal=True), "connective_formal.v1",
                         sentence_start=True)
    yield from map_edits(doc, lex.connectives("any", formal=True), "connective_formal.v1")


@operator("connective_plain.v1", "connective", "lexical")
def connective_plain(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Formal connectives -> plain ones (However, -> But)."""
    text = doc.text
    for edit in map_edits(doc, lex.connectives("start", formal=False), "connective_plain.v1",
                          sentence_start=True):
        end = edit.end + 1 if text[edit.end:edit.end + 1] == "," else edit.end
        yield Edit(edit.start, end, edit.replacement, edit.operator)
    yield from map_edits(doc, lex.connectives("any", formal=False), "connective_plain.v1")


@operator("request_polite.v1", "politeness", "lexical")
def request_polite(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Blunt request frames -> polite ones (I want -> I would like)."""
    return map_edits(doc, lex.request_polite, "request_polite.v1")


@operator("soften_modal.v1", "hedge", "lexical")
def soften_modal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Confident forms -> hedged forms (will -> might, always -> usually)."""
    return map_edits(doc, lex.modal_soften, "soften_modal.v1")


@operator("strengthen_modal.v1", "booster", "lexical")
def strengthen_modal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Unambiguous hedged forms -> confident forms (might not -> will not)."""
    return map_edits(doc, lex.modal_strengthen, "strengthen_modal.v1")


@operator("remove_hedge.v1", "hedge", "lexical")
def remove_hedge(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete hedges this engine can insert (I think, perhaps, somewhat, try to) and
    approximators before a number (about $500 -> $500)."""
    yield from map_edits(doc, lex.removable("hedged"), "remove_hedge.v1")
    text = doc.text
    for word in doc.words(lex.approximators):
        after = text[word.end:word.end + 2]
        if after[:1] == " " and after[1:] and (after[1:].isdigit() or after[1:] in "$₹"):
            yield Edit(word.start, word.end + 1, "", "remove_hedge.v1")


@operator("remove_booster.v1", "booster", "lexical")
def remove_booster(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete boosters this engine can insert (clearly, definitely, I know that)."""
    return map_edits(doc, lex.removable("confident"), "remove_booster.v1")


@operator("preposition_swap.v1", "l2_marker", "lexical")
def preposition_swap(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Second-language preposition use (discuss the -> discuss about the)."""
    return map_edits(doc, lex.preposition_swaps, "preposition_swap.v1")


@operator("progressive_stative.v1", "l2_marker", "lexical")
def progressive_stative(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Progressive with stative verbs (I want -> I am wanting)."""
    return map_edits(doc, lex.progressive, "progressive_stative.v1")


@operator("third_person_s.v1", "l2_marker", "lexical")
def third_person_s(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Dropped third-person -s after he/she/it/this/that (it takes -> it take)."""
    for word in doc.words(lex.third_person_forms):
        prev = doc.prev_word(word.start)
        if prev is not None and prev.lower in _THIRD_PERSON_SUBJECTS:
            base = lex.third_person[word.lower]
            yield Edit(word.start, word.end, match_case(word.text, base), "third_person_s.v1")
