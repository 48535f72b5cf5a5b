"""Decision models with known, planted effects, for testing ``decide`` -> ``gaps`` ->
``gelbach`` end to end offline. They say nothing about any real model.

Planted model (complaint remedy tiers no_action / non_monetary_action / monetary_action)::

    p = clip(BASE + INFORMAL * informal_marker_rate + AMOUNT * log10(1 + dollars / 100),
             0.02, 0.98)
    P(monetary_action) = p,  P(non_monetary_action) = P(no_action) = (1 - p) / 2

with ``informal_marker_rate`` the objective attribute of the same name (informal markers
per 100 words, :func:`guisekit.rules.cues.style_cues`) and ``dollars`` the largest money
amount in the text (the fact extractor). Escalation (a monetary remedy) therefore rises
with the informal-marker rate and with the amount in the text; nothing else matters.

* :func:`planted` returns the probabilities (probabilistic mode);
* :func:`planted_sampled` one label drawn from them, seeded by (text, repeat);
* :func:`null_sampled` / :func:`null` the same without the informal term: no persona effect
  beyond a small text-hash jitter;
* :func:`order_biased_responder` a stub-server responder for labelled decision prompts that
  follows the planted rule on a 1-10 rating, but picks the first option shown on a share of
  texts that depends on the option order: noise the option-order control must expose.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections.abc import Sequence
from typing import Any

from guisekit.facts import extract_facts
from guisekit.rules.cues import style_cues
from guisekit.testing.stub_models import StubReply, StubRequest, TokenLogprob, TopLogprob

__all__ = [
    "AMOUNT",
    "BASE",
    "INFORMAL",
    "escalation_probability",
    "null",
    "null_sampled",
    "order_biased_responder",
    "planted",
    "planted_sampled",
]

BASE = 0.10
INFORMAL = 0.04  # per informal marker per 100 words
AMOUNT = 0.12  # per decade of (1 + dollars / 100)
JITTER = 0.01


def largest_amount(text: str) -> float:
    """The largest money amount in ``text`` (0 when there is none)."""
    amounts = [float(f.amount) for f in extract_facts(text) if f.kind == "money" and f.amount]
    return max(amounts, default=0.0)


def _unit(*parts: Any) -> float:
    digest = hashlib.sha256(json.dumps(parts, default=str).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


@functools.lru_cache(maxsize=65536)
def _features(text: str) -> tuple[float, float]:
    return style_cues(text).informal_markers, largest_amount(text)


def escalation_probability(text: str, *, informal: float = INFORMAL, jitter: float = 0.0) -> float:
    """The planted P(monetary) of ``text`` (see the module docstring)."""
    rate, amount = _features(text)
    p = BASE + informal * rate + AMOUNT * math.log10(1 + amount / 100)
    p += jitter * (2 * _unit("jitter", text) - 1)
    return min(0.98, max(0.02, p))


def _probs(p: float) -> dict[str, float]:
    return {"no_action": (1 - p) / 2, "non_monetary_action": (1 - p) / 2, "monetary_action": p}


def _draw(p: float, text: str, repeat: int) -> str:
    u = _unit("draw", text, repeat)
    if u < p:
        return "monetary_action"
    return "non_monetary_action" if u < p + (1 - p) / 2 else "no_action"


def planted(items: Sequence[dict[str, Any]], task: str) -> list[dict[str, Any]]:
    """Label probabilities from the planted rule."""
    return [{"probs": _probs(escalation_probability(i["text"]))} for i in items]


def planted_sampled(items: Sequence[dict[str, Any]], task: str) -> list[dict[str, Any]]:
    """One label drawn from the planted probabilities, seeded by (text, repeat)."""
    return [
        {"label": _draw(escalation_probability(i["text"]), i["text"], i["repeat"])} for i in items
    ]


def null(items: Sequence[dict[str, Any]], task: str) -> list[dict[str, Any]]:
    """Probabilities that depend on the amount only, plus a +-1 pp text-hash jitter."""
    return [
        {"probs": _probs(escalation_probability(i["text"], informal=0.0, jitter=JITTER))}
        for i in items
    ]


def null_sampled(items: Sequence[dict[str, Any]], task: str) -> list[dict[str, Any]]:
    """One label drawn from the null model's probabilities."""
    out = []
    for i in items:
        p = escalation_probability(i["text"], informal=0.0, jitter=JITTER)
        out.append({"label": _draw(p, i["text"], i["repeat"])})
    return out


_TEXT = re.compile(r"<text>\n(?P<text>.*)\n</text>", re.DOTALL)
_OPTION = re.compile(r"^- (?P<label>[A-Za-z0-9_]+)", re.MULTILINE)
FIRST_OPTION_SHARE = 0.3


def planted_rating(text: str) -> int:
    """The planted 1-10 rating: 8 minus one point per 2 informal markers per 100 words."""
    return int(min(10, max(1, round(8 - 0.5 * style_cues(text).informal_markers))))


REMEDY_LABELS = ("no_action", "non_monetary_action", "monetary_action")


def order_biased_responder(request: StubRequest) -> StubReply:
    """Stub responder for labelled decision prompts (``decide/complaint_remedy_labels``,
    ``decide/interview_rating``). It answers by the planted rule (a remedy label drawn
    from the planted probabilities, seeded by the text; or the planted rating), except that
    on about 30% of (text, option order) pairs it takes the first option listed: its answer
    depends on the option order but never on repeats."""
    system = "\n".join(t for role, t in request.messages if role == "system")
    user = next((t for role, t in request.messages if role == "user"), "")
    found = _TEXT.search(user)
    options = _OPTION.findall(system)
    if found is None or not options:
        return StubReply(text="I can only take decisions on texts between <text> tags.")
    text = found["text"]
    probs: dict[str, float] | None = None
    if set(options) <= set(REMEDY_LABELS):
        probs = _probs(escalation_probability(text))
        label = _draw(probs["monetary_action"], text, 0)
    else:
        label = str(planted_rating(text))
    if _unit("first", text, options) < FIRST_OPTION_SHARE or label not in options:
        label = options[0]
        probs = None
    return _label_reply(label, probs)


def _label_reply(label: str, probs: dict[str, float] | None) -> StubReply:
    """``{"label": ...}`` with OpenAI-style token log-probabilities: at the label token the
    alternatives carry ``probs`` (the planted probabilities) or 1.0 on the label."""
    probs = probs or {label: 1.0}
    top = tuple(TopLogprob(token=name, logprob=math.log(p)) for name, p in probs.items() if p > 0)
    tokens = ('{"label": "', label, '"}')
    logprobs = tuple(
        TokenLogprob(
            token=token,
            logprob=math.log(probs[label]) if token == label else 0.0,
            top=top if token == label else (TopLogprob(token=token, logprob=0.0),),
        )
        for token in tokens
    )
    return StubReply(text="".join(tokens), logprobs=logprobs)
