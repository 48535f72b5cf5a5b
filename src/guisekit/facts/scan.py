"""The fact extractor's scanning patterns.

How it is fast (extraction runs on every screen): the text is scanned with a few patterns
that start with a literal or a plain character class (a digit, a currency sign, a month
name, ``XX``), because a pattern that starts with ``\\b``, a lookbehind or a
case-insensitive word gets no fast skip in CPython's ``re`` and is tried at every
character. Each match of the digit scan reports, through lookaheads, which families
(money, date, percent, year) match at that position and how far. Plain numbers with no
currency evidence are rejected inside the regex engine. Relative dates and amounts in
words are found from their literal anchors (``ago``, ``dollars``) and matched backwards on
the reversed, lower-cased text.

The behaviour is specified by the case tables (``tests/data/fact_extraction_cases.yaml``)
and the labelled pairs; the earlier one-regex-per-family "reference patterns" were never
run and are gone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# --- pieces ----------------------------------------------------------------------------------

_NUM = r"(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?(?!\d)"
_PRE = r"(?:US\$|(?<![A-Za-z])(?:USD|INR|Rs\.?)|₹|\$)"
_PERIOD_BODY = (
    r"per\s+annum|p\.\s?a\.?|per\s+year|a\s+year|annually|yearly|per\s+yr|/\s?(?:yr|year|annum)"
    r"|(?:every|each)\s+(?:year|month|week|day|hour)"
    r"|per\s+month|a\s+month|monthly|p\.\s?m\.|/\s?(?:month|mo)"
    r"|per\s+week|a\s+week|weekly|/\s?(?:week|wk)|per\s+day|a\s+day|daily|/\s?day"
    r"|per\s+hour|an\s+hour|hourly|/\s?(?:hr|hour)"
)
_PERIOD = rf"(?P<per>{_PERIOD_BODY})(?![A-Za-z])(?!\s+ago)"
_POST = r"US\s+dollars?|dollars?|bucks|USD|rupees?|INR|LPA|cents?"
_WORD_NUM = (
    r"(?:a|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|million|billion|lakhs?|crores?)"
)
_WORD_PHRASE = rf"{_WORD_NUM}(?:(?:\s+and\s+|[\s-]+){_WORD_NUM})*"
_CENTS_TAIL = rf"(?:\s+and\s+(?P<c>{_WORD_PHRASE}|\d{{1,2}})\s+cents?\b)?"
_MONEY_WORDS = re.compile(
    rf"\b(?P<w>{_WORD_PHRASE})\s+(?P<cur>dollars|bucks|rupees)\b{_CENTS_TAIL}",
    re.IGNORECASE,
)
_PCT_UNIT = r"(?:(?P<pp>percentage\s+points?\b|pp\b)|(?P<pct>%|percent\b|per\s?cent\b|pct\b))"
_MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)"
)
# _MONTHS as a tree: the same words, each full name still tried before its abbreviation,
# so the same matches; but at most one branch is entered at a capital letter.
_MONTHS_TREE = (
    r"(?:J(?:an(?:uary|)|u(?:ne|n|ly|l))|F(?:eb(?:ruary|))|M(?:ar(?:ch|)|ay)|A(?:pr(?:il|)"
    r"|ug(?:ust|))|S(?:ep(?:tember|t|))|O(?:ct(?:ober|))|N(?:ov(?:ember|))|D(?:ec(?:ember|)))"
)
_YEAR4 = r"(?:19|20)\d{2}"
_DATE_END = r"(?![\w/]|[.-]\d)"
_YEAR_AFTER = r"(?![\w%]|[.,/]\d|\s?(?:%|percent\b))"
_YEAR_BEFORE_DASH = re.compile(rf"(?<![\d-]){_YEAR4}-$")
_REL_NUMBER = (
    r"\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few"
    r"|several|a\s+couple\s+of"
)
_REL_UNIT = r"days?|weeks?|months?|years?"
_REL_THIS = (
    r"week(?:end)?|month|year|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|morning|afternoon|evening|night|spring|summer|fall|autumn|winter"
)
_RELATIVE = re.compile(
    r"\b(?:the\s+day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday|today|tonight|tomorrow"
    rf"|(?:last|next|this)\s+(?:{_REL_THIS})"
    rf"|(?:{_REL_NUMBER})\s+(?:{_REL_UNIT})\s+ago)\b",
    re.IGNORECASE,
)


def trie(words: Iterable[str]) -> str:
    """An alternation of ``words`` as a tree of their letters, longer words tried first
    at each branch: it matches what ``longest|...|shortest`` matches (the words that
    match at a position are prefixes of one another, so one path holds them all), but
    CPython's ``re`` tries one branch per letter instead of every word in turn."""
    tree: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:  # type: ignore[type-arg]
        branches = [re.escape(ch) + emit(child) for ch, child in node.items() if ch]
        if not branches:
            return ""
        if "" in node:
            return "(?:" + "|".join(branches) + "|)"
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(tree)


# --- scanning patterns -----------------------------------------------------------------------


def _reverse_words(alternation: str) -> str:
    """``days?|week`` -> ``s?yad|keew``: a plain word alternation, for the reversed text."""
    out = []
    for word in alternation.split("|"):
        optional_s = word.endswith("s?")
        body = word[:-2] if optional_s else word
        out.append(("s?" if optional_s else "") + body[::-1])
    return "|".join(out)


# Optional groups are written (?:X|) rather than (?:X)?: the same alternatives in the same
# order, but a branch is much cheaper than the repeat machinery for a complex X in CPython.
_NUM_S = r"(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+|)(?!\d)"  # _NUM
# _NUM after its first digit (consumed by the scan): the same alternatives, in the same order.
_NUM_TAIL = r"(?:\d{0,2}(?:,\d{2,3})+|\d*)(?:\.\d+|)(?!\d)"
_YEAR4_TAIL = r"(?:(?<=1)9|(?<=2)0)\d{2}"  # _YEAR4 after its first digit


def _scale(g: str) -> str:
    """_SCALE with the Indian scales in groups of their own (same alternatives, same order)."""
    return (
        rf"(?:(?:(?P<{g}a>[kKmMbB]|mn|bn)|\s?(?P<{g}ai>[cC]r|L))(?![A-Za-z])(?:(?<=r)\.|)"
        rf"|\s?(?:(?P<{g}w>thousand|million|billion)|(?P<{g}wi>[lL]akhs?|[lL]acs?|[cC]rores?))\b|)"
    )


def _money_tail(g: str, period: bool = True) -> str:
    """_MONEY after ``n1``, group names prefixed with ``g``; ``free`` marks a range whose
    second number could start a money match of its own. Without ``period``, the match
    stops before the period (_PERIOD_AT matches it from ``{g}end``)."""
    tail = (
        _scale(g + "s1") + rf"(?:\s?(?P<{g}dash>-|–|—|to)\s?(?:(?P<{g}pre2>{_PRE})|)\s?"
        rf"(?:(?<![\w.,/:-])(?P<{g}free>)|)(?P<{g}n2>{_NUM_S}){_scale(g + 's2')}|)"
        rf"(?:\s?(?P<{g}post>{_POST})\b|)"
    )
    if period:
        tail += rf"(?:\s?(?P<{g}per>{_PERIOD_BODY})(?![A-Za-z])(?!\s+ago)|)"
        # each part of the tail starts with one of these (after a space or not): when none
        # follows the number, all are skipped at once
        tail = rf"(?:(?=\s?[kKmMbBtlcC\-–—dUrILpa/hewy]){tail}|)"
    return tail + rf"(?P<{g}end>)"


_PERIOD_AT = re.compile(rf"\s?{_PERIOD}")


def _digit_scan(digit: str, only: tuple[str, ...] = ()) -> re.Pattern[str]:
    """Every digit that can start a money (with currency evidence), date, percent or year
    match, and every month name that starts a date; the lookahead groups give each
    family's match there. One scan for both, as the skip to the next character of a set
    costs CPython about as much as the rest of the scan."""
    # Each family's lookahead starts with a test implied by what follows (what must come
    # next), so that most numbers fail it at once; [\d,.]* covers a _NUM match. Money: a
    # scale, a range or a currency word must follow. A digit right after $ or ₹ is inside
    # the money match of that marker, so it never starts one.
    money = (
        r"(?<![.,/:$₹-].)(?=[\d,.]*(?:[kKmMbB]|mn|bn|\s?(?:tho|mil|bil|[lL]ak|[lL]ac|[cC]ro|-|–|—|to"
        r"|dol|buc|USD|US\s|rup|INR|LPA|cen|[cC]r(?![A-Za-z])|L(?![A-Za-z]))))"
        rf"(?=(?P<Mn1>{_NUM_TAIL}){_money_tail('M', period=False)})"
        r"(?(Mpre2)|(?(Mpost)|(?(Ms1ai)|(?(Ms1wi)|(?(Ms2ai)|(?(Ms2wi)|(?(Mfree)|(?!))))))))"
        r"(?P<Mok>)"
    )
    date = (
        r"(?=\d?[/.-]|\d{3}-|\d?(?:st|nd|rd|th|)\s+(?:of\s+|)[JFMASOND])"
        r"(?=(?P<D>(?<![/.-].)(?=\d{0,3}[/.-])(?:"
        rf"(?P<Da>\d?)(?P<Dsep>[/-])(?P<Db>\d{{1,2}}|XX)(?P=Dsep)(?P<Dy>\d{{4}}|\d{{2}}|XXXX){_DATE_END}"
        rf"|(?P<Dda>\d?)\.(?P<Ddb>\d{{1,2}})\.(?P<Ddy>\d{{4}}){_DATE_END}"
        rf"|(?P<Diy>{_YEAR4_TAIL})-(?P<Dim>\d{{1,2}})-(?P<Did>\d{{1,2}}){_DATE_END}"
        rf"|(?P<Dmm>\d?)/(?P<Dmy>{_YEAR4}){_DATE_END})"
        rf"|(?P<Dd2>\d?)(?:st|nd|rd|th|)\s+(?:of\s+|)(?P<Dm2>{_MONTHS_TREE})\b\.?"
        rf"(?:,?\s+(?P<Dy2>{_YEAR4})(?!\d)|)))"
    )
    percent = (
        r"(?<![.,].)(?=[\d,.]*\s?[%pP])"
        rf"(?=(?P<Pn>{_NUM_TAIL})\s?(?i:(?P<Ppp>percentage\s+points?\b|pp\b)"
        r"|(?P<Ppct>%|percent\b|per\s?cent\b|pct\b))(?P<Pend>))"
    )
    year = rf"(?<![$#.,/'’].)(?={_YEAR4_TAIL}{_YEAR_AFTER})(?P<Y>)"
    families = {"Mok": money, "D": date, "Pend": percent, "Y": year}
    families = {flag: families[flag] for flag in only or families}
    # A test that every family's match passes (what may follow the number, see the tests
    # above; its alternatives start with a character or class, which CPython skips at
    # once when it does not match), so that plain numbers fail it before the families.
    gate = (
        r"(?=[09]\d\d(?!\d)(?<=[12]...)(?<![$#.,/'’]....)"  # a year
        r"|\.\d|\d\.\d"  # a dotted date
        r"|[\d,.]*(?:[kKmMbBcCdlnrstUIL%pP/\-–—]"  # a scale, unit, suffix or separator
        r"|\s(?:tho|to|mil|bil|buc|[lL]ak|[lL]ac|[cC]ro|cen|dol|rup|USD|US\s|INR|LPA"  # or,
        r"|Cr|cr|L|of\s"  # after a
        r"|[\-–—%JFMASOND]|[pP](?:[pPcC]|[eE][rR]\s?[cC])|\s+(?:of\s|[JFMASOND]))))"  # space,
    )  # a scale or currency word, a dash, a month or a percent unit
    # Each family is optional; the match fails unless one of them matched.
    numbers = (
        gate
        + "".join(f"(?:{body}|)" for body in families.values())
        + "".join(f"(?({flag})|" for flag in families)
        + "(?!)"
        + ")" * len(families)
    )
    # _DATE's alternatives led by a month name: the name (in _MONTHS, whose first letter
    # is the lead), the \b before it (the lead's lookbehind), the rest in a lookahead.
    months = (
        r"(?P<Nmon>an(?<=Jan)(?:uary|)|u(?<=Ju)(?:ne|n|ly|l)|eb(?<=Feb)(?:ruary|)"
        r"|ar(?<=Mar)(?:ch|)|ay(?<=May)|pr(?<=Apr)(?:il|)|ug(?<=Aug)(?:ust|)"
        r"|ep(?<=Sep)(?:tember|t|)|ct(?<=Oct)(?:ober|)|ov(?<=Nov)(?:ember|)|ec(?<=Dec)(?:ember|))"
        rf"(?=(?:(?P<NE>\.?\s+(?P<Nd1>\d{{1,2}})(?:st|nd|rd|th|)(?![\w:])"
        rf"(?:,?\s+(?P<Ny1>{_YEAR4})(?!\d)|))|\.?,?\s+(?P<Ny3>{_YEAR4})(?!\d))(?P<Nend>))"
    )
    # A match goes on over the rest of its digits, which cannot start one (a digit before).
    return re.compile(
        f"[{digit}JFMASOND]" + r"(?<!\w.)" + f"(?:{months}|(?<=[{digit}]){numbers}[{digit}]*)"
    )


def ascii_digits(pattern: str) -> str:
    """``pattern`` with each ``\\d`` written ``0-9`` (in a class) or ``[0-9]``: the same
    matches on a text with no other decimal digit, where CPython's ``re`` tests a range
    in a few instructions but calls a Unicode lookup for ``\\d`` at every character."""
    out = []
    in_class = False
    at = 0
    while at < len(pattern):
        ch = pattern[at]
        if ch == "\\":
            escape = pattern[at : at + 2]
            if escape == "\\D":
                raise RuntimeError("ascii_digits: \\D is not rewritten")
            out.append(("0-9" if in_class else "[0-9]") if escape == "\\d" else escape)
            at += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            out.append(ch)
            at += 1
            for lead in "^]":  # a class may start with ^ and then a literal ]
                if pattern[at : at + 1] == lead:
                    out.append(lead)
                    at += 1
            continue
        out.append(ch)
        at += 1
    return "".join(out)


# when the text has no other decimal digits than 0-9
_DIGITS_ASCII = re.compile(ascii_digits(_digit_scan("0-9").pattern))
_DIGITS_UNICODE = _digit_scan(r"\d")
_NON_ASCII_DIGIT = re.compile(r"[^\D0-9]")
_ANY_DIGIT = re.compile(r"\d")

# Money led by a currency marker: one scan per alternative of _PRE (at most one of them
# matches at a position), each led by its literal, the lookbehind moved after it.
_MONEY_PRE = [
    (marker, re.compile(rf"(?P<pre>{pre})(?=\s?(?P<n1>{_NUM_S}){_money_tail('')})"))
    for marker, pre in (
        ("$", r"\$"),
        ("US$", r"US\$"),
        ("USD", r"USD(?<![A-Za-z]USD)"),
        ("INR", r"INR(?<![A-Za-z]INR)"),
        ("Rs", r"Rs(?<![A-Za-z]Rs)\.?"),
        ("₹", "₹"),
    )
]
# Dates led by XX (XX/XX/2019, XX/XX/XXXX) and redaction tokens.
_DATE_X = re.compile(
    rf"XX(?<![\w/.-]XX)(?=(?P<sep>[/-])(?P<b>\d{{1,2}}|XX)(?P=sep)(?P<y>\d{{4}}|\d{{2}}|XXXX)"
    rf"{_DATE_END})"
)
_REDACTION_SCAN = re.compile(r"X(?<!\wX)X+(?!\w)")
# Relative dates and money in words, on the lower-cased text (see _lower_ok).
_REL_DAY_AROUND = re.compile(r"the\s+day\s+(?:before\s+yesterday|after\s+tomorrow)\b")
# (the word that starts each match, pattern)
_REL_LITERAL = [
    ("yesterday", re.compile(r"yesterday\b")),
    ("today", re.compile(r"today\b")),
    ("tonight", re.compile(r"tonight\b")),
    ("tomorrow", re.compile(r"tomorrow\b")),
    ("last", re.compile(rf"last\s+(?:{_REL_THIS})\b")),
    ("next", re.compile(rf"next\s+(?:{_REL_THIS})\b")),
    ("this", re.compile(rf"this\s+(?:{_REL_THIS})\b")),
]
_REL_AGO_REVERSED = re.compile(
    rf"oga\s+(?:{_reverse_words(_REL_UNIT)})\s+(?:\d+|n?a|eno|owt|eerht|ruof|evif|xis|neves"
    r"|thgie|enin|net|nevele|evlewt|wef\s+a|lareves|fo\s+elpuoc\s+a)\b"
)
_WORD_NUM_REVERSED = "(?:" + _reverse_words(_WORD_NUM[3:-1]) + ")"
_MONEY_WORDS_REVERSED = re.compile(
    rf"\s+{_WORD_NUM_REVERSED}(?:(?:\s+dna\s+|[\s-]+){_WORD_NUM_REVERSED})*\b"
)
_CURRENCY_WORD = re.compile(r"(?:dollars|bucks|rupees)\b")
_CENTS = re.compile(_CENTS_TAIL)


def _any_case(pattern: str) -> str:
    """``pattern`` with each ASCII letter replaced by the class of the characters that
    re.IGNORECASE matches it with (so the pattern need not be case-insensitive, which
    keeps CPython's fast skip of alternatives that start with another letter)."""
    special = {"i": "İı", "k": "K", "s": "ſ"}
    return re.sub(
        r"\\.|[a-z]",
        lambda m: (
            m.group()
            if len(m.group()) > 1
            else f"[{m.group()}{m.group().upper()}{special.get(m.group(), '')}]"
        ),
        pattern,
    )


# _YEAR_EXCLUDED_AFTER on the reversed text, matched at its start; _LOWER for lower-cased
# ASCII text (faster), _REVERSED for any text.
_YEAR_EXCLUDED_LOWER = re.compile(
    r"\s*(?:gnidne|ni\s+gnidne|htiw\s+gnidne|#|\.?on\b|rebmun\b|mrof\b|noitces\b|\.ces\b"
    r"|elur\b|eltit\b|retpahc\b|elcitra\b|tca\b|edoc\b|moor\b|etius\b|tinu\b|thgilf\b"
    r"|etuor\b|ledom\b|noisrev\b|\.?v\b|piz\b|nip\b|\.?txe\b|\.?tpa\b)"
)
_YEAR_EXCLUDED_REVERSED = re.compile(_any_case(_YEAR_EXCLUDED_LOWER.pattern))

_MONTH_NUMBER = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}


# ASCII letters kept, every other byte a space: the words of an ASCII text, split at
# anything that is not a letter a-z.
_LETTERS_ONLY = bytes(ch if 97 <= ch <= 122 else 32 for ch in range(256))


def letter_runs(low: str) -> frozenset[bytes]:
    """The runs of letters a-z of the lower-cased text, as bytes (of its UTF-8; any
    other byte ends a run). Every word the word kinds look up (a _WORD token of
    :mod:`.roles`, a number word) that is all letters a-z is one of them, so a list none
    of whose words is in this set has none in the text: one set per text (two C loops
    over the bytes) answers the word kinds' "is any of these words here?" (number words,
    period adjectives) instead of a scan of the text per list."""
    return frozenset(low.encode().translate(_LETTERS_ONLY).split())


def letters_only(low: str) -> str | None:
    """The lower-cased text with every character that is no letter a-z read as a space,
    when it is ASCII (one character for one byte, so its slices are those of ``low``);
    None otherwise. The role binding reads the words of a clause as a slice of it split
    at spaces (one translation per text instead of one per amount)."""
    return low.encode().translate(_LETTERS_ONLY).decode() if low.isascii() else None


# --- group numbers of the scans (used by the families to read a match) ---------------------

_G = _DIGITS_ASCII.groupindex
if _DIGITS_UNICODE.groupindex != _G:  # both scans are built by _digit_scan
    raise RuntimeError("the ASCII and Unicode digit scans must name the same groups")
_M_OK, _D_OK, _P_OK, _Y_OK = _G["Mok"], _G["D"], _G["Pend"], _G["Y"]
_N_END, _N_MON, _N_D1, _N_Y1, _N_Y3 = (_G[name] for name in ("Nend", "Nmon", "Nd1", "Ny1", "Ny3"))
_M_END, _M_N1 = _G["Mend"], _G["Mn1"]
# The money groups, in the order _money_match unpacks them (both scans name them alike).
_MONEY_GROUP_NAMES = (
    "s1a",
    "s1ai",
    "s1w",
    "s1wi",
    "dash",
    "pre2",
    "n2",
    "s2a",
    "s2ai",
    "s2w",
    "s2wi",
    "post",
)
_M_GROUPS = tuple(_G["M" + name] for name in _MONEY_GROUP_NAMES)
_D_GROUPS = tuple(
    _G[name] for name in ("Dsep", "Db", "Dy", "Ddb", "Ddy", "Dim", "Did", "Dmy", "Dm2", "Dy2")
)
_D_A, _D_DA, _D_IY, _D_MM, _D_D2 = (_G[name] for name in ("Da", "Dda", "Diy", "Dmm", "Dd2"))
_P_N, _P_PP = _G["Pn"], _G["Ppp"]
_PG = _MONEY_PRE[0][1].groupindex
if any(scan.groupindex != _PG for _, scan in _MONEY_PRE):
    raise RuntimeError("every currency-prefix scan must name the same groups")
_PRE_GROUPS = tuple(_PG[name] for name in _MONEY_GROUP_NAMES)
_PRE_END, _PRE_N1, _PRE_PRE, _PRE_PER = _PG["end"], _PG["n1"], _PG["pre"], _PG["per"]


# the last characters of the words of _YEAR_EXCLUDED_AFTER, in any case (no letter that
# re.IGNORECASE matches with another one, i k s, ends one of them)
_EXCLUDED_LAST = frozenset("gnh#o.rmetlvpGNHORMETLVP")
