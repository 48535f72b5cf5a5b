"""Entity and identifier facts: capitalised words and runs of them that are names (not
forms of address, greetings or calendar words: ``not_entities.txt`` and the style
lexicons; at a sentence start, where the capital says nothing, only words that no list of
``sentence_start_sources.txt`` knows and the text does not also write in lower case), and
account, card and reference numbers (``123456789``, ``XXXX1234``, ``SR4456123``, ``card
ending in 4321``). Split from :mod:`.context`, whose lists it reads."""

from __future__ import annotations

import re

from guisekit.facts.build import IDENTIFIER_P, Candidate, span_fact
from guisekit.facts.context import _CORRECT, _KNOWN_AT_START, _NOT_ENTITIES, _PLACES
from guisekit.facts.model import Fact

__all__ = ["entities", "entity_fact", "entity_spans", "identifiers"]


# A lone "I" is left out of the scan when the lists say it is no name: a skipped word
# only ends a run of names, which the capital letter between them ends anyway (see
# _JOIN), and leaving it out changes no other match, as it is matched only when no longer
# match starts there.
_CAPITALISED = re.compile(
    r"[A-Z][A-Za-z'’&.-]*[A-Za-z]|[A-Z]" + ("(?<!I)" if "i" in _NOT_ENTITIES else "")
)
_WORD_CHECKS: dict[str, tuple[str, bool, bool, bool]] = {}
# Endings of common words (adverbs, gerunds, past forms, abstract nouns), no names'.
_COMMON_ENDINGS = (
    "ly", "ing", "ed", "tion", "sion", "ness", "ment", "ity", "ance", "ence", "ful",
    "less", "ous", "ive", "able", "ible", "ies", "est", "ism",
)  # fmt: skip


def _word_checks(written: str) -> tuple[str, bool, bool, bool]:
    """For a capitalised word as matched: the word (less a final full stop), whether the
    lists say it is no name, whether it is a place word (a name even at a sentence
    start), and whether it may be a name at a sentence start (no list knows it, nor its
    stem, and it has no ending of a common word). A pure function of the word, memoised
    (like spaCy's tokenizer cache, bounded)."""
    checks = _WORD_CHECKS.get(written)
    if checks is None:
        word = written.rstrip(".")
        low = word.lower().strip("'’")
        checks = (
            word,
            low in _NOT_ENTITIES or _CORRECT.get(low, low) in _NOT_ENTITIES,
            word in _PLACE_WORDS,
            _unknown_at_start(low),
        )
        if len(_WORD_CHECKS) >= 50_000:
            _WORD_CHECKS.clear()
        _WORD_CHECKS[written] = checks
    return checks


def _unknown_at_start(low: str) -> bool:
    """Whether a lower-cased word at a sentence start may be a name: two letters or more
    before any apostrophe ("Priya's" is Priya's, "We're" is we), no list of common words
    knows it (nor its stem less s or es), no common ending, no "n't"."""
    if low in _KNOWN_AT_START or low.endswith(("n't", "n’t")):
        return False
    base = _APOSTROPHE.split(low, 1)[0]
    if len(base) < 2 or not base.isalpha() or not base.strip("x"):  # XXXX: a redaction
        return False
    if base in _KNOWN_AT_START or _CORRECT.get(base, base) in _KNOWN_AT_START:
        return False
    if base.endswith("s") and (base[:-1] in _KNOWN_AT_START or base[:-2] in _KNOWN_AT_START):
        return False
    return not base.endswith(_COMMON_ENDINGS)


_APOSTROPHE = re.compile("['’]")


def _written_lower(text: str, word: str) -> bool:
    """Whether ``text`` also writes ``word`` in lower case as a word ("Customer care ...
    the customer"): a common word, not a name."""
    low = word.lower()
    at = text.find(low)
    while at >= 0:
        end = at + len(low)
        if (not at or not text[at - 1].isalpha()) and (end == len(text) or not text[end].isalpha()):
            return True
        at = text.find(low, at + 1)
    return False


def entities(text: str) -> list[Fact]:
    """Capitalised words (runs of them, joined by ``of``/``&``) that are names."""
    return [entity_fact(text, start, end) for start, end in entity_spans(text)]


def entity_spans(text: str) -> list[tuple[int, int]]:
    """The spans of :func:`entities` (the facts are built by the caller, for the spans
    that no other fact overlaps)."""
    found: list[tuple[int, int]] = []
    run_start = run_end = -1
    checks_of, cached = _word_checks, _WORD_CHECKS
    for match in _CAPITALISED.finditer(text):
        written = match.group()
        checks = cached.get(written) or checks_of(written)
        if checks[1]:  # a word no list calls a name: it ends a run (the common case)
            if run_start >= 0:
                found.append((run_start, run_end))
                run_start = -1
            continue
        start = match.start()
        skip = start and text[start - 1].isalnum()
        fresh = False  # a name at a sentence start starts a run of its own
        if not skip and not checks[2] and _sentence_start(text, start):
            after = match.end()
            skip = (
                not checks[3]
                or text[after : after + 1].isalnum()  # "Sr4456123": an identifier
                or _written_lower(text, checks[0])
            )
            fresh = True
        if skip:
            if run_start >= 0:
                found.append((run_start, run_end))
                run_start = -1
            continue
        end = start + len(checks[0])
        if run_start >= 0 and not fresh and _JOIN.fullmatch(text, run_end, start):
            run_end = end
            continue
        if run_start >= 0:
            found.append((run_start, run_end))
        run_start, run_end = start, end
    if run_start >= 0:
        found.append((run_start, run_end))
    return found


def _sentence_start(text: str, start: int) -> bool:
    """Whether only spaces and quotes or brackets stand between ``start`` and the start of
    the text or a sentence end (.!?:) or line break: a quote closed after its full stop
    (``said 'done.' Lekin``) ends the sentence too."""
    before = text[max(0, start - 4) : start].rstrip(" \t\"“”‘’'()[]")
    return not before or before[-1] in ".!?:\n" or (start > 4 and not before.strip(" \t"))


_JOIN = re.compile(r"\s+(?:of\s+|&\s+)?|\s?&\s?")
_PLACE_WORDS = frozenset(word for place in _PLACES for word in place.split())


def _identifier(text: str, start: int, end: int, candidates: list[Candidate]) -> None:
    written = text[start:end]
    value = "".join(ch for ch in written if ch.isalnum() or ch == "*").upper().replace("*", "X")
    candidates.append(
        (
            start,
            end,
            IDENTIFIER_P,
            len(candidates),
            span_fact(kind="identifier", value=value, start=start, end=end, text=written),
        )
    )


def entity_fact(text: str, start: int, end: int) -> Fact:
    """The entity fact of a span of :func:`entity_spans`."""
    written = text[start:end]
    return span_fact(
        kind="entity",
        value=" ".join(_CORRECT.get(w, w) for w in written.lower().split()),
        start=start,
        end=end,
        text=written,
    )


# Five or more digits standing alone (an account, phone or reference number), led by up
# to four capitals (SR4456123); masked numbers (XXXX1234, ****1234) are found apart.
# (led by its first digit: a digit after a digit fails at once, as \d{5,} can only match
# from the first digit of a run). ASCII text is read from its character classes instead
# (see _digit_runs).
_IDENTIFIER = re.compile(r"\d(?<!\d\d)\d{4,}")
_MASKED = re.compile(r"[X*](?<![\w*][X*])[X*]+[-\s]?\d{3,}(?![\d.,]\d)(?![A-Za-z])")
_ENDING_IN = re.compile(r"(?:ending|ends)\s+(?:in|with)\s+(\d{3,4})(?!\d)")


# For the gate of _MASKED on ASCII text: X and * read as X, digits as 0, whitespace and
# hyphens as -, the rest as a space; a match needs XX then 000, or XX-000.
_MASK_CLASSES = bytes(
    88
    if chr(i) in "X*"
    else 48
    if re.fullmatch(r"\d", chr(i))
    else 45
    if chr(i) == "-" or re.fullmatch(r"\s", chr(i))
    else 32
    for i in range(256)
)


def _digit_runs(classes: bytes) -> list[tuple[int, int]]:
    """The spans of the runs of five digits or more of an ASCII text, from its
    _MASK_CLASSES (digits read as ``0``): the matches of _IDENTIFIER, found with
    ``bytes.find`` (a regex led by a digit is tried at every digit of the text, and
    most texts have many digits and few such runs)."""
    runs = []
    start = classes.find(b"00000")
    while start >= 0:
        end = start + 5
        while end < len(classes) and classes[end] == 48:  # b"0"
            end += 1
        runs.append((start, end))
        start = classes.find(b"00000", end)
    return runs


def identifiers(text: str, low: str, candidates: list[Candidate]) -> None:
    """Account, card and reference numbers as candidates (money and dates win overlaps).

    A _MASKED match needs XX then 000 or XX-000 in the character classes of an ASCII
    text (the scan is tried at every X, and redacted texts are full of them, while
    masked numbers are rare)."""
    if text.isascii():
        classes = text.encode().translate(_MASK_CLASSES)
        runs = _digit_runs(classes)
        may_mask = b"XX000" in classes or b"XX-000" in classes
    else:
        runs = [match.span() for match in _IDENTIFIER.finditer(text)]
        may_mask = True
    for start, end in runs:
        if (start and text[start - 1] in ".,$₹/-") or text[end : end + 1].isalpha():
            continue
        if text[end : end + 1] in (".", ",") and text[end + 1 : end + 2].isdigit():
            continue  # part of a larger number: 12345,678 / 12345.67
        lead = start
        while lead and start - lead < 4 and text[lead - 1].isupper():
            lead -= 1
        if lead and text[lead - 1].isalnum():
            continue
        _identifier(text, lead, end, candidates)
    if may_mask and ("XX" in text or "**" in text):
        for match in _MASKED.finditer(text):
            _identifier(text, match.start(), match.end(), candidates)
    if "end" in low:
        for match in _ENDING_IN.finditer(low):
            start, end = match.span(1)
            candidates.append(
                (
                    start,
                    end,
                    IDENTIFIER_P,
                    len(candidates),
                    span_fact(
                        kind="identifier",
                        value=match.group(1),
                        start=start,
                        end=end,
                        text=text[start:end],
                    ),
                )
            )
