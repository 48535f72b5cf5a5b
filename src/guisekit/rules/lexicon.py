"""Typed, lazily loaded view of the rules engine's word lists (``lexicons/rules/``).

Each table is parsed on first use and indexed for the operators: phrase maps are keyed by
their first word so an operator only looks at positions where a key can start. A user
folder given by path extends the packaged tables: its rows come after the packaged
ones, so for a mapping they win where both define a key.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from guisekit.errors import ResourceError
from guisekit.resources import read_lines, read_table, read_yaml
from guisekit.transforms.contractions import table as contraction_table

__all__ = ["PhraseMap", "RulesLexicon", "alternation", "default_lexicon"]

PACKAGED = PurePosixPath("rules")  # a packaged name, not a user path
_REGISTER_POS = frozenset({"verb", "figure", "noun", "adj", "adv", "phrase"})
_SIMPLE_POS = frozenset({"verb", "noun", "adj", "adv", "prep", "phrase"})


@dataclass(frozen=True)
class PhraseMap:
    """Lower-case phrase -> replacement, indexed by first word for fast lookup."""

    mapping: dict[str, str]
    by_first: dict[str, tuple[str, ...]] = field(default_factory=dict)
    firsts: frozenset[str] = frozenset()
    wraps: dict[str, tuple[str, str]] = field(default_factory=dict)
    words: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, pairs: Iterable[tuple[str, str]]) -> PhraseMap:
        mapping: dict[str, str] = {}
        for key, value in pairs:
            mapping[key.lower()] = value
        by_first: dict[str, list[str]] = {}
        for key in list(mapping):
            normal = " ".join(key.split())
            mapping[normal] = mapping.pop(key)
            by_first.setdefault(normal.split()[0], []).append(normal)
        # A value that contains its key ("send it" -> "please send it") must not apply
        # again where the key already stands wrapped: keep the wrapping to check for it.
        wraps = {}
        for key, value in mapping.items():
            at = value.lower().find(key)
            if at >= 0 and value:
                wraps[key] = (value[:at].lower(), value[at + len(key) :].lower())
        return cls(
            mapping,
            {k: tuple(sorted(v, key=len, reverse=True)) for k, v in by_first.items()},
            frozenset(by_first),
            wraps,
            {key: frozenset(key.split()) for key in mapping},
        )

    def inverse(self) -> PhraseMap:
        return PhraseMap.build((v.lower(), k) for k, v in self.mapping.items())


@dataclass(frozen=True)
class SentenceSplit:
    """Conditions of a safe sentence split (see sentence_split.yaml)."""

    min_words: int
    min_left: int
    min_right: int
    opener_words: int
    openers: frozenset[str]
    coordinators: dict[str, str]
    formal_coordinators: dict[str, str]
    subjects: frozenset[str]
    determiners: frozenset[str]
    which_singular: frozenset[str]
    which_plural: frozenset[str]
    no_split_after_so: frozenset[str]
    subordinators: frozenset[str]
    adverbs: frozenset[str]
    finite: frozenset[str]
    reporting: frozenset[str]
    reporting_connectives: frozenset[str]
    report_window: int
    object_complement: frozenset[str]


@dataclass(frozen=True)
class RulesLexicon:
    """All rules-engine data, loaded on first use; ``extra`` folders extend it."""

    extra: tuple[Path, ...] = ()

    def _tables(self, name: str, columns: Sequence[str]) -> list[tuple[str, ...]]:
        rows = list(read_table(PACKAGED / name, tuple(columns)))
        for folder in self.extra:
            if (folder / name).is_file():
                rows += read_table((folder / name).resolve(), tuple(columns))
        return rows

    def _yaml(self, name: str) -> dict[str, Any]:
        data = read_yaml(PACKAGED / name)
        if not isinstance(data, dict):
            raise ResourceError(f"{name}: expected a mapping at the top level")
        merged = dict(data)
        for folder in self.extra:
            if (folder / name).is_file():
                extra = read_yaml((folder / name).resolve()) or {}
                merged = _merge(merged, extra)
        return merged

    def _pairs(self, name: str, columns: tuple[str, str]) -> list[tuple[str, str]]:
        return [(row[0], row[1]) for row in self._tables(name, columns)]

    def _lines(self, name: str) -> frozenset[str]:
        lines = set(read_lines(PACKAGED / name))
        for folder in self.extra:
            if (folder / name).is_file():
                lines |= set(read_lines((folder / name).resolve()))
        return frozenset(line.lower() for line in lines)

    # --- phrase maps ---------------------------------------------------------------------

    @functools.cached_property
    def contractions(self) -> PhraseMap:
        """Full form -> contraction, every row of the one contraction table
        (``lexicons/transforms/contractions.tsv``; for counting and test vocabularies:
        the operators use :func:`guisekit.transforms.contractions.edits`, which knows
        each row's context)."""
        return PhraseMap.build((row.full, row.short) for row in contraction_table())

    @functools.cached_property
    def expansions(self) -> PhraseMap:
        """Contraction -> full form (an ambiguous one under its first reading)."""
        return PhraseMap.build((row.short, row.full) for row in contraction_table())

    @functools.cached_property
    def contracted_forms(self) -> frozenset[str]:
        return frozenset(c for c in self.expansions.mapping if "'" in c and " " not in c)

    @functools.cached_property
    def apostrophe_free(self) -> PhraseMap:
        """``dont`` -> ``don't``, leaving out forms that are words themselves (its, well)."""
        words = self.words
        pairs = []
        for contracted in self.expansions.mapping:
            bare = contracted.replace("'", "")
            if "'" in contracted and bare not in words and " " not in bare:
                pairs.append((bare, contracted))
        return PhraseMap.build(pairs)

    @functools.cached_property
    def _register_rows(self) -> list[tuple[str, ...]]:
        rows = self._tables("register_pairs.tsv", ("plain", "sophisticated", "pos", "swap"))
        for plain, _, pos, swap in rows:
            if pos not in _REGISTER_POS or swap not in ("both", "up", "down"):
                raise ResourceError(
                    f"register_pairs.tsv: row {plain!r} has pos {pos!r} and swap {swap!r}",
                    hint=f"pos is one of {sorted(_REGISTER_POS)}; swap is both, up or down",
                )
        return rows

    @functools.cached_property
    def register_up(self) -> PhraseMap:
        """Plain -> sophisticated, for the rows that swap upwards."""
        return PhraseMap.build((r[0], r[1]) for r in self._register_rows if r[3] != "down")

    @functools.cached_property
    def register_up_reversible(self) -> PhraseMap:
        """Plain -> sophisticated for the rows that swap both ways: what register_down
        undoes exactly, so a standardised guise equals the standardised source."""
        return PhraseMap.build((r[0], r[1]) for r in self._register_rows if r[3] == "both")

    @functools.cached_property
    def register_down(self) -> PhraseMap:
        """Sophisticated -> plain, for the rows that swap downwards."""
        return PhraseMap.build((r[1], r[0]) for r in self._register_rows if r[3] != "up")

    @functools.cached_property
    def register_pos(self) -> dict[str, str]:
        """Part of speech of every register form (plain and sophisticated), lower-case."""
        pos: dict[str, str] = {}
        for plain, fancy, tag, _ in self._register_rows:
            pos[" ".join(plain.lower().split())] = tag
            pos[" ".join(fancy.lower().split())] = tag
        return pos

    @functools.cached_property
    def sophisticated_words(self) -> PhraseMap:
        """Every sophisticated form (the cue counts them whichever way a row swaps)."""
        return PhraseMap.build((r[1], r[0]) for r in self._register_rows)

    @functools.cached_property
    def plain_words(self) -> PhraseMap:
        return PhraseMap.build((r[0], r[1]) for r in self._register_rows)

    @functools.cached_property
    def fixed_expressions(self) -> tuple[str, ...]:
        """Set phrases no word swap may touch, longest first."""
        return tuple(sorted(self._lines("fixed_expressions.txt"), key=len, reverse=True))

    @functools.cached_property
    def misspell(self) -> PhraseMap:
        return PhraseMap.build(self._pairs("misspellings.tsv", ("correct", "misspelled")))

    @functools.cached_property
    def fix_spelling(self) -> PhraseMap:
        return self.misspell.inverse()

    def regional(self, region: str) -> PhraseMap:
        return self._regional_maps.get(region, PhraseMap.build(()))

    @functools.cached_property
    def _regional_maps(self) -> dict[str, PhraseMap]:
        rows = self._tables("regional.tsv", ("standard", "regional", "region"))
        regions = sorted({r for _, _, r in rows})
        return {
            region: PhraseMap.build((s, g) for s, g, r in rows if r == region) for region in regions
        }

    @functools.cached_property
    def deregionalise(self) -> PhraseMap:
        rows = self._tables("regional.tsv", ("standard", "regional", "region"))
        ambiguous = self._lines("regional_ambiguous.txt")
        first: dict[str, str] = {}
        for standard, regional, _ in rows:
            if regional not in ambiguous:
                first.setdefault(regional, standard)
        return PhraseMap.build(first.items())

    @functools.cached_property
    def _connectives(self) -> list[tuple[str, ...]]:
        return self._tables("connectives.tsv", ("plain", "formal", "position"))

    @functools.cache  # noqa: B019 - lexicons live as long as the process
    def connectives(self, position: str, *, formal: bool) -> PhraseMap:
        rows = [(p, f) for p, f, pos in self._connectives if pos == position]
        if formal:
            return PhraseMap.build(rows)
        return PhraseMap.build((f.rstrip(","), p) for p, f in rows)

    @functools.cached_property
    def modal_soften(self) -> PhraseMap:
        return PhraseMap.build(self._pairs("modal_softening.tsv", ("strong", "soft")))

    @functools.cached_property
    def modal_strengthen(self) -> PhraseMap:
        """Soft -> strong, only where the soft form is unambiguous (not a bare modal)."""
        bare_modals = {"could", "should", "might", "may", "would", "can"}
        return PhraseMap.build(
            (soft, strong)
            for strong, soft in self.modal_soften.mapping.items()
            if soft not in bare_modals
        )

    @functools.cached_property
    def request_polite(self) -> PhraseMap:
        pairs = self._yaml("politeness.yaml").get("request_softeners", [])
        return PhraseMap.build((str(b), str(p)) for b, p in pairs)

    @functools.cached_property
    def _l2(self) -> dict[str, Any]:
        return self._yaml("l2_markers.yaml")

    @functools.cached_property
    def third_person(self) -> dict[str, str]:
        return {str(a).lower(): str(b) for a, b in self._l2.get("third_person_s", [])}

    @functools.cached_property
    def third_person_forms(self) -> frozenset[str]:
        return frozenset(self.third_person)

    @functools.cached_property
    def article_keep(self) -> tuple[str, ...]:
        """Idioms and rates whose article article_drop.v1 keeps (l2_markers.yaml)."""
        return tuple(str(p).lower() for p in self._l2.get("article_keep", []))

    @functools.cached_property
    def article_keep_nouns(self) -> frozenset[str]:
        """Nouns whose bare use has another sense ("company": companionship), so their
        article stays (l2_markers.yaml)."""
        return frozenset(str(w).lower() for w in self._l2.get("article_keep_nouns", []))

    @functools.cached_property
    def article_keep_after(self) -> frozenset[str]:
        return frozenset(str(w).lower() for w in self._l2.get("article_keep_after", []))

    @functools.cached_property
    def period_nouns(self) -> frozenset[str]:
        return frozenset(str(w).lower() for w in self._l2.get("period_nouns", []))

    @functools.cached_property
    def preposition_swaps(self) -> PhraseMap:
        return PhraseMap.build((str(a), str(b)) for a, b in self._l2.get("preposition_swaps", []))

    @functools.cached_property
    def progressive(self) -> PhraseMap:
        return PhraseMap.build((str(a), str(b)) for a, b in self._l2.get("progressive_stative", []))

    # --- word sets and phrase lists ------------------------------------------------------

    @functools.cached_property
    def words(self) -> frozenset[str]:
        """Apostrophe-less contractions that are words themselves (its, well, ...)."""
        return self._lines("apostrophe_words.txt")

    @functools.cached_property
    def particles(self) -> dict[str, frozenset[str]]:
        """Phrasal-verb particles by where they block a verb swap (particles.yaml:
        ``adjacent``, ``prepositions``, ``after_object``)."""
        data = self._yaml("particles.yaml")
        keys = ("adjacent", "prepositions", "after_object")
        return {key: frozenset(str(w).lower() for w in data.get(key, [])) for key in keys}

    @functools.cached_property
    def acronyms(self) -> dict[str, str]:
        """Lower-case acronym -> its written form ("hr" -> "HR"; acronyms.txt): what a
        sentence capital makes of it, where a first-letter capital ("Hr") malforms it."""
        lines = list(read_lines(PACKAGED / "acronyms.txt"))
        for folder in self.extra:
            if (folder / "acronyms.txt").is_file():
                lines += read_lines((folder / "acronyms.txt").resolve())
        return {line.lower(): line for line in lines}

    @functools.cached_property
    def register_context(self) -> dict[str, frozenset[str]]:
        """Where a register_up row would change what is said (register_context.yaml):
        ``deliberate`` formal forms are not put before ``unintended`` infinitives, nor
        after a negation before ``unintended_when_negated`` ones; "stated" is not put
        before the ``formula_objects`` of "said" ("said yes")."""
        data = self._yaml("register_context.yaml")
        keys = (
            "deliberate",
            "unintended",
            "unintended_when_negated",
            "formula_objects",
            "judging_only",
            "feeling_verbs",
            "clause_final_only",
            "clause_final_followers",
            "modifier_ends",
        )
        return {key: frozenset(str(w).lower() for w in data.get(key, [])) for key in keys}

    @functools.cached_property
    def casual_marker(self) -> re.Pattern[str]:
        """A casual word that formal standardisation leaves in its sentence, matched in
        lower case (register_context.yaml ``casual_markers``): a filler between commas,
        "like" before a figure, a casual verb of messaging."""
        markers = self._yaml("register_context.yaml").get("casual_markers", {})

        def alternation(key: str) -> str:
            words = sorted((str(w).lower() for w in markers.get(key, [])), key=len, reverse=True)
            return "|".join(re.escape(w) for w in words) or "(?!)"

        return re.compile(
            rf"(?:^|[,;(]\s*)(?:{alternation('comma_fillers')})\s*,"
            rf"|(?<![\w'])(?:{alternation('before_figure')})\s+[\d$₹£€]"
            rf"|(?<![\w'])(?:{alternation('words')})(?![\w'])"
        )

    @functools.cached_property
    def register_not_before(self) -> dict[str, frozenset[str]]:
        """Swapped-in forms that change sense before the listed words ("occurred to",
        "appalling at"; register_context.yaml ``not_before``)."""
        return self._word_map("register_context.yaml", "not_before")

    @functools.cached_property
    def register_not_after(self) -> dict[str, frozenset[str]]:
        """Swapped-in forms that change sense after the listed words ("cause trouble";
        register_context.yaml ``not_after``)."""
        return self._word_map("register_context.yaml", "not_after")

    @functools.cached_property
    def register_only_before(self) -> dict[str, frozenset[str]]:
        """Swapped-in forms that keep the sense only before the listed words
        ("straightforward to"; register_context.yaml ``only_before``)."""
        return self._word_map("register_context.yaml", "only_before")

    def _word_map(self, name: str, key: str) -> dict[str, frozenset[str]]:
        data = self._yaml(name).get(key) or {}
        return {str(k).lower(): frozenset(str(w).lower() for w in v) for k, v in data.items()}

    @functools.cached_property
    def formal_register(self) -> dict[str, frozenset[str]]:
        """Openings and phrases that mark a text as formal, where casual-writer orthography
        does not go (formal_register.yaml)."""
        data = self._yaml("formal_register.yaml")
        return {key: frozenset(str(w).lower() for w in data.get(key, [])) for key in
                ("openings", "phrases")}  # fmt: skip

    @functools.cached_property
    def participles(self) -> frozenset[str]:
        return self._lines("participles.txt")

    @functools.cached_property
    def function_words(self) -> frozenset[str]:
        return self._lines("function_words.txt")

    @functools.cached_property
    def sentence_openers(self) -> frozenset[str]:
        """First words before which no sentence marker is inserted."""
        words = set(self._lines("sentence_openers.txt"))
        for plain, formal, _ in self._connectives:
            words |= {plain.split()[0], formal.rstrip(",").split()[0]}
        words |= {m.split()[0] for m in self.all_fillers.mapping}
        for slot in ("clause_start", "sentence_adverb"):
            for direction in ("hedged", "confident"):
                words |= {c.split()[0] for c in self.insertions(slot, direction)}
        return frozenset(words - {"i", "it", "the", "my", "we", "this", "there"})

    @functools.cached_property
    def adjectives(self) -> frozenset[str]:
        return self._lines("adjectives.txt") | self.emotive_adjectives

    @functools.cached_property
    def _emphasis(self) -> dict[str, Any]:
        return self._yaml("emphasis.yaml")

    @functools.cached_property
    def emotive_adjectives(self) -> frozenset[str]:
        return frozenset(str(w).lower() for w in self._emphasis.get("emotive_adjectives", []))

    @functools.cached_property
    def young_intensifiers(self) -> frozenset[str]:
        return frozenset(w.lower() for w in self.intensifiers("young"))

    @functools.cached_property
    def all_intensifiers(self) -> frozenset[str]:
        return self.young_intensifiers | {w.lower() for w in self.intensifiers("general")}

    @functools.cached_property
    def degree_words(self) -> frozenset[str]:
        """Intensifiers and degree cues: no second one is put before an adjective."""
        words = set(self.all_intensifiers)
        for slot_direction in ("hedged", "confident"):
            words |= {c.split()[-1] for c in self.insertions("pre_adjective", slot_direction)}
        return frozenset(words)

    @functools.cached_property
    def formal_markers(self) -> PhraseMap:
        """Formal connectives and polite request frames, for counting formality."""
        connectives = [(f.rstrip(","), "") for f in self.connectives("start", formal=False).mapping]
        polite = [(p, "") for p in self.request_polite.inverse().mapping]
        return PhraseMap.build(connectives + polite)

    @functools.cache  # noqa: B019 - lexicons live as long as the process
    def intensifiers(self, kind: str) -> tuple[str, ...]:
        return tuple(str(w) for w in self._emphasis.get("intensifiers", {}).get(kind, []))

    @functools.cached_property
    def intensifier_limits(self) -> dict[str, frozenset[str]]:
        """Intensifiers that go only before the adjectives named for them (emphasis.yaml
        ``only_before``: "literally" before extreme adjectives)."""
        limits = self._emphasis.get("only_before", {}) or {}
        return {str(k).lower(): frozenset(str(w).lower() for w in v) for k, v in limits.items()}

    @functools.cache  # noqa: B019 - lexicons live as long as the process
    def fillers(self, style: str) -> tuple[str, ...]:
        return tuple(m for m, s in self._pairs("fillers.tsv", ("marker", "style")) if s == style)

    @functools.cached_property
    def all_fillers(self) -> PhraseMap:
        return PhraseMap.build((m, "") for m, _ in self._pairs("fillers.tsv", ("marker", "style")))

    @functools.cache  # noqa: B019 - lexicons live as long as the process
    def politeness(self, part: str, register: str) -> tuple[str, ...]:
        return tuple(str(x) for x in self._yaml("politeness.yaml").get(part, {}).get(register, []))

    @functools.cached_property
    def opening_coordinators(self) -> frozenset[str]:
        """Coordinators removed with an opening (politeness.yaml)."""
        words = self._yaml("politeness.yaml").get("opening_coordinators", [])
        return frozenset(str(w).lower() for w in words)

    @functools.cached_property
    def _insertions(self) -> list[tuple[str, ...]]:
        return self._tables("hedge_insertions.tsv", ("cue", "slot", "direction"))

    @functools.cache  # noqa: B019 - lexicons live as long as the process
    def insertions(self, slot: str, direction: str) -> tuple[str, ...]:
        return tuple(c for c, s, d in self._insertions if s == slot and d == direction)

    @functools.cache  # noqa: B019 - lexicons live as long as the process
    def removable(self, direction: str, slot: str) -> PhraseMap:
        """Cues this engine inserts, hence knows how to remove, for one direction and slot
        ("sentence" = clause openers and sentence adverbs, with a trailing "that" too)."""
        slots = ("clause_start", "sentence_adverb") if slot == "sentence" else (slot,)
        cues = [c for c, s, d in self._insertions if d == direction and s in slots]
        if slot == "sentence":
            cues += [f"{c} that" for c in cues if not c.endswith(" that")]
        return PhraseMap.build((c, "") for c in cues)

    @functools.cached_property
    def hedge_cues(self) -> dict[str, str]:
        """cue -> category (hedge_phrase, approximator, softened_modal, booster)."""
        return dict(self._pairs("hedges.tsv", ("cue", "category")))

    @functools.cached_property
    def hedge_cue_map(self) -> PhraseMap:
        return PhraseMap.build(self.hedge_cues.items())

    @functools.cache  # noqa: B019 - lexicons live as long as the process
    def templates(self, kind: str) -> tuple[str, ...]:
        return tuple(str(t) for t in self._yaml("fact_edits.yaml").get(kind, []))

    @functools.cached_property
    def claims(self) -> dict[str, Any]:
        """Where hedges and boosters may go, and the vagueness hedges the confident
        direction removes (claims.yaml)."""
        data = self._yaml("claims.yaml")
        return {
            key: {str(k).lower(): str(v) for k, v in value.items()}
            if isinstance(value, dict)
            else tuple(str(x).lower() for x in value)
            for key, value in data.items()
        }

    @functools.cache  # noqa: B019 - lexicons live as long as the process
    def claim_set(self, key: str) -> frozenset[str]:
        """One word list of claims.yaml as a set, built once: the operators test words
        against these on every sentence."""
        return frozenset(self.claims[key])

    @functools.cached_property
    def word_classes(self) -> dict[str, frozenset[str]]:
        """Closed word classes the operators test a word against: auxiliaries, pronouns,
        determiners, prepositions, degree words, number words (word_classes.yaml; the
        stance and claim vocabulary is :attr:`claims`), lower-case."""
        data = self._yaml("word_classes.yaml")
        return {str(k): frozenset(str(w).lower() for w in v) for k, v in data.items()}

    @functools.cached_property
    def _simple_rows(self) -> list[tuple[str, ...]]:
        rows = self._tables("simple_words.tsv", ("formal", "simple", "pos"))
        for formal, _, pos in rows:
            if pos not in _SIMPLE_POS:
                raise ResourceError(
                    f"simple_words.tsv: row {formal!r} has pos {pos!r}",
                    hint=f"pos is one of {sorted(_SIMPLE_POS)}",
                )
        return rows

    @functools.cached_property
    def simple_words(self) -> PhraseMap:
        """Less common word -> everyday word, for the simple style (simple_words.tsv)."""
        return PhraseMap.build((r[0], r[1]) for r in self._simple_rows)

    @functools.cached_property
    def simple_pos(self) -> dict[str, str]:
        return {" ".join(r[0].lower().split()): r[2] for r in self._simple_rows}

    @functools.cached_property
    def sentence_split(self) -> SentenceSplit:
        """Where the simple style may split a sentence (sentence_split.yaml)."""
        data = self._yaml("sentence_split.yaml")

        def words(key: str) -> frozenset[str]:
            return frozenset(str(w).lower() for w in data.get(key, []))

        return SentenceSplit(
            min_words=int(data["min_words"]),
            min_left=int(data["min_left"]),
            min_right=int(data["min_right"]),
            opener_words=int(data["opener_words"]),
            openers=words("openers"),
            coordinators={str(k): str(v) for k, v in data["coordinators"].items()},
            formal_coordinators={str(k): str(v) for k, v in data["formal_coordinators"].items()},
            subjects=words("subjects"),
            determiners=words("determiners"),
            which_singular=words("which_singular"),
            which_plural=words("which_plural"),
            no_split_after_so=words("no_split_after_so"),
            subordinators=words("subordinators"),
            adverbs=words("adverbs"),
            finite=words("finite"),
            reporting=words("reporting"),
            reporting_connectives=words("reporting_connectives"),
            report_window=int(data.get("report_window", 6)),
            object_complement=words("object_complement"),
        )

    @functools.cached_property
    def transforms(self) -> dict[str, Any]:
        return self._yaml("transforms.yaml")


def alternation(words: Iterable[str]) -> str:
    """A regular-expression alternation of ``words`` (escaped), longest first so that a
    phrase wins over a word it starts with; ties in alphabetical order, so the pattern
    is the same in every process. Callers add the boundaries around it."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        elif isinstance(value, list) and isinstance(merged.get(key), list):
            merged[key] = merged[key] + value
        else:
            merged[key] = value
    return merged


@functools.cache
def default_lexicon() -> RulesLexicon:
    """The packaged lexicon, shared by every engine in the process."""
    return RulesLexicon()
