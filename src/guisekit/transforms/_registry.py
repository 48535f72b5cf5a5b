"""The transform registry: one entry per transform version, looked up by every engine.

A transform (``hedge``) may have several behaviour versions; each is one
:class:`Transform` entry named ``hedge.v1``, ``hedge.v2``. An entry carries everything the
rest of the toolkit needs to know about it, so no other module branches on the type of a
spec:

- its spec model (the ``version`` field of a spec selects the entry);
- its rules implementation (operator rates, or a rewrite function);
- its LLM prompt id and the template variables a spec fills in;
- its corpus label (``hedge:hedged``);
- its expected fact change, which ``as_intended`` and the audit's positive controls read.

Transforms live one per module in :mod:`guisekit.transforms`; the registry imports every
module of that package on first use, so adding a transform is one new module plus its data
and tests.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, cast

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    SerializeAsAny,
    Tag,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from guisekit.errors import ConfigError

if TYPE_CHECKING:
    from guisekit.rules.engine import RulesEngine

__all__ = [
    "FactChange",
    "RulesOutput",
    "Spec",
    "Transform",
    "TransformSpec",
    "all_transforms",
    "entry_of",
    "get",
    "implementation",
    "label_of",
    "names",
    "parse_spec",
    "register",
    "spec_from_label",
]

FactChange = Literal["none", "scaled", "added", "removed", "claim"]
"""What a transform does to the facts the exact check extracts.

``none``: nothing (a style transform; its variants must pass the check). ``scaled``: every
money amount multiplied by the spec's factor, nothing else (a text with no amount gains
one). ``added``: exactly one money amount added. ``removed``: exactly one fact removed.
``claim``: a claim changes that no extractor sees (the extracted facts stay equal). Every
value but ``none`` marks a positive control that fact screens must catch.
"""


class Spec(BaseModel):
    """Base of every transform spec: frozen, unknown fields forbidden, versioned."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    # field order is part of the seed (the spec's JSON seeds the rules engine): keep it
    version: int = Field(default=1, ge=1, description="Behaviour version of the transform.")
    transform: str

    @model_validator(mode="after")
    def _registered_version(self) -> Spec:
        # a spec model built directly must still name a version that exists: `version: 2`
        # must never run version 1's behaviour under a new id
        known = _VERSIONS.get(type(self))
        if known is not None and self.version not in known:
            raise ValueError(
                f"transform {self.transform!r} has no version {self.version} "
                f"(known: {', '.join(map(str, sorted(known)))})"
            )
        return self


@dataclass(frozen=True)
class RulesOutput:
    """What a rules rewrite function returns: the text, its edit records (the fields of
    :class:`~guisekit.models.AppliedEdit`), provenance params and transform details."""

    text: str
    edits: list[dict[str, Any]]
    params: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)


RatesFn = Callable[["RulesEngine", Any], dict[str, float]]
RewriteFn = Callable[["RulesEngine", str, Any, random.Random], RulesOutput]
VariablesFn = Callable[[str, Any], dict[str, Any]]


def _no_rates(engine: RulesEngine, spec: Any) -> dict[str, float]:
    return {}


def _fields(text: str, spec: Any) -> dict[str, Any]:
    return {"text": text, **spec.model_dump(mode="json", exclude={"transform", "version"})}


@dataclass(frozen=True)
class Transform:
    """One version of one transform; see the module docstring.

    ``rates`` gives the rules engine's operator rates for a spec (its words and noise
    stages then run with them, ``rounds`` times until the text stops changing);
    ``rewrite``, when given, replaces that with a function of (engine, text, spec, seeded
    generator). ``prompt`` is the LLM prompt id (``None``: the LLM engine cannot run this
    transform); ``variables`` fills its template; ``llm_check`` builds a re-ask check for
    a request and ``llm_details`` the details of an answer. ``label_field`` names the spec
    field shown in corpus labels; ``fact_change`` is constant or a function of the spec.
    ``expand`` turns one config entry into several (persona ``personas: all``): it returns
    the entry left to grid-expand and the extra fields of each spec it stands for.
    ``columns`` gives the extra corpus columns of a spec (persona levels).
    """

    name: str
    version: int
    spec: type[Spec]
    fact_change: FactChange | Callable[[Any], FactChange] = "none"
    label_field: str | None = None
    rates: RatesFn = _no_rates
    rounds: int = 1
    rewrite: RewriteFn | None = None
    prompt: str | None = None
    variables: VariablesFn = _fields
    llm_check: Callable[[str, Any], Any] | None = None
    llm_details: Callable[[str, str, Any], dict[str, Any]] | None = None
    expand: Callable[[dict[str, Any]], tuple[dict[str, Any], list[dict[str, Any]]]] | None = None
    columns: Callable[[Any], dict[str, Any]] | None = None

    @property
    def id(self) -> str:
        return f"{self.name}.v{self.version}"

    def change(self, spec: Spec) -> FactChange:
        """The fact change ``spec`` intends."""
        return self.fact_change(spec) if callable(self.fact_change) else self.fact_change

    def label(self, spec: Spec) -> str:
        """Short label of a spec: the transform and its main parameter (``hedge:hedged``)."""
        if self.label_field is None:
            return self.name
        return f"{self.name}:{getattr(spec, self.label_field)}"


_REGISTRY: dict[tuple[str, int], Transform] = {}
_VERSIONS: dict[type, set[int]] = {}
_LOADED = False


def register(entry: Transform) -> Transform:
    """Add ``entry``; the same name and version twice is an error (a behaviour change is a
    new version next to the old one, never a replacement)."""
    key = (entry.name, entry.version)
    if key in _REGISTRY and _REGISTRY[key] is not entry:
        raise ConfigError(f"transform {entry.id} is registered twice")
    if entry.spec.model_fields["transform"].default != entry.name:
        raise ConfigError(
            f"transform {entry.id}: its spec's `transform` default is not {entry.name!r}"
        )
    _REGISTRY[key] = entry
    _VERSIONS.setdefault(entry.spec, set()).add(entry.version)
    return entry


def _load() -> None:
    """Import every transform module of the package once (each registers itself)."""
    global _LOADED
    if _LOADED:
        return
    package = __name__.rpartition(".")[0]
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")
    _LOADED = True


def implementation(target: str) -> Callable[..., Any]:
    """A function named ``"package.module:function"``, imported on first call.

    Transform modules name their implementations this way: an implementation imports its
    spec model, so a static import back from the transform module would be a cycle (the
    registry binds late, as plugin registries do; see ARCHITECTURE.md)."""
    module, _, name = target.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{target}, imported on first call."
    return call


def all_transforms() -> list[Transform]:
    """Every registered entry, by name then version."""
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def names() -> list[str]:
    """Every transform name, sorted."""
    _load()
    return sorted({name for name, _ in _REGISTRY})


def get(name: str, version: int = 1) -> Transform:
    """The entry of ``name`` version ``version``; unknown ones are a one-line ConfigError."""
    _load()
    entry = _REGISTRY.get((name, version))
    if entry is not None:
        return entry
    known = sorted(v for n, v in _REGISTRY if n == name)
    if known:
        raise ConfigError(
            f"transform {name!r} has no version {version}",
            hint="known versions: " + ", ".join(str(v) for v in known),
        )
    raise ConfigError(f"unknown transform {name!r}", hint="known transforms: " + ", ".join(names()))


def entry_of(spec: Spec) -> Transform:
    """The entry that implements ``spec`` (its transform and version)."""
    return get(spec.transform, spec.version)


def _tag(value: Any) -> str | None:
    """Discriminator of the spec union: the name for version 1, ``name.vN`` after; a
    version that is not a positive integer goes to version 1's model, which says why."""
    name: object
    version: object
    if isinstance(value, Spec):
        name, version = value.transform, value.version
    elif isinstance(value, Mapping):
        name, version = value.get("transform"), value.get("version", 1)
    else:
        return None
    if not isinstance(name, str):
        return None
    if not isinstance(version, int) or isinstance(version, bool) or version <= 1:
        return name
    return f"{name}.v{version}"


@functools.cache
def _adapter(size: int) -> TypeAdapter[Any]:
    """The tagged union of every registered spec model (rebuilt when the registry grows),
    so a parameter error is located as ``(transform, field)``."""
    members = tuple(
        Annotated[e.spec, Tag(e.name if e.version == 1 else e.id)] for e in all_transforms()
    )
    union = members[0] if len(members) == 1 else Union[members]  # noqa: UP007
    return TypeAdapter(Annotated[union, Discriminator(_tag)])  # type: ignore[arg-type]


def parse_spec(data: object) -> Spec:
    """Validate a mapping (from YAML/JSON) into the spec model of its transform version.

    What the registry decides is a one-line :class:`ConfigError`: not a mapping, no
    ``transform``, an unknown transform or version. A bad parameter is a pydantic
    ``ValidationError`` located as ``(transform, field)``.
    """
    if isinstance(data, Spec):
        return data
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"a transform spec must be a mapping, not {type(data).__name__}",
            hint="e.g. {transform: hedge, direction: hedged}",
        )
    name = data.get("transform")
    if not isinstance(name, str):
        raise ConfigError(
            "a transform spec needs `transform:` (its name)",
            hint="known transforms: " + ", ".join(names()),
        )
    version = data.get("version", 1)
    if isinstance(version, int) and not isinstance(version, bool) and version >= 1:
        get(name, version)  # unknown name or version: ConfigError
    else:
        get(name)
    _load()
    return cast(Spec, _adapter(len(_REGISTRY)).validate_python(data))


def _coerce(value: object) -> object:
    """Inside a pydantic model: registry errors become validation errors at the field."""
    if isinstance(value, Spec):
        return value
    try:
        return parse_spec(value)
    except ConfigError as exc:
        raise ValueError(exc.one_line()) from None


TransformSpec = Annotated[SerializeAsAny[Spec], BeforeValidator(_coerce)]
"""A field holding any registered spec: validated through the registry, dumped in full."""


def label_of(spec: Spec) -> str:
    """Short label of a spec's transform and main parameter (``hedge:hedged``)."""
    return entry_of(spec).label(spec)


def spec_from_label(label: str) -> Spec | None:
    """The spec a corpus label stands for (``fact_edit:weaken``), with default parameters
    otherwise; ``None`` when the label names no registered transform or a bad value."""
    name, _, detail = label.strip().partition(":")
    _load()
    versions = sorted(v for n, v in _REGISTRY if n == name)
    if not versions:
        return None
    entry = _REGISTRY[(name, versions[0])]
    data: dict[str, Any] = {"transform": name}
    if entry.label_field and detail:
        data[entry.label_field] = detail
    elif detail:
        return None
    try:
        return entry.spec.model_validate(data)
    except ValidationError:
        return None
