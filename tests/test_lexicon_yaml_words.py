"""Words in packaged YAML lists stay words.

YAML 1.1, which PyYAML reads, turns a bare ``no``, ``on``, ``off``, ``yes``, ``true`` or
``false`` into a boolean, so a word list written ``[in, on, at]`` silently held ``True``
instead of "on" (seven lists of lexicons/rules/ and lexicons/transforms/ lost a word this
way until they were quoted). A boolean is never a word: no list may hold one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guisekit import safe_yaml

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "lexicons").rglob("*.yaml")) + sorted((ROOT / "prompts").rglob("*.yaml"))


def _booleans_in_lists(node: Any, where: str, in_list: bool = False) -> Iterator[str]:
    if isinstance(node, bool):
        if in_list:
            yield where
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _booleans_in_lists(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _booleans_in_lists(value, f"{where}[{i}]", in_list=True)


def test_there_are_yaml_files_to_check() -> None:
    assert len(FILES) > 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_list_holds_a_yaml_boolean(path: Path) -> None:
    data = safe_yaml.load(path.read_text(encoding="utf-8"))
    assert list(_booleans_in_lists(data, path.name)) == [], 'quote the word: "on", "no"'


def test_the_quoted_words_are_read_as_words() -> None:
    claims = safe_yaml.load((ROOT / "lexicons/rules/claims.yaml").read_text(encoding="utf-8"))
    assert "no" in claims["approximated"] and "off" in claims["fallibility"]
    assert "false" in claims["evaluative"]
