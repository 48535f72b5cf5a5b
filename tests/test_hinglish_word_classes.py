"""The word classes of the Hinglish transform (lexicons/hinglish/word_classes.yaml) load,
every class typed and non-empty, and a malformed file is refused with the key it names."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from guisekit.errors import ResourceError
from guisekit.hinglish import word_classes as module
from guisekit.hinglish.word_classes import WordClasses, WordPattern, word_classes


@pytest.mark.parametrize("name", [f.name for f in fields(WordClasses)])
def test_every_word_class_loads_and_is_non_empty(name: str) -> None:
    words = getattr(word_classes(), name)
    assert isinstance(words, frozenset | tuple) and words
    assert all(isinstance(w, str) and w == w.strip() and w for w in words)


def test_a_pattern_matches_its_words_literally_in_any_case() -> None:
    subordinator = WordPattern(lambda w: w.subordinators, after=r"\s")
    assert subordinator.match("As soon as it came") is not None
    assert subordinator.match("assoon as") is None


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda d: d.pop("measures"), "missing classes ['measures']"),
        (lambda d: d.update(extra=["x"]), "unknown classes ['extra']"),
        (lambda d: d.update(measures=[]), "measures must be a non-empty list"),
        (lambda d: d.update(measures=["on", True]), "measures must be a non-empty list"),
        (lambda d: d.update(measures=["km", "km"]), "measures lists ['km'] more than once"),
    ],
)
def test_a_malformed_file_is_refused(
    monkeypatch: pytest.MonkeyPatch, change: Any, error: str
) -> None:
    data = {f.name: list(getattr(word_classes(), f.name)) for f in fields(WordClasses)}
    change(data)
    monkeypatch.setattr(module, "read_yaml", lambda _: data)
    word_classes.cache_clear()
    try:
        with pytest.raises(ResourceError, match=error.replace("[", r"\[").replace("]", r"\]")):
            word_classes()
    finally:
        word_classes.cache_clear()
