"""A stand-in auditor that answers guisekit's ``audit/compare`` prompt without a model.

It reads texts A and B out of the rendered prompt and answers with the JSON object the
prompt asks for, built from the exact check (every money, percentage and date difference,
material when the exact check fails on it) plus three simple cues from
``lexicons/audit/responder_cues.yaml``: a different number of negations (material), an
admission of fault found in only one text (material), and a shift in hedging by the rules
lexicon's hedge cues (minor, or material for a "strict" auditor). The cues count words, so
style fillers such as "Not gonna lie" trip the negation cue, much as a careless auditor
might be tripped; a few style rewrites are therefore flagged. End-to-end runs against
the stub server or the keyed fake therefore get realistic, deterministic verdicts. It says
nothing about what a real auditor would find: its cues are tuned to the rules engine's
fact-edit templates.

The auditor's behaviour follows its model name, so one stub can play several auditors:

- a name containing ``blind`` always answers "preserved" (an auditor that fails its
  positive controls);
- ``garbled`` always answers a JSON object cut off midway (invalid output on every re-ask);
- ``strict`` rates certainty shifts material;
- any other name is the careful default.

A text containing ``[[refuse]]`` is refused.

:func:`literal_audit_responder` plays a literal-minded auditor: it reads the system
message, takes every token the prompt gives as an example of a placeholder or redaction
(``XXXX``, ``{$3400.00}``), and excuses every value of the same shape in the two texts
before comparing them the careful way. It shows what a prompt's wording invites: under
``audit/compare.v1``, which calls ``{$3400.00}`` a placeholder, it misses a changed
braced amount; under ``v2`` it does not.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from typing import Literal

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ConfigDict, Field

from guisekit.audit.verdict import AuditDiscrepancy, AuditVerdict, Category
from guisekit.facts import check_facts
from guisekit.resources import read_yaml
from guisekit.rules.cues import hedge_score
from guisekit.testing.stub_models import StubReply, StubRequest

__all__ = [
    "AuditorStyle",
    "ResponderCues",
    "answer_audit",
    "audit_chat_responder",
    "audit_responder",
    "literal_audit_responder",
    "placeholder_examples",
    "style_of",
]

AuditorStyle = Literal["careful", "strict", "blind", "garbled"]
_GARBLED = '{"discrepancies": [{"category": "amount", "kind": '
_TEXT_A = re.compile(r"<text_a>\n(?P<text>.*?)\n</text_a>", re.DOTALL)
_TEXT_B = re.compile(r"<text_b>\n(?P<text>.*?)\n</text_b>", re.DOTALL)
_WORD = re.compile(r"[a-z]+(?:['’][a-z]+)*")
_FACT_CATEGORY: dict[str, Category] = {
    "money": "amount",
    "percent": "amount",
    "date": "date_time",
    "year": "date_time",
    "relative_date": "date_time",
    "redaction": "other",
    "quantity": "amount",
    "negation": "negation",
    "entity": "event_or_entity",
    "identifier": "event_or_entity",
}


class ResponderCues(BaseModel):
    """The cue lists of the stand-in auditor (see the data file for what each means)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    negations: frozenset[str] = Field(min_length=1)
    responsibility: tuple[str, ...] = Field(min_length=1)
    certainty_delta: int = Field(ge=1)


@functools.cache
def _cues() -> ResponderCues:
    return ResponderCues.model_validate(read_yaml("audit/responder_cues.yaml"))


def style_of(model: str) -> AuditorStyle:
    """The behaviour a model name asks for (see the module docstring)."""
    for style in ("blind", "garbled", "strict"):
        if style in model:
            return style
    return "careful"


def _negations(text: str) -> int:
    words = _WORD.findall(text.lower())
    cues = _cues().negations
    return sum(w in cues or w.endswith(("n't", "n’t")) for w in words)


def _admissions(text: str) -> set[str]:
    flat = " ".join(_WORD.findall(text.lower().replace("’", "'")))
    return {phrase for phrase in _cues().responsibility if f" {phrase} " in f" {flat} "}


def _verdict(a: str, b: str, style: AuditorStyle) -> AuditVerdict:
    found = [
        AuditDiscrepancy(
            category=_FACT_CATEGORY[d.kind],
            kind=d.change,
            material=d.severity == "fail",
            description=d.describe(),
        )
        for d in check_facts(a, b).discrepancies
    ]
    before, after = _negations(a), _negations(b)
    if before != after:
        found.append(
            AuditDiscrepancy(
                category="negation",
                kind="changed",
                material=True,
                description=f"text A has {before} negations, text B {after}",
            )
        )
    for phrase in sorted(_admissions(a) ^ _admissions(b)):
        found.append(
            AuditDiscrepancy(
                category="responsibility",
                kind="added" if phrase in _admissions(b) else "omitted",
                material=True,
                description=f"admission of fault {phrase!r} in one text only",
            )
        )
    shift = len(hedge_score(b).hedges) - len(hedge_score(a).hedges)
    if abs(shift) >= _cues().certainty_delta:
        found.append(
            AuditDiscrepancy(
                category="certainty",
                kind="changed",
                material=style == "strict",
                description=f"text B is {'less' if shift > 0 else 'more'} certain "
                f"({abs(shift)} hedges {'added' if shift > 0 else 'removed'})",
            )
        )
    overall = "material" if any(d.material for d in found) else "minor" if found else "preserved"
    return AuditVerdict(discrepancies=tuple(found), overall=overall)


def answer_audit(user: str, model: str) -> StubReply:
    """The reply of auditor ``model`` to one rendered ``audit/compare`` user message."""
    a, b = _TEXT_A.search(user), _TEXT_B.search(user)
    if a is None or b is None:
        return StubReply(text="I can only compare texts given between <text_a> and <text_b> tags.")
    if "[[refuse]]" in a["text"] + b["text"]:
        return StubReply(text="I'm sorry, but I can't help with that request.", refusal=True)
    style = style_of(model)
    if style == "garbled":
        return StubReply(text=_GARBLED)
    if style == "blind":
        return StubReply(text=json.dumps({"discrepancies": [], "overall": "preserved"}))
    verdict = _verdict(a["text"], b["text"], style)
    return StubReply(text=verdict.model_dump_json())


def audit_responder(request: StubRequest) -> StubReply:
    """Stub-server responder (``guisekit.testing.audit_responder:audit_responder``).

    The first user message holds the task; later ones are re-asks after invalid replies.
    """
    user = next((text for role, text in request.messages if role == "user"), "")
    return answer_audit(user, request.model)


def audit_chat_responder(model: str) -> Callable[[Sequence[BaseMessage]], StubReply]:
    """A :class:`~guisekit.testing.KeyedFakeChatModel` responder playing auditor ``model``."""

    def respond(messages: Sequence[BaseMessage]) -> StubReply:
        user = next((str(m.content) for m in messages if m.type == "human"), "")
        return answer_audit(user, model)

    return respond


_CALLS_PLACEHOLDER = re.compile(r"placeholder|redact", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(])")
_EXAMPLE_TOKEN = re.compile(r"\{[^{}\s]*\}|\bX[X/]*X\b")
_SHAPE_PART = re.compile(r"\d[\d,]*|X+|.", re.DOTALL)


def placeholder_examples(system: str) -> tuple[str, ...]:
    """Every token that a sentence of ``system`` mentioning placeholders or redaction
    gives as an example (``XXXX``, ``XX/XX/XXXX``, ``{$3400.00}``), in order."""
    found: list[str] = []
    for paragraph in re.split(r"\n\s*\n", system):
        for sentence in _SENTENCE_END.split(" ".join(paragraph.split())):
            if _CALLS_PLACEHOLDER.search(sentence):
                found.extend(_EXAMPLE_TOKEN.findall(sentence))
    return tuple(dict.fromkeys(found))


def _shape(example: str) -> str:
    """A pattern for every token shaped like ``example`` (digits and X runs generalised)."""
    parts = _SHAPE_PART.findall(example)
    return "".join(
        r"\d[\d,]*" if p[0].isdigit() else "X+" if p[0] == "X" else re.escape(p) for p in parts
    )


def literal_audit_responder(request: StubRequest) -> StubReply:
    """Stub-server responder of a literal-minded auditor (see the module docstring): every
    value shaped like a placeholder example of the prompt is excused, then the pair is
    compared as the careful auditor compares it."""
    system = next((text for role, text in request.messages if role == "system"), "")
    user = next((text for role, text in request.messages if role == "user"), "")
    a, b = _TEXT_A.search(user), _TEXT_B.search(user)
    if a is None or b is None:
        return StubReply(text="I can only compare texts given between <text_a> and <text_b> tags.")
    shapes = sorted((_shape(e) for e in placeholder_examples(system)), key=len, reverse=True)
    excused = re.compile("|".join(shapes)) if shapes else None

    def mask(text: str) -> str:
        return text if excused is None else excused.sub("", text)

    verdict = _verdict(mask(a["text"]), mask(b["text"]), "careful")
    return StubReply(text=verdict.model_dump_json())
