"""A stand-in "model" that answers guisekit's own prompts, for end-to-end runs offline.

It reads the rendered prompt the way a model would have to (the text between ``<text>``
tags, the persona id, the direction or style asked for) and answers with the rules
engine's rewrite of that text under the matching spec, as the JSON object the prompt asks
for. Runs against the stub server or the keyed fake therefore exercise every layer (prompt
rendering, HTTP, validation, cache, export, fact checks) with realistic, deterministic
output. It says nothing about what a real model would write.

Attribute prompts get a level drawn from a hash of the attribute and the text, with
token log-probabilities in OpenAI's format (70% on the chosen level), so the logprobs path
of the scorer runs end to end. Texts containing ``[[refuse]]`` are refused, and a Hinglish
rewrite of a text containing ``[[devanagari]]`` puts Devanagari in its first answer (valid
once re-asked), which lets tests place a refusal or a validation failure on a chosen
source.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from guisekit.models import Source
from guisekit.rules import RulesEngine
from guisekit.specs import TransformSpec, parse_spec
from guisekit.testing.stub_models import StubReply, StubRequest, TokenLogprob, TopLogprob

__all__ = [
    "answer_prompt",
    "attribute_reply",
    "chat_responder",
    "demo_responder",
    "echo_responder",
    "rewrite_responder",
]

_TEXT = re.compile(r"<text>\n(?P<text>.*)\n</text>", re.DOTALL)
_PERSONA = re.compile(r"as this person would write it \((?P<id>[a-z_]+(?:-[a-z_]+)+)\)")
_FACTOR = re.compile(r"by (?P<factor>[0-9.]+), writing")
_AMOUNT = re.compile(r"amount of money, (?P<amount>\S+), that")
_ATTRIBUTE = re.compile(r"^Attribute: (?P<name>[^\n]+?) - ", re.MULTILINE)
_LEVELS = ("low", "medium", "high")
_MIX = re.compile(r"Put about (?P<percent>\d+)% of")
_STYLES = {"plain, neutral": "plain", "formal, neutral": "formal", "simple English": "simple"}


@functools.cache
def _engine() -> RulesEngine:
    return RulesEngine()


def _spec(user: str) -> TransformSpec | None:
    if match := _PERSONA.search(user):
        levels = dict(
            zip(("age", "geography", "education", "ses"), match["id"].split("-"), strict=True)
        )
        return parse_spec({"transform": "persona", "persona": levels})
    if "more hedged and tentative" in user:
        return parse_spec({"transform": "hedge", "direction": "hedged"})
    if "more confident and assertive" in user:
        return parse_spec({"transform": "hedge", "direction": "confident"})
    if "second-language markers" in user:
        return parse_spec({"transform": "accent"})
    if match := _FACTOR.search(user):
        return parse_spec(
            {"transform": "fact_edit", "kind": "scale_amounts", "factor": match["factor"]}
        )
    if match := _AMOUNT.search(user):
        return parse_spec(
            {"transform": "fact_edit", "kind": "strengthen", "amount": match["amount"]}
        )
    if "Weaken the writer's case" in user:
        return parse_spec({"transform": "fact_edit", "kind": "weaken"})
    if match := _MIX.search(user):
        return parse_spec({"transform": "hinglish", "mix_ratio": int(match["percent"]) / 100})
    for phrase, style in _STYLES.items():
        if phrase in user:
            return parse_spec({"transform": "standardise", "style": style})
    return None


def attribute_reply(attribute: str, text: str) -> StubReply:
    """A level for ``attribute`` of ``text`` with log-probabilities over the three levels."""
    digest = hashlib.sha256(f"{attribute}|{text}".encode()).digest()
    chosen = _LEVELS[digest[0] % 3]
    probabilities = {level: (0.7 if level == chosen else 0.15) for level in _LEVELS}
    top = tuple(TopLogprob(token=lvl, logprob=math.log(p)) for lvl, p in probabilities.items())
    tokens = ['{"', "level", '":', ' "', chosen, '"}']
    logprobs = tuple(
        TokenLogprob(
            token=token,
            logprob=math.log(0.7) if token == chosen else 0.0,
            top=top if token == chosen else (TopLogprob(token=token, logprob=0.0),),
        )
        for token in tokens
    )
    return StubReply(text="".join(tokens), logprobs=logprobs)


def answer_prompt(system: str, user: str, reasked: bool = False) -> StubReply:
    """The reply to one rendered guisekit prompt (rewrite or attribute); ``reasked`` when
    an earlier answer in the conversation was sent back."""
    found = _TEXT.search(user)
    if found is None:
        return StubReply(text="I can only rewrite texts given between <text> tags.")
    text = found["text"]
    if "[[refuse]]" in text:
        return StubReply(text="I'm sorry, but I can't help with that request.", refusal=True)
    if attribute := _ATTRIBUTE.search(user):
        return attribute_reply(attribute["name"], text)
    spec = _spec(user)
    if spec is None:
        return StubReply(text=json.dumps({"text": text, "changes": []}))
    clean = text.replace("[[devanagari]]", "").strip()
    variant = _engine().transform(Source(id="stub", text=clean), spec)
    changes = sorted({edit.operator for edit in variant.provenance.edits})
    rewritten = variant.text or clean
    if spec.transform == "hinglish" and "[[devanagari]]" in text and not reasked:
        rewritten = "मैं " + rewritten
    return StubReply(text=json.dumps({"text": rewritten, "changes": changes}))


def rewrite_responder(request: StubRequest) -> StubReply:
    """Stub-server responder (``guisekit.testing.responders:rewrite_responder``)."""
    system = "\n".join(text for role, text in request.messages if role == "system")
    # The first user message holds the task; later ones are re-asks after invalid replies.
    user = next((text for role, text in request.messages if role == "user"), "")
    reasked = any(role == "assistant" for role, _ in request.messages)
    return answer_prompt(system, user, reasked)


def chat_responder(messages: Sequence[BaseMessage]) -> StubReply:
    """:class:`~guisekit.testing.KeyedFakeChatModel` responder answering the same way."""
    system = "\n".join(str(m.content) for m in messages if m.type == "system")
    user = next((str(m.content) for m in messages if m.type == "human"), "")
    return answer_prompt(system, user, any(m.type == "ai" for m in messages))


def echo_responder(request: StubRequest) -> StubReply:
    """Answers every rewrite prompt with its text unchanged: the cheapest valid reply, for
    throughput benchmarks where the stub must spend no CPU on rewriting."""
    user = next((text for role, text in request.messages if role == "user"), "")
    found = _TEXT.search(user)
    return StubReply(text=json.dumps({"text": found["text"] if found else "ok", "changes": []}))


def demo_responder(request: StubRequest) -> StubReply:
    """Answers every guisekit prompt: rewrites and attributes as :func:`rewrite_responder`,
    audits as :func:`~guisekit.testing.audit_responder.audit_responder`. Used by the README's
    offline walk-through of the LLM path (``--responder
    guisekit.testing.responders:demo_responder``)."""
    from guisekit.testing.audit_responder import audit_responder

    if any("<text_a>" in text for role, text in request.messages if role == "user"):
        return audit_responder(request)
    return rewrite_responder(request)
