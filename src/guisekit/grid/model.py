"""The inputs of an identifier counterfactual grid, as typed records.

A grid crosses an identifier table (axis, value, a phrase per language) with base
profiles (named slot values), templates per placement and language, and question variants
per language. Axis, identifier, profile and question names keep the spelling of their
source file (``Urban/Rural``, ``Hindu``, ``P01``) in every output; only inside a prompt id
are they slugs (:func:`guisekit.grid.ids.slugify`), and two names with one slug are an
error, because their ids would collide.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from guisekit.grid.ids import DEFAULT_ORDER, Factor, IdSpec, check_order, slugify

__all__ = [
    "PLACEMENTS",
    "GridInputs",
    "Identifier",
    "IdentifierSet",
    "Name",
    "Placement",
    "Profile",
    "Question",
    "Slug",
]

Placement = Literal["self", "third_party"]
PLACEMENTS: tuple[Placement, ...] = ("self", "third_party")
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=64)]
Text = Annotated[str, StringConstraints(min_length=1)]
SlotName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_-]*$", max_length=64)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Identifier(_Record):
    """One explicit identifier: its axis, value and the phrase that names it per language.

    A phrase completes the writer's self-description ("I am ___") or a description of a
    third party ("a friend who is ___"); ``third_party`` overrides it for that placement
    where a language words the two differently, and ``placements`` limits where it may go.
    """

    axis: Name
    value: Name
    phrases: dict[Slug, Text] = Field(min_length=1)
    third_party: dict[Slug, Text] = Field(default_factory=dict)
    placements: tuple[Placement, ...] = PLACEMENTS
    note: str | None = None

    @property
    def id(self) -> str:
        """``axis.value`` as slugs: the same identifier under any spelling of its file."""
        return f"{slugify(self.axis)}.{slugify(self.value)}"

    def phrase(self, language: str, placement: Placement) -> str | None:
        """The phrase for ``language`` at ``placement``; None where the set has none."""
        if placement not in self.placements:
            return None
        if placement == "third_party" and language in self.third_party:
            return self.third_party[language]
        return self.phrases.get(language)


class IdentifierSet(_Record):
    """A table of identifiers over declared axes, with a description of each axis."""

    name: Slug
    description: str = ""
    source: str = ""
    axes: dict[Name, str] = Field(min_length=1)
    identifiers: tuple[Identifier, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> IdentifierSet:
        _unique_slugs("axis", list(self.axes))
        seen: dict[str, str] = {}
        for item in self.identifiers:
            if item.axis not in self.axes:
                raise ValueError(
                    f"identifier {item.axis}/{item.value} uses undeclared axis {item.axis!r}"
                )
            try:
                key = item.id
            except ValueError as exc:
                raise ValueError(f"identifier {item.axis}/{item.value}: {exc}") from None
            if key in seen:
                raise ValueError(
                    f"identifier {key!r} appears twice ({seen[key]!r} and {item.axis}/{item.value})"
                )
            seen[key] = f"{item.axis}/{item.value}"
        return self

    def select(self, axes: tuple[str, ...]) -> IdentifierSet:
        """The same set limited to ``axes`` (in the set's own order)."""
        unknown = [a for a in axes if a not in self.axes]
        if unknown:
            raise ValueError(f"unknown axes {unknown}; the set has {list(self.axes)}")
        return self.model_copy(
            update={
                "axes": {a: d for a, d in self.axes.items() if a in axes},
                "identifiers": tuple(i for i in self.identifiers if i.axis in axes),
            }
        )


class Profile(_Record):
    """A base profile: named slot values, one string for every language or one per language."""

    id: Name
    slots: dict[SlotName, Text | dict[Slug, Text]]

    def values(self, language: str) -> dict[str, str]:
        """Slot values in ``language``; a slot without a value there is left out (and will
        show up as an unfilled slot if a template uses it)."""
        found: dict[str, str] = {}
        for name, value in self.slots.items():
            if isinstance(value, str):
                found[name] = value
            elif language in value:
                found[name] = value[language]
        return found


class Question(_Record):
    """A question variant: its text per language (a template that may use profile slots),
    with ``third_party`` overrides where the question is asked about someone else."""

    id: Name
    text: dict[Slug, Text] = Field(min_length=1)
    third_party: dict[Slug, Text] = Field(default_factory=dict)

    def for_(self, language: str, placement: Placement) -> str | None:
        if placement == "third_party" and language in self.third_party:
            return self.third_party[language]
        return self.text.get(language)


class GridInputs(_Record):
    """Everything a grid is built from, resolved and validated."""

    name: Slug
    identifiers: IdentifierSet
    profiles: tuple[Profile, ...] = Field(min_length=1)
    templates: dict[Placement, dict[Slug, Text]] = Field(min_length=1)
    questions: tuple[Question, ...] = Field(min_length=1)
    languages: tuple[Slug, ...] = Field(min_length=1)
    order: tuple[Factor, ...] = DEFAULT_ORDER
    ids: IdSpec | None = None

    @field_validator("order")
    @classmethod
    def _order(cls, order: tuple[str, ...]) -> tuple[Factor, ...]:
        return check_order(order)

    @model_validator(mode="after")
    def _unique(self) -> GridInputs:
        for what, ids in (
            ("profile", [p.id for p in self.profiles]),
            ("question", [q.id for q in self.questions]),
            ("language", list(self.languages)),
        ):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"duplicate {what} ids: {dupes}")
            _unique_slugs(what, ids)
        return self

    @property
    def placements(self) -> tuple[Placement, ...]:
        return tuple(p for p in PLACEMENTS if p in self.templates)


def _unique_slugs(what: str, names: list[str]) -> None:
    """Names must map to distinct slugs, or two prompts would share an id."""
    seen: dict[str, str] = {}
    for name in names:
        try:
            slug = slugify(name)
        except ValueError as exc:
            raise ValueError(f"{what} {exc}") from None
        if slug in seen and seen[slug] != name:
            raise ValueError(f"{what} names {seen[slug]!r} and {name!r} share the id slug {slug!r}")
        seen[slug] = name
