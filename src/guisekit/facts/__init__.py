"""The exact fact check: typed fact extraction and original-vs-rewrite comparison."""

from guisekit.facts.compare import check_facts, compare_facts
from guisekit.facts.extract import extract_facts
from guisekit.facts.model import Discrepancy, Fact, FactCheckResult

__all__ = [
    "Discrepancy",
    "Fact",
    "FactCheckResult",
    "check_facts",
    "compare_facts",
    "extract_facts",
]
