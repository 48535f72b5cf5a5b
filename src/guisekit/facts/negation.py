"""Negation facts: each negator (``not``, ``never``, ``no``, ``n't``, bare ``dont`` ...)
outside the hedges of ``lexicons/facts/negation_idioms.txt``, so ``did not`` <-> ``didn't``
is a style edit and an added ``never`` is not. Split from :mod:`.context`, whose lists
(the negators, the idioms, the rules engine's misspellings) it reads."""

from __future__ import annotations

import re

from guisekit.facts.build import span_fact
from guisekit.facts.context import _CORRECT, _IDIOMS, _NEGATORS, spelling_blind
from guisekit.facts.model import Fact
from guisekit.facts.scan import trie
from guisekit.resources import read_table

__all__ = ["negations"]


# Contractions written without the apostrophe ("dont", "oughtnt"), common in informal
# text and made by the persona operators: every "n't" form of the one contraction
# table (lexicons/transforms/contractions.tsv), less its apostrophe (and "aint",
# "oughtnt", which the table does not write).
_BARE = sorted(
    {
        c.replace("'", "")
        for _, c, _, _ in read_table(
            "transforms/contractions.tsv", ("expanded", "contracted", "contract", "kind")
        )
        if c.endswith("n't")
    }
    | {"aint", "oughtnt"},
    key=len,
    reverse=True,
)
# Negators that start with "n" (and "n't") in one scan led by the literal "n"; bare
# contractions from their "nt" ending; the rest, rare words, with str.find.
_N_NEGATOR = re.compile(
    "n(?:" + trie(w[1:] for w in _NEGATORS if w.startswith("n")) + r"|['’]t)(?![\w'’])"
)
_NT = re.compile(r"nt(?![\w'’])")
_BARE_SET = frozenset(_BARE)
# The "nt" word endings that one of the bare contractions ends (a lookbehind per
# contraction): "payment", "account", "amount" end most words with "nt" and are passed
# over by the regex engine, where _NT would walk back over each in Python.
_BARE_NT = re.compile("nt(?:" + "|".join(f"(?<={re.escape(b)})" for b in _BARE) + r")(?![\w'’])")
if not all(b.endswith("nt") for b in _BARE):
    raise RuntimeError("negation: every bare contraction must end with 'nt'")
_RARE_NEGATORS = sorted(w for w in _NEGATORS if not w.startswith("n"))
# The negator words as letter runs (the prefilter of negations()): each must be letters
# a-z, or a text could hold it without holding its run.
_N_WORD_RUNS = frozenset(w.encode() for w in _NEGATORS if w.startswith("n"))
_BARE_RUNS = frozenset(w.encode() for w in _BARE)
if not all(re.fullmatch("[a-z]+", w) for w in (*_NEGATORS, *_BARE)):
    raise RuntimeError("negation: a negator must be letters a-z (see letter_runs)")
_IDIOMS_BY_WORD: dict[str, list[tuple[str, int]]] = {}
for _idiom in _IDIOMS:
    for _token in _idiom.split():
        if _token.endswith("n't"):
            _IDIOMS_BY_WORD.setdefault("n't", []).append((_idiom, _idiom.find("n't")))
        elif _token in _NEGATORS:
            _IDIOMS_BY_WORD.setdefault(_token, []).append((_idiom, _idiom.find(_token)))


_IDIOM_WORDS = {word for idiom in _IDIOMS for word in idiom.split()}
_IDIOM_MISSPELT = tuple(wrong for wrong, right in _CORRECT.items() if right in _IDIOM_WORDS)
# For each negator: one pattern matched at the negator that every idiom holding it
# matches as written (the text before the negator in a lookbehind), so that a negator in
# no idiom, the common case, costs one match instead of a startswith per idiom; and the
# negators with an idiom they start, which a misspelling may hide ("no problme").
_IDIOM_GATE = {
    key: re.compile(
        "|".join(
            f"(?<={re.escape(idiom[:offset])}){re.escape(idiom[offset:])}"
            if offset
            else re.escape(idiom)
            for idiom, offset in idioms
        )
    )
    for key, idioms in _IDIOMS_BY_WORD.items()
}
_STARTS_IDIOM = frozenset(
    key for key, idioms in _IDIOMS_BY_WORD.items() if any(o == 0 for _, o in idioms)
)


def negations(text: str, low: str, runs: frozenset[bytes] | None = None) -> list[Fact]:
    """One fact per negator outside a hedge idiom; value ``not`` (the comparison counts
    them: a negator added or removed is a change, the spelling is not).

    With the text's letter ``runs`` (:func:`~guisekit.facts.scan.letter_runs`), the
    negator words that are none of them are not searched for: a negator word found
    stands between characters that are no letters, so it is a whole run (an ``n't``
    needs an apostrophe in the text)."""
    hits: list[tuple[int, int, int, str]] = []  # (word start, word end, negator start, key)
    if runs is None or "'" in low or "’" in low or not _N_WORD_RUNS.isdisjoint(runs):
        _n_negators(low, hits)
    if runs is None or not _BARE_RUNS.isdisjoint(runs):
        _bare_negators(low, hits)
    for word in _RARE_NEGATORS:
        if runs is not None and word.encode() not in runs:
            continue
        position = low.find(word)
        while position >= 0:
            end = position + len(word)
            if (not position or not _is_letter(low[position - 1])) and (
                end == len(low) or not low[end].isalnum()
            ):
                hits.append((position, end, position, word))
            position = low.find(word, end)
    if not hits:
        return []
    return _outside_idioms(text, low, hits)


def _n_negators(low: str, hits: list[tuple[int, int, int, str]]) -> None:
    """The negators that start with "n", and "n't" (with the word it ends)."""
    for match in _N_NEGATOR.finditer(low):
        start, end = match.span()
        word = match.group()
        if word[1] in "'’":  # n't: the word is the letters before it
            if not start or not low[start - 1].isalpha():
                continue
            lead = start - 1
            while lead and low[lead - 1].isalpha():
                lead -= 1
            hits.append((lead, end, start, "n't"))
        elif not start or not _is_letter(low[start - 1]):
            hits.append((start, end, start, word))


def _bare_negators(low: str, hits: list[tuple[int, int, int, str]]) -> None:
    """Bare contractions: "dont", "oughtnt"."""
    for match in _BARE_NT.finditer(low):
        end = match.end()
        start = end - 2
        while start and low[start - 1].isalpha():
            start -= 1
        if low[start:end] in _BARE_SET and (not start or not _is_letter(low[start - 1])):
            hits.append((start, end, start, low[start:end]))


def _outside_idioms(text: str, low: str, hits: list[tuple[int, int, int, str]]) -> list[Fact]:
    """The facts of the negators of ``hits`` that stand in no hedge idiom."""
    hits.sort()
    found: list[Fact] = []
    for start, end, at, key in hits:
        gate = _IDIOM_GATE.get(key)
        if (
            gate is not None
            and (
                gate.match(low, at) is not None
                or (key in _STARTS_IDIOM and _misspelt_near(low, at))
            )
            and _in_idiom(low, at, _IDIOMS_BY_WORD[key])
        ):
            continue
        rest = low[end : end + 24]
        after = rest.split(None, 1)
        shown_end = end + (rest.find(after[0]) + len(after[0]) if after else 0)
        found.append(
            span_fact(
                kind="negation",
                value="not",
                start=start,
                end=end,
                text=text[start:shown_end].rstrip(".,;:!?"),
            )
        )
    return found


def _is_letter(ch: str) -> bool:
    return ch.isalpha() or ch in "'’"


def _misspelt_near(low: str, at: int) -> bool:
    """Whether a misspelt idiom word stands in the 40 characters from ``at``."""
    window = low[at : at + 40]
    return any(wrong in window for wrong in _IDIOM_MISSPELT)


def _in_idiom(low: str, at: int, idioms: list[tuple[str, int]]) -> bool:
    """Whether the negator at ``at`` is inside one of ``idioms`` (with the offset of the
    negator in each), spelling-blind ("no problme" is "no problem")."""
    corrected = None
    for idiom, offset in idioms:
        begin = at - offset
        if begin < 0:
            continue
        if low.startswith(idiom, begin) and not _letter_at(low, begin + len(idiom)):
            return True
        if offset == 0:
            if corrected is None:
                corrected = spelling_blind(low[at : at + 40]) if _misspelt_near(low, at) else ""
            if corrected.startswith(idiom) and not _letter_at(corrected, len(idiom)):
                return True
    return False


def _letter_at(text: str, index: int) -> bool:
    """Whether a letter stands at ``index``: an idiom must end at a word's end ("not
    certain" is no part of "not certainly")."""
    return index < len(text) and text[index].isalpha()
