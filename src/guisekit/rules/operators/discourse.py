"""Insertions and deletions around sentences: fillers, openings and closings, intensifiers,
hedge and booster cues, and article dropping."""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Iterator

from guisekit.rules.claims import (
    adverb_slots,
    claim_sentences,
    coordinated_claims,
    doubtful,
    figure_in_clause,
    figure_in_sentence,
    grave_sentences,
    in_claim,
    opens_with_cue,
    opinion_sentence,
    refusal,
    self_evaluations,
    stance_elsewhere,
)
from guisekit.rules.doc import Doc, Word, capital_i
from guisekit.rules.edits import CHOICE, Edit
from guisekit.rules.lexicon import RulesLexicon, alternation
from guisekit.rules.operators.base import (
    capital_edit,
    map_edits,
    operator,
    phrase_spans,
    recase_first,
)
from guisekit.rules.operators.certainty import (
    clause_after_frame,
    coordinated_complement,
    in_concession,
    shield_needed,
    speculation,
)
from guisekit.rules.operators.noise import formal_text

# The word classes these operators test words against (linking verbs, negators, number
# words) are data: lexicons/rules/word_classes.yaml, read through ``lex.word_classes``.
_ARTICLES = frozenset({"the", "a", "an"})


def _sentence_marker(
    doc: Doc,
    lex: RulesLexicon,
    rng: random.Random,
    choices: tuple[str, ...],
    name: str,
    *,
    comma: bool,
    claims_only: bool = False,
) -> Iterator[Edit]:
    """Put a marker before the first word of each sentence ("Honestly, the bank ..."); with
    ``claims_only``, only before claim sentences (see :mod:`guisekit.rules.claims`) that
    do not already open with a hedge or booster (no "I believe I think"); otherwise (a
    filler) not before a sentence about grave matters (a death, an illness, a fraud).
    Not before a word whose case after the marker is unknown (a name)."""
    if not choices:
        return
    joiner = ", " if comma else " "
    text = doc.text
    starts = {s for s, _ in claim_sentences(doc, lex)} if claims_only else None
    grave = frozenset() if claims_only else grave_sentences(doc, lex)
    candour = lex.claim_set("candour_fillers")
    for word in doc.sentence_words:
        if starts is not None and (
            word.start not in starts
            or opens_with_cue(doc, lex, word.start)
            or stance_elsewhere(doc, lex, word.start, word.start)
        ):
            continue
        if word.start in grave:
            continue
        if word.lower in lex.sentence_openers or text[word.end : word.end + 1] == ",":
            continue
        recased = recase_first(word, lex)
        if recased is None:
            continue
        fits = choices
        if not claims_only and (
            not opinion_sentence(doc, lex, word.start) or _candid(doc, lex, word.start)
        ):
            # no "Tbh," / "Honestly," before a neutral report of an event, nor before a
            # sentence that already says it is candid ("Tbh, I would say, quite honestly,
            # ...": heldout23 edit judgement, IMPLAUSIBLE)
            fits = tuple(c for c in choices if c.lower() not in candour)
            if not fits:
                continue
        options = _lowered(fits) if word.text[:1].islower() else _capitalised(fits)
        yield Edit(word.start, word.end, CHOICE + joiner + recased, name, options)


def _candid(doc: Doc, lex: RulesLexicon, start: int) -> bool:
    """Whether the sentence at ``start`` already says it is candid ("quite honestly",
    "to be honest", "tbh", "frankly"; claims.yaml ``candid_words``)."""
    return _candid_pattern(lex).search(doc.lowered, *doc.sentence_around(start)) is not None


@functools.cache
def _candid_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + alternation(lex.claims["candid_words"]) + r")\b")


@functools.lru_cache(maxsize=256)
def _capitalised(markers: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(capital_i(m[:1].upper() + m[1:]) for m in markers)


@functools.lru_cache(maxsize=256)
def _lowered(markers: tuple[str, ...]) -> tuple[str, ...]:
    """Markers for a sentence its writer opened in lower case ("so verizon charged me"):
    the marker keeps the writer's casing ("tbh, the fee ...", never "Tbh, the fee ...";
    "I" stays a capital)."""
    return tuple(capital_i(m[:1].lower() + m[1:]) for m in markers)


def _filler(style: str) -> None:
    name = f"filler_{style}.v1"
    casual = style in _CASUAL_FILLERS
    note = " Nothing in a formal text (a letter's salutation or close)." if casual else ""

    @operator(
        name,
        "discourse_marker",
        "words",
        doc=f"Sentence-initial {style} discourse markers and fillers (Honestly, ...).{note}",
    )
    def propose(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        if casual and formal_text(doc, lex):
            return iter(())
        if style == "young" and _older_writer(doc, lex):
            return iter(())
        edits = _sentence_marker(doc, lex, rng, lex.fillers(style), name, comma=True)
        if not casual:
            return edits
        return (edit for edit in edits if not _note_line(doc, lex, edit.start))


# Fillers of casual talk ("Like,", "Tbh", "So yeah"): in a letter with a salutation or a
# formal close they are a register clash, as lower-case "i" is (noise.formal_text; "Like,
# my electricity bill ..." in a letter to an engineer: round 22 judgement, IMPLAUSIBLE).
_CASUAL_FILLERS = frozenset({"young", "casual"})


for _style in ("young", "casual", "older"):
    _filler(_style)

# Decades of service or experience ("after 23 years and 7 months of service").
_LONG_SERVICE = re.compile(
    r"\b(?:1[5-9]|[2-9]\d)\+? years?(?: and \d+ months?)? (?:of|in) (?:service|experience|"
    r"work|the industry|the company|this company|the bank)\b"
)


def _older_writer(doc: Doc, lex: RulesLexicon) -> bool:
    """Whether the writer says they are older: retirement, a pension, grandchildren
    (word_classes.yaml ``older_writer_words``) or decades of service. A young filler there
    reads as no writer ("Yeah so, I am retiring ... after 23 years of service": round 26,
    IMPLAUSIBLE; "Like," from a writer who sounds older: round 23)."""
    words = lex.word_classes["older_writer_words"]
    return not words.isdisjoint(doc.vocab) or _LONG_SERVICE.search(doc.lowered) is not None


def _note_line(doc: Doc, lex: RulesLexicon, start: int) -> bool:
    """Whether the sentence at ``start`` is written as a note ("6 yrs exp, current CTC
    14.8 LPA"; word_classes.yaml ``note_abbreviations``): a casual filler is talk, and
    talk does not open a clipped note ("Like, I work in an IT services company in
    Chennai, 6 yrs exp, ...": round 27 judgement, IMPLAUSIBLE)."""
    begin, end = doc.sentence_around(start)
    words = re.findall(r"[a-z/.]+", doc.lowered[begin:end])
    return not lex.word_classes["note_abbreviations"].isdisjoint(w.rstrip(".") for w in words)


@operator("remove_filler.v1", "discourse_marker", "words")
def remove_filler(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete sentence-initial fillers followed by a comma (Honestly, the -> The)."""
    fillers = lex.all_fillers
    for edit in map_edits(doc, fillers, "remove_filler.v1", sentence_start=True, lex=lex):
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
        greeted = first is not None and first.lower in lex.word_classes["opening_greetings"]
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
    """Delete a known opening line, with a coordinator that ties the rest to it ("Good
    afternoon, and thank you" -> "Thank you", never "And thank you"); the word that then
    starts the text takes the sentence capital ("HR" for a listed acronym)."""
    return _remove_opening(doc, lex, _all(lex, "openings"), "remove_opening.v1")


@operator("remove_casual_opening.v1", "politeness", "words")
def remove_casual_opening(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete a casual opening line ("Hey," "Hi there,"), keeping a formal one: the formal
    style keeps "Dear Sir or Madam," (removing it was judged IMPLAUSIBLE for that style,
    heldout54 edit judgement)."""
    openings = lex.politeness("openings", "casual")
    return _remove_opening(doc, lex, openings, "remove_casual_opening.v1")


def _remove_opening(
    doc: Doc, lex: RulesLexicon, openings: tuple[str, ...], name: str
) -> Iterator[Edit]:
    text = doc.text
    for opening in sorted(openings, key=len, reverse=True):
        if text.startswith(opening):
            end = len(opening)
            while end < len(text) and (text[end].isspace() or text[end] in ",;:"):
                end += 1  # "Hello,, my mother ...": a doubled comma goes too (round 34)
            word = doc.word_at(end)
            if word is not None and word.lower in lex.opening_coordinators:
                after = _skip_space(text, word.end + (text[word.end : word.end + 1] == ","))
                if after > word.end:  # "and thank", "so, I", never "andrew"
                    end, word = after, doc.word_at(after)
            if word is not None and word.start == end:
                yield capital_edit(doc, 0, end, name, lex.acronyms)
            elif end < len(text):
                yield Edit(0, end, "", name)
            return


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


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
    """Insert a word before adjectives ("was late" -> "was somewhat late"); with
    ``after_copula``, only predicative ones: an attributive adjective may head a fixed
    expression ("the late fee" never becomes "the totally late fee")."""
    if not choices:
        return
    linking = lex.word_classes["linking_verbs"]
    idioms = lex.claim_set("stance_idioms")
    for word in doc.words(adjectives):
        prev = doc.prev_word(word.start)
        if prev is None or prev.lower in lex.degree_words:
            continue
        if after_copula and prev.lower not in linking:
            continue
        if _negated_clause(doc, lex, word):
            continue  # "I wasn't happy" never "wasn't so happy": the degree denied changes
        nxt = doc.next_word(word.end)
        if nxt is not None and nxt.lower in ("that", "to", "as"):
            continue  # "so concerned that" is a result clause, not an intensifier
        if word.lower in idioms and doc.lowered.endswith("to be ", 0, word.start):
            continue  # "to be fair" is a stance idiom, never "to be so fair" (round 19)
        limits = lex.intensifier_limits
        fits = tuple(c for c in choices if word.lower in limits.get(c.lower(), (word.lower,)))
        if fits:  # "literally" only before an extreme adjective: never "literally good"
            yield Edit(word.start, word.start, CHOICE + " ", name, fits)


# Where a clause begins inside a sentence: a clause mark or a conjunction.
_CLAUSE_START = re.compile(
    r"[,;:]| (?:and|but|because|so|while|although|though|if|when|which|that) "
)


def _negated_clause(doc: Doc, lex: RulesLexicon, word: Word) -> bool:
    """Whether a negator stands earlier in the clause of ``word`` ("I was not happy",
    "do not think he is excellent"): a degree word put there sets the degree denied, and
    "not so happy" is a litotes, a weaker denial than "not happy" (a property test found
    "do not he is so excellent" read as a changed negation)."""
    begin = doc.sentence_around(word.start)[0]
    clause = _CLAUSE_START.split(doc.lowered[begin : word.start])[-1]
    negators = lex.word_classes["negators"]
    return any(w in negators or w.endswith("n't") for w in re.findall(r"[a-z']+", clause))


# A further clause of the writer after a comma ("..., I don't job-hop, and I ...").
_MORE_CLAUSES = re.compile(r",\s*(?:and\s+|but\s+)?(?:i|i'm|i've|i'd|we|we're)\b")


def _intensifier(name: str, style: str, doc: str) -> None:
    @operator(name, "emphasis", "words", doc=doc)
    def propose(text: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        return _before_adjective(
            text,
            lex,
            rng,
            lex.intensifiers(style),
            name,
            adjectives=lex.emotive_adjectives,
            after_copula=True,
        )


for _name, _kind, _what in (
    ("intensify.v1", "general", "General intensifiers"),
    ("intensify_young.v1", "young", "Young intensifiers"),
    ("intensify_older.v1", "older", "The intensifier of older writers"),
):
    _intensifier(_name, _kind, f"{_what} before emotive adjectives (very / super frustrated).")


def _remove_before_adjective(
    doc: Doc, lex: RulesLexicon, words: frozenset[str], name: str
) -> Iterator[Edit]:
    """Delete an intensifier before an adjective, but never a "so" that is no intensifier
    (see :func:`_structural_so`)."""
    for word in doc.words(words):
        nxt = doc.next_word(word.end)
        if nxt is None or nxt.lower not in lex.adjectives or doc.is_sentence_start(word.start):
            continue
        if _negated(doc, lex, word):
            continue  # "not very experienced" -> "not experienced" changes the degree
        if word.lower == "so" and _structural_so(doc, lex, word, nxt):
            continue
        if _restated(doc, word, nxt):
            continue
        yield Edit(word.start, nxt.start, "", name)


def _restated(doc: Doc, word: Word, adjective: Word) -> bool:
    """Whether ``adjective`` repeats one said earlier in its sentence, so the intensifier
    is the whole point of saying it again ("good at one thing, really good": without
    "really" the restatement says nothing; round 22 judgement, MEANING)."""
    begin = doc.sentence_around(word.start)[0]
    earlier = re.findall(r"[\w']+", doc.lowered[begin : word.start])
    return adjective.lower in earlier


# Punctuation before "so" that makes it the conjunction: "..., so sorry if ...".
_CLAUSE_PUNCTUATION = frozenset(",;:(\u2013\u2014-")
# "that" or "as to" later in the sentence completes "so ADJ ... that/as to".
_RESULT_LINK = re.compile(r"(?<![\w'])(?:that|as to)(?![\w'])")


def _links_predicate(word: str, lex: RulesLexicon) -> bool:
    """Whether ``word`` (lower case) can stand right before a predicative "so ADJ": a
    copula or linking verb, a contracted one ("I'm", "it's", "they're"), an adverb
    that goes between ("also", "still") or a coordinator of predicatives ("and so
    annoyed"; word_classes.yaml ``linking_verbs`` and ``between_copula``)."""
    word = word.replace("’", "'")
    classes = lex.word_classes
    return (
        word in classes["linking_verbs"]
        or word in classes["between_copula"]
        or word.endswith(("'m", "'s", "'re"))
    )


def _structural_so(doc: Doc, lex: RulesLexicon, word: Word, adjective: Word) -> bool:
    """Whether "so" before ``adjective`` is no removable degree word, so deleting it breaks
    the sentence (heldout19-dev edit judgement, UNGRAMMATICAL): the conjunction after a
    comma ("I'm not sure who is right, so sorry if ..."), a discourse marker (a "so" not
    after a copula or linking verb: "ok so quick question"), or the degree word of a
    result construction, whose "that" may follow the adjective's complement ("so excited
    about the concept that I skipped ...") or be left out after a subject pronoun ("so
    tired I fell asleep"; Quirk et al. 1985, sec. 15.48: so ... that result clauses,
    "that" omissible)."""
    before = doc.text[: word.start].rstrip()
    if before and before[-1] in _CLAUSE_PUNCTUATION:
        return True
    prev = doc.prev_word(word.start)
    if prev is None or not _links_predicate(prev.lower, lex):
        return True  # "ok so quick question": a discourse marker, not a degree word
    after = doc.next_word(adjective.end)
    if after is not None and after.lower in lex.word_classes["pronoun_subjects"]:
        return True
    _, stop = doc.sentence_around(word.start)
    return _RESULT_LINK.search(doc.lowered, adjective.end, stop) is not None


def _negated(doc: Doc, lex: RulesLexicon, word: Word) -> bool:
    """Whether an intensifier stands in the scope of a negator ("not very", "isn't really",
    "never too"): there it sets the degree that is denied, and deleting it changes the
    claim ("I am not very experienced" -> "I am not experienced"; hedgefix3 judgement)."""
    prev = doc.prev_word(word.start)
    negators = lex.word_classes["negators"]
    return prev is not None and (prev.lower in negators or prev.lower.endswith("n't"))


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
        # claims.yaml ``not_inserted``: cues removed but never put at a sentence start
        kept = lex.claim_set("not_inserted")
        choices = tuple(c for c in lex.insertions(slot, direction) if c not in kept)
        for edit in _sentence_marker(text, lex, rng, choices, name, comma=comma, claims_only=True):
            if direction == "hedged" and _hedge_refused(text, lex, edit.start):
                continue  # "I think this is not acceptable": the complaint's point
            if direction == "confident" and _intensified(text, lex, edit.start):
                continue  # "I am confident that this is really poor service": stilted
            if not coordinated_claims(text, lex, edit.start):
                continue  # "Arguably, it led to X and the client later restated"
            if in_concession(text, lex, edit.start):
                continue  # "Undoubtedly, the lectures are okay, i'll give them that"
            sentence = _sentence_of(text, edit.start)
            if _AFTERTHOUGHT.search(sentence):
                continue  # "Undoubtedly, he wasn't wrong, actually": a stance is there
            if _ALTERNATIVE.search(sentence):
                continue  # "The commute would be an hour each way or I'd move": a plan
            if direction == "hedged" and _STILL_STATE.search(sentence):
                continue  # "The construction is still incomplete": a state observed
            fits = _other_stems(edit.options, _sentence_of(text, edit.start))
            if fits:
                yield edit._replace(options=fits)


# A stance adverb added after the clause ("He wasn't wrong, actually."): the writer's own
# comment on the claim, with which a sentence cue clashes ("Undoubtedly, he wasn't wrong,
# actually": heldout54 edit judgement, IMPLAUSIBLE; "Arguably, ..." was judged redundant).
_AFTERTHOUGHT = re.compile(r", (?:actually|really|honestly|though|to be fair)\s*[.!?]?\s*$")


# An evidential adjective before its noun ("This is clear mis-selling", "an obvious
# error"): it boosts the noun, and "sort of clear mis-selling" contradicts itself
# (round 51 judgement, IMPLAUSIBLE); "the letter is clear" still grades.
_EVIDENT_BEFORE_NOUN = re.compile(r"\s*(?:clear|obvious|plain|evident|blatant)\s+[a-z]")
# A frame that itself asserts ("It is quite clear that these were added without my
# consent"): a hedge inside it contradicts it (heldout53h hedge reading, IMPLAUSIBLE).
_EVIDENT_FRAME = re.compile(r"\b(?:clear|obvious|evident|certain|plain)\s+that\b")
# The writer's own alternative ("... or I'd move", "otherwise we will cancel"): the
# sentence states a condition of the writer's plan, and a cue on it doubts or asserts the
# condition ("I know that the commute would be an hour each way or I'd move", "Perhaps,
# the commute would be ..."; heldout56 edit judgement, IMPLAUSIBLE and MEANING).
_ALTERNATIVE = re.compile(r"\b(?:or|otherwise|else)\s+(?:i|we)(?:'d|'ll|\s+would|\s+will)\b")
# A state still holding ("The construction is still incomplete"): what the writer sees,
# which "I feel that" turns into an opinion (heldout56 edit judgement, MEANING).
_STILL_STATE = re.compile(r"\b(?:is|are|was|were|remains?|remained)\s+still\b")


def _hedge_refused(doc: Doc, lex: RulesLexicon, offset: int) -> bool:
    """Whether the sentence at ``offset`` refuses or accepts outright, where a sentence or
    clause hedge turns the writer's point absurd: a refusal ("this is not acceptable") or
    what they will accept ("A rough breakdown is fine"; claims.yaml
    ``acceptance_predicates``; "is possibly fine": round 31 judgement, MEANING)."""
    if refusal(doc, lex, offset):
        return True
    return _acceptance_pattern(lex).search(_sentence_of(doc, offset)) is not None


@functools.cache
def _acceptance_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    words = alternation(lex.claims["acceptance_predicates"])
    return re.compile(rf"\b(?:is|are|would be|will be|'s)\s+(?:[a-z]+\s+)?(?:{words})\b")


def _intensified(
    doc: Doc, lex: RulesLexicon, offset: int, heads: frozenset[str] | None = None
) -> bool:
    """Whether the sentence at ``offset`` already intensifies an evaluation ("really poor
    service", "extremely rude"): the writer's emphasis is there, and a confidence frame
    on top reads stilted ("I am confident that this is really poor service ...": round 28
    judgement, IMPLAUSIBLE), also across a "not" ("Undeniably, this is really not
    acceptable": heldout46h hedge reading, IMPLAUSIBLE). ``heads`` widens what counts as
    intensified (any adjective for a self-evaluation: "I am very patient")."""
    words = [w for w in _sentence_of(doc, offset).split() if w != "not"]
    judged = _judged_words(lex) if heads is None else heads
    return any(
        a in lex.all_intensifiers and b.strip(",.!?;:") in judged
        for a, b in itertools.pairwise(words)
    )


@functools.cache
def _judged_words(lex: RulesLexicon) -> frozenset[str]:
    """Evaluative and gradable words (claims.yaml), built once per lexicon."""
    return lex.claim_set("evaluative") | lex.claim_set("gradable")


def _sentence_of(doc: Doc, offset: int) -> str:
    """The lower-case sentence around ``offset``."""
    begin, stop = doc.sentence_around(offset)
    return doc.lowered[begin:stop]


def _other_stems(choices: tuple[str, ...], sentence: str) -> tuple[str, ...]:
    """The cues whose stem the sentence does not already hold: never "The policy is
    clearly clear" or "Obviously, that is obvious" (twelfth hedge pass reading)."""
    words = sentence.split()

    def repeats(cue: str) -> bool:
        stem = cue.lower().removesuffix("ly")
        return len(stem) > 3 and any(stem in word for word in words)

    return tuple(c for c in choices if not repeats(c))


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
        doc=f"{label} word before a gradable evaluative adjective after a copula, in a "
        "claim sentence (the fee is somewhat / extremely excessive); never on a categorical "
        "one (late, closed), where a degree word changes the fact.",
    )
    def adjective(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        for edit in _before_adjective(
            doc,
            lex,
            rng,
            tuple(
                c
                for c in lex.insertions("pre_adjective", direction)
                if c not in lex.claim_set("not_inserted")
            ),
            f"{prefix}_adjective.v1",
            adjectives=lex.claim_set("gradable"),
            after_copula=True,
        ):
            if direction == "hedged" and refusal(doc, lex, edit.start):
                continue  # "this is somewhat unacceptable": the complaint's point
            if _in_condition(doc, lex, edit.start):
                continue  # "O(n) if the hash is poor": a degree word moves the condition
            if _EVIDENT_BEFORE_NOUN.match(doc.lowered, edit.end):
                continue  # "This is clear mis-selling": "clear" there is a booster
            if in_claim(doc, lex, edit.start) and not stance_elsewhere(
                doc, lex, edit.start, edit.start
            ):
                # spanned from the sentence start, so it clashes with a cue at the start
                # or in the clause: never "I think the fee is somewhat unfair"
                begin = doc.sentence_around(edit.start)[0]
                head = doc.text[begin : edit.start]
                yield edit._replace(start=begin, replacement=head + edit.replacement)

    @operator(
        f"{prefix}_self.v1",
        family,
        "words",
        doc=f"{label} first-person frame before an interview self-evaluation (I think / "
        "I know I am a strong leader); never on feelings, facts or plans (see "
        "guisekit.rules.claims.self_evaluations).",
    )
    def self_frame(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        choices = lex.insertions("self_clause", direction)
        if not choices:
            return
        for start in self_evaluations(doc, lex):
            if opens_with_cue(doc, lex, start) or stance_elsewhere(doc, lex, start, start):
                continue
            if direction == "confident" and _intensified(doc, lex, start, lex.adjectives):
                # "I am confident I am very patient with people": the writer's emphasis is
                # there, and a frame on top reads clumsy (heldout51h, IMPLAUSIBLE)
                continue
            if _MORE_CLAUSES.search(doc.lowered, start, doc.sentence_around(start)[1]):
                # "I am confident I'm reliable, I don't job-hop, and I love this work": the
                # frame would govern the writer's facts too (heldout23 and heldout25h
                # judgements, MEANING)
                continue
            # "I" keeps its capital after the frame: "I think I am ..."; "My" loses it:
            # "I think my biggest strength is ..."
            my = doc.text.startswith("My ", start)
            replacement = CHOICE + (" m" if my else " ")
            yield Edit(start, start + my, replacement, f"{prefix}_self.v1", _capitalised(choices))

    @operator(
        f"{prefix}_auxiliary.v1",
        family,
        "words",
        doc=f"{label} adverb inside a claim's main clause, after its first auxiliary or "
        "copula or before its conduct or causal verb (the fee is probably / clearly wrong; "
        "they probably ignored my request); see guisekit.rules.claims.adverb_slots.",
    )
    def auxiliary(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        choices = lex.insertions("mid_clause", direction)
        if not choices:
            return
        text = doc.text
        name = f"{prefix}_auxiliary.v1"
        # The edit spans the clause from its first word to the slot, so it clashes with
        # a cue at the sentence start or before the adjective: one cue per claim, never
        # "Perhaps, the fee is probably somewhat unfair".
        for start, at in adverb_slots(doc, lex):
            if stance_elsewhere(doc, lex, start, start):
                continue  # "the charge probably seems wrong", "is probably clearly"
            if direction == "hedged" and _hedge_refused(doc, lex, start):
                continue  # "this is possibly not acceptable": the complaint's point
            if _EVIDENT_FRAME.search(_sentence_of(doc, start)):
                continue  # "It is probably quite clear that ...": a frame that asserts
            head = text[start:at]
            fits = _other_stems(choices, _sentence_of(doc, start))
            if not fits:
                continue
            if text[at : at + 1] == " ":  # after an auxiliary: "is" + " probably "
                yield Edit(start, at + 1, head + " " + CHOICE + " ", name, fits)
            else:  # before a verb: "probably " + "ignored"
                yield Edit(start, at, head + CHOICE + " ", name, fits)

    @operator(
        f"{prefix}_modal.v1",
        family,
        "words",
        doc="Retired (proposes nothing): a cue after I/we + modal (will try to / will "
        "definitely) qualifies the writer's own plan or request (issue 13).",
        retired=True,
    )
    def modal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        return iter(())


_HAVE = frozenset({"have", "had", "'ve"})


@operator("hedge_vague.v1", "hedge", "words")
def hedge_vague(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """The vague quantifier "some" before a competence noun the writer says they have ("I
    have experience with SQL" -> "I have some experience with SQL"; Channell 1994, the
    hedge of real interview answers). Only directly after "I have" / "I've" / "I had"
    and before a complement ("with", "in", "of", "to"): "my experience was" or "the
    experience" stay, and no quantity is touched."""
    mass = lex.claim_set("mass_nouns")
    complements = lex.word_classes["competence_complements"]
    for word in doc.words(mass):
        prev, nxt = doc.prev_word(word.start), doc.next_word(word.end)
        if prev is None or nxt is None or nxt.lower not in complements:
            continue
        subject = doc.prev_word(prev.start)
        have = prev.lower in _HAVE or prev.lower == "i've"
        if figure_in_sentence(doc, lex, word.start):
            continue  # "experience in SAP FICO, total 6 years": the amount is stated
        if have and (prev.lower == "i've" or (subject is not None and subject.lower == "i")):
            yield Edit(word.start, word.start, "some ", "hedge_vague.v1")


@operator("remove_inner_hedge.v1", "hedge", "words")
def remove_inner_hedge(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete a first-person epistemic frame inside a sentence, after a conjunction or a
    relative word and before the writer's evaluation ("but I believe the app should ..."
    -> "but the app should ..."); "I think about it", "because I believe in it", "what I
    think is", "but I think that ..." (which would leave "but that ...") and a guess
    about a fact or another's mind ("but I think they wanted ...", "that I believe is
    past ...") stay (claims.yaml inner_frames, mind_verbs)."""
    claims = lex.claims
    before = frozenset(claims["inner_before"])
    auxiliaries = lex.word_classes["frame_followers"]
    followers = auxiliaries | frozenset(claims["subject_starters"])
    for frame in claims["inner_frames"]:
        for start in doc.occurrences(frame.split()[0]):
            end = doc.phrase_end(start, frame)
            if end is None or doc.is_sentence_start(start):
                continue
            prev, nxt = doc.prev_word(start), doc.next_word(end)
            opener = _after_candour(doc, lex, start)  # "Honestly, I think the fee ..."
            if nxt is None or (not opener and (prev is None or prev.lower not in before)):
                continue
            if (
                nxt.lower not in followers
                or nxt.lower == "that"
                or doc.text[end : nxt.start] != " "
            ):
                continue
            if not opener and prev is not None and doc.text[prev.end : start] != " ":
                continue  # "..., I think, ..." is the parenthetical of remove_hedge
            if nxt.lower not in auxiliaries and not clause_after_frame(doc, lex, start, end):
                # "but I feel a bit misled": a feeling, no frame before a clause (an
                # auxiliary next is a relative clause's verb: "that I believe is past")
                continue
            if shield_needed(doc, lex, start, end):
                continue  # "but I think they wanted ...": a guess, not an opinion
            if doubtful(doc, lex, start):
                continue  # "I'm not sure, but I think the fee ...": the doubt stays
            if coordinated_complement(doc, lex, end):
                continue  # "but I think X, and that Y": "and that Y" needs the frame
            if figure_in_clause(doc, lex, end):
                continue  # "which I think is worth about £3,500": an estimate stays one
            edit = Edit(start, nxt.start, "", "remove_inner_hedge.v1")
            if not speculation(doc, lex, edit):
                yield edit  # never on a guess about an event or cause (round 12)


def _in_condition(doc: Doc, lex: RulesLexicon, at: int) -> bool:
    """Whether ``at`` lies in a condition ("The worst case is O(n) if the hash function is
    poor"): a condition opener (word_classes.yaml ``condition_openers``) earlier in the
    sentence with no clause boundary since. A degree word there changes when the claim
    holds, not how sure the writer is ("if the hash function is extremely poor": round 24,
    MEANING)."""
    begin = doc.sentence_around(at)[0]
    head = doc.lowered[begin:at]
    clause = re.split(r"[,;:]", head)[-1].split()
    return not lex.word_classes["condition_openers"].isdisjoint(clause)


def _after_candour(doc: Doc, lex: RulesLexicon, start: int) -> bool:
    """Whether all that precedes ``start`` in its sentence is a candour filler
    ("Honestly,", "To be honest,", "Frankly"; claims.yaml ``candour_fillers``, "I guess"
    aside: a frame after it is the claim's own opener."""
    begin = doc.sentence_around(start)[0]
    head = doc.lowered[begin:start].rstrip(" ,")
    return head != "i guess" and head in lex.claim_set("candour_fillers")


_slots("hedged", "Hedge")
_slots("confident", "Booster")


@operator("hedge_approximator.v1", "hedge", "words", retired=True)
def hedge_approximator(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Retired (proposes nothing): an approximator on a stated figure ("nearly 30 days
    late") changes a fact (Prince et al. 1982: rounders change the proposition; issue 13)."""
    return iter(())


@operator("article_drop.v1", "l2_marker", "words")
def article_drop(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Drop the articles the/a/an (a written second-language marker), never the article
    of an idiom or a rate ("a lot", "on the inside", "once a month", "$50 a month"):
    that article is part of a fixed expression, and dropping it reads as broken rather
    than as an accent (l2_markers.yaml article_keep); nor the article of a noun whose
    bare use has another sense ("I like the company" -> "I like company": companionship;
    article_keep_nouns)."""
    kept = phrase_spans(doc, lex.article_keep)
    for word in doc.words(_ARTICLES):
        nxt = doc.next_word(word.end)
        if nxt is None or any(s <= word.start < e for s, e in kept):
            continue
        if nxt.lower in lex.article_keep_nouns:
            continue
        if word.lower != "the" and _rate_article(doc, lex, word, nxt.lower):
            continue
        if word.text == "A" and _label(doc, word, nxt):
            continue
        if doc.is_sentence_start(word.start):
            yield capital_edit(doc, word.start, nxt.start, "article_drop.v1", lex.acronyms)
        else:
            yield Edit(word.start, nxt.start, "", "article_drop.v1")


def _label(doc: Doc, article: Word, nxt: Word) -> bool:
    """Whether a capital "A" is a label or part of a name, not an article: mid-sentence
    ("Company A pays more", "Option A: ...", "Plan A is"), or at a sentence start before a
    capitalised word ("A Smith called"). Dropping it deletes the referent (hedgefix3
    judgement)."""
    if nxt.text.isupper() and len(nxt.text) > 1:
        return False  # text in capitals ("THE BANK CHARGED A FEE")
    if not doc.is_sentence_start(article.start):
        return True
    return nxt.text[:1].isupper()


# A figure right before a point: "€180,000 ", "50k ", "$1.5m ".
_AMOUNT_BEFORE = re.compile(r"\d[\d,.]*(?:[km]|mn|bn|lakhs?|crores?)?\s+$", re.IGNORECASE)


def _rate_article(doc: Doc, lex: RulesLexicon, article: Word, following: str) -> bool:
    """Whether "a"/"an" is the article of a rate: after a frequency word or a unit
    ("twice a week", "ten dollars a month", "8 hours a day"), or before a period noun
    after a figure ("$50 a month")."""
    prev = doc.prev_word(article.start)
    if prev is not None and prev.lower in lex.article_keep_after:
        return True
    # an amount is no word of the doc ("€180,000 a quarter": round 25, UNGRAMMATICAL),
    # so a figure is read from the text itself
    near = max(0, article.start - 32)
    figure = _AMOUNT_BEFORE.search(doc.text, near, article.start) is not None or (
        prev is not None and prev.lower in lex.word_classes["number_words"]
    )
    return figure and following in lex.period_nouns
