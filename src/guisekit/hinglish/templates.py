"""Clause templates compiled from ``lexicons/hinglish/templates.yaml``, and their matches.

A template pairs an English clause pattern with Hindi frames::

    en: "(?:should|shall) I {vbase:x}"
    hi: ["kya mujhe {x:inf} chahiye"]

The pattern is a regular expression over the masked clause with typed slots: ``np`` (noun
phrase), ``vbase`` / ``vpast`` / ``vpp`` / ``ving`` / ``v3`` (a verb phrase whose verb is
in that English form), ``pp?`` (an optional trailing chain of prepositional phrases),
``n`` (one protected span), ``pron`` (a pronoun), ``clause`` and ``cond`` (a clause
converted recursively, ``cond`` in the subjunctive of a condition).

One regular expression cannot say where a noun phrase ends and a verb begins when a word
can be both ("the cost of living" vs "it will cost"), so :func:`candidates` enumerates
every way the slots can split the clause at word boundaries, shortest first, and the
converter keeps the first split whose slots all render.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from guisekit.errors import ResourceError
from guisekit.hinglish.lexicon import HinglishLexicon
from guisekit.hinglish.verbs import VERB_FORMS

__all__ = [
    "REF",
    "VERB_KINDS",
    "Part",
    "Template",
    "candidates",
    "compile_templates",
    "templates_of",
]

_SLOT = re.compile(r"\{(np|vbase|vpast|vpp|ving|v3|pp\?|n|pron|clause|cond):(\w+)\}")
VERB_KINDS = {"vbase": "base", "vpast": "past", "vpp": "participle", "ving": "ing", "v3": "third"}
_PRONOUNS = r"(?:i|me|we|us|he|him|she|her|they|them|you)\b"
# a frame's reference to a slot: {name}, {name:form}, {name:form@controller}, {name|word}
REF = re.compile(r"\{(\w+)(?::([\w.]+))?(?:@(\w+))?(?:\|(\w+))?\}")
_NP_FORMS = frozenset(
    {"has", "indef", "direct", "obl", "pps", "bare", "ko", "se", "ne", "ka", "paas"}
)
_VERB_ONLY = frozenset({*VERB_FORMS, "pass_hab", "pass_fut", "pass_perf", "pass_subj", "caus_inf"})
# n_<form>: the form negated ("call nahi kiya")
# generic_inf, generic_obl: the infinitive of an act in general, its object without "ek"
# ("kya counteroffer accept karna ek bad idea hai", not "ek counteroffer accept karna")
_VP_FORMS = frozenset(
    {*_VERB_ONLY, *(f"n_{f}" for f in _VERB_ONLY), "pre", "hai", "tha", "pada", "padega"}
    | {"generic_inf", "generic_obl"}
)
_WORD_END = re.compile(r"[^\s,;:]+")
_MAX_CANDIDATES = 16


@dataclass(frozen=True)
class Part:
    """A literal piece of a pattern (``kind == "lit"``) or a slot with the regex its text
    must start with (None: anything)."""

    kind: str
    name: str
    regex: re.Pattern[str] | None


@dataclass(frozen=True)
class Template:
    """A compiled clause template."""

    id: str
    kind: str
    regex: re.Pattern[str]
    parts: tuple[Part, ...]
    slots: Mapping[str, str]
    frames: tuple[str, ...]
    reflexive: str | None
    condition_only: bool
    question_only: bool
    plural: tuple[str, ...]
    not_gerund: tuple[str, ...]
    predicate: tuple[str, ...]
    verb_type: Mapping[str, str]


def _alternation(words: object) -> str:
    """A regex alternation of phrases, longest first, spaces matching any whitespace."""
    ordered = sorted((str(w) for w in words), key=len, reverse=True)  # type: ignore[attr-defined]
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)


class _Compiler:
    def __init__(self, lexicon: HinglishLexicon) -> None:
        grammar = lexicon.grammar
        self.adverbs = _alternation(grammar["adverbs"])
        self.preps = _alternation(grammar["postpositions"])
        self.verbs = {
            kind: _alternation(f for f, kinds in lexicon.verb_forms.items() if english in kinds)
            for kind, english in VERB_KINDS.items()
        }

    def start(self, kind: str) -> str | None:
        """What a slot's text must start with."""
        if kind == "n":
            return "\ue000\\d+\ue001"
        if kind == "pron":
            return _PRONOUNS
        if kind == "pp?":
            return rf"\s+(?=(?:{self.preps})\s)"
        if kind in VERB_KINDS:
            return rf"(?:(?:{self.adverbs})\s+)*(?:{self.verbs[kind]})\b"
        return None

    def whole(self, kind: str, name: str) -> str:
        """The slot inside the whole-pattern regex used to reject clauses quickly."""
        start = self.start(kind)
        if kind == "pp?":
            return f"(?:{start}(?P<{name}>.+?))?"
        if kind in ("n", "pron"):
            return f"(?P<{name}>{start})"
        return f"(?P<{name}>{start or ''}.*?)" if start else f"(?P<{name}>.+?)"

    def template(self, raw: Mapping[str, object]) -> Template:
        pattern = str(raw["en"])
        pieces = _SLOT.split(pattern)  # literal, kind, name, literal, kind, name, ...
        parts: list[Part] = []
        whole = []
        for i in range(0, len(pieces), 3):
            literal = pieces[i].replace(" ", r"\s+")
            if literal:
                parts.append(Part("lit", "", re.compile(literal, re.IGNORECASE)))
                whole.append(literal)
            if i + 2 < len(pieces):
                kind, name = pieces[i + 1], pieces[i + 2]
                start = self.start(kind)
                parts.append(Part(kind, name, re.compile(start, re.IGNORECASE) if start else None))
                whole.append(self.whole(kind, name))
        frames = raw["hi"]
        if not isinstance(frames, list) or not frames:
            raise TypeError("`hi` must be a non-empty list of frames")
        slots = {name: kind for kind, name in _SLOT.findall(pattern)}
        for frame in frames:
            _check_frame(str(frame), slots)
        reflexive = raw.get("reflexive")
        if reflexive is None and re.match(r"I (?:am|was|have|had)\b", pattern):
            # the writer is the subject in both languages: "my" in the clause is "apna"
            # ("I am good in my work" never "main mere work mein"; heldout53 Hinglish
            # reading); not in an embedded clause, which has a subject of its own, nor
            # where the Hindi frame has another subject ("yeh message mere refund ke
            # baare mein hai" for "I am writing about my refund")
            reflexive = "{clause:" not in pattern and all(
                re.match(r"(?:main|maine|mujhe) ", str(f)) for f in frames
            )
        return Template(
            id=str(raw["id"]),
            kind=str(raw["kind"]),
            regex=re.compile("".join(whole), re.IGNORECASE),
            parts=tuple(parts),
            slots=slots,
            frames=tuple(str(f) for f in frames),
            reflexive=None if not reflexive else "writer" if reflexive is True else str(reflexive),
            condition_only=bool(raw.get("condition_only", False)),
            question_only=bool(raw.get("question_only", False)),
            plural=tuple(raw.get("plural", ())),  # type: ignore[arg-type]
            not_gerund=tuple(raw.get("not_gerund", ())),  # type: ignore[arg-type]
            predicate=tuple(raw.get("predicate", ())),  # type: ignore[arg-type]
            verb_type=dict(raw.get("verb_type", {})),  # type: ignore[call-overload]
        )


def _check_frame(frame: str, slots: Mapping[str, str]) -> None:
    """A frame may only refer to its template's slots, in forms their kind has."""
    for name, form, ctl, _word in REF.findall(frame):
        kind = slots.get(name)
        if kind is None:
            raise ValueError(f"frame {frame!r} refers to unknown slot {name!r}")
        if ctl and ctl != "obj" and ctl not in slots:
            raise ValueError(f"frame {frame!r} agrees with unknown slot {ctl!r}")
        if not form:
            continue
        allowed = _VP_FORMS if kind in VERB_KINDS else _NP_FORMS
        verb_only = form.startswith("v.") and kind in VERB_KINDS and form[2:] in _VP_FORMS
        if form not in allowed and not verb_only:
            raise ValueError(f"frame {frame!r}: {name!r} ({kind}) has no form {form!r}")


def compile_templates(lexicon: HinglishLexicon) -> tuple[Template, ...]:
    """Compile every template of the lexicon; a malformed one is a :class:`ResourceError`."""
    compiler = _Compiler(lexicon)
    compiled = []
    for raw in lexicon.templates:
        try:
            compiled.append(compiler.template(raw))
        except (KeyError, TypeError, ValueError, re.error) as exc:
            where = raw.get("id", "?") if isinstance(raw, dict) else "?"
            raise ResourceError(f"hinglish/templates.yaml: template {where}: {exc}") from None
    return tuple(compiled)


@functools.cache
def templates_of(lexicon: HinglishLexicon) -> tuple[Template, ...]:
    """The lexicon's compiled templates (compiled once per lexicon)."""
    return compile_templates(lexicon)


Spans = dict[str, tuple[int, int] | None]


def candidates(template: Template, text: str) -> Iterator[Spans]:
    """Every way (up to a cap) the template's slots can cover ``text``: slot name ->
    ``(start, end)``, or None for an absent optional slot; shorter slots first."""
    if template.regex.fullmatch(text) is None:
        return
    ends = [m.end() for m in _WORD_END.finditer(text)]
    found = 0

    def walk(i: int, pos: int, spans: Spans) -> Iterator[Spans]:
        nonlocal found
        if found >= _MAX_CANDIDATES:
            return
        if i == len(template.parts):
            if pos == len(text):
                found += 1
                yield dict(spans)
            return
        part = template.parts[i]
        if part.kind == "lit":
            match = part.regex.match(text, pos) if part.regex else None
            if match:
                yield from walk(i + 1, match.end(), spans)
            return
        start = pos
        if part.regex is not None:
            match = part.regex.match(text, pos)
            if match is None:
                if part.kind == "pp?":
                    yield from walk(i + 1, pos, {**spans, part.name: None})
                return
            if part.kind == "pp?":
                start = match.end()
        single = part.kind in ("n", "pron")
        for end in ends:
            if end <= start:
                continue
            yield from walk(i + 1, end, {**spans, part.name: (start, end)})
            if single:
                break
        if part.kind == "pp?":
            yield from walk(i + 1, pos, {**spans, part.name: None})

    yield from walk(0, 0, {})
