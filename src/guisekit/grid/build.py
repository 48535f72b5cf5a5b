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

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from operator import itemgetter
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateError, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment

from guisekit.errors import ConfigError
from guisekit.grid.ids import FACTORS, slugify
from guisekit.grid.model import GridInputs, Identifier, Placement

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


@dataclass(frozen=True)
class _Cell:
    """One rendered cell (language, placement, profile, question): everything a prompt of
    it shares but the identifier phrase."""

    key: str
    template: Template
    context: dict[str, str]
    question_text: str
    slot_columns: dict[str, str]


@dataclass(frozen=True)
class _Ident:
    """An identifier with its slugs worked out once per grid, not once per prompt."""

    item: Identifier
    id: str
    axis_slug: str
    value_slug: str


def _render_cells(
    inputs: GridInputs, compiled: _Templates, slugs: dict[str, dict[str, str]]
) -> tuple[dict[tuple[str, str, str, str], _Cell], dict[str, str], list[RenderFailure]]:
    cells: dict[tuple[str, str, str, str], _Cell] = {}
    skeletons: dict[str, str] = {}
    failures: list[RenderFailure] = []
    name = inputs.name
    for language in inputs.languages:
        for placement in inputs.placements:
            for profile in inputs.profiles:
                for question in inputs.questions:
                    cell = (
                        f"{name}.{language}.{placement}.{slugs['profile'][profile.id]}."
                        f"{slugs['question'][question.id]}"
                    )
                    template = compiled.prompt.get((placement, language))
                    question_template = compiled.question.get((question.id, language, placement))
                    if template is None or question_template is None:
                        continue
                    slots = profile.values(language)
                    try:
                        question_text = question_template.render(slots).strip()
                        context = {**slots, "question": question_text}
                        skeleton = template.render({**context, "identity": SENTINEL}).strip()
                    except TemplateError as exc:
                        failures.append(RenderFailure(cell, f"{type(exc).__name__}: {exc}"))
                        continue
                    skeletons[cell] = skeleton
                    cells[language, placement, profile.id, question.id] = _Cell(
                        cell,
                        template,
                        context,
                        question_text,
                        {f"slot_{k}": v for k, v in slots.items()},
                    )
    return cells, skeletons, failures


def build_rows(inputs: GridInputs) -> GridBuild:
    """Render the full grid (language x placement x profile x question x identifier).

    Rows come in ``inputs.order`` (slowest factor first; by default the identifier varies
    fastest). Ids follow ``inputs.ids`` or, by default, the readable
    ``grid.language.placement.axis.value.profile.question`` with every part a slug; every
    other column keeps the values as spelled in the inputs. A combination the inputs do not
    cover (no phrase, template or question text in a language) is skipped, and the checks
    report it.
    """
    _check_slot_names(inputs)
    compiled = _Templates(inputs)
    name = inputs.name
    slugs = {
        "profile": {p.id: slugify(p.id) for p in inputs.profiles},
        "question": {q.id: slugify(q.id) for q in inputs.questions},
    }
    cells, skeletons, failures = _render_cells(inputs, compiled, slugs)
    idents = [
        _Ident(i, i.id, slugify(i.axis), slugify(i.value)) for i in inputs.identifiers.identifiers
    ]
    factors: dict[str, Sequence[Any]] = {
        "language": inputs.languages,
        "placement": inputs.placements,
        "profile": inputs.profiles,
        "question": inputs.questions,
        "identifier": idents,
    }
    order = inputs.order
    # each row's factors back in the canonical order, whatever order they are iterated in
    canonical = itemgetter(*(order.index(f) for f in FACTORS))
    ids = inputs.ids
    within = (
        itemgetter(*(order.index(f) for f in ids.count_within))
        if ids is not None and ids.count_within
        else None
    )
    counters: dict[Any, int] = {}
    rows: list[dict[str, Any]] = []
    for combination in product(*(factors[f] for f in order)):
        language, placement, profile, question, ident = canonical(combination)
        cell = cells.get((language, placement, profile.id, question.id))
        if cell is None:
            continue
        item = ident.item
        phrase = item.phrase(language, placement)
        if phrase is None:
            continue
        profile_slug = slugs["profile"][profile.id]
        question_slug = slugs["question"][question.id]
        pair = (
            f"{name}.{placement}.{ident.axis_slug}.{ident.value_slug}."
            f"{profile_slug}.{question_slug}"
        )
        try:
            text = cell.template.render({**cell.context, "identity": phrase}).strip()
        except TemplateError as exc:
            failures.append(RenderFailure(pair, f"{type(exc).__name__}: {exc}"))
            continue
        if ids is None:
            row_id = (
                f"{name}.{language}.{placement}.{ident.axis_slug}.{ident.value_slug}."
                f"{profile_slug}.{question_slug}"
            )
        else:
            scope = within(combination) if within is not None else ()
            index = counters.get(scope, ids.start)
            counters[scope] = index + 1
            row_id = ids.render(
                {
                    "grid": name,
                    "language": language,
                    "placement": placement,
                    "axis": ident.axis_slug,
                    "identifier": ident.value_slug,
                    "profile": profile_slug,
                    "question": question_slug,
                    "index": index,
                }
            )
        rows.append(
            {
                "id": row_id,
                "text": text,
                "grid": name,
                "language": language,
                "placement": placement,
                "axis": item.axis,
                "identifier": item.value,
                "identifier_id": ident.id,
                "identity": phrase,
                "profile": profile.id,
                "question": question.id,
                "question_text": cell.question_text,
                "cell": cell.key,
                "pair": pair,
                **cell.slot_columns,
            }
        )
    return GridBuild(rows, skeletons, failures)
