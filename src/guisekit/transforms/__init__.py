"""Transforms: what to do to a text, one module per transform, found through a registry.

Each module defines a spec model and registers one :class:`Transform` entry per version
(``hedge.v1``). Engines, plans, exports and audits look entries up with :func:`entry_of`
and never branch on the type of a spec. See ``ARCHITECTURE.md``.
"""

from guisekit.transforms._registry import (
    FactChange,
    RulesOutput,
    Spec,
    Transform,
    TransformSpec,
    all_transforms,
    entry_of,
    get,
    label_of,
    names,
    parse_spec,
    register,
    spec_from_label,
)

__all__ = [
    "FactChange",
    "RulesOutput",
    "Spec",
    "Transform",
    "TransformSpec",
    "all_transforms",
    "entry_of",
    "get",
    "label_of",
    "names",
    "parse_spec",
    "register",
    "spec_from_label",
]
