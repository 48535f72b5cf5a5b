"""``contractions.v1``: expand contractions (don't -> do not) or contract full forms.

A register transform with one parameter: ``direction: expand | contract``. Only forms
with a single reading are touched (the table and what it leaves out, with why, are in
``lexicons/transforms/contractions.tsv``); protected spans (facts, numbers, quotes, URLs)
are never touched. Both directions are deterministic and idempotent, and contracting an
expanded text gives back the contractions it expanded where the table marks them as
contractible in that context.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from guisekit.errors import ResourceError
from guisekit.resources import read_lines, read_table, read_yaml
from guisekit.transforms._registry import RulesOutput, Spec, Transform, implementation, register

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = ["ContractionsSpec", "Row", "contract", "edits", "expand", "reading", "table"]

DATA = "transforms/contractions.tsv"
CONTEXT = "transforms/contraction_context.yaml"
PARTICIPLES = "rules/participles.txt"
_SUBJECTS = r"(?:i|you|we|they|he|she|it|there)"
_EDGE_BEFORE = r"(?<![\w'’])"
_EDGE_AFTER = r"(?![\w'’])"
_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z]+(?:['’][A-Za-z]+)?)")

Action = Literal["expand", "contract"]
Kind = Literal["negative", "simple", "complex"]
When = Literal["anywhere", "before_word", "never", "ambiguous"]


class ContractionsSpec(Spec):
    """Expand every contraction (``expand``) or contract every full form (``contract``)."""

    transform: Literal["contractions"] = "contractions"
    direction: Literal["expand", "contract"]


class Row(NamedTuple):
    """One row of the table: full form, contraction, where it may contract, its kind."""

    full: str
    short: str
    when: When
    kind: Kind


_WHEN = frozenset({"anywhere", "before_word", "never", "ambiguous"})
_KINDS = frozenset({"negative", "simple", "complex"})


@functools.cache
def table() -> tuple[Row, ...]:
    """The contraction table, validated (lower case, in file order)."""
    rows = []
    for full, short, when, kind in read_table(DATA, ("expanded", "contracted", "contract", "kind")):
        if when not in _WHEN or kind not in _KINDS:
            raise ResourceError(
                f"{DATA}: row {full!r} has contract {when!r} and kind {kind!r}",
                hint=f"contract is one of {sorted(_WHEN)}; kind one of {sorted(_KINDS)}",
            )
        rows.append(Row(full.lower(), short.lower(), when, kind))  # type: ignore[arg-type]
    return tuple(rows)


@functools.cache
def _context_data() -> Any:
    return read_yaml(CONTEXT)


@functools.cache
def _words(key: str) -> frozenset[str]:
    """A word list of contraction_context.yaml, lower-cased (read once per key)."""
    return frozenset(str(w).lower() for w in _context_data().get(key, []))


@functools.cache
def _context() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    participles = frozenset(w.lower() for w in read_lines(PARTICIPLES))
    return _words("has_before"), _words("had_before"), _words("adverbs"), participles


def _no_contract_after() -> frozenset[str]:
    """Words after which a pronoun is no subject: "taller than I am", "of it is"."""
    return _words("no_contract_after")


def _place_after_noun(row: Row, previous: str) -> bool:
    """Whether the "here"/"there" of ``row`` ("here is") follows a word that opens no
    clause (contraction_context.yaml ``place_subjects``, ``place_subject_after``): it then
    locates the noun before it, and the verb's subject is that noun phrase ("my unvested
    stock here is worth" never "stock here's worth"; round 33 judgement, UNGRAMMATICAL)."""
    first = row.full.split()[0].lower()
    return (
        first in _words("place_subjects")
        and previous != ""
        and previous not in _words("place_subject_after")
    )


def _object_of_verb(row: Row, previous: str) -> bool:
    """Whether the pronoun of ``row`` ("it will") is the object of the verb form before it
    ("raising it will damage", "fixing that is hard", "call it is theft"), not the subject
    of the auxiliary: an -ing form that takes no clause, or a listed transitive verb
    (contraction_context.yaml ``object_pronouns``, ``object_verbs``, ``clause_ing``,
    ``nominal_ing``). "Hoping you are well" and "saying it is fine" still contract."""
    if row.full.split(" ", 1)[0] not in _words("object_pronouns"):
        return False
    if previous in _words("object_verbs"):
        return True
    ing = len(previous) > 5 and previous.endswith("ing")
    return ing and previous not in _words("clause_ing") and previous not in _words("nominal_ing")


def _participle(word: str, participles: frozenset[str]) -> bool:
    return word in participles or (word.endswith("ed") and len(word) > 4)


@functools.cache
def _adverb_suffixes() -> tuple[str, ...]:
    """Endings that mark an adverb the reading looks through ("actually", "honestly")."""
    return tuple(str(s).lower() for s in _context_data().get("adverb_suffixes", []))


def _adverb(word: str, adverbs: frozenset[str], more: bool) -> bool:
    """Whether ``word`` is an adverb to look through: a listed one, or (when ``more``
    words follow it) a word with an adverb ending ("it's actually been": the verb after
    decides; "he's ugly." has nothing after, so "ugly" is the predicate)."""
    if word in adverbs:
        return True
    return more and len(word) > 4 and word.endswith(_adverb_suffixes())


def reading(row: Row, following: Sequence[str]) -> str | None:
    """The full form an ambiguous contraction stands for before the ``following`` words
    ("he's been" -> "he has"), or None when they do not settle it ("it's done"). Adverbs
    in between are looked through ("I'd never seen" -> "I had", "I'd also like" -> "I
    would", "it's now been" -> "it has"; contraction_context.yaml)."""
    if row.when != "ambiguous":
        return row.full
    has_before, had_before, adverbs, participles = _context()
    words = [w.lower() for w in following]
    while words and _adverb(words[0], adverbs, len(words) > 1):
        words.pop(0)
    if not words:
        return None
    word = words[0]
    head, verb = row.full.rsplit(" ", 1)
    if verb == "is":
        if word in has_before:
            return f"{head} has"
        return None if _participle(word, participles) else row.full
    if word in _words("base_participles"):
        return None  # "I'd come": "I would come" or "I had come"
    if word in had_before or _participle(word, participles):
        return f"{head} had"
    return row.full


def _emphatic(matched: str) -> bool:
    """A full form written in capitals ("is NOT", "I AM"): the writer stressed it."""
    return any(len(w) > 1 and w.isupper() for w in matched.split())


@functools.cache
def _patterns(row: Row, action: Action) -> re.Pattern[str]:
    if action == "expand":
        head, _, tail = row.short.partition("'")
        # not before its subject ("Don't you ...?", "isn't it?"): "Do not you" is not English
        guard = rf"(?![ \t]+{_SUBJECTS}\b)" if tail == "t" else ""
        body = re.escape(head) + "['’]" + re.escape(tail)
        return re.compile(_EDGE_BEFORE + body + _EDGE_AFTER + guard, re.I)
    body = r"[ \t]+".join(re.escape(w) for w in row.full.split())
    ahead = r"(?=[ \t]+[A-Za-z])" if row.when in ("before_word", "ambiguous") else ""
    if row.short.endswith("n't"):  # the inverse of expand's guard: "Do not I ...?"
        ahead += rf"(?![ \t]+{_SUBJECTS}\b)"
    return re.compile(_EDGE_BEFORE + body + _EDGE_AFTER + ahead, re.I)


def _cased(source: str, replacement: str) -> str:
    """The replacement in the source's case: ALL CAPS, a capital first letter, or as is."""
    letters = [c for c in source if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _previous_word(text: str, start: int) -> str:
    match = re.search(r"([A-Za-z]+)[ \t]*$", text[:start])
    return match.group(1).lower() if match else ""


def _next_words(text: str, end: int, n: int = 4) -> list[str]:
    words: list[str] = []
    while len(words) < n and (match := _NEXT_WORD.match(text, end)):
        words.append(match.group(1))
        end = match.end()
    return words


def edits(
    text: str,
    action: Callable[[Row], Action | None],
    protected: Sequence[tuple[int, int]] = (),
    *,
    settle: bool = False,
) -> list[tuple[int, int, str]]:
    """Non-overlapping (start, end, replacement) edits that expand or contract each row
    of the table as ``action(row)`` says (None: leave the row alone), in table order
    (earlier rows win an overlap: "I will not" -> "I won't", never "I'll not").

    A row to contract is contracted only in its context (``contract`` column), never when
    emphatic (capitals). With ``settle`` (standardisation), an ambiguous row's
    contraction whose next word settles the other reading ("he's been": has) is expanded
    to it, so that a text and its expanded guises standardise alike. A row to expand is
    expanded where its reading is settled."""
    apostrophe = "’" if "’" in text and "'" not in text else "'"
    taken: list[tuple[int, int]] = list(protected)
    out: list[tuple[int, int, str]] = []

    def take(start: int, end: int, replacement: str) -> None:
        taken.append((start, end))
        out.append((start, end, replacement))

    for row in table():
        act = action(row)
        if act is None:
            continue
        if act == "contract" and row.when != "never":
            for match in _patterns(row, "contract").finditer(text):
                start, end = match.span()
                if any(s < end and start < e for s, e in taken) or _emphatic(match.group(0)):
                    continue
                if row.short.endswith("n't") and _opens_question(text, start, row):
                    continue  # the inverse of expand's guard: "Cannot." stays as written
                if row.short.endswith("n't") and (
                    _previous_word(text, start) in _words("pseudo_cleft_verbs")
                    or _PSEUDO_CLEFT_SUBJECT.search(text, 0, start)
                ):
                    # "what I'd do is not guess" never "isn't guess"; "what helped was not
                    # panicking" never "wasn't panicking": the "not" negates the focus
                    # (round 45 judgement, MEANING)
                    continue
                if row.when != "anywhere":
                    previous = _previous_word(text, start)
                    if previous in _no_contract_after() or _object_of_verb(row, previous):
                        continue  # "of it is", "raising it will damage": no subject
                    if _place_after_noun(row, previous):
                        continue  # "my stock here is worth": "here" is no subject
                after = _next_words(text, end, 1)
                if after and (
                    _emphatic(after[0])  # "I will NOT pay": the stress is on the auxiliary
                    or (after[0].lower() == "not" and row.short.endswith(("'ll", "'d")))
                ):
                    continue  # "I will not" -> "I won't", never "I'll not"
                if (
                    after
                    and not row.short.endswith("n't")
                    and after[0].lower() in _words("ellipsis_followers")
                ):
                    continue  # "but I will if ...": the verb is left out, never "I'll if"
                if row.when == "ambiguous" and reading(row, _next_words(text, end)) != row.full:
                    continue  # "it is done" stays: "it's done" could not be told back
                take(start, end, _cased(match.group(0), row.short.replace("'", apostrophe)))
        if act == "contract" and not (settle and row.when == "ambiguous"):
            continue
        for match in _patterns(row, "expand").finditer(text):
            start, end = match.span()
            if any(s < end and start < e for s, e in taken):
                continue
            if row.short.endswith("n't") and _opens_question(text, start, row):
                continue  # "Shouldn't overtime be ...?" never "Should not overtime be"
            if row.short.endswith("n't") and _subject_left_out(text, start, end):
                continue  # "Don't want to look greedy" never "Do not want to"
            full = reading(row, _next_words(text, end))
            if full is None or (act == "contract" and full == row.full):
                continue
            take(start, end, _cased(match.group(0), full))
    return sorted(out)


def _subject_left_out(text: str, start: int, end: int) -> bool:
    """Whether the negative auxiliary at ``start:end`` opens a sentence whose subject the
    writer left out ("Don't want to look greedy but ..."): it starts the sentence and a
    verb of contraction_context.yaml ``elided_subject_verbs`` follows."""
    before = text[:start].rstrip(" \t")
    if before and before[-1] not in ".!?\n":
        return False
    following = _next_words(text, end, 1)
    return bool(following) and following[0].lower() in _words("elided_subject_verbs")


# A free relative "what ..." opening a clause and ending right before the auxiliary: the
# subject of a pseudo-cleft ("What helped was not panicking").
_PSEUDO_CLEFT_SUBJECT = re.compile(
    r"(?:^|[.!?\n,;]\s*|\b(?:and|but|so)\s+)what\b[^,.;:!?\n]*\s$", re.I
)

_WH_OPENING = re.compile(
    r"(?:^|[.!?\n][\s\"'“‘(]*)(?:(?:why|how|what|where|when|who)[ \t]+)?$", re.I
)


def _opens_question(text: str, start: int, row: Row) -> bool:
    """Whether a negative contraction other than "don't" opens its sentence, alone or
    after a wh-word: an inverted question ("Shouldn't overtime be ...?", "Why isn't the
    fee refunded?"), whose full form puts "not" after the subject ("Should overtime
    not be"), so it is not expanded in place (heldout20 edit judgement, UNGRAMMATICAL:
    "Should not overtime be"), and a full form there is not contracted either, so that
    expanding undoes contracting ("Cannot." stays). "Don't" opens imperatives too
    ("Don't charge me"), which change both ways; its question form is caught by the
    subject guard of _patterns."""
    if row.short.lower().startswith("don"):
        return False
    return _WH_OPENING.search(text, max(0, start - 40), start) is not None


_protected_spans = implementation("guisekit.rules.protect:protected_spans")
_apply_edits = implementation("guisekit.rules.edits:apply_edits")


class _Edit(NamedTuple):
    """The fields of :class:`guisekit.rules.edits.Edit` that apply_edits reads."""

    start: int
    end: int
    replacement: str
    operator: str


def _transform_action(direction: Action) -> Callable[[Row], Action | None]:
    def action(row: Row) -> Action | None:
        return None if row.when == "ambiguous" else direction

    return action


def _rewrite_text(text: str, direction: Action) -> tuple[str, list[dict[str, Any]]]:
    operator = f"contractions.{direction}"
    found = edits(text, _transform_action(direction), _protected_spans(text))
    text, records = _apply_edits(text, [_Edit(s, e, r, operator) for s, e, r in found])
    return str(text), list(records)


def expand(text: str) -> str:
    """``text`` with every contraction of the table written in full."""
    return _rewrite_text(text, "expand")[0]


def contract(text: str) -> str:
    """``text`` with every contractible full form of the table contracted."""
    return _rewrite_text(text, "contract")[0]


def _rewrite(
    engine: RulesEngine, text: str, spec: ContractionsSpec, rng: random.Random
) -> RulesOutput:
    # deterministic: no choice is drawn, so the generator is not used
    new_text, records = _rewrite_text(text, spec.direction)
    return RulesOutput(new_text, records)


CONTRACTIONS = register(
    Transform("contractions", 1, ContractionsSpec, label_field="direction", rewrite=_rewrite)
)
