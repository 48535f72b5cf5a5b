"""Hedging (issue 13): the scorer and the hedge transform on hedged/confident pairs built
from the hedging literature's categories (tests/data/hedge_pairs.yaml), and the rule that
no approximator is ever added to a figure."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.models import Source
from guisekit.rules.checks import hedge_row
from guisekit.rules.cues import hedge_score
from guisekit.rules.engine import RulesEngine
from guisekit.specs import HedgeSpec
from guisekit.tables import read_sources

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).parents[1] / "examples" / "data"
PAIRS: list[list[str]] = yaml.safe_load((DATA / "hedge_pairs.yaml").read_text("utf-8"))
ENGINE = RulesEngine()
CATEGORIES = {
    "epistemic_verb", "epistemic_adverb", "epistemic_adjective", "epistemic_modal", "rounder",
    "adaptor", "shield", "vague_quantifier", "general_extender", "doubt_involvement",
    "compound", "conditional",
}  # fmt: skip
APPROXIMATORS = ("about", "around", "roughly", "approximately", "nearly", "almost", "some")
_FIGURE_AFTER = re.compile(
    r"\b(" + "|".join(APPROXIMATORS) + r") (?:\$|₹|\d|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|twenty|thirty|a few|several)",
    re.IGNORECASE,
)


def _score(text: str) -> float:
    score = hedge_score(text)
    return score.density - score.booster_density


def _transform(text: str, direction: str) -> str:
    spec = HedgeSpec(direction=direction, strength=1.0)
    return ENGINE.transform(Source(id="p", text=text), spec).text or ""


def test_pairs_cover_the_literature_categories() -> None:
    assert len(PAIRS) >= 100
    assert {p[0] for p in PAIRS} == CATEGORIES
    assert all(h != c for _, h, c in PAIRS)


def test_scorer_ranks_the_hedged_text_higher_in_at_least_90_percent_of_pairs() -> None:
    wins = sum(_score(h) > _score(c) for _, h, c in PAIRS)
    assert wins / len(PAIRS) >= 0.9, wins


@pytest.mark.parametrize(
    ("text", "hedges"),
    [
        ("I'd like a refund.", 0),  # a request, not a conditional hedge
        ("I'd say the fee is too high.", 1),
        ("I would have paid on time.", 0),
        ("It was about the fee.", 0),  # about = concerning
        ("It took about 3 weeks.", 1),
        ("I paid in May.", 0),
        ("I have some experience with SQL.", 1),
        ("Some of the fees were refunded.", 0),
    ],
)
def test_scorer_counts_hedges_in_context(text: str, hedges: int) -> None:
    assert len(hedge_score(text).hedges) == hedges, hedge_score(text)


# Hedges the confident direction must never remove (a rounder on a figure states a rough
# figure as exact; a restrictive focus particle or a frequency adverb restricts the claim;
# an attribution names who said it), and confident texts the hedged direction must never
# hedge (a figure; the writer's own action, practice or experience; reported speech).
# Pairs of these kinds are outside what the transform may change (LINGUISTICS.md,
# "Pragmatic limits"; held-out judgement of issue 13: "mainly because" -> "because").
# A negated doubt ("I am not sure the offer is fair") is never deleted, which would flip
# its polarity, and the "could" of a past possibility never becomes a deduction ("the
# outage could have been avoided"); hedgefix edit judgement, MEANING.
# Since the heldout5 judgement, general extenders ("and stuff", "or something": they widen
# a category, and deleting one narrows what is said), evidentials ("apparently",
# "seemingly": they name the source) and "generally" (a frequency restriction) are not
# removed either (claims.yaml ``trailing`` and ``adverbs``). Since the heldout21h hedge
# reading, extent phrases ("to some extent", "more or less": a partial state made full
# when deleted) stay too. Since the heldout24h hedge reading, conditions ("if needed", "if
# necessary": a conditional action or offer made unconditional) stay too.
_NOT_REMOVABLE = re.compile(
    r"\b(about|approximately|roughly|around|nearly|mainly|largely|mostly|partly|usually|"
    r"often|according to|not sure|could have|generally|apparently|seemingly|and stuff|"
    r"or something|and so on|to some extent|to a certain extent|to some degree|more or less|"
    r"in a way|if needed|if necessary|where possible)\b",
    re.IGNORECASE,
)
# Since the round 12 judgement an epistemic hedge on a speculation the writer cannot
# know first-hand stays (a cause or explanation, a past or predicted event, another
# party's conduct, a remembered or known fact): "I believe this is a system error" ->
# "This is a system error" and "had probably latched" -> "had latched" were judged
# MEANING (certainty/speculation in lexical.remove_hedge and certainty.speculation).
# Since the heldout21h hedge reading such a hedge is not firmed either ("was probably
# caused by" never "was definitely caused by"; strengthen_modal).
_SPECULATIVE = re.compile(
    r"\b(by mistake|caused the|caused by|billing error|will (?:possibly|probably|likely)|"
    r"following its own|not mistaken|remember correctly|best of my knowledge|seems open)\b",
    re.IGNORECASE,
)
# Since the heldout5 judgement a past evaluation of a service the writer lived through
# ("The agent was rude", "The interview was stressful") is the writer's experience too, and
# takes no new cue ("It seems that the staff was rude").
# Since the round 24 hedge reading a guess or a knowledge limit ("I imagine", "I'd
# guess", "as far as I know") stays unless it frames a gradable evaluation ("If I'm not
# mistaken, the fee is unfair"): "I imagine your kitchen is a fair bit bigger" -> "Your
# kitchen is ..." was judged MEANING (claims.yaml guess_frames; certainty.shield_needed).
_GUESSED = re.compile(
    r"^(?:as far as I (?:know|can tell)|to my knowledge|if I understand correctly"
    r"|I (?:suspect|imagine|assume)|I'd guess|I would imagine)\b"
    r"(?!.* (?:is|are) (?:misleading|low|excessive|unfair)\b)",
    re.IGNORECASE,
)
_OWN_OR_REPORTED = re.compile(
    r"^I (?!am\b|know\b|have (?:experience|exposure|knowledge)\b)|\b(?:said|wanted)\b"
    r"|\bwas (?:rude|stressful|confusing|slow)\b"
)


def _rates(pairs: list[list[str]]) -> tuple[float, float]:
    up = sum(_score(_transform(c, "hedged")) > _score(c) for _, _, c in pairs) / len(pairs)
    down = sum(_score(_transform(h, "confident")) < _score(h) for _, h, _ in pairs) / len(pairs)
    return up, down


def test_hedge_transform_moves_the_score_both_ways() -> None:
    """Measured rates (README): on the pairs the transform may change, confident ->
    hedged raises the score and hedged -> confident lowers it, each in >= 90% (issue 13);
    over all pairs the rates are lower by design (rounders, restrictive particles,
    attributions and the writer's own experience are never touched)."""
    licensed_up = [p for p in PAIRS if p[0] != "rounder" and not _OWN_OR_REPORTED.search(p[2])]
    licensed_down = [
        p
        for p in PAIRS
        if not any(r.search(p[1]) for r in (_NOT_REMOVABLE, _SPECULATIVE, _GUESSED))
    ]
    # 88 licensed removal pairs since the heldout5 judgement (extenders, evidentials and
    # "generally" left in place; see _NOT_REMOVABLE), 95 before; since round 12 the
    # speculations of _SPECULATIVE are left hedged too; 76 since the heldout21h hedge
    # reading (two extent phrases and a guessed cause left in place, 79 before); 74 since
    # the heldout24h hedge reading (two conditions left in place); 66 since the round 24
    # hedge reading (knowledge limits and guesses at facts left in place, _GUESSED); 65
    # since round 30 ("where possible" left in place, a condition like "if needed")
    assert len(licensed_up) >= 90 and len(licensed_down) >= 65
    up, _ = _rates(licensed_up)
    _, down = _rates(licensed_down)
    assert up >= 0.9, up
    assert down >= 0.9, down
    up_all, down_all = _rates(PAIRS)
    # 0.75 since the heldout5 judgement (0.78 before): new cues go only on evaluations,
    # not on past states or the writer's own experience ("the process was confusing")
    assert up_all >= 0.7, up_all
    # 0.78 since the hedgefix judgement: six pairs the confident direction "moved" before
    # were bad edits (a booster stacked on a hedge, "The fact is that ... possibly
    # unaware"; "I am not sure the offer is fair" -> "The offer is fair"; "could have been
    # avoided" -> "must have been avoided"), and no longer happen.
    # 0.72 since the heldout5 judgement: six more pairs are left alone on purpose ("and
    # stuff", "or something", "apparently", "seemingly", "generally"; _NOT_REMOVABLE).
    # 0.73 since the twelfth hedge pass ("It would seem likely that" deleted whole, "could
    # possibly be" firmed whole); at most 84/114 each way within the issue's rules
    # (benchmarks/hedge_pair_misses.py lists the rest).
    # 0.65 since the round 12 judgement (0.73 before): eight pairs whose hedge sits on a
    # speculation (a cause, "a billing error", a past or predicted event, a remembered
    # fact; _SPECULATIVE) keep it, as the judged "I believe this is a system error" does.
    # 0.64 since the heldout21 judgement: "The hiring manager seems open to negotiation"
    # reads another person's attitude, which "is open" states as fact (MEANING there;
    # claims.yaml seem_attitudes).
    # 0.63 since the heldout21h hedge reading: "The plan was more or less successful"
    # keeps its extent phrase (a partial success is no full one) and "The delay was
    # probably caused by the transfer" is no longer firmed to "definitely caused" (a
    # guessed cause, as above; strengthen_modal reads certainty.speculation).
    # 0.61 since the heldout24h hedge reading: a condition ("I can travel for the role if
    # needed", "I update the team if necessary") is never removed: on an action or an offer
    # it is content (two MEANING verdicts there).
    # 0.54 since the round 24 hedge reading: a guess or a knowledge limit ("I imagine the
    # market rate is higher", "As far as I know, the account is in good standing") stays
    # unless it frames a gradable evaluation (five MEANING verdicts there; _GUESSED).
    # 0.53 since round 30: "where possible" on a practice stays, as "if needed" does.
    assert down_all >= 0.53, down_all


def test_hedge_direction_separates_the_pair_texts() -> None:
    texts = [Source(id=f"{i}{k}", text=p[k]) for i, p in enumerate(PAIRS) for k in (1, 2)]
    row = hedge_row(texts, n_permutations=50)
    assert row.eta_squared >= 0.2 and row.eta_squared > row.null_p95, row


def test_hedge_direction_separates_the_bundled_complaints() -> None:
    """Issue 13's manipulation bar on real complaints (README: 0.29-0.33 over seeds 0-5):
    they hold few claims, so the figure rests on removing licensed cues too (a booster in
    a verb group, an evidential verb, a negated frame)."""
    complaints = read_sources(EXAMPLES / "complaints.jsonl")
    for seed in (0, 1):
        row = hedge_row(complaints, seed=seed, n_permutations=100)
        assert row.eta_squared >= 0.2 and row.eta_squared > row.null_p95, row


def _added_approximators(before: str, after: str) -> int:
    return max(0, len(_FIGURE_AFTER.findall(after)) - len(_FIGURE_AFTER.findall(before)))


def test_no_approximator_is_added_to_any_figure_of_the_bundled_sources() -> None:
    sources = [
        s
        for name in ("complaints", "interviews", "salary_questions_in")
        for s in read_sources(EXAMPLES / f"{name}.jsonl")
    ]
    added = 0
    for source in sources:
        for seed in range(3):
            for direction in ("hedged", "confident"):
                spec = HedgeSpec(direction=direction, strength=1.0)
                text = ENGINE.transform(source, spec, seed).text or ""
                added += _added_approximators(source.text, text)
    assert added == 0


def test_the_approximator_counter_can_fail() -> None:
    assert _added_approximators("It took 3 weeks.", "It took about 3 weeks.") == 1


@settings(max_examples=60, deadline=None)
@given(
    number=st.integers(min_value=2, max_value=999),
    unit=st.sampled_from(["days", "times", "weeks", "calls", "months", "minutes"]),
    frame=st.sampled_from(
        [
            "The fee is unfair and it took {n} {u}.",
            "They called {n} {u} and the agent was rude.",
            "The wait of {n} {u} is unacceptable.",
            "I waited {n} {u}.",
        ]
    ),
    seed=st.integers(min_value=0, max_value=50),
)
def test_hedging_never_adds_an_approximator(number: int, unit: str, frame: str, seed: int) -> None:
    text = frame.format(n=number, u=unit)
    for direction in ("hedged", "confident"):
        out = ENGINE.transform(
            Source(id="h", text=text), HedgeSpec(direction=direction, strength=1.0), seed
        ).text
        assert out is not None and _added_approximators(text, out) == 0, out
        assert str(number) in out
