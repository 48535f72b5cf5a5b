"""What surrounds a fact, and the facts that are words: approximators and roles bound to
amounts, negators, entities, identifiers, and whether a text's context is Indian.

Everything here is deterministic and offline, read from the lists in ``lexicons/facts/``.

- **approximator**: ``nearly 30 days``, ``around 13.5 LPA``; the class of the phrase
  (``about`` = ``around``) is kept on the fact, so adding, removing or changing one is a
  change;
- **role**: the role word an amount is written with (``a $35 late fee``, ``refund of
  $50``, ``salary: 12 LPA``), so values traded between roles are caught. A CTC or package
  with no stated period is annual (that is what CTC means);
- **period adjectives** before an amount: ``monthly rent of ₹20,000``;
- **negation**: each negator (``not``, ``never``, ``no``, ``n't`` ...) outside the hedges of
  ``negation_idioms.txt``, so ``did not`` <-> ``didn't`` is a style edit and an added
  ``never`` is not;
- **entities**: capitalised words and runs of them that are not sentence-initial and not
  forms of address, greetings or calendar words (``not_entities.txt``); the comparison
  looks them up in the other text in any case, so a lower-casing persona keeps them;
- **identifiers**: account, card and reference numbers (``123456789``, ``XXXX1234``,
  ``SR4456123``, ``card ending in 4321``).
"""

from __future__ import annotations

import re

from fact_oracle.build import IDENTIFIER_P, Candidate, span_fact
from fact_oracle.model import Fact, Period
from guisekit.resources import read_lines, read_table, read_yaml

__all__ = ["bind", "date_reading", "entities", "identifiers", "negations"]


def _style_words(sources: tuple[str, ...]) -> frozenset[str]:
    """Every word of the text cells of the rules engine's style lexicons."""
    words: set[str] = set()
    for source in sources:
        if source.endswith(".yaml"):
            stack = [read_yaml(source)]
            while stack:
                item = stack.pop()
                if isinstance(item, dict):
                    stack += list(item.values()) + list(item.keys())
                elif isinstance(item, list):
                    stack += item
                elif isinstance(item, str):
                    words.update(_LETTERS.findall(item.lower()))
        else:
            for line in read_lines(source):
                words.update(_LETTERS.findall(line.lower()))
    return frozenset(words)


_LETTERS = re.compile(r"[a-z][a-z'’]*")
ROLES: dict[str, str] = {row[0]: row[1] for row in read_table("facts/roles.tsv", ("word", "role"))}
_APPROX: dict[str, str] = {
    row[0]: row[1] for row in read_table("facts/approximators.tsv", ("phrase", "class"))
}
_OVER_IS_MORE = frozenset(
    before
    for phrase, before in read_table("facts/approximator_blockers.tsv", ("phrase", "before"))
    if phrase == "over?"
)
_APPROX_AFTER = read_table("facts/approximators_after.tsv", ("phrase", "class"))
_BLOCKERS = frozenset(read_table("facts/approximator_blockers.tsv", ("phrase", "before")))
_APPROX_BY_LAST: dict[str, list[tuple[str, str]]] = {}
for _phrase, _cls in sorted(_APPROX.items(), key=lambda item: -len(item[0])):
    _APPROX_BY_LAST.setdefault(_phrase.rsplit(" ", 1)[-1], []).append((_phrase, _cls))
_APPROX_LAST = {phrase.rsplit(" ", 1)[-1] for phrase in _APPROX}
_NEGATORS = frozenset(read_lines("facts/negators.txt"))
_IDIOMS = read_lines("facts/negation_idioms.txt")
_NOT_ENTITIES = frozenset(w.lower() for w in read_lines("facts/not_entities.txt")) | (
    _style_words(read_lines("facts/style_word_sources.txt"))
)
_PLACES = read_lines("facts/indian_places.txt")
# The rules engine's misspellings, read back to the correct word: a careless-writing
# persona that writes "Servise" has not changed the name "Public Service Loan Forgiveness".
_CORRECT = {
    wrong: right for right, wrong in read_table("rules/misspellings.tsv", ("correct", "misspelled"))
}
_LOWER_WORD = re.compile(r"[a-z]+")


def spelling_blind(low: str) -> str:
    """Lower-cased text with the rules engine's misspellings corrected."""
    return _LOWER_WORD.sub(lambda m: _CORRECT.get(m.group(), m.group()), low)


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
_CLAUSE_END = re.compile(r"[.;!?\n]|,\s")
_CLAUSE_MARKS = (".", ";", "!", "?", "\n", ", ")


def bind(facts: list[Fact], text: str, low: str) -> list[Fact]:
    """The facts with approximators, roles and period adjectives bound."""
    out = facts
    for index, fact in enumerate(facts):
        kind = fact.kind
        if kind not in ("money", "quantity", "percent"):
            continue
        start = fact.start
        changes: dict[str, object] = {}
        approx = _approximator(low, start) if start and low[start - 1] == " " else None
        if approx is None and low[fact.end : fact.end + 1] == " ":
            approx = _approximator_after(low, fact.end + 1)
        if approx is not None:
            changes["approx"] = approx
        if kind == "money":
            role, period = _role(low, fact.start, fact.end)
            if role is not None:
                changes["role"] = role
            if fact.period is None:
                if period is None and role == "ctc":
                    period = "year"
                if period is not None:
                    changes["period"] = period
                    changes["value"] = f"{fact.value}/{period}"
        if changes:
            if out is facts:
                out = list(facts)
            out[index] = fact._replace(**changes)  # type: ignore[arg-type]
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
    for phrase, cls in _APPROX_AFTER:
        if (
            low.startswith(phrase, end)
            and not low[end + len(phrase) : end + len(phrase) + 1].isalpha()
        ):
            return cls
    return None


def _clause_words(segment: str) -> list[str]:
    """The words of a clause, misspellings of the rules engine corrected."""
    return [_CORRECT.get(w, w) for w in _WORD.findall(segment)]


def _role(low: str, start: int, end: int) -> tuple[str | None, Period | None]:
    """The role word bound to the amount at ``start:end`` (right first, through link
    words only: ``$68 in fees``; then left: ``fee of $35``) and a period adjective before
    it (``monthly rent``)."""
    right = low[end : end + 40]
    stop = _CLAUSE_END.search(right)
    if stop is not None:
        right = right[: stop.start()]
    for word in _clause_words(right)[:4]:
        if word in ROLES:
            return ROLES[word], None
        if word not in _RIGHT_LINK:
            break
    right_role: str | None = None
    left = low[max(0, start - 48) : start]
    cut = max(left.rfind(mark) for mark in _CLAUSE_MARKS)
    if cut >= 0:
        left = left[cut + 1 :]
    words = _clause_words(left)
    role: str | None = None
    period: Period | None = None
    index = len(words)
    while right_role is None and index > max(0, len(words) - 6):
        index -= 1
        word = words[index]
        if word in ROLES:
            role = ROLES[word]
            break
        if word in _PERIOD_ADJECTIVES:
            period = _PERIOD_ADJECTIVES[word]
            continue
        if word in _PERIOD_NOUNS and index and words[index - 1] in ("every", "each", "per"):
            period = _PERIOD_NOUNS[word]  # "an every month payment of $389"
            index -= 1
            continue
        if word not in _LEFT_LINK and word not in _APPROX_LAST:
            break
    if role is not None:
        if index > 0 and words[index - 1] in _PERIOD_ADJECTIVES:
            period = _PERIOD_ADJECTIVES[words[index - 1]]
        elif (
            index > 1
            and words[index - 1] in _PERIOD_NOUNS
            and words[index - 2]
            in (
                "every",
                "each",
                "per",
            )
        ):
            period = _PERIOD_NOUNS[words[index - 1]]
        return role, period
    if period is None:
        period = _period_before_role(words)
    return right_role, period


def _period_before_role(words: list[str]) -> Period | None:
    """A period adjective on a role word anywhere in the clause before the amount: "our
    monthly payment was supposed to be $1,842.17" states a monthly amount as much as
    "a monthly payment of $1,842.17" does."""
    for index in range(len(words) - 1, 0, -1):
        if words[index] in ROLES and words[index - 1] in _PERIOD_ADJECTIVES:
            return _PERIOD_ADJECTIVES[words[index - 1]]
    return None


# --- negation --------------------------------------------------------------------------------

# Contractions written without the apostrophe ("dont", "oughtnt"), common in informal
# text and made by the persona operators: every "n't" form of the rules engine's
# contraction table, less its apostrophe (and "aint").
_BARE = sorted(
    {
        c.replace("'", "")
        for _, c, _, _ in read_table(
            "transforms/contractions.tsv", ("expanded", "contracted", "contract", "kind")
        )
        if c.endswith("n't")
    }
    | {"aint", "oughtnt"},  # the table moved in 382dfee (issue 13); same update as the extractor
    key=len,
    reverse=True,
)
# What the negation scan looks for, with str.find (much faster than a regex whose
# alternatives start with common letters): each negator word, each bare contraction, and
# the "n't" ending.
# Negators that start with "n" (and "n't") in one scan led by the literal "n"; bare
# contractions from their "nt" ending; the rest, rare words, with str.find.
_N_NEGATOR = re.compile(
    "n(?:"
    + "|".join(sorted((w[1:] for w in _NEGATORS if w.startswith("n")), key=len, reverse=True))
    + r"|['’]t)(?![\w'’])"
)
_NT = re.compile(r"nt(?![\w'’])")
_BARE_SET = frozenset(_BARE)
_RARE_NEGATORS = sorted(w for w in _NEGATORS if not w.startswith("n"))
_IDIOMS_BY_WORD: dict[str, list[tuple[str, int]]] = {}
for _idiom in _IDIOMS:
    for _token in _idiom.split():
        if _token.endswith("n't"):
            _IDIOMS_BY_WORD.setdefault("n't", []).append((_idiom, _idiom.find("n't")))
        elif _token in _NEGATORS:
            _IDIOMS_BY_WORD.setdefault(_token, []).append((_idiom, _idiom.find(_token)))


_IDIOM_WORDS = {word for idiom in _IDIOMS for word in idiom.split()}
_IDIOM_MISSPELT = tuple(wrong for wrong, right in _CORRECT.items() if right in _IDIOM_WORDS)


def negations(text: str, low: str) -> list[Fact]:
    """One fact per negator outside a hedge idiom; value ``not`` (the comparison counts
    them: a negator added or removed is a change, the spelling is not)."""
    hits: list[tuple[int, int, int, str]] = []  # (word start, word end, negator start, key)
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
    for match in _NT.finditer(low):  # bare contractions: "dont", "oughtnt"
        end = match.end()
        start = end - 2
        while start and low[start - 1].isalpha():
            start -= 1
        if low[start:end] in _BARE_SET and (not start or not _is_letter(low[start - 1])):
            hits.append((start, end, start, low[start:end]))
    for word in _RARE_NEGATORS:
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
    hits.sort()
    found: list[Fact] = []
    for start, end, at, key in hits:
        if key in _IDIOMS_BY_WORD and _in_idiom(low, at, _IDIOMS_BY_WORD[key]):
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


def _in_idiom(low: str, at: int, idioms: list[tuple[str, int]]) -> bool:
    """Whether the negator at ``at`` is inside one of ``idioms`` (with the offset of the
    negator in each), spelling-blind ("no problme" is "no problem")."""
    corrected = None
    for idiom, offset in idioms:
        begin = at - offset
        if begin < 0:
            continue
        if low.startswith(idiom, begin):
            return True
        if offset == 0:
            if corrected is None:
                window = low[at : at + 40]
                misspelt = any(wrong in window for wrong in _IDIOM_MISSPELT)
                corrected = spelling_blind(window) if misspelt else ""
            if corrected.startswith(idiom):
                return True
    return False


# --- entities and identifiers ----------------------------------------------------------------

_CAPITALISED = re.compile(r"[A-Z][A-Za-z'’&.-]*[A-Za-z]|[A-Z]")


def entities(text: str) -> list[Fact]:
    """Capitalised words (runs of them, joined by ``of``/``&``) that are names."""
    found: list[Fact] = []
    run_start = run_end = -1
    not_entities, correct = _NOT_ENTITIES, _CORRECT
    for match in _CAPITALISED.finditer(text):
        start = match.start()
        word = match.group().rstrip(".")
        end = start + len(word)
        low = word.lower().strip("'’")
        if (
            low in not_entities
            or correct.get(low, low) in not_entities
            or (start and text[start - 1].isalnum())
            or (_sentence_start(text, start) and word not in _PLACE_WORDS)
        ):
            if run_start >= 0:
                _flush(text, run_start, run_end, found)
                run_start = -1
            continue
        if run_start >= 0 and _JOIN.fullmatch(text, run_end, start):
            run_end = end
            continue
        if run_start >= 0:
            _flush(text, run_start, run_end, found)
        run_start, run_end = start, end
    if run_start >= 0:
        _flush(text, run_start, run_end, found)
    return found


def _sentence_start(text: str, start: int) -> bool:
    """Whether only spaces and opening quotes stand between ``start`` and the start of
    the text or a sentence end (.!?:) or line break."""
    before = text[max(0, start - 4) : start].rstrip(' \t"“‘(')
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


def _flush(text: str, start: int, end: int, found: list[Fact]) -> None:
    if start < 0:
        return
    written = text[start:end]
    found.append(
        span_fact(
            kind="entity",
            value=" ".join(_CORRECT.get(w, w) for w in written.lower().split()),
            start=start,
            end=end,
            text=written,
        )
    )


# Five or more digits standing alone (an account, phone or reference number), led by up
# to four capitals (SR4456123); masked numbers (XXXX1234, ****1234) are found apart.
_IDENTIFIER = re.compile(r"\d{5,}")
_MASKED = re.compile(r"[X*](?<![\w*][X*])[X*]+[-\s]?\d{3,}(?![\d.,]\d)(?![A-Za-z])")
_ENDING_IN = re.compile(r"(?:ending|ends)\s+(?:in|with)\s+(\d{3,4})(?!\d)")


def identifiers(text: str, low: str, candidates: list[Candidate]) -> None:
    """Account, card and reference numbers as candidates (money and dates win overlaps)."""
    for match in _IDENTIFIER.finditer(text):
        start, end = match.span()
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
    if "XX" in text or "**" in text:
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


# --- date reading ----------------------------------------------------------------------------

_INDIAN = re.compile(
    r"₹|\bRs\.?\s?\d|\bINR\b|\b[lL]akhs?\b|\b[lL]acs?\b|\b[cC]rores?\b|\d\s?[cC]r\b|\bLPA\b|\bCTC\b"
)
_US = re.compile(r"\$|\bUSD\b|\b[dD]ollars?\b")


def _indian(text: str) -> bool:
    if _INDIAN.search(text) is not None:
        return True
    return any(
        place in text and re.search(rf"\b{re.escape(place)}\b", text) is not None
        for place in _PLACES
    )


def date_reading(text: str, order: str) -> str:
    """How the text's ambiguous numeric dates read: ``mdy``, ``dmy`` or ``ambiguous``."""
    if order != "auto":
        return order
    indian = _indian(text)
    us = _US.search(text) is not None
    if indian and not us:
        return "dmy"
    if us and not indian:
        return "mdy"
    return "ambiguous"
