"""Compare a built grid with a published prompt file: the check of a reproduction.

By id, each generated prompt is looked up by its id in the file and its text compared;
by text, generated texts are matched against the file's texts as a multiset (for files
without ids, or ids that follow another scheme). Either way the report says how many
matched, which differ or are missing on either side, how many sit at the same position
(a reproduction must match the order too), and shows a word diff of the first few
mismatches. A comparison is a full match only when every prompt matches, nothing is left
over on either side, and every prompt is in its place.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from guisekit.errors import ConfigError, SourceError
from guisekit.grid.files import read_data, scalar_text
from guisekit.tables import read_rows

__all__ = ["CompareBy", "Comparison", "Mismatch", "compare_rows", "read_reference", "word_diff"]

CompareBy = Literal["id", "text"]
_SHOWN = 5
_POOL = 500  # left-over file texts searched for the closest match of a mismatch


@dataclass(frozen=True)
class Mismatch:
    """One generated prompt that has no exact counterpart in the file."""

    position: int
    id: str
    kind: Literal["text differs", "not in file"]
    generated: str
    expected: str | None  # the file's text of that id (by id) or the closest unmatched
    # text in the file (by text); None when there is none


@dataclass(frozen=True)
class Comparison:
    """The result of comparing generated prompts with a reference file."""

    by: CompareBy
    reference: str
    generated: int
    in_file: int
    matched: int
    text_differs: int
    not_in_file: int
    not_generated: int
    same_position: int
    mismatches: tuple[Mismatch, ...]
    extra_examples: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.matched + self.text_differs + self.not_in_file != self.generated:
            raise ValueError("comparison counts do not add up to the generated prompts")

    @property
    def all_match(self) -> bool:
        return (
            self.matched == self.generated == self.in_file
            and self.not_generated == 0
            and self.same_position == self.generated
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "reference": self.reference,
            "generated": self.generated,
            "in_file": self.in_file,
            "matched": self.matched,
            "text_differs": self.text_differs,
            "not_in_file": self.not_in_file,
            "not_generated": self.not_generated,
            "same_position": self.same_position,
            "all_match": self.all_match,
        }


def read_reference(
    path: Path, *, by: CompareBy, id_column: str = "id", text_column: str = "text"
) -> list[tuple[str, str]]:
    """``(id, text)`` of every row of a JSONL, CSV, Parquet or JSON (list of records)
    prompt file, in file order. By id, ids must be present and unique."""
    required = (id_column, text_column) if by == "id" else (text_column,)
    if path.suffix.lower() != ".json":
        rows = read_rows(
            path,
            required=required,
            text_columns=(text_column,),
            id_column=id_column if by == "id" else None,
        )
        return [(_text(row.get(id_column)), row[text_column]) for _, row in rows]
    if not path.is_file():
        raise SourceError("file not found", path=path, hint="check the path")
    try:
        data = read_data(path)
    except ConfigError as exc:
        raise SourceError(exc.message, hint=exc.hint) from None
    if not isinstance(data, list) or not data:
        raise SourceError(
            "expected a non-empty list of prompt records", path=path, hint="or use JSONL"
        )
    found: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(data, start=1):
        for column in required:
            if not isinstance(row, dict) or column not in row:
                raise SourceError(
                    f"record {number}: missing key {column!r}",
                    path=path,
                    hint="name the keys with --compare-id-column/--compare-text-column",
                )
        key = _text(row.get(id_column))
        if by == "id" and key in seen:
            raise SourceError(
                f"record {number}: duplicate id {key!r} (first in record {seen[key]})", path=path
            )
        seen[key] = number
        found.append((key, _text(row[text_column])))
    return found


def _text(value: Any) -> str:
    return scalar_text(value) or ""


def compare_rows(
    rows: Sequence[dict[str, Any]],
    reference: Sequence[tuple[str, str]],
    *,
    by: CompareBy,
    name: str = "reference",
    shown: int = _SHOWN,
) -> Comparison:
    """Compare generated ``rows`` (``id``, ``text``) with ``reference`` ``(id, text)``."""
    mismatches: list[Mismatch] = []
    matched = differs = absent = same_position = 0
    if by == "id":
        where = {key: (position, text) for position, (key, text) in enumerate(reference)}
        generated_ids = set()
        for position, row in enumerate(rows):
            generated_ids.add(row["id"])
            found = where.get(row["id"])
            if found is None:
                absent += 1
                mismatches.append(Mismatch(position, row["id"], "not in file", row["text"], None))
                continue
            same_position += found[0] == position
            if found[1] == row["text"]:
                matched += 1
            else:
                differs += 1
                mismatches.append(
                    Mismatch(position, row["id"], "text differs", row["text"], found[1])
                )
        extra = [key for key, _ in reference if key not in generated_ids]
    else:
        remaining = Counter(text for _, text in reference)
        unmatched: list[tuple[int, dict[str, Any]]] = []
        for position, row in enumerate(rows):
            at = reference[position][1] if position < len(reference) else None
            same_position += at == row["text"]
            if remaining[row["text"]] > 0:
                remaining[row["text"]] -= 1
                matched += 1
            else:
                absent += 1
                unmatched.append((position, row))
        left = +remaining
        pending = Counter(left)
        extra = []
        for key, text in reversed(reference):  # the last copies of a text are the extra ones
            if pending[text] > 0:
                pending[text] -= 1
                extra.append(key or text[:60])
        extra.reverse()
        pool = list(left)[:_POOL]
        for position, row in unmatched[:shown]:
            close = difflib.get_close_matches(row["text"], pool, n=1, cutoff=0.5)
            nearest = close[0] if close else None
            mismatches.append(Mismatch(position, row["id"], "not in file", row["text"], nearest))
    return Comparison(
        by=by,
        reference=name,
        generated=len(rows),
        in_file=len(reference),
        matched=matched,
        text_differs=differs,
        not_in_file=absent,
        not_generated=len(extra),
        same_position=same_position,
        mismatches=tuple(mismatches[:shown]),
        extra_examples=tuple(extra[:shown]),
    )


def word_diff(expected: str, generated: str) -> str:
    """A one-line word diff: ``[-file words-]{+generated words+}`` around what changed."""
    old, new = expected.split(), generated.split()
    parts: list[str] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            words = old[i1:i2]
            parts.append(
                " ".join(words) if len(words) <= 8 else " ".join([*words[:3], "...", *words[-3:]])
            )
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(old[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(new[j1:j2]) + "+}")
    if expected != generated and old == new:
        return "whitespace differs: " + repr(expected[:80]) + " vs " + repr(generated[:80])
    return " ".join(parts)
