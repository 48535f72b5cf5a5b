"""Which word a negator negates, and whether a negation moved to another clause.

The comparison counts negators: one added or removed is a change. A rewrite that keeps
the count but moves the negation ("I paid the fee but they did not refund it" -> "I did
not pay the fee but they refunded it") is a change too, which a count cannot see. Here
each negation fact gets the word it negates (the first word after the negator that is not
an auxiliary, modal, determiner or degree adverb: ``negation_skip.txt``; for the
postverbal Hindi negators ``nahi``, ``nahin``, ``mat``, the word before), and a negation
*moved* when that word (by a crude stem: ``refunded`` = ``refund``) occurs in the other
text as often as in this one and every occurrence there stands in a clause with no
negator. A negated word that
the other text does not use at all (a synonym, a restructured sentence) is no evidence
either way: the count decides, as before. Clauses end at ``.;!?``, a line break, a comma
and space, and the coordinating and subordinating words of :data:`_CLAUSE_END`.

Run by the comparison only, on the two texts, so extraction (and its speed) is untouched.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from guisekit.facts.context import _CORRECT
from guisekit.facts.model import Fact
from guisekit.resources import read_lines

__all__ = ["moved_negations"]

_SKIP = frozenset(read_lines("facts/negation_skip.txt"))
_POSTVERBAL = frozenset({"nahi", "nahin", "mat"})
_WORDS = re.compile(r"[a-z]+(?:['’][a-z]+)?")
_LINKS = (
    "but|and|because|though|although|while|whereas|so|yet|or|lekin|magar|aur|kyunki|jabki|isliye"
)
# a link the rules engine misspells ("becuase") still ends a clause: else the misspelled
# guise reads "not becuase" as negating "because", which the source's clause never held
_MISSPELT_LINKS = sorted(wrong for wrong, right in _CORRECT.items() if right in _LINKS.split("|"))
_CLAUSE_END = re.compile(r"[.;!?\n]|,\s|\b(?:" + "|".join([_LINKS, *_MISSPELT_LINKS]) + r")\b")
_SUFFIXES = ("ing", "ed", "es", "s", "e")


def _stem(word: str) -> str:
    """``refunded``, ``refunds``, ``refunding`` -> ``refund``; ``replied`` -> ``reply``
    (read as the rules engine's misspellings correct it: ``refnud`` is ``refund``)."""
    word = word.replace("'", "").replace("’", "")  # "who'd" = "whod", as a careless writer drops it
    word = _CORRECT.get(word, word)
    if word.endswith(("ied", "ies")) and len(word) > 4:
        return word[:-3] + "y"  # replied, replies -> reply
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _negated_word(low: str, fact: Fact, bounds: list[int]) -> str | None:
    """The stem of the word the negation ``fact`` negates in its own clause (``bounds``:
    the clause ends of ``low``), or None ("XXXX did not." negates nothing written)."""
    clause = bisect_right(bounds, fact.start)
    begin = bounds[clause - 1] if clause else 0
    end = bounds[clause] if clause < len(bounds) else len(low)
    negator = fact.text.split(None, 1)[0].lower() if fact.text else ""
    if negator in _POSTVERBAL:
        for word in reversed(_WORDS.findall(low, max(begin, fact.start - 40), fact.start)):
            if word not in _SKIP:
                return _stem(word)
        return None
    for match in _WORDS.finditer(low, fact.end, min(end, fact.end + 60)):
        word = match.group()
        if word not in _SKIP:
            return _stem(word)
    return None


def _clause_bounds(low: str) -> list[int]:
    return [m.start() for m in _CLAUSE_END.finditer(low)]


def _negated_clauses(bounds: list[int], negations: Sequence[Fact]) -> set[int]:
    return {bisect_right(bounds, f.start) for f in negations}


def moved_negations(
    facts: Sequence[Fact], text: str, other_facts: Sequence[Fact], other_text: str
) -> list[Fact]:
    """The negation facts of ``facts`` whose negated word the other text uses, but only
    in clauses without a negator: the negation moved (or was lost there while another
    was added elsewhere)."""
    negations = [f for f in facts if f.kind == "negation"]
    if not negations:
        return []
    low, other_low = text.lower(), other_text.lower()  # the texts negations are found in
    bounds = _clause_bounds(other_low)
    negated = _negated_clauses(bounds, [f for f in other_facts if f.kind == "negation"])
    occurrences = _occurrences(other_low)
    own = _occurrences(low)
    own_bounds = _clause_bounds(low)
    moved = []
    for fact in negations:
        word = _negated_word(low, fact, own_bounds)
        if word is None:
            continue
        where = occurrences.get(word)
        # The word must occur as often in both texts: a style edit that swapped one of
        # its occurrences for a synonym ("not additional" -> "not extra", another
        # "additional" kept) is no evidence that the negation moved.
        if (
            where
            and len(where) == len(own.get(word, ()))
            and all(bisect_right(bounds, at) not in negated for at in where)
        ):
            moved.append(fact)
    return moved


def _occurrences(low: str) -> dict[str, list[int]]:
    """Where each word (by its stem) occurs in ``low``."""
    found: dict[str, list[int]] = {}
    for match in _WORDS.finditer(low):
        found.setdefault(_stem(match.group()), []).append(match.start())
    return found
