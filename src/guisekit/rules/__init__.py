"""The embedded rules engine and its public helpers."""

from guisekit.rules.cues import HedgeScore, StyleCues, hedge_score, style_cues
from guisekit.rules.engine import RulesEngine

__all__ = ["HedgeScore", "RulesEngine", "StyleCues", "hedge_score", "style_cues"]
