"""Build an identifier counterfactual grid: every identifier in every cell, in every language.

Templates are rendered with Jinja2's sandboxed environment and ``StrictUndefined``:

- a grid config is user data, and a sandbox cannot reach Python internals through a slot
  (``str.format`` can: ``{slot.__class__}``);
- a slot a template uses but a profile does not fill raises instead of rendering empty;
- prompts about money are full of ``$`` and braces, which ``string.Template`` and
  ``str.format`` would read as slots; ``{{ slot }}`` does not occur in prose.

Each cell (language, placement, profile, question) is also rendered once with a sentinel in
place of the identifier phrase; the check that the prompts of a cell differ only in that
phrase compares every prompt with this skeleton (see :mod:`guisekit.grid.checks`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateError, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment

from guisekit.errors import ConfigError
from guisekit.grid.model import GridInputs, Placement, Profile, Question

__all__ = ["RESERVED_SLOTS", "SENTINEL", "GridBuild", "RenderFailure", "build_rows"]

SENTINEL = "\x00identity\x00"
RESERVED_SLOTS = frozenset({"identity", "question"})


@dataclass(frozen=True)
class RenderFailure:
    """A prompt (or a whole cell) that could not be rendered, and why."""

    where: str
    reason: str


@dataclass(frozen=True)
class GridBuild:
    """The rendered rows, each cell's skeleton, and what failed to render."""

    rows: list[dict[str, Any]]
    skeletons: dict[str, str]
    failures: list[RenderFailure] = field(default_factory=list)


class _Templates:
    """Compiled templates and question texts, compiled once per grid."""

    def __init__(self, inputs: GridInputs) -> None:
        self.env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False)
        self.prompt: dict[tuple[Placement, str], Template] = {}
        for placement, by_language in inputs.templates.items():
            for language, source in by_language.items():
                self.prompt[placement, language] = self._compile(
                    source, f"templates.{placement}.{language}"
                )
        self.question: dict[tuple[str, str, Placement], Template] = {}
        for question in inputs.questions:
            for placement in inputs.placements:
                for language in inputs.languages:
                    text = question.for_(language, placement)
                    if text is not None:
                        self.question[question.id, language, placement] = self._compile(
                            text, f"questions.{question.id}.{language}"
                        )

    def _compile(self, source: str, where: str) -> Template:
        try:
            return self.env.from_string(source)
        except TemplateSyntaxError as exc:
            raise ConfigError(f"template syntax error: {exc.message}", location=where) from None


def _check_slot_names(inputs: GridInputs) -> None:
    for profile in inputs.profiles:
        clash = RESERVED_SLOTS & set(profile.slots)
        if clash:
            raise ConfigError(
                f"slot names {sorted(clash)} are reserved for the grid",
                location=f"profiles.{profile.id}",
                hint="rename the slot",
            )


def _cells(inputs: GridInputs) -> Iterator[tuple[str, Placement, Profile, Question]]:
    for language in inputs.languages:
        for placement in inputs.placements:
            for profile in inputs.profiles:
                for question in inputs.questions:
                    yield language, placement, profile, question


def build_rows(inputs: GridInputs) -> GridBuild:
    """Render the full grid (language x placement x profile x question x identifier).

    Rows come in that order with readable ids ``grid.language.placement.axis.value.
    profile.question``; a combination the inputs do not cover (no phrase, template or
    question text in a language) is skipped, and the checks report it.
    """
    _check_slot_names(inputs)
    compiled = _Templates(inputs)
    name = inputs.name
    rows: list[dict[str, Any]] = []
    skeletons: dict[str, str] = {}
    failures: list[RenderFailure] = []
    for language, placement, profile, question in _cells(inputs):
        cell = f"{name}.{language}.{placement}.{profile.id}.{question.id}"
        template = compiled.prompt.get((placement, language))
        question_template = compiled.question.get((question.id, language, placement))
        if template is None or question_template is None:
            continue
        slots = profile.values(language)
        try:
            question_text = question_template.render(slots).strip()
            context = {**slots, "question": question_text}
            skeletons[cell] = template.render({**context, "identity": SENTINEL}).strip()
        except TemplateError as exc:
            failures.append(RenderFailure(cell, f"{type(exc).__name__}: {exc}"))
            continue
        slot_columns = {f"slot_{k}": v for k, v in slots.items()}
        for ident in inputs.identifiers.identifiers:
            phrase = ident.phrase(language, placement)
            if phrase is None:
                continue
            pair = f"{name}.{placement}.{ident.axis}.{ident.value}.{profile.id}.{question.id}"
            try:
                text = template.render({**context, "identity": phrase}).strip()
            except TemplateError as exc:
                failures.append(RenderFailure(pair, f"{type(exc).__name__}: {exc}"))
                continue
            rows.append(
                {
                    "id": f"{name}.{language}.{placement}.{ident.axis}.{ident.value}."
                    f"{profile.id}.{question.id}",
                    "text": text,
                    "grid": name,
                    "language": language,
                    "placement": placement,
                    "axis": ident.axis,
                    "identifier": ident.value,
                    "identifier_id": ident.id,
                    "identity": phrase,
                    "profile": profile.id,
                    "question": question.id,
                    "question_text": question_text,
                    "cell": cell,
                    "pair": pair,
                    **slot_columns,
                }
            )
    return GridBuild(rows, skeletons, failures)
