"""Hinglish grammar that agrees: every noun of the gender lexicon takes the possessive
and copula of its gender, and a noun missing from the lexicon is never given one."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import yaml

from guisekit.hinglish import hinglish_rewrite
from guisekit.hinglish.lexicon import HinglishLexicon, default_lexicon
from guisekit.specs import HinglishSpec

NOUNS = sorted(
    (english, entry.gender)
    for english, entry in default_lexicon().content.items()
    if entry.gender is not None
    and english not in ("fees", "costs", "parents", "school fees", "people")
)


def _rewrite(text: str, mix: float = 0.0, seed: int = 0) -> str:
    return hinglish_rewrite(text, HinglishSpec(mix_ratio=mix), random.Random(seed)).text


@pytest.mark.parametrize(("noun", "gender"), NOUNS, ids=[n for n, _ in NOUNS])
def test_every_lexicon_noun_agrees_with_its_gender(noun: str, gender: str) -> None:
    mera, tha = ("Meri", "thi") if gender == "f" else ("Mera", "tha")
    assert _rewrite(f"My {noun} was late.") == f"{mera} {noun} late {tha}."


@pytest.mark.parametrize(
    ("text", "right", "wrong"),
    [
        ("I need your permission.", "Mujhe aapki permission chahiye.", "aapka permission"),
        ("My report was late.", "Meri report late thi.", "Mera report"),
        ("I submitted my application.", "Maine apni application submit ki.", "apna application"),
        ("My company is in Pune.", "Meri company Pune mein hai.", "Mera company"),
    ],
)
def test_possessives_and_participles_agree_with_their_head(
    text: str, right: str, wrong: str
) -> None:
    out = _rewrite(text)
    assert out == right
    assert wrong not in out


def test_a_noun_missing_from_the_lexicon_gets_no_gender() -> None:
    # "widget" has no gender in Hinglish usage we could source: no mera/meri is guessed
    assert "widget" not in default_lexicon().content
    out = _rewrite("My widget was late.")
    assert out == "My widget was late."


PATTERNS = yaml.safe_load((Path(__file__).parent / "data" / "hinglish_patterns.yaml").read_text())


@pytest.mark.parametrize("case", PATTERNS["cases"], ids=[c["text"] for c in PATTERNS["cases"]])
def test_error_patterns_are_gone(case: dict[str, object]) -> None:
    """Each error pattern of issue 20 and each bad output fixed since: the right form is
    produced at every mix ratio and seed, and the wrong form never."""
    text = str(case["text"])
    for mix in (0.0, 0.5, 1.0):
        for seed in range(3):
            out = _rewrite(text, mix, seed)
            if case.get("english"):
                assert out == text, (mix, seed)
            else:
                assert out in case["right"], (mix, seed, out)  # type: ignore[operator]
            for wrong in case["wrong"]:  # type: ignore[attr-defined]
                assert wrong not in out, (mix, seed, out)


def test_first_person_is_gender_neutral_in_every_bundled_text() -> None:
    """No first-person form that shows the writer's gender (karta/karti hoon, raha/rahi
    hoon, gaya/gayi hoon, ... tha/thi after main) in any rewrite of the bundled texts."""
    import json

    gendered = re.compile(
        r"\b\w+(?:t[ai]|r[ai]h[ai]|gay[ai]|sakt[ai]) hoon\b"
        r"|\bmain\b[^.?!,]*\b\w+(?:t[ai]|r[ai]h[ai]) th[ai]\b",
        re.IGNORECASE,
    )
    root = Path(__file__).parents[1] / "examples" / "data"
    texts = [
        json.loads(line)["text"]
        for name in ("salary_questions_in", "complaints", "interviews")
        for line in (root / f"{name}.jsonl").read_text().splitlines()
    ]
    for text in texts:
        for mix in (0.0, 1.0):
            out = _rewrite(text, mix, 1)
            assert gendered.search(out) is None, gendered.search(out)


def test_unsafe_construction_is_named_in_the_report() -> None:
    """A sentence with a construction the engine does not render safely stays English,
    and the report names the construction (lexicons/hinglish/unsafe.tsv)."""
    result = hinglish_rewrite(
        "It has now been over five weeks. My salary is 40,000 per month.",
        HinglishSpec(),
        random.Random(0),
    )
    first, second = result.sentences
    assert first.status == "english"
    assert first.reason == "left in English: approximator is not rendered safely"
    assert second.status == "converted"


class _NoGate(HinglishLexicon):
    """The packaged lexicon without the unsafe-construction gate, to test the clause
    code's own guards."""

    @property
    def unsafe(self) -> tuple[tuple[str, re.Pattern[str]], ...]:  # type: ignore[override]
        return ()


@pytest.mark.parametrize(
    "text",
    [
        "The recruiter asked if I have any questions.",
        "I asked the manager if I can work from home.",
        "They checked if I paid the fee.",
    ],
)
def test_asked_if_is_never_a_condition_even_without_the_gate(text: str) -> None:
    """An "asked if" is an embedded question: the clause splitter never makes it "agar ...,
    toh ... poocha" (the judged meaning change), gate or no gate."""
    for seed in range(3):
        out = hinglish_rewrite(text, HinglishSpec(), random.Random(seed), _NoGate()).text
        assert "agar" not in out.lower() and "toh" not in out.lower(), out


@pytest.mark.parametrize(
    ("text", "right"),
    [
        ("My EMI is due.", "Meri EMI due hai."),
        ("My complaint IDs were closed.", "Meri complaint IDs close ho gayi."),
        ("My ID was late.", "Meri ID late thi."),
    ],
)
def test_an_acronym_of_the_lexicon_takes_its_gender_and_number(text: str, right: str) -> None:
    """A protected acronym listed in content.tsv ("EMI", "ID", "IDs") agrees as the
    lexicon says; it defaulted to masculine singular ("mera EMI", "IDs ... ho gaya";
    dev21: ungrammatical)."""
    assert _rewrite(text, 0.0) == right


@pytest.mark.parametrize(
    ("text", "degree"),
    [
        ("My salary is so low.", "itni"),
        ("My bonus is so small.", "itna"),
        ("The fees are so high.", "itni"),
    ],
)
def test_a_degree_word_of_a_predicate_agrees_with_the_subject(text: str, degree: str) -> None:
    """ "itna" before a predicate with no noun of its own agrees with the subject, as the
    copula does ("meri in-hand ... itna kam" was judged ungrammatical, dev21); with the
    writer as subject its gender is unknown and the sentence stays English."""
    assert f" {degree} " in _rewrite(text, 1.0)
    assert _rewrite("I am so tired.", 1.0) == "I am so tired."


# adverbs a template or frame would swallow in an optional group and never write
# (judged round 12: "had already given notice" -> "notice diya tha", meaning)
_UNPLACED_ADVERBS = frozenset(
    {"already", "also", "then", "later", "soon", "again", "always", "fully", "completely"}
    | {"formally", "humbly", "sincerely"}
)
_OPTIONAL_WORDS = re.compile(r"\(\?:((?:[a-z]+(?: [a-z]+)? \|)*[a-z]+(?: [a-z]+)? )\)\?")


def test_no_template_or_frame_swallows_an_adverb() -> None:
    """An adverb of the English clause is never dropped silently: no template or frame
    matches one in an optional group its Hindi does not write."""
    root = Path(__file__).parents[1] / "lexicons" / "hinglish"
    templates = yaml.safe_load((root / "templates.yaml").read_text())["templates"]
    frames = yaml.safe_load((root / "frames.yaml").read_text())["frames"]
    swallowed = []
    for item in [*templates, *frames]:
        hindi = " ".join(item["hi"]) if isinstance(item["hi"], list) else item["hi"]
        for group in _OPTIONAL_WORDS.finditer(item["en"]):
            words = {w.strip() for w in group.group(1).split("|")}
            if words & _UNPLACED_ADVERBS and not re.search(r"\b(?:abhi|tab|phir)\b", hindi):
                swallowed.append((item["en"], sorted(words & _UNPLACED_ADVERBS)))
    assert swallowed == []
