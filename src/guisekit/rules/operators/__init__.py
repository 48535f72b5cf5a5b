"""Rule operators, registered by importing their family modules."""

from guisekit.rules.operators import contractions, discourse, lexical, noise, simplify
from guisekit.rules.operators.base import REGISTRY, STAGES, Operator, Stage, get_operator

__all__ = [
    "REGISTRY",
    "STAGES",
    "Operator",
    "Stage",
    "contractions",
    "discourse",
    "get_operator",
    "lexical",
    "noise",
    "simplify",
]
