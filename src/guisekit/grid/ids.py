"""Prompt ids and row order: how a grid reproduces a published benchmark row for row.

A published grid fixes two things a reproduction must match: the id of each prompt
(``salary_estimation_en_00001``) and the order of the rows (which factor varies fastest).
``order`` lists the five factors from slowest to fastest; ``id`` is a ``str.format``
template over the row's factors and a running index, validated when the config is read
(an unknown field or a bad format spec is an error there, not half-way through a build).

Values keep their spelling everywhere else; inside an id every value is a slug
(:func:`slugify`), so ids are readable, stable and safe as file names on every platform.
"""

from __future__ import annotations

import re
import string
import unicodedata
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "DEFAULT_ORDER",
    "FACTORS",
    "ID_FIELDS",
    "Factor",
    "IdSpec",
    "check_order",
    "slugify",
]

Factor = Literal["language", "placement", "profile", "question", "identifier"]
FACTORS: tuple[Factor, ...] = ("language", "placement", "profile", "question", "identifier")
DEFAULT_ORDER: tuple[Factor, ...] = FACTORS
ID_FIELDS = (
    "grid",
    "language",
    "placement",
    "axis",
    "identifier",
    "profile",
    "question",
    "index",
)
_NOT_SLUG = re.compile(r"[^a-z0-9_-]+")


def slugify(text: str) -> str:
    """``Urban/Rural`` -> ``urban_rural``, ``P01`` -> ``p01``: lower-case ASCII letters,
    digits, ``_`` and ``-``; accents are dropped (``Bihār`` -> ``bihar``).

    A slug is already its own slug, so ids built from slug-valued data do not change.
    Raises ValueError for a text with no letter or digit left to build an id from.
    """
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    slug = _NOT_SLUG.sub("_", folded).strip("_-")
    if not slug:
        raise ValueError(f"{text!r} has no ASCII letter or digit to build an id from")
    return slug


def check_order(order: tuple[str, ...]) -> tuple[Factor, ...]:
    """``order`` if it names each factor exactly once (slowest first), else ValueError."""
    missing = [f for f in FACTORS if f not in order]
    repeated = sorted({f for f in order if order.count(f) > 1})
    if missing or repeated or len(order) != len(FACTORS):
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if repeated:
            problems.append(f"repeated {', '.join(repeated)}")
        raise ValueError(
            f"order must list each of {', '.join(FACTORS)} once, slowest first "
            f"({'; '.join(problems) or 'unknown factors'})"
        )
    return order  # type: ignore[return-value]


class IdSpec(BaseModel):
    """How prompt ids are written.

    ``template`` uses the fields of :data:`ID_FIELDS` (values as slugs; ``index`` an
    integer, so ``{index:05d}`` zero-pads it) and the constants in ``fields``. ``index``
    counts the prompts from ``start`` in row order, restarting for each combination of the
    factors in ``count_within`` (``[language]``: ``..._en_00001`` and ``..._hinglish_00001``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    template: str = Field(min_length=1)
    fields: dict[str, str] = Field(default_factory=dict)
    start: int = Field(default=1, ge=0)
    count_within: tuple[Factor, ...] = ()

    @model_validator(mode="after")
    def _valid(self) -> IdSpec:
        clash = sorted(set(self.fields) & set(ID_FIELDS))
        if clash:
            raise ValueError(f"id.fields {clash} shadow built-in id fields; rename them")
        known = (*ID_FIELDS, *self.fields)
        try:
            parsed = list(string.Formatter().parse(self.template))
        except ValueError as exc:
            raise ValueError(f"id template {self.template!r}: {exc}") from None
        for _, name, spec, conversion in parsed:
            if name is None:
                continue
            if name not in known:
                label = "{" + name + "}"
                raise ValueError(
                    f"unknown field {label} in id template {self.template!r} "
                    f"(known: {', '.join(known)}; constants go under id.fields)"
                )
            if conversion is not None or "{" in (spec or ""):
                raise ValueError(
                    f"id template {self.template!r}: use plain fields with a format spec "
                    "({index:05d}), no !conversions or nested fields"
                )
        try:
            self.render({f: "x" for f in ID_FIELDS} | {"index": self.start})
        except (ValueError, TypeError) as exc:
            raise ValueError(f"id template {self.template!r}: {exc}") from None
        if len(set(self.count_within)) != len(self.count_within):
            raise ValueError("id.count_within names a factor twice")
        return self

    def render(self, values: dict[str, Any]) -> str:
        """The id for one row's ``values`` (slugs and ``index``)."""
        return self.template.format_map({**self.fields, **values})
