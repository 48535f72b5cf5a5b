"""Cue counters over the rules engine's lexicons: hedge density and other style cues.

These measure what the operators manipulate, so a corpus can be checked for the intended
shifts (hedged variants carry more hedges; college guises more sophisticated words).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from guisekit.rules.doc import Doc
from guisekit.rules.lexicon import PhraseMap, RulesLexicon, alternation, default_lexicon

__all__ = ["HedgeScore", "StyleCues", "hedge_score", "style_cues"]

_HEDGE_CATEGORIES = frozenset(
    {
        "epistemic_verb",
        "epistemic_adverb",
        "epistemic_adjective",
        "epistemic_modal",
        "approximator",
        "vagueness",
        "shield",
        "conditional",
    }
)
# Which hedge cues count only in context (rounders, degree adaptors: claims.yaml), the
# lower-case "i" forms and the number words are data: lexicons/rules/.
_WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*")


@functools.cache
def _number_word(lex: RulesLexicon) -> re.Pattern[str]:
    """A space and a number word of word_classes.yaml ``quantity_words``, in any case."""
    words = alternation(lex.word_classes["quantity_words"])
    return re.compile(r" (?:" + words + r")\b", re.IGNORECASE)


# Byte classes for counting words in ASCII text: 1 a letter, 2 a joiner (' or -).
_ASCII_CLASS = np.zeros(256, dtype=np.int8)
_ASCII_CLASS[[*range(ord("A"), ord("Z") + 1), *range(ord("a"), ord("z") + 1)]] = 1
_ASCII_CLASS[[ord("'"), ord("-")]] = 2


def _word_count(text: str) -> int:
    """How many ``_WORD`` matches ``text`` holds.

    A match is a chain of letter runs linked by single joiners with a letter on each
    side, so in ASCII text the count is the letter runs less those links, counted over
    byte arrays instead of by building every match (the ’ joiner is not ASCII: other
    texts use the regex).
    """
    if not text.isascii() or not text:
        return len(_WORD.findall(text))
    kind = _ASCII_CLASS[np.frombuffer(text.encode("ascii"), dtype=np.uint8)]
    letter = kind == 1
    runs = int(letter[0]) + np.count_nonzero(letter[1:] & ~letter[:-1])
    links = np.count_nonzero((kind[1:-1] == 2) & letter[:-2] & letter[2:])
    return int(runs - links)


@dataclass(frozen=True, slots=True)
class HedgeScore:
    """Hedge cues per 100 words, with the cues matched (booster density alongside)."""

    words: int
    hedges: tuple[str, ...]
    boosters: tuple[str, ...]

    @property
    def density(self) -> float:
        return 100.0 * len(self.hedges) / self.words if self.words else 0.0

    @property
    def booster_density(self) -> float:
        return 100.0 * len(self.boosters) / self.words if self.words else 0.0


def _before_quantity(text: str, lex: RulesLexicon, end: int) -> bool:
    """Whether an approximator is followed by a number or amount ("about $500"), which
    tells it from "about" meaning "concerning"."""
    nxt = text[end : end + 2]
    return (nxt[:1] == " " and (nxt[1:].isdigit() or nxt[1:] in ("$", "₹"))) or bool(
        _number_word(lex).match(text, end)
    )


def _matches(doc: Doc, phrases: PhraseMap) -> list[str]:
    return [phrase for phrase, _, _ in _spans(doc, phrases)]


# A character that continues a word (``Doc.occurrences``' boundary test).
_WORD_CHAR = "[a-z0-9'\\-]"
_PLAIN_WORD = re.compile(f"{_WORD_CHAR}+")


@functools.lru_cache(maxsize=4096)
def _phrase_pattern(first: str, phrases: tuple[str, ...]) -> tuple[re.Pattern[str], bool]:
    """One regex for the phrases sharing the first word ``first``, longest first.

    It matches ``first`` as a whole word (no word character before it: a lookbehind
    placed after the literal, so the regex engine still skips to candidates with its
    fast literal search) and captures, in a lookahead, the rest of the first phrase that
    stands there as whole words, as ``Doc.phrase_end`` tried them one by one (the
    alternation backtracks past a phrase whose end is inside a word). The match itself
    covers only ``first``, so a search resumes right after it and finds every start
    offset, overlapping phrases included. The flag says whether ``first`` is made of word
    characters only: other first words can overlap themselves (see :func:`_spans`).
    """
    word = re.escape(first)
    rests = "|".join(re.escape(phrase[len(first) :]) for phrase in phrases)
    pattern = re.compile(f"{word}(?<!{_WORD_CHAR}{word})(?=({rests})(?!{_WORD_CHAR}))")
    return pattern, _PLAIN_WORD.fullmatch(first) is not None


def _spans(doc: Doc, phrases: PhraseMap) -> list[tuple[str, int, int]]:
    """Non-overlapping phrase matches, longest first at each position, in text order.

    Candidates are the phrases of the first words in the text's vocabulary, at every
    whole-word occurrence of the first word (``Doc.occurrences``); where no earlier
    match covers a start, the phrase found there is kept.
    """
    hits = []
    lowered = doc.lowered
    for first in phrases.firsts & doc.vocab:
        pattern, plain = _phrase_pattern(first, phrases.by_first[first])
        if not plain:
            # A first word with a non-word character ("e.g.") can overlap itself, which
            # one search cannot find: try the phrases at each occurrence instead.
            match = pattern.match
            for start in doc.occurrences(first):
                hit = match(lowered, start)
                if hit is not None:
                    hits.append((start, hit.end(1), first + hit.group(1)))
            continue
        hits.extend(
            (hit.start(), hit.end(1), first + hit.group(1)) for hit in pattern.finditer(lowered)
        )
    hits.sort()
    found, cursor = [], 0
    for start, end, phrase in hits:
        if start >= cursor:
            found.append((phrase, start, end))
            cursor = end
    return found


def hedge_score(text: str, lexicon: RulesLexicon | None = None) -> HedgeScore:
    """Count hedge and booster cues of ``lexicons/rules/hedges.tsv`` in ``text``."""
    return _hedge_score(Doc(text, ()), lexicon or default_lexicon())


def _counts(doc: Doc, lex: RulesLexicon, cue: str, start: int, end: int) -> bool:
    """Whether a matched cue works as a hedge or booster here (Hyland 1998 stresses that
    hedging is a use in context, not a word): rounders before a figure, "some" before a
    mass noun, "may" not the month, "a bit"/"rather" before an adjective, "seem(s)" not
    after "it" (the frame counts itself), "must" not before "have" in a requirement.
    The rounders and adaptors are claims.yaml ``rounders`` and ``degree_adaptors``."""
    text = doc.text
    if cue in lex.claim_set("rounders"):
        return _before_quantity(text, lex, end)
    if cue == "some":
        nxt = doc.next_word(end)
        return nxt is not None and nxt.lower in lex.claim_set("mass_nouns")
    if cue in ("may", "may not"):
        return text[start : start + 1] == "m"
    if cue in lex.claim_set("degree_adaptors"):
        nxt = doc.next_word(end)
        return nxt is not None and (nxt.lower in lex.adjectives or nxt.lower.endswith("ly"))
    if cue == "a few":
        return not _before_quantity(text, lex, end)
    return True


def _hedge_score(doc: Doc, lex: RulesLexicon, words: int | None = None) -> HedgeScore:
    cues = [
        cue
        for cue, start, end in _spans(doc, lex.hedge_cue_map)
        if _counts(doc, lex, cue, start, end)
    ]
    return HedgeScore(
        words=_word_count(doc.text) if words is None else words,
        hedges=tuple(c for c in cues if lex.hedge_cues[c] in _HEDGE_CATEGORIES),
        boosters=tuple(c for c in cues if lex.hedge_cues[c] == "booster"),
    )


@dataclass(frozen=True, slots=True)
class StyleCues:
    """Rates per 100 words of the style markers the rules engine manipulates."""

    words: int
    contractions: float
    misspellings: float
    sophisticated: float
    plain: float
    formal_markers: float
    informal_markers: float
    hedges: float
    boosters: float = 0.0


def style_cues(text: str, lexicon: RulesLexicon | None = None) -> StyleCues:
    """Count contractions, misspellings, register words and (in)formal markers."""
    lex = lexicon or default_lexicon()
    doc = Doc(text, ())
    n_words = _word_count(text)
    words = n_words or 1

    def rate(count: int) -> float:
        return 100.0 * count / words

    young = lex.young_intensifiers
    fillers = lex.all_fillers.mapping
    contractions = len(_matches(doc, lex.expansions))
    # Occurrences counted without building (and sorting) Word tuples: ``doc.words``
    # finds the same ones.
    informal = sum(len(doc.occurrences(w)) for w in young & doc.vocab)
    lower_i = lex.word_classes["lower_i"]
    informal += sum(text[at] == "i" for w in lower_i & doc.vocab for at in doc.occurrences(w))
    informal += sum(
        1 for s in doc.sentence_starts if (w := doc.word_at(s)) is not None and w.lower in fillers
    )
    informal += text.count("!") + len(_matches(doc, lex.apostrophe_free)) + contractions
    formal = len(_matches(doc, lex.formal_markers))
    score = _hedge_score(doc, lex, n_words)
    return StyleCues(
        words=n_words,
        contractions=rate(contractions),
        misspellings=rate(len(_matches(doc, lex.fix_spelling))),
        sophisticated=rate(len(_matches(doc, lex.sophisticated_words))),
        plain=rate(len(_matches(doc, lex.plain_words))),
        formal_markers=rate(formal),
        informal_markers=rate(informal),
        hedges=score.density,
        boosters=score.booster_density,
    )
