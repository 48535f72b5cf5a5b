"""Whether a finite clause opens a run of words: a subject and its verb.

Shared by the operators that may only act before a clause: the simple style's sentence
split (the second part must be a main clause) and the formal connective of consequence
("So I called them" -> "Therefore, I called them", never before a fragment such as "So
maybe something like a lead designer role").
"""

from __future__ import annotations

from guisekit.rules.lexicon import SentenceSplit

__all__ = ["finite", "opens_clause"]


def finite(word: str, rules: SentenceSplit) -> bool:
    """Whether ``word`` is a finite verb form (sentence_split.yaml ``finite``, or a past
    tense in -ed)."""
    return word in rules.finite or (word.endswith("ed") and len(word) > 3)


def opens_clause(words: list[str], rules: SentenceSplit) -> tuple[int, str] | None:
    """(length of the subject in words, its verb) when ``words`` open a finite clause:
    a subject pronoun or a determiner with one or two more words, adverbs, a verb."""
    if not words:
        return None
    head = words[0].replace("’", "'").split("'", 1)
    if len(head) == 2 and head[0] in rules.subjects:
        return 1, words[0]  # "I'm", "we've", "it's": subject and verb in one word
    if words[0] in rules.subjects:
        size = 1
    elif words[0] in rules.determiners:
        size = next(
            (n for n in (2, 3) if len(words) > n and finite(words[n], rules)
             and not any(w in rules.subjects or finite(w, rules) for w in words[1:n])),
            0,
        )  # fmt: skip
        if not size:
            return None
    else:
        return None
    rest = [w for w in words[size : size + 4] if w not in rules.adverbs]
    if not rest or not finite(rest[0], rules):
        return None
    return size, rest[0]
