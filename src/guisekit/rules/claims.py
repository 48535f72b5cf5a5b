"""Which sentences are claims or evaluations: the only places a hedge or booster may go.

A hedge qualifies the writer's commitment to a proposition; on the writer's own
experience ("I am 22"), possession ("I have the email"), request ("I want my money back"),
on a question, or on a figure it reads as absurd or changes a fact (issue 13). The engine
keeps to sentences that open with a third-person or demonstrative subject, are not
questions, and evaluate (an evaluative word or a deontic "should"); the word lists and
their sources are in ``lexicons/rules/claims.yaml`` and, for the closed word classes
(copulas, first-person words, modals), ``lexicons/rules/word_classes.yaml``.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re

from guisekit.rules.doc import Doc, Word
from guisekit.rules.lexicon import RulesLexicon, alternation
from guisekit.rules.protect import SINGLE_QUOTED

__all__ = [
    "adverb_slots",
    "claim_sentences",
    "concrete_fault",
    "doubtful",
    "evaluates",
    "grave_sentences",
    "in_claim",
    "in_statement",
    "narrated",
    "opens_with_cue",
    "opinion_sentence",
    "quoted",
    "repeated",
    "reported",
    "request_sentence",
    "self_evaluations",
    "self_evaluative",
    "settled",
    "stance_elsewhere",
]

_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?")
# The main clause ends at a comma, semicolon or a subordinating/coordinating word.
# ("because of" is a preposition inside the clause: "the fee was charged because of their
# error" is one causal claim.)
_CLAUSE_END = re.compile(r"[,;:]| (?:and|but|because(?! of)|since|when|after|before|while|so|if) ")
_ARTICLES = frozenset({"a", "an", "the"})
_PREDICTIVE = frozenset({"will", "won't", "would", "wouldn't"})


@functools.cache
def _reporting(lex: RulesLexicon) -> re.Pattern[str]:
    """A verb of saying or "that" (claims.yaml ``reporting_words``), a whole word."""
    return re.compile(r"\b(?:" + alternation(lex.claims["reporting_words"]) + r")\b")


@functools.cache
def _figure(lex: RulesLexicon) -> re.Pattern[str]:
    """A figure: a digit or a number word of word_classes.yaml ``claim_figures``
    (ordinals included: "the third wrong order this month"), in any case."""
    words = alternation(lex.word_classes["claim_figures"])
    return re.compile(r"\d|\b(?:" + words + r")\b", re.IGNORECASE)


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


def opens_with_cue(doc: Doc, lex: RulesLexicon, start: int) -> bool:
    """Whether the sentence at ``start`` already opens with a hedge or booster ("I think
    the fee ..."): a second opener would stack ("I believe I think the fee ...")."""
    cues = (*_lead_cues(lex), *lex.claims["openers_removed"])
    return any(doc.phrase_end(start, cue) is not None for cue in cues)


@functools.cache
def _grave_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    phrases = [*lex.claims["grave_content"], *lex.claims["ultimatums"]]
    words = sorted(phrases, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")


def grave_sentences(doc: Doc, lex: RulesLexicon) -> frozenset[int]:
    """Starts of the sentences about grave matters (a death, an illness, an injury, a
    fraud or theft suffered) or holding an ultimatum: no filler or discourse marker goes
    on them ("Like, my father passed away" reads as mockery; issue 13 held-out
    judgement; claims.yaml ``grave_content``, ``ultimatums``)."""
    key = ("grave_sentences", lex)
    cached = doc.proposals.get(key)
    if cached is None:
        pattern = _grave_pattern(lex)
        cached = [
            start for start, end in _sentence_spans(doc) if pattern.search(doc.lowered, start, end)
        ]
        doc.proposals[key] = cached
    return frozenset(cached)


@functools.cache
def _settled_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    words = sorted(lex.claims["settled"], key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")


def settled(text: str, lex: RulesLexicon) -> bool:
    """Whether ``text`` (lower-case) holds a factive or resultative frame or a truth
    marker ("it turned out that ...", "in fact"): its content is presented as known, so
    no hedge or booster goes in it (claims.yaml ``settled``)."""
    return _settled_pattern(lex).search(text) is not None


@functools.cache
def _admission_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    words = sorted(lex.claims["admissions"], key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")


@functools.cache
def _request_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    """Request and politeness formulas (claims.yaml ``request_markers``), whole words."""
    words = sorted(lex.claims["request_markers"], key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w'])")


def request_sentence(text: str, lex: RulesLexicon) -> bool:
    """Whether ``text`` (one sentence, lower-case) asks for something ("a real answer
    would be appreciated", "please refund it", "the bank should, I want, ..."): no
    hedge or booster is ever added to it (issue 13 judgement, MEANING)."""
    return _request_pattern(lex).search(text.replace("’", "'")) is not None


def opinion_sentence(doc: Doc, lex: RulesLexicon, start: int) -> bool:
    """Whether the sentence at ``start`` is an opinion, evaluation, feeling or admission
    (where a candour filler such as "Honestly," or "Tbh" fits), not a neutral report of
    an event (claims.yaml ``candour_fillers``)."""
    stop = doc.sentence_around(start)[1]
    body = doc.lowered[start:stop]
    if any(doc.phrase_end(start, frame) is not None for frame in lex.claims["request_frames"]):
        return False  # a request: "I would like my money back"
    if evaluates(body, lex) or _admission_pattern(lex).search(body):
        return True
    return any(w in lex.emotive_adjectives for w in _WORDS.findall(body))


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


@functools.cache
def _judgement(lex: RulesLexicon) -> tuple[frozenset[str], re.Pattern[str], frozenset[str]]:
    """Conduct verbs (single words), conduct and causal phrases, and the evaluative words
    that make a subject noun phrase evaluate ("the best approach is ...")."""
    claims = lex.claims
    phrases = sorted(claims["judgement_phrases"], key=len, reverse=True)
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in phrases) + r")\b")
    return frozenset(claims["judgement_verbs"]), pattern, frozenset(claims["subject_evaluative"])


def _evaluates(clause: str, lex: RulesLexicon) -> bool:
    """Whether a main clause makes a claim: a deontic or predictive modal not inside
    reported speech ("the bank should refund it", not "they said they would"), a copula
    with an evaluative predicate ("that was the right call"), a present-tense copula
    with a comparison ("the offer is below market"), a judgement of another party's
    conduct or intent ("they ignored my request", "the bank is at fault"), a causal claim
    ("the delay was caused by the transfer"), or an evaluative subject ("the best option
    is to wait"). A past narrative ("the agent told me ...") is the writer's experience,
    not a claim."""
    claims, classes = lex.claims, lex.word_classes
    evaluative = frozenset(claims["evaluative"])
    deontic = frozenset(claims["deontic"])
    verbs, phrases, subject_words = _judgement(lex)
    reporting = _reporting(lex)
    copulas, present_copulas = classes["claim_copulas"], classes["present_copulas"]
    words = _WORDS.findall(clause)
    for i, word in enumerate(words):
        # words[1:i]: the subject itself may be a demonstrative "that" ("that caused ...")
        if (
            word in verbs
            and not reporting.search(" ".join(words[1:i]))
            and not _asked_about(words, i, lex)
        ):
            return True
        if word in subject_words and _copula_after(words, i, lex):
            return True
        modal = word in deontic or word in _PREDICTIVE
        if modal and not reporting.search(" ".join(words[1:i])):
            return True
        if word in copulas and _predicate_follows(
            words, i, evaluative, lex, present=word in present_copulas
        ):
            return True
        if word in classes["contracted_copulas"] and _predicate_follows(
            words, i, evaluative, lex, present=True
        ):
            return True  # "that's a bit low", "it's unfair"
    found = phrases.search(clause)
    head = clause[: found.start()] if found is not None else ""
    return found is not None and not reporting.search(head.split(" ", 1)[-1] if " " in head else "")


def _asked_about(words: list[str], i: int, lex: RulesLexicon) -> bool:
    """Whether the conduct verb at ``i`` stands in an indirect question opened earlier in
    the clause ("refused to explain which rule it breached"; word_classes.yaml
    ``indirect_question_words``): what is asked about is not asserted, so it makes no
    claim ("Arguably, the officer refused to explain ...": round 28 judgement, MEANING)."""
    return not lex.word_classes["indirect_question_words"].isdisjoint(words[1:i])


@functools.cache
def _present_evaluation(lex: RulesLexicon) -> frozenset[str]:
    """Present-tense copulas, plain or carried by a contracted subject ("it's unfair";
    word_classes.yaml ``present_copulas`` and ``contracted_copulas``)."""
    classes = lex.word_classes
    return classes["present_copulas"] | classes["contracted_copulas"] | {"'s", "remains", "looks"}


_PAST_EVALUATION = frozenset({"was", "were", "wasn't", "weren't"})


@functools.cache
def _place_right(lex: RulesLexicon) -> re.Pattern[str]:
    """A "right" of place or time ("right next to", "right now"; word_classes.yaml
    ``place_after_right``): only the word "right " itself is matched."""
    words = alternation(lex.word_classes["place_after_right"])
    return re.compile(r"\bright (?=(?:" + words + r")\b)")


def _evaluation(clause: str, lex: RulesLexicon) -> bool:
    """Whether a main clause is the writer's evaluation, the one place a new hedge or
    booster goes (a syntactic whitelist, issue 13: precision before coverage): a deontic
    modal ("the bank should refund it"), a present-tense copula with an evaluative or
    comparative predicate ("the fee is unfair", "the offer is below market"), a past one
    with a judgement of ``past_judgements`` ("that was the wrong call"), an evaluative
    subject before a present copula ("the best option is to wait"), a judgement of
    another party's conduct or a causal claim ("this violates the FDCPA", "they misled
    me", "the delay was caused by ..."), or a prediction about another party ("the
    company will reconsider"), with no first person in the clause. Not a refusal or
    habit ("the owner won't answer a single email": the writer's experience; heldout5
    judgement, MEANING),
    a past state ("the pipe was fine the day before"), a past event ("they ignored my
    request") or a past narrative ("the main thing was that ..."), where a hedge doubts
    what the writer saw and a booster reads as protesting too much."""
    claims = lex.claims
    evaluative = frozenset(claims["evaluative"])
    judgements = frozenset(claims["past_judgements"])
    deontic = frozenset(claims["deontic"])
    verbs, phrases, subject_words = _judgement(lex)
    observed = frozenset(claims["observed_conduct"])
    reporting = _reporting(lex)
    first_person = lex.word_classes["first_person"]
    present_evaluation = _present_evaluation(lex)
    # "right next to a school": where a thing is, not whether it is right (round 21, MEANING)
    words = _WORDS.findall(_place_right(lex).sub("", clause))
    if observed.intersection(words):
        return False  # "they ignored my emails": what the writer saw
    if _narrative_pattern(lex).search(clause):
        return False  # "the client was unhappy", "he felt ...": others' states narrated
    if _person_state(words, lex):
        return False  # "she is better now": a fact the writer knows first-hand
    if record_error(words, lex):
        return False  # "the date on the letter is wrong": an error the writer can see
    if concrete_fault(words, lex):
        return False  # "the replacement is also broken": a state the writer sees
    if _own_benefit(words, lex):
        return False  # "the extra money would really help": the writer's own need
    found = phrases.search(clause)
    if found is not None and not reporting.search(clause[: found.start()].split(" ", 1)[-1]):
        # "the bank is at fault", "the delay was caused by the transfer"; not a narrative
        # that involves the writer ("my manager put me on the desk because of that",
        # "it led to me losing ...": held-out edit judgement, round 11, IMPLAUSIBLE)
        near = _WORDS.findall(clause[: found.end()]) + _WORDS.findall(clause[found.end() :])[:2]
        if first_person.isdisjoint(near):
            return True
    for i, word in enumerate(words):
        reported_before = reporting.search(" ".join(words[1:i])) is not None
        if reported_before:
            return False
        if word in deontic:
            return True
        if word in _PREDICTIVE and first_person.isdisjoint(words) and not _negated(words, i):
            return True  # "the company will reconsider"; not "the owner won't answer"
        if (
            word in verbs
            and (not word.endswith("ing") or words[i - 1 : i] in (["is"], ["are"]))
            and first_person.isdisjoint(words[: i + 3])
            and not _asked_about(words, i, lex)
        ):
            # "this violates the FDCPA", "the migration caused the outage", "is
            # violating"; not "it caused me a lot of stress" (the writer's experience);
            # a first person further on is in a relative clause ("the letter I got")
            return True
        if word in subject_words and _present_copula_after(words, i, lex):
            return True
        present, past = word in present_evaluation, word in _PAST_EVALUATION
        if not (present or past):
            continue
        if words[0] in _OWN:
            # "my manager is fair", "our landlord was rude": the writer's view of their
            # own person, possession or relation is first-hand, like "I" (round 11
            # judgement, MEANING: "My manager is possibly fair")
            return False
        wanted = evaluative if present else judgements
        if _predicate_follows(words, i, wanted, lex, present=present) and not _asked_about(
            words, i, lex
        ):
            # not a predicate asked about ("No reason is given for what exactly is
            # invalid": the writer asserts no invalidity; round 44 judgement, MEANING)
            return True
    return False


@functools.cache
def _benefit_phrases(lex: RulesLexicon) -> tuple[list[str], ...]:
    """claims.yaml ``own_benefit`` as word lists, split once per lexicon (the check runs
    on every clause evaluated)."""
    return tuple(p.split() for p in lex.claims["own_benefit"])


def _own_benefit(words: list[str], lex: RulesLexicon) -> bool:
    """Whether a clause says what something would do for the writer: a modal, then a
    predicate of claims.yaml ``own_benefit`` with no object, or with the writer as its
    object or beneficiary ("the extra money would really help", "it would mean a lot to
    me"; round 12 judgement, MEANING). A benefit to another party ("the change would
    help customers") is a prediction and does not count. The modals, the adverbs that may
    stand between, the writer as object and the links and degree words before it are
    claims.yaml's ``own_benefit_modals``, ``own_benefit_fillers``, ``own_benefit_objects``,
    ``own_benefit_links`` and ``own_benefit_degree``."""
    phrases = _benefit_phrases(lex)
    claims = lex.claims
    modals, fillers = (frozenset(claims[k]) for k in ("own_benefit_modals", "own_benefit_fillers"))
    objects, links = (frozenset(claims[k]) for k in ("own_benefit_objects", "own_benefit_links"))
    degree = frozenset(claims["own_benefit_degree"])
    for i, word in enumerate(words):
        if word not in modals:
            continue
        j = i + 1
        while j < len(words) and words[j] in fillers:
            j += 1
        for phrase in phrases:
            if words[j : j + len(phrase)] != phrase:
                continue
            after = words[j + len(phrase) :]
            while after and after[0] in degree:
                after = after[1:]
            if not after or after[0] in objects:
                return True
            if after[0] in links and after[1:2] and after[1] in objects:
                return True
    return False


def _copula_index(words: list[str], lex: RulesLexicon) -> int | None:
    copulas = lex.word_classes["claim_copulas"]
    return next((k for k, w in enumerate(words) if w in copulas), None)


def record_error(words: list[str], lex: RulesLexicon) -> bool:
    """Whether a clause says a detail of a record is wrong ("the date on the letter is
    wrong", "my address is incorrect"; claims.yaml ``record_fields``), or denies what was
    just said or shown ("This is incorrect": round 29 judgement, MEANING for "possibly
    incorrect"): the writer checks such a detail against what they know, so it is a
    fact, not a claim to hedge."""
    fields = lex.claim_set("record_fields")
    head = _copula_index(words, lex)
    errors = lex.claim_set("record_errors")
    if head is None or errors.isdisjoint(words[head + 1 : head + 4]):
        return False
    if words[:head] in (["this"], ["that"], ["it"]):
        return True  # "This is incorrect.": the writer denies what was just said or shown
    if _on_a_record(words[head + 1 :], lex):
        return True  # "Both are correct on the UAN portal": checked against a record
    return not fields.isdisjoint(words[:head])


def _on_a_record(words: list[str], lex: RulesLexicon) -> bool:
    """Whether ``words`` name a record the detail was read on ("on the UAN portal", "in my
    account", "on the statement"; claims.yaml ``record_places``): a detail called
    correct or wrong there is a fact the writer checked (round 33 judgement, MEANING for
    "Both are possibly correct on the UAN portal")."""
    places = lex.claim_set("record_places")
    for i, word in enumerate(words[:-1]):
        if word in ("on", "in") and not places.isdisjoint(words[i + 1 : i + 5]):
            return True
    return False


def concrete_fault(words: list[str], lex: RulesLexicon) -> bool:
    """Whether a clause calls a thing broken or damaged ("the replacement is also broken",
    "your meter is broken"; claims.yaml ``fault_states``): a state the writer sees, or a
    diagnosis they guess, never their evaluation; only a process or system (claims.yaml
    ``abstract_subjects``) is evaluated as broken ("the process is broken")."""
    faults = lex.claim_set("fault_states")
    if faults.isdisjoint(words):
        return False
    head = _copula_index(words, lex)
    if head is None or faults.isdisjoint(words[head + 1 : head + 4]):
        return False
    return lex.claim_set("abstract_subjects").isdisjoint(words[:head])


_PERSON_PRONOUNS = frozenset({"he", "she", "he's", "she's"})


def _person_state(words: list[str], lex: RulesLexicon) -> bool:
    """Whether a clause states a person's health or safety ("she is better now", "my
    father is stable now"; claims.yaml ``person_states``, ``kin``): its subject is "he",
    "she" or a relative, and a state word follows within four words."""
    claims = lex.claims
    if words[:1] and words[0] in _PERSON_PRONOUNS:
        rest = words[1:6]
    elif (
        len(words) > 1 and words[0] in lex.word_classes["possessives"] and words[1] in claims["kin"]
    ):
        rest = words[2:7]
    else:
        return False
    states = frozenset(w for s in claims["person_states"] for w in s.split()[-1:])
    return not states.isdisjoint(rest)


# Evaluative words that evaluate only with their complement: "open to negotiation" is a
# stance, "the account is still open" a state the writer can check (twelfth hedge pass).
_NEEDS_NEXT = {"open": "to"}


def _predicate_follows(
    words: list[str], i: int, wanted: frozenset[str], lex: RulesLexicon, *, present: bool
) -> bool:
    """Whether the copula ``words[i]`` takes a wanted predicate within five words (after
    fillers such as "really" of word_classes.yaml ``predicate_fillers``, and at most one
    noun modifier: "a billing error"); a present copula also takes a comparison ("below
    market")."""
    fillers = lex.word_classes["predicate_fillers"]
    modifier = False
    for j, nxt in enumerate(words[i + 1 : i + 6], start=i + 1):
        following = words[j + 1] if j + 1 < len(words) else ""
        if nxt in _NEEDS_NEXT and following != _NEEDS_NEXT[nxt]:
            return False  # "the account is still open": a state, not "open to negotiation"
        if nxt in wanted or (present and _predicate(nxt, words[j + 1 : j + 5], lex)):
            return True
        if nxt in fillers:
            continue
        if modifier or j == i + 1:
            return False
        modifier = True
    return False


@functools.cache
def _narrative_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    """Feelings and mental states of others and past necessity (claims.yaml
    ``narrative_states``), whole words: a clause holding one narrates, it does not
    evaluate, so no hedge or booster is inserted ("I believe the client was unhappy",
    "Undoubtedly, he felt my schedules were unrealistic"; issue 13 judgement, MEANING)."""
    words = sorted(lex.claims["narrative_states"], key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w'])")


def narrated(text: str, lex: RulesLexicon) -> bool:
    """Whether ``text`` (lower-case) narrates a feeling or mental state of someone, or a
    past necessity (claims.yaml ``narrative_states``): a state the writer reports or
    infers, never their evaluation."""
    return _narrative_pattern(lex).search(text) is not None


def _negated(words: list[str], i: int) -> bool:
    """Whether a modal at ``i`` is negated: "won't", "would not" ("the owner won't answer"
    reports a refusal the writer met, not a prediction)."""
    return words[i].endswith("n't") or words[i + 1 : i + 2] in (["not"], ["never"])


def _present_copula_after(words: list[str], i: int, lex: RulesLexicon) -> bool:
    """Whether a present copula follows an evaluative subject word ("the best option
    is"), with no first person in the subject."""
    present = _present_evaluation(lex)
    return _copula_after(words, i, lex) and any(w in present for w in words[i + 1 : i + 3])


def evaluates(text: str, lex: RulesLexicon) -> bool:
    """Whether the main clause of ``text`` (lower-case, up to its first clause boundary)
    makes a claim or evaluation (see :func:`_evaluates`)."""
    return _evaluates(_CLAUSE_END.split(text, maxsplit=1)[0], lex)


# First-person possessives: a subject they open is the writer's own ("my manager").
_OWN = frozenset({"my", "our"})


def _copula_after(words: list[str], i: int, lex: RulesLexicon) -> bool:
    """Whether the evaluative word at ``i`` heads a subject ("the best approach is"): a
    copula one or two words on, and no first person in the subject ("the best way to
    reach me is email" gives the writer's own details, not a ranking)."""
    copulas = lex.word_classes["claim_copulas"]
    for j in (i + 1, i + 2):
        if j < len(words) and words[j] in copulas:
            return not lex.word_classes["first_person"].intersection(words[: j + 1])
    return False


def _predicate(word: str, after: list[str], lex: RulesLexicon) -> bool:
    """A word that opens the predicate of a present-tense claim beyond the evaluative
    list: only a comparison ("below market", "higher than", "slower than").
    Identifications ("is an old payday loan"), places ("is in XXXX") and events ("is
    charging me") are facts the writer reports, and a hedge on them changes their
    certainty (issue 13). So is a comparison with a stated threshold ("is above the
    waiver limit": a sum checked against a rule; round 24, MEANING). The comparison
    words are word_classes.yaml ``comparatives``, the thresholds
    ``comparison_thresholds``."""
    following = after[0] if after else ""
    comparative = word in lex.word_classes["comparatives"]
    if not (comparative or (following == "than" and word.endswith("er"))):
        return False
    return lex.word_classes["comparison_thresholds"].isdisjoint(after)


def adverb_slots(doc: Doc, lex: RulesLexicon) -> list[tuple[int, int]]:
    """(sentence start, offset) of the places where an epistemic adverb may go inside a
    claim's main clause: after its first auxiliary or copula ("the fee is probably
    wrong", "is probably not following"), or, with no auxiliary, before its conduct
    verb ("they probably ignored my request"). None in a sentence that opens with a
    hedge or booster, or whose clause already holds an adverb in that place (no "is
    probably clearly"). Only after a present copula or a perfect "have"
    (word_classes.yaml ``slot_auxiliaries``), never in the verb group of a modal
    (``slot_modals``): the yaml says why."""
    key = ("adverb_slots", lex)
    cached = doc.proposals.get(key)
    if cached is not None:
        return cached
    verbs, _, _ = _judgement(lex)
    lead = _lead_cues(lex)
    auxiliaries, modals = lex.word_classes["slot_auxiliaries"], lex.word_classes["slot_modals"]
    slots = []
    for start, end in claim_sentences(doc, lex):
        first = _subject(doc, start, lead)
        if first is None or first.start != start or opens_with_cue(doc, lex, start):
            continue
        clause_end = _CLAUSE_END.search(doc.lowered, first.start, end)
        stop = clause_end.start() if clause_end else end
        word = doc.next_word(first.end)
        while word is not None and word.end <= stop:
            nxt = doc.next_word(word.end)
            if word.lower in modals:
                break  # "should have probably informed", "should have clearly informed" (manner)
            if word.lower in auxiliaries:
                if (
                    # never after a contracted negation: "isn't probably fair" is no
                    # English, "isn't clearly fair" denies less than "isn't fair"
                    not word.lower.endswith(("n't", "n’t"))
                    and nxt is not None
                    and not _adverb(nxt.lower, lex)
                    and _verb_group(word, nxt, lex)
                    and not _past_state(doc, word, nxt, lex)
                ):
                    slots.append((start, word.end))
                break
            if word.lower in verbs:
                # only a present-tense conduct verb ("this probably violates"): a past
                # one reports an event the writer saw ("they ignored my request")
                if word.lower.endswith("s") and not word.lower.endswith("ss"):
                    slots.append((start, word.start))
                break
            if _adverb(word.lower, lex):
                break
            word = nxt
    doc.proposals[key] = slots
    return slots


def self_evaluations(doc: Doc, lex: RulesLexicon) -> list[int]:
    """Starts of the sentences that evaluate the writer's own capacity ("I am a strong
    leader", "I'm very organised", "My biggest strength is ..."; see
    :func:`self_evaluative`); no question, no figure, and no hedge or booster already at
    the start."""
    key = ("self_evaluations", lex)
    cached = doc.proposals.get(key)
    if cached is not None:
        return cached
    found = []
    for start, end in _sentence_spans(doc):
        body = doc.text[start:end]
        if (
            "?" in body
            or _figure(lex).search(body)
            or request_sentence(doc.lowered[start:end], lex)
        ):
            continue
        if self_evaluative(doc.lowered[start:end], lex):
            found.append(start)
    doc.proposals[key] = found
    return found


# Copulas of a named strength ("my biggest strength is ..."); "would be" is itself a
# hedge ("my strengths would be ..."), and a past "was" narrates.
_STRENGTH_COPULAS = frozenset({"is", "are"})
# Nouns of `self_strengths` that name a skill, not a strength: they evaluate only with an
# evaluative predicate ("my skills are strong", not "my skills are in Python").
_SKILLS = frozenset({"skill", "skills"})


def self_evaluative(text: str, lex: RulesLexicon) -> bool:
    """Whether the main clause of ``text`` (lower-case) evaluates the writer's own
    capacity: "I am" / "I'm", optional articles and degree words, then a word of
    ``self_evaluation`` ("I am a strong leader"), or the writer's named strength ("my
    biggest strength is that I stay calm": "my", an optional ranking word of
    ``subject_evaluative``, a noun of ``self_strengths``, "is"/"are"). Both are the
    writer's judgement of themselves (Martin and White 2005, judgement of capacity), not
    an experience, possession or plan ("I am 22", "my job is in sales")."""
    claims = lex.claims
    words = _WORDS.findall(_CLAUSE_END.split(text, maxsplit=1)[0])
    if words[:1] == ["my"]:
        rest = words[1:]
        if rest[:1] and rest[0] in claims["subject_evaluative"]:
            rest = rest[1:]
        strengths = frozenset(claims["self_strengths"])
        if rest[1:2] and rest[0] not in strengths and rest[1] in strengths:
            rest = rest[1:]  # "my communication skills are strong"
        if len(rest) < 3 or rest[0] not in strengths or rest[1] not in _STRENGTH_COPULAS:
            return False
        if rest[0] not in _SKILLS:
            return bool(rest[2] != "not")  # a named strength evaluates by itself
        # "my skills are strong", never "my skills are in Python" (a description)
        fillers = frozenset(claims["self_fillers"])
        predicate = next((w for w in rest[2:6] if w not in fillers), "")
        return predicate in frozenset(claims["self_evaluation"])
    if words[:2] == ["i", "am"]:
        rest = words[2:]
    elif words[:1] == ["i'm"]:
        rest = words[1:]
    else:
        return False
    targets, fillers = lex.claim_set("self_evaluation"), lex.claim_set("self_fillers")
    for i, word in enumerate(rest[:4]):
        if word in targets:
            after = rest[i + 1 : i + 2]
            if word in lex.claim_set("stance_evaluations") and not lex.claim_set(
                "stance_prepositions"
            ).isdisjoint(after):
                return False  # "I'm flexible on the breakup": a position the writer takes
            # "I am very motivated to join your team": a wish the writer knows first-hand,
            # not a judgement of capacity (heldout26h hedge reading, MEANING)
            return after != ["to"]
        if word not in fillers:
            return False
    return False


_PAST_COPULAS = frozenset({"was", "were", "wasn't", "weren't"})


def _past_state(doc: Doc, aux: Word, nxt: Word, lex: RulesLexicon) -> bool:
    """Whether a past copula describes a state rather than judging: "the pipe was fine the
    day before" reports what the writer saw, and "was possibly fine" doubts it (hedgefix3
    judgement, MEANING). Only a judgement of ``past_judgements`` (claims.yaml) or a
    passive with its cause ("was closed by mistake") after was/were takes an adverb."""
    if aux.lower not in _PAST_COPULAS:
        return False
    skip = lex.word_classes["past_predicate_skip"]
    word: Word | None = nxt
    while word is not None and word.lower in skip:
        word = doc.next_word(word.end)
    if word is None:
        return True
    after = doc.next_word(word.end)
    if after is not None and after.lower == "by" and word.lower.endswith(("ed", "en")):
        return False  # a passive with its cause: "was closed by mistake", "caused by"
    return word.lower not in lex.claim_set("past_judgements")


def _verb_group(aux: Word, nxt: Word, lex: RulesLexicon) -> bool:
    """Whether ``aux`` is an auxiliary here: "has" before a participle ("has ignored"),
    not the main verb of possession ("has no record": "has probably no record" is
    ungrammatical)."""
    if aux.lower.rstrip("n't").rstrip("'") not in ("has", "have", "had", "hasn", "haven", "hadn"):
        return True
    return (
        nxt.lower in ("not", "been", "never")
        or nxt.lower in lex.participles
        or (nxt.lower.endswith("ed"))
    )


def _adverb(word: str, lex: RulesLexicon) -> bool:
    return word.endswith("ly") or word in lex.degree_words or word in lex.hedge_cues


def claim_sentences(doc: Doc, lex: RulesLexicon) -> list[tuple[int, int]]:
    """Spans (first letter to the next sentence) of the claim sentences of ``doc``."""
    return [span for span, evaluates in _classified(doc, lex) if evaluates]


def statement_sentences(doc: Doc, lex: RulesLexicon) -> list[tuple[int, int]]:
    """Third-person statements: the sentences a claim could be, evaluative or not (a
    subject starter, no question, no figure). The confident direction may firm up an
    existing hedge in one; only claims receive new hedges or boosters."""
    return [span for span, _ in _classified(doc, lex)]


# A wh-word then an auxiliary with no copula later: a question its writer did not mark
# ("what is the right way to ask."; heldout40h judgement, UNGRAMMATICAL for "what is
# certainly the right way"), not a pseudo-cleft ("what is clear is that ...").
_UNMARKED_QUESTION = re.compile(
    r"(?:what|which|how|why|where|when|who)\s+(?:is|are|was|were|should|can|could|would|"
    r"will|do|does|did|shall|must)\b(?![^.!?]*\b(?:is|are|was|were)\b)"
)


# "not just X, it's Y": a correction the writer states as certain in both halves; a hedge
# on the first half clashes with the second ("This is probably not just a wrong item,
# it's a serious issue"; round 36 judgement, MEANING)
_CORRECTIVE = re.compile(r"\bnot (?:just|only|merely|simply)\b")


def _classified(doc: Doc, lex: RulesLexicon) -> list[tuple[tuple[int, int], bool]]:
    key = ("claim_sentences", lex)
    cached = doc.proposals.get(key)
    if cached is not None:
        return cached
    claims = lex.claims
    starters = frozenset(claims["subject_starters"])
    lead = _lead_cues(lex)
    found = []
    for start, end in _sentence_spans(doc):
        first = _subject(doc, start, lead)
        if first is None or first.lower not in starters:
            continue
        body = doc.text[start:end].rstrip()
        if "?" in body or _figure(lex).search(body) or settled(doc.lowered[start:end], lex):
            continue
        if _UNMARKED_QUESTION.match(doc.lowered, first.start, end):
            continue  # "what is the right way to ask.": a question without its mark
        if request_sentence(doc.lowered[start:end], lex):
            continue  # "a real answer would be appreciated": a request, never hedged
        if _CORRECTIVE.search(doc.lowered, first.start, end):
            continue  # "This is not just a wrong item, it's a serious issue"
        if quoted(body) or repeated(doc.lowered[start:end], lex):
            # "Each time the technician 'will visit tomorrow' and never comes": someone's
            # words, or events the writer lived through again and again, never a claim
            # (heldout21 hedge reading, MEANING)
            continue
        if self_evaluative(doc.lowered[first.start : end], lex):
            continue  # "my biggest strength is ...": only a self frame goes on it
        if _motive_or_admission(doc.lowered[first.start : end], lex):
            continue  # "The main reason is growth", "It was my mistake": the writer's own
        clause = _CLAUSE_END.split(doc.lowered[first.start : end], maxsplit=1)[0]
        if _OTHERS_REPORT.match(clause) or _OWN_SIDE.search(doc.lowered[start:end]):
            # "A few colleagues say ...", "My manager thinks ...": another's words or
            # view; "That is their app's fault, not mine": the writer's own conduct set
            # against another's (heldout22h hedge reading, MEANING for both)
            continue
        if _felt_reaction(clause, lex):
            continue  # "This is really frustrating": the writer's own feeling
        found.append(((start, end), _evaluation(clause, lex)))
    doc.proposals[key] = found
    return found


# "and" before a subject of its own: a second main clause ("... and the client later
# restated").
_COORDINATED_SUBJECT = re.compile(
    r" and (?=(?:the|my|our|your|their|his|her|its|this|that|these|those|they|he|she|we|i|"
    r"it|you)\b)"
)


def coordinated_claims(doc: Doc, lex: RulesLexicon, offset: int) -> bool:
    """Whether every main clause joined by "and" after the first in the sentence at
    ``offset`` is a claim too. A cue put at the sentence's start spans them all, so
    "Arguably, it led to a qualified opinion and the client later restated" doubts the
    event narrated after "and" (round 42 judgement, MEANING); a cue inside the first
    clause ("is probably unfair") does not, and a contrast after "but" stands apart."""
    begin, stop = doc.sentence_around(offset)
    sentence = doc.lowered[begin:stop]
    return all(
        _evaluation(_CLAUSE_END.split(sentence[found.end() :], maxsplit=1)[0], lex)
        for found in _COORDINATED_SUBJECT.finditer(sentence)
    )


def _motive_or_admission(text: str, lex: RulesLexicon) -> bool:
    """Whether the main clause of ``text`` (lower-case) states the writer's own motive
    ("The main reason is growth": a subject noun of claims.yaml ``motive_nouns`` after
    "the"/"my"/"our" and an optional ranking word) or admits their own fault ("It was my
    mistake": "my"/"our" before a word of ``admitted_faults``). Both are the writer's to
    know: a hedge doubts them and a booster ("I am confident that the main reason is
    growth") protests too much (heldout31h and heldout32h hedge readings, MEANING)."""
    words = _WORDS.findall(_CLAUSE_END.split(text, maxsplit=1)[0])
    faults = lex.claim_set("admitted_faults")
    if any(a in _OWN and b in faults for a, b in itertools.pairwise(words)):
        return True
    if words[:1] not in (["the"], ["my"], ["our"]):
        return False
    rest = words[1:]
    if rest[:1] and rest[0] in lex.claims["subject_evaluative"]:
        rest = rest[1:]
    return bool(rest) and rest[0] in lex.claim_set("motive_nouns")


# A clause boundary: a mark before a space or the end (never the comma of "$1,800").
_CLAUSE_BREAK = re.compile(r"[,;:.!?\u2014](?=\s|$)")


def figure_in_clause(doc: Doc, lex: RulesLexicon, offset: int) -> bool:
    """Whether the clause from ``offset`` to its next clause mark holds a figure ("my rent
    would probably go from $1,800 to $2,900"): a hedge there estimates the figure, and
    deleting it states the estimate as exact (heldout32h hedge reading, MEANING)."""
    stop = doc.sentence_around(offset)[1]
    mark = _CLAUSE_BREAK.search(doc.lowered, offset, stop)
    return _figure(lex).search(doc.lowered, offset, mark.start() if mark else stop) is not None


def figure_in_sentence(doc: Doc, lex: RulesLexicon, offset: int) -> bool:
    """Whether the sentence around ``offset`` holds a figure anywhere ("I have experience
    in SAP FICO, total 6 years"): a vague "some" there contradicts the stated amount
    (round 32 judgement, MEANING)."""
    start, stop = doc.sentence_around(offset)
    return _figure(lex).search(doc.lowered, start, stop) is not None


# A main clause whose subject (not the writer) reports or holds a view: a verb of saying
# or thinking within the first five words.
_OTHERS_REPORT = re.compile(
    r"(?!i\b|we\b)(?:[\w'-]+\s+){1,4}?(?:say|says|said|tell|tells|told|claim|claims|claimed|"
    r"argue|argues|argued|insist|insists|insisted|think|thinks|thought|believe|believes|"
    r"believed|feel|feels|felt)\b"
)
# The writer's own side of a contrast ("..., not mine", "not me", "not our fault").
_OWN_SIDE = re.compile(r"\bnot (?:mine|ours|me|us|my|our)\b")
# "This is", "it was", "that's": a situation as the writer lives it.
_SITUATION = re.compile(r"(?:this|that|it)(?:'s| is| was| has been| feels| felt)\b")


def _felt_reaction(clause: str, lex: RulesLexicon) -> bool:
    """Whether a clause names the writer's own reaction to the situation ("This is really
    frustrating", "it was so upsetting"; claims.yaml ``felt_reactions``): a feeling, the
    writer's to know, so no hedge or booster goes on it ("I think this is really
    frustrating", "Clearly, this is ...": heldout24h hedge reading, MEANING and
    IMPLAUSIBLE). "The process is frustrating" evaluates the process and stays a claim."""
    found = _SITUATION.match(clause)
    if found is None:
        return False
    ahead = _WORDS.findall(clause, found.end())[:3]
    return not lex.claim_set("felt_reactions").isdisjoint(ahead)


_STANCE_CATEGORIES = frozenset(
    {"epistemic_verb", "epistemic_adverb", "epistemic_modal", "epistemic_adjective",
     "shield", "conditional", "booster"}
)  # fmt: skip


def _word_pattern(phrases: set[str]) -> re.Pattern[str]:
    words = sorted(phrases, key=len, reverse=True)
    return re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w'])")


@functools.cache
def _stance_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    """Every hedge, booster, candour or doubt phrase the engine knows (claims.yaml
    ``stance_phrases``, ``candid_words``, the stance rows of hedges.tsv, every insertion
    cue, the removable ``adverbs``) and every reported-speech phrase."""
    claims = lex.claims
    phrases = set(claims["stance_phrases"]) | set(claims["reported_speech"])
    phrases |= set(claims["adverbs"]) | set(claims["inner_boosters"])
    # candour is a stance too ("..., to be honest"): "Perhaps, this fee is unfair, to be
    # honest" stacks two (round 28 judgement: a hedge clashing with "frankly")
    phrases |= set(claims["candid_words"])
    phrases |= {c for c, k in lex.hedge_cues.items() if k in _STANCE_CATEGORIES}
    for direction in ("hedged", "confident"):
        for slot in ("clause_start", "sentence_adverb", "pre_adjective", "mid_clause",
                     "after_modal", "self_clause"):  # fmt: skip
            phrases |= set(lex.insertions(slot, direction))
    return _word_pattern({p for p in phrases if p})


@functools.cache
def _tag_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    """An emphatic tag after a comma before the sentence's closing punctuation (claims.yaml
    ``emphatic_tags``: "..., simple.", "..., period!")."""
    tags = sorted(lex.claims["emphatic_tags"], key=len, reverse=True)
    return re.compile(r", (?:" + "|".join(re.escape(t) for t in tags) + r")\s*(?:[.!]|$)")


@functools.cache
def _reported_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    return _word_pattern(set(lex.claims["reported_speech"]))


_QUOTE = re.compile('["\u201c\u201d]')


def quoted(text: str) -> bool:
    """Whether ``text`` holds a quotation, in double or single quotes: someone's words,
    on which the writer's hedge or booster misattributes commitment."""
    return _QUOTE.search(text) is not None or SINGLE_QUOTED.search(text) is not None


@functools.cache
def _repeated_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    words = sorted(lex.claims["repeated_events"], key=len, reverse=True)
    alternatives = "|".join(re.escape(w) for w in words)
    # "they keep cancelling", "he kept saying": a narrated habit; never "to keep checking"
    # or "I'll keep trying" (a plan)
    keep = r"(?:keeps|kept|(?:they|we|you|people) keep) \w+ing"
    return re.compile(r"(?<![\w'])(?:" + alternatives + "|" + keep + r")(?![\w'])")


def repeated(text: str, lex: RulesLexicon) -> bool:
    """Whether ``text`` (one sentence, lower-case) narrates events that happened again and
    again (claims.yaml ``repeated_events``: "each time", "whenever", "they keep
    cancelling") with no obligation in it: the writer's own experience, not a claim."""
    if _repeated_pattern(lex).search(text) is None:
        return False
    return lex.claim_set("deontic").isdisjoint(_WORDS.findall(text))


def stance_elsewhere(
    doc: Doc, lex: RulesLexicon, start: int, end: int, own: frozenset[str] = frozenset()
) -> bool:
    """Whether the sentence around ``start:end`` already carries a hedge, a booster, a
    doubt ("no idea", "not sure") or reported speech ("they keep telling me", "said")
    outside ``start:end`` (the span an edit replaces; empty for an insertion). No new
    cue of either direction goes in such a sentence, and no modal in it is softened or
    firmed: "Indeed, they keep telling me ...", "I believe the charge seems wrong",
    "Undoubtedly, it was clearly ..." (hedgefix judgement; claims.yaml
    ``stance_phrases``, ``reported_speech``). Cues in ``own`` do not count: an operator
    that swaps every cue of a sentence the same way ("I believe the fee is probably
    unfair" -> "I know the fee is definitely unfair") keeps it consistent."""
    begin, stop = doc.sentence_around(start)
    if quoted(doc.text[begin:stop]):
        return True  # a quotation is someone's words: 'I think the form read "..."'
    if _tag_pattern(lex).search(doc.lowered, begin, stop):
        return True  # "This is cheating, simple.": an emphatic tag is a booster already
    for found in _stance_pattern(lex).finditer(doc.lowered, begin, stop):
        if found.group() in own:
            continue
        if found.end() <= start or found.start() >= end or start == end:
            return True
    for found in _VERB_EMPHASIS.finditer(doc.lowered, begin, stop):
        outside = found.end() <= start or found.start() >= end or start == end
        if outside and _emphasises_verb(found.group(1), lex):
            return True
    return False


# "really" / "truly" before a verb is a stance adverb, an emphatic booster of the
# proposition ("the extra money would really help", "I really need this"; Biber et al.
# 1999, stance adverbials); before an adjective or adverb it is a degree intensifier
# ("really good", "really quickly") and no stance (round 12 judgement, MEANING:
# "Arguably, the extra money would really help").
_VERB_EMPHASIS = re.compile(r"(?<![\w'])(?:really|truly) ([a-z]+(?:'[a-z]+)?)")


def _emphasises_verb(word: str, lex: RulesLexicon) -> bool:
    """Whether ``word`` after "really" makes it a stance adverb: a word that is no
    adjective, adverb, degree word or participle used as an adjective, nor one of
    word_classes.yaml ``not_emphasised`` (articles, "not", comparatives of degree)."""
    if (
        word in lex.word_classes["not_emphasised"]
        or word in lex.adjectives
        or word in lex.degree_words
    ):
        return False
    return not word.endswith("ly")


@functools.cache
def _doubt_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    phrases = set(lex.claims["doubt_phrases"])
    words = sorted(phrases, key=len, reverse=True)
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(
        r"(?<![\w'])(?:" + alternatives + r"|(?:not|n't) \w+ (?:sure|certain|clear))(?![\w'])"
    )


def doubtful(doc: Doc, lex: RulesLexicon, offset: int) -> bool:
    """Whether the sentence around ``offset`` states the writer's doubt ("I'm not
    completely sure", "I have no idea"; claims.yaml ``doubt_phrases``): a hedge removed
    there contradicts it."""
    begin, stop = doc.sentence_around(offset)
    return _doubt_pattern(lex).search(doc.lowered, begin, stop) is not None


@functools.cache
def _refusal_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    return _word_pattern({p.replace("’", "'") for p in lex.claims["refusal_formulas"]})


def refusal(doc: Doc, lex: RulesLexicon, offset: int) -> bool:
    """Whether the sentence around ``offset`` holds the writer's complaint formula ("this
    is not acceptable", "unacceptable", "not okay"; claims.yaml ``refusal_formulas``):
    the refusal is the point of the complaint, so no hedge goes in the sentence ("This is
    possibly not acceptable" was judged MEANING, round 10); so is a sentence that only
    denies what the one before it said (see :func:`_denies_previous`)."""
    begin, stop = doc.sentence_around(offset)
    sentence = doc.lowered[begin:stop].replace("’", "'")
    return _refusal_pattern(lex).search(sentence) is not None or _denies_previous(doc, begin)


def _denies_previous(doc: Doc, begin: int) -> bool:
    """Whether the sentence at ``begin`` only denies what the sentence before it said ("Your
    technicians said the line is fine. It is not fine."): an echoic denial (Carston 1996)
    is the writer's rebuttal, and "It is probably not fine" concedes it (round 22
    judgement, MEANING)."""
    stop = doc.sentence_around(begin)[1]
    denial = _DENIAL.fullmatch(doc.lowered, begin, stop)
    if denial is None or begin == 0:
        return False
    before = doc.sentence_around(begin - 1)[0]
    return re.search(rf"\b{denial[1]}\b", doc.lowered[before:begin]) is not None


# A whole sentence that is one negated predicate of a pronoun: "It is not fine.", "That
# wasn't true!"
_DENIAL = re.compile(
    r"\s*(?:it|this|that|they|these|those|he|she)\s+(?:is|was|are|were)(?:\s+not|n't)\s+"
    r"([a-z]+)\s*[.!]*\s*"
)


def reported(doc: Doc, lex: RulesLexicon, offset: int, *, before: bool = False) -> bool:
    """Whether the sentence around ``offset`` reports what someone else said or claims
    (claims.yaml ``reported_speech``, or a ``view_verbs`` verb after a subject other than
    the writer): a cue removed or firmed there changes their words.
    With ``before``, only a report opened before ``offset`` counts, so that a cue inside
    the reported words ("My parents are saying TCS is definitely safer") is theirs and one
    on the report itself ("He did indeed say that") is the writer's."""
    begin, stop = doc.sentence_around(offset)
    end = offset if before else stop
    if _reported_pattern(lex).search(doc.lowered, begin, end) is not None:
        return True
    own = _own_view_words(lex)
    return any(
        own.isdisjoint(m.groups()) for m in _view_pattern(lex).finditer(doc.lowered, begin, end)
    )


@functools.cache
def _own_view_words(lex: RulesLexicon) -> frozenset[str]:
    """The words before a view verb that make it the writer's own frame ("I", "I'd",
    "would"): built once, as ``reported`` runs for every cue."""
    return lex.word_classes["writer_subjects"] | lex.word_classes["cue_modals"]


@functools.cache
def _view_pattern(lex: RulesLexicon) -> re.Pattern[str]:
    """A view verb of claims.yaml ``view_verbs`` with the two words before it (groups 1
    and 2): its subject, or the subject or modal of a first-person frame ("I'd say", "I
    don't think", "I really feel")."""
    verbs = "|".join(re.escape(v) for v in sorted(lex.claims["view_verbs"], key=len, reverse=True))
    return re.compile(r"(?<![\w'])(?:([\w']+) )?([\w']+) (?:" + verbs + r")(?![\w'])")


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
    return _CLAUSE_END.search(head) is None and _reporting(lex).search(head) is None
