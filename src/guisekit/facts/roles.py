"""Approximators, roles and period adjectives bound to amounts: the binding step of the
word kinds (:func:`bind`), run on the resolved facts.

- **approximator**: ``nearly 30 days``, ``around 13.5 LPA``; the class of the phrase
  (``about`` = ``around``) is kept on the fact, so adding, removing or changing one is a
  change;
- **role**: the role word an amount is written with (``a $35 late fee``, ``refund of
  $50``, ``salary: 12 LPA``), so values traded between roles are caught. A CTC or package
  with no stated period is annual (that is what CTC means);
- **period adjectives** before an amount: ``monthly rent of ₹20,000``.

Each amount looks only at its own clause (48 characters before it, 40 after), so the cost
grows with the amounts, not the text. The lists are read in :mod:`.context`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TypeVar

from guisekit.facts.context import (
    _APPROX_AFTER,
    _APPROX_BY_LAST,
    _APPROX_LAST,
    _BLOCKERS,
    _CORRECT,
    _OVER_IS_MORE,
    ROLES,
)
from guisekit.facts.model import Fact, Period
from guisekit.facts.scan import _LETTERS_ONLY
from guisekit.resources import read_lines, read_table

__all__ = ["bind"]

# Words that may stand between a role word and its amount, and a period adjective
# before one (``monthly rent``): the adjectives are read as periods, not word lists.
_LINKS = read_table("facts/role_links.tsv", ("word", "side"))
_LEFT_LINK = frozenset(word for word, side in _LINKS if side == "left")
_RIGHT_LINK = frozenset(word for word, side in _LINKS if side == "right")
_PERIOD_ADJECTIVES: dict[str, Period] = {
    "monthly": "month",
    "annual": "year",
    "yearly": "year",
    "weekly": "week",
    "daily": "day",
    "hourly": "hour",
}
_PERIOD_NOUNS: dict[str, Period] = {
    "month": "month",
    "year": "year",
    "week": "week",
    "day": "day",
    "hour": "hour",
}
_WORD = re.compile(r"[a-z][a-z'’]*|[:=]|[\d₹$]")
# The next _WORD before the end of the clause (one of .;!?, a line break, or a comma and a
# space): what comes first is skipped unless it starts a word or ends the clause, so
# that a word is found with one match.
_NEXT_WORD = re.compile(r"(?:[^a-z:=\d₹$.;!?\n,]|,(?!\s))*([a-z][a-z'’]*|[:=]|[\d₹$])")
# The last clause end before an amount (in the 48 characters before it): the words of
# the clause start after it (after the comma of ", ").
_LAST_MARK = re.compile(r"(?s:.*)(?:[.;!?\n]|,(?= ))")
_V = TypeVar("_V")


# The spellings the clause words of a role binding are compared by: each word the rules
# engine's misspellings table reads as a word of these lists (``_CORRECT.get(w, w)``), so
# the words of a clause are looked up as written, with no corrected copy of them made.
def _forms_map(table: Mapping[str, _V]) -> dict[str, _V]:
    """``{spelling: table[corrected spelling]}`` for every spelling that corrects to a key."""
    return {
        s: table[_CORRECT.get(s, s)] for s in (*table, *_CORRECT) if _CORRECT.get(s, s) in table
    }


def _forms(words: Iterable[str]) -> frozenset[str]:
    return frozenset(_forms_map(dict.fromkeys(words, True)))


_ROLE_OF = _forms_map(ROLES)
_PERIOD_ADJECTIVE_OF = _forms_map(_PERIOD_ADJECTIVES)
_PERIOD_NOUN_OF = _forms_map(_PERIOD_NOUNS)
if not all(re.fullmatch("[a-z]+", form) for form in _PERIOD_ADJECTIVE_OF):
    raise RuntimeError("roles: a period adjective must be letters a-z (see letter_runs)")
_PERIOD_ADJECTIVE_RUNS = frozenset(form.encode() for form in _PERIOD_ADJECTIVE_OF)
_EVERY = _forms(("every", "each", "per"))
_RIGHT_LINK_FORMS = _forms(_RIGHT_LINK)
_LEFT_GO_ON = _forms(_LEFT_LINK | _APPROX_LAST)  # what the leftward search passes over
_BREAKER = re.compile(
    "(?:"
    + "|".join(re.escape(w) for w in read_lines("facts/approximator_breakers.txt"))
    + r")(?![a-z])"
)
_APPROX_AFTER_BY_FIRST: dict[str, list[tuple[str, str]]] = {}
for _phrase, _cls in _APPROX_AFTER:
    _APPROX_AFTER_BY_FIRST.setdefault(_phrase[0], []).append((_phrase, _cls))
_APPROX_FIRST = frozenset(_APPROX_AFTER_BY_FIRST)
_APPROX_TAILS = {last: tuple(p for p, _ in found) for last, found in _APPROX_BY_LAST.items()}
_FIELD = {name: index for index, name in enumerate(Fact._fields)}
_VALUE_AT, _PERIOD_AT, _ROLE_AT, _APPROX_AT = (
    _FIELD[name] for name in ("value", "period", "role", "approx")
)
_new = tuple.__new__


def bind(
    facts: list[Fact], text: str, low: str, runs: frozenset[bytes], letters: str | None = None
) -> list[Fact]:
    """The facts with approximators, roles and period adjectives bound (``runs``: the
    text's :func:`~guisekit.facts.scan.letter_runs`, which say whether it has a period
    adjective at all; ``letters``: its :func:`~guisekit.facts.scan.letters_only`, from
    which the clause words before each amount are read)."""
    out = facts
    parts: list[int] = []  # amounts with no role before "of the" (a part of the next)
    adjectives: list[bool] = []  # whether the text has a period adjective, once asked
    for index, fact in enumerate(facts):
        kind = fact[0]
        if kind != "money" and kind != "quantity" and kind != "percent":
            continue
        start, end = fact[2], fact[3]
        approx = None
        if start and low[start - 1] == " ":
            # the word before (in the 24 characters before): no call unless it may end one
            floor = start - 24 if start > 24 else 0
            space = low.rfind(" ", floor, start - 1)
            phrases = _APPROX_TAILS.get(low[(space + 1 if space >= 0 else floor) : start - 1])
            # (one endswith over the phrases that end with that word: most do not match)
            if phrases is not None and low.endswith(phrases, floor, start - 1):
                approx = _approximator(low, start)
        spaced = low[end : end + 1] == " "  # a word may follow the amount
        if approx is None and spaced and low[end + 1 : end + 2] in _APPROX_FIRST:
            approx = _approximator_after(low, end + 1)
        if approx is not None and spaced and _BREAKER.match(low, end + 1):
            approx = None  # "lower than 9 lakhs divided by 12": a sum, not the amount
        role = period = None
        if kind == "money":
            if not adjectives:
                adjectives.append(not _PERIOD_ADJECTIVE_RUNS.isdisjoint(runs))
            role, period = _role(low, start, end, adjectives[0], letters)
            if fact[_PERIOD_AT] is not None:
                period = None
            elif period is None and role == "ctc":
                period = "year"
            if role is None and spaced and low[end + 1 : end + 3] in _OF_OUT:
                parts.append(index)
        if approx is None and role is None and period is None:
            continue
        fields = list(fact)
        if approx is not None:
            fields[_APPROX_AT] = approx
        if role is not None:
            fields[_ROLE_AT] = role
        if period is not None:
            fields[_PERIOD_AT] = period
            fields[_VALUE_AT] = f"{fact[_VALUE_AT]}/{period}"
        if out is facts:
            out = list(facts)
        out[index] = _new(Fact, fields)
    if parts:
        out = _partitives(out, parts, low, out is facts)
    return out


# "₹4.5 lakh of the ₹6 lakh claim": the first amount is a part of the second's role, so
# the two trading values ("₹6 lakh of the ₹4.5 lakh claim") is a change though the
# multiset of amounts and the role word's count are the same.
_OF_OUT = ("of", "ou")
_PARTITIVE = re.compile(
    r"\s+(?:out\s+)?of\s+(?:(?:the|a|an|my|our|your|his|her|their|this|that)\s+)?"
)


def _partitives(facts: list[Fact], parts: list[int], low: str, shared: bool) -> list[Fact]:
    """Bind each amount of ``parts`` written as "AMOUNT of the AMOUNT ROLE" to the role
    ``part of ROLE`` (a copy of ``facts`` when ``shared``: the caller's list is kept)."""
    out = list(facts) if shared else facts
    for index in parts:
        if index + 1 >= len(out):
            continue
        fact, whole = out[index], out[index + 1]
        if (
            whole.kind == "money"
            and whole.role is not None
            and _PARTITIVE.fullmatch(low, fact.end, whole.start)
        ):
            out[index] = fact._replace(role=f"part of {whole.role}")
    return out


def _approximator(low: str, start: int) -> str | None:
    """The class of the approximating phrase right before ``start``, if any."""
    before = low[max(0, start - 24) : start - 1]
    phrases = _APPROX_BY_LAST.get(before[before.rfind(" ") + 1 :])
    if phrases is None:
        return None
    for phrase, cls in phrases:
        if before.endswith(phrase) and (
            len(before) == len(phrase) or not before[-len(phrase) - 1].isalpha()
        ):
            previous = before[: -len(phrase)].rsplit(None, 1)
            if previous and (phrase, previous[-1]) in _BLOCKERS:
                return None
            if cls == "over?" and previous and previous[-1] in _OVER_IS_MORE:
                return "over"  # "for over 5 years": more than, not during
            return cls
    return None


def _approximator_after(low: str, end: int) -> str | None:
    phrases = _APPROX_AFTER_BY_FIRST.get(low[end : end + 1])
    if phrases is None:
        return None
    for phrase, cls in phrases:
        if (
            low.startswith(phrase, end)
            and not low[end + len(phrase) : end + len(phrase) + 1].isalpha()
        ):
            return cls
    return None


def _role(
    low: str, start: int, end: int, adjectives: bool = True, letters: str | None = None
) -> tuple[str | None, Period | None]:
    """The role word bound to the amount at ``start:end`` (right first, through link
    words only: ``$68 in fees``; then left: ``fee of $35``) and a period adjective before
    it (``monthly rent``). The words of the clause are read as the rules engine's
    misspellings correct them (through the ``_forms`` lookups). ``adjectives`` False
    says the text has no period adjective (no clause need be searched for one)."""
    limit = end + 40
    position = end
    for _ in range(4):
        match = _NEXT_WORD.match(low, position, limit)
        if match is None:
            break
        word = match.group(1)
        role = _ROLE_OF.get(word)
        if role is not None:
            return role, None
        if word not in _RIGHT_LINK_FORMS:
            break
        position = match.end()
    words = _clause_words(
        low, start - 48 if start > 48 else 0, start, whole=adjectives, letters=letters
    )
    role = None
    period: Period | None = None
    index = len(words)
    floor = max(0, index - 6)
    while index > floor:
        index -= 1
        word = words[index]
        role = _ROLE_OF.get(word)
        if role is not None:
            break
        adjective = _PERIOD_ADJECTIVE_OF.get(word)
        if adjective is not None:
            period = adjective
            continue
        if word in _PERIOD_NOUN_OF and index and words[index - 1] in _EVERY:
            period = _PERIOD_NOUN_OF[word]  # "an every month payment of $389"
            index -= 1
            continue
        if word not in _LEFT_GO_ON:
            break
    if role is not None:
        if index + 1 < len(words) and words[index + 1] != "of":
            index, role = _head_role(words, index, role)
        if index > 0 and words[index - 1] in _PERIOD_ADJECTIVE_OF:
            period = _PERIOD_ADJECTIVE_OF[words[index - 1]]
        elif index > 1 and words[index - 1] in _PERIOD_NOUN_OF and words[index - 2] in _EVERY:
            period = _PERIOD_NOUN_OF[words[index - 1]]
        return role, period
    if period is None and adjectives:
        period = _period_before_role(words)
    return None, period


def _clause_words(
    low: str, begin: int, start: int, *, whole: bool = True, letters: str | None = None
) -> list[str]:
    """The _WORD tokens of ``low[begin:start]`` after its last clause end (_LAST_MARK).

    Read without a regex tokenizer where that gives the same tokens (a regex costs some
    2,000 instructions a token, ``str.split`` a tenth of that): the window is read back
    to the nearest clause end or one-character token (_LAST_STOP, one match from the
    end), and the ASCII after it, if it has no apostrophe, holds only words, its runs of
    letters (``letters``: the text's :func:`~guisekit.facts.scan.letters_only` when it is
    ASCII, sliced; else the tail's bytes translated). A clause end gives the whole
    clause. A token the role search stops at (_BARRIERS: a digit, ``$``, ``₹``) gives
    itself and the words after it: all that :func:`_role` reads of the clause, unless
    ``whole`` (it looks for a period adjective anywhere in it). Anything else is
    tokenised as written."""
    found = _LAST_STOP.match(low, begin, start)
    barrier = None
    tail_start = begin
    if found is not None:
        tail_start = found.end()
        char = low[tail_start - 1]
        if char in _BARRIERS:
            if whole:
                return _clause_words_tokenised(low, begin, start)
            barrier = char
        elif char not in ".;!?\n,":
            return _clause_words_tokenised(low, begin, start)  # ":" "=": tokens passed over
    if letters is not None:
        if low.find("'", tail_start, start) >= 0:
            return _clause_words_tokenised(low, begin, start)
        words = letters[tail_start:start].split()
    else:
        tail = low[tail_start:start]
        if not tail.isascii() or "'" in tail:
            return _clause_words_tokenised(low, begin, start)
        words = tail.encode().translate(_LETTERS_ONLY).decode().split()
    return [barrier, *words] if barrier is not None else words


def _clause_words_tokenised(low: str, begin: int, start: int) -> list[str]:
    """:func:`_clause_words` by the definition: the window tokenised after its last
    clause end."""
    last = _LAST_MARK.match(low, begin, start)
    return _WORD.findall(low, begin if last is None else last.end(), start)


def _head_role(words: list[str], index: int, role: str) -> tuple[int, str]:
    """The head of a chain of role words joined by "of": in "the balance of the loan is
    $5,000" the amount is the balance, not the loan, so the role word found nearest the
    amount gives way to the one it is "of" (through determiners: "the refund of the fee
    was $40" is a refund). Only called when the amount is not the role word's own "of"
    complement ("the refund of the fee of $40" is the fee's amount)."""
    while index > 1:
        at = index - 1
        while at > 0 and words[at] in _DETERMINERS:
            at -= 1
        if words[at] != "of" or at == 0:
            break
        head = _ROLE_OF.get(words[at - 1])
        if head is None:
            break
        index, role = at - 1, head
    return index, role


_DETERMINERS = _forms(
    ("the", "a", "an", "my", "his", "her", "their", "our", "your", "this", "that")
)
# The single-character _WORD tokens that no list of the role search holds (it stops at
# them), the stops of the backward read of a clause (clause ends, commas, every
# single-character token).
_BARRIERS = frozenset(
    char
    for char in "0123456789$₹"
    if not any(
        char in words
        for words in (_ROLE_OF, _PERIOD_ADJECTIVE_OF, _PERIOD_NOUN_OF, _EVERY, _LEFT_GO_ON)
    )
)
# The last clause end (one of .;!?, a line break, a comma and a space) or one-character
# token (``:``, ``=``, a digit, ``$``, ``₹``) of a window: ``.*`` runs to the window's end
# and gives back one character at a time, so the match ends just after the last one (a
# comma right before the amount is no clause end: the lookahead cannot see past it).
# Digits are 0-9: a window with another digit after the last stop is not ASCII, and is
# tokenised from its start like one whose last stop is that digit.
_LAST_STOP = re.compile(r"(?s:.*)(?:[.;!?\n:=0-9₹$]|,(?= ))")


def _period_before_role(words: list[str]) -> Period | None:
    """A period adjective on a role word anywhere in the clause before the amount: "our
    monthly payment was supposed to be $1,842.17" states a monthly amount as much as
    "a monthly payment of $1,842.17" does."""
    for index in range(len(words) - 1, 0, -1):
        if words[index] in _ROLE_OF and words[index - 1] in _PERIOD_ADJECTIVE_OF:
            return _PERIOD_ADJECTIVE_OF[words[index - 1]]
    return None
