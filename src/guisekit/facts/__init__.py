"""The exact fact check: typed fact extraction and original-vs-rewrite comparison."""

from guisekit.facts.compare import check_facts, compare_facts
from guisekit.facts.extract import extract_facts
from guisekit.facts.model import Discrepancy, Fact, FactCheckResult
from guisekit.facts.policy import DEFAULT_POLICY, SeverityPolicy
from guisekit.facts.record import DiscrepancyRecord, FactCheckRecord

__all__ = [
    "DEFAULT_POLICY",
    "Discrepancy",
    "DiscrepancyRecord",
    "Fact",
    "FactCheckRecord",
    "FactCheckResult",
    "SeverityPolicy",
    "check_facts",
    "compare_facts",
    "extract_facts",
]
