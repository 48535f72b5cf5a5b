"""Properties behind the issue 13 blind-judgement fixes (round 6, evaluation/heldout8):
an expanded "'s" before an adverb and "been" reads "has"; no one-word verb swap strands a
phrasal-verb particle; no hedge or booster goes on a request or politeness formula."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.resources import read_yaml
from guisekit.rules import RulesEngine
from guisekit.rules.lexicon import default_lexicon
from guisekit.transforms.contractions import CONTEXT

ENGINE = RulesEngine()
LEX = default_lexicon()
CONTEXT_DATA = read_yaml(CONTEXT)
ADVERBS = [*sorted(str(a) for a in CONTEXT_DATA["adverbs"]), "genuinely", "frankly", "evidently"]
SUBJECTS = ["It", "He", "She", "That", "There"]
SETTINGS = settings(max_examples=60, deadline=None)


@given(st.sampled_from(SUBJECTS), st.lists(st.sampled_from(ADVERBS), min_size=1, max_size=2))
@SETTINGS
def test_s_before_adverbs_and_been_expands_to_has(subject: str, adverbs: list[str]) -> None:
    text = f"{subject}'s {' '.join(adverbs)} been a long wait for the refund."
    out = ENGINE.try_operator("expand.v1", text).text
    assert not re.search(r"\bis\b", out.split(" been ")[0]), out
    assert out in (text, f"{subject} has {' '.join(adverbs)} been a long wait for the refund.")


VERBS = ["buy", "bought", "helped", "started", "using", "chose", "ignored", "allowed"]
PARTICLES = sorted(LEX.particles["adjacent"] - LEX.particles["prepositions"])
OBJECTS = ["it", "them", "the notice", "the remaining notice", "my old car"]


@given(
    st.sampled_from(VERBS),
    st.sampled_from(PARTICLES),
    st.sampled_from(["register_up.v1", "register_down.v1"]),
)
@SETTINGS
def test_no_swap_strands_an_adjacent_particle(verb: str, particle: str, op: str) -> None:
    text = f"They said we {verb} {particle} the rest of the contract."
    out = ENGINE.try_operator(op, text).text
    assert f" {verb} {particle} " in out, out


@given(
    st.sampled_from(VERBS),
    st.sampled_from(OBJECTS),
    st.sampled_from(sorted(LEX.particles["after_object"])),
)
@SETTINGS
def test_no_swap_strands_a_particle_after_its_object(verb: str, obj: str, particle: str) -> None:
    text = f"We {verb} {obj} {particle} last week."
    out = ENGINE.try_operator("register_up.v1", text).text
    assert out.startswith(f"We {verb} "), out


REQUESTS = [
    "A real answer would be appreciated.",
    "The bank should refund the fee, please.",
    "This would be very helpful, thank you.",
    "It would be great if the bank could reply soon.",
    "The fee should be waived, kindly.",
    "Their reply would be appreciated, as the fee is unfair.",
]
HEDGE_OPS = [
    "hedge_clause.v1", "hedge_adverb.v1", "hedge_adjective.v1", "hedge_auxiliary.v1",
    "hedge_vague.v1", "hedge_self.v1", "booster_clause.v1", "booster_adverb.v1",
    "booster_adjective.v1", "booster_auxiliary.v1", "booster_self.v1", "soften_modal.v1",
    "strengthen_modal.v1",
]  # fmt: skip


@given(st.sampled_from(REQUESTS), st.sampled_from(HEDGE_OPS), st.integers(0, 2**16))
@SETTINGS
def test_requests_are_never_hedged_or_boosted(text: str, op: str, seed: int) -> None:
    assert ENGINE.try_operator(op, text, seed=seed).text == text


# Round 9 (a fresh set, blind-judged): the error classes as properties.
SCALAR = ["good", "reasonable", "fair", "important", "helpful", "clear", "useful"]
EXTREME = sorted(LEX.intensifier_limits["literally"])


@given(st.sampled_from(SCALAR), st.integers(0, 2**16))
@SETTINGS
def test_literally_never_goes_on_a_scalar_adjective(adjective: str, seed: int) -> None:
    text = f"The offer is {adjective} for a fresher."
    assert "literally" not in ENGINE.try_operator("intensify_young.v1", text, seed=seed).text


def test_literally_still_goes_on_an_extreme_adjective() -> None:
    outs = {
        ENGINE.try_operator(
            "intensify_young.v1", f"I was {EXTREME[0]} after the call.", seed=s
        ).text
        for s in range(40)
    }
    assert f"I was literally {EXTREME[0]} after the call." in outs


@given(
    st.sampled_from(["TV", "PC", "ID"]),
    st.sampled_from(["register_up.v1", "register_down.v1", "register_up_reversible.v1"]),
)
@SETTINGS
def test_no_register_swap_expands_an_abbreviation_in_capitals(abbr: str, op: str) -> None:
    text = f"I bought a new {abbr} from the shop last week."
    assert f" {abbr} " in ENGINE.try_operator(op, text).text


def test_a_lower_case_tv_still_goes_up() -> None:
    assert "television" in ENGINE.try_operator("register_up.v1", "I bought a tv last week.").text


TAGS = ["simple", "plain and simple", "period", "full stop", "end of story"]
CLAIMS = ["This is cheating", "The fee is unfair", "The charge is wrong", "The bank should pay"]
INSERTING = [
    "hedge_clause.v1", "hedge_adverb.v1", "hedge_adjective.v1", "hedge_auxiliary.v1",
    "booster_clause.v1", "booster_adverb.v1", "booster_adjective.v1", "booster_auxiliary.v1",
]  # fmt: skip


@given(st.sampled_from(CLAIMS), st.sampled_from(TAGS), st.sampled_from(INSERTING))
@SETTINGS
def test_no_cue_goes_on_a_claim_with_an_emphatic_tag(claim: str, tag: str, op: str) -> None:
    text = f"{claim}, {tag}."
    assert ENGINE.try_operator(op, text).text == text


def test_the_same_claims_without_a_tag_take_a_cue() -> None:
    for claim in CLAIMS:
        for op in ("hedge_clause.v1", "booster_clause.v1"):
            assert ENGINE.try_operator(op, f"{claim}.").text != f"{claim}.", (claim, op)


ATTITUDE = ["thankfully", "fortunately", "unfortunately", "luckily", "sadly"]
PEOPLE = ["She", "He", "My mother", "My father", "My son"]
STATES = ["better now", "stable now", "fine", "recovering well", "doing better"]


@given(st.sampled_from(PEOPLE), st.sampled_from(STATES), st.sampled_from(INSERTING))
@SETTINGS
def test_no_cue_goes_on_a_person_s_health(person: str, state: str, op: str) -> None:
    verb = "are" if person == "They" else "is"
    text = f"{person} {verb} {state}."
    assert ENGINE.try_operator(op, text).text == text


@given(st.sampled_from(ATTITUDE), st.sampled_from(INSERTING))
@SETTINGS
def test_no_cue_goes_on_a_sentence_with_an_attitude_adverb(adverb: str, op: str) -> None:
    text = f"The fee is lower now, {adverb}."
    assert ENGINE.try_operator(op, text).text == text


# Round 10 (evaluation/heldout13): the writer's refusal takes no hedge; a pronoun that is
# the object of the verb before it takes no contracted auxiliary.
REFUSALS = ["is not acceptable", "is unacceptable", "isn't okay", "is not okay", "is not ok"]
REFUSERS = ["This", "The late fee", "Their answer", "That"]
HEDGING = ["hedge_clause.v1", "hedge_adverb.v1", "hedge_adjective.v1", "hedge_auxiliary.v1"]


@given(st.sampled_from(REFUSERS), st.sampled_from(REFUSALS), st.sampled_from(HEDGING))
@SETTINGS
def test_no_hedge_goes_on_the_writer_s_refusal(subject: str, refusal: str, op: str) -> None:
    text = f"{subject} {refusal}, because my business is suffering."
    assert ENGINE.try_operator(op, text).text == text


def test_the_same_subjects_with_an_evaluation_take_a_hedge() -> None:
    for subject in REFUSERS:
        text = f"{subject} is unfair, because my business is suffering."
        assert ENGINE.try_operator("hedge_auxiliary.v1", text).text != text, subject


OBJECT_VERBS = ["raising", "fixing", "mentioning", "reporting", "call", "fixed", "ignoring"]
OBJECT_ROWS = [("it", "will"), ("that", "is"), ("it", "is"), ("you", "are"), ("you", "will")]


@given(
    st.sampled_from(OBJECT_VERBS),
    st.sampled_from(OBJECT_ROWS),
    st.sampled_from(["contract.v1", "contractions_plain.v1", "contractions_simple.v1"]),
)
@SETTINGS
def test_no_auxiliary_contracts_onto_an_object(verb: str, row: tuple[str, str], op: str) -> None:
    pronoun, aux = row
    text = f"I worry that {verb} {pronoun} {aux} make things worse."
    assert f" {verb} {pronoun} {aux} make" in ENGINE.try_operator(op, text).text


@given(st.sampled_from(["and", "because", "but", "saying", "hoping", "think", "so"]))
@SETTINGS
def test_a_subject_pronoun_after_a_conjunction_or_clause_verb_still_contracts(word: str) -> None:
    text = f"I worry {word} it will make things worse."
    assert f" {word} it'll make" in ENGINE.try_operator("contract.v1", text).text


# Round 11 (fresh texts, /work/wt/round11_edit_errors.txt): a lower-case acronym at a
# sentence start, the "i" of "i.e.", a coordinator left by a removed opening, "wish to"
# before an unintended outcome, a hedge on the writer's own relation or possession.
ACRONYMS = sorted(LEX.acronyms.items())
STARTS = [
    ("capitalise_sentence.v1", "{w} asked for the form."),
    ("capitalise_sentence.v1", "The fee was late. {w} asked for the form."),
    ("remove_opening.v1", "Good morning, {w} asked for the form."),
    ("remove_opening.v1", "Hi, and {w} asked for the form."),
    ("remove_filler.v1", "Honestly, {w} asked for the form."),
]


@given(st.sampled_from(ACRONYMS), st.sampled_from(STARTS))
@SETTINGS
def test_a_sentence_capital_writes_a_listed_acronym_in_capitals(
    acronym: tuple[str, str], case: tuple[str, str]
) -> None:
    lower, written = acronym
    op, template = case
    out = ENGINE.try_operator(op, template.format(w=lower)).text
    assert f"{written} asked for the form." in out, out
    assert f"{lower[:1].upper()}{lower[1:]} asked" not in out or lower[1:] == written[1:], out


@given(st.sampled_from(["bank", "agent", "manager", "store", "hrm", "ctcs", "sde"]))
@SETTINGS
def test_an_unlisted_word_still_takes_a_first_letter_capital(word: str) -> None:
    if word in LEX.acronyms:
        return
    out = ENGINE.try_operator("capitalise_sentence.v1", f"{word} asked for the form.").text
    assert out == f"{word[:1].upper()}{word[1:]} asked for the form."


@given(
    st.sampled_from(["i.e.,", "i.e.", "i.e", "i.e.:"]),
    st.sampled_from(["capitalise_i.v1"]),
)
@SETTINGS
def test_the_i_of_an_abbreviation_is_never_capitalised(abbr: str, op: str) -> None:
    text = f"i waited since then, {abbr} for over 9 weeks, and i called twice."
    out = ENGINE.try_operator(op, text).text
    assert out == f"I waited since then, {abbr} for over 9 weeks, and I called twice.", out


OPENINGS = sorted({o for r in ("formal", "casual") for o in LEX.politeness("openings", r)})


@given(
    st.sampled_from([o for o in OPENINGS if o.endswith(",")]),
    st.sampled_from(["and ", "but ", "so ", "so, ", "And ", ""]),
)
@SETTINGS
def test_a_removed_opening_takes_its_coordinator_with_it(opening: str, joint: str) -> None:
    text = f"{opening} {joint}thank you for meeting me."
    assert ENGINE.try_operator("remove_opening.v1", text).text == "Thank you for meeting me."


UNINTENDED = sorted(LEX.register_context["unintended"])
WHEN_NEGATED = sorted(LEX.register_context["unintended_when_negated"])
NEGATED = ["don't want to", "do not want to", "don’t really want to", "never wanted to"]


@given(
    st.sampled_from(UNINTENDED),
    st.sampled_from([*NEGATED, "want to", "wanted to", "want to really"]),
)
@SETTINGS
def test_no_wish_to_before_an_unintended_outcome(verb: str, frame: str) -> None:
    text = f"I {frame} {verb} the offer."
    assert "wish" not in ENGINE.try_operator("register_up.v1", text).text


@given(st.sampled_from(WHEN_NEGATED), st.sampled_from(NEGATED))
@SETTINGS
def test_no_wish_to_before_a_feared_outcome_after_a_negation(verb: str, frame: str) -> None:
    text = f"I {frame} {verb} the offer."
    assert "wish" not in ENGINE.try_operator("register_up.v1", text).text


def test_wish_to_still_goes_before_a_goal_without_a_negation() -> None:
    for text in ("I want to get strong on the product side.", "I want to lose weight."):
        assert ENGINE.try_operator("register_up.v1", text).text.startswith("I wish to "), text


@given(st.sampled_from(["know", "ask", "discuss", "raise", "clarify", "understand"]))
@SETTINGS
def test_wish_to_still_goes_before_a_chosen_act(verb: str) -> None:
    text = f"I want to {verb} the terms of the offer."
    assert ENGINE.try_operator("register_up.v1", text).text.startswith("I wish to "), verb


OWN = ["My manager", "My team", "My bill", "Our landlord", "My new flat", "Our HR team"]
APPRAISALS = ["is fair", "is unfair", "was rude", "is unreasonable", "is wrong", "is helpful"]


@given(st.sampled_from(OWN), st.sampled_from(APPRAISALS), st.sampled_from(INSERTING))
@SETTINGS
def test_no_cue_goes_on_the_writer_s_own_relation_or_possession(
    subject: str, appraisal: str, op: str
) -> None:
    text = f"{subject} {appraisal}, but the MD is tough."
    assert ENGINE.try_operator(op, text).text == text


def test_the_same_appraisals_of_another_party_still_take_a_cue() -> None:
    for subject in ("The manager", "Their landlord", "The bill"):
        for appraisal in ("is unfair", "is unreasonable"):
            text = f"{subject} {appraisal}, but the MD is tough."
            for op in ("hedge_auxiliary.v1", "booster_auxiliary.v1", "hedge_clause.v1"):
                assert ENGINE.try_operator(op, text).text != text, (subject, appraisal, op)


def test_a_hedge_on_the_writer_s_own_relation_is_still_removed() -> None:
    """The confident direction may still firm up the writer's own hedged view."""
    out = ENGINE.try_operator("remove_hedge.v1", "My manager is probably fair.").text
    assert out == "My manager is fair."


# Round 12 (fresh texts, /work/wt/round12_edit_errors.txt): "really" before a verb is a
# stance adverb; what a thing would do for the writer is their own need; a frame whose
# complement is coordinated with "and that" stays; the confident direction keeps a hedge
# on a speculation; no "Therefore," from a turn-opening "So".
EMPHASISED = ["help", "matter", "need to change", "hurt the customers", "improve things"]
POLICIES = ["The new policy would", "This change will", "The bank should", "The merger would"]


@given(st.sampled_from(POLICIES), st.sampled_from(EMPHASISED), st.sampled_from(INSERTING))
@SETTINGS
def test_no_cue_goes_in_a_clause_that_really_emphasises_its_verb(
    subject: str, verb: str, op: str
) -> None:
    text = f"{subject} really {verb} the customers."
    assert ENGINE.try_operator(op, text).text == text


@given(st.sampled_from(["unfair", "unreasonable", "excessive", "misleading"]))
@SETTINGS
def test_really_before_an_adjective_is_a_degree_word_and_the_claim_takes_a_cue(
    adjective: str,
) -> None:
    """A hedge goes on it; a booster does not: the intensifier is the writer's emphasis
    already, and a confidence frame on top reads stilted (round 28 judgement)."""
    text = f"The fee is really {adjective}."
    assert ENGINE.try_operator("hedge_clause.v1", text).text.endswith(
        f" the fee is really {adjective}."
    )
    for op in ("booster_clause.v1", "booster_adverb.v1"):
        assert ENGINE.try_operator(op, text).text == text


BENEFITS = sorted(str(p) for p in LEX.claims["own_benefit"])
BENEFACTORS = ["The extra money", "A raise", "This bonus", "The refund", "It"]


@given(
    st.sampled_from(BENEFACTORS),
    st.sampled_from(BENEFITS),
    st.sampled_from(["", " to me", " for us", " with my fees", " right now"]),
    st.sampled_from(INSERTING),
)
@SETTINGS
def test_no_cue_goes_on_what_a_thing_would_do_for_the_writer(
    subject: str, benefit: str, tail: str, op: str
) -> None:
    text = f"{subject} would {benefit}{tail}, since I'm paying my sister's fees."
    assert ENGINE.try_operator(op, text).text == text


@given(st.sampled_from(["help customers", "help the team", "make a difference to the staff"]))
@SETTINGS
def test_a_benefit_to_another_party_is_a_prediction_and_takes_a_cue(predicate: str) -> None:
    text = f"The new policy would {predicate}."
    assert ENGINE.try_operator("hedge_clause.v1", text).text != text


COMPLEMENT_FRAMES = [
    ("remove_booster.v1", "I know"),
    ("remove_hedge.v1", "I think"),
    ("remove_hedge.v1", "I believe"),
    ("remove_hedge.v1", "I guess"),
    ("remove_hedge.v1", "I feel that"),
]


@given(
    st.sampled_from(COMPLEMENT_FRAMES),
    st.sampled_from([", and that", " and that", ", or that", ", but that", " and also that"]),
)
@SETTINGS
def test_a_frame_with_a_coordinated_that_complement_is_never_removed(
    frame: tuple[str, str], joint: str
) -> None:
    op, cue = frame
    text = f"{cue} the fee is unfair{joint} the bank should refund it."
    assert ENGINE.try_operator(op, text).text.startswith(cue), text


@given(st.sampled_from(COMPLEMENT_FRAMES))
@SETTINGS
def test_the_same_frame_before_a_plain_coordinated_clause_still_goes(
    frame: tuple[str, str],
) -> None:
    op, cue = frame
    text = f"{cue} the fee is unfair, and the bank should refund it."
    assert ENGINE.try_operator(op, text).text == "The fee is unfair, and the bank should refund it."


SPECULATIONS = [
    "this is a system error rather than anything deliberate",
    "it was a technical glitch",
    "the account was closed by mistake",
    "her phone had latched onto a roaming network",
    "the courier lost the parcel",
    "they sent the letter to the wrong branch",
    "the refund will arrive next week",
    "the delay was caused by the transfer",
    "the agent was upset about the call",
]
HEDGE_CUES = ["I think", "I believe", "Maybe", "Perhaps", "I suspect", "It seems that"]


@given(st.sampled_from(HEDGE_CUES), st.sampled_from(SPECULATIONS))
@SETTINGS
def test_the_confident_direction_keeps_a_hedge_on_a_speculation(cue: str, clause: str) -> None:
    text = f"{cue} {clause}."
    for op in ("remove_hedge.v1", "remove_inner_hedge.v1"):
        assert ENGINE.try_operator(op, text).text == text
    inner = f"I called them, but I think {clause}."
    assert ENGINE.try_operator("remove_inner_hedge.v1", inner).text == inner


@given(st.sampled_from(SPECULATIONS))
@SETTINGS
def test_a_mid_clause_hedge_on_a_speculation_stays(clause: str) -> None:
    words = clause.split()
    text = f"So {' '.join([*words[:2], 'probably', *words[2:]])}."
    assert "probably" in ENGINE.try_operator("remove_hedge.v1", text).text


@given(
    st.sampled_from(["I think", "I believe", "Maybe", "Perhaps"]),
    st.sampled_from(
        ["the fee is unfair", "the bank's policy is unreasonable", "the bank should refund it"]
    ),
)
@SETTINGS
def test_the_confident_direction_still_removes_a_hedge_on_an_evaluation(
    cue: str, clause: str
) -> None:
    out = ENGINE.try_operator("remove_hedge.v1", f"{cue} {clause}.").text
    assert out == f"{clause[:1].upper()}{clause[1:]}."


TURN_OPENERS = ["", "Hi. ", "Hello everyone! ", "Good morning. ", "Hi there. "]
INTRODUCTIONS = [
    "I'm Rohit Bansal, I've been in retail for nine years.",
    "my name is Priya and I work in sales.",
    "this is Anil from the Pune branch.",
    "I am Meera, a store manager in Lucknow.",
]


@given(st.sampled_from(TURN_OPENERS), st.sampled_from(INTRODUCTIONS))
@SETTINGS
def test_a_turn_opening_so_is_never_a_consequence(opener: str, rest: str) -> None:
    text = f"{opener}So {rest}"
    assert "herefore" not in ENGINE.try_operator("connective_formal.v1", text).text
    text = f"I was charged twice. So {rest}"  # a self-introduction concludes nothing
    assert "herefore" not in ENGINE.try_operator("connective_formal.v1", text).text
    text = f"Hi, so {rest}"
    assert "herefore" not in ENGINE.try_operator("connective_clause_formal.v1", text).text


@given(st.sampled_from(TURN_OPENERS[1:]))
@SETTINGS
def test_a_so_after_a_greeting_concludes_nothing_but_one_after_a_fact_still_does(
    opener: str,
) -> None:
    text = f"{opener}So my landlord is keeping my deposit."
    assert "herefore" not in ENGINE.try_operator("connective_formal.v1", text).text
    text = "I was charged twice. So I called the bank."
    assert ENGINE.try_operator("connective_formal.v1", text).text == (
        "I was charged twice. Therefore, I called the bank."
    )


@given(
    st.sampled_from(["It is likely that", "It's highly likely that", "It seems likely that"]),
    st.sampled_from(["the fault is in the junction box", "the fee is unfair"]),
)
@SETTINGS
def test_the_adjective_likely_never_becomes_certainly(frame: str, clause: str) -> None:
    """ "certainly" is an adverb only: "It is certainly that ..." is no English (round 12
    reading of heldout13 edits, UNGRAMMATICAL)."""
    out = ENGINE.try_operator("strengthen_modal.v1", f"{frame} {clause}.").text
    assert "certainly that" not in out, out


@given(st.sampled_from(["probably", "maybe", "perhaps"]))
@SETTINGS
def test_a_hedge_on_a_counterfactual_past_stays(cue: str) -> None:
    text = f"It {cue} wouldn't have happened without that relationship."
    assert cue in ENGINE.try_operator("remove_hedge.v1", text).text
