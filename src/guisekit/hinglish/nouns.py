"""Noun phrases and prepositional chains rendered in a Hindi frame.

Determiners become Hindi (``my`` -> ``mera``/``apna``, agreeing with the head noun),
prepositions become postpositions after their noun phrase (``in Pune`` -> ``Pune mein``),
modifiers that follow an English noun move before it (``a company in Pune offering 18
LPA`` -> ``18 LPA offer karne wali Pune mein ek company``), ``N years of X`` becomes ``N
saal ka X`` and ``the range of X`` becomes ``X ki range``. A phrase that still holds an
English function word after all this would carry English syntax into the Hindi frame, so
it is refused (None) and the clause template using it does not apply.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import pairwise

from guisekit.hinglish.lexicon import HinglishLexicon
from guisekit.hinglish.phrases import NounPhrase, Toks, VerbPhrase, Word, hindi_toks
from guisekit.hinglish.text import SPELLED_NUMBERS, Tok, is_money, is_placeholder
from guisekit.hinglish.verbs import Gender, inflect
from guisekit.hinglish.word_classes import word_classes
from guisekit.hinglish.words import _QUOTES, FINITE, WordRenderer

__all__ = ["NounRenderer"]

_RELATIVE = frozenset({"that", "which", "who"})
# "any" of free choice ("ready to relocate to any city"): "kisi bhi", never "kisi"
# ("some"); what before it makes "any" the "koi" of a negation, question, condition or
# request ("I would appreciate any advice": "koi advice mil jaye")
_FREE_CHOICE = {"direct": "koi bhi", "oblique": "kisi bhi"}
_NOT_FREE_CHOICE = re.compile(
    r"\b(?:not|no|never|nobody|nothing|none|neither|nor|without|if|whether|unless|hardly|"
    r"barely|scarcely|refuse[sd]?|refusing|den(?:y|ies|ied)|doubt|before|would|could|"
    r"please|kindly|appreciate|grateful|welcome)\b|n[’']t\b",
    re.IGNORECASE,
)
# where a clause with a subject of its own starts: after a comma or a coordinating
# conjunction, before its subject ("..., I am", "and I am"); what is said before it (a
# negation, a condition) has no scope over an "any" after it
_CLAUSE_START = re.compile(
    r"(?:[,;:]\s*(?:(?:and|but|or|so)\s+)?|\s(?:and|but|or|so|because)\s+)"
    r"(?=(?:I|we|you|they|he|she|it|there)\b)",
    re.IGNORECASE,
)
_APPROXIMATORS = frozenset({"about", "around"})
_DEGREE_BEFORE_ADJECTIVE = frozenset(
    {"very", "quite", "extremely", "really", "so", "too", "pretty"}
)
_FREQUENCY_QUANTIFIERS = frozenset({"most", "every", "each", "some", "many", "all"})
# what "so" modifies inside a noun phrase ("so many calls"); any other "so" links clauses
_SO_DEGREE = frozenset({"many", "much", "few", "little", "far", "long"})
_PHRASE_PREPOSITIONS = frozenset({"of", "for", "to", "in", "with", "from", "on", "at"})
_QUANTITY_DETS = frozenset({"one", "a", "an"})
_PLURAL_DETERMINERS = frozenset({"all", "these", "those", "both"})
# time words after "from" inside a noun phrase: "photos from morning" are photos taken
# then ("subah ki photos"), never "subah se" (since morning; heldout25 judgement)
_FROM_TIME = re.compile(
    r"(?:(?:the|this|that|last|yesterday|tomorrow|today)\s+)?(?:morning|evening|night|"
    r"afternoon|noon|midnight|day|week|month|year|quarter|weekend)s?|yesterday|today|"
    r"(?:last|this|that|the same|the previous|the next|next)\s+(?:morning|evening|night|"
    r"afternoon|day|week|month|year|quarter|weekend|time|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday)|"
    r"(?:jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:\s+\d{2,4})?|"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:19|20)\d\d",
    re.IGNORECASE,
)


def _drop_article(toks: Toks) -> Toks:
    """``toks`` without a leading article "ek" (kept in "ek aur", another)."""
    if len(toks) > 1 and toks[0].text == "ek" and toks[0].tag == "hi" and toks[1].text != "aur":
        return toks[1:]
    return toks


def _drop_ek(toks: Toks) -> Toks:
    return tuple(t for t in toks if not (t.text == "ek" and t.tag == "hi"))


_SPAN_OF_TIME = re.compile(r"\b(?:years?|months?|weeks?|days?|hours?|minutes?)$")
_DATE = re.compile(
    # "18.03", "18-03-2024": day and month with dots or dashes ("18.03 par" was judged
    # ungrammatical, 33rd judgement); a two-digit month, so "4.50" and "7.2" are none
    r"\b\d{1,2}[.-](?:0[1-9]|1[0-2])(?:[.-]\d{2,4})?\b(?![.\d])|"
    r"\b(?:\d{1,2}|xx)/(?:\d{1,2}|xx)/(?:\d{2,4}|xxxx)\b|\b(?:monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    r"[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
)
# a day and a month with a slash and no year ("on 2/12"): a date only after "on", since
# elsewhere it may be a score or a ratio ("rated 4/5")
_DAY_AND_MONTH = re.compile(r"\d{1,2}/\d{1,2}")
# what may follow a date inside its phrase: the rest of a month name, a year, a time of day
_DATE_TAIL = re.compile(
    r"[a-z]*\.?(?:,? (?:\d{2,4}|xxxx))?(?: (?:morning|evening|night|afternoon|noon))?"
)
# "on the first" (of the month) is a date: "first ko", never "first par"
_ORDINAL_DAYS = (
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    "thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
    "twenty-\\w+|thirtieth|thirty-first"
)
_MAX_CHUNKS = 1  # prepositional phrases or participles in one chain, dates aside


def approximates_same(lows: Sequence[str]) -> bool:
    """Whether "about/around the same" occurs in ``lows``: "about the same distance"
    approximates ("lagbhag") where "asked about the same issue" names a topic ("ke baare
    mein"), and nothing here tells them apart, so the phrase stays English ("same distance
    ke baare mein" was judged a meaning change, 30th judgement)."""
    return any(
        a in _APPROXIMATORS and (b, c) == ("the", "same")
        for a, b, c in zip(lows, lows[1:], lows[2:], strict=False)
    )


# Words that give a sum its period after it ("₹8.4 lakh LPA"; "per annum" and the other
# "per" phrases are merged into one word, phrases.tsv).
_PERIOD_WORDS = frozenset({"lpa", "pa", "p.a.", "ctc", "annually", "monthly", "yearly"})


class NounRenderer(WordRenderer, ABC):
    """Noun phrases and the prepositional chains and participles that modify them."""

    @abstractmethod
    def vp(self, words: Sequence[Word], kind: str) -> VerbPhrase | None:
        """A verb phrase whose verb is in English form ``kind`` (gerunds, participles)."""

    def np(
        self,
        words: Sequence[Word],
        predicate: bool = False,
        adverb_checked: bool = False,
        direct_adverb: bool = False,
        noun_only: bool = False,
    ) -> NounPhrase | None:
        """Render a noun phrase (possibly coordinated, possibly only a prepositional chain
        or a gerund); None when any part cannot be rendered cleanly. ``direct_adverb``:
        the caller (a clause slot, a verb's object) takes a phrase ending in an English
        adverb in its direct case only (a form with a postposition is then None).
        ``noun_only``: a determiner stands before the phrase ("no booking"), so an -ing
        word opening it is a noun, never a gerund."""
        if not words or any(not (w.text[0].isalnum() or is_placeholder(w.text)) for w in words):
            return None
        words = self.merge(words)
        lows = [w.low for w in words]
        if len(lows) > 1 and lows[0] == "one" and lows[1].rstrip("s") in self.units:
            return None  # "one year" is a quantity the fact check reads; "ek saal" is not
        if any(
            a.low.endswith("ing")
            and len(a.low) > 4
            and (
                (a.low not in self.lex.content and b.low in word_classes().ing_object_starts)
                or (
                    self.masked.unmask(b.text)[:1].isupper()  # a name, never an amount
                    and bool(self.lex.verb_forms.get(a.low, {}).get("ing"))
                )
            )
            for a, b in pairwise(words)
        ):
            # "burning anyone out ke bina", "a fresher joining TCS Digital": an English
            # verb with its object (a name: 35th judgement, ungrammatical)
            return None
        if len(words) > 1 and any(self._time_span(w) for w in words):
            # "on site this week" -> "site this week par": a time adverbial kept English
            # inside a noun phrase splits it (judged round 8: ungrammatical)
            return None
        if lows[-1] == "ago" or self.masked.unmask(words[-1].text).lower().endswith(" ago"):
            return None  # "nineteen din ago": "ago" left inside a Hindi frame
        if lows[0] in word_classes().negative_pronouns or lows[:2] == ["no", "one"]:
            return None
        if approximates_same(lows):
            return None
        if any(
            a in _DEGREE_BEFORE_ADJECTIVE and c == "with"
            for a, c in zip(lows, lows[2:], strict=False)
        ):
            # "very patient with customers": a degree word makes the head an adjective and
            # "with customers" its complement ("customers ke saath"), never an attribute
            # ("customers wala bahut patient"; found reading heldout41 output)
            return None
        if "plus" in lows and _PHRASE_PREPOSITIONS.intersection(lows[lows.index("plus") :]):
            # "tickets plus reimbursement of all expenses": the phrase after "plus" is its
            # own conjunct's, and put before the pair it owned both ("saare expenses ke
            # original tickets plus reimbursement"; read in heldout42 output)
            return None
        if any(low == "so" and nxt not in _SO_DEGREE for low, nxt in pairwise([*lows[1:], ""])):
            # "July 2023 so only 9 months": a "so" inside a phrase links clauses; only one
            # opening it ("so big") or a degree ("so many calls") is the phrase's (31st)
            return None
        if any(
            q in _FREQUENCY_QUANTIFIERS and unit.removesuffix("s") in self.units
            for q, unit in pairwise(lows[1:])
        ):
            # "around midnight most days": a frequency adverbial after a phrase, no part
            # of it ("around midnight most days tak"; 31st judgement: ungrammatical)
            return None
        if len(lows) > 1 and lows[-1] in ("one", "ones"):
            # "a difficult one", "the cheaper ones": the pro-form "one" has no Hindi
            # noun to stand for ("ek difficult one" was judged ungrammatical, dev21)
            return None
        if len(lows) > 1 and lows[-1] in word_classes().trailing_adverbs:
            return None
        if len(lows) > 1 and not adverb_checked and self._adverb_after_noun(lows):
            # "in the new tax regime currently": a clause-final adverb is no part of the
            # noun phrase, never followed by its postposition ("new tax regime currently
            # mein"; judged heldout23: ungrammatical). An adverb of the lexicon goes
            # elsewhere ("abhi ... mein") or the clause stays English; an English -ly
            # adverb may follow an object in its direct case, before the verb ("article
            # urgently trace kijiye"), never before a postposition
            if lows[-1] in self.adverbs or self._prep_len(words, 0) or predicate:
                return None  # "was cleaned professionally": no predicate noun phrase
            if not direct_adverb:
                return None  # an owner or a conjunct always takes a postposition or a case
            whole = self.np(words, predicate, adverb_checked=True, noun_only=noun_only)
            return None if whole is None else replace(whole, direct_case_only=True)
        if _fixed_by(lows) or any(
            low == "at" and self._at_adverbial(lows, i) for i, low in enumerate(lows) if i
        ):
            # "a review at the earliest", "me step by step": a fixed adverbial is one
            # unit, never "earliest par review" nor "step se ... step" (heldout25
            # judgement: ungrammatical); it has no place inside a noun phrase
            return None
        if len(words) == 2 and self._the_two(words):
            # "compare the two": the pronoun "dono" ("dono ko"), never a bare English "two"
            # ("Main two kaise compare karun"; judged round 12: ungrammatical); plural, of
            # no known gender (a form that would show one is not written)
            forms = self.pronouns["the two"]
            dono, dono_obl = hindi_toks(forms["direct"]), hindi_toks(forms["obl"])
            return NounPhrase((), (), dono, dono_obl, None, True, forms)
        if self._not_a_hindi_np(words, lows) or self._contact_relative(words, lows):
            return None
        classes = word_classes()
        if lows[0] in classes.no_noun_phrase_start or classes.reflexive_pronouns.intersection(lows):
            # "want to work on ...": an infinitive is no object ("work ko chahiye"); an
            # English reflexive ("ourselves") has no place inside a Hindi frame
            return None
        if any(
            w == "back" and (lows[i - 1] not in self.determiners if i else len(lows) > 1)
            for i, w in enumerate(lows)
        ):
            # "my card back on 2 Feb", "back above 35%": the adverb, not the noun "back"
            return None
        split = next(
            (
                i
                for i, low in enumerate(lows)
                if low in ("and", "or") and 0 < i < len(lows) - 1 and "between" not in lows[:i]
            ),
            None,
        )
        if split is not None and "of" in lows[1:split]:
            # "X of A and B": "and" may join A and B inside the of-phrase ("combination
            # of numbers and empathy"), and "A ki X aur B" made them two things (judged
            # heldout23: meaning). A head that needs two owners takes the coordination
            # ("numbers aur empathy ka combination"); a counted span coordinates whole
            # phrases ("4 years of experience and a degree"); any other stays English
            at = split - 1 - lows[split - 1 :: -1].index("of")
            amount = split - at == 2 and self._numeric(words[at + 1])
            if lows[at - 1] in word_classes().joint_heads:
                split = None
            elif not (amount or self._counted_span(words[:at])):
                # an amount owns nothing ("a fee of ₹2,500 and a courier fee of ₹300")
                return None
        if split is not None:
            if self._prep_len(words, split + 1):
                # "79 and on a fixed pension", "a car and in good shape": a phrase and a
                # predicate of place or state are no one noun phrase ("Main 79 aur fixed
                # pension par hoon"; judged dev21: ungrammatical)
                return None
            if any(self._prep_len(words, j) for j in range(1, split)):
                # "5.5 years experience in Java and Spring Boot": the second noun may be
                # inside the prepositional phrase; splitting there changed the meaning
                return None
            return self._coordinate(words[:split], lows[split], words[split + 1 :])
        if self._phrase_at(words, 0, "adverbs") == len(words):
            return None  # "later", "right now": an adverb is no noun phrase
        if len(words) == 1 and lows[0] in self.determiners and lows[0] not in self.pronouns:
            return None  # "copies of both": a bare determiner is no noun here
        if any(a in ("much", "far") and b in ("less", "more") for a, b in pairwise(lows)):
            return None  # "much less stretched" is no "zyada kam"
        leading_adverb = self._phrase_at(words, 0, "adverbs") > 1
        if leading_adverb and not self._np_adverb_at(words, 0):
            return None  # a multi-word adverb is no preposition ("at" + "least")
        if self._prep_len(words, 0) and not leading_adverb:
            pre = self._chain(words, "m", False, False)
            pre_obl = self._chain(words, "m", False, True)
            if pre is None or pre_obl is None:
                return None
            return NounPhrase(pre, pre_obl, (), (), "m", False)
        if (
            predicate
            and len(words) > 1
            and lows[0].endswith(("ed", "ing"))
            and lows[0] not in self.lex.content
        ):
            # "were rebooked on a flight", "is blaming the other one": a passive or a
            # progressive, not a copula ("blaming doosra one hai", judged heldout5)
            return None
        if (
            not noun_only
            and self.lex.verb_forms.get(lows[0], {}).get("ing")
            and not self._ing_modifier(words, 0)
        ):
            vp = self.vp(words, "ing")
            direct = vp.form("inf") if vp else None
            oblique = vp.form("obl") if vp else None
            if direct is None or oblique is None:
                return None
            return NounPhrase((), (), direct, oblique, "m", False, gerund=True)
        if (
            len(words) > 1
            and lows[0] in word_classes().indefinite_pronouns
            and not self._chain_start(words, 1)
        ):
            return self._pronoun_with(words)
        if len(words) == 1 and lows[0] in self.pronouns:
            forms = self.pronouns[lows[0]]
            # the writer's gender is never assumed; "she" is feminine
            gender: Gender | None = (
                None if lows[0] in ("i", "me") else "f" if lows[0] == "she" else "m"
            )
            plural = lows[0] in ("we", "us", "they", "them", "you")
            return NounPhrase(
                (), (), hindi_toks(forms["direct"]), hindi_toks(forms["obl"]), gender, plural, forms
            )
        end = next((i for i in range(1, len(words)) if self._chain_start(words, i)), len(words))
        head = self._head(words[:end], predicate)
        if head is None:
            return None
        core, core_obl, gender_h, plural_h, person, place = head
        entity = person or place  # "a company with 600 employees": a wala modifier
        chunks = self._chunks(words[end:])
        if (
            len(chunks) > 1
            and any(self._numeric(w) for w in words[:end])
            and any(self._in_named_place(chunk) for _, chunk in chunks)
        ):
            return None  # "6.2 LPA at a small startup in Pune": no place before an amount
        at_place = len(chunks) == 1 and chunks[0][0] == 1 and chunks[0][1][0].low == "at"
        owned = end > 0 and words[end - 1].low in self.lex.grammar["owned_at"]
        if owned and at_place and not any(self._numeric(w) for w in chunks[0][1]):
            # "a patient at Riverside Medical Center": the place whose patient one is,
            # "X ka patient", never "X par patient" (judged round 12: awkward); an amount
            # is no place ("employee at 26 LPA CTC": "CTC par")
            owner = self.np(chunks[0][1][1:])
            ka = inflect("ka", gender_h, plural_h)
            ka_obl = inflect("ka", gender_h, plural_h, True)
            if owner is None or owner.pronoun is not None or ka is None or ka_obl is None:
                return None
            of = owner.form("obl") or ()
            pre, pre_obl = of + hindi_toks(ka), of + hindi_toks(ka_obl)
        else:
            noun = self._noun_head(words[end - 1]) if end else None
            counted = end > 0 and self._counted(words[end - 1])
            pre = self._chain(
                words[end:],
                gender_h,
                plural_h,
                False,
                nominal=True,
                entity=entity,
                noun=noun,
                counted=counted,
            )
            pre_obl = self._chain(
                words[end:],
                gender_h,
                plural_h,
                True,
                nominal=True,
                entity=entity,
                noun=noun,
                counted=counted,
            )
        if pre is None or pre_obl is None:
            return None
        return NounPhrase(pre, pre_obl, core, core_obl, gender_h, plural_h, None, person, place)

    def _ing_modifier(self, words: Sequence[Word], i: int) -> bool:
        """Whether the -ing word at ``i`` modifies the bare noun after it ("working
        capital", "joining date", "remaining balance"): an English compound noun, never a
        gerund with that noun as its object ("capital kaam karna"; heldout25 judgement)."""
        if i + 1 >= len(words) or is_placeholder(words[i + 1].text):
            return False
        low, nxt = words[i].low, words[i + 1].low
        if not nxt.isalpha() or nxt in self.determiners or nxt in self.pronouns:
            return False
        if nxt in self.lex.english_function_words or self._prep_len(words, i + 1):
            return False
        classes = word_classes()
        return (
            low in classes.modifying_ing
            or nxt in classes.ing_compound_heads
            or f"{low} {nxt}" in classes.ing_compounds
        )

    def _at_adverbial(self, lows: Sequence[str], i: int) -> bool:
        """Whether "at" at ``i`` opens a fixed adverbial ("at the earliest", "at all")."""
        return (
            any(
                " ".join(lows[i + 1 : i + 1 + n]) in word_classes().at_adverbials for n in (1, 2, 3)
            )
            and " ".join(lows[i : i + 2]) not in self.np_adverbs
        )

    def _contact_relative(self, words: Sequence[Word], lows: Sequence[str]) -> bool:
        """Whether a noun is followed by a relative clause with no "that"/"who" ("the
        person colleagues ask for help", "the manager people trust", "the one they ask"):
        a plural noun or a pronoun then a verb in its base form is a subject and its verb,
        a clause the noun phrase cannot hold ("person colleagues ask hoon"; judged
        heldout23: ungrammatical). A form that is also a noun ("sales target") is none."""
        for i in range(1, len(lows)):
            before, verb = lows[i - 1], lows[i]
            if is_placeholder(words[i - 1].text) or is_placeholder(words[i].text):
                continue
            if before in ("he", "she", "it"):
                if self._verb_not_noun(verb, ("third",)):
                    return True
                continue
            # a verb: one of verbs.tsv in its base form, or an unknown word that is no
            # noun, adverb or function word ("trust", "love" after "people")
            base = "base" in self.lex.verb_forms.get(verb, {}) or (
                verb.isalpha()
                and verb not in self.lex.content
                and verb not in self.lex.english_function_words
                and verb not in self.adverbs
                and not verb.endswith(word_classes().noun_or_modifier_endings)
            )
            if before in word_classes().relative_clause_subjects and base:
                return True  # "the one they call", "the manager people trust"
            head = self.lex.content.get(lows[i - 2]) if i > 1 else None
            if i < 2 or lows[i - 2] in self.determiners or (head is not None and head.agrees):
                continue  # "our customers list", "new clients list": a plural modifier
            owner = self.lex.singular_entry(before)
            if before.endswith("s") and owner is not None and owner.kind == "person" and base:
                return True  # "the doctor patients love": people as a modifier take no -s
            plural = (
                len(before) > 3
                and before.endswith("s")
                and not before.endswith(("ss", "us", "is"))
                and before not in self.lex.english_function_words
                and not self.lex.verb_forms.get(before)
            )
            if plural and self._verb_not_noun(verb, ("base",)):
                return True
        return False

    def _counted_span(self, words: Sequence[Word]) -> bool:
        """Whether ``words`` count a unit ("4 years", "six months"): the owner of its
        of-phrase is the thing counted, which a coordination after it does not share."""
        unit = words[-1].low.removesuffix("s") if words else ""
        return unit in self.units and any(
            self._numeric(w) or self.masked.unmask(w.text).lower() in SPELLED_NUMBERS
            for w in words[:-1]
        )

    def _adverb_after_noun(self, lows: Sequence[str]) -> bool:
        """Whether the last word of a noun phrase is a sentence adverb left after it
        ("currently", "presently", "anyway", "recently"): one of the lexicon's adverbs
        that modifies no noun, or an unknown -ly word after a noun. Adjectives in -ly
        ("very costly", "a monthly fee") and nouns ("my family") are not adverbs here."""
        last, before = lows[-1], lows[-2]
        if (
            last in self.lex.content
            or last in self.lex.phrases  # "as well" (too) is "bhi", after its noun
            or last in self.np_adverbs
            or last in word_classes().ly_not_adverbs
            or not last.isalpha()
        ):
            return False
        if before in self.determiners or before in self.np_adverbs:
            return False  # "the first", "my first", "very early"
        # "first" after a noun that no determiner opens is the adverb ("Manager Ravi first
        # said": "Manager Ravi first ne kaha" was judged ungrammatical, heldout28)
        if last in self.adverbs and last not in ("early", "either"):
            return True
        return len(last) > 5 and last.endswith("ly") and before not in self.adverbs

    def _count_above_one(self, word: Word) -> bool:
        """A bare count above one ("11", "two"; no unit, currency or decimal), never a
        year ("2019 was a good year" is one year)."""
        if not is_placeholder(word.text):
            return False
        said = self.masked.unmask(word.text).lower()
        if said in SPELLED_NUMBERS:
            return said not in ("one", "a", "an", "zero", "none")
        if re.fullmatch(r"\d+", said) is None:
            return False
        return int(said) > 1 and not (len(said) == 4 and said.startswith(("19", "20")))

    def _not_a_hindi_np(self, words: Sequence[Word], lows: Sequence[str]) -> bool:
        """English syntax a Hindi noun phrase cannot hold (judged round 9): an English
        possessive ("Dr Frost's email"), "a single X" (it is "ek bhi X"), a demonstrative
        with a bare number ("these two": "in dono"), or a participle after its noun
        ("teammates rated 'meets expectations' ko")."""
        if any(self.masked.unmask(w.text).endswith(("'s", "’s")) for w in words):
            return True
        if lows[:2] in (["a", "single"], ["not", "a"]):
            return True
        if len(words) == 2 and lows[0] in ("these", "those") and self._number_word(words[1]):
            return True
        if len(words) > 1 and lows[0] == "the" and self._number_word(words[1]):
            # "compare the two (offers)": "(in) dono", never a bare English "two" in a Hindi
            # frame ("Main two kaise compare karun"; judged round 12: ungrammatical)
            return True
        if (
            len(words) > 1
            and len(lows[0]) > 4
            and lows[0].endswith("ed")
            and lows[0] not in self.lex.content
            and (self._numeric(words[1]) or self._number_word(words[1]))
        ):
            # "have oriented nine new grads": a perfect, never "mere paas oriented nine
            # new grads hain" (round 19 sample: meaning)
            return True
        for i in range(1, len(lows)):
            forms = self.lex.verb_forms.get(lows[i], {})
            before = lows[i - 1]
            if (
                ("participle" in forms or "past" in forms)
                and lows[i] not in self.lex.content
                and not is_placeholder(words[i - 1].text)
                and before not in self.determiners
                and before not in self.adverbs
                and before not in self.postpositions
                and before not in ("and", "or", "not")
            ):
                return True
        return False

    def _pronoun_with(self, words: Sequence[Word]) -> NounPhrase | None:
        """``something around 90 lakhs`` -> ``lagbhag 90 lakhs ka kuch``. Only an amount
        owns the pronoun: an adjective after it ("someone knowledgeable", "somebody
        senior") describes it, and "knowledgeable ke kisi se" (27th judgement:
        ungrammatical) made it an owner; such a phrase stays English."""
        if not any(self._numeric(w) for w in words[1:]):
            return None
        forms = self.pronouns[words[0].low]
        rest = self.np(words[1:])
        if rest is None:
            return None
        owner = rest.form("obl") or ()
        return NounPhrase(
            (),
            (),
            owner + hindi_toks(f"ka {forms['direct']}"),
            owner + hindi_toks(f"ke {forms['obl']}"),
            "m",
            False,
        )

    def _coordinate(
        self, left: Sequence[Word], conj: str, right: Sequence[Word]
    ) -> NounPhrase | None:
        if self._verb_not_noun(right[0].low, ("base", "ing", *FINITE)):
            return None  # "X and sell cakes" coordinates verb phrases, not noun phrases
        if right[0].low in word_classes().coordinated_verb_starts:
            # "against the distributor and ensure delivery": a verb the lexicon does not
            # convert still opens a second verb phrase, never a second noun (21st judgement)
            return None
        k = 0
        while k < len(right) - 1 and right[k].low in self.adverbs:
            k += 1
        if k and any(
            kind in self.lex.verb_forms.get(right[k].low, {}) for kind in ("base", "ing", *FINITE)
        ):
            # "5 years of experience and currently earn €38,000": a verb after an adverb
            # opens a verb phrase that shares the subject, never a second noun ("... aur
            # currently earn €38,000 hain"; 20th judgement: ungrammatical)
            return None
        if (
            len(right) > 1
            and "base" in self.lex.verb_forms.get(right[0].low, {})
            and (right[1].low in word_classes().verb_object_starts or is_placeholder(right[1].text))
        ):
            # "remove the plan and refund all 8 months": a verb with its object, never
            # the noun "refund" ("plan aur refund all 8 months remove kijiye")
            return None
        if len(left) > 1 and len(right) > 1 and self._numeric(left[-1]) and self._numeric(right[0]):
            # "my original 10th and 12th marksheets": two numbers that share the head
            # after the second; split there, what came before "10th" agreed with it alone
            # ("mera original 10th aur 12th marksheets"; 20th judgement: ungrammatical).
            # A bare number ("10th and 12th certificates", "₹1,100 and ₹1,400 per kg")
            # has nothing before it to agree
            return None
        lows = [w.low for w in left]
        if "of" in lows[1:-1] and lows[lows.index("of") - 1] == "terms":
            # "in terms of HRA or a city allowance": "of" governs both conjuncts, so
            # splitting it ("HRA ke terms ya city allowance mein") breaks the phrase
            # (round 11: ungrammatical); no safe rendering, English
            return None
        if conj == "or" and [w.low for w in right] in (["i"], ["me"], ["we"], ["us"], ["you"]):
            # "asap or I will return it": with "or" the verb takes the nearer conjunct's
            # person, which a phrase agreeing in the third person never shows ("ya main
            # ... return karega"; 36th judgement: ungrammatical)
            return None
        a, b = self.np(left), self.np(right)
        if a is None or b is None:
            return None
        # "my husband and I" is "mera husband aur main", never "mere husband aur mujh ne"
        direct_only = a.pronoun is not None or b.pronoun is not None
        joiner = hindi_toks(self.conjunctions[conj])
        gender: Gender = "f" if a.gender == "f" and b.gender == "f" else "m"
        if conj == "or" and b.gender is not None:
            gender = b.gender  # "X ya koi list nahi mili": the nearer noun agrees (round 9)
        if self._identifier(right) and self._identifier(left[-1:]) and a.gender is not None:
            # "complaint IDs A and B": B is one more of the IDs named before A, and takes
            # their gender ("... aur B close ho gayi", never "gaye"; dev21)
            gender = a.gender
        a_direct, a_obl = a.form("direct") or (), a.form("obl") or ()
        b_direct, b_obl = b.form("direct") or (), b.form("obl") or ()
        if conj == "or" and left[0].low in ("a", "an") and right[0].low in ("a", "an"):
            # "a housing allowance or a higher base": the alternatives take no article in
            # Hinglish ("ek housing allowance ya ek higher base" was judged a calque of
            # the English articles, dev21)
            a_direct, a_obl = _drop_article(a_direct), _drop_article(a_obl)
            b_direct, b_obl = _drop_article(b_direct), _drop_article(b_obl)
        return NounPhrase(
            (),
            (),
            a_direct + joiner + b_direct,
            a_obl + joiner + b_obl,
            gender,
            conj == "and" or b.plural,
            direct_only=direct_only,
        )

    def _head(
        self, words: Sequence[Word], predicate: bool = False
    ) -> tuple[Toks, Toks, Gender | None, bool, bool, bool] | None:
        """Render a noun phrase without trailing modifiers: adverbs, determiner, modifiers,
        head, and ``of`` genitives (``4 years of experience`` -> ``4 saal ka experience``)."""
        lows = [w.low for w in words]
        if "of" in lows[1:-1]:
            return self._genitive(words, lows.index("of"))
        direct: list[Tok] = []
        oblique: list[Tok] = []
        while len(words) > 1 and (size := self._np_adverb_at(words, 0)):
            if size >= len(words) or (words[0].low in self.determiners and size == 1):
                break  # "a bit chaotic": "thoda", never the article ("ek bit"; round 9)
            adverb = self.tagged(self.adverb(" ".join(w.low for w in words[:size])))
            direct.extend(adverb)
            oblique.extend(adverb)
            words, lows = words[size:], lows[size:]
        det_spec = self.determiners.get(lows[0]) if len(words) > 1 else None
        body = words[1:] if det_spec is not None else words
        gender, plural, person, place = self._head_features(self._named_head(body))
        if det_spec is not None and lows[0] in _PLURAL_DETERMINERS and self._numeric(body[-1]):
            # "filed all 27": a count for its noun is plural ("saare 27 file kiye"), never
            # "file kiya" (judged round 10: ungrammatical)
            plural = True
        if len(body) == 1 and self._count_above_one(body[0]):
            # "its been 11" (months), "two" of something said before: a bare count above
            # one is plural ("11 ho gaye hain", never "11 ho gaya hai"; judged round 12)
            plural = True
        if body[-1].low in self.lex.english_function_words or self._participle(body[-1], predicate):
            return None
        unit = body[-1].low[:-1] if body[-1].low.endswith("s") else body[-1].low
        if lows[0] in ("a", "an") and unit in self.units and len(body) == 1:
            det_spec = "ek"  # "ek saal ke andar", not "saal ke andar"
        elif lows[0] in ("a", "an") and self._numeric(body[0]):
            det_spec = None  # "a 10% bonus" -> "10% bonus", not "ek 10% bonus"
        if lows[0] == "any" and det_spec is not None and self._free_choice(words[0]):
            # "relocate to any city": "any" of free choice is "kisi bhi" ("kisi city" is
            # "some city"; fifteenth judgement: meaning); after a negation, a question or
            # a condition it is plain "koi/kisi" ("koi refund nahi mila")
            det_spec = _FREE_CHOICE
        if det_spec is not None:
            for case, out in ((False, direct), (True, oblique)):
                if case and person and lows[0] in ("a", "an"):
                    out.append(Tok("ek", "hi"))  # "ek friend ne kaha", not "friend ne"
                    continue
                det = self._determiner(lows[0], det_spec, gender, plural, case)
                if det is None:
                    return None
                out.extend(det)
        i = 0
        while i < len(body):
            size = self._np_adverb_at(body, i)
            if size and (i + size < len(body) or body[i].low not in self.lex.content):
                adverb = self.tagged(self.adverb(" ".join(w.low for w in body[i : i + size])))
                direct.extend(adverb)
                oblique.extend(adverb)
                i += size
                continue
            if body[i].low in ("time", "times") and i and self._number_word(body[i - 1]):
                return None  # "three times": not "three baar"; the sentence stays English
            if body[i].low in ("time", "times") and i and self._numeric(body[i - 1]):
                direct.append(Tok("baar", "hi"))  # "6 times" -> "6 baar", not "6 waqt"
                oblique.append(Tok("baar", "hi"))
                i += 1
                continue
            if i and self._number_word(body[i - 1]) and body[i].low.endswith("s"):
                # "eight years", not "eight saal"; a compound holding a protected word
                # ("three half-days") is written as said, never with its placeholder
                # leaking ("three 1-days"; heldout28 judgement: meaning changed)
                kept = (
                    self._placeholder(body[i])
                    if is_placeholder(body[i].text)
                    else Tok(body[i].text, "en")
                )
                direct.append(kept)
                oblique.append(kept)
                i += 1
                continue
            modified = i + 1 < len(body) and self._amount(body[i]) and self._modifies(body[i + 1 :])
            if modified is None:
                return None  # "a £189 coat": a noun the lexicon does not know
            if modified:
                # "a Rs 500 penalty": an amount before its noun is its genitive ("Rs 500 ki
                # penalty"; "£189 coat hai", 24th judgement: ungrammatical), which needs the
                # noun's gender
                if gender is None:
                    return None
                amount = self._placeholder(body[i])
                for case, out in ((False, direct), (True, oblique)):
                    out.extend((amount, *hindi_toks(inflect("ka", gender, plural, case) or "ka")))
                i += 1
                continue
            compound = self._in_compound(body, i)
            for case, out in ((False, direct), (True, oblique)):
                counted = i > 0 and self._numeric(body[i - 1])
                rendered = self._content(body[i], gender, plural, case, counted, compound)
                if rendered is None:
                    return None
                out.extend(rendered)
            i += 1
        return tuple(direct), tuple(oblique), gender, plural, person, place

    def _modifies(self, rest: Sequence[Word]) -> bool | None:
        """Whether an amount before ``rest`` modifies it as a noun ("$35 late fee"): every
        word after it is a lexicon noun or adjective. False when the first word says how
        the amount counts ("Rs 900 per kg", "₹2,755 extra per month") or is a function
        word; None when a word is unknown ("£189 coat"): nothing says how to join them."""
        followers = word_classes().amount_followers
        first = rest[0].low.split(" ")[0]  # a phrase may be one word here ("per kg")
        if first in followers or first in self.lex.english_function_words:
            return False
        if all(w.low in self.lex.content and w.low not in followers for w in rest):
            return True
        return None

    def _in_compound(self, body: Sequence[Word], i: int) -> bool:
        """Whether the noun at ``i`` is part of an English compound, where Hinglish keeps
        it English: a modifier of the next noun ("health premium", never "sehat
        premium") or a head after an English modifier ("body shop", "3-day week", never
        "body dukaan", "3-day hafte"; judged round 19). After a number or an adjective
        with a Hindi form the noun is free ("3 saal", "naya ghar")."""
        own = self.lex.content.get(body[i].low)
        if i + 1 < len(body) and body[i + 1].text[:1].isalpha():
            return not (own is not None and own.agrees)  # an adjective is no compound
        if i == 0:
            return False
        before = body[i - 1]
        if is_placeholder(before.text):
            return "-" in self.masked.unmask(before.text)
        if "-" in before.text:
            return True
        entry = self.lex.content.get(before.low)
        if entry is None or not entry.agrees:
            return True
        # "small dukaan": a Hindi head after an adjective left English reads as a
        # compound half translated; it follows its adjective ("chhoti dukaan", "small shop")
        return not self._translate.get(before.start, False)

    def _time_span(self, word: Word) -> bool:
        """A protected time expression ("last Tuesday", "yesterday"): an adverbial that
        goes first, kept as written ("last Tuesday phir se call kiya")."""
        if not is_placeholder(word.text) or self._numeric(word):
            return False
        low = self.masked.unmask(word.text).lower()
        return low.startswith(("last ", "next ", "this ")) or low in word_classes().time_words

    def _named_head(self, body: Sequence[Word]) -> Word:
        """The word whose gender the phrase takes: the last, except after a lexicon noun
        an identifier naming it ("complaint SR-88120", "ticket #4411"), which takes the
        noun's ("complaint ... raise ki", never "raise kiya"; judged round 8)."""
        last = body[-1]
        code = self.masked.unmask(last.text) if is_placeholder(last.text) else ""
        if (
            len(body) > 1
            and any(ch.isdigit() for ch in code)
            and (code[:1].isalpha() or code[:1] == "#")
            and (body[-2].low in self.lex.content or self.listed_acronym(body[-2])[0] is not None)
        ):
            return body[-2]  # "complaint IDs NDA-W-22817": the IDs' gender (dev21)
        before = self.lex.content.get(body[-2].low) if len(body) > 1 else None
        name = code or last.text
        if (
            before is not None
            and before.kind == "person"
            and before.gender is not None
            and name[:1].isupper()
            and name.isalpha()
            and last.low not in self.lex.content
        ):
            # "my daughter Ella": a name after a person noun takes the noun's gender
            # ("apni daughter Ella", never "apne"; judged round 11)
            return body[-2]
        participle = next(
            (
                i
                for i in range(1, len(body) - 1)
                if body[i].low.endswith("ing")
                and body[i].low not in self.lex.content
                and (
                    body[i - 1].low in self.lex.content
                    or self.lex.singular_entry(body[i - 1].low) is not None
                )
            ),
            None,
        )
        if participle is not None:
            # "receipts totalling $412": a noun modified by an English participle phrase
            # heads it, never the amount the participle takes ("receipts totalling
            # $412 submit kiya hai"; 35th judgement: ungrammatical)
            return body[participle - 1]
        return last

    def _identifier(self, words: Sequence[Word]) -> bool:
        """Whether ``words`` is one protected identifier ("NDA-W-23104", "#4411")."""
        if len(words) != 1 or not is_placeholder(words[0].text):
            return False
        code = self.masked.unmask(words[0].text)
        return any(ch.isdigit() for ch in code) and (code[:1].isalpha() or code[:1] == "#")

    def _np_adverb_at(self, words: Sequence[Word], i: int) -> int:
        size = self._phrase_at(words, i, "adverbs")
        phrase = " ".join(w.low for w in words[i : i + size])
        if phrase in _APPROXIMATORS and not self._quantity_at(words, i + size):
            # "My complaint is about Wise": "about" before no number is "concerning",
            # never the approximator "lagbhag" ("Meri complaint lagbhag Wise hai"; 28th
            # judgement: meaning changed)
            return 0
        return size if size and phrase in self.np_adverbs else 0

    def _quantity_at(self, words: Sequence[Word], i: int) -> bool:
        """Whether a quantity starts at ``words[i]``, the only thing "about"/"around"
        approximates: a number or an amount ("about $640", "around thirty"), a counting
        word ("about a dozen", "around half"), or "a"/"an" before a unit or a number
        ("about an hour", "about a week", "around a 32% hike")."""
        if i >= len(words):
            return False
        word = words[i]
        if is_placeholder(word.text):
            said = self.masked.unmask(word.text).lower()
            return any(c.isdigit() for c in said) or bool(set(said.split()) & SPELLED_NUMBERS)
        if word.low in SPELLED_NUMBERS or word.low in word_classes().counting_words:
            return True
        nxt = words[i + 1].low if i + 1 < len(words) else ""
        return word.low in ("a", "an") and (
            nxt.removesuffix("s") in self.units
            or nxt in word_classes().counting_words
            or (
                i + 1 < len(words)
                and is_placeholder(words[i + 1].text)
                and self._quantity_at(words, i + 1)
            )
        )

    def _participle(self, word: Word, predicate: bool) -> bool:
        """An unknown -ed or -ing word heading a noun phrase is a participle or a gerund
        ("an account ending in 0932", "listed as late"): the slot holds a clause. After
        a copula an -ed participle is a state ("included in the CTC") and stays."""
        low = word.low
        if is_placeholder(word.text) or low in self.lex.content or low in self.lex.phrases:
            return False
        if predicate and low in self.lex.grammar.get("event_participles", ()):
            return True  # "routes were merged": a passive event, not a state
        endings = ("ing",) if predicate else ("ed", "ing")
        return len(low) > 4 and low.endswith(endings)

    def _genitive(
        self, words: Sequence[Word], at: int
    ) -> tuple[Toks, Toks, Gender | None, bool, bool, bool] | None:
        left, right = words[:at], words[at + 1 :]
        owner_head = self.lex.content.get(right[-1].low) if right else None
        if owner_head is not None and owner_head.gender is None:
            # "a variable pay of 20% normal": an owner ending in an adjective is no noun
            # phrase but the copula's predicate after it ("20% normal ki variable pay",
            # found reading spent tuning texts)
            return None
        owner = self.np(right)
        if owner is None:
            return None
        lows = [w.low for w in left]
        if len(left) == 1 and self._number_word(left[0]):
            return None  # "Two of the engineers": a number word cannot take "mein se" here
        if len(right) == 1 and self._number_word(right[0]):
            return None  # "a team of five": not "five ki team"
        numeric_owner = all(t.tag == "other" for t in owner.core) and bool(owner.core)
        quantity = self._quantifier(left) if owner.plural or numeric_owner else None
        if quantity is not None:
            # "most of them" -> "unmein se zyaadatar"; "two of the engineers" ->
            # "engineers mein se do"
            among = self._among(owner)
            single = lows == ["one"] or (len(left) == 1 and lows[0] in ("each", "neither"))
            return (
                among + quantity,
                among + quantity,
                owner.gender,
                not single,
                owner.person,
                False,
            )
        if lows[-1] in self.partitives:
            if any(low not in ("a", "an", "the") for low in lows[:-1]):
                # "a normal part of X", "the joining bonus part of CTC": a word before the
                # partitive would be dropped ("X ka hissa" lost "normal"; judged heldout10)
                return None
            part = hindi_toks(self.partitives[lows[-1]])
            return (
                self._of(owner, "m", False, False) + part,
                self._of(owner, "m", False, True) + part,
                "m",
                False,
                False,
                False,
            )
        unit = lows[-1][:-1] if lows[-1].endswith("s") else lows[-1]
        # number words count like digits: "six years of experience" is "six years ka
        # experience", never "experience ke six years" (judged a calque)
        counted = any(
            self._numeric(w) or self.masked.unmask(w.text).lower() in SPELLED_NUMBERS for w in left
        )
        counted = counted or lows[0] in _QUANTITY_DETS
        if counted and unit in self.units and len(left) <= 3:
            amount = self._head(left)
            if amount is None:
                return None
            head = owner.form("bare") or ()
            pre = owner.form("pps") or ()
            ka = inflect("ka", owner.gender, owner.plural)
            ka_obl = inflect("ka", owner.gender, owner.plural, True)
            if ka is None or ka_obl is None:
                return None
            return (
                pre + amount[0] + hindi_toks(ka) + head,
                pre + amount[1] + hindi_toks(ka_obl) + (owner.core_obl or head),
                owner.gender or "m",
                owner.plural,
                owner.person,
                owner.place,
            )
        if left and left[0].low in ("this", "that", "these", "those"):
            return None  # "that proof of delivery": never "delivery ke us proof"
        possessed = self._head(left)
        if possessed is None:
            return None
        core, core_obl, gender, plural, person, place = possessed
        if gender is None:
            return None
        if owner.pre == () and all(t.tag == "other" for t in owner.core):
            # "a CGPA of 8.4/10" -> "8.4/10 CGPA", not "8.4/10 ka ek CGPA"
            core, core_obl = _drop_ek(core), _drop_ek(core_obl)
        elif lows[0] in ("a", "an"):
            # "a refund of the seat fees": "seat fees ka refund"; the possessor makes it
            # definite, and "seat fees ka ek refund" was judged a calque (dev21)
            core, core_obl = _drop_article(core), _drop_article(core_obl)
        return (
            self._of(owner, gender, plural, False) + core,
            self._of(owner, gender, plural, True) + core_obl,
            gender,
            plural,
            person,
            place,
        )

    def _quantifier(self, left: Sequence[Word]) -> Toks | None:
        """The Hindi of a partitive quantifier (``most``, ``some``, a number, ``only 5``)
        or None."""
        if len(left) == 2 and left[0].low in self.np_adverbs and left[0].low in self.adverbs:
            rest = self._quantifier(left[1:])
            return None if rest is None else (*self.tagged(self.adverb(left[0].low)), *rest)
        if len(left) != 1:
            return None
        word = left[0]
        if self._numeric(word):
            return (self._placeholder(word),)
        hindi = self.quantifiers.get(word.low)
        return None if hindi is None else hindi_toks(hindi)

    def _among(self, owner: NounPhrase) -> Toks:
        """``X mein se``, fused for pronouns (``unmein se``, ``hum mein se``)."""
        if owner.pronoun is not None:
            obl = owner.pronoun["obl"]
            fused = obl + "mein" if obl in ("un", "in") else f"{obl} mein"
            return hindi_toks(f"{fused} se")
        return (owner.form("obl") or ()) + hindi_toks("mein se")

    def _of(self, owner: NounPhrase, gender: Gender, plural: bool, oblique: bool) -> Toks:
        """The genitive of ``owner`` agreeing with what it owns: ``X ka`` / ``X ki`` /
        ``X ke``, or a pronoun's own form (``unka``, ``meri``)."""
        if owner.pronoun is not None:
            return hindi_toks(inflect(owner.pronoun["ka"], gender, plural, oblique) or "")
        ka = inflect("ka", gender, plural, oblique) or "ka"
        return (owner.form("obl") or ()) + hindi_toks(ka)

    def _free_choice(self, word: Word) -> bool:
        """Whether "any" at ``word`` is of free choice ("any city": whichever): no
        negation, question or condition before it in its clause. A negation in a clause
        before ("I have no family ties and I am ready to relocate to any city") does not
        reach it: read as the "koi" of that negation, "any" was "kisi shehar" (some city;
        28th judgement: meaning changed)."""
        text = self.masked.text
        before = text[: word.start]
        clause_start = max((m.end() for m in _CLAUSE_START.finditer(before)), default=0)
        return "?" not in text and _NOT_FREE_CHOICE.search(before[clause_start:]) is None

    def _determiner(
        self, word: str, spec: object, gender: Gender | None, plural: bool, oblique: bool
    ) -> Toks | None:
        if isinstance(spec, str):
            return hindi_toks(spec)
        if not isinstance(spec, Mapping):
            return None
        if "agree" in spec and "direct" in spec and not oblique:
            return hindi_toks(spec["direct"])  # "another": "ek aur" offer, "doosri" company mein
        if "agree" in spec:
            own = word in self.reflexive and "reflexive" in spec
            base = spec["reflexive"] if own else spec["agree"]
            agreed = inflect(base, gender, plural, oblique)
            if agreed is None and "unknown" in spec:
                agreed = spec["unknown"]  # "all 27": no gender to show, the plural "saare"
            return None if agreed is None else hindi_toks(agreed)
        return hindi_toks(spec["oblique"] if oblique else spec["direct"])

    # --- prepositional chains and participles --------------------------------------------

    def _prep_len(self, words: Sequence[Word], i: int) -> int:
        """Length of the preposition starting at ``words[i]`` (``about``/``around`` before
        a quantity are approximators, not prepositions; before a name they are: "about
        Wise" is "Wise ke baare mein")."""
        if words[i].low in _APPROXIMATORS and self._quantity_at(words, i + 1):
            return 0
        if self._np_adverb_at(words, i) > 1:
            return 0  # "at least 25%" is an approximator, never "least 25% par"
        return self._phrase_at(words, i, "postpositions")

    def _clause_after_as(self, rest: Sequence[Word]) -> bool:
        """Whether the words after "as" are a clause ("as the regulations require", "as
        the law says", "as a colleague suggested"): a finite verb after a noun, never
        right after a determiner ("as a certified nurse" is a role); a base form counts
        after a plural noun only ("as the rules require", not "as a team lead"). Verbs
        the lexicon does not know are listed (word_classes.yaml ``clause_verbs_after_as``)."""
        for before, word in pairwise(rest):
            if before.low in self.determiners:
                continue
            if word.low in word_classes().finite_auxiliaries:
                return True
            if word.low in word_classes().clause_verbs_after_as:
                return True
            if self._verb_not_noun(word.low, ("past", "third")):
                return True
            if before.low.endswith("s") and self._verb_not_noun(word.low, ("base",)):
                return True
        return False

    def _chain_start(self, words: Sequence[Word], i: int) -> int:
        """Length of the preposition or participle trigger starting at ``words[i]``."""
        size = self._prep_len(words, i)
        if size:
            return size
        low = words[i].low
        if self.lex.verb_forms.get(low, {}).get("ing") and low not in self.lex.content:
            return 1
        nxt = words[i + 1] if i + 1 < len(words) else None
        if low in _RELATIVE and nxt is not None:
            forms = self.lex.verb_forms.get(nxt.low, {})
            if any(k in forms for k in ("third", "base", "past")):
                return 1
        return 0

    def _chunks(self, words: Sequence[Word]) -> list[tuple[int, Sequence[Word]]]:
        chunks: list[tuple[int, Sequence[Word]]] = []
        i = 0
        while i < len(words):
            size = self._chain_start(words, i)
            j = i + max(size, 1)
            # a participle or relative clause inside a phrase belongs to that phrase's noun
            while j < len(words) and not self._prep_len(words, j):
                j += 1
            chunk = words[i:j]
            if (
                chunks
                and chunks[-1][0]
                and chunk[0].low == "with"
                and len(chunk) > 1
                and self._numeric(chunk[1])  # "with 60 drivers", not "with a CGPA of 7.2"
                and self._entity_noun(chunks[-1][1][-1])
            ):
                # "for a company with 60 drivers": the with-phrase modifies that noun
                prev_size, prev = chunks.pop()
                chunks.append((prev_size, [*prev, *chunk]))
            else:
                chunks.append((size, chunk))
            i = j
        return chunks

    def _entity_noun(self, word: Word) -> bool:
        """A lexicon noun naming a person, place or organisation ("company", "store")."""
        entry = self.lex.content.get(word.low) or self.lex.singular_entry(word.low)
        return entry is not None and entry.kind in ("person", "place")

    def _chain(
        self,
        words: Sequence[Word],
        gender: Gender | None,
        plural: bool,
        oblique: bool,
        stranded_ok: bool = False,
        nominal: bool = False,
        entity: bool = False,
        noun: bool | None = None,
        counted: bool = False,
    ) -> Toks | None:
        """A chain of prepositional phrases and participles, rendered in reverse order
        before the head they follow in English (``noun``: whether that head is a noun,
        False for an adjective, None if not known; ``counted``: whether it is a number or
        a quantifier, the only head a partitive "out of" follows)."""
        out: list[Toks] = []
        chunks = self._chunks(words)
        if sum(self._attached(size, chunk) for size, chunk in chunks) > _MAX_CHUNKS:
            # a long chain reordered word by word ("7.8 ke CGPA ke saath Nagpur mein
            # engineering college se", "$120,000 tak $95,000 se"): attachment and order
            # are guesses, so the clause stays English (judged ungrammatical, heldout5)
            return None
        for size, chunk in chunks:
            if size and len(chunk) == size and chunk[0].low in self.postpositions:
                if not (stranded_ok and not out):
                    return None
                if chunk[0].low in word_classes().adverb_prepositions:
                    # "I've called twice since": an adverb of time, no stranded
                    # preposition; dropped, the time anchor was lost ("Maine twice call
                    # kiya hai"; 28th judgement: meaning changed): English
                    return None
                out.append(())  # a stranded preposition right after the verb (ask about)
                continue
            rendered = self._chunk(
                size, chunk, gender, plural, oblique, nominal, entity, noun, counted
            )
            if rendered is None:
                return None
            out.append(rendered)
        strict = sum(self._attached(size, chunk, strict=True) for size, chunk in chunks)
        if strict > _MAX_CHUNKS and not self._place_first_ok(chunks, out):
            return None
        return tuple(t for part in reversed(out) for t in part)

    def _place_first_ok(
        self, chunks: Sequence[tuple[int, Sequence[Word]]], out: list[Toks]
    ) -> bool:
        """ "in Pune" goes first only before one more phrase that says where or from whom
        ("Pune mein Infosys mein", "Pune mein company se"), never before "par" ("Leeds
        mein £36,500 par hoon"), "tak" or a participle (all judged awkward reading dev21)."""
        others = [
            (chunk, toks)
            for (size, chunk), toks in zip(chunks, out, strict=True)
            if self._attached(size, chunk)
        ]
        return (
            len(others) == 1
            and others[0][0][0].low in ("at", "in", "from")
            and not any(self._numeric(w) for w in others[0][0])
            and bool(others[0][1])
            and others[0][1][-1].text in ("mein", "se")
        )

    def _attached(self, size: int, chunk: Sequence[Word], strict: bool = False) -> bool:
        """Whether a chunk of a chain is a phrase whose attachment and order matter: not a
        date ("on May 2"), a fixed adverb ("in full") or a role ("as a X": "ke taur par");
        unless ``strict``, not a named place ("in Pune") either."""
        if self._date(chunk[size:]) or (size == 1 and chunk[0].low == "as"):
            return False
        if not strict and self._in_named_place(chunk):
            return False
        return self._phrase_at(chunk, 0, "adverbs") != len(chunk)

    def _in_named_place(self, chunk: Sequence[Word]) -> bool:
        """ "in Pune": a place named after "in" goes first ("Pune mein ek startup mein"),
        and whether it places the noun before it or the whole event, Hindi says the same,
        so it is no guessed attachment (a self-description "at a startup in Pune" was
        left English by the one-phrase limit)."""
        if len(chunk) != 2 or chunk[0].low != "in" or not is_placeholder(chunk[1].text):
            return False
        said = self.masked.unmask(chunk[1].text)
        return said[:1].isupper() and not any(c.isdigit() for c in said) and said[:1] not in _QUOTES

    def _chunk(
        self,
        size: int,
        chunk: Sequence[Word],
        gender: Gender | None,
        plural: bool,
        oblique: bool,
        nominal: bool = False,
        entity: bool = False,
        noun: bool | None = None,
        counted: bool = False,
    ) -> Toks | None:
        trigger = " ".join(w.low for w in chunk[:size])
        rest = chunk[size:]
        if trigger == "out of" and not (nominal and counted):
            # "out of" is the partitive "mein se" only after a number or a quantifier
            # ("4 out of 5", "two out of three"); "offer out of college", "out of stock",
            # "out of town" are no part of a whole ("college mein se apna first offer
            # mila"; 27th judgement: meaning): English
            return None
        # "with" modifying a person, a place or organisation, or with a quantity ("a loan
        # with 8.9% interest") is an attribute: wala; otherwise ("help with my loan",
        # "an account with XXXX") it keeps ke saath
        if (
            trigger == "with"
            and rest
            and self._amount(rest[0])
            and all(w.low.startswith("per ") or w.low in _PERIOD_WORDS for w in rest[1:])
        ):
            # "working in a private bank with ₹8.4 lakh per annum": a bare sum says whose
            # it is no more than the English does (the writer's pay, not the bank's);
            # "₹8.4 lakh per annum wale private bank" gave it to the bank (36th
            # judgement: meaning changed). English
            return None
        attribute = entity or any(self._numeric(w) for w in rest)
        if nominal and trigger in ("with", "with no") and attribute:
            attributed = self._wala(trigger, rest, gender, plural, oblique)
            if attributed is not None or gender is not None:
                return attributed
        if trigger == "in" and [w.low for w in rest] == ["full"]:
            # "returned in full": "poori tarah" (invariant), not "full mein"; "poora"
            # must agree with its head ("dono fees ... poora" was judged ungrammatical)
            return hindi_toks("poori tarah")
        if nominal and trigger == "to":
            return None  # "connection to any debt": not "debt ko connection"
        if trigger == "by" and rest and rest[0].low in ("more", "less", "over"):
            return None  # "by more than 80 points": no clean postposition chain
        approximated = bool(rest) and rest[0].low in word_classes().amount_approximators
        lead = 1 if approximated and len(rest) > 1 else 0
        if trigger == "for" and rest and self._amount(rest[lead]):
            # "bought X for $59.99": a price is "$59.99 mein", never "$59.99 ke liye"; an
            # amount with more after it ("for ₹2,100 last minute") or after a noun ("a bus
            # for ₹2,100") has no safe attachment: English (round 10: meaning, awkward).
            # An approximate price too: "for about $640" is "lagbhag $640 mein", never
            # "lagbhag $640 ke liye" (28th judgement: ungrammatical)
            if nominal or len(rest) != lead + 1:
                return None
            np = self.np(rest)
            return None if np is None else (np.form("obl") or ()) + hindi_toks("mein")
        if trigger in ("for", "over") and self._mixed_span(rest):
            # "for four years and nearly thirty transfers": one "for" over a span and a
            # count, which no one postposition renders ("tak" for the span, "ke liye" for
            # nothing here; "four years aur lagbhag thirty transfers ke liye" was judged
            # ungrammatical, 28th judgement): English
            return None
        if trigger == "for" and len(rest) == 1 and rest[0].low in word_classes().bare_spans:
            return None  # "for years": never "years ke liye" ("saalon tak"); left English
        if trigger in ("for", "over") and self._duration(rest):
            # "worked there for 2 years" -> "2 saal tak", not "ke liye"; "over five
            # weeks" -> "five weeks mein", not "se zyada"
            if nominal and trigger == "for":
                return self._pp(trigger, rest, gender, plural, oblique)
            np = self.np(rest)
            post = "tak" if trigger == "for" else "mein"
            return None if np is None else (np.form("obl") or ()) + hindi_toks(post)
        if (
            trigger == "as"
            and rest
            and (
                rest[0].low in word_classes().not_a_role_after_as
                or (
                    rest[0].low not in self.lex.content
                    and any(
                        k in self.lex.verb_forms.get(rest[0].low, {})
                        for k in ("past", "participle")
                    )
                )
            )
        ):
            return None  # "as of March", "as per ...", "as promised": no role, English
        if trigger == "as" and self._clause_after_as(rest):
            # "as the regulations require": a clause ("jaisa ..."), never the role "ke taur
            # par" ("regulations require ke taur par"; 20th judgement: ungrammatical)
            return None
        if trigger in self.postpositions:
            return self._pp(trigger, rest, gender, plural, oblique, nominal, noun)
        if not nominal and trigger not in _RELATIVE and trigger not in self.postpositions:
            return None  # "reviewed using X": an adverbial participle, not a modifier
        if nominal and trigger not in _RELATIVE and len(chunk) == 1:
            # "menu costing": a bare -ing word after a noun is a compound (the skill), not
            # a participle ("cost karne wala menu"; judged round 19: meaning)
            return None
        if trigger not in _RELATIVE and len(chunk) == 2 and not is_placeholder(chunk[1].text):
            # "payroll processing time": a bare noun after an -ing word is a compound
            # noun, not its object ("time process karne wala payroll"; judged heldout10)
            return None
        verbs = chunk[1:] if trigger in _RELATIVE else chunk
        kind = "ing" if trigger not in _RELATIVE else _finite_kind(self.lex, verbs[0].low)
        vp = self.vp(verbs, kind) if size else None
        wala = inflect("wala", gender, plural, oblique)  # unknown gender: not guessed
        formed = vp.form("obl") if vp is not None else None
        if formed is None or wala is None:
            return None
        return formed + hindi_toks(wala)

    def _mixed_span(self, words: Sequence[Word]) -> bool:
        """Whether ``words`` coordinate a span of time with something that is none ("four
        years and nearly thirty transfers")."""
        parts: list[list[Word]] = [[]]
        for word in words:
            if word.low in ("and", "or"):
                parts.append([])
            else:
                parts[-1].append(word)
        if len(parts) < 2 or not all(parts):
            return False
        spans = [self._duration(part) for part in parts]
        return any(spans) and not all(spans)

    def _measure(self, words: Sequence[Word]) -> bool:
        """Whether a phrase after "by" counts something ("ten days", "3 hours", "two
        weeks", "a few days", "one vote"): a difference, never the means "se" ("ten
        days se woh modules wapas hold kiye", "two weeks se target miss kiya"; 27th
        judgement: meaning). A date or deadline after "by" was made "till" before
        (:mod:`guisekit.hinglish.senses`), so a number here is a measure."""
        lows = [w.low for w in words]
        for i, word in enumerate(words):
            said = self.masked.unmask(word.text).lower()
            if any(c.isdigit() for c in said) or set(said.split()) & SPELLED_NUMBERS:
                return True
            if lows[i] in word_classes().counting_words:
                return True
            if lows[i] == "one" and lows[i + 1 : i + 2] != ["of"]:
                return True
        return False

    def _counted(self, word: Word) -> bool:
        """Whether a head word is a number or a quantifier ("4", "two", "most", "one")."""
        said = self.masked.unmask(word.text).lower() if is_placeholder(word.text) else ""
        return (
            self._numeric(word)
            or said in SPELLED_NUMBERS
            or word.low in self.lex.grammar["quantifiers"]
        )

    def _amount(self, word: Word) -> bool:
        """Whether a word is a protected amount of money ("$59.99", "₹2,100", "Rs 500")."""
        said = self.masked.unmask(word.text) if is_placeholder(word.text) else ""
        return is_money(said, currency_first=True)

    def _duration(self, words: Sequence[Word]) -> bool:
        """Whether a phrase is a counted span of time ("2 years", "about six months")."""
        last = words[-1].low if words else ""
        unit = last[:-1] if last.endswith("s") else last
        return (
            unit in ("year", "month", "week", "day", "hour", "minute")
            and len(words) >= 2
            and is_placeholder(words[-2].text)
        ) or (
            len(words) == 1
            and is_placeholder(words[0].text)
            and _SPAN_OF_TIME.search(self.masked.unmask(words[0].text).lower()) is not None
        )

    def _wala(
        self,
        prep: str,
        words: Sequence[Word],
        gender: Gender | None,
        plural: bool,
        oblique: bool,
    ) -> Toks | None:
        """ "with" modifying a noun: ``a company with 600 employees`` -> ``600 employees
        wali company`` (wala agrees with the head; an unknown gender leaves it English)."""
        np = self.np(words)
        wala = inflect("wala", gender, plural, oblique)
        if np is None or wala is None or np.pronoun is not None:
            return None
        bina = hindi_toks("bina") if prep == "with no" else ()
        return bina + (np.form("obl") or ()) + hindi_toks(wala)

    def _pp(
        self,
        prep: str,
        words: Sequence[Word],
        gender: Gender | None,
        plural: bool,
        oblique: bool,
        nominal: bool = False,
        noun: bool | None = None,
    ) -> Toks | None:
        if not words:
            return None
        if any(
            self.lex.verb_forms.get(w.low, {}).get("ing") and w.low not in self.lex.content
            for w in words[1:]
        ):
            return None  # "from the lender showing X": does "showing" modify lender?
        spec = self.postpositions[prep]
        first = words[0]
        if (
            prep in self.gerund_forms
            and first.low.endswith("ing")
            and first.low not in self.lex.content
            and not self.lex.verb_forms.get(first.low, {}).get("ing")
        ):
            return None  # "without burning anyone out": an English gerund, no noun
        if (
            len(words) > 1
            and first.low.endswith("ing")
            and len(first.low) > 4
            and first.low not in self.lex.content
            and not self.lex.verb_forms.get(first.low, {}).get("ing")
        ):
            # "good at hitting production targets": an unknown verb's gerund with its
            # object, never a noun phrase ("hitting production targets par"; 35th
            # judgement: ungrammatical)
            return None
        if prep == "to" and not self._nominal_start(first):
            return None  # "to stop calling me": an infinitive, not a place or a person
        if self.lex.verb_forms.get(first.low, {}).get("ing") and not self._ing_modifier(words, 0):
            if prep in ("on", "in", "at"):
                return None  # "on receiving": a department or an event? left English
            vp = self.vp(words, "ing")
            form = self.gerund_forms.get(prep, "obl")
            formed = vp.form(form) if vp is not None else None
            post = "bina" if form == "bina" else spec if isinstance(spec, str) else ""
            return None if formed is None else formed + tuple(self.tagged(post))
        np = None if prep in self.gerund_only else self.np(words)
        if np is None:
            return None
        if prep == "to" and self._destination(words):
            # "delivered my package to the wrong address": the spot it arrives at takes
            # "par" ("wrong address par"), never "ko" (19th judgement: ungrammatical);
            # after a verb that is no sending or going, "to" may be no destination
            if not self.to_arrival or np.pronoun is not None:
                return None
            return (*(np.form("obl") or ()), *self.tagged("par"))
        if prep in ("from", "since") and nominal and noun is not False and self._time_phrase(words):
            # after an adjective it is a start ("effective from April": "April se
            # effective"); "photos from morning": the photos of that time, "subah ki photos" (the
            # genitive agrees with its head; unknown gender: English), never "subah se
            # photos", which reads "since morning" (heldout25 judgement: meaning)
            known = noun and gender is not None
            ka = inflect("ka", gender, plural, oblique) if known else None
            return None if ka is None else (np.form("obl") or ()) + hindi_toks(ka)
        if isinstance(spec, Mapping):
            place = np.place and (prep != "to" or all(t.tag == "other" for t in np.core))
            place = place and not (prep == "to" and self.to_recipient)
            # "at 26 LPA CTC": an amount is no place ("CTC par", never "CTC mein"; round 19)
            place = place and not any(self._numeric(w) for w in words)
            post = spec["place"] if place else spec["default"]  # "Pune", but "bureau ko"
        else:
            post = str(spec)
        if prep == "to" and self.to_destination and post == "ko":
            if np.person or np.pronoun is not None:
                return None  # "moved to him"? no place: English
            post = "mein"  # "relocate to any city": "kisi bhi city mein", never "city ko"
        if prep == "with" and self.with_source:
            post = "se"  # "checked with the airline": "airline se", never "ke saath"
        if post == "ka":  # agrees with the head the phrase modifies (priced at 1.2 crore)
            ka = inflect("ka", gender or "m", plural, oblique)
            return None if ka is None else (np.form("obl") or ()) + hindi_toks(ka)
        if np.pronoun is not None:
            return self._pronoun_pp(np.pronoun, post)
        if prep == "to" and words[-1].low.split()[-1] in word_classes().accounts:
            # "refund to my bank account": "account mein", never "account ko"; so for a
            # merged compound ("credit card ko" was judged ungrammatical, 39th judgement)
            post = "mein"
        said = " ".join(self.masked.unmask(w.text) for w in words)
        if prep == "on" and (self._date(words) or _DAY_AND_MONTH.fullmatch(said)):
            # "03/12/2022 ko", not "par"; after "on" a bare "2/12" is a date too ("2/12
            # par" was judged ungrammatical, 37th judgement)
            post = "ko"
        elif prep == "on" and _DATE.search(said.lower()):
            return None  # a date with another word in its phrase ("Sept 20 online")
        if (
            prep == "to"
            and np.core
            and all(t.tag == "other" for t in np.core)
            and any(c.isdigit() for t in np.core for c in t.text)
        ):
            post = "tak"  # "went up to $2,211.40": "$2,211.40 tak", not "ko"
        if prep == "to" and self._duration(words):
            # "dropped to 11 days": the end point of a change, "11 days tak", never the
            # "ko" of a date or a recipient (36th judgement: ungrammatical)
            post = "tak"
        if (
            prep == "by"
            and np.core
            and all(t.tag == "other" for t in np.core)
            and any(c.isdigit() for t in np.core for c in t.text)
        ):
            # "short by $3,280": "$3,280 short", as "$3,280 se short" reads "short of"
            return np.form("obl") or ()
        if prep == "by" and self._measure(words):
            # "reduced cost by about $310,000 a year": an amount of change with more words
            # around it; "se" reads "from $310,000" (round 10: meaning): English, as is
            # any other measure ("by ten days", "by a few weeks"; 27th judgement)
            return None
        obl = np.form("obl")
        if obl is None:
            # "between this and a new offer": a coordination with a pronoun has no
            # oblique case ("yeh aur ek new offer" is direct only); the phrase was dropped
            # and only its postposition was written ("Main ke beech decide ...", found
            # fixing the 21st judgement: meaning changed): English
            return None
        if prep == "as" and obl and obl[0].text == "ek":
            obl = obl[1:]  # "nurse ke taur par", not "ek nurse ke taur par"
        return obl + tuple(self.tagged(post))

    def _destination(self, words: Sequence[Word]) -> bool:
        """Whether the head of the noun phrase ``words`` (its last word before any
        preposition) is a spot one arrives at (word_classes.yaml ``destination_nouns``:
        "the wrong address", "my doorstep", "the main gate")."""
        end = next((j for j in range(1, len(words)) if self._prep_len(words, j)), len(words))
        lows = [w.low for w in words[:end]]
        nouns = word_classes().destination_nouns
        for size in (2, 1):
            if len(lows) < size:
                continue
            head = " ".join(lows[-size:])
            if any(
                form in nouns for form in (head, head.removesuffix("es"), head.removesuffix("s"))
            ):
                return True
        return False

    def _noun_head(self, word: Word) -> bool | None:
        """Whether ``word`` is a noun of the lexicon (True), an adjective or participle
        ("effective", "valid", "pending"; False) or neither known (None)."""
        if is_placeholder(word.text):
            return None
        low = word.low
        entry = self.lex.content.get(low) or self.lex.singular_entry(low)
        if entry is not None:
            return False if entry.agrees else (True if entry.gender is not None else None)
        if low.endswith(("ive", "able", "ible", "al", "ent", "ant", "ed", "ing")):
            return False
        return None

    def _time_phrase(self, words: Sequence[Word]) -> bool:
        """Whether a phrase names a time or a date ("morning", "March", "last week",
        "5 June", "2022")."""
        if self._date(words):
            return True
        text = " ".join(self.masked.unmask(w.text) for w in words).lower()
        return _FROM_TIME.fullmatch(text) is not None or _DATE.search(text) is not None

    def _date(self, words: Sequence[Word]) -> bool:
        """Whether a phrase is a date or a weekday (which take ``ko``)."""
        text = " ".join(self.masked.unmask(w.text) for w in words).lower()
        found = _DATE.search(text)
        if found and not _DATE_TAIL.fullmatch(text[found.end() :]):
            # "on Sept 20 online": a word after the date is no part of it ("Sept 20 online
            # ko"; round 10: ungrammatical): no date
            return False
        return (
            bool(found)
            or re.fullmatch(rf"the (?:\d{{1,2}}(?:st|nd|rd|th)|{_ORDINAL_DAYS})", text) is not None
            # "on 6th", "on October 14th": a bare day of the month (round 19: "6th par")
            or re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", text) is not None
        )

    def _nominal_start(self, word: Word) -> bool:
        """Whether ``word`` can open a noun phrase after "to" (a determiner, pronoun,
        name or amount, or a known noun)."""
        low = word.low
        return (
            is_placeholder(word.text)
            or low in self.determiners
            or low in self.pronouns
            or low in self.lex.content
            or (low.endswith("s") and low[:-1] in self.lex.content)
        )

    def _pronoun_pp(self, forms: Mapping[str, str], post: str) -> Toks:
        if post in ("ko", "se"):
            return hindi_toks(forms[post])
        first, _, rest = post.partition(" ")
        if first in ("ka", "ke", "ki"):  # mere liye, meri taraf
            genitive = forms["ka"]
            word = genitive[:-1] + first[-1] if genitive.endswith("a") else genitive
            return hindi_toks(f"{word} {rest}".strip())
        return hindi_toks(f"{forms['obl']} {post}".strip())

    def _the_two(self, words: Sequence[Word]) -> bool:
        """Whether ``words`` start with "the two" (the pronoun "dono")."""
        return (
            len(words) > 1
            and words[0].low == "the"
            and self._number_word(words[1])
            and self.masked.unmask(words[1].text).lower() == "two"
        )

    def _object_pronoun(self, rest: Sequence[Word]) -> bool:
        """Whether ``rest`` starts with an object pronoun (``her`` may be a determiner)."""
        low = rest[0].low
        if low not in word_classes().object_pronouns:
            return False
        if low != "her" or len(rest) == 1:
            return True
        nxt = rest[1]
        return (
            is_placeholder(nxt.text)
            or nxt.low in self.determiners
            or bool(self._chain_start(rest, 1))
        )

    # --- verb phrases --------------------------------------------------------------------


def _fixed_by(lows: Sequence[str]) -> bool:
    """Whether words hold a fixed adverb "X by X" ("step by step", "one by one", "day by
    day", "side by side"): one unit, never "by X" as a phrase of its own."""
    return any(
        low == "by" and 0 < i < len(lows) - 1 and lows[i - 1] == lows[i + 1]
        for i, low in enumerate(lows)
    )


def _finite_kind(lexicon: HinglishLexicon, low: str) -> str:
    forms = lexicon.verb_forms.get(low, {})
    return next((k for k in ("third", "base", "past") if k in forms), "base")
