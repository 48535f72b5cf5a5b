"""The known limits of the exact check fixed after issue 14, one named test per class:
the failing pair fails, a fact-preserving paraphrase of the same shape passes.

1. clause-level negation: a negation moved to another clause/verb, the count kept;
2. sentence-initial proper names (where the capital letter says nothing);
3. role binding across "of (the)": the head of "the balance of the loan is $5,000";
4. Hinglish approximators after a number ("$500 se zyada" = "more than $500").
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.facts import check_facts, extract_facts


def _kinds_failing(original: str, rewrite: str) -> set[str]:
    result = check_facts(original, rewrite)
    return {d.kind for d in result.discrepancies if d.severity == "fail"}


# --- 1. clause-level negation ------------------------------------------------------------


def test_negation_moved_to_another_clause_fails() -> None:
    original = "I paid the fee but they did not refund it."
    rewrite = "I did not pay the fee but they refunded it."
    result = check_facts(original, rewrite)
    assert result.verdict == "fail"
    (change,) = result.discrepancies
    assert (change.change, change.kind) == ("changed", "negation")
    assert change.original is not None and change.original.text == "not refund"
    assert change.rewrite is not None and change.rewrite.text == "not pay"


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        (
            "They refunded the fee, but I did not get the card.",
            "They did not refund the fee, but I got the card.",
        ),
        ("I never called them and they emailed me.", "I called them and they never emailed me."),
        (
            "Maine fee pay ki lekin unhone refund nahi kiya.",
            "Maine fee pay nahi ki lekin unhone refund kiya.",
        ),
    ],
)
def test_negation_moved_other_shapes_fail(original: str, rewrite: str) -> None:
    assert "negation" in _kinds_failing(original, rewrite)


@pytest.mark.parametrize(
    "rewrite",
    [
        "I paid the fee, but they didn't refund it.",
        "They did not refund it, though I paid the fee.",
        "They did not refund the fee I paid.",
        "I paid the fee. They never refunded it.",
        "I paid the fee but the refund was not made.",
    ],
)
def test_negation_kept_in_its_clause_passes(rewrite: str) -> None:
    result = check_facts("I paid the fee but they did not refund it.", rewrite)
    assert result.verdict == "pass", [d.describe() for d in result.discrepancies]


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        # regressions (test_rules_properties): a style edit that swaps one occurrence of
        # the negated word for a synonym, or expands a contraction after the negator
        (
            "I did not get additional help. The additional fee stayed.",
            "I didn't get extra help. The additional fee stayed.",
        ),
        (
            "Did they not say it'd be fixed? It said so.",
            "Did they not say it would be fixed? It said so.",
        ),
        # a hedge idiom ends at a word's end: "not certain" is no part of "not certainly"
        ("It wasn't certainly fair.", "It was not certainly fair."),
        # the negated word with its apostrophe dropped is the same word
        ("Who would I. Need not who'd.", "Whod I. Need not whod."),
    ],
)
def test_style_edits_around_a_negation_pass(original: str, rewrite: str) -> None:
    result = check_facts(original, rewrite)
    assert result.verdict == "pass", [d.describe() for d in result.discrepancies]


def test_a_hedge_idiom_is_still_no_negation() -> None:
    facts = extract_facts("I am not certain the fee applies.")
    assert [f for f in facts if f.kind == "negation"] == []


def test_negation_count_change_still_fails_and_texts_are_optional() -> None:
    assert "negation" in _kinds_failing("They did not refund it.", "They refunded it.")
    # without the texts (compare_facts on fact lists alone) the count decides, as before
    from guisekit.facts import compare_facts

    a = extract_facts("I paid the fee but they did not refund it.")
    b = extract_facts("I did not pay the fee but they refunded it.")
    assert compare_facts(a, b).verdict == "pass"


# --- 2. sentence-initial proper names --------------------------------------------------------


def test_sentence_initial_name_dropped_fails() -> None:
    result = check_facts("Priya from the bank called me.", "Someone from the bank called me.")
    assert result.verdict == "fail"
    (change,) = result.discrepancies
    assert (change.change, change.kind) == ("omitted", "entity")
    assert change.original is not None and change.original.value == "priya"


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("Priya from the bank called me.", "Anita from the bank called me."),
        (
            "I was told to wait. Rahul said the fee would go.",
            "I was told to wait. He said the fee would go.",
        ),
        ("Chase closed my account.", "The bank closed my account."),
        ("I spoke to Mr. Sharma twice.", "I spoke to the manager twice."),
    ],
)
def test_sentence_initial_name_changed_fails(original: str, rewrite: str) -> None:
    assert "entity" in _kinds_failing(original, rewrite)


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("Priya from the bank called me.", "I got a call from Priya at the bank."),
        ("Priya from the bank called me.", "priya from the bank called me."),
        ("Yesterday I called the bank.", "I called the bank yesterday."),
        ("Someone from the bank called me.", "A person from the bank called me."),
        ("Unfortunately the fee stayed.", "Sadly, the fee stayed."),
        ("Customer care did not help.", "The customer care team did not help."),
        ("I called the bank.", "Maine bank ko call kiya."),
        ("We are asking for a refund.", "We're asking for a refund."),
        # regressions (test_rules_properties): a careless persona's apostrophe-free
        # contraction at a sentence start read as a name added
        ("Who would I.", "Whod I."),
        ("They will I.", "Theyll I."),
        ("Are not they late?", "Arent they late?"),
        # regression (Hinglish of held-out texts): a sentence after a quote closed behind
        # its full stop starts a sentence too
        ("He said 'it is done.' But I waited.", "He said 'it is done.' Lekin I waited."),
        (
            "She wrote “all settled.” I called again.",
            "She wrote “all settled.” Maine phir call kiya.",
        ),
    ],
)
def test_sentence_initial_common_word_is_no_name(original: str, rewrite: str) -> None:
    result = check_facts(original, rewrite)
    assert result.verdict == "pass", [d.describe() for d in result.discrepancies]


def test_yesterday_is_no_entity() -> None:
    facts = extract_facts("Yesterday I called. Today nothing happened. XXXX sent me a bill.")
    assert [f.value for f in facts if f.kind == "entity"] == []
    names = [
        f.value
        for f in extract_facts("Priya Sharma called. Then Chase wrote.")
        if f.kind == "entity"
    ]
    assert names == ["priya sharma", "chase"]


# --- 3. role binding across "of (the)" -------------------------------------------------------


def test_role_of_the_role_binds_the_head() -> None:
    (fact,) = extract_facts("The balance of the loan is $5,000.")
    assert fact.role == "balance"
    (fact,) = extract_facts("The refund of the fee was $40.")
    assert fact.role == "refund"
    # the role word's own "of" complement keeps the nearest role word
    (fact,) = extract_facts("A refund of the fee of $40 was promised.")
    assert fact.role == "fee"
    (fact,) = extract_facts("I was promised a refund of the $40 fee.")
    assert fact.role == "fee"


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("I was promised a refund of the $40 fee.", "I was promised a fee of the $40 refund."),
        ("The balance of the loan is $5,000.", "The loan is $5,000."),
        ("The refund of the fee was $40.", "The fee of the refund was $40."),
        ("The refund of the fee was $40.", "The fee was $40."),
    ],
)
def test_role_swap_across_of_the_fails(original: str, rewrite: str) -> None:
    result = check_facts(original, rewrite)
    assert result.verdict == "fail"
    (change,) = result.discrepancies
    assert change.kind == "money" and change.original and change.rewrite
    assert change.original.role != change.rewrite.role


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("The balance of the loan is $5,000.", "The loan balance is $5,000."),
        ("The refund of the fee was $40.", "The refund was $40."),
        ("I was promised a refund of the $40 fee.", "They promised to refund the $40 fee."),
        ("The balance of my loan is $5,000.", "My loan's balance is $5,000."),
    ],
)
def test_role_of_the_paraphrase_passes(original: str, rewrite: str) -> None:
    result = check_facts(original, rewrite)
    assert result.verdict == "pass", [d.describe() for d in result.discrepancies]


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        (
            "The insurer paid ₹4.5 lakh of the ₹6 lakh claim.",
            "The insurer paid ₹6 lakh of the ₹4.5 lakh claim.",
        ),
        ("They refunded $40 of the $60 fee.", "They refunded $60 of the $40 fee."),
        ("They refunded $40 out of my $60 deposit.", "They refunded $60 out of my $40 deposit."),
    ],
)
def test_partitive_amounts_traded_fail(original: str, rewrite: str) -> None:
    result = check_facts(original, rewrite)
    assert result.verdict == "fail"
    assert [d.kind for d in result.discrepancies] == ["money", "money"]


def test_partitive_binds_part_of_the_role() -> None:
    part, whole = extract_facts("The insurer paid ₹4.5 lakh of the ₹6 lakh claim.")
    assert (part.role, whole.role) == ("part of claim", "claim")
    # a role word of its own wins: "a refund of $40 of the fee" binds the refund
    (fact,) = extract_facts("I got a refund of $40 of the fee.")
    assert fact.role == "refund"


@pytest.mark.parametrize(
    "rewrite",
    [
        "Of the ₹6 lakh claim, the insurer paid ₹4.5 lakh.",
        "The insurer paid ₹4.5 lakh out of the ₹6 lakh claim.",
        "The insurer paid ₹4,50,000 of the ₹6,00,000 claim.",
    ],
)
def test_partitive_paraphrase_passes(rewrite: str) -> None:
    result = check_facts("The insurer paid ₹4.5 lakh of the ₹6 lakh claim.", rewrite)
    assert result.verdict == "pass", [d.describe() for d in result.discrepancies]


# --- 4. Hinglish approximators after a number ------------------------------------------------


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("The bank charged more than $500.", "Bank ne $500 se zyada charge kiya."),
        ("The bank charged above $500.", "Bank ne $500 se upar charge kiya."),
        ("Open rates were back above 35%.", "Open rates 35% se upar back the."),
        ("They charged less than ₹2,000.", "Unhone ₹2,000 se kam charge kiya."),
        ("The refund was about $40.", "Refund $40 ke aas-paas tha."),
        ("The refund was about $40.", "Refund lagbhag $40 tha."),
        ("It took nearly 30 days.", "Isme 30 days ke kareeb lage."),
    ],
)
def test_hinglish_approximator_kept_passes(original: str, rewrite: str) -> None:
    result = check_facts(original, rewrite)
    assert result.verdict == "pass", [d.describe() for d in result.discrepancies]


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("The bank charged more than $500.", "Bank ne $500 charge kiya."),
        ("The bank charged more than $500.", "Bank ne $500 se kam charge kiya."),
        ("The bank charged more than $500.", "Bank ne $500 ke aas-paas charge kiya."),
        ("The bank charged $500.", "Bank ne $500 se zyada charge kiya."),
        ("It took 30 days.", "Isme 30 days se zyada lage."),
    ],
)
def test_hinglish_approximator_dropped_or_changed_fails(original: str, rewrite: str) -> None:
    assert _kinds_failing(original, rewrite) & {"money", "quantity", "percent"}


def test_hinglish_approximators_read_as_their_class() -> None:
    cases = {
        "$500 se zyada": "over",
        "$500 se jyada": "over",
        "$500 se upar": "over",
        "$500 se kam": "under",
        "$500 ke aas-paas": "about~",
        "$500 ke aas paas": "about~",
        "$500 ke kareeb": "about~",
        "kareeb $500": "about~",
        "lagbhag $500": "about~",
    }
    for text, cls in cases.items():
        (fact,) = extract_facts(f"Bank ne {text} liye.")
        assert fact.approx == cls, text


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 10**6),
    st.sampled_from(["se zyada", "se upar", "se kam", "ke aas-paas", "ke kareeb"]),
)
def test_hinglish_approximator_property(amount: int, phrase: str) -> None:
    """Keeping the phrase keeps the fact; dropping it is a change, for any amount."""
    kept = f"Unhone ₹{amount:,} {phrase} liye."
    assert check_facts(kept, kept).verdict == "pass"
    assert check_facts(kept, f"Unhone ₹{amount:,} liye.").verdict == "fail"


def test_approximator_on_a_sum_is_not_bound() -> None:
    (fact,) = [
        f for f in extract_facts("It is lower than 9 lakhs divided by 12.") if f.kind == "money"
    ]
    assert fact.approx is None
    (fact,) = extract_facts("It is lower than 9 lakhs.")
    assert fact.approx == "under"
    assert check_facts(
        "My take-home is lower than 9 lakhs.", "Mera take-home 9 lakhs se kam hai."
    ).passed


# --- properties ------------------------------------------------------------------------------

VERBS = [("paid", "pay"), ("called", "call"), ("emailed", "email"), ("signed", "sign")]
OBJECT_VERBS = [("refunded", "refund"), ("replied", "reply"), ("waived", "waive")]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VERBS), st.sampled_from(OBJECT_VERBS), st.sampled_from(["but", "and"]))
def test_negation_move_property(first: tuple[str, str], second: tuple[str, str], link: str) -> None:
    """For any two verbs: moving "did not" from the second clause to the first fails,
    writing it as "didn't" or reordering the clauses passes."""
    original = f"I {first[0]} the fee {link} they did not {second[1]} it."
    moved = f"I did not {first[1]} the fee {link} they {second[0]} it."
    assert "negation" in _kinds_failing(original, moved)
    kept = f"They didn't {second[1]} it, though I {first[0]} the fee."
    assert check_facts(original, kept).verdict == "pass"


NAMES = st.from_regex(r"[BDGKMPRTVZ][aeiou][kmnrstv][aeiou](?:[kmnrt][aeiou])?", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(NAMES, st.sampled_from(["from the bank called me.", "said the fee was waived."]))
def test_sentence_initial_name_property(name: str, rest: str) -> None:
    """A made-up name at a sentence start is read as a name (unless a list knows the
    word or it has a common word's ending: "Bive"), so replacing it by "Someone" fails
    and lower-casing it passes."""
    from guisekit.facts.entities import _unknown_at_start

    original = f"{name} {rest}"
    names = [f.value for f in extract_facts(original) if f.kind == "entity"]
    if not _unknown_at_start(name.lower()):
        assert names == []
        return
    assert names == [name.lower()]
    assert "entity" in _kinds_failing(original, f"Someone {rest}")
    assert check_facts(original, original.lower()).verdict == "pass"


def test_the_digits_after_ending_in_are_no_count() -> None:
    """Regression (test_rules_properties): "account ending in 4417 discuss calls" was a
    count of 4417 calls, which a style edit between the words turned into an identifier."""
    facts = extract_facts("My account ending in 4417 discuss calls.")
    assert [(f.kind, f.value) for f in facts if f.kind in ("quantity", "identifier")] == [
        ("identifier", facts[0].value)
    ]
    assert check_facts(
        "I I account ending in 4417 discuss calls.", "I I account ending in 4417 talk calls."
    ).passed
