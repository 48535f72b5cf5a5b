"""``persona.v1``: rewrite in the guise of one persona (axis -> level) of a persona grid."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from guisekit.errors import ConfigError, GuisekitError
from guisekit.transforms._registry import Spec, Transform, register

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = ["PersonaSpec"]


class PersonaSpec(Spec):
    """Rewrite in the guise of one persona, given as axis -> level."""

    transform: Literal["persona"] = "persona"
    persona: dict[str, str] = Field(min_length=1)
    grid: str | None = Field(
        default=None, description="A packaged grid name (default, demographic) or a grid YAML path."
    )


def _rates(engine: RulesEngine, spec: PersonaSpec) -> dict[str, float]:
    from guisekit.personas import load_grid

    grid = load_grid(spec.grid)
    return engine.profiles.rates(grid.persona(spec.persona))


def _variables(text: str, spec: PersonaSpec) -> dict[str, Any]:
    from guisekit.personas import load_grid

    grid = load_grid(spec.grid)
    persona = grid.persona(spec.persona)
    return {"text": text, "persona": grid.describe(persona), "persona_id": persona.id}


def _expand(entry: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``personas: all`` (or a list of persona ids) gives one spec per persona of the grid:
    the entry without ``personas``, and the ``persona`` value of each spec."""
    if "personas" not in entry:
        return entry, [{}]
    from guisekit.personas import load_grid

    entry = dict(entry)
    wanted = entry.pop("personas")
    grid = load_grid(entry.get("grid"))
    try:
        ids = wanted if isinstance(wanted, list) else [wanted]
        personas = grid.personas() if wanted == "all" else [grid.persona(p) for p in ids]
    except GuisekitError as exc:
        raise ConfigError(exc.one_line(), location="personas") from None
    return entry, [{"persona": p.as_dict()} for p in personas]


def _columns(spec: PersonaSpec) -> dict[str, Any]:
    return {"persona": "-".join(spec.persona.values()), **spec.persona}


PERSONA = register(
    Transform(
        "persona",
        1,
        PersonaSpec,
        rates=_rates,
        prompt="persona/rewrite",
        variables=_variables,
        expand=_expand,
        columns=_columns,
    )
)
