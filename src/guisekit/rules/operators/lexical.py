"""Word- and phrase-level swaps: register, spelling, regional vocabulary,
connectives, request frames, modals and written second-language markers."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterable, Iterator

from guisekit.rules.claims import (
    doubtful,
    evaluates,
    figure_in_clause,
    in_claim,
    in_statement,
    reported,
    request_sentence,
    stance_elsewhere,
)
from guisekit.rules.doc import Doc, Word, match_case
from guisekit.rules.edits import Edit
from guisekit.rules.lexicon import PhraseMap, RulesLexicon, alternation
from guisekit.rules.operators.base import map_edits, operator, phrase_spans
from guisekit.rules.operators.certainty import (
    about_the_writer,
    clause_after_frame,
    complementiser_ok,
    coordinated_complement,
    firm_evidentials,
    firm_negated_frames,
    in_concession,
    inner_boosters,
    shield_needed,
    speculation,
)
from guisekit.rules.operators.clause_start import opens_clause

# The word classes these operators test words against (determiners, prepositions,
# subjects, auxiliaries) are data: lexicons/rules/word_classes.yaml, read through
# ``lex.word_classes``; stance words are claims.yaml's (``lex.claims``).
_EPISTEMIC = frozenset({"be", "have", "been"})


@functools.cache
def _kind_noun(lex: RulesLexicon) -> frozenset[str]:
    """Words before which "kind of" / "sort of" is the noun of a type ("the kind of role",
    "what sort of fee"), not the adaptor hedge ("kind of late"): word_classes.yaml
    ``determiners`` and ``kind_noun_determiners``."""
    classes = lex.word_classes
    return classes["determiners"] | classes["kind_noun_determiners"]


def with_article(doc: Doc, edits: Iterable[Edit]) -> Iterator[Edit]:
    """Keep "a"/"an" right when a swap or a deletion changes the sound the next word
    starts with ("a fairly unreasonable way" -> "an unreasonable way", never "a
    unreasonable": heldout23h hedge reading, UNGRAMMATICAL)."""
    for edit in edits:
        prev = doc.prev_word(edit.start)
        if prev is not None and prev.lower in ("a", "an"):
            following = edit.replacement or doc.text[edit.end :]  # a deletion: what is left
            wanted = "an" if following[:1].lower() in "aeiou" else "a"
            if wanted != prev.lower:
                article = match_case(prev.text, wanted)
                yield Edit(prev.start, edit.end, f"{article} {edit.replacement}", edit.operator)
                continue
        yield edit


def fixed_spans(doc: Doc, lex: RulesLexicon) -> list[tuple[int, int]]:
    """Where the lexicon's fixed expressions stand in ``doc`` (cached on the doc)."""
    key = ("fixed_expressions", lex)
    spans = doc.proposals.get(key)
    if spans is None:
        spans = phrase_spans(doc, lex.fixed_expressions)
        doc.proposals[key] = spans
    return spans


def swap_allowed(doc: Doc, lex: RulesLexicon, start: int, end: int) -> bool:
    """Preconditions every word swap shares: not inside a fixed expression ("under
    review", "utility bill") and not a capitalised word mid-sentence (a name: "Fair
    Credit Reporting Act")."""
    if any(s < end and start < e for s, e in fixed_spans(doc, lex)):
        return False
    word = doc.text[start:end].split(" ", 1)[0]
    shouting = len(word) > 1 and word.isupper()
    pronoun = word == "I" or word.startswith(("I'", "I’"))
    return pronoun or not (word[:1].isupper() and not shouting and not doc.is_sentence_start(start))


_CONTENT_ROWS = frozenset({"adj", "adv", "noun", "verb"})


def echoes(doc: Doc, start: int, value: str, pos: str | None) -> bool:
    """Whether a one-word content swap (an adjective, adverb, noun or verb row) would
    repeat a word its sentence already holds ("I'm currently at home now" never "I'm now
    at home now"; heldout19-dev edit reading). Function words recur freely ("regarding a
    fee to ask about it" -> "about a fee"). Only the register and simplification swaps
    ask: a normalisation ("u" -> "you") or a correction happens whatever else is there."""
    word = value.strip().lower()
    if pos not in _CONTENT_ROWS or not word.isalpha():
        return False
    begin, stop = doc.sentence_around(start)
    return any(begin <= at < stop for at in doc.occurrences(word))


def _passive(doc: Doc, lex: RulesLexicon, start: int, verb: str) -> bool:
    """Whether the participle ``verb`` at ``start`` is passive: a be-form within the four
    words before it ("been looked into", "be reopened and looked into properly")."""
    if not (verb.endswith("ed") or verb in lex.participles):
        return False
    classes = lex.word_classes
    word = doc.prev_word(start)
    for _ in range(4):
        if word is None or word.lower in classes["wh_before"] or word.lower in classes["subjects"]:
            return False  # an active clause: "something I thought about again"
        if word.lower in classes["passive_be"]:
            return True
        word = doc.prev_word(word.start)
    return False


def _object_follows(doc: Doc, lex: RulesLexicon, start: int, end: int) -> bool:
    """Whether a noun-phrase object stands right after the particle or preposition that
    ends ``start:end``: no punctuation between, not an adverbial ("a lot", "often",
    "again"), and no fronted wh-object just before the verb ("what I think about the
    fee": "what" is the object, so "consider" would take "the fee")."""
    classes = lex.word_classes
    nxt = doc.next_word(end)
    if nxt is None or doc.text[end : nxt.start] != " ":
        return False
    if nxt.lower in classes["not_object"] or nxt.lower.endswith("ly"):
        return False
    if nxt.lower in ("a", "an"):
        after = doc.next_word(nxt.end)
        if after is not None and after.lower in classes["degree_nouns"]:
            of = doc.next_word(after.end)
            if of is None or of.lower != "of" or after.lower in ("while", "bit"):
                return False
    word = doc.prev_word(start)
    for _ in range(3):
        if word is None:
            break
        if word.lower in classes["wh_before"]:
            return False
        word = doc.prev_word(word.start)
    if nxt.lower in classes["determiners"] or nxt.lower in classes["object_starts"]:
        return True
    return nxt.lower not in lex.function_words


def _joined(doc: Doc, end: int) -> Word | None:
    """The word after ``end`` when only one space stands between (no punctuation)."""
    nxt = doc.next_word(end)
    return nxt if nxt is not None and doc.text[end : nxt.start] == " " else None


def phrasal_particle(doc: Doc, lex: RulesLexicon, end: int) -> bool:
    """Whether the one-word verb that ends at ``end`` is part of a phrasal verb, so a one-word
    swap would strand its particle ("buy out the notice" never "purchase out the
    notice"; issue 13 judgement, UNGRAMMATICAL): a particle right after it (one that is
    also a preposition only when no determiner or figure follows: "said in the email"
    still swaps), or an ``after_object`` particle after a pronoun ("buy it back") or a
    noun phrase of up to four words ("buy the remaining notice out"). particles.yaml.
    Rows that hold their particle ("found out" -> "discovered") are matched whole and
    not asked: "found out the fee went up" keeps its swap."""
    particles, classes = lex.particles, lex.word_classes
    kind_noun = _kind_noun(lex)  # determiners and the other words before a noun
    nxt = _joined(doc, end)
    if nxt is None:
        return False
    if nxt.lower in particles["adjacent"]:
        if nxt.lower not in particles["prepositions"]:
            return True
        after = _joined(doc, nxt.end)
        opens_phrase = after is not None and (after.lower in kind_noun or after.lower[:1].isdigit())
        return not opens_phrase
    if nxt.lower in classes["object_pronouns"]:
        after = _joined(doc, nxt.end)
        return after is not None and after.lower in particles["after_object"]
    if nxt.lower not in kind_noun:
        return False
    stops = classes["subjects"] | classes["object_stops"]  # the next clause or phrase
    word = nxt
    for _ in range(3):
        following = _joined(doc, word.end)
        if following is None or following.lower in stops:
            return False
        if following.lower in particles["after_object"]:
            return True
        word = following
    return False


def _reported_question(doc: Doc, lex: RulesLexicon, end: int) -> bool:
    """Whether "tell"/"told" is followed (after at most one object word) by "to" or a
    wh-word: "inform" cannot take those ("informed me to call" is not English)."""
    wh_or_to = lex.word_classes["wh_or_to"]
    nxt = doc.next_word(end)
    if nxt is None:
        return False
    if nxt.lower in wh_or_to:
        return True
    after = doc.next_word(nxt.end)
    return after is not None and after.lower in wh_or_to


# Targets that take no infinitive complement where their source does: "chose to leave",
# "make sure to call", "said to wait" never "selected to leave", "ensure to call",
# "stated to wait" (issue 13 judgement, UNGRAMMATICAL).
_NO_TO_INFINITIVE = ("select", "ensur", "stat")
_ASSIST_OBJECT_END = frozenset({"with", "in", "on"})
_CLAUSE_STOP = re.compile(r"[,.;:!?()\"]| (?:and|but|or|so|because|when|while) ")


def _valency_clash(doc: Doc, lex: RulesLexicon, end: int, value: str) -> bool:
    """Whether the complement after ``end`` fits the source verb but not ``value``.
    "help" takes a bare or to-infinitive, alone or after an object ("helped her find
    them", "helped to fix it"); "assist" takes only an object and "with"/"in" ("assisted
    her with the forms"), so assist fires only before "with"/"on" or "in" and a gerund
    within four words, or before the clause's end after at most two object words
    ("helped the customer."). "agree with" also settles a matter with someone ("agreed
    with her which ..."), which "concur with" cannot say: no concur before a wh-word or
    "to" in the clause.
    """
    nxt = _joined(doc, end)
    if value.startswith(_NO_TO_INFINITIVE):
        return nxt is not None and nxt.lower == "to"
    tokens = _CLAUSE_STOP.split(doc.lowered[end:], maxsplit=1)[0].split()
    if value.startswith("concurr"):
        # "agreed with the solicitor which documents were essential" settles something
        # with someone; "concur with" only shares a view (heldout15 edits, issue 13)
        return any(t in lex.word_classes["wh_or_to"] for t in tokens[:8])
    if not value.startswith("assist"):
        return False
    for i, token in enumerate(tokens[:4]):
        # "in" is assist's only before a gerund ("assisted her in finding"), not a place
        # ("helping a nonprofit in Portland rebuild" never "assisting ...")
        gerund = i + 1 < len(tokens) and tokens[i + 1].endswith("ing")
        if token in _ASSIST_OBJECT_END and (token != "in" or gerund):
            return False
        if token == "to":
            return True
    return len(tokens) > 2


def _unintended_after_deliberate(
    doc: Doc, lex: RulesLexicon, start: int, end: int, value: str
) -> bool:
    """Whether ``value`` is a formal form of deliberate choice ("wish to") and the
    infinitive after ``end`` an outcome nobody chooses ("blow the offer", "miss the
    deadline"; one -ly adverb may stand between), or, after a negation, one that is
    unintended only there ("don't want to lose the offer", but "want to lose weight"):
    "wish" says the writer would not do it on purpose, where "want" said they fear it
    happening (register_context.yaml)."""
    context = lex.register_context
    if value.strip() not in context["deliberate"]:
        return False
    verb = doc.next_word(end)
    if verb is not None and verb.lower.endswith("ly"):
        verb = doc.next_word(verb.end)
    if verb is None:
        return False
    if verb.lower in context["unintended"]:
        return True
    negated = _NEGATED_BEFORE.search(doc.lowered, max(0, start - 30), start) is not None
    return negated and verb.lower in context["unintended_when_negated"]


# A negation just before a verb, one -ly adverb allowed ("don't really want to").
_NEGATED_BEFORE = re.compile(r"(?:n't|\bnot|\bnever)(?: [a-z]+ly)? $")


def _sense_changes(doc: Doc, lex: RulesLexicon, start: int, end: int, value: str) -> bool:
    """Whether ``value`` in place of ``start:end`` says something else or is no English
    there (register_context.yaml): a form listed under ``not_before`` before one of its
    words ("what happened with X" never "what occurred with X"), under ``not_after``
    within two words after one of its words ("cause trouble" never "cause
    difficulty"), one under
    ``only_before`` before any other word ("an easy time" never "a straightforward
    time"), a ``judging_only``
    adjective after a verb of feeling ("I felt terrible" never "I felt appalling"), or a
    ``clause_final_only`` adverbial anywhere but before punctuation, the end or a
    coordinator ("My manager immediately offered" never "right away offered")."""
    context = lex.register_context
    nxt = _joined(doc, end)
    if nxt is not None and nxt.lower in lex.register_not_before.get(value, ()):
        return True
    after = lex.register_not_after.get(value, frozenset())
    before = doc.prev_word(start)
    for _ in range(2):  # "cause trouble", "cause any trouble"
        if before is None:
            break
        if before.lower in after:
            return True
        before = doc.prev_word(before.start)
    only = lex.register_only_before.get(value)
    if only is not None and (nxt is None or nxt.lower not in only):
        return True
    if value in context["judging_only"]:
        word = doc.prev_word(start)
        for _ in range(3):
            if word is None:
                break
            if word.lower in context["feeling_verbs"]:
                return True
            word = doc.prev_word(word.start)
    if value in context["clause_final_only"]:
        rest = doc.text[end:].lstrip()
        if rest and (rest[0].isalnum() or rest[0] in "$₹£€"):
            return nxt is None or nxt.lower not in context["clause_final_followers"]
    return False


@functools.cache
def _said_clause(lex: RulesLexicon) -> re.Pattern[str]:
    """A finite verb, "that" (word_classes.yaml ``said_clause_words``) or "n't" in what
    follows "said": a clause that "stated" can take."""
    words = alternation(lex.word_classes["said_clause_words"])
    return re.compile(r"\b(?:" + words + r")\b|n't\b")


_CLAUSE_STOP = re.compile(r"[.,;:!?\n]")


def _clause_rest(doc: Doc, end: int) -> str:
    """The rest of the clause after ``end`` (to the next punctuation), lower-case."""
    return _CLAUSE_STOP.split(doc.lowered[end:], maxsplit=1)[0]


def _register_accept(doc: Doc, lex: RulesLexicon) -> Callable[[int, int, str], bool]:
    """A register swap fires only in the part of speech its row names: a verb row not after
    a determiner or possessive ("my purchase" is a noun), a noun row not after "to", a
    subject pronoun or a modal ("to request" is a verb)."""
    pos_of = lex.register_pos
    classes = lex.word_classes
    determiners, object_starts = classes["determiners"], classes["object_starts"]
    object_prepositions = _object_prepositions(lex)

    def accept(start: int, end: int, value: str) -> bool:
        pos = pos_of.get(doc.lowered[start:end])
        if not swap_allowed(doc, lex, start, end) or echoes(doc, start, value, pos):
            return False
        word = doc.text[start:end]
        if 1 < len(word) <= 3 and word.isupper():
            return False  # an abbreviation: "LED TV" never "LED TELEVISION" (round 9)
        if _sense_changes(doc, lex, start, end, value.strip().lower()):
            return False
        prev = doc.prev_word(start)
        if pos == "verb":
            one_word = " " not in doc.lowered[start:end].strip()
            if one_word and phrasal_particle(doc, lex, end):
                return False  # "buy out", "buy it back": never "purchase out"
            nxt = doc.next_word(end)
            matched = doc.lowered[start:end].split()
            phrasal = matched[-1] in classes["phrasal_particles"] and " " not in value.strip()
            # a one-word verb for a phrasal verb with a particle (which can stand without
            # its object) needs the object: "the day I found out." / "I found out when
            # ..." never "I discovered." / "discovered when".
            opens_object = nxt is not None and (
                nxt.lower in determiners or nxt.lower in object_starts
            )
            if phrasal and not opens_object:
                return False
            # A prepositional verb ("think about" -> "consider") needs its object right
            # after the preposition: not stranded ("what I think about a lot" never
            # "what I consider a lot"; held-out edit judgement), except in the passive
            # ("been looked into" -> "been investigated").
            prepositional = matched[-1] in classes["prepositions"] and " " not in value.strip()
            passive = prepositional and _passive(doc, lex, start, matched[0])
            if (
                (phrasal or prepositional)
                and not passive
                and not _object_follows(doc, lex, start, end)
            ):
                return False
            # and the other way: a one-word verb used without its object ("a human to
            # investigate and either find it") never becomes a verb that needs one ("to
            # look into and"; round 22 judgement, UNGRAMMATICAL)
            ends_in = value.strip().lower().split()
            needs_object = (
                len(matched) == 1 and len(ends_in) > 1 and ends_in[-1] in classes["prepositions"]
            )
            if (
                needs_object
                and not _passive(doc, lex, start, matched[0])
                and not _object_follows(doc, lex, start, end)
            ):
                return False
            if value.lower().startswith("inform") and _reported_question(doc, lex, end):
                return False  # "told me to call", "tell them what" take no "inform"
            if _unintended_after_deliberate(doc, lex, start, end, value.lower()):
                return False  # "don't want to blow the offer" never "don't wish to blow"
            formulas = lex.register_context["formula_objects"]
            if value.lower().startswith("stat") and nxt is not None and nxt.lower in formulas:
                return False  # "said yes" (agreed) never "stated yes"
            rest = _clause_rest(doc, end)
            if value.lower().startswith("stat") and not _said_clause(lex).search(rest):
                return False  # "She said the dashboard." (an answer) never "stated" (round 19)
            if value.lower().startswith("assist") and not rest.strip():
                return False  # "support helped." never "support assisted." (round 19)
            if (
                value.lower().startswith("consider")
                and prev is not None
                and prev.lower in classes["dwelling"]
            ):
                return False  # "I still think about that batch" (remembers) never "consider"
            if _valency_clash(doc, lex, end, value.lower()):
                return False  # "helping her find them" never "assisting her find them"
            if prev is not None and prev.lower in determiners:
                return False
            if (
                nxt is not None
                and nxt.lower in classes["compound_heads"]
                and _base_form(matched[-1], lex)
            ):
                return False  # "repeat purchase rates": a noun modifier, never "buy rates"
            if (
                prev is not None
                and prev.lower in object_prepositions - {"to"}
                and _base_form(matched[0], lex)
                and _base_form(value.split()[0].lower(), lex)
            ):
                # a base form right after a preposition is a noun ("within 30 days of
                # purchase" never "of buy"); a past form there ends a relative clause with
                # a stranded preposition ("the person I spoke with said")
                return False
            # "a later purchase", "the first purchase": a noun after determiner + modifier
            before = doc.prev_word(prev.start) if prev is not None else None
            return before is None or before.lower not in determiners
        if pos == "noun":
            return prev is None or prev.lower not in classes["verb_context"]
        if pos == "figure":
            return _FIGURE_AHEAD.match(doc.text, end) is not None
        if pos == "adv" and _noun_after_phrase(doc, lex, doc.lowered[start:end].split(), end):
            return False
        if pos == "adv" and prev is not None and prev.lower in object_prepositions:
            # after a preposition the phrase is its noun-phrase object ("a rent credit for
            # every day" never "for daily", "refund for these days" never "for currently")
            return doc.lowered[start:end].split(" ", 1)[0] in object_prepositions
        if value.strip().lower() not in _FREQUENCY_ADJECTIVES:
            return True
        # "Every day same status ..." never "Daily same status", "but every month I get"
        # never "but monthly I get": opening a clause, "daily" or "monthly" reads as an
        # adjective on what follows (round 19 and round 36 judgements, UNGRAMMATICAL)
        nxt = doc.next_word(end)
        return not (
            doc.is_sentence_start(start)
            or (prev is not None and prev.lower in classes["conjunctions"])
            or (nxt is not None and nxt.lower in classes["subjects"])
        )

    return accept


# one-word frequency adverbs that are adjectives too ("a monthly fee")
_FREQUENCY_ADJECTIVES = frozenset({"daily", "weekly", "monthly", "yearly"})


def _noun_after_phrase(doc: Doc, lex: RulesLexicon, matched: list[str], end: int) -> bool:
    """Whether a phrase adverb ends in a word that also modifies a noun
    (register_context.yaml ``modifier_ends``) and runs straight into a content word: it
    is then no adverb ("at present rate" never "at the moment rate"; "at first sight"
    never "initially sight"; round 32 judgement, UNGRAMMATICAL). A function word, a
    subject pronoun, an adjective, an -ly adverb or punctuation after it lets it be."""
    nxt = doc.next_word(end)
    if len(matched) < 2 or matched[-1] not in lex.register_context["modifier_ends"]:
        return False
    if nxt is None or doc.text[end : nxt.start] != " ":
        return False
    word = nxt.lower
    clause_words = lex.function_words | lex.sentence_split.subjects | lex.adjectives
    return not (word in clause_words or word.endswith("ly"))


def _base_form(word: str, lex: RulesLexicon) -> bool:
    """Whether ``word`` is no past, participle or -ing form (so it may be a noun)."""
    return not (word.endswith(("ed", "ing")) or word in lex.participles)


@functools.cache
def _object_prepositions(lex: RulesLexicon) -> frozenset[str]:
    """Prepositions that take the plain side of an adverb row as their object
    (word_classes.yaml ``prepositions`` and ``object_prepositions``)."""
    classes = lex.word_classes
    return classes["prepositions"] | classes["object_prepositions"]


# A figure right after a verb of change, or after to/by/from ("fell to 31%").
_FIGURE_AHEAD = re.compile(r" (?:(?:to|by|from) )?(?:[$₹£€\d]|(?:Rs|INR|USD|AED)\b)")


def _formal_accept(doc: Doc, lex: RulesLexicon) -> Callable[[int, int, str], bool]:
    """The register check of a swap to a formal word, which also keeps it out of a
    sentence marked casual by words no operator removes ("pinged me asking what
    occurred"; round 39 judgement, IMPLAUSIBLE; register_context.yaml ``casual_markers``)."""
    accept = _register_accept(doc, lex)

    def formal(start: int, end: int, value: str) -> bool:
        begin, stop = doc.sentence_around(start)
        if lex.casual_marker.search(doc.lowered[begin:stop]):
            return False
        return accept(start, end, value)

    return formal


@operator("register_up.v1", "register", "words")
def register_up(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Plain word -> sophisticated word of the same part of speech and sense (buy ->
    purchase), only in the directions and contexts its lexicon row allows; a/an kept right."""
    edits = map_edits(doc, lex.register_up, "register_up.v1", accept=_formal_accept(doc, lex))
    return with_article(doc, edits)


@operator("register_up_reversible.v1", "register", "words")
def register_up_reversible(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Plain word -> sophisticated word, only for pairs that swap both ways (buy ->
    purchase, not tell -> inform): the persona version of register_up, which plain and
    simple standardisation undo exactly."""
    edits = map_edits(
        doc,
        lex.register_up_reversible,
        "register_up_reversible.v1",
        accept=_formal_accept(doc, lex),
    )
    return with_article(doc, edits)


@operator("register_down.v1", "register", "words")
def register_down(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Sophisticated word -> plain word (purchased -> bought), only for rows whose plain
    form fits every context of the formal one; a/an kept right."""
    edits = map_edits(doc, lex.register_down, "register_down.v1", accept=_register_accept(doc, lex))
    return with_article(doc, edits)


@operator("connective_formal.v1", "connective", "words")
def connective_formal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Sentence-initial but/so/also -> However,/Therefore,/Furthermore, (not "So many"),
    only after an earlier sentence: a text-initial "so" is a topic opener ("so my landlord
    is keeping my deposit"), not a consequence, and "Therefore," there asserts an
    inference from nothing (hedgefix judgement, MEANING)."""

    classes = lex.word_classes

    def connective(start: int, end: int, value: str) -> bool:
        if not demonstrative_alone(doc, lex, start, end):
            return False  # "After that meeting I ..." never "Thereafter, meeting I ..."
        if _casual_stance(lex).match(doc.lowered, end):
            return False  # "And to be honest, ..." never "Additionally, to be honest" (round 20)
        if _CASUAL_SENTENCE.search(doc.text, *doc.sentence_around(start)):
            return False  # "then i got billed ...??" never "following this, i got billed"
        if _needs_clause(lex, value) and not _clause_after(doc, lex, end):
            # nothing to conclude, or a request ("also cancel the line" never
            # "furthermore, cancel ..."), not a further statement
            return False
        consequence = value.strip(" ,").lower() in classes["consequence_connectives"]
        if consequence and not linkable(doc, lex, start, end):
            return False  # nothing to conclude from, or a self-introduction
        after = doc.next_word(end)
        return after is None or (
            after.lower not in classes["degree_targets"] and after.lower not in lex.adjectives
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
    yield from map_edits(
        doc,
        lex.connectives("any", formal=True),
        "connective_formal.v1",
        accept=lambda start, end, value: demonstrative_alone(doc, lex, start, end),
    )


# A sentence written casually: a lower-case "i" or doubled "??"/"!!" (a formal connective
# there is a register clash: "following this, i got billed $89.99 ... i signed up for??";
# heldout56 edit judgement, IMPLAUSIBLE). The formal style calms both first, so its fixed
# point still makes the connective formal.
_CASUAL_SENTENCE = re.compile(r"\bi\b|[!?]{2,}")


def _needs_clause(lex: RulesLexicon, formal: str) -> bool:
    """Whether a formal connective goes only before a finite clause (word_classes.yaml
    ``additive_connectives`` and ``consequence_connectives``; see connective_formal)."""
    word = formal.strip(" ,").lower()
    classes = lex.word_classes
    return word in classes["additive_connectives"] or word in classes["consequence_connectives"]


@functools.cache
def _casual_stance(lex: RulesLexicon) -> re.Pattern[str]:
    """A casual stance phrase right after a sentence-initial connective (claims.yaml
    ``casual_stance``): a formal connective before it clashes in register."""
    return re.compile(r"[\s,]*(?:" + alternation(lex.claims["casual_stance"]) + r")\b")


# A self-introduction after "so": "So I'm Rohit Bansal", "so my name is ...", "So this is
# Priya from ...", "so myself Rohit": the writer's name, never a conclusion.
_SELF_INTRODUCTION = re.compile(
    r" *,? *(?:(?i:my name is)\b|(?i:myself) [A-Z]|(?i:i'm|i’m|im|i am|this is|it's|it is) "
    r"(?:[A-Z][a-z]+)\b)"
)


def _clause_after(doc: Doc, lex: RulesLexicon, end: int) -> bool:
    """Whether a finite clause follows a connective of consequence: "So I called them"
    concludes, "So maybe something like a lead designer role" opens a tentative answer
    and "Therefore," there asserts an inference (heldout21 edit judgement, MEANING)."""
    sentence_end = doc.sentence_around(end)[1]
    words = [w.lower() for w in _CLAUSE_WORDS.findall(doc.text, end, sentence_end)]
    return opens_clause(words, lex.sentence_split) is not None


_CLAUSE_WORDS = re.compile(r"[A-Za-z0-9'’$%.-]+")


def linkable(doc: Doc, lex: RulesLexicon, start: int, end: int, *, inner: bool = False) -> bool:
    """Whether a plain connective at ``start:end`` may become a connective of consequence
    ("so" -> "Therefore,", "; therefore,"): only after a sentence it can conclude from,
    and never before a self-introduction. A text-initial or turn-opening "So" is a
    discourse marker that opens the topic ("So I'm Rohit Bansal, I've been in retail
    ..." -> "Therefore, I'm Rohit Bansal" presents the name as a conclusion; round 12
    judgement, MEANING; hedgefix judgement for "so my landlord ..."): the first sentence
    of a text, or the first after a greeting or opening line (politeness.yaml
    ``openings``, "Hi.", "Hello everyone!"), has nothing before it. Self-introductions
    are matched on the written case: "I'm" and a capitalised name. With ``inner`` the
    connective joins two clauses of one sentence (", so I called"): the clause before it
    is what it concludes from, unless that clause is only a greeting ("Hi, so I'm ...")."""
    if _SELF_INTRODUCTION.match(doc.text, end):
        return False
    begin = doc.sentence_around(start)[0]
    before = doc.text[begin:start] if inner else doc.text[:begin]
    if not before.strip(" ,.!?"):
        return False
    openings = {
        o.lower().strip(" ,.!")
        for register in ("formal", "casual")
        for o in lex.politeness("openings", register)
    }
    sentences = [t.strip(" ,.!?") for t in _TERMINATOR.split(before.lower()) if t.strip(" ,.!?")]
    return not all(t in openings or _greeting(t, lex) or _hesitation(t, lex) for t in sentences)


def _hesitation(sentence: str, lex: RulesLexicon) -> bool:
    """Whether a sentence is only hesitations or response tokens ("Um, okay."): it states
    nothing a following "So" could conclude from ("Um, okay. So, I'd say ..." never
    "Therefore, I'd say"; heldout19/20-dev edit judgement, MEANING)."""
    words = sentence.replace(",", " ").split()
    hesitations = lex.word_classes["hesitations"]
    return bool(words) and all(w in hesitations for w in words)


def _greeting(sentence: str, lex: RulesLexicon) -> bool:
    """Whether a short sentence is a greeting ("hi everyone", "hello sir", "good morning
    all"): at most four words, the first a greeting word."""
    words = sentence.split()
    return 0 < len(words) <= 4 and words[0].strip(",") in lex.word_classes["greeting_words"]


@operator("connective_plain.v1", "connective", "words")
def connective_plain(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Formal connectives -> plain ones (However, -> But)."""
    text = doc.text
    no_comma_after = lex.word_classes["no_comma_after"]
    for edit in map_edits(
        doc,
        lex.connectives("start", formal=False),
        "connective_plain.v1",
        sentence_start=True,
        accept=lambda start, end, value: demonstrative_alone(doc, lex, start, end),
    ):
        # a conjunction drops the comma (However, -> But); an adverbial keeps it
        # (Consequently, -> Because of this,; Furthermore, -> Also,)
        bare = edit.replacement.strip().lower() in no_comma_after
        end = edit.end + 1 if bare and text[edit.end : edit.end + 1] == "," else edit.end
        yield Edit(edit.start, end, edit.replacement, edit.operator)
    # a sentence-initial adverbial connective takes a comma (After that I -> After that,
    # I), so a guise's "Thereafter," and its source's "After that" standardise alike
    formal = lex.connectives("start", formal=True).mapping
    phrases = {" ".join(p.split()): _needs_clause(lex, v) for p, v in formal.items()}
    for word in doc.sentence_words:
        for phrase, needs_clause in phrases.items():
            if phrase.split()[0] in no_comma_after:
                continue
            stop = doc.phrase_end(word.start, phrase)
            if (
                stop is not None
                and text[stop : stop + 1] == " "
                and demonstrative_alone(doc, lex, word.start, stop)
                # "Also reduced our AWS bill by 22%": "also" modifies the verb of a
                # sentence with no subject, and "Also, reduced" cuts it off (heldout54
                # edit judgement, UNGRAMMATICAL); connective_formal makes such a
                # connective formal only before a clause, too
                and not (needs_clause and not _clause_after(doc, lex, stop))
            ):
                yield Edit(stop, stop, ",", "connective_plain.v1")
                break

    def linked(start: int, end: int, value: str) -> bool:
        # "I'm not leaving because I'm burned out, although the pay is low": after a
        # negated because-clause the concessive scopes with the negation, and "even
        # though" reads as the reason denied (hedgefix judgement, MEANING)
        begin = doc.sentence_around(start)[0]
        return _NEGATED_BECAUSE.search(doc.lowered, begin, start) is None and demonstrative_alone(
            doc, lex, start, end
        )

    yield from map_edits(
        doc, lex.connectives("any", formal=False), "connective_plain.v1", accept=linked
    )


def demonstrative_alone(doc: Doc, lex: RulesLexicon, start: int, end: int) -> bool:
    """Whether a connective at ``start:end`` that ends in this/that/these/those ends in a
    pronoun, not in the determiner of a noun after it: "Because of this rejection we
    had to ..." is no connective, and "Because of this, rejection we ..." is a fragment
    (edit judgement round 5, UNGRAMMATICAL). The demonstrative stands alone before a comma
    or other punctuation, at the end of the text, or before a word no determiner takes
    after it: a subject pronoun, an article or a possessive ("After that the bank ...",
    "Because of this I ..."). Other connectives pass."""
    words = doc.lowered[start:end].split()
    if (
        words[-1] not in _DEMONSTRATIVE_ENDS
        or words[-2:-1] == []
        or words[-2] in lex.word_classes["complementiser_heads"]
    ):
        return True  # "provided that payment is made": "that" is the complementiser
    after = doc.text[end : end + 1]
    if after != " ":
        return True  # "Because of this, we ..." / "... because of this."
    nxt = doc.next_word(end)
    return nxt is not None and nxt.lower in lex.word_classes["after_pronoun"]


_DEMONSTRATIVE_ENDS = frozenset({"this", "that", "these", "those"})
_TERMINATOR = re.compile(r"[.!?]")
_NEGATED_BECAUSE = re.compile(r"(?:\b(?:not|never)\b|n't\b)[^.!?]*\bbecause\b")


@operator("request_polite.v1", "politeness", "words")
def request_polite(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Blunt request frames -> polite ones (I want -> I would like); frames that gain a
    "please" only where a request starts a sentence ("Send me ..." -> "Please send me")."""

    openers = lex.word_classes["condition_openers"] | {"when"}

    def imperative(start: int, end: int, value: str) -> bool:
        prev = doc.prev_word(start)
        if prev is not None and prev.lower in openers:
            return False  # "if I want departments where ..." is a supposition (round 41)
        return not value.lower().startswith("please") or doc.is_sentence_start(start)

    last_end, last_please = -2, False
    for edit in sorted(map_edits(doc, lex.request_polite, "request_polite.v1", accept=imperative)):
        adjacent = doc.text[last_end : edit.start].isspace() if last_end >= 0 else False
        if not (adjacent and last_please and edit.replacement.lower().startswith("please")):
            yield edit
            last_end, last_please = edit.end, edit.replacement.lower().endswith("please")


@operator("soften_modal.v1", "hedge", "words")
def soften_modal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Confident modals -> hedged ones (will -> might, must -> should), only in claim
    sentences (the writer's present evaluation: not on their own plans, requests or
    experience, not in questions); a word after a determiner is a noun and stays ("a can
    of soup"). The stance-cue rows of modal_softening.tsv ("clearly" -> "arguably") are
    strengthen_modal's only: the hedged direction deletes those boosters instead."""

    softened = lex.claim_set("softened_modals")
    determiners = lex.word_classes["determiners"]

    def modal(start: int, end: int, value: str) -> bool:
        if doc.lowered[start:end] not in softened:
            # a stance cue ("clearly" -> "arguably") is remove_booster's: swapped, it
            # clashed with the writer's tone ("This is arguably a scam ... I am done being
            # polite"; heldout5 judgement, IMPLAUSIBLE) or turned a judgement into hearsay
            return False
        prev, nxt = doc.prev_word(start), doc.next_word(end)
        if doc.lowered[start:end] == "must" and nxt is not None and nxt.lower in _EPISTEMIC:
            return False  # "must be wrong" is a conclusion; "should be wrong" is not one
        return (
            (prev is None or prev.lower not in determiners)
            and in_claim(doc, lex, start)
            # in the claim's main clause: "This is a reasonable request, and I hope you
            # will consider it" never "you might consider it" (a request)
            and in_statement(doc, lex, start)
            # "they will clearly refuse" never "might clearly"; "I don't think it will"
            # never "might": one stance per sentence, none in reported speech
            and not stance_elsewhere(doc, lex, start, end, own)
        )

    own = frozenset(lex.modal_soften.mapping) & softened
    edits = map_edits(doc, lex.modal_soften, "soften_modal.v1", accept=modal)
    return _per_sentence(doc, lex, edits, single=False)


def _per_sentence(
    doc: Doc, lex: RulesLexicon, edits: Iterator[Edit], *, single: bool
) -> Iterator[Edit]:
    """One stance edit per sentence (hedgefix judgement): never "they might clearly
    refuse" (one of two swaps drawn) nor "they might perhaps refuse" (both). Softening,
    a sentence with a stance cue loses only the cue ("they will arguably refuse"; two
    cues are merged into one edit); firming (``single``), a sentence with two
    candidates is left alone ("I know the fee is definitely unfair" stacks boosters). The
    modal rows are claims.yaml ``softened_modals``; the others are stance cues."""
    softened = lex.claim_set("softened_modals")
    groups: dict[int, list[Edit]] = {}
    for edit in sorted(edits):
        begin = doc.sentence_around(edit.start)[0]
        groups.setdefault(begin, []).append(edit)
    text = doc.text
    for begin, group in groups.items():
        if len(group) > 1 and single:
            continue
        cues = [e for e in group if doc.lowered[e.start : e.end] not in softened]
        group = cues or group
        if any(e.options for e in group):
            yield from group
            continue
        # The edit spans the sentence from its first word, so it clashes with a cue the
        # other operators put at its start or in its clause ("I think the refund might
        # arrive" stacks two hedges; discourse.py spans its cues the same way).
        parts, at = [], begin
        for edit in group:
            parts.append(text[at : edit.start] + edit.replacement)
            at = edit.end
        yield Edit(begin, group[-1].end, "".join(parts), group[0].operator)


@operator("remove_hedge.v1", "hedge", "words")
def remove_hedge(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete hedges: clause openers and sentence adverbs (I think, perhaps), degree words
    before an adjective (somewhat), vagueness hedges (Channell 1994: "where possible",
    "some experience", "mainly"), and "seems to be" -> "is". Never a rounder before a
    figure: "about $500" -> "$500" would state a rough figure as exact."""
    edits = with_article(
        doc,
        [
            *_remove_cues(doc, lex, "hedged", "remove_hedge.v1"),
            *_remove_vagueness(doc, lex, "remove_hedge.v1"),
            *firm_evidentials(doc, lex, "remove_hedge.v1"),
            *firm_negated_frames(doc, lex, "remove_hedge.v1"),
        ],
    )
    shields = [m.span() for m in _SHIELD.finditer(doc.lowered)]
    for edit in edits:
        if _in_shield_clause(doc, edit, shields) or not _seem_clause(doc, lex, edit):
            continue
        if about_the_writer(doc, lex, edit) or speculation(doc, lex, edit):
            continue  # a guess about an event, a cause or another's state stays hedged
        if figure_in_clause(doc, lex, edit.start):
            continue  # "would probably go from $1,800 to $2,900": an estimate stays one
        if "?" in doc.text[slice(*doc.sentence_around(edit.start))]:
            continue  # "Perhaps this role would be a step toward that?": a tentative ask
        if _request_politeness(doc, lex, edit) or _weighed_possibility(doc, lex, edit):
            continue
        if in_concession(doc, lex, edit.start):
            continue  # "somewhat helpful, I'll admit": a grudging degree is content
        if _FINDING.search(doc.lowered, doc.sentence_around(edit.start)[0], edit.start):
            continue  # "we found that the biggest issue was probably not salary"
        if _own_plan(doc, lex, edit):
            continue  # "im probably gonna switch to swiggy": a tentative plan stays one
        yield edit


def _own_plan(doc: Doc, lex: RulesLexicon, edit: Edit) -> bool:
    """Whether ``edit`` removes a hedge between the writer and their future action ("im
    probably gonna switch to swiggy", "I'll probably move", "that I'd probably lose"):
    without it a tentative plan or expectation reads as a decision or a certainty
    (heldout54h hedge reading and round 51 judgement, MEANING)."""
    # the edit takes the hedge with its trailing space: the next word starts at its end
    before, after = doc.prev_word(edit.start), doc.next_word(edit.end - 1)
    if before is None or after is None:
        return False
    if before.lower.replace("’", "'") in ("i'd", "we'd", "i'll", "we'll"):
        return True  # "that I'd probably lose": what the writer expects to happen to them
    writer = before.lower in lex.word_classes["first_person_subjects"] or before.lower == "im"
    return writer and after.lower in ("gonna", "going", "will", "shall")


# A finding reported in a that-clause ("we surveyed 210 people, and found that the
# biggest issue was probably not salary"): how sure the finding is belongs to what was
# found, and "was not salary" reports a tentative result as a flat one (heldout51h hedge
# reading, MEANING).
_FINDING = re.compile(
    r"\b(?:found|find|finds|showed|shows|show|concluded|discovered|learned|learnt|realised|"
    r"realized|noticed|revealed|indicated|suggested)\s+(?:out\s+)?that\b[^.;:!?]*$"
)


@functools.cache
def _contrast(lex: RulesLexicon) -> re.Pattern[str]:
    """A contrast word of word_classes.yaml ``contrasts``."""
    return re.compile(r"\b(?:" + alternation(lex.word_classes["contrasts"]) + r")\b")


def _weighed_possibility(doc: Doc, lex: RulesLexicon, edit: Edit) -> bool:
    """Whether ``edit`` removes a possibility the writer weighs: one of two alternatives
    ("Perhaps the seller is at fault, perhaps the courier") or a concession before a
    contrast ("Perhaps that's normal, but it seems a bit much"). Without it the sentence
    asserts what the writer only allowed for (heldout25h hedge reading, MEANING twice)."""
    if _POSSIBILITY_WORDS.isdisjoint(_WORDS_AHEAD.findall(doc.lowered, edit.start, edit.end)):
        return False
    begin, stop = doc.sentence_around(edit.start)
    words = _WORDS_AHEAD.findall(doc.lowered, begin, stop)
    return sum(w in _POSSIBILITY_WORDS for w in words) > 1 or (
        _contrast(lex).search(doc.lowered, edit.end, stop) is not None
    )


def _request_politeness(doc: Doc, lex: RulesLexicon, edit: Edit) -> bool:
    """Whether ``edit`` deletes a politeness hedge (claims.yaml ``politeness_hedges``:
    "if possible", "at your earliest convenience") in a sentence that asks for something:
    there it softens the imposition of the request and belongs to it ("Could someone give
    me an update and, if possible, a date" never loses "if possible"; issue 13 judgement,
    MEANING)."""
    removed = doc.lowered[edit.start : edit.end].strip(" ,;")
    if not any(p in removed for p in lex.claims["politeness_hedges"]):
        return False
    begin, stop = doc.sentence_around(edit.start)
    sentence = doc.lowered[begin:stop]
    first = doc.word_at(begin)
    return (
        "?" in sentence
        or request_sentence(sentence, lex)
        or (first is not None and first.lower in lex.word_classes["request_openers"])
    )


# A shield about the writer's own fallibility ("maybe I'm wrong", "I could be mistaken",
# "correct me if I'm wrong"): removing its hedge word asserts the opposite ("I'm wrong";
# hedgefix3 judgement, MEANING), so no hedge in its clause is removed.
_SHIELD = re.compile(
    r"\b(?:i(?:'m| am| was| could be| might be| may be| could well be| might well be)"
    r"\s+(?:\w+\s+)?(?:wrong|mistaken|missing something|misremembering|misreading)\b"
    r"|i (?:could|might|may) have (?:misread|misunderstood|missed|got it wrong)\b"
    r"|correct me if)"
)
_CLAUSE_MARK = re.compile(r"[,;:.!?]")


def _in_shield_clause(doc: Doc, edit: Edit, shields: list[tuple[int, int]]) -> bool:
    """Whether ``edit`` falls in the comma-delimited clause of a fallibility shield
    without removing the whole shield."""
    text = doc.text
    for start, end in shields:
        if edit.start <= start and end <= edit.end:
            continue  # the whole shield goes ("If I'm not mistaken, the payment ...")
        low, high = min(start, edit.start), max(end, edit.end)
        if not _CLAUSE_MARK.search(text, low, high) or (edit.start < end and start < edit.end):
            return True
    return False


def _seem_clause(doc: Doc, lex: RulesLexicon, edit: Edit) -> bool:
    """Whether a removed "It seems (that|like)" leaves a full finite clause: subject then
    verb. "It seems obvious that ..." -> "Obvious that ..." and "It seems low to me" ->
    "Low to me" are fragments (hedgefix3 judgement, UNGRAMMATICAL); other edits pass. The
    frames are claims.yaml ``seem_frames``, the words word_classes.yaml's ``not_subject``,
    ``seem_subjects`` and ``clause_verbs``."""
    lowered, classes = doc.lowered, lex.word_classes
    clause_verbs = classes["clause_verbs"]
    found = _PHRASE_REST.match(lowered, edit.start)
    phrase = found.group() if found else ""
    if doc.text[edit.start : edit.end].lower() == "seems" and edit.replacement == "is":
        # "It seems low to me" -> "It is low to me": the experiencer belongs to "seems"
        return _EXPERIENCER.search(phrase) is None
    if not lowered.startswith(lex.claims["seem_frames"], edit.start):
        return True
    if _extreme_case(lex).search(phrase):
        return False  # "it feels like nobody is there": an impression, not a literal claim
    if edit.replacement.lower() == lowered[edit.end - len(edit.replacement) : edit.end]:
        # a deleted opener (its replacement at most the next word's capital): the words
        # the deletion leaves ("It would seem likely that the fee ..." -> "The fee ..."),
        # not a fixed count after "it seems"
        rest = _PHRASE_REST.match(lowered, edit.end)
        words = _WORD_RUN.findall(edit.replacement.lower() + (rest.group() if rest else ""))
    else:
        words = _WORD_RUN.findall(phrase)
        words = words[3:] if words[1:3] == ["would", "seem"] else words[2:]
    if words[:1] in (["that"], ["like"]):
        words = words[1:]
    if len(words) < 2 or words[0] in classes["not_subject"] or words[0] in lex.adjectives:
        return False
    if words[0] in classes["seem_subjects"] or words[0] in clause_verbs:
        return words[0] in clause_verbs or words[1] in clause_verbs or words[1].endswith("ed")
    for word in words[1:6]:
        if word in clause_verbs or (word.endswith("ed") and word not in lex.adjectives):
            return True
        if word in ("which", "who", "that", "i", "we", "they"):
            return False
    return False


_EXPERIENCER = re.compile(r"\b(?:to|for) (?:me|us|him|her|them)\b")
_WORD_RUN = re.compile(r"[a-z]+(?:'[a-z]+)?")
_PHRASE_REST = re.compile(r"[^.!?;:,\n]*")


@functools.cache
def _extreme_case(lex: RulesLexicon) -> re.Pattern[str]:
    """Extreme case formulations (claims.yaml ``extreme_case_words``): under an appearance
    frame they are a felt exaggeration, and removing the frame states it as literal fact
    (heldout38h judgement, MEANING)."""
    return re.compile(r"\b(?:" + alternation(lex.claims["extreme_case_words"]) + r")\b")


@functools.cache
def _number_ahead(lex: RulesLexicon) -> re.Pattern[str]:
    """A figure or amount right after a hedge (a digit, a currency sign or a word of
    word_classes.yaml ``rounded_figures``): the hedge is then a rounder ("maybe fifteen
    minutes"), and deleting it states a rough figure as exact (heldout4 text, MEANING)."""
    words = alternation(lex.word_classes["rounded_figures"])
    return re.compile(r" ?(?:[$₹£€\d]|(?:" + words + r")\b)", re.IGNORECASE)


def _clause_length_ok(rest: str, lex: RulesLexicon) -> bool:
    """Whether what follows a deleted opener is long enough to be a clause: three words
    ("I think so." stays), or two after a fused subject and copula ("it's unfair";
    word_classes.yaml ``fused_copulas``)."""
    words = rest.split()
    if len(words) >= 3:
        return True
    fused = lex.word_classes["fused_copulas"]
    return len(words) == 2 and words[0].lower().replace("’", "'") in fused


def _lone_subordinate(rest: str, lex: RulesLexicon) -> bool:
    """Whether what follows a deleted opener is only a subordinate clause, with no main
    clause after it: the opener is then the sentence's whole answer ("Did I burn out?
    Probably, if I'm honest." never "If I'm honest."; heldout38h judgement, MEANING)."""
    rest = rest.lstrip(" ,")
    words = rest.split()
    return bool(words) and words[0].lower() in lex.sentence_split.subordinators and "," not in rest


_FIGURE_WINDOW = 4


@functools.cache
def _figure_word(lex: RulesLexicon) -> re.Pattern[str]:
    """A figure or amount: a digit, a currency sign or a word of word_classes.yaml
    ``figure_words``."""
    return re.compile(r"[$₹£€\d]|\b(?:" + alternation(lex.word_classes["figure_words"]) + r")\b")


def _figure_ahead(doc: Doc, lex: RulesLexicon, end: int) -> bool:
    """Whether a figure comes within the next few words of ``end``, inside its phrase
    ("probably about 20%", "probably saved us several times that amount"): the hedge
    qualifies an estimate, and deleting it states the estimate as exact (twelfth hedge
    pass reading of heldout texts, the class of "maybe fifteen minutes")."""
    rest = _PHRASE_REST.match(doc.lowered, end)
    window = " ".join((rest.group() if rest else "").split()[:_FIGURE_WINDOW])
    return _figure_word(lex).search(window) is not None


def _firm_up(doc: Doc, lex: RulesLexicon, name: str) -> Iterator[Edit]:
    """Opening hedges and shields deleted before a clause ("As far as I know, the debt is
    paid." -> "The debt is paid."); adaptors before an evaluation and epistemic modals in
    a third-person statement firmed up ("may be unlawful" -> "must be unlawful")."""
    claims, classes = lex.claims, lex.word_classes
    text = doc.text
    cues = claims["openers_removed"]
    openers = PhraseMap.build(
        [(c, "") for c in cues] + [(f"{c} that", "") for c in cues if not c.endswith(" that")]
    )

    def clause_follows(start: int, end: int, value: str) -> bool:
        return _opener_removable(doc, lex, start, end, shielded=True)

    yield from map_edits(doc, openers, name, sentence_start=True, accept=clause_follows)
    adaptors = PhraseMap.build((c, "") for c in claims["adaptors_in_claims"])

    gradable = frozenset(claims["gradable"])

    def after_copula(start: int, end: int, value: str) -> bool:
        prev, nxt = doc.prev_word(start), doc.next_word(end)
        after = doc.next_word(nxt.end) if nxt is not None else None
        return (
            prev is not None
            and prev.lower in classes["copula_forms"]
            and nxt is not None
            # an adaptor on a gradable evaluation, not a quantity ("a little late",
            # "a bit faster than before": the degree is content)
            and nxt.lower in gradable
            and (after is None or after.lower != "than")
            and not _number_ahead(lex).match(text, end)
            and in_statement(doc, lex, start)
        )

    yield from map_edits(doc, adaptors, name, accept=after_copula)
    modals = PhraseMap.build(claims["modal_to_must"].items())

    def statement(start: int, end: int, value: str) -> bool:
        # only the writer's own evaluation, with no other stance or reported speech in
        # the sentence ("they keep telling me the equity may be worth a lot" stays)
        return in_statement(doc, lex, start) and not stance_elsewhere(doc, lex, start, end)

    open_values = frozenset(claims["open_values"])
    open_comparatives = frozenset(claims["open_comparatives"])
    evaluative_words = frozenset(claims["evaluative"]) - open_values

    def evaluation_ahead(start: int, end: int, value: str) -> bool:
        ahead = _WORDS_AHEAD.findall(doc.lowered, end, end + 60)[:3]
        return (
            statement(start, end, value)
            and not open_values.intersection(ahead)
            and bool(evaluative_words.intersection(ahead))
        )

    def modal_evaluation(start: int, end: int, value: str) -> bool:
        # "may be unlawful" -> "must be unlawful" firms an evaluation; "It might be that
        # the payment got stuck" -> "It must be that ..." turns a possible event into a
        # deduction (fresh-text reading), so only an evaluation ahead is firmed; "is
        # likely to" -> "will" (no "be") stays a statement's prediction
        if not value.endswith((" be", " been")):
            return statement(start, end, value)
        rest = _SENTENCE_REST.match(doc.lowered, end)
        predicate = rest.group().strip() if rest is not None else ""
        negation = "not " if value.startswith("cannot") else ""
        return (
            statement(start, end, value)
            and evaluates(f"it is {negation}{predicate}", lex)
            and not conceded(start, end)
        )

    def conceded(start: int, end: int) -> bool:
        # "The new version may be better for some teams, but ..." never "must be better":
        # a possibility the writer concedes (a contrast follows or precedes it), an open
        # comparison ("better", "more": the comparatives of `open_values`, which "could"
        # never firms either) or one restricted to
        # part of a domain ("for some teams") is no conclusion to firm (heldout21 hedge
        # reading, MEANING)
        begin, stop = doc.sentence_around(start)
        ahead = _WORDS_AHEAD.findall(doc.lowered, end, end + 60)[:3]
        return (
            bool(open_comparatives.intersection(ahead))
            or _concession_contrast(lex).search(doc.lowered, end, stop) is not None
            or _concessive_opener(lex).search(doc.lowered, begin, start) is not None
            or _RESTRICTED.search(_match_phrase(doc.lowered, end)) is not None
        )

    yield from map_edits(doc, modals, name, accept=modal_evaluation)

    could = PhraseMap.build(claims["could_to_must"].items())
    yield from map_edits(
        doc, could, name, accept=lambda s, e, v: evaluation_ahead(s, e, v) and not conceded(s, e)
    )
    seem = PhraseMap.build(claims["seem_to_copula"].items())
    evaluative = frozenset(claims["evaluative"])
    attitudes = frozenset(claims["seem_attitudes"]) | frozenset(claims["narrative_states"])

    def before_evaluation(start: int, end: int, value: str) -> bool:
        nxt = doc.next_word(end)
        for _ in range(2):  # "seems a bit low" -> "is a bit low": the degree word stays
            if nxt is None or nxt.lower not in classes["seem_degree"]:
                break
            nxt = doc.next_word(nxt.end)
        return (
            nxt is not None
            and nxt.lower in evaluative
            and nxt.lower not in attitudes
            and in_statement(doc, lex, start)
            and not _foreign_or_doubted(doc, lex, start)
        )

    yield from map_edits(doc, seem, name, accept=before_evaluation)


@functools.cache
def _concession_contrast(lex: RulesLexicon) -> re.Pattern[str]:
    """A contrast after a possibility ("may be better ..., but we don't need it";
    word_classes.yaml ``concession_contrasts``): the writer concedes the possibility, and
    "must" would assert it against their own point."""
    words = alternation(lex.word_classes["concession_contrasts"])
    return re.compile(r"(?<![\w'])(?:" + words + r")(?![\w'])")


@functools.cache
def _concessive_opener(lex: RulesLexicon) -> re.Pattern[str]:
    """A concessive clause around a possibility ("Although it may be fair, ...";
    word_classes.yaml ``concessive_openers``)."""
    words = alternation(lex.word_classes["concessive_openers"])
    return re.compile(r"(?<![\w'])(?:" + words + r")(?![\w'])")


# A restriction to part of a domain ("for some teams", "in some cases", "to some people").
_RESTRICTED = re.compile(r"(?<![\w'])(?:for|in|to|with) (?:some|certain|a few|many) \w+")


def _match_phrase(text: str, start: int) -> str:
    """The words from ``start`` to the next comma or sentence mark."""
    found = _PHRASE_REST.match(text, start)
    return found.group() if found is not None else ""


# A negated doubt or belief ("not sure", "don't think", "never believed"); "if I'm not
# mistaken" is a plain shield, its negation inside the hedge.
_NEGATORS = re.compile(
    r"(?:\b(?:not|no|never)|n't) (?:\w+ )?(?:sure|certain|convinced|positive|clear|think|"
    r"believe|know|feel|expect|suppose|guess)\b"
)
_WORDS_AHEAD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def _foreign_or_doubted(doc: Doc, lex: RulesLexicon, start: int) -> bool:
    """Whether a hedge at ``start`` must stay: its sentence reports someone else's words
    (firming them changes what they said) or states the writer's doubt (firming
    contradicts it)."""
    return reported(doc, lex, start) or doubtful(doc, lex, start)


def _whole_cue(doc: Doc, lex: RulesLexicon, start: int, end: int) -> bool:
    """Whether deleting the opener at ``start:end`` keeps the polarity and leaves a
    clause: never a negated cue ("I'm not sure I trust it" -> "I trust it" flips the
    claim; hedgefix judgement, MEANING), never a cue whose rest would start with a
    fragment word of word_classes.yaml ``fragment_after`` ("It seems like they ..." ->
    "Like they ...", "Probably not, but ..." -> "Not, but ...")."""
    if _NEGATORS.search(doc.lowered, start, end):
        return False
    if _CUE_COMPLEMENT.match(doc.lowered, end):
        return False  # "I know for a fact it was down" is never "For a fact it was down"
    nxt = doc.next_word(end)
    return nxt is None or nxt.lower not in lex.word_classes["fragment_after"]


# A phrase that completes the cue before it ("I know for a fact", "I'm sure of it"): the cue
# and it go together or not at all (heldout25h hedge reading, UNGRAMMATICAL).
_CUE_COMPLEMENT = re.compile(r",? *(?:for (?:a fact|sure|certain|certain that)|of (?:it|that))\b")


def _bracket_span(doc: Doc, lex: RulesLexicon, comma: int, close: int) -> tuple[int, int]:
    """The span to delete for a parenthetical set off by the commas at ``comma`` and
    ``close``: both commas go with it ("the fee is, I think, wrong" -> "the fee is wrong";
    a comma left behind was judged UNGRAMMATICAL in round 5), but one stays where it
    also marks a boundary outside the pair: before a coordinator (", maybe, and" -> ",
    and"), an afterthought (", I guess, maybe a little low" -> ", maybe a little
    low"; heldout32h, UNGRAMMATICAL) or a pronoun subject ("Weakness, maybe, I'm not
    comfortable" -> "Weakness, I'm not ..."; heldout34h, UNGRAMMATICAL) or a determiner
    opening a new clause's subject (round 31), or after a sentence-initial introductory
    phrase; but never after a coordinator or a copula, whose comma only opens the pair
    ("and, obviously, this is" -> "and this is", "It was, obviously, a bad day" -> "It
    was a bad day"); word_classes.yaml ``coordinators``, ``claim_copulas``,
    ``afterthought_openers``, ``pronoun_subjects``, ``writer_subjects``, ``determiners``
    and ``introducers``."""
    text, classes = doc.text, lex.word_classes
    nxt = doc.next_word(close + 1)
    keep_one = nxt is not None and (
        nxt.lower in classes["coordinators"]
        or nxt.lower in classes["afterthought_openers"]
        or nxt.lower in classes["pronoun_subjects"]
        or nxt.lower in classes["writer_subjects"]
        # "I didn't do it alone, obviously, the practice manager ...": a new clause's
        # subject follows, and a comma must stay (round 31 judgement, UNGRAMMATICAL)
        or nxt.lower in classes["determiners"]
    )
    begin = doc.sentence_around(comma)[0]
    first = doc.word_at(begin) if begin < comma else None
    introducer = first is not None and first.lower in classes["introducers"]
    if introducer and "," not in text[begin:comma]:
        keep_one = True
    before = _WORD_BEFORE_COMMA.search(doc.lowered, max(0, comma - 24), comma + 2)
    if before is not None and before[1] in ("not", "never"):
        # "That is not, in my view, an acceptable answer": the negated copula's
        # complement follows, as after the copula itself (heldout50h hedge reading,
        # UNGRAMMATICAL: "That is not, an acceptable answer")
        before = _WORD_BEFORE_NEGATOR.search(doc.lowered, max(0, comma - 30), comma + 2) or before
    if before is not None and (
        before[1] in classes["coordinators"]
        or before[1] in classes["claim_copulas"]
        or (nxt is not None and nxt.lower == "that" and before[1] in classes["complement_verbs"])
    ):
        # "and, obviously, this is ...": the coordinator's comma opens the parenthetical
        # only, and goes with it (heldout39h judgement, UNGRAMMATICAL: "and, this is");
        # "It was, obviously, a bad day": the copula's complement follows, no new clause
        # (heldout40h judgement, UNGRAMMATICAL: "It was, a bad day"); nor does a verb's
        # that-clause ("I feel, perhaps, that ..." never "I feel, that"; heldout46h)
        keep_one = False
    return (comma + 1, close + 1) if keep_one else (comma, close + 1)


_POSSIBILITY_WORDS = frozenset({"maybe", "perhaps", "possibly"})


def _remove_vagueness(doc: Doc, lex: RulesLexicon, name: str) -> Iterator[Edit]:
    claims, classes = lex.claims, lex.word_classes
    text = doc.text
    mass = frozenset(claims["mass_nouns"])
    for word in doc.words(frozenset({"some"})):
        nxt = doc.next_word(word.end)
        if nxt is None or nxt.lower not in mass or doc.is_sentence_start(word.start):
            continue
        after = doc.next_word(nxt.end)
        if (
            after is not None
            and doc.text[nxt.end : after.start] == " "
            and (after.lower not in classes["after_noun_phrase"])
        ):
            # "some background app": the mass noun modifies a count noun, and "background
            # app" alone lacks its article (heldout23h hedge reading, UNGRAMMATICAL)
            continue
        yield Edit(word.start, nxt.start, "", name)
    adverbs = PhraseMap.build((a, "") for a in claims["adverbs"])
    approximated = frozenset(claims["approximated"])

    def between_words(start: int, end: int, value: str) -> bool:
        prev, nxt = doc.prev_word(start), doc.next_word(end)
        if prev is None or nxt is None or _number_ahead(lex).match(text, end):
            return False
        if prev.lower in ("could", "may", "might") and nxt.lower == "be":
            return False  # "could possibly be" is firmed up whole ("must be")
        if text[start:end].lower() in ("kind of", "sort of") and prev.lower in _kind_noun(lex):
            return False  # "the kind of ownership": the noun "kind" (a type), no hedge
        if shield_needed(doc, lex, start, end):
            return False  # "they probably wanted ...": a guess about another's mind
        if text[start:end].lower() in _POSSIBILITY_WORDS and (
            prev.lower in classes["conjunctions"] or text[prev.end : start].startswith(",")
        ):
            # "..., but maybe it is normal for a startup": a possibility the writer weighs
            # against the claim; without "maybe" the sentence asserts both
            return False
        if _foreign_or_doubted(doc, lex, start):
            return False  # "they told me it's probably fine": their words, not the writer's
        if nxt.lower in classes["pronoun_subjects"] and prev.lower != "that":
            # "My weakness maybe I take too much on": before a subject the adverb opens
            # the clause and may link it to a verbless topic; "My weakness I take ..." is
            # a fragment (heldout52 reading, UNGRAMMATICAL)
            return False
        if approximated.intersection(_WORDS_AHEAD.findall(doc.lowered, end, end + 60)[:3]):
            return False  # "I basically get nothing": an approximator, content
        if _figure_ahead(doc, lex, end):
            return False  # "it's probably about 20% of what I do": an estimate, content
        return nxt.lower not in ("of", "than", "to", "that", "as")

    yield from map_edits(doc, adverbs, name, sentence_start=False, accept=between_words)
    yield from _firm_up(doc, lex, name)
    for phrase, copula in claims["seem_to_be"].items():
        first = phrase.split()[0]
        if first in doc.vocab:
            for start in doc.occurrences(first):
                end = doc.phrase_end(start, phrase)
                if (
                    end is not None
                    and in_statement(doc, lex, start)
                    and not _foreign_or_doubted(doc, lex, start)
                    and not _passive_after(doc, lex, end)
                ):
                    yield Edit(start, end, match_case(text[start:end], copula), name)


def _passive_after(doc: Doc, lex: RulesLexicon, end: int) -> bool:
    """Whether a passive participle follows "seem to be" ("The replies appear to be
    generated without anyone reading my mail"): how another party does something is the
    writer's inference, and "are generated" states it as fact (heldout50h hedge reading,
    MEANING); an adjective ("seems to be unfair") is the writer's evaluation."""
    word = doc.next_word(end)
    if word is None or word.lower in lex.adjectives or word.lower.startswith("un"):
        return False  # "unprepared", "unqualified": no verb has such a participle
    return word.lower in lex.participles or word.lower.endswith("ed")


@operator("remove_booster.v1", "booster", "words")
def remove_booster(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Delete boosters this engine can insert (clearly, definitely, I know that), and
    truth-emphasis boosters inside a verb group ("were in fact paid" -> "were paid");
    never an "I know" that says the writer knows (see :func:`_knowing`)."""
    edits = [
        *_remove_cues(doc, lex, "confident", "remove_booster.v1"),
        *inner_boosters(doc, lex, "remove_booster.v1"),
    ]
    yield from with_article(
        doc, [e for e in edits if not _knowing(doc, lex, e) and not _degree_before(doc, lex, e)]
    )


def _degree_before(doc: Doc, lex: RulesLexicon, edit: Edit) -> bool:
    """Whether a degree word modifies the booster ``edit`` removes ("pretty clearly
    violates the lease" never "pretty violates": heldout53h hedge reading, UNGRAMMATICAL)."""
    before = doc.prev_word(edit.start + (doc.text[edit.start : edit.start + 1] == " "))
    return before is not None and before.lower in lex.word_classes["degree_modifiers"]


_KNOW_FRAME = re.compile(r"\s*(?:i|we) know\b")
# what the writer then says of their own dealing with it ("I know night shifts will be
# there; I have discussed it with my parents", "...; my wife and I have talked about
# that"): an acknowledgement, no booster (heldout53h and heldout54h hedge readings, MEANING)
_ACCEPTED = re.compile(r";\s*(?:i|we|my|our)\b")
# the clause after "I know" is about the reader ("your restaurant is opening ...")
_ABOUT_READER = re.compile(r"(?:that )?(?:you|your|you're|you've|you'll)\b")
# a reason for the knowing later in the sentence ("because I do the books")
_SOURCE = re.compile(r"\b(?:because|since|as i|as we|from)\b")
# the writer's own words or request, pointed back at ("I know this is low", "I know that
# sounds old-fashioned")
_OWN_WORDS = re.compile(
    r"(?:this|that|it)(?:'s| is| was| sounds| seems| may| might| looks| will| could| must)\b"
)


def _knowing(doc: Doc, lex: RulesLexicon, edit: Edit) -> bool:
    """Whether ``edit`` deletes an "I know" that is no booster but says the writer knows:

    - a concession, a contrast word later in its sentence ("i know you're busy but i'm
      paying $1,650 a month"): without it the sentence turns blunt (heldout33h hedge
      reading, IMPLAUSIBLE);
    - an acknowledgement of the reader's own affairs ("I know your restaurant is opening
      in September"): without it the writer tells the reader news about themself (round
      37 judgement, IMPLAUSIBLE);
    - knowledge with its source ("I know the business is doing okay because I do the
      books"): without it the reason attaches to the fact ("The business is doing okay
      because I do the books"; round 37 judgement, MEANING);
    - a concession about the writer's own words or request, a demonstrative pointing
      back at them ("I know this is low", "I know that sounds old-fashioned"): it grants
      the point, and without it the writer judges their own words bluntly (heldout42h
      hedge reading, IMPLAUSIBLE twice)."""
    frame = _KNOW_FRAME.match(doc.lowered, edit.start)
    if frame is None:
        return False
    stop = doc.sentence_around(edit.start)[1]
    # from the frame's end: the edit itself may reach into the next word to capitalise it
    after = doc.lowered[frame.end() : stop].lstrip(" ,")
    return (
        _contrast(lex).search(doc.lowered, frame.end(), stop) is not None
        or _ACCEPTED.search(after) is not None
        or _ABOUT_READER.match(after) is not None
        or _SOURCE.search(after) is not None
        or _OWN_WORDS.match(after) is not None
    )


_SENTENCE_REST = re.compile(r"[^.!?\n]*")
# the word before a parenthetical's opening comma ("which, yes, I know,": "yes")
_WORD_BEFORE_COMMA = re.compile(r"([\w']+), $")
_WORD_BEFORE_NEGATOR = re.compile(r"([\w']+) (?:not|never), $")


def _opener_removable(doc: Doc, lex: RulesLexicon, start: int, end: int, *, shielded: bool) -> bool:
    """Whether the sentence opener at ``start:end`` can go and leave a clause that reads:
    long enough, not only a subordinate clause, no complementiser or coordinated
    complement stranded, the whole cue matched, not foreign or doubted, and (where
    ``shielded``) no guess that needs its shield."""
    rest = _SENTENCE_REST.match(doc.text, end)
    return (
        rest is not None
        and _clause_length_ok(rest.group(), lex)
        and not _lone_subordinate(rest.group(), lex)
        and complementiser_ok(doc, lex, start, end)
        and not coordinated_complement(doc, lex, end)
        and clause_after_frame(doc, lex, start, end)
        and _whole_cue(doc, lex, start, end)
        and not _foreign_or_doubted(doc, lex, start)
        and not (shielded and shield_needed(doc, lex, start, end))
    )


def _remove_cues(doc: Doc, lex: RulesLexicon, direction: str, name: str) -> Iterator[Edit]:
    """Delete cues where they work as cues: clause openers at a sentence start with a
    clause after them ("I think the fee is wrong", not "I think so"), degree words before
    an adjective ("somewhat late", not "would rather pay"), and modal cues after a modal."""

    def clause_follows(start: int, end: int, value: str) -> bool:
        return _opener_removable(doc, lex, start, end, shielded=direction == "hedged")

    gradable = lex.claim_set("gradable")

    def before_adjective(start: int, end: int, value: str) -> bool:
        after = doc.next_word(end)
        if after is None or after.lower not in lex.adjectives:
            return False
        before = doc.prev_word(start)
        if before is not None and (
            before.lower in lex.word_classes["negators"] or before.lower.endswith(("n't", "n’t"))
        ):
            # "he wasn't totally wrong" (partly right) never "he wasn't wrong": under a
            # negation the degree word is what is denied (heldout53 edit judgement and
            # heldout50h hedge reading, MEANING)
            return False
        # a hedged degree word goes only where the hedge transform puts one, before a
        # gradable evaluation: "a little late", "a bit faster" state a quantity
        if _foreign_or_doubted(doc, lex, start):
            return False
        return direction != "hedged" or after.lower in gradable

    def after_modal(start: int, end: int, value: str) -> bool:
        before, after = doc.prev_word(start), doc.next_word(end)
        if (
            direction == "hedged"
            and before is not None
            and before.lower == "could"
            and after is not None
            and after.lower == "be"
        ):
            # "could possibly be" is firmed up whole before an evaluation ("must be",
            # could_to_must) and kept otherwise: "could be" alone still hedges, and a
            # stray half-edit leaves the claim as hedged as before
            return False
        return (
            before is not None
            and before.lower in lex.word_classes["cue_modals"]
            and not _foreign_or_doubted(doc, lex, start)
        )

    def parenthetical(start: int, end: int, value: str) -> bool:
        before = _WORD_BEFORE_COMMA.search(doc.lowered, max(0, start - 24), start)
        return (
            not _foreign_or_doubted(doc, lex, start)
            and doc.text[start - 2 : start] == ", "
            and (before is None or before[1] not in lex.word_classes["answer_particles"])
            and doc.text[end : end + 1] == ","
            and (direction != "hedged" or not shield_needed(doc, lex, start, end))
        )

    yield from map_edits(
        doc,
        lex.removable(direction, "sentence"),
        name,
        sentence_start=True,
        accept=clause_follows,
        lex=lex,
    )
    for edit in map_edits(
        doc, lex.removable(direction, "sentence"), name, sentence_start=False, accept=parenthetical
    ):  # "The fee, I think, is wrong." -> "The fee is wrong."
        left, end = _bracket_span(doc, lex, edit.start - 2, doc.text.index(",", edit.start))
        yield Edit(left, end, "", name)
    yield from map_edits(
        doc, lex.removable(direction, "pre_adjective"), name, accept=before_adjective
    )
    yield from map_edits(doc, lex.removable(direction, "after_modal"), name, accept=after_modal)


def _phrase_swap(
    name: str, family: str, phrases: Callable[[RulesLexicon], PhraseMap], doc: str
) -> None:
    """Register an operator that replaces every key of one phrase map by its value, never
    inside a fixed expression or a capitalised name (see :func:`swap_allowed`)."""

    @operator(name, family, "words", doc=doc)
    def propose(text: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        def allowed(start: int, end: int, value: str) -> bool:
            return (
                swap_allowed(text, lex, start, end)
                and not _progressive_misfit(text, lex, start, end, value)
                and _counted(lex).search(text.lowered, max(0, start - 40), start) is None
            )

        return map_edits(text, phrases(lex), name, accept=allowed, lex=lex)


@functools.cache
def _counted(lex: RulesLexicon) -> re.Pattern[str]:
    """A count right before a word, one word at most between ("1 account", "3 late
    fees"): the word is the unit of a quantity the exact check compares, so no swap
    respells it ("I have 1 account" -> "1 acount" changed the fact; found by the
    protected-spans property test)."""
    numbers = alternation(sorted(lex.word_classes["quantity_words"] - {"a", "an"}))
    return re.compile(r"(?:\d|\b(?:" + numbers + r"))\s+(?:\S+\s+)?$")


def _progressive_misfit(doc: Doc, lex: RulesLexicon, start: int, end: int, value: str) -> bool:
    """Whether a progressive swap ("I need" -> "I am needing") lands where no learner puts
    one: after an auxiliary, where the subject is inverted ("what proof would I need"
    never "would I am needing"; heldout20 edit judgement, UNGRAMMATICAL), or on a comment
    clause between commas ("and, I believe, many others" never "I am believing"; round 38
    judgement, IMPLAUSIBLE), or on a bare verb that ends its sentence, a response formula
    ("which, yes, I know." never "I am knowing."; round 44 judgement, IMPLAUSIBLE)."""
    words = value.lower().split()
    if len(words) < 2 or words[1] not in {"am", "are", "is"}:
        return False
    if doc.text[max(0, start - 2) : start] == ", " and doc.text[end : end + 1] == ",":
        return True
    if doc.text[end:].lstrip(" ")[:1] in ("", ".", "!", "?"):
        return True
    prev = doc.prev_word(start)
    return prev is not None and prev.lower in lex.word_classes["inverting_auxiliaries"]


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
    (
        "regional_rural.v1",
        "regional",
        lambda lex: lex.regional("rural"),
        "Standard word -> Southern/Midland US regional vocabulary (y'all, fixing to); no "
        "built-in persona uses it (geography is unrealised).",
    ),
):
    _phrase_swap(_name, _family, _phrases, _doc)


def _retired_regional(region: str) -> None:
    name = f"regional_{region}.v1"

    @operator(
        name,
        "regional",
        "words",
        doc=f"Retired (proposes nothing): its {region} vocabulary was slang standing in for "
        "a group, not a documented regional feature (issue 13).",
        retired=True,
    )
    def propose(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
        return iter(())


for _region in ("urban", "suburban"):
    _retired_regional(_region)


@operator("strengthen_modal.v1", "booster", "words")
def strengthen_modal(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Unambiguous hedged forms -> confident forms (might not -> will not), only in claim
    sentences: on the writer's own plans it would change what they said they would do."""

    def claim(start: int, end: int, value: str) -> bool:
        return (
            in_claim(doc, lex, start)
            and in_statement(doc, lex, start)
            and not stance_elsewhere(doc, lex, start, end, own)
            and not _predicate_adjective(doc, lex, start, end)
            # "I believe the new wage will be higher from April" never "I know ...": a
            # hedge on a guess (a prediction, a cause, a diagnosis) is neither removed nor
            # firmed (heldout21 hedge reading, MEANING; see certainty.speculation)
            and not speculation(doc, lex, Edit(start, end, "", "strengthen_modal.v1"))
            # "Perhaps this is an error, perhaps not" never "Obviously ..., perhaps not"
            and not _weighed_possibility(doc, lex, Edit(start, end, "", "strengthen_modal.v1"))
            and not _certainty_misfit(doc, lex, start, end, value)
            # "Probably a larger company is a better fit" never "Definitely a larger
            # company ...": only some boosters open a clause without a comma
            and not (
                doc.is_sentence_start(start)
                and " " not in value.strip()
                and value.strip().lower() not in lex.word_classes["opening_boosters"]
                and doc.text[end : end + 1] != ","
            )
        )

    own = frozenset(lex.modal_strengthen.mapping)
    edits = map_edits(doc, lex.modal_strengthen, "strengthen_modal.v1", accept=claim)
    return _per_sentence(doc, lex, edits, single=True)


_HYPOTHETICAL = re.compile(r"\b(?:would|could|might|may|should)\b|'d\b")


@functools.cache
def _deontic(lex: RulesLexicon) -> re.Pattern[str]:
    """A deontic modal of claims.yaml ``deontic`` ("should", "must"), a whole word."""
    return re.compile(r"\b(?:" + alternation(lex.claims["deontic"]) + r")\b")


def _certainty_misfit(doc: Doc, lex: RulesLexicon, start: int, end: int, value: str) -> bool:
    """Whether ``value`` makes a frame of knowledge or certainty that its clause cannot
    take: "I know" before a hypothetical ("I believe a written apology would be
    appropriate" -> "I know ..."; what would be fitting is an opinion, and claiming to know
    it reads as presumptuous: round 24 hedge reading, IMPLAUSIBLE), or "I am sure" and its
    kin before an obligation ("i think your grievance cell should at least listen" -> "I am
    sure ... should": a demand is no fact to be sure of; heldout47h hedge reading,
    IMPLAUSIBLE). The clause runs to the next clause mark."""
    frame = value.lower().replace("i'm", "i am")
    if frame.startswith("i know"):
        modal = _HYPOTHETICAL
    elif frame.startswith(("i am sure", "i am certain", "i am confident")):
        modal = _deontic(lex)
    else:
        return False
    stop = _CLAUSE_MARK.search(doc.lowered, end)
    return modal.search(doc.lowered, end, stop.start() if stop else len(doc.text)) is not None


def _predicate_adjective(doc: Doc, lex: RulesLexicon, start: int, end: int) -> bool:
    """Whether the cue at ``start:end`` is the adjective "likely": after a degree word or
    a determiner, before "that" or "to", or before the end of its clause ("it is likely
    that", "that seems likely."). "certainly" is an adverb only, so "It is likely that
    the fault is ..." -> "It is certainly that ..." is no English (round 12 reading of
    heldout13 edits, UNGRAMMATICAL); "This is likely the best option" -> "This is
    certainly the best option" stays. The degree words and determiners are
    word_classes.yaml ``adjective_markers``."""
    if doc.lowered[start:end] != "likely":
        return False
    prev, nxt = doc.prev_word(start), doc.next_word(end)
    if prev is not None and prev.lower in lex.word_classes["adjective_markers"]:
        return True
    if doc.text[end : end + 1] in (".", ",", ";", ":", "!", "?", ""):
        return True
    return nxt is not None and nxt.lower in ("that", "to")


@operator("third_person_s.v1", "l2_marker", "words")
def third_person_s(doc: Doc, lex: RulesLexicon, rng: random.Random) -> Iterator[Edit]:
    """Dropped third-person -s on a lexical verb after he/she/it, or after this/that at a
    sentence start (it takes -> it take); never an auxiliary or have/do/be ("it has been"
    stays: l2_markers.yaml says why), never after a mid-sentence "that", which may be a
    conjunction ("said that charges apply")."""
    classes = lex.word_classes
    for word in doc.words(lex.third_person_forms - classes["auxiliary_s_forms"]):
        prev = doc.prev_word(word.start)
        if prev is None or prev.lower not in classes["third_person_subjects"]:
            continue
        if prev.lower in _DEMONSTRATIVES and not doc.is_sentence_start(prev.start):
            continue
        base = lex.third_person[word.lower]
        yield Edit(word.start, word.end, match_case(word.text, base), "third_person_s.v1")


_DEMONSTRATIVES = frozenset({"this", "that"})
