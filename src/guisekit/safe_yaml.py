"""The one YAML loader for files a user hands us: safe, bounded, and precise in its errors.

PyYAML's ``SafeLoader`` builds no arbitrary objects, but three inputs still hurt
(issue #17, defects 7, 8 and 17):

- an **alias bomb** (``a: &a [x, x]``, ``b: &b [*a, *a]``, ...) is a few lines that expand
  into billions of nodes when anything walks the result, anywhere in the document;
- **deep nesting** (``[[[[...`` 100,000 deep) overflows the recursive composer into a
  ``RecursionError`` traceback;
- a **huge file** is read whole before anything is checked.

A **duplicate key** is refused too: PyYAML keeps the last value silently, so an edit to the
first copy does nothing (ten lexicon keys of the Hinglish grammar were shadowed this way
until the loader refused them).

:func:`load` refuses each with a :class:`YAMLLimitError` (a ``yaml.MarkedYAMLError``, so a
caller's existing ``except yaml.YAMLError`` still catches it) that carries the line and
column, and :func:`describe` turns any YAML error into ``line L column C: problem`` for a
one-line message. Any ``SafeLoader`` subclass can be bounded (the grid's text-only loader
is one).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

__all__ = [
    "MAX_ALIASES",
    "MAX_CHARS",
    "MAX_DEPTH",
    "DuplicateKeyError",
    "YAMLLimitError",
    "describe",
    "load",
]

MAX_CHARS = 20_000_000  # far above any config or data file we read whole
MAX_DEPTH = 100  # configs are a handful of levels deep
MAX_ALIASES = 1_000
# an alias may repeat what it names, but the expanded document may not outgrow the
# written one by more than this factor (plus a constant for small files)
EXPANSION_FACTOR = 10
EXPANSION_SLACK = 10_000


class YAMLLimitError(yaml.MarkedYAMLError):
    """A YAML document over one of the limits (size, depth, aliases, expansion)."""


class DuplicateKeyError(yaml.MarkedYAMLError):
    """A mapping that names one key twice."""


_MERGE_TAG = "tag:yaml.org,2002:merge"


class _Bounded:
    """Mix-in for a ``SafeLoader`` subclass that enforces the limits while composing."""

    _depth = 0
    _aliases = 0
    _composed = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()  # type: ignore[attr-defined]
        if isinstance(event, yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise YAMLLimitError(
                    problem=f"more than {MAX_ALIASES:,} aliases",
                    problem_mark=event.start_mark,  # type: ignore[arg-type]
                )
        elif self._depth >= MAX_DEPTH:
            raise YAMLLimitError(
                problem=f"nested more than {MAX_DEPTH} levels deep",
                problem_mark=event.start_mark,
            )
        self._depth += 1
        self._composed += 1
        try:
            return super().compose_node(parent, index)  # type: ignore[misc,no-any-return]
        finally:
            self._depth -= 1

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[tuple[str, str], int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, ScalarNode) or key_node.tag == _MERGE_TAG:
                continue  # merge keys ("<<") may override by design
            key = (key_node.tag, key_node.value)
            if key in seen:
                raise DuplicateKeyError(
                    problem=f"duplicate key {key_node.value!r} (first at line {seen[key] + 1})",
                    problem_mark=key_node.start_mark,
                )
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep)  # type: ignore[misc,no-any-return]

    def get_single_node(self) -> Node | None:
        node = super().get_single_node()  # type: ignore[misc]
        if node is not None:
            _check_expansion(node, EXPANSION_FACTOR * self._composed + EXPANSION_SLACK)
        return node  # type: ignore[no-any-return]


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _check_expansion(root: Node, limit: int) -> None:
    """Count the nodes of the document with every alias expanded, without expanding it:
    each distinct node's expanded size is computed once (iteratively, so a long alias
    chain cannot overflow the stack). A cycle (``&a [*a]``) is infinite, so refused."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            if sizes[key] > limit:
                raise YAMLLimitError(
                    problem=f"aliases expand this document past {limit:,} nodes",
                    problem_mark=node.start_mark,
                )
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise YAMLLimitError(problem="an alias refers to itself", problem_mark=node.start_mark)
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in sizes)


_BOUNDED: dict[type[yaml.SafeLoader], type[yaml.SafeLoader]] = {}


def _bounded(loader: type[yaml.SafeLoader]) -> type[yaml.SafeLoader]:
    if loader not in _BOUNDED:
        _BOUNDED[loader] = type(f"Bounded{loader.__name__}", (_Bounded, loader), {})
    return _BOUNDED[loader]


def load(text: str, loader: type[yaml.SafeLoader] = yaml.SafeLoader) -> Any:
    """Parse one YAML document with ``loader`` (a ``SafeLoader`` or subclass), bounded.

    Raises ``yaml.YAMLError`` (:class:`YAMLLimitError` for a limit) on any problem."""
    if len(text) > MAX_CHARS:
        raise YAMLLimitError(problem=f"the file is over {MAX_CHARS:,} characters")
    return yaml.load(text, Loader=_bounded(loader))


def describe(exc: yaml.YAMLError) -> str:
    """``line L column C: problem`` for a YAML error (1-based), on one line."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1} column {mark.column + 1}: " if mark else ""
        return " ".join(f"{where}{exc.problem}".split())
    return " ".join(str(exc).split())
