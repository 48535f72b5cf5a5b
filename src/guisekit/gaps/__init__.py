"""``gaps``: group- and individual-scale gaps of decisions across guises, with
materiality, noise controls, positive controls, variance components and grid metrics."""

from guisekit.gaps.analysis import ControlRatio, GapsResult, MitigationRow, analyse
from guisekit.gaps.contrasts import ContrastEstimate, Margins, define_contrasts
from guisekit.gaps.individual import Instability
from guisekit.gaps.table import GapsTable, build_table

__all__ = [
    "ContrastEstimate",
    "ControlRatio",
    "GapsResult",
    "GapsTable",
    "Instability",
    "Margins",
    "MitigationRow",
    "analyse",
    "build_table",
    "define_contrasts",
]
