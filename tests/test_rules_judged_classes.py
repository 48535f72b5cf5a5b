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
