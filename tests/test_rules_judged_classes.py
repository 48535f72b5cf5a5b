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
