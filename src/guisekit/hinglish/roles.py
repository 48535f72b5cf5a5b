"""Number roles: which amount is "from" and which is "to", and which number counts.

The exact fact check (:mod:`guisekit.facts`) sees every amount survive, but not what it
does: "raised from $1,212.40 to $1,587.90" rewritten as "$1,587.90 ko $1,212.40 se badh
gaya" keeps both amounts and swaps their roles. This module reads the roles on both sides,
sentence by sentence:

- English: a number right after ``from`` is *from*; a number right after ``to`` that
  follows a *from* number is *to*; a number right before ``times`` is a *count*; a range
  ("1 to 1.5 rupees", "10 to 12 lakhs", "between 1 and 2") is read as *from* and *to*
  too, so a rewrite that splits it over two slots ("1.5 rupees per word ko mujhe 1 pay
  karte hain", judged round 12: meaning) fails;
- Hinglish: a number followed by ``se`` with a number after it is *from*, that later
  number is *to* (also "1 aur 2 ... ke beech"); a number before ``baar`` (or ``times``)
  is a *count*.

Every *from*, *to* and *count* number of the original must keep its role in the rewrite.
"""

from __future__ import annotations

import re
from itertools import pairwise

from guisekit.hinglish.text import sentences
from guisekit.hinglish.word_classes import word_classes

__all__ = ["number_roles", "role_problems"]

# a number as written (digits with separators, an ordinal suffix); its key is the digits
_NUMBER = re.compile(r"\d(?:[\d,./]*\d)?(?:st|nd|rd|th)?")
_WORD = re.compile(r"\S+")
_LOOK = 3  # words between a preposition and its number (currency, "about", "Rs.")


def _tokens(text: str) -> list[str]:
    return [w.strip(".,;:!?()\"'").lower() for w in _WORD.findall(text)]


def _number_at(words: list[str], i: int) -> str | None:
    match = _NUMBER.search(words[i]) if i < len(words) else None
    return match.group() if match else None


def _preposition(words: list[str], i: int) -> str | None:
    """The nearest "from" or "to" before the number at ``i`` (within a few words, not
    across another number)."""
    for j in range(i - 1, max(-1, i - 1 - _LOOK), -1):
        if words[j] in ("from", "to"):
            return words[j]
        if _NUMBER.search(words[j]):
            return None
    return None


def _range_end(words: list[str], i: int, link: str) -> int | None:
    """The index of the number that ends a range starting at the number at ``i`` and
    joined by ``link`` ("to", "and"), or None: only units and currency words between."""
    j = i + 1
    while j < len(words) and words[j] in word_classes().range_words:
        j += 1
    if j >= len(words) or words[j] != link:
        return None
    j += 1
    while j < len(words) and words[j] in word_classes().range_words:
        j += 1
    return j if j < len(words) and _number_at(words, j) else None


def number_roles(text: str, language: str) -> list[tuple[str, str]]:
    """``(number, role)`` in order for the numbers of one sentence of ``language``
    (``en`` or ``hi``) that have a role (``from``, ``to``, ``count``)."""
    words = _tokens(text)
    numbers = [(i, n) for i in range(len(words)) if (n := _number_at(words, i))]
    roles: dict[int, str] = {}  # index in ``numbers`` -> role
    for k, (i, _number) in enumerate(numbers):
        after = words[i + 1] if i + 1 < len(words) else ""
        if after in ("times", "baar") or (after == "time" and language == "en"):
            roles[k] = "count"
        if language == "en":
            prep = _preposition(words, i)
            if prep == "from" and k + 1 < len(numbers):
                roles[k] = "from"
            elif prep == "to" and any(roles.get(j) == "from" for j in range(k)):
                roles[k] = "to"
            link = "and" if i and words[i - 1] == "between" else "to"
            if prep != "from" and k + 1 < len(numbers) and k not in roles:
                end = _range_end(words, i, link)
                if end == numbers[k + 1][0]:
                    roles[k], roles[k + 1] = "from", "to"
        else:
            following = words[i + 1 : i + 1 + _LOOK]
            if "se" in following and k + 1 < len(numbers) and after != "baar":
                roles.setdefault(k, "from")
                roles.setdefault(k + 1, "to")
            end = _range_end(words, i, "aur")
            if k + 1 < len(numbers) and end == numbers[k + 1][0]:
                between = words[end + 1 : end + 1 + 2 * _LOOK]
                if any(a == "ke" and b == "beech" for a, b in pairwise(between)):
                    roles.setdefault(k, "from")
                    roles.setdefault(k + 1, "to")
    return [(numbers[k][1], role) for k, role in sorted(roles.items())]


def role_problems(original: str, rewrite: str) -> list[str]:
    """What changed role, sentence by sentence (the whole texts when the sentence counts
    differ): ``'$1,212.40' was from, now to``."""
    pairs: list[tuple[str, str]]
    a, b = sentences(original), sentences(rewrite)
    if len(a) == len(b):
        pairs = [(original[s:e], rewrite[t:u]) for (s, e), (t, u) in zip(a, b, strict=True)]
    else:
        pairs = [(original, rewrite)]
    problems = []
    for english, hinglish in pairs:
        before = number_roles(english, "en")
        if not before or hinglish == english:
            continue
        # a clause kept in English keeps its English from/to: read both ways
        after = number_roles(hinglish, "hi")
        after += [r for r in number_roles(hinglish, "en") if r not in after]
        left = list(after)
        for number, role in before:
            if (number, role) in left:
                left.remove((number, role))
                continue
            now = next((r for n, r in left if n == number), "none")
            problems.append(f"{number!r} was {role}, now {now}")
    return problems
