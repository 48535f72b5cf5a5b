"""Clause-level code-switching across a whole sentence of several clauses.

Hinglish writers switch language at clause boundaries ("Maine bank ko do baar call kiya,
but they never answered"; "Mujhe bataya gaya ki hold review mein tha, and that the fees
would be reversed"). A long sentence that no template converts whole is cut at its clause
links (``clause_links`` in ``grammar.yaml``: coordinators, subordinators, non-restrictive
relatives, a comma before a new clause); each clause is converted in a Hindi frame where a
template fits and kept exactly as written otherwise.

What keeps this safe (precision before coverage):

- a cut is made only where both sides are clauses of their own (a finite verb; the right
  side has its own subject, or starts with a verb and borrows the subject of the clause
  before it, "... and was told ..." -> "aur mujhe bataya gaya ...");
- a clause opened by a subordinator (when, until, after, ...) or a relative pronoun stays
  English: no Hindi frame for it exists here, and half-Hindi subordinate syntax is worse
  than a clean switch;
- a subjectless clause ("... and took responsibility") is never left in English right
  after a Hindi clause (its subject would be lost in the switch): the clause before it is
  then kept English as well;
- nothing inside a clause is ever half-converted: a clause is wholly Hindi-framed or wholly
  as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from guisekit.hinglish.text import Tok
from guisekit.hinglish.word_classes import WordPattern, word_classes

if TYPE_CHECKING:
    from guisekit.hinglish.clauses import ClauseConverter

__all__ = [
    "OPEN_BETWEEN",
    "REQUEST_START",
    "TIME_ADVERBIAL",
    "after_desire",
    "nearest_subject",
    "switch_clauses",
    "verb_first",
]

Kind = Literal["first", "clause", "vp", "english"]
Toks = tuple[Tok, ...]


@dataclass
class _Piece:
    start: int  # where the link (or the clause) starts in the clause text
    body: int  # where the clause itself starts (after the link)
    end: int
    link: str  # the linking word, "," for a bare comma, "" for the first clause
    comma: bool  # a comma (or semicolon) before the link
    kind: Kind = "first"


# a time phrase opening a clause part ("each time", "every day", "the next day", "this
# time", "that morning", "last week", "two days later"): an adverbial, never the part's
# subject. "I visited the office twice and each time was told to come next week": the
# part after "and" has no subject of its own; kept English after a Hindi clause it was a
# fragment ("Maine office twice visit kiya aur each time was told ..."; fifteenth
# judgement: ungrammatical), so what follows the phrase must have a subject of its own
TIME_ADVERBIAL = re.compile(
    r"(?:(?:each|every|this|that|last|next|one|the\s+next|the\s+following|the\s+same|"
    r"the\s+very\s+next|same)\s+(?:single\s+)?(?:time|times|day|days|week|weekend|month|year|"
    r"morning|evening|afternoon|night|hour)"
    r"|(?:\ue000\d+\ue001|a|one|two|three|four|five|six|a\s+few|few|several)\s+"
    r"(?:days?|weeks?|months?|years?|hours?)\s+(?:later|after|after\s+that))"
    r"(?:,?\s+(?:later|after\s+that|again|then|also|still))?,?\s+",
    re.IGNORECASE,
)
# a "between" not yet closed by its "and" ("decide between this"): the "and" that follows
# ends the phrase "between X and Y", never a clause; cut there, one part kept "X ke beech"
# and the other lost its partner ("Main iske beech decide karne ki koshish mein hoon aur a
# Flipkart offer of ..."; 21st judgement: ungrammatical)
OPEN_BETWEEN = re.compile(r"\bbetween\b(?![^.;]*\b(?:and|or)\b)", re.IGNORECASE)
# a clause ending in a span of time ("it has been 3 weeks", "it is almost a month")
_SPAN_END = re.compile(
    r"\b(?:years?|months?|weeks?|days?|hours?|minutes?|decades?|ages|a while|long)\s*,?\s*$",
    re.IGNORECASE,
)
_DESIRE = re.compile(
    r"\b(?:I|we) (?:want|would like|need|am asking|are asking|am requesting|are requesting|"
    r"request|would request|also request)\b",
    re.IGNORECASE,
)
_OBJECT_CLAUSE = WordPattern(lambda w: w.object_clause_words, before=r"\b")
_AUXILIARY = WordPattern(lambda w: w.object_clause_auxiliaries, before=r"\b")
_PRONOUN_SUBJECT = re.compile(r"(?:i|we|you|they|he|she)\s", re.IGNORECASE)


def after_desire(left: str, body: str) -> bool:
    """After "I want X removed", "and Y refunded" is a second object, not a clause."""
    return (
        _DESIRE.search(left) is not None
        and _PRONOUN_SUBJECT.match(body) is None
        and _AUXILIARY.search(_OBJECT_CLAUSE.split(body, maxsplit=1)[0]) is None
    )


def _attributive(conv: ClauseConverter, before: str) -> bool:
    """Whether a past form after ``before`` modifies a noun: after a preposition, an
    article or possessive, or an adjective ("higher fixed amount")."""
    if before in word_classes().before_modifier:
        return True
    entry = conv.r.lex.content.get(before)
    if entry is not None:
        return entry.gender is None and entry.kind == "-"
    return before.endswith("er") and before[:-2] in conv.r.lex.content  # "higher"


def verb_first(conv: ClauseConverter, body: str) -> bool:
    """Whether ``body`` is a clause: its subject is followed by a finite verb before any
    relative pronoun or preposition ("a personal loan that is listed ..." and "two
    utility bills" are noun phrases, not clauses)."""
    raw = body.split()
    words = [w.lower().strip(",;") for w in raw]
    for i, word in enumerate(words):
        if word in word_classes().before_verb_stops or (i and raw[i - 1].endswith((",", ";"))):
            return False
        if i == 0:
            continue
        if word in word_classes().finite_auxiliaries or word.endswith("n't"):
            return True
        kinds = conv.r.lex.verb_forms.get(word, {})
        if "past" in kinds:
            # not in "in fixed pay", "a higher fixed amount": a participle modifier
            return not _attributive(conv, words[i - 1])
        if "third" in kinds and word[:-1] not in conv.r.lex.content and i < len(words) - 1:
            return True
        if "third" in kinds and words[i - 1] in word_classes().singular_subjects:
            return True  # "it bills monthly"; "two utility bills" is a noun phrase
        if "base" in kinds and words[i - 1] in ("i", "we", "you", "they"):
            return True
    return False


def _boundaries(links: dict[str, list[str]]) -> re.Pattern[str]:
    words = sorted({w for group in links.values() for w in group}, key=len, reverse=True)
    alts = "|".join(re.escape(w) for w in words)
    return re.compile(
        rf"(?P<sep>[,;]\s*|\s+)(?P<link>{alts})\s+(?=\S)|(?P<bare>[,;])\s+(?=\S)",
        re.IGNORECASE,
    )


def _pieces(text: str, pattern: re.Pattern[str]) -> list[_Piece]:
    pieces = [_Piece(0, 0, len(text), "", False)]
    for match in pattern.finditer(text):
        link = (match.group("link") or ",").lower()
        comma = bool(match.group("bare")) or (match.group("sep") or "").startswith((",", ";"))
        start = match.start() + (1 if comma else 0)
        pieces[-1].end = match.start()
        pieces.append(_Piece(start, match.end(), len(text), link, comma))
    return pieces


# a request opening the sentence: a part after its "and" is a second object as often as
# a clause ("reverse the fee and the GST charged on it" -> never "GST ne ... charge kiya")
REQUEST_START = re.compile(
    r"(?:please|pls|plz|kindly|I (?:request|am requesting|humbly request) you to)\b",
    re.IGNORECASE,
)


_PRONOUN_START = re.compile(r"(?:I|we|you|they|he|she|it)\b", re.IGNORECASE)
_ANY_PRONOUN_SUBJECT = re.compile(r"\b(I|we|you|they|he|she)\b(?=\s+\w)", re.IGNORECASE)


def _last_subject(before: str, subject: str) -> bool:
    """Whether the last pronoun subject in ``before`` is the one ``subject`` starts with
    (a verb phrase borrows the nearest subject)."""
    found = _ANY_PRONOUN_SUBJECT.findall(before)
    return (not found or found[-1].lower() == subject.split()[0].lower()) and nearest_subject(
        before, subject
    )


# a clause link and the subject of a new clause after it ("... but the portal crashed")
_LINKED_SUBJECT = re.compile(
    r"(?:^|[,;]\s*|\s)(?:and|but|or|so|because|when|while|after|before|since|until|till|"
    r"though|although|once|whereas|then)\s+(?P<subject>(?:I|we|you|they|he|she|it|this|"
    r"that|there|the|my|our|your|his|her|their|its|a|an|no one|nobody|someone|everyone|"
    r"one)\b|\ue000\d+\ue001(?=\s+[a-z]+(?:ed|s)\b)|(?-i:[A-Z]))",
    re.IGNORECASE,
)


# a purpose clause after "so": "so that ...", or a modal within its first words ("so this
# would not happen", "so I could pay"); Hindi says "taaki", and "isliye" (therefore) made it
# a result ("isliye yeh nahi hoga"; 30th judgement, meaning changed)
_PURPOSE = re.compile(r"that\b|(?:\S+\s+){1,4}?(?:would|could|might)\b|\S+'d\b", re.IGNORECASE)


def purpose_after_so(body: str) -> bool:
    """Whether ``body``, the clause after "so", states a purpose, not a result: such a
    "so" is never cut (the sentence stays English)."""
    return _PURPOSE.match(body) is not None


# a relative pronoun as a subject ("someone who marked the area")
_RELATIVE_SUBJECT = re.compile(r"\b(?:who|which)\s+(?!\w+ing\b)[a-z]+", re.IGNORECASE)


def nearest_subject(before: str, subject: str) -> bool:
    """Whether ``subject`` (a pronoun with its auxiliary) is the nearest subject of the
    words ``before`` a subjectless verb phrase: no later clause in them has a subject of
    its own. "I registered on time but the portal crashed and showed an error": the
    portal showed it, never "maine ek error dikhaya" (heldout23 judgement: meaning), so
    the verb phrase borrows no subject and stays English."""
    found = list(_LINKED_SUBJECT.finditer(before))
    if _RELATIVE_SUBJECT.search(before, found[-1].end() if found else 0):
        # "You sent someone who marked the area and said ...": the relative's "who" is
        # the nearest subject, never "You" ("aapne kaha"; 31st judgement: meaning changed)
        return False
    return not found or found[-1].group("subject").lower() == subject.split()[0].lower()


def switch_clauses(
    conv: ClauseConverter,
    text: str,
    offset: int,
    condition: bool,
    subject_of: Callable[[str], str | None],
    starts_with_verb: Callable[[str], bool],
) -> Toks | None:
    """Tokens of ``text`` with each of its clauses Hindi-framed or kept English, or None
    when it has no safe cut or no clause converts."""
    links: dict[str, list[str]] = conv.r.lex.grammar["clause_links"]
    subordinate = {w.lower() for w in links["subordinate"]}
    relative = {w.lower() for w in links["relative"]}
    pieces = _pieces(text, _boundaries(links))
    if len(pieces) < 2:
        return None
    first_word = text.split(maxsplit=1)[0].lower() if text.split() else ""
    # clauses of a list ("I did not get a hotel, I did not get a voucher, and I slept"),
    # counted before any cut is undone
    listed = 1 + sum(
        1
        for p in pieces[1:]
        if p.link in (",", "and", "but", "or") and _PRONOUN_START.match(text[p.body : p.end])
    )
    # classify each cut; an unsafe cut is undone (its clause joins the one before)
    changed = True
    while changed and len(pieces) > 1:
        changed = False
        for i in range(1, len(pieces)):
            piece, before = pieces[i], pieces[i - 1]
            body = text[piece.body : piece.end]
            left = text[before.body : before.end]
            kind: Kind | None = None
            if piece.link == "and" and REQUEST_START.match(text[pieces[0].body :]):
                kind = None  # "please reverse the fee and the GST charged on it": objects
            elif piece.link in ("and", "or") and OPEN_BETWEEN.search(left):
                kind = None  # "between this and a Flipkart offer": one phrase, no cut
            elif piece.link == "so" and purpose_after_so(body):
                kind = None  # "so this would not happen": a purpose, never "isliye"
            elif piece.link == "since" and _SPAN_END.search(left):
                # "It has been 3 weeks since I applied": "since" after a span of time is
                # "from when", never "kyunki" (found fixing the fifteenth judgement)
                kind = None
            elif conv._finite(left) and not after_desire(left, body):
                if piece.link in relative:
                    kind = "english" if piece.comma and conv._finite(f"it {body}") else None
                elif conv._clause_start(body) and verb_first(conv, body):
                    kind = "english" if piece.link in subordinate else "clause"
                elif (
                    piece.link in ("and", "but", "or")
                    and starts_with_verb(body)
                    and len(body.split()) > 1
                ):
                    # a lone word after "and" is a second noun ("what it did to the
                    # schedule and cost"), never "maine cost kiya" (round 19 sample)
                    # never after a bare comma: "the other driver's insurer, Keystone
                    # Auto, accepted liability" would borrow the writer as the subject
                    kind = "vp"
            if kind is None:
                before.end = piece.end
                del pieces[i]
                changed = True
                break
            piece.kind = kind
    if any(p.link in relative and conv._dangling_coordinate(text[p.body : p.end]) for p in pieces):
        return None  # "health insurance, which is free, and a pension": the NP is the first's
    if len(pieces) < 2:
        return None
    out: list[Toks | None] = []
    partial = False
    subject: str | None = None
    source = ""
    previous = ""
    for piece in pieces:
        body = text[piece.body : piece.end]
        at = offset + piece.body
        rendered: Toks | None = None
        if piece.kind == "vp" and subject is not None and not _last_subject(previous, subject):
            # "They claim I owe X, but I paid it and have the receipt": "have" goes with
            # the nearest subject ("I"), never "They" ("unke paas receipt hai" changed
            # who holds it; round 6 reading)
            subject = None
        previous = body
        mark = len(conv.used)
        if piece.kind in ("first", "clause"):
            source = body  # the clause whose subject a verb phrase after it borrows
        if piece.kind == "first":
            subject = subject_of(body)
            if first_word not in subordinate and first_word not in relative:
                rendered = conv.convert(body, at, condition=condition, depth=1)
        elif piece.kind == "clause":
            subject = subject_of(body)
            rendered = conv.convert(body, at, condition=condition, depth=1)
        elif piece.kind == "vp" and subject is not None:
            # "I had to learn X, and make Y": "I had to", never the possessive "I had"
            for prefix in conv.prefixes(source, body, piece.link)[:1]:
                rendered = conv.convert(
                    f"{prefix} {body}", at - len(prefix) - 1, condition=condition, depth=1
                )
                if rendered is not None:
                    break
        if rendered is not None and piece.link not in ("", ",", *conv.r.conjunctions):
            rendered = None
        if (
            rendered is not None
            and piece.link not in ("", ",")
            and conv.used[-1:] == ["statement.participle"]
        ):
            rendered = None  # "X karte hue" only hangs off a clause after a comma
        if rendered is not None and any(u.startswith("switch.") for u in conv.used[mark:]):
            partial = True  # the piece itself is half English ("... nahi mila, aur I slept")
        out.append(rendered)
    # an English clause with no subject of its own may not follow a Hindi one
    for i in range(len(pieces) - 1, 0, -1):
        if pieces[i].kind == "vp" and out[i] is None and out[i - 1] is not None:
            out[i - 1] = None
    if all(r is None for r in out):
        return None
    parallel = [r for p, r in zip(pieces, out, strict=True) if p.kind in ("first", "clause", "vp")]
    if len(parallel) >= 3 and (partial or any(r is None for r in parallel)):
        return None
    if listed >= 3 and (partial or any(r is None for r in out)):
        # "Mujhe hotel nahi mila, I did not get a meal voucher, and I slept ...": a list
        # of three or more parallel clauses is switched all or none (round 10: awkward)
        return None
    for i in range(1, len(pieces)):
        if pieces[i].link == "or" and out[i - 1] is None and out[i] is not None:
            return None  # "Should I push on base or kya mujhe ...": judged awkward
    toks: list[Tok] = []
    for piece, rendered in zip(pieces, out, strict=True):
        if piece.comma:
            toks.append(Tok(",", "other"))
        if rendered is None:
            toks.extend(conv._english(text[piece.start : piece.end].lstrip(",; ")))
            continue
        if piece.link not in ("", ","):
            hindi = conv.r.mixed(piece.link, conv.r.conjunctions[piece.link])
            toks.extend(conv.r.tok(w) for w in hindi.split())
        toks.extend(rendered)
    return tuple(toks)
