"""Hindi frames, connectives and openers around clauses kept English
(:mod:`guisekit.hinglish.frames`): each sentence type gives the Hinglish a writer would
give, at every mix ratio and seed tested; the English clause is kept exactly as written;
what must not be framed is not."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.facts import check_facts
from guisekit.hinglish import hinglish_rewrite
from guisekit.specs import HinglishSpec


def _outputs(text: str) -> set[str]:
    return {
        hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed)).text
        for mix in (0.0, 0.5, 1.0)
        for seed in range(3)
    }


FRAMED = [
    # opinion, report, doubt, knowledge, request: a Hindi matrix frame, the clause English
    (
        "I think they just took the merchant's word for it.",
        {"Mujhe lagta hai ki they just took the merchant's word for it."},
    ),
    ("I'm not sure the offer is negotiable.", {"Mujhe sure nahi hai ki the offer is negotiable."}),
    (
        "They told us the flight was overbooked.",
        {"Unhone humein bataya ki the flight was overbooked."},
    ),
    (
        "I have heard that some companies take back the joining bonus if you leave within a year.",
        {
            "Maine suna hai ki some companies take back the joining bonus if you leave within "
            "a year."
        },
    ),
    (
        "That means I basically get nothing from the bonus.",
        {"Iska matlab hai ki I basically get nothing from the bonus."},
    ),
    # an English mandative subjunctive after "ki" was judged ungrammatical (heldout10);
    # since round 15 the clause is converted whole ("... remove ho jaye")
    ("I request that the late fee be removed.", {"Meri request hai ki late fee remove ho jaye."}),
    (
        "I request that the bank should refund my money.",
        {"Meri request hai ki the bank should refund my money."},
    ),
    (
        # no English wh-clause after "ki" (reading of spent sets 19-22): English
        "I want to know why the payment was reversed.",
        {"I want to know why the payment was reversed."},
    ),
    (
        "It seems that the system double-charged me.",
        {"Aisa lagta hai ki the system double-charged me."},
    ),
    (
        "The problem is that nobody answers the phone.",
        {"Problem yeh hai ki nobody answers the phone."},
    ),
    (
        "I would appreciate it if the airline refunded the full fare without further delay.",
        {"Mujhe accha lagega agar the airline refunded the full fare without further delay."},
    ),
    (
        "I understand that my background isn't typical.",
        {"Mujhe pata hai ki my background isn't typical."},
    ),
    (
        "The agent explained that the fee was automatic.",
        {"Agent ne samjhaya ki the fee was automatic."},
    ),
    (
        "I made sure that every person had time to learn the framework.",
        {"Maine ensure kiya ki every person had time to learn the framework."},
    ),
    # contractions of a clause kept English stay as the writer wrote them
    (
        "I have been paying for a rental car out of pocket for 23 days because they won't "
        "approve an extension.",
        {
            "I have been paying for a rental car out of pocket for 23 days because they won't "
            "approve an extension.",
            "I have been paying for a rental car out of pocket for 23 days kyunki they won't "
            "approve an extension.",
        },
    ),
]


@pytest.mark.parametrize(("text", "accepted"), FRAMED, ids=[c[0][:40] for c in FRAMED])
def test_frames_give_the_hinglish_a_writer_would(text: str, accepted: set[str]) -> None:
    outputs = _outputs(text)
    assert outputs <= accepted, outputs - accepted
    for out in outputs:
        assert check_facts(text, out).passed


NOT_FRAMED = [
    # a yes/no complement has no frame: "ki kya" before an English clause was judged
    # awkward (round 19)
    "I want to know if the offer can be revised.",
    # a connective, "jab", a date or an opener alone around English clauses reads as English
    # with a word replaced (heldout6 reader: awkward): the sentence stays English
    "I had a manager who preferred detailed updates, while I tended to report only "
    "when something had changed.",
    "It has now been over five weeks and I have received no response.",
    "When I joined, the team had no process for reviews.",
    "In 2022, leadership planned to spend a large budget on a campaign.",
    "Honestly, the app has been down for weeks.",
    # "while" without a comma may be "during": no "jabki"
    "We worked late while the servers were down.",
    # a person is had, not held: never "mere paas manager tha"
    "I have a manager.",
    # a thing is no speaker: "statement ne kaha" is a calque
    "The statement said the fee was waived.",
    # a wh-question or a wh-subject is never made a yes/no question or a frame
    "What they said does not match the contract.",
    "What arguments would make sense to HR?",
    # "found out when" is an adverbial clause, not a complement
    "I found out when my debit card was declined at a grocery store.",
    # the second verb belongs to the frame's subject: it may not sit after "ki"
    "The recruiter told me the range for this role is $80k-$95k and offered me $82,000.",
    # after "I want X removed", "Y corrected" is a second object, not a clause
    "I want the fraudulent accounts blocked as required and my report corrected.",
]


@pytest.mark.parametrize("text", NOT_FRAMED, ids=[t[:40] for t in NOT_FRAMED])
def test_what_is_no_clause_boundary_is_not_framed(text: str) -> None:
    assert _outputs(text) == {text}


def test_an_opener_alone_converts_nothing() -> None:
    """A discourse opener before an English clause is no Hinglish sentence: it stays
    English and the report says no template applies; a Hindi clause after the opener
    keeps it ("Sach kahun toh, ...")."""
    result = hinglish_rewrite(
        "I hope the refund arrives soon. Honestly, the app has been down for weeks.",
        HinglishSpec(),
        random.Random(0),
    )
    assert [s.status for s in result.sentences] == ["converted", "english"]
    assert result.sentences[1].text == "Honestly, the app has been down for weeks."
    assert result.sentences[1].reason is not None
    framed = hinglish_rewrite("Honestly, I need a refund.", HinglishSpec(), random.Random(0))
    assert framed.sentences[0].status == "converted"
    assert "refund chahiye" in framed.text


_CLAUSES = st.sampled_from(
    [
        "the bank never called back",
        "they charged me $35 twice",
        "my refund of ₹1,25,000 is still pending",
        "the fee went up from $20 to $35",
        "we waited 3 weeks for a reply",
        "the agent said it was fixed",
    ]
)
_FRAMES = st.sampled_from(
    ["I think {c}.", "I was told {c}.", "I'm not sure {c}.", "{c}, but {d}.", "{c} and {d}."]
)


@settings(max_examples=60, deadline=None)
@given(_FRAMES, _CLAUSES, _CLAUSES, st.integers(0, 5), st.sampled_from([0.0, 0.5, 1.0]))
def test_clauses_kept_english_are_kept_exactly(
    frame: str, first: str, second: str, seed: int, mix: float
) -> None:
    """Whatever frame or connective is written, each clause that stays English is a
    substring of the original as written, and digits, amounts and from/to survive."""
    text = frame.format(c=first, d=second)
    text = text[0].upper() + text[1:]
    result = hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed))
    assert check_facts(text, result.text).passed
    for sentence in result.sentences:
        if "frame.matrix" in sentence.templates or "frame.connective" in sentence.templates:
            tail = re.split(r"\b(?:ki|aur|lekin|kyunki|isliye)\b", sentence.text)[-1].strip(" .")
            assert tail.lower() in text.lower(), (text, sentence.text)
