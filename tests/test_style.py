"""Readability measures work with the network blocked (textstat's syllable source)."""

from __future__ import annotations

import json
import subprocess
import sys

_BLOCKED = """
import json, socket

def refuse(*args, **kwargs):
    raise OSError("network blocked by test")

socket.socket.connect = refuse
socket.create_connection = refuse
from guisekit.style import flesch_kincaid_grade
print(json.dumps([flesch_kincaid_grade("The cat sat on the mat."),
                  flesch_kincaid_grade("Notwithstanding the aforementioned considerations, "
                                       "the institution's reconciliation was unsatisfactory.")]))
"""


def test_flesch_kincaid_works_offline_in_a_fresh_process() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _BLOCKED], capture_output=True, text=True, check=True
    )
    simple, hard = json.loads(run.stdout)
    assert simple < 3
    assert hard > 15


def test_fk_grade_equals_textstat_exactly_on_varied_texts() -> None:
    """The per-word syllable cache changes speed only, not the grade."""
    import textstat

    from guisekit.style import flesch_kincaid_grade

    texts = [
        "",
        "Hi.",
        "One two three. Four!",
        "$5,000.00 was paid on 03/14/2023. Rs. 5,00,000 too; approx. 12 LPA.",
        "I don't think it's fair that they've charged me twice -- twice!",
        "Antidisestablishmentarianism notwithstanding, the fee is unreasonable.",
    ]
    for text in texts:
        assert flesch_kincaid_grade(text) == textstat.flesch_kincaid_grade(text), text


def test_fk_grade_equals_textstat_where_sentences_are_short_or_odd() -> None:
    """Sentences of two words or fewer are not counted; the one-pass cleaning of all
    sentences must count them as textstat does, whatever ends them (apostrophes, quotes,
    the joining character itself)."""
    import random

    import textstat

    from guisekit.style import _JOIN, flesch_kincaid_grade

    pieces = [
        "Hi.", "Ok!", "Wait...", "e.g.", "U.S.", "No way!", "Really?!", "'tis done.",
        "they' re.", "It's fine.", "'", "' ", "- -", "$5.", "rock 'n' roll.", "fine'",
        "I paid 5,000 dollars on 03/14/2023.", "Yes", "don't!", "A b c d.", _JOIN,
        f"x{_JOIN}y.", "\n", "  ", "Three words here.", "“Quoted” one.", "‘a’ b.",
    ]  # fmt: skip
    rng = random.Random(31)
    texts = ["".join(rng.choices(pieces, k=rng.randint(1, 10))) for _ in range(600)]
    texts += [" ".join(rng.choices(pieces, k=rng.randint(1, 10))) for _ in range(600)]
    for text in texts:
        assert flesch_kincaid_grade(text) == textstat.flesch_kincaid_grade(text), text
    assert sum(_JOIN in t for t in texts) > 50
