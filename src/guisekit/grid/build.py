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
from operator import itemgetter
from typing import Any

from jinja2 import StrictUndefined, Template, TemplateError, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment

from guisekit.errors import ConfigError
from guisekit.grid.ids import DEFAULT_ORDER, FACTORS, slugify
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


def _template_bug(where: str, exc: BaseException) -> ConfigError:
    """A template that cannot render for any input (1/0, a huge range, endless recursion)."""
    what = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return ConfigError(
        f"a template fails to render: {what}", location=where, hint="fix the template"
    )


def _check_slot_names(inputs: GridInputs) -> None:
    for profile in inputs.profiles:
        clash = RESERVED_SLOTS & set(profile.slots)
        if clash:
            raise ConfigError(
                f"slot names {sorted(clash)} are reserved for the grid",
                location=f"profiles.{profile.id}",
                hint="rename the slot",
            )


def _cells(inputs: GridInputs) -> Iterator[tuple[tuple[int, int, int, int], str, Placement]]:
    for li, language in enumerate(inputs.languages):
        for pi, placement in enumerate(inputs.placements):
            for fi in range(len(inputs.profiles)):
                for qi in range(len(inputs.questions)):
                    yield (li, pi, fi, qi), language, placement


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
    profile_slugs = [slugify(p.id) for p in inputs.profiles]
    question_slugs = [slugify(q.id) for q in inputs.questions]
    idents = [(i, i.id, slugify(i.axis), slugify(i.value)) for i in inputs.identifiers.identifiers]
    # Rendering goes cell by cell (each cell's skeleton is rendered once); a row's factor
    # indices are kept only when the rows must be reordered or numbered afterwards.
    keyed = inputs.order != DEFAULT_ORDER or inputs.ids is not None
    keys: list[tuple[int, ...]] = []
    rows: list[dict[str, Any]] = []
    skeletons: dict[str, str] = {}
    failures: list[RenderFailure] = []
    for (li, pi, fi, qi), language, placement in _cells(inputs):
        profile, question = inputs.profiles[fi], inputs.questions[qi]
        profile_slug, question_slug = profile_slugs[fi], question_slugs[qi]
        cell = f"{name}.{language}.{placement}.{profile_slug}.{question_slug}"
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
        except (ArithmeticError, RecursionError) as exc:  # a template bug, not a data gap
            raise _template_bug(cell, exc) from None
        slot_columns = {f"slot_{k}": v for k, v in slots.items()}
        for ii, (ident, ident_id, axis_slug, value_slug) in enumerate(idents):
            phrase = ident.phrase(language, placement)
            if phrase is None:
                continue
            pair = f"{name}.{placement}.{axis_slug}.{value_slug}.{profile_slug}.{question_slug}"
            try:
                text = template.render({**context, "identity": phrase}).strip()
            except TemplateError as exc:
                failures.append(RenderFailure(pair, f"{type(exc).__name__}: {exc}"))
                continue
            except (ArithmeticError, RecursionError) as exc:
                raise _template_bug(pair, exc) from None
            rows.append(
                {
                    "id": f"{name}.{language}.{placement}.{axis_slug}.{value_slug}."
                    f"{profile_slug}.{question_slug}",
                    "text": text,
                    "grid": name,
                    "language": language,
                    "placement": placement,
                    "axis": ident.axis,
                    "identifier": ident.value,
                    "identifier_id": ident_id,
                    "identity": phrase,
                    "profile": profile.id,
                    "question": question.id,
                    "question_text": question_text,
                    "cell": cell,
                    "pair": pair,
                    **slot_columns,
                }
            )
            if keyed:
                keys.append((li, pi, fi, qi, ii))
    if keyed:
        rows = _reorder(inputs, rows, keys, profile_slugs, question_slugs, idents)
    return GridBuild(rows, skeletons, failures)


def _reorder(
    inputs: GridInputs,
    rows: list[dict[str, Any]],
    keys: list[tuple[int, ...]],
    profile_slugs: list[str],
    question_slugs: list[str],
    idents: list[tuple[Identifier, str, str, str]],
) -> list[dict[str, Any]]:
    """Rows sorted into ``inputs.order`` and, with an id template, numbered and renamed."""
    # keys hold factor indices in FACTORS order; sort by them permuted into inputs.order
    rank = itemgetter(*(FACTORS.index(f) for f in inputs.order))
    ranked = sorted(zip(keys, rows, strict=True), key=lambda kr: rank(kr[0]))
    ids = inputs.ids
    if ids is None:
        return [row for _, row in ranked]
    within = [FACTORS.index(f) for f in ids.count_within]
    counters: dict[tuple[int, ...], int] = {}
    values: dict[str, Any] = {**ids.fields, "grid": inputs.name}  # refilled for every row
    fill = ids.template.format_map
    for key, row in ranked:
        scope = tuple(key[i] for i in within)
        index = counters.get(scope, ids.start)
        counters[scope] = index + 1
        _, _, values["axis"], values["identifier"] = idents[key[4]]
        values["language"] = row["language"]
        values["placement"] = row["placement"]
        values["profile"] = profile_slugs[key[2]]
        values["question"] = question_slugs[key[3]]
        values["index"] = index
        row["id"] = fill(values)
    return [row for _, row in ranked]
