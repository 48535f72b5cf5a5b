"""Word- and phrase-level swaps: contractions, register, spelling, regional vocabulary,
connectives, request frames, modals and written second-language markers."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

from guisekit.rules.doc import Doc, match_case
from guisekit.rules.edits import Edit
from guisekit.rules.lexicon import PhraseMap, RulesLexicon
from guisekit.rules.operators.base import map_edits, operator

_THIRD_PERSON_SUBJECTS = frozenset({"he", "she", "it", "this", "that"})


_SUBJECTS = frozenset({"i", "you", "we", "they", "he", "she", "it", "there", "that"})
_DETERMINERS = frozenset(
    {
        "a",
        "an",
        "the",
        "this",
        "that",
        "my",
        "your",
        "his",
        "her",
        "our",
        "their",
        "its",
        "per",
        "each",
        "every",
        "one",
    }
)
_DEGREE_TARGETS = frozenset({"many", "much", "few", "little", "far", "long", "often", "soon"})


@operator("contract.v1", "contraction", "words")
def contract(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """do not -> don't; not at the end of a clause ("It is what it is." stays)."""

    def mid_clause(start: int, end: int, value: str) -> bool:
        return doc.next_word(end) is not None

    return map_edits(doc, lex.contractions, "contract.v1", accept=mid_clause)


@operator("expand.v1", "contraction", "words")
def expand(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """don't -> do not; 's and 'd before a participle -> has/had ("he's been" -> "he has
    been"); not in questions that put the subject after the verb ("Can't you ...?")."""
    for edit in map_edits(doc, lex.expansions, "expand.v1"):
        after = doc.next_word(edit.end)
        before = doc.text[edit.start : edit.end].lower().replace("’", "'")
        if before.endswith("n't") and after is not None and after.lower in _SUBJECTS:
            continue
        participle = after is not None and (
            after.lower in lex.participles or (after.lower.endswith("ed") and len(after.lower) > 4)
        )
        if participle and before.endswith(("'s", "'d")):
            head = edit.replacement.rsplit(" ", 1)[0]
            verb = "has" if before.endswith("'s") else "had"
            yield edit._replace(replacement=f"{head} {verb}")
        else:
            yield edit


def _with_article(doc: Doc, edits: Iterator[Edit]) -> Iterator[Edit]:
    """Keep "a"/"an" right when a swap changes the sound the next word starts with."""
    for edit in edits:
        prev = doc.prev_word(edit.start)
        if prev is not None and prev.lower in ("a", "an"):
            wanted = "an" if edit.replacement[:1].lower() in "aeiou" else "a"
            if wanted != prev.lower:
                article = match_case(prev.text, wanted)
                yield Edit(prev.start, edit.end, f"{article} {edit.replacement}", edit.operator)
                continue
        yield edit


@operator("register_up.v1", "register", "words")
def register_up(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Plain word -> sophisticated word (buy -> purchase), a/an kept right."""
    return _with_article(doc, map_edits(doc, lex.register_up, "register_up.v1"))


@operator("register_down.v1", "register", "words")
def register_down(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Sophisticated word -> plain word (purchase -> buy), a/an kept right."""
    return _with_article(doc, map_edits(doc, lex.register_down, "register_down.v1"))


@operator("connective_formal.v1", "connective", "words")
def connective_formal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Sentence-initial but/so/also -> However,/Therefore,/Furthermore, (not "So many")."""

    def connective(start: int, end: int, value: str) -> bool:
        after = doc.next_word(end)
        return after is None or (
            after.lower not in _DEGREE_TARGETS and after.lower not in lex.adjectives
        )

    for edit in map_edits(
        doc,
        lex.connectives("start", formal=True),
        "connective_formal.v1",
        sentence_start=True,
        accept=connective,
    ):
        if edit.replacement.endswith(",") and doc.text[edit.end : edit.end + 1] == ",":
            edit = edit._replace(replacement=edit.replacement[:-1])
        yield edit
    yield from map_edits(doc, lex.connectives("any", formal=True), "connective_formal.v1")


@operator("connective_plain.v1", "connective", "words")
def connective_plain(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Formal connectives -> plain ones (However, -> But)."""
    text = doc.text
    for edit in map_edits(
        doc, lex.connectives("start", formal=False), "connective_plain.v1", sentence_start=True
    ):
        end = edit.end + 1 if text[edit.end : edit.end + 1] == "," else edit.end
        yield Edit(edit.start, end, edit.replacement, edit.operator)
    yield from map_edits(doc, lex.connectives("any", formal=False), "connective_plain.v1")


@operator("request_polite.v1", "politeness", "words")
def request_polite(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Blunt request frames -> polite ones (I want -> I would like); frames that gain a
    "please" only where a request starts a sentence ("Send me ..." -> "Please send me")."""

    def imperative(start: int, end: int, value: str) -> bool:
        return not value.lower().startswith("please") or doc.is_sentence_start(start)

    last_end, last_please = -2, False
    for edit in sorted(map_edits(doc, lex.request_polite, "request_polite.v1", accept=imperative)):
        adjacent = doc.text[last_end : edit.start].isspace() if last_end >= 0 else False
        if not (adjacent and last_please and edit.replacement.lower().startswith("please")):
            yield edit
            last_end, last_please = edit.end, edit.replacement.lower().endswith("please")


@operator("soften_modal.v1", "hedge", "words")
def soften_modal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Confident forms -> hedged forms (will -> might, must -> should); a word after a
    determiner is a noun and stays ("a can of soup")."""

    def modal(start: int, end: int, value: str) -> bool:
        prev = doc.prev_word(start)
        return prev is None or prev.lower not in _DETERMINERS

    return map_edits(doc, lex.modal_soften, "soften_modal.v1", accept=modal)


@operator("remove_hedge.v1", "hedge", "words")
def remove_hedge(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete hedges this engine can insert (I think, perhaps, somewhat, try to).
    Approximators before a number stay ("about $500"): dropping one changes the amount's
    fact, which the exact check fails (issue 14)."""
    yield from _remove_cues(doc, lex, "hedged", "remove_hedge.v1")


@operator("remove_booster.v1", "booster", "words")
def remove_booster(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete boosters this engine can insert (clearly, definitely, I know that)."""
    return _remove_cues(doc, lex, "confident", "remove_booster.v1")


_MODALS = frozenset({"will", "would", "can", "could", "should", "i'll", "we'll", "i'd"})
_SENTENCE_REST = re.compile(r"[^.!?\n]*")


def _remove_cues(doc: Doc, lex: RulesLexicon, direction: str, name: str) -> Iterator[Edit]:
    """Delete cues where they work as cues: clause openers at a sentence start with a
    clause after them ("I think the fee is wrong", not "I think so"), degree words before
    an adjective ("somewhat late", not "would rather pay"), and modal cues after a modal."""

    def clause_follows(start: int, end: int, value: str) -> bool:
        rest = _SENTENCE_REST.match(doc.text, end)
        return rest is not None and len(rest.group().split()) >= 3

    def before_adjective(start: int, end: int, value: str) -> bool:
        after = doc.next_word(end)
        return after is not None and after.lower in lex.adjectives

    def after_modal(start: int, end: int, value: str) -> bool:
        before = doc.prev_word(start)
        return before is not None and before.lower in _MODALS

    def parenthetical(start: int, end: int, value: str) -> bool:
        return doc.text[start - 2 : start] == ", " and doc.text[end : end + 1] == ","

    yield from map_edits(
        doc, lex.removable(direction, "sentence"), name, sentence_start=True, accept=clause_follows
    )
    for edit in map_edits(
        doc, lex.removable(direction, "sentence"), name, sentence_start=False, accept=parenthetical
    ):  # "The fee, I think, is wrong." -> "The fee is wrong."
        yield Edit(edit.start - 2, doc.text.index(",", edit.start) + 1, "", name)
    yield from map_edits(
        doc, lex.removable(direction, "pre_adjective"), name, accept=before_adjective
    )
    yield from map_edits(doc, lex.removable(direction, "after_modal"), name, accept=after_modal)


def _phrase_swap(
    name: str, family: str, phrases: Callable[[RulesLexicon], PhraseMap], doc: str
) -> None:
    """Register an operator that replaces every key of one phrase map by its value."""

    @operator(name, family, "words", doc=doc)
    def propose(text: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        return map_edits(text, phrases(lex), name)


for _name, _family, _phrases, _doc in (
    (
        "misspell.v1",
        "spelling",
        lambda lex: lex.misspell,
        "Common misspellings (receive -> recieve).",
    ),
    (
        "fix_spelling.v1",
        "spelling",
        lambda lex: lex.fix_spelling,
        "Known misspellings corrected (recieve -> receive).",
    ),
    (
        "deregionalise.v1",
        "regional",
        lambda lex: lex.deregionalise,
        "Regional vocabulary -> standard word (not forms that are ordinary English too).",
    ),
    (
        "strengthen_modal.v1",
        "booster",
        lambda lex: lex.modal_strengthen,
        "Unambiguous hedged forms -> confident forms (might not -> will not).",
    ),
    (
        "preposition_swap.v1",
        "l2_marker",
        lambda lex: lex.preposition_swaps,
        "Second-language preposition use (discuss the -> discuss about the).",
    ),
    (
        "progressive_stative.v1",
        "l2_marker",
        lambda lex: lex.progressive,
        "Progressive with stative verbs (I want -> I am wanting).",
    ),
    *(
        (
            f"regional_{region}.v1",
            "regional",
            lambda lex, region=region: lex.regional(region),
            f"Standard word -> {region} regional vocabulary.",
        )
        for region in ("rural", "urban", "suburban")
    ),
):
    _phrase_swap(_name, _family, _phrases, _doc)


@operator("third_person_s.v1", "l2_marker", "words")
def third_person_s(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Dropped third-person -s after he/she/it/this/that (it takes -> it take)."""
    for word in doc.words(lex.third_person_forms):
        prev = doc.prev_word(word.start)
        if prev is not None and prev.lower in _THIRD_PERSON_SUBJECTS:
            base = lex.third_person[word.lower]
            yield Edit(word.start, word.end, match_case(word.text, base), "third_person_s.v1")
