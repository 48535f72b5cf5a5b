"""Hypothesis properties of the rules engine's transforms."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guisekit.facts import check_facts
from guisekit.models import Source
from guisekit.personas import load_grid
from guisekit.rules import RulesEngine
from guisekit.rules.lexicon import default_lexicon
from guisekit.rules.protect import protected_spans
from guisekit.specs import (
    AccentSpec,
    HedgeSpec,
    IdentitySpec,
    PersonaSpec,
    StandardiseSpec,
)

ENGINE = RulesEngine()
FACTS = [
    "$1,234.56",
    "{$3400.00}",
    "03/14/2023",
    "March 14th, 2023",
    "XX/XX/XXXX",
    "XX/XX/2019",
    "XXXX",
    "24.99%",
    "Rs. 12,00,000",
    "12-15 LPA",
    "18 lakhs",
    "account ending in 4417",
    "john.doe@example.com",
    "https://example.com/a?b=1",
    '"do not pay this"',
    "in 2019",
    "last Tuesday",
    "(555) 201-2020",
    "twelve hundred dollars",
    "#48213",
    "XXXX1234",
]


@cache
def _vocabulary() -> list[str]:
    lex = default_lexicon()
    words: set[str] = {"I", "the", "a", "an", "bank", "card", "was", "is", "will", "very"}
    for phrase_map in (
        lex.register_up,
        lex.register_down,
        lex.contractions,
        lex.expansions,
        lex.misspell,
        lex.request_polite,
        lex.modal_soften,
        lex.progressive,
    ):
        words.update(list(phrase_map.mapping)[:80])
    words.update(list(lex.adjectives)[:60])
    words.update(list(lex.third_person)[:30])
    return sorted(words)


@st.composite
def texts(draw: st.DrawFn) -> str:
    sentences = []
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        parts = draw(st.lists(st.sampled_from(_vocabulary()), min_size=2, max_size=12))
        if draw(st.booleans()):
            parts.insert(draw(st.integers(0, len(parts))), draw(st.sampled_from(FACTS)))
        sentence = " ".join(parts)
        sentence = sentence[:1].upper() + sentence[1:]
        sentences.append(sentence + draw(st.sampled_from([".", ".", "!", "?"])))
    joiner = draw(st.sampled_from([" ", " ", "\n\n"]))
    return joiner.join(sentences)


PERSONAS = [p.as_dict() for p in load_grid().personas()]
STYLE_SPECS = st.one_of(
    st.sampled_from(PERSONAS).map(lambda p: PersonaSpec(persona=p)),
    st.builds(
        HedgeSpec, direction=st.sampled_from(["hedged", "confident"]), strength=st.floats(0, 1)
    ),
    st.builds(AccentSpec, article_drop_rate=st.floats(0, 1), marker_rate=st.floats(0, 1)),
    st.sampled_from(["plain", "formal", "simple"]).map(lambda s: StandardiseSpec(style=s)),
    st.just(IdentitySpec()),
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _protected_texts(text: str) -> list[str]:
    return [text[s:e] for s, e in protected_spans(text)]


@given(texts(), STYLE_SPECS, st.integers(min_value=0, max_value=2**32))
@SETTINGS
def test_protected_spans_survive_every_style_transform(text: str, spec, seed: int) -> None:
    variant = ENGINE.transform(Source(id="s", text=text), spec, seed)
    assert variant.text is not None
    remaining = variant.text
    for piece in _protected_texts(text):  # each protected span, in order, byte-identical
        position = remaining.find(piece)
        assert position >= 0, (piece, text, variant.text)
        remaining = remaining[position + len(piece) :]
    result = check_facts(text, variant.text)
    assert result.discrepancies == (), [d.describe() for d in result.discrepancies]


@given(texts(), st.integers(min_value=0, max_value=2**32))
@SETTINGS
def test_identity_spec_is_identity(text: str, seed: int) -> None:
    variant = ENGINE.transform(Source(id="s", text=text), IdentitySpec(), seed)
    assert variant.text == text
    assert variant.provenance.edits == ()


@given(texts(), st.sampled_from(["plain", "formal", "simple"]), st.sampled_from(PERSONAS))
@SETTINGS
def test_standardise_is_idempotent(text: str, style: str, persona: dict[str, str]) -> None:
    guise = ENGINE.transform(Source(id="s", text=text), PersonaSpec(persona=persona)).text
    assert guise is not None
    spec = StandardiseSpec(style=style)  # type: ignore[arg-type]
    once = ENGINE.transform(Source(id="s", text=guise), spec).text
    assert once is not None
    twice = ENGINE.transform(Source(id="s", text=once), spec).text
    assert twice == once


@given(texts(), STYLE_SPECS, st.integers(min_value=0, max_value=3))
@SETTINGS
def test_same_seed_same_output_and_global_random_untouched(text: str, spec, seed: int) -> None:
    state = random.getstate()
    first = ENGINE.transform(Source(id="s", text=text), spec, seed)
    second = RulesEngine().transform(Source(id="s", text=text), spec, seed)
    assert random.getstate() == state
    assert first.text == second.text
    assert first.provenance.edits == second.provenance.edits
    assert first.variant_id == second.variant_id


_SCRIPT = """
import json, sys
from guisekit.tables import read_sources
from guisekit.personas import load_grid
from guisekit.rules import RulesEngine
from guisekit.specs import PersonaSpec
engine = RulesEngine()
source = read_sources(sys.argv[1])[0]
print(json.dumps([engine.transform(source, PersonaSpec(persona=p.as_dict()), 0).text
                  for p in load_grid().personas()]))
"""


def test_output_is_identical_across_processes_and_hash_seeds(tmp_path) -> None:
    """Python's str hashing is salted per process: set iteration order must not leak into
    the output."""
    corpus = tmp_path / "one.jsonl"
    complaints = Path(__file__).parents[1] / "examples" / "data" / "complaints.jsonl"
    corpus.write_text(
        complaints.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8"
    )
    outputs = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run(
            [sys.executable, "-c", _SCRIPT, str(corpus)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1


# --- edit judgement round 5 (issue 13): three ungrammatical edit classes, in general ------

_NOUNS = ["rejection", "delay", "meeting", "fee", "advice", "letter", "decision"]
_CONDITIONS = ["where possible", "if possible", "if needed", "if necessary"]


@given(
    st.sampled_from(["and", "but", "or"]),
    st.sampled_from(_CONDITIONS),
    st.sampled_from(["the logs", "the reports", "the written notes"]),
)
@settings(max_examples=40, deadline=None)
def test_a_bracketed_condition_on_a_plan_is_never_removed(conj: str, hedge: str, tail: str) -> None:
    """Round 5 judged a removed bracketed hedge that left a comma behind; since round 30 a
    condition on an action is content ("under 300 lines where possible" -> "under 300
    lines" judged MEANING) and stays, commas and all."""
    text = f"The team will review the tests {conj}, {hedge}, {tail} by Friday."
    assert ENGINE.try_operator("remove_hedge.v1", text).text == text


_POLITENESS = [h for h in default_lexicon().claims["politeness_hedges"] if " " in h]


@given(
    st.sampled_from(["Please send me", "Could you send me", "Could someone give me",
                     "I would like"]),
    st.sampled_from(_POLITENESS),
    st.sampled_from(["a date", "the refund", "a written reply"]),
)  # fmt: skip
@settings(max_examples=40, deadline=None)
def test_a_politeness_hedge_in_a_request_is_never_removed(ask: str, hedge: str, tail: str) -> None:
    """issue 13 (spent held-out texts): "if possible" inside a request belongs to the request."""
    text = f"{ask} an update and, {hedge}, {tail} by Friday."
    out = ENGINE.try_operator("remove_hedge.v1", text).text
    assert hedge in out.lower()


_FEELINGS = default_lexicon().claims["narrative_states"]


@given(
    st.sampled_from(["The client", "My manager", "He", "She", "The customer"]),
    st.sampled_from([w for w in _FEELINGS if w.isalpha() and w.endswith(("ed", "y", "ious"))]),
    st.sampled_from(["hedge_clause.v1", "hedge_adverb.v1", "booster_clause.v1",
                     "booster_adverb.v1", "hedge_auxiliary.v1", "booster_auxiliary.v1"]),
)  # fmt: skip
@settings(max_examples=60, deadline=None)
def test_no_insertion_on_narrated_feelings(subject: str, feeling: str, operator: str) -> None:
    """issue 13 (spent held-out texts): "I believe the client was unhappy" doubts a narrative."""
    text = f"{subject} was {feeling} with the delay."
    assert ENGINE.try_operator(operator, text).text == text


@given(
    st.sampled_from(["know", "believe", "guess", "suppose"]),
    st.sampled_from(_NOUNS),
    st.sampled_from(["really well", "from the start", "very little"]),
)
@settings(max_examples=40, deadline=None)
def test_a_frame_with_a_noun_phrase_object_is_never_removed(
    verb: str, noun: str, rest: str
) -> None:
    text = f"I {verb} the {noun} {rest}, and I will say so."
    for name in ("remove_booster.v1", "remove_hedge.v1"):
        assert ENGINE.try_operator(name, text).text == text


@given(
    st.sampled_from(["Because of this", "Because of that", "After that", "On top of that"]),
    st.sampled_from(_NOUNS),
)
@settings(max_examples=40, deadline=None)
def test_a_demonstrative_determiner_is_never_read_as_a_connective(phrase: str, noun: str) -> None:
    text = f"{phrase} {noun} we had to pay the full amount ourselves."
    for name in ("connective_plain.v1", "connective_formal.v1"):
        assert ENGINE.try_operator(name, text).text == text


@given(
    st.sampled_from(
        ["I will", "I'll", "We will", "I may", "I am going to", "I can", "My manager agreed to"]
    ),
    st.sampled_from(["file a complaint", "escalate this", "release me in 45 days"]),
    st.sampled_from(["if necessary", "if needed", "if required", "if need be", "as needed"]),
)
@settings(max_examples=30, deadline=None)
def test_a_condition_on_an_action_is_kept(who: str, act: str, cond: str) -> None:
    """issue 13 (spent held-out texts, heldout24h): "I will file a complaint if necessary" and
    "my manager agreed to release me in 45 days if needed" stay conditional."""
    text = f"{who} {act} {cond}."
    assert ENGINE.try_operator("remove_hedge.v1", text).text == text
