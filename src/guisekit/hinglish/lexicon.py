"""Typed, lazily loaded view of the Hinglish data in ``lexicons/hinglish/``.

- ``grammar.yaml``: determiners, pronouns, prepositions -> postpositions, conjunctions,
  adverbs and sentence openers;
- ``content.tsv``: English content words with their gender in Hinglish, a Hindi
  equivalent (used at the code-mixing ratio) and their kind (place / person);
- ``verbs.tsv`` and ``hindi_verbs.yaml``: English verbs, the Hindi verb each becomes (an
  English verb with ``kar``, or a Hindi verb) and the Hindi paradigms;
- ``phrases.tsv``: fixed expressions rendered as one unit;
- ``spellings.tsv``: every Hindi word the engine writes, in its standard, formal and
  clipped casual romanisations and in Devanagari;
- ``hindi_words.txt``, ``ambiguous.txt``: word lists for the language tagger;
- ``english_function_words.txt``, ``english_verb_forms.txt``: words that may not stand
  in a rendered noun phrase (they show the slot holds English syntax or a clause);
- ``templates.yaml``: the clause templates (see :mod:`guisekit.hinglish.clauses`);
- ``unsafe.tsv``: constructions not rendered safely; the clause with one stays English
  (the whole sentence, for a construction of ``sentence`` scope or one spanning a cut);
- ``unsafe_whole.tsv``: constructions where even a Hindi frame is wrong; no frame either;
- ``frames.yaml``: Hindi matrix frames around an English complement clause;
- ``word_classes.yaml``: the closed word lists the rules test words against (object
  pronouns, auxiliaries, measures, ...), read by :mod:`guisekit.hinglish.word_classes`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from guisekit.errors import ResourceError
from guisekit.resources import read_lines, read_table, read_yaml

__all__ = ["Content", "HinglishLexicon", "Spelling", "VerbEntry", "default_lexicon"]

Gender = Literal["m", "f"]
VerbType = Literal["t", "i", "d"]
_DIR = "hinglish"
_LIGHT_VERBS = ("kar", "ho", "de")  # "jawab dena": the noun stays before the light verb


@dataclass(frozen=True, slots=True)
class Content:
    """An English content word: its gender in Hinglish (None for adjectives and other
    words without one), a Hindi equivalent (None if Hinglish keeps the English word) and
    whether it names a place or a person."""

    gender: Gender | None
    hindi: str | None
    agrees: bool
    kind: Literal["place", "person", "-"]
    formal: bool = False


@dataclass(frozen=True, slots=True)
class VerbEntry:
    """An English verb and the Hindi verb it becomes.

    ``english`` is the form kept in the output before a light verb (``negotiate`` +
    ``kar``), empty when a Hindi verb replaces it (``take`` -> ``le``); ``stem`` is the
    Hindi verb; ``type`` is transitive (``t``, ergative ``ne`` in the perfective),
    intransitive (``i``) or dative (``d``: "I got X" -> "mujhe X mila"); ``person`` is the
    postposition after a person object (``ko``, ``se``) or empty; ``recipient``: the
    object is always the one reached, so it takes ``person`` even when it is a firm or a
    name ("bank ko call kiya", written ``ko!`` in verbs.tsv).
    """

    base: str
    english: str
    stem: str
    type: VerbType
    person: str
    low: VerbEntry | None = None  # the rendering used with probability 1 - mix_ratio
    recipient: bool = False


@dataclass(frozen=True, slots=True)
class Spelling:
    """A Hindi word in each romanisation the spelling setting chooses, and in Devanagari."""

    standard: str
    formal: str
    clipped: str
    devanagari: str


def _regular_forms(base: str) -> dict[str, str]:
    """English past (= participle), 3rd person singular and -ing forms of a regular verb."""
    head, _, rest = base.partition(" ")
    tail = f" {rest}" if rest else ""
    if head.endswith("e"):
        past, ing = head + "d", head[:-1] + "ing"
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        past, ing = head[:-1] + "ied", head + "ing"
    elif re.fullmatch(r"[^aeiou]*[aeiou][bdfgklmnprtv]", head):
        # one syllable ending consonant-vowel-consonant doubles it: flagged, stopped
        past, ing = head + head[-1] + "ed", head + head[-1] + "ing"
    else:
        past, ing = head + "ed", head + "ing"
    if head.endswith(("s", "sh", "ch", "x", "z", "o")):
        third = head + "es"
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        third = head[:-1] + "ies"
    else:
        third = head + "s"
    return {"past": past + tail, "third": third + tail, "ing": ing + tail}


def _british_forms(base: str) -> dict[str, tuple[str, ...]]:
    """The British spellings of a regular verb ending in one vowel and "l", which double
    the "l" whatever the stress ("cancelled", "travelling", "labelled"). Read only as
    the American ones, "My order was cancelled" never met the passive and came out as a
    state ("cancelled tha"; heldout52 Hinglish reading: ungrammatical)."""
    head, _, rest = base.partition(" ")
    if not re.search(r"[^aeiou][aeiou]l$", head):
        return {}
    tail = f" {rest}" if rest else ""
    return {f"{head}led{tail}": ("past", "participle"), f"{head}ling{tail}": ("ing",)}


def _verb_entry(base: str, hindi: str, kind: str, person: str) -> VerbEntry:
    words = hindi.split(" ")
    if len(words) > 1 and words[-1] in _LIGHT_VERBS:  # ~ is the English verb
        head = base.split(" ")[0]
        stem, english = words[-1], " ".join(head if w == "~" else w for w in words[:-1])
    else:  # a Hindi verb replaces the English one
        stem, english = hindi, ""
    return VerbEntry(base, english, stem, kind, person)  # type: ignore[arg-type]


@dataclass(frozen=True)
class HinglishLexicon:
    """All Hinglish data, loaded on first use."""

    @functools.cached_property
    def grammar(self) -> dict[str, Any]:
        data = read_yaml(f"{_DIR}/grammar.yaml")
        if not isinstance(data, dict):
            raise ResourceError(f"{_DIR}/grammar.yaml: expected a mapping")
        return data

    @functools.cached_property
    def templates(self) -> list[dict[str, Any]]:
        data = read_yaml(f"{_DIR}/templates.yaml")
        if not isinstance(data, dict) or not isinstance(data.get("templates"), list):
            raise ResourceError(f"{_DIR}/templates.yaml: expected a `templates:` list")
        return list(data["templates"])

    @functools.cached_property
    def content(self) -> dict[str, Content]:
        columns = ("english", "gender", "hindi", "kind", "register")
        rows = read_table(f"{_DIR}/content.tsv", columns)
        found: dict[str, Content] = {}
        for english, gender, hindi, kind, register in rows:
            if gender not in ("m", "f", "a", "-") or kind not in ("place", "person", "-"):
                raise ResourceError(f"{_DIR}/content.tsv: bad gender or kind for {english!r}")
            if register not in ("common", "formal", "-") or (register == "-") != (hindi == "-"):
                raise ResourceError(f"{_DIR}/content.tsv: bad register for {english!r}")
            found[english.lower()] = Content(
                gender if gender in ("m", "f") else None,  # type: ignore[arg-type]
                None if hindi == "-" else hindi,
                gender == "a",
                kind,  # type: ignore[arg-type]
                register == "formal",
            )
        return found

    def singular_entry(self, low: str) -> Content | None:
        """The entry of a lower-case regular plural's singular ("companies", "classes",
        "reports"), None for a word that is no such plural: one rule for every place
        that asks what a plural noun is."""
        if low.endswith("ies"):
            return self.content.get(low[:-3] + "y")
        if low.endswith("s"):
            return self.content.get(low[:-1]) or self.content.get(low[:-2])
        return None

    @functools.cached_property
    def gender_suffixes(self) -> tuple[tuple[str, Gender], ...]:
        """Default gender by ending for nouns missing from content.tsv, longest first."""
        rows = read_table(f"{_DIR}/gender_suffixes.tsv", ("suffix", "gender", "example"))
        for suffix, gender, _ in rows:
            if gender not in ("m", "f"):
                raise ResourceError(f"{_DIR}/gender_suffixes.tsv: bad gender for {suffix!r}")
        ordered = sorted(rows, key=lambda row: len(row[0]), reverse=True)
        return tuple((suffix, gender) for suffix, gender, _ in ordered)  # type: ignore[misc]

    @functools.cached_property
    def phrases(self) -> dict[str, str]:
        rows = read_table(f"{_DIR}/phrases.tsv", ("english", "hinglish"))
        return {english.lower(): "" if hinglish == "-" else hinglish for english, hinglish in rows}

    @functools.cached_property
    def hindi_verbs(self) -> dict[str, dict[str, str]]:
        data = read_yaml(f"{_DIR}/hindi_verbs.yaml")
        if not isinstance(data, dict) or not isinstance(data.get("irregular"), dict):
            raise ResourceError(f"{_DIR}/hindi_verbs.yaml: expected an `irregular:` mapping")
        return {str(k): dict(v or {}) for k, v in data["irregular"].items()}

    @functools.cached_property
    def verb_forms(self) -> dict[str, dict[str, VerbEntry]]:
        """English verb form -> {form kind (base, past, participle, third, ing): entry}."""
        columns = ("english", "past", "participle", "hindi", "type", "person", "at_low_mix")
        index: dict[str, dict[str, VerbEntry]] = {}
        rows = read_table(f"{_DIR}/verbs.tsv", columns)
        for base, past, participle, hindi, kind, person, low in rows:
            if kind not in ("t", "i", "d"):
                raise ResourceError(f"{_DIR}/verbs.tsv: bad type {kind!r} for {base!r}")
            role = "" if person == "-" else person.rstrip("!")
            recipient = person.endswith("!")
            second = None if low == "-" else _verb_entry(base, low, kind, role)
            if second is not None:
                second = replace(second, recipient=recipient)
            entry = replace(_verb_entry(base, hindi, kind, role), low=second, recipient=recipient)
            forms = _regular_forms(base)
            forms["base"] = base
            if past != "-":
                forms["past"] = past
            forms["participle"] = forms["past"] if participle == "-" else participle
            for kind_name, form in forms.items():
                index.setdefault(form.lower(), {})[kind_name] = entry
            for form, kinds in _british_forms(base).items() if past == "-" else ():
                index.setdefault(form, {}).update(dict.fromkeys(kinds, entry))
        return index

    @functools.cached_property
    def spellings(self) -> dict[str, Spelling]:
        columns = ("standard", "formal", "clipped", "devanagari")
        return {row[0]: Spelling(*row) for row in read_table(f"{_DIR}/spellings.tsv", columns)}

    @functools.cached_property
    def hindi_vocabulary(self) -> frozenset[str]:
        """Every romanised Hindi word the tagger knows, in every listed spelling."""
        words = {w.lower() for w in read_lines(f"{_DIR}/hindi_words.txt")}
        for spelling in self.spellings.values():
            words.update({spelling.standard, spelling.formal, spelling.clipped})
        return frozenset(words)

    @functools.cached_property
    def ambiguous(self) -> frozenset[str]:
        return frozenset(w.lower() for w in read_lines(f"{_DIR}/ambiguous.txt"))

    @functools.cached_property
    def english_verb_forms(self) -> frozenset[str]:
        return frozenset(w.lower() for w in read_lines(f"{_DIR}/english_verb_forms.txt"))

    @functools.cached_property
    def unsafe(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        """Named patterns of constructions the engine does not render safely (a meaning
        change is worse than a sentence left in English)."""
        return tuple((name, pattern) for name, _, pattern in self._unsafe_rows)

    @functools.cached_property
    def unsafe_sentence(self) -> frozenset[str]:
        """Names of the unsafe constructions whose effect crosses clauses (scope
        ``sentence``): a match keeps the whole sentence English, never only its clause."""
        return frozenset(name for name, scope, _ in self._unsafe_rows if scope == "sentence")

    @functools.cached_property
    def _unsafe_rows(self) -> tuple[tuple[str, str, re.Pattern[str]], ...]:
        rows = read_table(f"{_DIR}/unsafe.tsv", ("name", "scope", "pattern"))
        for name, scope, _ in rows:
            if scope not in ("clause", "sentence"):
                raise ResourceError(
                    f"{_DIR}/unsafe.tsv: scope of {name!r} is {scope!r}, "
                    "expected 'clause' or 'sentence'"
                )
        return tuple(
            (name, scope, _compile("unsafe.tsv", name, pattern)) for name, scope, pattern in rows
        )

    @functools.cached_property
    def unsafe_whole(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        """Named patterns of constructions where even a Hindi frame around the English
        clause is wrong (it gives a person a gender a later "she" denies, or reads a
        demonstrative "that" as "ki"): such a sentence stays English whole."""
        return _patterns("unsafe_whole.tsv")

    @functools.cached_property
    def frames(self) -> tuple[dict[str, Any], ...]:
        """The matrix frames of ``frames.yaml`` (see :mod:`guisekit.hinglish.frames`)."""
        data = read_yaml(f"{_DIR}/frames.yaml")
        return tuple(dict(frame) for frame in data["frames"])

    @functools.cached_property
    def english_function_words(self) -> frozenset[str]:
        return frozenset(w.lower() for w in read_lines(f"{_DIR}/english_function_words.txt"))


def _patterns(name: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The named patterns of the TSV file ``name`` (columns name, pattern), compiled."""
    rows = read_table(f"{_DIR}/{name}", ("name", "pattern"))
    return tuple((label, _compile(name, label, pattern)) for label, pattern in rows)


def _compile(name: str, label: str, pattern: str) -> re.Pattern[str]:
    """The case-insensitive pattern of row ``label`` of the file ``name``."""
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise ResourceError(f"{_DIR}/{name}: bad pattern for {label!r}: {exc}") from exc


@functools.cache
def default_lexicon() -> HinglishLexicon:
    """The packaged lexicon, shared by every caller in the process."""
    return HinglishLexicon()
