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

from guisekit.facts.build import IDENTIFIER_P, Candidate, span_fact
from guisekit.facts.model import Fact, Period
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
ROLES: dict[str, str] = dict(read_table("facts/roles.tsv", ("word", "role")))
_APPROX: dict[str, str] = dict(read_table("facts/approximators.tsv", ("phrase", "class")))
_OVER_IS_MORE = frozenset(
    before
    for phrase, before in read_table("facts/approximator_blockers.tsv", ("phrase", "before"))
    if phrase == "over?"
)
_APPROX_AFTER = read_table("facts/approximators_after.tsv", ("phrase", "class"))
_BLOCKERS = frozenset(read_table("facts/approximator_blockers.tsv", ("phrase", "before")))
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
    last = before.rsplit(" ", 1)[-1]
    if last not in _APPROX_LAST:
        return None
    for phrase, cls in _APPROX.items():
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
    """The role word bound to the amount at ``start:end`` (left first: ``fee of $35``,
    then right: ``$35 late fee``) and a period adjective before it (``monthly rent``)."""
    right = low[end : end + 40]
    stop = _CLAUSE_END.search(right)
    if stop is not None:
        right = right[: stop.start()]
    right_role: str | None = None
    for word in _clause_words(right)[:4]:
        if word in ROLES:
            right_role = ROLES[word]
            break
        if word not in _RIGHT_LINK:
            break
    left = low[max(0, start - 48) : start]
    ends = [m.end() for m in _CLAUSE_END.finditer(left)]
    if ends:
        left = left[ends[-1] :]
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
    return right_role, period


# --- negation --------------------------------------------------------------------------------

# Contractions written without the apostrophe ("dont", "oughtnt"), common in informal
# text and made by the persona operators: every "n't" form of the rules engine's
# contraction table, less its apostrophe (and "aint").
_BARE = sorted(
    {
        c.replace("'", "")
        for _, c in read_table("rules/contractions.tsv", ("expanded", "contracted"))
        if c.endswith("n't")
    }
    | {"aint"},
    key=len,
    reverse=True,
)
_NEGATION = re.compile(
    r"n(?:o(?:t|thing|body|ne|where)?|['’]t)\b|never\b|neither\b|nor\b|cannot\b"
    r"|nahin?\b|mat\b|without\b|bina\b|unable\b"
    r"|(?P<bare>" + "|".join(_BARE) + r")\b"
)
_IDIOM_STARTS = [
    (idiom, idiom.find("n't") if token.endswith("n't") else idiom.find(token))
    for idiom in _IDIOMS
    for token in idiom.split()
    if token in _NEGATORS or token.endswith("n't")
]


def negations(text: str, low: str) -> list[Fact]:
    """One fact per negator outside a hedge idiom; value ``not`` (the comparison counts
    them: a negator added or removed is a change, the spelling is not)."""
    found: list[Fact] = []
    for match in _NEGATION.finditer(low):
        start, end = match.span()
        word = match.group()
        contracted = "'" in word or "’" in word
        if match.group("bare") is not None:
            if start and low[start - 1].isalpha():
                continue
        elif contracted:
            if not (start and low[start - 1].isalpha()):
                continue
            start -= 1
            while start and low[start - 1].isalpha():
                start -= 1
        elif (
            start and (low[start - 1].isalpha() or low[start - 1] in "'’")
        ) or word not in _NEGATORS:
            continue
        if _in_idiom(low, start, match.start()):
            continue
        after = low[end : end + 24].split(None, 1)
        shown_end = end + (low[end:].find(after[0]) + len(after[0]) if after else 0)
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


def _in_idiom(low: str, word_start: int, neg_start: int) -> bool:
    """Whether the negator at ``neg_start`` (its word at ``word_start``) is inside a hedge
    idiom, spelling-blind ("no problme" is "no problem")."""
    for idiom, offset in _IDIOM_STARTS:
        for at in (neg_start, word_start):
            begin = at - offset
            if begin < 0:
                continue
            if low.startswith(idiom, begin):
                return True
            window = low[begin : begin + len(idiom) + 4]
            if window[:2] == idiom[:2] and spelling_blind(window).startswith(idiom):
                return True
    return False


# --- entities and identifiers ----------------------------------------------------------------

_CAPITALISED = re.compile(r"[A-Z][A-Za-z'’&.-]*[A-Za-z]|[A-Z]")
_SENTENCE_START = re.compile(r"(?:^|[.!?:\n]|[\"“‘(])[\s\"“‘(]*$")


def entities(text: str) -> list[Fact]:
    """Capitalised words (runs of them, joined by ``of``/``&``) that are names."""
    found: list[Fact] = []
    run_start = run_end = -1
    for match in _CAPITALISED.finditer(text):
        start, end = match.span()
        word = match.group().rstrip(".")
        end = start + len(word)
        low = word.lower().strip("'’")
        if (
            _CORRECT.get(low, low) in _NOT_ENTITIES
            or low in _NOT_ENTITIES
            or (start and text[start - 1].isalnum())
        ):
            _flush(text, run_start, run_end, found)
            run_start = -1
            continue
        if _SENTENCE_START.search(text, max(0, start - 4), start) and not _PLACE.fullmatch(word):
            _flush(text, run_start, run_end, found)
            run_start = -1
            continue
        if run_start >= 0 and _JOIN.fullmatch(text, run_end, start):
            run_end = end
            continue
        _flush(text, run_start, run_end, found)
        run_start, run_end = start, end
    _flush(text, run_start, run_end, found)
    return found


_JOIN = re.compile(r"\s+(?:of\s+|&\s+)?|\s?&\s?")
_PLACE = re.compile("|".join(re.escape(p) for p in _PLACES))


def _flush(text: str, start: int, end: int, found: list[Fact]) -> None:
    if start < 0:
        return
    written = text[start:end]
    found.append(
        span_fact(
            kind="entity",
            value=spelling_blind(" ".join(written.lower().split())),
            start=start,
            end=end,
            text=written,
        )
    )


_IDENTIFIER = re.compile(
    r"(?:[A-Z]{1,4}|[X*]{2,}[-\s]?|)\d{5,}(?![\d.,]\d)(?![A-Za-z])|[X*]{2,}[-\s]?\d{3,4}(?!\d)"
)
_ENDING_IN = re.compile(r"(?:ending|ends)\s+(?:in|with)\s+(\d{3,4})(?!\d)")


def identifiers(text: str, low: str, candidates: list[Candidate]) -> None:
    """Account, card and reference numbers as candidates (money and dates win overlaps)."""
    for match in _IDENTIFIER.finditer(text):
        start, end = match.span()
        if start and (text[start - 1].isalnum() or text[start - 1] in "$₹.,/-"):
            continue
        written = match.group()
        value = "".join(ch for ch in written if ch.isalnum()).upper().replace("*", "X")
        candidates.append(
            (
                start,
                end,
                IDENTIFIER_P,
                len(candidates),
                span_fact(kind="identifier", value=value, start=start, end=end, text=written),
            )
        )
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
    r"|\b(?:" + "|".join(re.escape(p) for p in _PLACES) + r")\b"
)
_US = re.compile(r"\$|\bUSD\b|\b[dD]ollars?\b")


def date_reading(text: str, order: str) -> str:
    """How the text's ambiguous numeric dates read: ``mdy``, ``dmy`` or ``ambiguous``."""
    if order != "auto":
        return order
    indian = _INDIAN.search(text) is not None
    us = _US.search(text) is not None
    if indian and not us:
        return "dmy"
    if us and not indian:
        return "mdy"
    return "ambiguous"
