"""Typed transform specs: what to do to a text, independent of the engine that does it.

Each spec model lives with its transform in :mod:`guisekit.transforms` and is found
through the registry by its ``transform`` name and ``version``; this module re-exports the
built-in ones. A bad value in a config fails where it enters, with its location; an
unknown transform or version is a one-line :class:`~guisekit.errors.ConfigError`.
"""

from __future__ import annotations

from guisekit.transforms import Spec, TransformSpec, parse_spec
from guisekit.transforms.accent import AccentSpec
from guisekit.transforms.fact_edit import FactEditSpec
from guisekit.transforms.hedge import HedgeSpec
from guisekit.transforms.hinglish import HinglishSpec
from guisekit.transforms.identity import IdentitySpec
from guisekit.transforms.persona import PersonaSpec
from guisekit.transforms.standardise import StandardiseSpec, StandardStyle

__all__ = [
    "AccentSpec",
    "FactEditSpec",
    "HedgeSpec",
    "HinglishSpec",
    "IdentitySpec",
    "PersonaSpec",
    "Spec",
    "StandardStyle",
    "StandardiseSpec",
    "TransformSpec",
    "parse_spec",
]
