"""Precision of the hedge transform's operators (issue 13; heldout2-5 edit judgements):
every judged error class of the hedge stratum comes back as a case that must not fire
(the wrong form is forbidden) next to a case where the operator does fire (the right form
is produced), and property tests over generated sentences of each guarded shape."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.models import Source
from guisekit.rules.engine import RulesEngine
from guisekit.specs import HedgeSpec

ENGINE = RulesEngine()
# Every operator of the hedge transform that puts a new cue into a sentence.
INSERTIONS = (
    "hedge_clause.v1",
    "hedge_adverb.v1",
    "hedge_adjective.v1",
    "hedge_auxiliary.v1",
    "booster_clause.v1",
    "booster_adverb.v1",
    "booster_adjective.v1",
    "booster_auxiliary.v1",
    "soften_modal.v1",
    "strengthen_modal.v1",
)


def _run(operator: str, text: str) -> str:
    return ENGINE.try_operator(operator, text).text


def _transform(text: str, direction: str, seed: int) -> str:
    spec = HedgeSpec(direction=direction, strength=1.0)
    return ENGINE.transform(Source(id="p", text=text), spec, seed).text or ""


# (operator, text, forbidden substring of the output); each from a judged edit.
WRONG = [
    # heldout5: a fallibility shield about the writer ("Maybe I'm biased" -> admission)
    ("remove_hedge.v1", "Maybe I'm biased, but I think small teams handle pressure better.",
     "I'm biased, but"),
    ("remove_hedge.v1", "It seems low to me, but maybe I'm wrong.", "but I'm wrong"),
    ("remove_hedge.v1", "Perhaps I am missing something about the fee.", "I am missing"),
    ("remove_hedge.v1", "Maybe my expectations are too high, but the offer seems low.",
     "My expectations are too high"),
    ("remove_hedge.v1", "Perhaps my memory is wrong about the date.", "My memory is wrong"),
    ("remove_hedge.v1", "Perhaps I should have read the contract more carefully.",
     "I should have read"),
    ("remove_hedge.v1", "It seems low for the role, but maybe I'm overthinking it.",
     "It is low"),
    # a possibility weighed against the claim in a second clause
    ("remove_hedge.v1", "I think that's a bit low, but maybe it is normal for a startup.",
     "but it is normal"),
    ("remove_hedge.v1", "It might be that the payment got stuck in the bank's system.",
     "must be"),
    # a modal outside the claim's main clause: the writer's request
    ("soften_modal.v1", "This is a reasonable request, and I hope you will consider it.",
     "might"),
    # a possible explanation of an event is not asserted
    ("remove_hedge.v1", "Maybe the system posted it late.", "The system posted"),
    ("remove_hedge.v1", "It is possible that the payment was lost in transit.",
     "The payment was lost"),
    # an observed conduct verb is the writer's experience
    *[(op, "They ignored my emails for weeks.", "ignored my emails")
      for op in INSERTIONS if op not in ("soften_modal.v1", "strengthen_modal.v1")],
    # a service the writer lived through takes no cue
    *[(op, "The staff was rude and the room was dirty.", "staff was rude")
      for op in ("hedge_clause.v1", "hedge_adverb.v1", "booster_adverb.v1")],
    # a past copula takes no mid-clause hedge; a maximizer does not fit "rude"
    ("hedge_auxiliary.v1", "The staff was rude and the room was dirty.", "possibly"),
    ("booster_adjective.v1", "The staff was rude and the room was dirty.", "completely"),
    # heldout5: a general extender narrows the question
    ("remove_hedge.v1", "is this normal or are they cutting too much for PF and stuff.",
     "for PF."),
    ("remove_hedge.v1", "They wanted a letter or something.", "a letter."),
    # heldout5: a demonstrative "that" deleted with the booster
    ("remove_booster.v1", "Clearly that approach works in enterprise sales, and the deals are "
     "larger.", "Approach works"),
    ("remove_booster.v1", "I know that sounds like a fake weakness, but it has caused real "
     "problems.", "Sounds like"),
    ("remove_hedge.v1", "I think that makes sense for the team.", "Makes sense"),
    # heldout5: a hedge on the writer's first-hand experience (a refusal they met)
    *[(op, "The owner won't answer a single email.", "owner") for op in INSERTIONS],
    # heldout5: a stance cue swapped in an angry complaint
    ("soften_modal.v1", "This is clearly a scam they run on every tenant, and I am done "
     "being polite about it.", "arguably"),
    # heldout3-4: "It seems" removed leaving a fragment
    ("remove_hedge.v1", "It seems like they're using a technicality to cancel it.", "Like "),
    ("remove_hedge.v1", "It seems obvious that A pays more on paper.", "Obvious that"),
    ("remove_hedge.v1", "Probably not, but the fee is still wrong.", "Not, but"),
    ("remove_hedge.v1", "It seems low to me for someone with seven years of experience.",
     "Low to me"),
    # heldout1-3: degree, quantity and approximator words are content, not hedges
    ("remove_hedge.v1", "I think it's mainly because the role sits between data and product.",
     "it's because"),
    ("remove_hedge.v1", "It slowed me down a little but my campaigns are more consistent.",
     "down but"),
    ("remove_hedge.v1", "That means I basically get nothing from the bonus.", "I get nothing"),
    ("remove_hedge.v1", "In teaching you watch people struggle, which is basically usability "
     "testing.", "which is usability"),
    ("remove_hedge.v1", "The adjuster spent maybe fifteen minutes at the house.",
     "spent fifteen"),
    # heldout3: a negated doubt flipped; a modal firmed in reported speech
    ("remove_hedge.v1", "I'm not sure I trust the counteroffer.", "I trust the"),
    ("remove_hedge.v1", "They keep telling me the equity could be worth a lot.", "must be"),
    # heldout2: a guess about another's mind asserted
    ("remove_inner_hedge.v1", "He asked me to join the panel, so I think he valued my opinion.",
     "so he valued"),
    # heldout4: a past state the writer saw, hedged or boosted
    *[(op, "The pipe was fine the day before.", "pipe was fine the day before")
      for op in INSERTIONS if op not in ("soften_modal.v1", "strengthen_modal.v1")],
    # heldout2: a booster or hedge on a discovered fact
    ("booster_auxiliary.v1", "It turned out the real issue was that the form was wrong.",
     "certainly"),
    ("hedge_adverb.v1", "It turned out the form was wrong.", "robably"),
    # hedge_auxiliary after a modal misreads the obligation or sits inside a negation
    ("hedge_auxiliary.v1", "The bank should refund the fee.", "should likely"),
    ("booster_auxiliary.v1", "The bank won't refund the unfair fee.", "won't clearly"),
    # a past narrative is not an evaluation: no "Indeed," / "Maybe," before it
    ("booster_adverb.v1", "The main thing was that people finally had a place to raise "
     "problems.", "Indeed"),
    ("hedge_adverb.v1", "The main thing was that people finally had a place to raise "
     "problems.", "Maybe"),
]  # fmt: skip


@pytest.mark.parametrize(("operator", "text", "forbidden"), WRONG)
def test_judged_bad_edit_does_not_come_back(operator: str, text: str, forbidden: str) -> None:
    out = _run(operator, text)
    if forbidden in text:
        assert out == text or forbidden in out, out  # the operator leaves the text alone
        if operator in INSERTIONS or operator == "remove_inner_hedge.v1":
            assert out == text, out
    else:
        assert forbidden not in out, out


# (operator, text, output): the right form in the same constructions.
RIGHT = [
    ("remove_booster.v1", "Clearly that approach works in enterprise sales.",
     "That approach works in enterprise sales."),
    # ("I know that sounds like a fake weakness" keeps its "I know" since heldout42h: a
    # concession about the writer's own words, lexical._knowing)
    ("remove_booster.v1", "I know that works in enterprise sales.",
     "That works in enterprise sales."),
    ("remove_booster.v1", "I know that the fee is wrong.", "The fee is wrong."),
    ("remove_booster.v1", "This is clearly a scam they run on every tenant.",
     "This is a scam they run on every tenant."),
    ("remove_booster.v1", "The report is clearly inaccurate.", "The report is inaccurate."),
    ("remove_booster.v1", "The company is clearly at fault.", "The company is at fault."),
    ("remove_hedge.v1", "I think the bank should have called me.",
     "The bank should have called me."),
    # a frame before a self-evaluation comes off: the inverse of hedge_self (pinned as
    # kept before the twelfth hedge pass, against about_the_writer's own rule)
    ("remove_hedge.v1", "I think I am a strong leader.", "I am a strong leader."),
    ("remove_hedge.v1", "I think I am a good fit for this role.",
     "I am a good fit for this role."),
    ("remove_hedge.v1", "I'd say my biggest strength is that I stay calm when things go "
     "wrong.", "My biggest strength is that I stay calm when things go wrong."),
    ("remove_hedge.v1", "I believe my main strength is breaking problems into pieces.",
     "My main strength is breaking problems into pieces."),
    # a compound opener goes whole; "could possibly be" is firmed whole, never halved
    ("remove_hedge.v1", "It would seem likely that the fee is wrong.", "The fee is wrong."),
    ("remove_hedge.v1", "The charge could possibly be an error.", "The charge must be an error."),
    # a two-word clause with a fused copula is a clause; "seems" before a degree word
    ("remove_hedge.v1", "I think it's unfair.", "It's unfair."),
    ("remove_hedge.v1", "I think that's a bit low.", "That's a bit low."),
    ("remove_hedge.v1", "The offer seems a bit low for my experience.",
     "The offer is a bit low for my experience."),
    # "I feel" before a clause is a frame; okay and decent evaluate
    ("remove_hedge.v1", "I feel the hike is too low for my experience.",
     "The hike is too low for my experience."),
    ("remove_hedge.v1", "I guess the salary is okay for a fresher.",
     "The salary is okay for a fresher."),
    ("remove_hedge.v1", "The hike seems decent but the role is not what I wanted.",
     "The hike is decent but the role is not what I wanted."),
    # a degree word before a comparative keeps the claim a claim
    ("hedge_auxiliary.v1", "The new manager is much better than the old one.",
     "The new manager is probably much better than the old one."),
    # "clearly" before a present verb of showing or conduct is a booster
    ("remove_booster.v1", "My policy clearly covers wind damage.", "My policy covers wind damage."),
    ("remove_booster.v1", "This clearly violates the FDCPA.", "This violates the FDCPA."),
    # correctness, transparency and bias are evaluations
    ("hedge_auxiliary.v1", "This deduction is not correct.",
     "This deduction is probably not correct."),
    ("hedge_auxiliary.v1", "The appraisal process is not transparent.",
     "The appraisal process is probably not transparent."),
    # a denial of fault is the writer's claim, and its frame may go
    ("remove_hedge.v1", "I think it is not my fault.", "It is not my fault."),
    # "open to" and a disputed amount are still claims
    ("hedge_auxiliary.v1", "The hiring manager is open to negotiation.",
     "The hiring manager is probably open to negotiation."),
    ("hedge_auxiliary.v1", "The amount is wrong.", "The amount is probably wrong."),
    ("hedge_auxiliary.v1", "The process is broken.", "The process is probably broken."),
    # a frame after a candour filler opens the claim
    ("remove_inner_hedge.v1", "Honestly, I think the fee is wrong.",
     "Honestly, the fee is wrong."),
    ("remove_inner_hedge.v1", "To be honest, I believe the bank should pay.",
     "To be honest, the bank should pay."),
    # a debt's legal status is the writer's reading of the law
    ("remove_inner_hedge.v1", "It is an old payday loan that I believe is past the statute "
     "of limitations in my state.", "It is an old payday loan that is past the statute of "
     "limitations in my state."),
    ("remove_hedge.v1", "Maybe the fee is wrong.", "The fee is wrong."),
    ("remove_hedge.v1", "I have some experience with SQL.", "I have experience with SQL."),
    ("remove_hedge.v1", "I believe this violates the FDCPA.", "This violates the FDCPA."),
    ("soften_modal.v1", "The company will reconsider the denial.",
     "The company might reconsider the denial."),
]  # fmt: skip


@pytest.mark.parametrize(("operator", "text", "expected"), RIGHT)
def test_operator_produces_the_right_form(operator: str, text: str, expected: str) -> None:
    assert _run(operator, text) == expected


@pytest.mark.parametrize(
    "text",
    ["The fee is unfair.", "This violates the FDCPA.", "The bank should refund the fee.",
     "The charge was unjustified.", "The bank is at fault."],
)  # fmt: skip
def test_insertions_still_fire_on_evaluations(text: str) -> None:
    for operator in ("hedge_clause.v1", "booster_clause.v1", "hedge_auxiliary.v1"):
        if operator == "hedge_auxiliary.v1" and ("should" in text or " was " in text):
            continue  # no adverb after a modal or a past copula
        assert _run(operator, text) != text, operator


def test_stance_cue_rows_are_not_softened() -> None:
    """soften_modal swaps modals only; the stance rows ("clearly" -> "arguably") serve
    strengthen_modal, and the hedged direction deletes the booster instead."""
    assert _run("soften_modal.v1", "The fee is clearly unfair.") == "The fee is clearly unfair."
    assert _run("strengthen_modal.v1", "The fee is arguably unfair.") == (
        "The fee is clearly unfair."
    )


_SELF = st.sampled_from(
    ["biased", "wrong", "missing something", "overthinking this", "too picky", "naive",
     "being unreasonable", "misreading the letter"]
)  # fmt: skip
_SHIELD_HEDGE = st.sampled_from(["Maybe", "Perhaps", "Possibly", "Probably"])
_BE = st.sampled_from(["I'm", "I am", "I was", "we're"])


@settings(max_examples=60, deadline=None)
@given(hedge=_SHIELD_HEDGE, be=_BE, state=_SELF, seed=st.integers(0, 20))
def test_a_shield_about_the_writer_is_never_removed(
    hedge: str, be: str, state: str, seed: int
) -> None:
    text = f"{hedge} {be} {state}, but the fee looks high for this area."
    out = _transform(text, "confident", seed)
    assert out.startswith(hedge), out


_FRAME = st.sampled_from(["Clearly", "Obviously", "I know", "It is clear"])
_AFTER_THAT = st.sampled_from(
    ["approach works", "sounds odd", "seems fair", "plan failed", "makes sense", "team won",
     "idea helps", "was unfair", "is wrong"]
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(frame=_FRAME, rest=_AFTER_THAT)
def test_a_demonstrative_that_is_never_deleted_with_a_cue(frame: str, rest: str) -> None:
    text = f"{frame} that {rest} for the bank."
    out = _run("remove_booster.v1", text)
    assert out.startswith("That ") or out == text, out


_NOUN = st.sampled_from(["pipe", "account", "door", "meter", "car", "heater", "balance"])
_STATE = st.sampled_from(["fine", "broken", "open", "closed", "high", "low", "normal"])
_WHEN = st.sampled_from(["the day before", "last week", "in May", "when I checked"])


@settings(max_examples=50, deadline=None)
@given(noun=_NOUN, state=_STATE, when=_WHEN, seed=st.integers(0, 20))
def test_no_cue_goes_on_a_past_state_the_writer_saw(
    noun: str, state: str, when: str, seed: int
) -> None:
    text = f"The {noun} was {state} {when}."
    assert _transform(text, "hedged", seed) == text
    assert _transform(text, "confident", seed) == text


_VERB = st.sampled_from(["answer", "return", "refund", "reply to", "fix"])
_OBJECT = st.sampled_from(["a single email", "my calls", "the deposit", "the leak"])


@settings(max_examples=50, deadline=None)
@given(verb=_VERB, obj=_OBJECT, seed=st.integers(0, 20))
def test_no_cue_goes_on_a_refusal_the_writer_met(verb: str, obj: str, seed: int) -> None:
    text = f"The owner won't {verb} {obj}."
    assert _transform(text, "hedged", seed) == text
    assert _transform(text, "confident", seed) == text


_SPELLED = st.sampled_from(["fifteen", "twenty", "forty", "several", "a couple of", "eleven"])
_ROUNDER = st.sampled_from(["maybe", "probably", "perhaps", "possibly"])


@settings(max_examples=50, deadline=None)
@given(rounder=_ROUNDER, figure=_SPELLED, seed=st.integers(0, 20))
def test_a_hedge_before_a_figure_is_never_removed(rounder: str, figure: str, seed: int) -> None:
    text = f"The adjuster spent {rounder} {figure} minutes at the house."
    assert f"{rounder} {figure}" in _transform(text, "confident", seed)


# (operator, text): contexts next to the twelfth hedge pass's new licences where the
# operator must leave the text alone.
UNTOUCHED = [
    # the writer's age, plan or job title is no self-evaluation
    ("remove_hedge.v1", "I think I am 22."),
    ("remove_hedge.v1", "I think I am going to quit."),
    ("remove_hedge.v1", "I think I am a team leader."),
    # a past strength narrates; a weakness admitted under a hedge is a shield
    ("remove_hedge.v1", "I think my biggest strength was patience."),
    ("remove_hedge.v1", "Maybe my biggest weakness is that I take on too much."),
    # a fallibility shield in the sentence keeps every hedge
    ("remove_hedge.v1", "Maybe I'm wrong, but I think I am a good fit."),
    # "could possibly be" before no evaluation stays whole
    ("remove_hedge.v1", "The charge could possibly be the one I disputed."),
    ("hedge_self.v1", "My strengths would be attention to detail and follow-through."),
    ("hedge_self.v1", "My biggest strength was patience."),
    ("hedge_self.v1", "My job is in sales."),
    ("hedge_self.v1", "My strength is 20 years of experience."),
    ("hedge_self.v1", "My strength is not coding."),
    ("booster_self.v1", "My biggest weakness is that I take on too much."),
    # skills evaluate only with an evaluative predicate; a self-evaluation takes no
    # mid-clause adverb ("my communication skills are possibly strong")
    ("hedge_self.v1", "My skills are in Python and SQL."),
    ("hedge_self.v1", "My technical skills are not strong."),
    ("hedge_auxiliary.v1", "My communication skills are strong."),
    # "I think so" and a guess about a figure keep their frame; an experiencer keeps "seems"
    ("remove_hedge.v1", "I think so."),
    ("remove_hedge.v1", "I think it's 40 dollars."),
    ("remove_hedge.v1", "I think it's fine, but maybe I'm wrong."),
    ("remove_hedge.v1", "The offer seems a bit low to me."),
    # after a candour filler: a guess about another's mind, the writer's age, "that"
    ("remove_inner_hedge.v1", "Honestly, I think they wanted to close the account."),
    ("remove_inner_hedge.v1", "Honestly, I think I am 22."),
    ("remove_inner_hedge.v1", "Tbh I think that the fee is wrong."),
    ("remove_inner_hedge.v1", "I guess, I think the fee is wrong."),
    # "I feel" before an adjective is a feeling, not a frame ("but a bit misled" before)
    ("remove_inner_hedge.v1", "Honestly I feel a bit misled."),
    ("remove_inner_hedge.v1", "It was late, but I feel a bit misled."),
    # "I feel" before an adjective or a noun phrase is a feeling, not a frame
    ("remove_hedge.v1", "I feel sick after the call."),
    ("remove_hedge.v1", "I feel bad about leaving my team."),
    ("remove_hedge.v1", "I feel the pressure every day at work."),
    # no adverb inside a modal's verb group ("should have possibly informed", and
    # "should have clearly informed" reads as manner)
    ("hedge_auxiliary.v1", "The company should have informed me before cutting my salary."),
    ("booster_auxiliary.v1", "The company should have informed me before cutting my salary."),
    # a broken thing is what the writer sees
    ("hedge_auxiliary.v1", "The replacement is also broken."),
    ("hedge_clause.v1", "The replacement is also broken."),
    # a state the writer can check and an error in a record detail they can see
    ("hedge_auxiliary.v1", "The account is still open."),
    ("booster_clause.v1", "The account is still open."),
    ("hedge_clause.v1", "The date on the letter is wrong."),
    ("hedge_auxiliary.v1", "My address on the report is incorrect."),
    # a hedged admission of the writer's own fault stays hedged
    ("remove_hedge.v1", "I guess it was my fault."),
    ("remove_hedge.v1", "Maybe it was our mistake."),
    ("remove_hedge.v1", "Perhaps that was my error."),
    # "clearly" before another verb may be manner ("explained it clearly")
    ("remove_booster.v1", "He clearly explained the process."),
    ("remove_booster.v1", "The bank clearly said no."),
    ("remove_booster.v1", "My statements did not clearly show it."),
    ("remove_booster.v1", "The letter doesn't clearly state the fee."),
    ("remove_booster.v1", "The charge isn't clearly wrong."),
    ("remove_booster.v1", "The fee wasn't obviously unfair."),
    # a knowledge shield is a hedge already; a record detail that is correct is a fact
    ("hedge_auxiliary.v1", "The bond is illegal as per my knowledge."),
    ("booster_clause.v1", "The bond is illegal as per my knowledge."),
    ("hedge_auxiliary.v1", "The address on the letter is correct."),
    # a formula that acknowledges a question is no evaluation
    ("hedge_auxiliary.v1", "That is a good question."),
    ("booster_clause.v1", "That is a good question."),
    # someone else's reading of the law is reported, not the writer's claim
    ("hedge_clause.v1", "The agent said the debt is past the statute of limitations."),
    ("hedge_auxiliary.v1", "The agent said the debt is past the statute of limitations."),
]  # fmt: skip


@pytest.mark.parametrize(("operator", "text"), UNTOUCHED)
def test_operator_leaves_the_context_alone(operator: str, text: str) -> None:
    assert _run(operator, text) == text


@pytest.mark.parametrize("op", ["hedge_self.v1", "booster_self.v1"])
def test_a_named_strength_takes_a_self_frame(op: str) -> None:
    text = "My biggest strength is that I stay calm under pressure."
    out = _run(op, text)
    assert out.startswith("I ") and out.endswith(
        " my biggest strength is that I stay calm under pressure."
    ), out
    out = _run(op, "My communication skills are strong.")
    assert out.startswith("I ") and out.endswith(" my communication skills are strong."), out


_NOT_SELF = st.sampled_from(
    ["I am 22", "I am going to quit", "I'm moving to Pune next month", "I am a team leader",
     "my strength was patience", "I am in sales", "I was a strong leader"]
)  # fmt: skip
_SELF_FRAME = st.sampled_from(["I think", "I believe", "I'd say", "I guess"])


@settings(max_examples=60, deadline=None)
@given(frame=_SELF_FRAME, rest=_NOT_SELF, seed=st.integers(0, 20))
def test_a_frame_stays_on_what_is_no_self_evaluation(frame: str, rest: str, seed: int) -> None:
    text = f"{frame} {rest}."
    assert _transform(text, "confident", seed) == text


_SELF_WORD = st.sampled_from(["strong", "good", "reliable", "organised", "careful", "calm"])
_SELF_NOUN = st.sampled_from(["leader", "fit for this role", "communicator", "engineer"])


@settings(max_examples=60, deadline=None)
@given(frame=_SELF_FRAME, adj=_SELF_WORD, noun=_SELF_NOUN, seed=st.integers(0, 20))
def test_a_frame_comes_off_a_self_evaluation(frame: str, adj: str, noun: str, seed: int) -> None:
    article = "an" if adj[0] in "aeiou" else "a"
    text = f"{frame} I am {article} {adj} {noun}."
    assert _transform(text, "confident", seed) == f"I am {article} {adj} {noun}."


_CANDOUR = st.sampled_from(["Honestly,", "To be honest,", "Frankly,", "Honestly"])
_INNER = st.sampled_from(["I think", "I believe"])
_EVALUATION = st.sampled_from(
    ["the fee is unfair", "the bank should refund it", "this violates the FDCPA"]
)
_GUESS = st.sampled_from(
    ["they wanted to close it", "the agent forgot my file", "I am 22", "it cost 40 dollars"]
)


@settings(max_examples=60, deadline=None)
@given(candour=_CANDOUR, frame=_INNER, claim=_EVALUATION, guess=_GUESS)
def test_a_frame_after_a_candour_filler_goes_only_before_an_evaluation(
    candour: str, frame: str, claim: str, guess: str
) -> None:
    assert _run("remove_inner_hedge.v1", f"{candour} {frame} {claim}.") == f"{candour} {claim}."
    kept = f"{candour} {frame} {guess}."
    assert _run("remove_inner_hedge.v1", kept) == kept


_MODAL = st.sampled_from(["should", "could", "would", "must", "might", "will"])
_PARTICIPLE = st.sampled_from(["informed me", "refunded the fee", "called back", "checked"])


@settings(max_examples=60, deadline=None)
@given(modal=_MODAL, participle=_PARTICIPLE, seed=st.integers(0, 20))
def test_no_adverb_goes_inside_a_modal_verb_group(modal: str, participle: str, seed: int) -> None:
    text = f"The company {modal} have {participle} before the deadline."
    for op in ("hedge_auxiliary.v1", "booster_auxiliary.v1"):
        out = ENGINE.try_operator(op, text, seed=seed).text
        assert f"{modal} have {participle}" in out, out


_SAME_STEM = st.sampled_from(
    [("The policy is clear.", "clearly"), ("The contract is clear about this.", "clearly"),
     ("It is obvious to everyone.", "obviously"), ("The outcome is certain.", "certainly")]
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(case=_SAME_STEM, seed=st.integers(0, 50))
def test_no_booster_repeats_the_predicate_s_stem(case: tuple[str, str], seed: int) -> None:
    text, cue = case
    for op in ("booster_auxiliary.v1", "booster_adverb.v1", "booster_clause.v1"):
        out = ENGINE.try_operator(op, text, seed=seed).text
        assert cue not in out.lower(), out


# --- heldout21h hedge reading (100 hedge edits, two readers): six classes --------------

_THING = st.sampled_from(["your meter", "the boiler", "the router", "the new sensor", "this unit"])
_FAULT = st.sampled_from(["broken", "damaged", "busted"])
_GUESS_FRAME = st.sampled_from(["I think", "I believe", "Maybe", "I suspect"])


@settings(max_examples=40, deadline=None)
@given(frame=_GUESS_FRAME, thing=_THING, fault=_FAULT, seed=st.integers(0, 20))
def test_a_guessed_fault_of_a_thing_keeps_its_hedge(
    frame: str, thing: str, fault: str, seed: int
) -> None:
    """A guessed diagnosis ("I think your meter is broken") is never firmed."""
    text = f"{frame} {thing} is {fault}, and I will not pay the bill."
    out = _transform(text, "confident", seed)
    assert out.startswith(frame), out


def test_a_broken_process_is_still_an_evaluation() -> None:
    assert _run("remove_hedge.v1", "I think the process is broken.") == "The process is broken."


_EXTENT = st.sampled_from(
    ["to some extent", "to a certain extent", "to some degree", "more or less", "in a way"]
)
_PREDICATE = st.sampled_from(
    ["HR has been sympathetic", "The new policy helped", "The plan worked", "The fee is unfair"]
)


@settings(max_examples=40, deadline=None)
@given(extent=_EXTENT, predicate=_PREDICATE, seed=st.integers(0, 20))
def test_an_extent_phrase_is_never_removed(extent: str, predicate: str, seed: int) -> None:
    """Deleting "to some extent" turns a partial state into a full one (like "partly")."""
    text = f"{predicate}, {extent}, but it is not enough."
    assert extent in _transform(text, "confident", seed)


def test_where_possible_on_a_practice_stays() -> None:
    """Since round 30 "where possible" limits when a practice holds ("under 300 lines
    where possible" -> "under 300 lines" was judged MEANING), as "if needed" does."""
    for text in ("I help out, where possible.", "I keep chunks under 300 lines where possible."):
        assert _run("remove_hedge.v1", text) == text


_CONCEDED = st.sampled_from(
    ["The new version may be better for some teams, but we don't need it.",
     "The fee may be fair, but the way they applied it was not.",
     "The offer might be higher elsewhere.",
     "Although the policy may be reasonable, it hurts new staff.",
     "The tool may be useful in some cases."]
)  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(text=_CONCEDED, seed=st.integers(0, 20))
def test_a_conceded_possibility_is_never_made_must(text: str, seed: int) -> None:
    assert "must be" not in _transform(text, "confident", seed)


def test_a_possible_evaluation_is_still_firmed() -> None:
    assert _run("remove_hedge.v1", "The fee may be unlawful.") == "The fee must be unlawful."


_FUTURE = st.sampled_from(
    ["the new wage will be higher than that from April", "the rent will go up next year",
     "the price is going to be lower in May", "it'll be cheaper after the sale"]
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(frame=st.sampled_from(["I think", "I believe", "I suppose"]), clause=_FUTURE,
       seed=st.integers(0, 20))  # fmt: skip
def test_a_predicted_fact_keeps_its_hedge(frame: str, clause: str, seed: int) -> None:
    """A prediction of an outside fact is neither asserted nor firmed to "I know"."""
    out = _transform(f"{frame} {clause}.", "confident", seed)
    assert out.startswith(frame), out


def test_a_predicted_evaluation_still_loses_its_frame() -> None:
    assert _run("remove_hedge.v1", "I think the new fee will be unfair.") == (
        "The new fee will be unfair."
    )


_FEELS = st.sampled_from(["It feels like", "It seems like", "It looks like"])
_NOUN_PHRASE = st.sampled_from(
    ["a cost-saving move dressed up as a benefit", "an unfair policy to everyone",
     "a scam from start to finish"]
)  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(frame=_FEELS, phrase=_NOUN_PHRASE)
def test_an_appearance_frame_stays_before_a_noun_phrase(frame: str, phrase: str) -> None:
    text = f"{frame} {phrase}."
    assert _run("remove_hedge.v1", text) == text


def test_an_appearance_frame_goes_before_a_clause() -> None:
    assert _run("remove_hedge.v1", "It feels like the fee is unfair.") == "The fee is unfair."


_LIVED = st.sampled_from(
    ["Each time the technician 'will visit tomorrow' and never comes.",
     "Every time the landlord will promise a repair and nothing happens.",
     "The agent will call it 'a standard fee' again.",
     "The manager keeps saying the fee is fair.",
     "Whenever the bill is wrong, the company will blame the meter."]
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(text=_LIVED, seed=st.integers(0, 20))
def test_no_cue_on_repeated_events_or_a_quotation(text: str, seed: int) -> None:
    """The writer's own report of repeated events, or someone's quoted words, is no claim."""
    assert _transform(text, "hedged", seed) == text


def test_a_prediction_about_another_party_still_takes_a_hedge() -> None:
    text = "The company will reconsider the fee."
    assert any(_transform(text, "hedged", seed) != text for seed in range(10))
