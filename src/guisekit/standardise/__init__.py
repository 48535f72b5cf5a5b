"""Standardise inputs before a production decision model, behind a fact gate.

Three ways in: :class:`Standardiser` (Python), its langchain-core runnables
(``standardiser.as_runnable() | decision_chain``) and the HTTP service
(:mod:`guisekit.standardise.service`, ``guisekit serve``), which imports FastAPI only when
used.
"""

from guisekit.redact import Redactor
from guisekit.standardise.cache import CacheInfo
from guisekit.standardise.core import FallbackOn, Standardiser
from guisekit.standardise.results import (
    FactGate,
    GateAuditor,
    GateDiscrepancy,
    GateVerdict,
    StandardiseResult,
    StyleResult,
)

__all__ = [
    "CacheInfo",
    "FactGate",
    "FallbackOn",
    "GateAuditor",
    "GateDiscrepancy",
    "GateVerdict",
    "Redactor",
    "StandardiseResult",
    "Standardiser",
    "StyleResult",
]
